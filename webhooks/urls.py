from django.urls import path

from webhooks import views

urlpatterns = [
    path("console/webhooks/", views.endpoints, name="webhooks"),
    path("console/webhooks/<int:pk>/", views.endpoint, name="webhook"),
    path("console/webhooks/<int:pk>/active", views.endpoint_active, name="webhook-active"),
    path("console/webhooks/<int:pk>/test", views.endpoint_ping, name="webhook-test"),
    path("console/webhooks/<int:pk>/delete", views.endpoint_delete, name="webhook-delete"),
]
