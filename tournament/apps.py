from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # inside: AppConfig.ready (connects the receivers)
        from tournament import signals  # noqa: F401
