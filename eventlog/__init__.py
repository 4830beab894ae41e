"""The event log's platform, below every app: the catalogue of actions the log records, each with
its words and its kind (catalogue), registered by each app from its own messages.py, and the
history's sentences and filters (words, and the `events` template library). The log's rows are
the tournament app's (tournament/models.py Event, written by tournament/events.py event_record):
a row belongs to a tournament. It imports no app (import-linter contract)."""
