from django.urls import path

from displays import layout_views, views

urlpatterns = [
    path("display/", views.display_screen, name="display-screen"),
    path("display/view/<int:index>/", views.display_view, name="display-view"),
    path("console/displays/", views.console_displays, name="displays"),
    path("console/displays/<int:display_id>/", views.console_display, name="display-edit"),
    path("console/displays/layout/", layout_views.venue_layout, name="venue-layout"),
    path("console/t/<int:pk>/layout/", layout_views.tournament_layout, name="clock-layout"),
    path("clock-layouts/<int:pk>.css", layout_views.layout_css, name="clock-layout-css"),
    path("clock-layouts/<int:pk>/logo", layout_views.layout_logo, name="clock-layout-logo"),
    path(
        "console/displays/<int:display_id>/rename",
        views.console_display_rename,
        name="display-rename",
    ),
    path(
        "console/displays/<int:display_id>/remove",
        views.console_display_remove,
        name="display-remove",
    ),
]
