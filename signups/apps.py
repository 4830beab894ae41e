from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SignupsConfig(AppConfig):
    name = "signups"
    verbose_name = _("Sign-ups")

    def ready(self) -> None:
        # inside: AppConfig.ready (walk-ins after the waiting list)
        from signups import receivers  # noqa: F401
