"""The pages and forms a person reaches by following links: a crawl of the site as one role,
with Django's test client, and the forms of every page it read (tests/test_form_fuzz.py).

The crawl starts at a few pages (the console, the public pages) and follows every link of
this site from the HTML it gets back; a page pattern (its path with the numbers taken out, and
its query's names) is read at most `PER_PATTERN` times, so a list of 500 players costs one
pages, not 500. Each page's forms are taken with their fields as the browser would send them:
inputs (hidden ones too), selects with their first or selected option, text areas, and the
submit button's name and value."""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qsl, urldefrag, urljoin, urlsplit

PER_PATTERN = 1
MOST_PAGES = 400  # per role; the crawl of the test world reads far fewer
# Not followed: leaving the session, the admin (Django's own), the API (test_api_fuzz.py),
# the language switch and the downloads (CSV, JSON, print sheets are no forms).
NOT_FOLLOWED = re.compile(
    r"^/(logout|admin|api|i18n|jsi18n|static|media|healthz|readyz)(/|$)"
    r"|\.(csv|json|pdf|png|svg|js|css)$|[?&]format=(csv|json|summary)"
)


@dataclass
class Field:
    name: str
    kind: str  # input type, "select", "textarea"
    value: str
    numeric: bool  # a number is asked for: type=number or inputmode=numeric / decimal


@dataclass
class Form:
    page: str  # where it was found
    action: str  # path and query it posts to
    method: str  # "get" or "post"
    fields: list[Field] = field(default_factory=list)
    # The submit buttons: (name or "", value, marked primary). The form is sent with the
    # primary one, else the first (the one the browser takes on Enter).
    submits: list[tuple[str, str, bool]] = field(default_factory=list)
    form_id: str = ""

    def values(self) -> dict[str, Any]:
        """What the browser sends when the form is submitted as drawn."""
        data: dict[str, list[str]] = {}
        radios: set[str] = set()
        for f in self.fields:
            if f.kind in ("checkbox", "radio") and not f.value:
                continue
            if f.kind == "radio":
                if f.name in radios:
                    continue  # one choice of a group
                radios.add(f.name)
            data.setdefault(f.name, []).append(f.value)
        chosen = [s for s in self.submits if s[2]] or self.submits
        if chosen and chosen[0][0]:
            data.setdefault(chosen[0][0], [chosen[0][1]])
        data.pop("csrfmiddlewaretoken", None)
        return {k: v[0] if len(v) == 1 else v for k, v in data.items()}

    def key(self) -> tuple[str, str, tuple[str, ...]]:
        return (self.method, pattern(self.action), tuple(sorted({f.name for f in self.fields})))


def pattern(url: str) -> str:
    """A page's pattern: numbers and tokens out of the path, the query's names sorted."""
    parts = urlsplit(url)
    path = re.sub(r"/[0-9]+(?=/|$)", "/N", parts.path)
    path = re.sub(r"/[A-Za-z0-9_-]{20,}(?=/|$)", "/T", path)
    names = sorted({k for k, _v in parse_qsl(parts.query, keep_blank_values=True)})
    return path + ("?" + "&".join(names) if names else "")


def _button(a: dict[str, str]) -> tuple[str, str, bool]:
    return (a.get("name", ""), a.get("value", ""), "primary" in a.get("class", "").split())


class _Page(HTMLParser):
    def __init__(self, url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.url = url
        self.links: list[str] = []
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: Field | None = None
        self._textarea: Field | None = None
        self._options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "form":
            action = a.get("action") or self.url
            self._form = Form(
                page=self.url,
                action=urljoin(self.url, action),
                method=(a.get("method") or "get").lower(),
                form_id=a.get("id", ""),
            )
            self.forms.append(self._form)
        elif self._form is None or "disabled" in a:
            return
        elif tag == "input" and a.get("name"):
            kind = (a.get("type") or "text").lower()
            if kind in ("submit", "image"):
                self._form.submits.append(_button(a))
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                value = ""
            elif kind in ("checkbox", "radio"):
                value = a.get("value", "on")
            else:
                value = a.get("value", "")
            numeric = kind == "number" or a.get("inputmode") in ("numeric", "decimal")
            self._form.fields.append(Field(a["name"], kind, value, numeric))
        elif tag == "button" and (a.get("type") or "submit") == "submit":
            self._form.submits.append(_button(a))
        elif tag == "select" and a.get("name"):
            self._select = Field(a["name"], "select", "", False)
            self._options = []
        elif tag == "option" and self._select is not None:
            self._options.append((a.get("value", ""), "selected" in a))
        elif tag == "textarea" and a.get("name"):
            self._textarea = Field(a["name"], "textarea", "", False)

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea.value += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select is not None:
            chosen = [v for v, sel in self._options if sel] or [v for v, _s in self._options]
            self._select.value = chosen[0] if chosen else ""
            if self._form is not None:
                self._form.fields.append(self._select)
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            if self._form is not None:
                self._form.fields.append(self._textarea)
            self._textarea = None


def _local(base: str, href: str) -> str | None:
    url, _fragment = urldefrag(urljoin(base, href))
    parts = urlsplit(url)
    if parts.scheme not in ("", "http") or parts.netloc not in ("", "testserver"):
        return None
    path = parts.path + ("?" + parts.query if parts.query else "")
    return None if NOT_FOLLOWED.search(path) else path


@dataclass
class Crawl:
    pages: list[str] = field(default_factory=list)
    forms: list[Form] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # pages answering 5xx


def crawl(client: Any, starts: list[str]) -> Crawl:
    """Every page reachable from `starts` by links, read with `client`, and their forms (each
    form once, by its method, pattern and field names)."""
    out = Crawl()
    seen_patterns: dict[str, int] = {}
    seen: set[str] = set()
    forms: dict[tuple[str, str, tuple[str, ...]], Form] = {}
    queue = deque(starts)
    while queue and len(out.pages) < MOST_PAGES:
        url = queue.popleft()
        if url in seen:
            continue
        seen.add(url)
        key = pattern(url)
        if seen_patterns.get(key, 0) >= PER_PATTERN:
            continue
        seen_patterns[key] = seen_patterns.get(key, 0) + 1
        response = client.get(url)
        if response.status_code >= 500:
            out.failures.append(f"GET {url}: {response.status_code}")
            continue
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        out.pages.append(url)
        page = _Page(url)
        page.feed(response.content.decode("utf-8", "replace"))
        for form in page.forms:
            local = _local(url, form.action)
            if local is None:
                continue
            form.action = local
            forms.setdefault(form.key(), form)
        for href in page.links:
            local = _local(url, href)
            if local is not None and local not in seen:
                queue.append(local)
    out.forms = list(forms.values())
    return out
