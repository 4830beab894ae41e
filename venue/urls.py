from django.urls import path

from venue import views

urlpatterns = [
    path("console/devices/", views.devices, name="console-devices"),
]
