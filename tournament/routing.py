from django.urls import path

from tournament.consumers import SeatConsumer, TournamentConsumer

websocket_urlpatterns = [
    path("ws/t/<int:pk>/", TournamentConsumer.as_asgi()),
    path("ws/s/<str:token>/", SeatConsumer.as_asgi()),
]
