"""Content-Security-Policy: every page carries the header, runs only this installation's
scripts (no inline script, no on...= handler), and the API docs keep a relaxed policy of their
own. The browser side (no violation in Chromium, the features still work) is in
tests/browser/test_csp_pages.py."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.test_authorization import (  # noqa: F401  (fixture)
    POST_ONLY_ACTIONS,
    all_routes,
    url_for,
    world,
)

pytestmark = pytest.mark.django_db

# Routes that only take POST, or answer with something other than a page.
NOT_PAGES = {"logout", "set_language", "dealer-action", "player-erase", *POST_ONLY_ACTIONS}


class InlineCode(HTMLParser):
    """Collects what a strict script-src refuses: inline scripts, on...= attributes and
    javascript: URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_inline_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=…>")
            if name in ("href", "src", "action", "formaction") and (
                value or ""
            ).strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:…>")
        if tag == "script" and "src" not in names:
            kind = (names.get("type") or "").lower()
            if kind not in ("application/json", "application/ld+json"):
                self._in_inline_script = True

    def handle_data(self, data: str) -> None:
        if self._in_inline_script and data.strip():
            self.found.append(f"<script>{data.strip()[:40]}…</script>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_inline_script = False


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def assert_strict(response, what: str) -> None:
    policy = directives(response)
    assert policy["script-src"] == ["'self'"], what
    assert policy["style-src-elem"] == ["'self'"], what
    assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"], what
    assert policy["frame-ancestors"] == ["'none'"] and policy["form-action"] == ["'self'"], what
    if "html" in response.get("Content-Type", ""):
        assert inline_code(response.content.decode()) == [], what


def test_the_checker_finds_inline_code():
    found = inline_code(
        '<button onclick="go()">x</button><script>alert(1)</script>'
        '<a href="javascript:void(0)">y</a><script type="application/json">{"a": 1}</script>'
        '<script src="/static/x.js"></script>'
    )
    assert len(found) == 3


def _pages(kwargs, tables):
    for route, name in all_routes():
        if name in NOT_PAGES or route.startswith(("api/", "admin/")):
            continue
        if name == "dealer":
            yield name, reverse("dealer", args=[tables[0].dealer_token])
            continue
        try:
            url = url_for(route, name, kwargs)
        except KeyError:
            continue  # a parameter this walk does not fill (covered by its own tests)
        if url is not None:
            yield name, url


def test_every_page_carries_the_policy_and_no_inline_code(client, director, world):  # noqa: F811
    t, secret, tables, kwargs = world
    seen = 0
    for role in ("anonymous", "director"):
        if role == "director":
            client.force_login(director)
        for name, url in _pages(kwargs, tables):
            response = client.get(url)
            if response.status_code != 200:
                continue
            if response["Content-Type"].startswith("image/svg+xml"):
                # A chart is its own document with its own policy (core/charts.py): no script.
                policy = directives(response)
                assert policy["script-src"] == ["'none'"], f"{role} {name} {url}"
                assert policy["default-src"] == ["'none'"], f"{role} {name} {url}"
                continue
            assert_strict(response, f"{role} {name} {url}")
            seen += 1
    # The print pages and receipts, with their print buttons.
    for url in (
        reverse("entry-receipt", args=[t.pk, secret.pk]),
        reverse("print-seat-cards", args=[t.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_strict(response, url)
        assert "data-print" in response.content.decode()
    assert seen > 40


def test_admin_pages_keep_the_policy(client, django_user_model, world):  # noqa: F811
    _t, _secret, tables, _kwargs = world
    client.force_login(django_user_model.objects.create_superuser("root", password="pw-root-1"))
    urls = [
        reverse("admin:index"),
        reverse("admin:tables_table_changelist"),
        reverse("admin:tables_table_change", args=[tables[0].pk]),
        reverse("admin:tournament_tournament_add"),
        reverse("admin:auth_user_changelist"),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert_strict(response, url)


def test_api_docs_are_served_from_here_with_their_own_policy(client):
    for name in ("api-docs", "api-redoc"):
        response = client.get(reverse(name))
        assert response.status_code == 200
        policy = directives(response)
        assert policy["script-src"] == ["'self'"], name  # scripts: still only our own
        assert "'unsafe-inline'" in policy["style-src-elem"], name
        body = response.content.decode()
        assert "cdn.jsdelivr.net" not in body and "fonts.googleapis.com" not in body, name
        assert "/static/drf_spectacular_sidecar/" in body, name
    # Swagger UI's start-up script is a file of its own, not inline.
    docs = client.get(reverse("api-docs")).content.decode()
    assert inline_code(docs) == []
    script = client.get(reverse("api-docs") + "?script=")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()


def test_dealer_and_structure_pages_drive_their_features_by_data_attributes(
    client,
    director,
    world,  # noqa: F811
):
    t, _secret, _tables, _kwargs = world
    client.force_login(director)
    structure = client.get(reverse("structure-editor", args=[t.pk])).content.decode()
    assert 'data-add-row="level"' in structure and "data-remove-row" in structure
    assert '<template id="level-row">' in structure
    bust = client.get(reverse("bust", args=[t.pk])).content.decode()
    assert 'data-filter-rows="#bust-list tbody tr"' in bust
    home = client.get(reverse("console-home")).content.decode()
    assert 'name="language" data-autosubmit' in home


# --- The header kept per process (config/csp.py) --------------------------------------------


def _library_header(rf):
    """What django-csp itself writes for a plain response to a plain request."""
    from csp.middleware import CSPMiddleware as Library
    from django.http import HttpResponse

    request = rf.get("/")
    response = Library(lambda r: HttpResponse()).process_response(request, HttpResponse())
    return response.get("Content-Security-Policy"), response.get(
        "Content-Security-Policy-Report-Only"
    )


def test_the_kept_header_is_the_one_django_csp_builds(client, rf, settings):
    page = client.get(reverse("home"))
    again = client.get(reverse("home"))
    expected, expected_ro = _library_header(rf)
    assert page["Content-Security-Policy"] == expected == again["Content-Security-Policy"]
    assert "Content-Security-Policy-Report-Only" not in page and expected_ro is None
    # A changed setting is built again (and a report-only policy is written too).
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": {"img-src": ["'self'"]}}
    changed = client.get(reverse("home"))
    expected, expected_ro = _library_header(rf)
    assert changed["Content-Security-Policy"] == expected == "default-src 'none'"
    assert changed["Content-Security-Policy-Report-Only"] == expected_ro
    assert "img-src 'self'" in expected_ro


def test_a_views_own_policy_and_a_nonce_still_go_through_django_csp(client, rf, settings):
    from csp.constants import NONCE
    from django.http import HttpResponse

    from config.csp import CSPMiddleware

    client.get(reverse("home"))  # the plain header is kept now
    docs = directives(client.get(reverse("api-docs")))
    assert "'unsafe-inline'" in docs["style-src-elem"]  # csp_update on the view
    assert directives(client.get(reverse("home")))["style-src-elem"] == ["'self'"]

    def asks_for_a_nonce(request):
        return HttpResponse(str(request.csp_nonce))

    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"script-src": ["'self'", NONCE]}}
    middleware = CSPMiddleware(asks_for_a_nonce)
    request = rf.get("/")
    middleware.process_request(request)
    response = middleware.process_response(request, asks_for_a_nonce(request))
    assert f"'nonce-{response.content.decode()}'" in response["Content-Security-Policy"]
    # Asked for after the header was written: an error, as django-csp has it.
    from csp.exceptions import CSPNonceError

    plain = rf.get("/")
    middleware.process_request(plain)
    middleware.process_response(plain, HttpResponse())
    with pytest.raises(CSPNonceError):
        str(plain.csp_nonce)
