from django.urls import path

from webhooks import api

urlpatterns = [
    path("webhooks/", api.EndpointList.as_view(), name="api-webhooks"),
    path("webhooks/<int:pk>/", api.EndpointDetail.as_view(), name="api-webhook"),
    path("webhooks/<int:pk>/test/", api.EndpointTest.as_view(), name="api-webhook-test"),
    path(
        "webhooks/<int:pk>/deliveries/",
        api.EndpointDeliveries.as_view(),
        name="api-webhook-deliveries",
    ),
]
