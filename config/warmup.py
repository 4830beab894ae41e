"""What a web process would otherwise load on its first requests, loaded when it starts.

A fresh process imports every view module and fills the URL resolver on its first `reverse`,
builds the template engine (importing every tag library) on its first rendering, and compiles
each template the first time it is rendered, once per process. Measured on a 2-core machine
(PostgreSQL, 30,000 entries): the first rendering of a dealer tablet's table took 236 ms against
2.5 ms for the next, the URL resolver and the engine most of it. After a restart that was the
first console click; and because the live messages are built on commit in the process that
made the change (live/realtime.py, one builder thread), the first bust's table views and
every message queued behind them waited for it (bench/event_storm.py: the slowest changes of a
run were its first half second).

`warm()` does it up front, in about 0.6 s (and starts building the people's sort order in a
thread of its own): `config.wsgi.serve` calls it in each `web` worker
before its first request (granian's `--factory`), `manage.py floor_serve` before it serves. A
template that fails to compile is logged, not raised: the process still starts, and the page
fails as it would have.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from django.conf import settings
from django.template import TemplateSyntaxError, engines
from django.template.backends.django import DjangoTemplates
from django.urls import reverse
from django.utils import translation

from tournament.domain.collation import collator

logger = logging.getLogger(__name__)


def warm() -> None:
    for code, _name in settings.LANGUAGES:
        with translation.override(code):  # the language's catalogue loaded
            reverse("home")  # every URL module imported, the resolver filled
    for engine in engines.all():  # every engine built, every tag library imported
        if not isinstance(engine, DjangoTemplates):
            continue
        # The project's own templates (the engine's `DIRS`); the apps' packaged templates,
        # such as the admin's, are left to their first use.
        for folder in map(Path, engine.dirs):
            for path in sorted(folder.rglob("*.html")):
                name = path.relative_to(folder).as_posix()
                try:
                    engine.get_template(name)  # compiled into the cached loader
                except TemplateSyntaxError:
                    logger.exception("Template %s does not compile", name)
    # The table of the people's sort order (tournament/domain/collation.py: some 2 s to build),
    # in the background: the process serves meanwhile, and the first list by name waits for it
    # only if it comes sooner.
    threading.Thread(target=collator, name="floor-collation-warmup", daemon=True).start()
