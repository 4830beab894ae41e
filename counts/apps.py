from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CountsConfig(AppConfig):
    name = "counts"
    verbose_name = _("Chip counts")

    def ready(self) -> None:
        from counts import receivers  # noqa: F401  (the deal calculator's stacks)
