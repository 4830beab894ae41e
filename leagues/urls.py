from django.urls import path

from leagues import chart_views, screen_views, views

urlpatterns = [
    path("console/leagues/", views.leagues_list, name="leagues"),
    path("console/leagues/<int:pk>/", views.league_page, name="league"),
    path("console/seasons/<int:pk>/", views.season_page, name="season"),
    path("console/seasons/<int:pk>/standings.csv", views.season_csv, name="season-csv"),
    path("seasons/<int:pk>/", views.season_public, name="season-public"),
    path("seasons/<int:pk>/standings.csv", views.season_public_csv, name="season-public-csv"),
    path("seasons/<int:pk>/screen/", screen_views.season_screen, name="season-screen"),
    path(
        "seasons/<int:pk>/standings.json",
        screen_views.season_standings_json,
        name="season-standings-json",
    ),
    path("seasons/<int:pk>/race.svg", chart_views.season_race_svg, name="season-race-svg"),
    path(
        "players/<int:player_id>/<slug:kind>.svg",
        chart_views.player_chart_svg,
        name="player-chart-svg",
    ),
    path(
        "console/players/<int:player_id>/<slug:kind>.svg",
        chart_views.console_player_chart_svg,
        name="console-player-chart-svg",
    ),
]
