from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulesEngineConfig(AppConfig):
    name = "rules_engine"
    verbose_name = _("Rulings")
