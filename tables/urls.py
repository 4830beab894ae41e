from django.urls import path

from tables import print_views, views

urlpatterns = [
    path("console/t/<int:pk>/seating/", views.seating, name="seating"),
    path(
        "console/t/<int:pk>/seating/<str:action>/",
        views.seating_action,
        name="seating-action",
    ),
    path("console/t/<int:pk>/slips/<int:event_id>/", views.move_slips, name="move-slips"),
    path("console/t/<int:pk>/tables/<int:number>/", views.table_detail, name="table-detail"),
    path("console/t/<int:pk>/print/seat-cards/", print_views.seat_cards, name="print-seat-cards"),
    path(
        "console/t/<int:pk>/print/table-cards/", print_views.table_cards, name="print-table-cards"
    ),
    path("console/t/<int:pk>/print/seat-list/", print_views.seat_list, name="print-seat-list"),
    path("t/<int:pk>/table/<int:number>/", print_views.table_public, name="table-public"),
    path(
        "t/<int:pk>/table/<int:number>.json",
        print_views.table_public_json,
        name="table-public-json",
    ),
    path("d/<str:token>/", views.dealer, name="dealer"),
    path("d/<str:token>/<str:action>/", views.dealer_action, name="dealer-action"),
]
