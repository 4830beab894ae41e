"""All websocket routes, collected from the apps."""

from displays.routing import websocket_urlpatterns as display_routes
from tables.routing import websocket_urlpatterns as table_routes
from tournament.routing import websocket_urlpatterns as tournament_routes

websocket_urlpatterns = [*tournament_routes, *table_routes, *display_routes]
