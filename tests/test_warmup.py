"""A web process loads its URL configuration, template engine and templates when it starts
(config/warmup.py), not on its first requests."""

from __future__ import annotations

import logging

from django.template import engines
from django.test import override_settings

from config.warmup import warm


def _compiled() -> dict:
    """The cached loader's compiled templates, by name (Django's cached template loader)."""
    loader = engines["django"].engine.template_loaders[0]  # type: ignore[attr-defined]
    return loader.get_template_cache


def test_warm_compiles_the_templates_the_live_messages_and_the_phones_render():
    engines["django"].engine.template_loaders[0].reset()  # type: ignore[attr-defined]
    assert "tables/_dealer.html" not in _compiled()
    warm()
    compiled = _compiled()
    assert "tables/_dealer.html" in compiled  # a tablet's table, built on commit
    assert "public/_find_results.html" in compiled  # a phone's look-up
    assert "base.html" in compiled


def test_a_template_that_does_not_compile_is_logged_and_the_others_still_load(tmp_path, caplog):
    (tmp_path / "good.html").write_text("<p>{{ name }}</p>")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "bad.html").write_text("{% if %}")
    backend = {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [tmp_path],
        "APP_DIRS": False,
    }
    with override_settings(TEMPLATES=[backend]), caplog.at_level(logging.ERROR, "config.warmup"):
        warm()
        compiled = _compiled()
        assert "good.html" in compiled
        assert "broken/bad.html" not in compiled
    assert "broken/bad.html does not compile" in caplog.text
