from django.apps import AppConfig


class EventlogConfig(AppConfig):
    """The event log's words; its `events` template library (eventlog/templatetags)."""

    name = "eventlog"
