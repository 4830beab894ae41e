from django.urls import path

from venue import views

urlpatterns = [
    path("console/devices/", views.devices, name="console-devices"),
    path(
        "console/restored/dismiss",
        views.restored_dismiss_view,
        name="venue-restored-dismiss",
    ),
]
