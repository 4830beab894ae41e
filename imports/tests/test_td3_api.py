"""`POST /api/imports/td/`: directors only; a preview writes nothing; one transaction for all
files; refusals are 400 with the reason, never a 500."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from imports.models import ImportedTournament
from tournament.models import Player, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("counters_agree")]

FILES = Path(__file__).resolve().parent / "files"
URL = "/api/imports/td/"


def upload(name):
    return SimpleUploadedFile(name, (FILES / name).read_bytes(), "application/octet-stream")


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def test_floor_staff_and_strangers_may_not(floor_user):
    client = APIClient()
    assert client.post(URL, {"files": [upload("club-night-3.0.tdt")]}).status_code in (401, 403)
    client.force_authenticate(floor_user)
    assert client.post(URL, {"files": [upload("club-night-3.0.tdt")]}).status_code == 403
    assert not Tournament.objects.exists()


def test_preview_then_import_a_season(api):
    hugo = Player.objects.create(name="Hugo Lang", display_name="Hugo")
    files = ["club-night-3.7.2.tdt", "club-night-3.4.3.tdt"]
    r = api.post(URL, {"files": [upload(n) for n in files], "preview": "1"})
    assert r.status_code == 200, r.content
    seen = {f["file"]: f for f in r.json()["files"]}
    assert seen["club-night-3.4.3.tdt"]["likely"][0]["player"] == hugo.pk
    assert seen["club-night-3.7.2.tdt"]["winner"] == "Ida"
    assert not Tournament.objects.exists()
    matches = json.dumps({"c0000003-23d2-11e4-0aa0-000000000003": hugo.pk})
    r = api.post(URL, {"files": [upload(n) for n in files], "matches": matches})
    assert r.status_code == 201, r.content
    # In the order they were played: 2018 first.
    assert [t["file"] for t in r.json()["tournaments"]] == [
        "club-night-3.4.3.tdt",
        "club-night-3.7.2.tdt",
    ]
    assert hugo.entries.count() == 1
    assert ImportedTournament.objects.count() == 2


def test_refusals_are_400_and_write_nothing(api):
    broken = SimpleUploadedFile("broken.tdt", (FILES / "club-night-3.7.2.tdt").read_bytes()[:900])
    r = api.post(URL, {"files": [upload("club-night-3.0.tdt"), broken]})
    assert (
        r.status_code == 400
        and "broken.tdt" in r.json()["detail"]
        and "truncated" in r.json()["detail"]
    )
    r = api.post(URL, {"files": [upload("club-night-3.0.tdt"), upload("club-night-3.0.tdt")]})
    assert r.status_code == 400 and "same tournament" in r.json()["detail"]
    r = api.post(URL, {"files": [upload("club-night-3.0.tdt")], "matches": "[1]"})
    assert r.status_code == 400
    assert api.post(URL, {}).status_code == 400
    junk = SimpleUploadedFile("x.tdt", b"\x00\x01\x02 not at all")
    assert api.post(URL, {"files": [junk]}).status_code == 400
    assert not Tournament.objects.exists()
    assert api.post(URL, {"files": [upload("club-night-3.0.tdt")]}).status_code == 201
    r = api.post(URL, {"files": [upload("club-night-3.0.tdt")]})
    assert r.status_code == 400 and "imported already" in r.json()["detail"]
