"""A player list from a spreadsheet (tournament/people_import_views.py, docs/players.md): upload,
map, preview, confirm; every wrong input a 4xx with a message and nothing written."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from tournament.models import Event, Player
from tournament.people_sheet import MAX_ROWS
from tournament.services.registration import player_create

pytestmark = pytest.mark.django_db

CSV = (
    "Vorname;Nachname;Nickname;E-Mail;Telefon;Mitgliedsnummer;Geburtsjahr\n"
    "Jörg;Weiß;Jöwe;joerg@example.org;0170 1234567;M-17;1980\n"
    "Anna;Schulz;;anna@example.org;;M-18;\n"
    "Bert;Meier;Bertie;;;;1975\n"
).encode()


@pytest.fixture
def as_director(client, director):
    client.force_login(director)
    return client


def _upload(client, data: bytes, name: str = "players.csv"):
    return client.post(reverse("people-import"), {"file": SimpleUploadedFile(name, data)})


def _xlsx(rows: list[list[object]]) -> bytes:
    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


MAPPING = {
    "col_0": "first_name",
    "col_1": "last_name",
    "col_2": "display_name",
    "col_3": "email",
    "col_4": "phone",
    "col_5": "membership_number",
    "col_6": "birth_year",
}


def test_upload_map_preview_confirm(as_director):
    client = as_director
    response = _upload(client, CSV)
    assert response.status_code == 302 and response["Location"] == reverse("people-import-map")
    page = client.get(reverse("people-import-map")).content.decode()
    # The headings guessed: Vorname is the first name, Geburtsjahr the year of birth.
    assert '<option value="first_name" selected>' in page
    assert '<option value="birth_year" selected>' in page
    preview = client.post(reverse("people-import-map"), MAPPING)
    assert preview.status_code == 200
    html = preview.content.decode()
    assert "import-rows" in html and "Jöwe" in html and Player.objects.count() == 0
    done = client.post(reverse("people-import-confirm"), MAPPING)
    assert done.status_code == 302
    joerg = Player.objects.get(name="Jörg Weiß")
    assert (joerg.display_name, joerg.email, joerg.phone) == (
        "Jöwe",
        "joerg@example.org",
        "0170 1234567",
    )
    assert (joerg.membership_number, joerg.birth_year) == ("M-17", 1980)
    assert Player.objects.get(name="Anna Schulz").display_name == "Anna S."
    assert joerg.search_key  # kept by the pre_save receiver
    event = Event.objects.get(action="players.import")
    assert event.payload["count"] == 3 and "Weiß" not in str(event.payload)


def test_xlsx_with_numbers_as_excel_keeps_them(as_director):
    data = _xlsx([["Name", "Member no", "Year of birth"], ["Cleo Lang", 4711, 1990.0]])
    assert _upload(as_director, data, "list.xlsx").status_code == 302
    mapping = {"col_0": "name", "col_1": "membership_number", "col_2": "birth_year"}
    assert as_director.post(reverse("people-import-confirm"), mapping).status_code == 302
    cleo = Player.objects.get(name="Cleo Lang")
    assert (cleo.membership_number, cleo.birth_year) == ("4711", 1990)


def test_likely_duplicates_are_shown_and_left_out(as_director, actor):
    known = player_create(name="Jörg Weiss", actor=actor)  # folded: the same name
    _upload(as_director, CSV + b"Anna;Schulz;;anna@example.org;;;\n")
    html = as_director.post(reverse("people-import-map"), MAPPING).content.decode()
    assert f"(#{known.pk})" in html and "Like row 3" in html
    assert 'name="skip" value="2" id="skip-2" checked' in html
    assert 'name="skip" value="5" id="skip-5" checked' in html
    response = as_director.post(reverse("people-import-confirm"), {**MAPPING, "skip": ["2", "5"]})
    assert response.status_code == 302
    assert Player.objects.filter(name="Anna Schulz").count() == 1
    assert Player.objects.count() == 3  # the known one, Anna, Bert


def test_a_bad_row_writes_nothing_and_names_the_row(as_director):
    bad = CSV + "Emil;Öz;;not-an-address;;M-17;19x0\n".encode()
    _upload(as_director, bad)
    response = as_director.post(reverse("people-import-confirm"), MAPPING)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Row 5:" in html and "not a year" in html
    assert Player.objects.count() == 0
    # The year fixed by leaving the row out: the rest goes in; then the e-mail and the
    # membership number of a row are checked against the database and the file.
    _upload(as_director, CSV + "Emil;Öz;;not-an-address;;M-17;\n".encode())
    response = as_director.post(reverse("people-import-confirm"), MAPPING)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Row 5:" in html and "e-mail address is not valid" in html and "in row 2 already" in html
    assert Player.objects.count() == 0
    response = as_director.post(reverse("people-import-confirm"), {**MAPPING, "skip": "5"})
    assert response.status_code == 302 and Player.objects.count() == 3


@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("photo.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "not a spreadsheet"),
        ("empty.csv", b"", "empty"),
        ("blank.csv", b"\n\n", "empty"),
        ("head.csv", b"Name;E-Mail\n", "no rows"),
        ("broken.xlsx", b"PK\x03\x04broken", "damaged"),
        ("old.xls", b"\xd0\xcf\x11\xe0 not a zip", "damaged"),
        ("quotes.csv", b'Name\n"Anna\n', "quotes"),
    ],
)
def test_wrong_files_are_refused(as_director, name, data, words):
    response = _upload(as_director, data, name)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert Player.objects.count() == 0


def test_oversize_and_too_many_rows(as_director, settings):
    big = b"Name\n" + b"x" * (settings.FLOOR_UPLOAD_MAX_BYTES + 10)
    response = _upload(as_director, big)
    assert response.status_code in (400, 413)
    many = ("Name\n" + "".join(f"Person Nr{i}\n" for i in range(MAX_ROWS + 1))).encode()
    response = _upload(as_director, many)
    assert response.status_code == 400 and "more than 2000 rows" in response.content.decode()
    response = as_director.post(reverse("people-import"), {})
    assert response.status_code == 400 and "Choose a CSV" in response.content.decode()


def test_wrong_mappings_are_refused(as_director):
    _upload(as_director, CSV)
    url = reverse("people-import-map")
    twice = {**MAPPING, "col_2": "first_name"}
    response = as_director.post(url, twice)
    assert response.status_code == 400 and "more than one column" in response.content.decode()
    response = as_director.post(url, {"col_3": "email"})
    assert (
        response.status_code == 400
        and "Choose the column with the name" in response.content.decode()
    )
    response = as_director.post(url, {**MAPPING, "col_2": "name"})
    assert response.status_code == 400 and "not both" in response.content.decode()
    response = as_director.post(url, {**MAPPING, "col_2": "password"})
    assert response.status_code == 400 and "fields offered" in response.content.decode()
    response = as_director.post(reverse("people-import-confirm"), twice)
    assert response.status_code == 400
    response = as_director.post(
        reverse("people-import-confirm"), {**MAPPING, "skip": ["2", "3", "4"]}
    )
    assert response.status_code == 400 and "no row to import" in response.content.decode()
    assert Player.objects.count() == 0


def test_no_file_waiting(as_director):
    assert as_director.get(reverse("people-import-map")).status_code == 400
    assert as_director.post(reverse("people-import-confirm"), MAPPING).status_code == 400


def test_floor_accounts_may_not(client, floor_user):
    client.force_login(floor_user)
    assert client.get(reverse("people-import")).status_code in (302, 403)
    response = _upload(client, CSV)
    assert response.status_code in (302, 403) and Player.objects.count() == 0
    html = client.get(reverse("players")).content.decode()
    assert "people-import-link" not in html


def test_german(as_director):
    as_director.cookies["django_language"] = "de"
    response = _upload(as_director, b"")
    assert "Die Datei ist leer." in response.content.decode()


def test_a_small_workbook_that_repeats_a_long_text_is_refused(as_director):
    long = "x" * 1900
    data = _xlsx([["Name", "Notes"], *[[f"Person {i}", long] for i in range(600)]])
    assert len(data) < 512 * 1024
    response = _upload(as_director, data, "big.xlsx")
    assert response.status_code == 400 and "too much text" in response.content.decode()
