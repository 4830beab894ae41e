from django.apps import AppConfig


class VenueConfig(AppConfig):
    name = "venue"
    verbose_name = "Venue"
