from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DisplaysConfig(AppConfig):
    name = "displays"
    verbose_name = _("Displays")
    default_auto_field = "django.db.models.BigAutoField"
