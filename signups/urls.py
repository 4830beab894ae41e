from django.urls import path

from signups import views

# The sign-up page and a sign-up's private page are routed first, in config/urls.py.
urlpatterns = [
    path("t/<int:pk>/signup/poster/", views.signup_poster, name="signup-poster"),
    path("console/t/<int:pk>/signups/", views.signups_console, name="signups"),
]
