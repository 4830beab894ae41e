from django.urls import path

from counts import chart_views, public_views, views

urlpatterns = [
    path("console/t/<int:pk>/counts/", views.counts_console, name="counts-console"),
    path(
        "console/t/<int:pk>/counts/leaders.svg",
        chart_views.leaders_console_svg,
        name="counts-console-leaders-svg",
    ),
    path(
        "console/t/<int:pk>/counts/player/<str:number>.svg",
        chart_views.player_console_svg,
        name="counts-console-player-svg",
    ),
    path("t/<int:pk>/counts/", public_views.counts_public, name="counts-public"),
    path("t/<int:pk>/counts/screen/", public_views.counts_screen, name="counts-screen"),
    path("t/<int:pk>/counts.json", public_views.counts_json, name="counts-json"),
    path(
        "t/<int:pk>/counts/leaders.svg", chart_views.leaders_public_svg, name="counts-leaders-svg"
    ),
    path(
        "t/<int:pk>/counts/player/<str:number>.svg",
        chart_views.player_public_svg,
        name="counts-player-svg",
    ),
    path("s/<str:token>/chips.svg", chart_views.my_stack_svg, name="my-stack-svg"),
    path("api/tournaments/<int:pk>/counts/", public_views.CountsRead.as_view(), name="api-counts"),
]
