from django.urls import path

from signups import views

urlpatterns = [
    path("t/<int:pk>/signup/", views.signup_page, name="signup"),
    path("t/<int:pk>/signup/poster/", views.signup_poster, name="signup-poster"),
    path("signup/<str:token>/", views.signup_status, name="signup-status"),
    path("console/t/<int:pk>/signups/", views.signups_console, name="signups"),
]
