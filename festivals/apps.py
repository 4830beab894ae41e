from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FestivalsConfig(AppConfig):
    name = "festivals"
    verbose_name = _("Events with starting flights")
