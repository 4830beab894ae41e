from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = _("Webhooks")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # inside: AppConfig.ready (the event log's rows become outbox rows after the commit)
        from webhooks import receivers  # noqa: F401
