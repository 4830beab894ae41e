from django.urls import path

from festivals import views

urlpatterns = [
    path("console/festivals/", views.festivals_home, name="festivals"),
    path("console/festivals/<int:pk>/", views.festival, name="festival"),
    path("console/festivals/<int:pk>/standings/", views.standings, name="festival-standings"),
    path("console/festivals/<int:pk>/bag/<int:bag>/", views.bagging, name="bagging"),
    path(
        "console/festivals/<int:pk>/bag/<int:bag>/table/<int:table>/",
        views.bag_table,
        name="bag-table",
    ),
    path("console/festivals/<int:pk>/bag/<int:bag>/report/", views.bag_report, name="bag-report"),
    path("console/festivals/<int:pk>/bag/<int:bag>/slips/", views.bag_slips, name="bag-slips"),
    path("console/festivals/<int:pk>/report/", views.festival_report, name="festival-report"),
    path(
        "console/festivals/<int:pk>/report.pdf",
        views.festival_report_pdf,
        name="festival-report-pdf",
    ),
    path("f/<int:pk>/", views.festival_public, name="festival-public"),
]
