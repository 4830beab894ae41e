from django.urls import path

from tournament.api import corrections, views

urlpatterns = [
    path("tournaments/", views.TournamentList.as_view(), name="api-tournaments"),
    path("tournaments/<int:pk>/", views.TournamentDetail.as_view(), name="api-tournament"),
    path("tournaments/<int:pk>/numbers/", views.TournamentNumbers.as_view(), name="api-numbers"),
    path("tournaments/<int:pk>/status/", views.TournamentStatus.as_view(), name="api-status"),
    path("tournaments/<int:pk>/reopen/", views.TournamentReopen.as_view(), name="api-reopen"),
    path("tournaments/<int:pk>/levels/", views.Levels.as_view(), name="api-levels"),
    path("tournaments/<int:pk>/entries/", views.Entries.as_view(), name="api-entries"),
    path(
        "tournaments/<int:pk>/entries/<int:entry_id>/purchase/",
        views.EntryPurchase.as_view(),
        name="api-entry-purchase",
    ),
    path(
        "tournaments/<int:pk>/entries/<int:entry_id>/unregister/",
        views.EntryUnregister.as_view(),
        name="api-entry-unregister",
    ),
    path(
        "tournaments/<int:pk>/entries/<int:entry_id>/void/",
        corrections.EntryVoid.as_view(),
        name="api-entry-void",
    ),
    path(
        "tournaments/<int:pk>/corrections/<int:event_id>/undo/",
        corrections.CorrectionUndo.as_view(),
        name="api-correction-undo",
    ),
    path("tournaments/<int:pk>/busts/", views.Busts.as_view(), name="api-busts"),
    path("tournaments/<int:pk>/busts/undo/", views.BustUndo.as_view(), name="api-bust-undo"),
    path(
        "tournaments/<int:pk>/registration/close/",
        views.RegistrationClose.as_view(),
        name="api-registration-close",
    ),
    path("tournaments/<int:pk>/payouts/", views.Payouts.as_view(), name="api-payouts"),
    path("tournaments/<int:pk>/events/", views.Events.as_view(), name="api-events"),
    path("players/", views.Players.as_view(), name="api-players"),
    path("players/<int:player_id>/", views.PlayerDetail.as_view(), name="api-player"),
    path("players/<int:player_id>/export/", views.PlayerExport.as_view(), name="api-player-export"),
    path("players/<int:player_id>/erase/", views.PlayerErase.as_view(), name="api-player-erase"),
]
