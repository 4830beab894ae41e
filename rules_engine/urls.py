from django.urls import path

from rules_engine import views

urlpatterns = [
    path("console/t/<int:pk>/rulings/", views.rulings, name="rulings"),
    path("console/t/<int:pk>/rulings.csv", views.rulings_csv, name="rulings-csv"),
]
