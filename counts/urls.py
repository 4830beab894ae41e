from django.urls import path

from counts import public_views, views

urlpatterns = [
    path("console/t/<int:pk>/counts/", views.counts_console, name="counts-console"),
    path("t/<int:pk>/counts/", public_views.counts_public, name="counts-public"),
    path("t/<int:pk>/counts/screen/", public_views.counts_screen, name="counts-screen"),
    path("t/<int:pk>/counts.json", public_views.counts_json, name="counts-json"),
    path("api/tournaments/<int:pk>/counts/", public_views.CountsRead.as_view(), name="api-counts"),
]
