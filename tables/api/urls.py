from django.urls import path

from tables.api import views

urlpatterns = [
    path("tournaments/<int:pk>/tables/", views.Tables.as_view(), name="api-tables"),
    path("tournaments/<int:pk>/seating/draw/", views.Draw.as_view(), name="api-draw"),
    path("tournaments/<int:pk>/seating/plan/", views.Plan.as_view(), name="api-plan"),
    path(
        "tournaments/<int:pk>/seating/plan/apply/", views.PlanApply.as_view(), name="api-plan-apply"
    ),
    path("tournaments/<int:pk>/seating/final/", views.FinalTable.as_view(), name="api-final"),
    path(
        "tournaments/<int:pk>/tables/<int:number>/break/", views.Break.as_view(), name="api-break"
    ),
    path(
        "tournaments/<int:pk>/tables/<int:number>/button/",
        views.Button.as_view(),
        name="api-button",
    ),
    path("tournaments/<int:pk>/tables/<int:number>/hand/", views.Hand.as_view(), name="api-hand"),
    path(
        "tournaments/<int:pk>/entries/<int:entry_id>/seat/",
        views.SeatLookup.as_view(),
        name="api-seat",
    ),
]
