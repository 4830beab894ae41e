from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CountsConfig(AppConfig):
    name = "counts"
    verbose_name = _("Chip counts")

    def ready(self) -> None:
        # inside: AppConfig.ready (the deal calculator's stacks)
        from counts import receivers  # noqa: F401
