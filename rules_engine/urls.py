from django.urls import path

from rules_engine import api, views

urlpatterns = [
    path("console/t/<int:pk>/rulings/", views.rulings, name="rulings"),
    path("console/t/<int:pk>/rulings.csv", views.rulings_csv, name="rulings-csv"),
    path("console/t/<int:pk>/penalties/", views.penalties, name="penalties"),
    path("console/t/<int:pk>/colour-up/", views.colour_up, name="colour-up"),
    path(
        "api/tournaments/<int:pk>/rulings/suggest/",
        api.RulingSuggest.as_view(),
        name="api-ruling-suggest",
    ),
    path(
        "api/tournaments/<int:pk>/rulings/show-order/",
        api.RulingShowOrder.as_view(),
        name="api-show-order",
    ),
    path("api/tournaments/<int:pk>/rulings/", api.Rulings.as_view(), name="api-rulings"),
    path("api/tournaments/<int:pk>/penalties/", api.Penalties.as_view(), name="api-penalties"),
]
