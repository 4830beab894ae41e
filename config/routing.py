"""All websocket routes, collected from the apps."""

from clocks.routing import websocket_urlpatterns as clock_routes
from displays.routing import websocket_urlpatterns as display_routes
from tables.routing import websocket_urlpatterns as table_routes

websocket_urlpatterns = [*clock_routes, *table_routes, *display_routes]
