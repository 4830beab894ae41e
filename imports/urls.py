from django.urls import path

from imports import api, views

urlpatterns = [
    path("api/imports/td/", api.TdImport.as_view(), name="api-imports-td"),
    path("console/imports/td/", views.td_import, name="imports-td"),
]
