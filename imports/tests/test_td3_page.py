"""The console's TD3 import page: directors only; upload, preview (nothing written), tick a
likely duplicate, confirm; a refused file is said on the page, never a 500."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from imports.models import HeldFile
from tournament.models import Player, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("counters_agree")]

FILES = Path(__file__).resolve().parent / "files"
URL = "/console/imports/td/"


def upload(name, data=None):
    return SimpleUploadedFile(name, data if data is not None else (FILES / name).read_bytes())


@pytest.fixture
def web(director):
    client = Client()
    client.force_login(director)
    return client


def test_only_directors(floor_user, client):
    assert client.get(URL).status_code == 302  # to the login
    client.force_login(floor_user)
    assert client.get(URL).status_code == 403


def test_upload_preview_confirm(web, director):
    hugo = Player.objects.create(name="Hugo Lang", display_name="Hugo")
    page = web.get(URL)
    assert page.status_code == 200 and b'type="file" name="files"' in page.content
    files = [upload("club-night-3.4.3.tdt"), upload("club-night-3.7.2.tdt")]
    preview = web.post(URL, {"files": files})
    assert preview.status_code == 200
    text = preview.content.decode()
    assert "Thursday 2018-10-11" in text and "Thursday 2025-01-16" in text and "Ida" in text
    assert f'value="c0000003-23d2-11e4-0aa0-000000000003:{hugo.pk}"' in text
    assert not Tournament.objects.exists()
    batch = HeldFile.objects.values_list("batch", flat=True).first()
    done = web.post(
        URL, {"batch": batch, "match": [f"c0000003-23d2-11e4-0aa0-000000000003:{hugo.pk}"]}
    )
    assert done.status_code == 302 and done["Location"] == "/console/"
    assert Tournament.objects.count() == 2 and hugo.entries.count() == 1
    assert not HeldFile.objects.exists()
    # The same again: the preview says so, the import is refused on the page.
    preview = web.post(URL, {"files": [upload("club-night-3.4.3.tdt")]})
    assert "Imported already" in preview.content.decode()
    batch = HeldFile.objects.values_list("batch", flat=True).first()
    again = web.post(URL, {"batch": batch})
    assert again.status_code == 200 and "imported already" in again.content.decode()
    assert Tournament.objects.count() == 2


def test_refusals_on_the_page(web, client, floor_user):
    broken = upload("broken.tdt", (FILES / "club-night-3.0.tdt").read_bytes()[:700])
    page = web.post(URL, {"files": [broken]})
    assert page.status_code == 400 and "broken.tdt" in page.content.decode()
    assert web.post(URL, {}).status_code == 400
    assert web.post(URL, {"batch": "no-such-batch"}).status_code == 400
    assert not Tournament.objects.exists()


def test_german(web):
    page = web.get(URL, HTTP_ACCEPT_LANGUAGE="de")
    assert "Import aus The Tournament Director" in page.content.decode()
