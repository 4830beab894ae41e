"""All websocket routes, collected from the apps."""

from clocks.routing import websocket_urlpatterns as clock_routes
from tables.routing import websocket_urlpatterns as table_routes

websocket_urlpatterns = [*clock_routes, *table_routes]
