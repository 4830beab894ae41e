"""A person's country (tournament/domain/countries.py): read generously, kept as its ISO code,
refused when it is none, published with the results for results databases."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from actions.bust import BustReport, entries_bust
from core.errors import FloorError
from tournament.domain.countries import CODES, country_choices, country_clean, country_name
from tournament.models import Player
from tournament.services import people
from tournament.services.registration import player_create, registration_close

CODE_LIST = sorted(CODES)


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("de", "DE"),
        ("DEU", "DE"),
        (" Deutschland ", "DE"),
        ("österreich", "AT"),
        ("Oesterreich", "AT"),
        ("Schweiz", "CH"),
        ("United Kingdom", "GB"),
        ("Vereinigtes Königreich", "GB"),
        ("Czechia", "CZ"),
        ("Tschechien", "CZ"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_a_country_is_read_as_typed_or_as_a_sheet_holds_it(typed, code):
    assert country_clean(typed) == code


@pytest.mark.parametrize("typed", ["XX", "Atlantis", "D", "1", "x" * 200, "DE;"])
def test_what_is_no_country_is_refused(typed):
    with pytest.raises(ValueError):
        country_clean(typed)


@given(st.sampled_from(CODE_LIST), st.sampled_from(["en", "de"]))
def test_every_country_name_a_page_shows_reads_back_as_its_code(code, language):
    assert country_clean(code.lower()) == code
    assert country_clean(country_name(code, language)) == code


@given(st.text(max_size=30))
def test_any_text_is_a_code_or_refused_never_another_error(text):
    try:
        code = country_clean(text)
    except ValueError:
        return
    assert code == "" or code in CODES


def test_the_select_lists_every_country_in_the_readers_language():
    german = dict(country_choices("de"))
    assert german["DE"] == "Deutschland" and german["AT"] == "Österreich"
    assert len(german) == len(CODES)
    assert country_name("DE", "en") == "Germany" and country_name("", "de") == ""


@pytest.mark.django_db
def test_the_service_keeps_the_code_and_refuses_a_non_country_changing_nothing(actor):
    lena = player_create(name="Lena Voss", actor=actor)
    assert people.player_update(player=lena, changes={"country": "Deutschland"}, actor=actor) == [
        "country"
    ]
    lena.refresh_from_db()
    assert lena.country == "DE"
    with pytest.raises(FloorError) as refused:
        people.player_update(player=lena, changes={"country": "Atlantis"}, actor=actor)
    assert refused.value.field == "country"
    lena.refresh_from_db()
    assert lena.country == "DE"


@pytest.mark.django_db
def test_the_edit_page_offers_countries_by_name_and_refuses_a_forged_one(client, floor_user, actor):
    lena = player_create(name="Lena Voss", actor=actor)
    client.force_login(floor_user)
    client.cookies["django_language"] = "de"
    page = client.get(reverse("player-edit", args=[lena.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert '<option value="AT">Österreich</option>' in page.content.decode()
    form = {"name": "Lena Voss", "display_name": "Lena V.", "membership_number": ""}
    refused = client.post(reverse("player-edit", args=[lena.pk]), {**form, "country": "ZZ"})
    assert refused.status_code == 400
    lena.refresh_from_db()
    assert lena.country == ""
    saved = client.post(reverse("player-edit", args=[lena.pk]), {**form, "country": "AT"})
    assert saved.status_code == 302
    lena.refresh_from_db()
    assert lena.country == "AT"
    detail = client.get(reverse("player-detail", args=[lena.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert "Österreich" in detail.content.decode()


@pytest.mark.django_db
def test_the_api_takes_a_name_or_code_and_refuses_a_non_country(client, floor_user, actor):
    client.force_login(floor_user)
    made = client.post(
        "/api/players/", {"name": "Ole Berg", "country": "Norway"}, content_type="application/json"
    )
    assert made.status_code == 201 and made.json()["country"] == "NO"
    refused = client.post(
        "/api/players/", {"name": "Xa Yz", "country": "Narnia"}, content_type="application/json"
    )
    assert refused.status_code == 400 and "country" in refused.json()
    assert not Player.objects.filter(name="Xa Yz").exists()


@pytest.mark.django_db
def test_a_sheets_country_column_is_read_and_an_unknown_country_names_the_row(client, director):
    client.force_login(director)
    sheet = "Name;Land\nJörg Weiß;Deutschland\nAnna Schulz;AT\n".encode()
    client.post(reverse("people-import"), {"file": SimpleUploadedFile("p.csv", sheet)})
    page = client.get(reverse("people-import-map")).content.decode()
    assert '<option value="country" selected>' in page
    mapping = {"col_0": "name", "col_1": "country"}
    assert client.post(reverse("people-import-confirm"), mapping).status_code == 302
    assert dict(Player.objects.values_list("name", "country")) == {
        "Jörg Weiß": "DE",
        "Anna Schulz": "AT",
    }
    bad = "Name;Land\nEmil Öz;Atlantis\n".encode()
    client.post(reverse("people-import"), {"file": SimpleUploadedFile("p.csv", bad)})
    refused = client.post(reverse("people-import-confirm"), mapping)
    assert refused.status_code == 400
    assert "two-letter code" in refused.content.decode()
    assert not Player.objects.filter(name="Emil Öz").exists()


@pytest.mark.django_db
def test_the_results_for_databases_carry_the_country_where_known(
    client, make_tournament, register, actor
):
    t = make_tournament(status="running", places_paid=2)
    first, second = register(t, "Jörg Weiß"), register(t, "Bert Meier")
    Player.objects.filter(pk=first.player_id).update(country="DE")
    registration_close(tournament=t, actor=actor)
    entries_bust(tournament=t, busts=[BustReport(entry=second)], actor=actor)
    raw = client.get(reverse("results-database-csv", args=[t.pk])).content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(raw)))
    assert [(r["place"], r["country"]) for r in rows] == [("1", "DE"), ("2", "")]
    data = client.get(reverse("results-database-json", args=[t.pk])).json()
    assert [r["country"] for r in data["results"]] == ["DE", None]
