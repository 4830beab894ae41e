from django.urls import path

from displays.consumers import DisplayConsumer

websocket_urlpatterns = [
    path("ws/display/", DisplayConsumer.as_asgi()),
]
