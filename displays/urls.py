from django.urls import path

from displays import views

urlpatterns = [
    path("display/", views.display_screen, name="display-screen"),
    path("display/view/<int:index>/", views.display_view, name="display-view"),
    path("console/displays/", views.console_displays, name="displays"),
    path("console/displays/<int:display_id>/", views.console_display, name="display-edit"),
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
