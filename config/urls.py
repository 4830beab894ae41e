from typing import Any

from csp.decorators import csp_replace, csp_update
from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from actions import report_views
from actions import views as actions_views
from actions.dealer_counts import dealer_counts
from actions.phone import phone_start
from config.health import healthz, readyz
from festivals import views as festival_views
from signups import views as signup_views
from tournament import public_views

# Swagger UI and Redoc (served from here, their scripts from 'self') write <style> elements and
# style attributes of their own; Redoc searches in a worker started from a blob. Only these two
# pages allow that.
_docs_added = csp_update({"style-src-elem": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]})
_docs_attrs = csp_replace({"style-src-attr": ["'unsafe-inline'"]})


def _api_docs_csp(view: Any) -> Any:
    return _docs_attrs(_docs_added(view))


urlpatterns = [
    # The pages a crowd of phones asks for come first: no walk through every other pattern.
    path("t/<int:pk>/find/", public_views.find_seat, name="find-seat"),
    path("s/<str:token>/", public_views.my_seat, name="my-seat"),
    # A sheet opening brings every phone at once: the sign-up and its private page are found
    # here, not after every app's patterns (resolving a sign-up's path: 138 -> 9 µs).
    path("t/<int:pk>/signup/", signup_views.signup_page, name="signup"),
    path("signup/<str:token>/", signup_views.signup_status, name="signup-status"),
    path("t/<int:pk>/results/", actions_views.results_page, name="results"),
    path("t/<int:pk>/results.csv", actions_views.results_csv, name="results-csv"),
    path("t/<int:pk>/results.json", actions_views.results_json, name="results-json"),
    path(
        "t/<int:pk>/results/database.csv",
        public_views.results_database_csv,
        name="results-database-csv",
    ),
    path(
        "t/<int:pk>/results/database.json",
        public_views.results_database_json,
        name="results-database-json",
    ),
    path("players/<int:player_id>/", actions_views.player_public, name="player-public"),
    path(
        "console/players/<int:player_id>/history/",
        actions_views.player_history,
        name="player-history",
    ),
    path("s/<str:token>.json", public_views.my_seat_json, name="my-seat-json"),
    path("console/t/<int:pk>/phone/", phone_start, name="console-phone"),
    path("console/t/<int:pk>/report/", report_views.report_page, name="report"),
    path("console/t/<int:pk>/report.pdf", report_views.report_pdf, name="report-pdf"),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "api/docs/",
        _api_docs_csp(SpectacularSwaggerSplitView.as_view(url_name="api-schema")),
        name="api-docs",
    ),
    path(
        "api/redoc/",
        _api_docs_csp(SpectacularRedocView.as_view(url_name="api-schema")),
        name="api-redoc",
    ),
    path("api/", include("tournament.api.urls")),
    path("api/", include("tables.api.urls")),
    path("api/", include("webhooks.api_urls")),
    path("", include("clocks.urls")),
    # Before the tablet's own actions (tables.urls: d/<token>/<action>/).
    path("d/<str:token>/counts/", dealer_counts, name="dealer-counts"),
    path("d/<str:token>/bag/", festival_views.dealer_bags, name="dealer-bags"),
    path("", include("tables.urls")),
    path("", include("rules_engine.urls")),
    path("", include("leagues.urls")),
    path("", include("displays.urls")),
    path("", include("webhooks.urls")),
    path("", include("counts.urls")),
    path("", include("festivals.urls")),
    path("", include("signups.urls")),
    path("", include("imports.urls")),
    path("", include("venue.urls")),
    path("", include("tournament.urls")),
]

if settings.DEBUG:  # pragma: no cover - development only
    from django.contrib.staticfiles.urls import staticfiles_urlpatterns

    urlpatterns += staticfiles_urlpatterns()
handler500 = "config.errors.server_error"
