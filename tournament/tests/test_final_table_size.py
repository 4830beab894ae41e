"""The final table's size: one full table of the event unless the director says otherwise,
at most ten (tda-de 11)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tournament.events import Actor
from tournament.forms import NewTournamentForm, TournamentForm
from tournament.models import Tournament
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db

BASE = {
    "name": "Six-max",
    "starts_at": "2026-12-04T19:30",
    "game": "nlhe",
    "currency": "EUR",
    "buy_in": "30",
    "fee": "3",
    "starting_stack": "15000",
    "seats_per_table": "6",
    "ruleset": "tda-de",
    "max_entries_per_player": "1",
    "rebuys_max": "0",
    "addons_max": "0",
    "rebuy_chips": "0",
    "addon_chips": "0",
}


def test_an_empty_final_table_size_is_the_seats_per_table(template, chip_set):
    form = NewTournamentForm({**BASE, "structure": template.pk, "chip_set": chip_set.pk})
    assert "final_table_size" not in form.initial
    assert form.is_valid(), form.errors
    assert form.values()["final_table_size"] == 6


def test_a_final_table_size_given_is_kept_and_checked(make_tournament):
    t = make_tournament(seats_per_table=6)
    form = TournamentForm({**BASE, "final_table_size": "7"}, instance=t)
    assert form.is_valid(), form.errors
    assert form.values()["final_table_size"] == 7
    assert form.initial["final_table_size"] == 6
    form = TournamentForm({**BASE, "final_table_size": "11"}, instance=t)
    assert not form.is_valid()


class _FormValues(HTMLParser):
    """The values each form of a page would send as it stands: inputs, selected options,
    checked boxes, text areas."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, str]] = []
        self._select: str | None = None
        self._first_option: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append({})
        elif not self.forms:
            return
        elif tag == "input" and a.get("name"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            if a.get("type") in ("submit", "button"):
                return
            self.forms[-1][a["name"]] = a.get("value", "on" if a.get("type") == "checkbox" else "")
        elif tag == "select":
            self._select = a.get("name")
            self._first_option = None
        elif tag == "option" and self._select:
            if self._first_option is None:
                self._first_option = a.get("value", "")
                self.forms[-1].setdefault(self._select, self._first_option)
            if "selected" in a:
                self.forms[-1][self._select] = a.get("value", "")
        elif tag == "textarea" and a.get("name"):
            self._textarea = a["name"]
            self.forms[-1][self._textarea] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea and self.forms:
            self.forms[-1][self._textarea] += data


def test_the_new_tournament_page_leaves_the_final_table_to_the_table_size(
    client, director, template, chip_set
):
    """The page shows no 9 in the final table's field (its help says "empty: one full table"),
    and a 6-max tournament made with the page's defaults gets a final table of 6, as the API's
    default."""
    client.force_login(director)
    page = client.get(reverse("tournament-new")).content.decode()
    parser = _FormValues()
    parser.feed(page)
    form = next(f for f in parser.forms if "final_table_size" in f)
    assert form["final_table_size"] == ""
    form |= {"name": "Six-max Friday", "seats_per_table": "6"}
    response = client.post(reverse("tournament-new"), form)
    assert response.status_code == 302, response.content.decode()[:3000]
    made = Tournament.objects.get(name="Six-max Friday")
    assert (made.seats_per_table, made.final_table_size) == (6, 6)
    # The API made the same tournament with the same final table.
    api = tournament_create(
        actor=Actor.system(),
        name="Six-max by the API",
        starts_at=made.starts_at,
        buy_in=made.buy_in,
        starting_stack=made.starting_stack,
        seats_per_table=6,
        structure=template,
        chip_set=chip_set,
    )
    assert api.final_table_size == made.final_table_size
