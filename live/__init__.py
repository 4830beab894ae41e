"""The real-time layer, below every app: websocket group names and sending on commit
(realtime), the catalogue of live messages and event-log actions that each app registers from its
own messages.py (catalogue), the process's hub that hands a group's messages to its sockets
(hub), the base socket (consumers.LiveConsumer), the channel layer's watchdog (feedwatch) and how
far the room is behind (backlog). It imports no app (import-linter contract)."""
