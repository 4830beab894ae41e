from django.urls import path

from tables import consumers

websocket_urlpatterns = [
    path("ws/d/<str:token>/", consumers.DealerConsumer.as_asgi()),
    path("ws/console/<int:pk>/", consumers.ConsoleConsumer.as_asgi()),
]
