from django.urls import path

from tables import consumers

websocket_urlpatterns = [
    path("ws/d/<str:token>/", consumers.DealerConsumer.as_asgi()),
    path("ws/console/<int:pk>/", consumers.ConsoleConsumer.as_asgi()),
    path("ws/t/<int:pk>/table/<int:number>/", consumers.PublicTableConsumer.as_asgi()),
]
