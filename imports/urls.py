from django.urls import path

from imports import api

urlpatterns = [
    path("api/imports/td/", api.TdImport.as_view(), name="api-imports-td"),
]
