from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ActionsConfig(AppConfig):
    name = "actions"
    verbose_name = _("Actions across apps")

    def ready(self) -> None:
        # inside: AppConfig.ready (the event log's one receiver: the room hears what is logged)
        from actions import receivers  # noqa: F401
