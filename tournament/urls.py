from django.contrib.auth import views as auth_views
from django.urls import path

from tournament import (
    account_views,
    correction_views,
    desk_views,
    money_views,
    player_views,
    public_views,
    views,
)

urlpatterns = [
    path("", public_views.home, name="home"),
    path("login/", auth_views.LoginView.as_view(template_name="auth/login.html"), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("console/account/", account_views.account, name="account"),
    path("console/", views.console_home, name="console-home"),
    path("console/new/", views.tournament_new, name="tournament-new"),
    path("console/players/", player_views.players, name="players"),
    path("console/players/<int:player_id>/", player_views.player_detail, name="player-detail"),
    path(
        "console/players/<int:player_id>/export.json",
        player_views.player_export_view,
        name="player-export",
    ),
    path(
        "console/players/<int:player_id>/erase/",
        player_views.player_erase_view,
        name="player-erase",
    ),
    path("console/t/<int:pk>/", views.tournament_overview, name="tournament-overview"),
    path("console/t/<int:pk>/settings/", views.tournament_settings, name="tournament-settings"),
    path("console/t/<int:pk>/status/", views.tournament_status, name="tournament-status"),
    path("console/t/<int:pk>/reopen/", views.tournament_reopen, name="tournament-reopen"),
    path("console/t/<int:pk>/structure/", views.structure_editor, name="structure-editor"),
    path(
        "console/t/<int:pk>/structure/generate/",
        views.structure_generate,
        name="structure-generate",
    ),
    path(
        "console/t/<int:pk>/structure/template/",
        views.structure_load_template,
        name="structure-template",
    ),
    path("console/t/<int:pk>/structure/import/", views.structure_import, name="structure-import"),
    path(
        "console/t/<int:pk>/structure/export.<str:fmt>",
        views.structure_export,
        name="structure-export",
    ),
    path("console/t/<int:pk>/history/", views.history, name="history"),
    path("console/t/<int:pk>/history.csv", views.history_csv, name="history-csv"),
    path("console/t/<int:pk>/export.json", views.tournament_export_view, name="tournament-export"),
    path("console/t/<int:pk>/desk/", desk_views.desk, name="desk"),
    path("console/t/<int:pk>/desk/players/", desk_views.player_search, name="player-search"),
    path(
        "console/t/<int:pk>/entry/<int:entry_id>/buy/<str:kind>",
        desk_views.entry_purchase,
        name="entry-purchase",
    ),
    path(
        "console/t/<int:pk>/entry/<int:entry_id>/unregister",
        desk_views.entry_unregister,
        name="entry-unregister",
    ),
    path(
        "console/t/<int:pk>/entry/<int:entry_id>/receipt",
        desk_views.entry_receipt,
        name="entry-receipt",
    ),
    path(
        "console/t/<int:pk>/entry/<int:entry_id>/correct/",
        correction_views.entry_correct,
        name="entry-correct",
    ),
    path(
        "console/t/<int:pk>/corrections/<int:event_id>/undo",
        correction_views.correction_undo,
        name="correction-undo",
    ),
    path("console/t/<int:pk>/bust/", desk_views.bust, name="bust"),
    path("console/t/<int:pk>/bust/undo", desk_views.bust_undo, name="bust-undo"),
    path(
        "console/t/<int:pk>/registration/close",
        desk_views.registration_close,
        name="registration-close",
    ),
    path(
        "console/t/<int:pk>/registration/reopen",
        desk_views.registration_reopen,
        name="registration-reopen",
    ),
    path("console/t/<int:pk>/players/", desk_views.players, name="players"),
    path("console/t/<int:pk>/payouts/", desk_views.payouts_page, name="payouts"),
    path("console/t/<int:pk>/payouts/edit", desk_views.payouts_edit, name="payouts-edit"),
    path("console/t/<int:pk>/deal/", money_views.deal, name="deal"),
    path("console/t/<int:pk>/payouts/desk/", money_views.payout_desk, name="payout-desk"),
    path(
        "console/t/<int:pk>/payouts/<int:entry_id>/paid/",
        money_views.payout_paid,
        name="payout-paid",
    ),
    path(
        "console/t/<int:pk>/payouts/<int:entry_id>/receipt/",
        money_views.payout_receipt,
        name="payout-receipt",
    ),
    path("t/<int:pk>/", public_views.tournament_public, name="tournament-public"),
]
