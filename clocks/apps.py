from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClocksConfig(AppConfig):
    name = "clocks"
    verbose_name = _("Clocks")

    def ready(self) -> None:
        # inside: AppConfig.ready (the clock follows the tournament's end)
        from clocks import receivers  # noqa: F401
