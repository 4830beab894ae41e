from django.urls import path

from clocks import announcements_views, audio_views, views

urlpatterns = [
    path("api/time", views.server_time, name="server-time"),
    path("t/<int:pk>/clock/", views.bigscreen, name="bigscreen"),
    path("t/<int:pk>/clock.json", views.clock_json, name="clock-json"),
    path(
        "t/<int:pk>/announce.wav",
        audio_views.announcement_audio,
        name="announcement-audio",
    ),
    path("console/t/<int:pk>/clock/", views.console_clock, name="console-clock"),
    path(
        "console/t/<int:pk>/announcements/",
        announcements_views.announcements_page,
        name="announcements",
    ),
    path(
        "console/t/<int:pk>/announcements/test",
        announcements_views.announcements_test,
        name="announcements-test",
    ),
    path(
        "console/t/<int:pk>/clock/<str:kind>",
        views.console_clock_command,
        name="console-clock-command",
    ),
]
