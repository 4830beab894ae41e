from django.apps import AppConfig
from django.utils.module_loading import autodiscover_modules


class LiveConfig(AppConfig):
    """The real-time layer. When Django starts, every installed app's `messages` module (its live
    messages and event-log actions) is imported, so the catalogue holds them all."""

    name = "live"

    def ready(self) -> None:
        autodiscover_modules("messages")
