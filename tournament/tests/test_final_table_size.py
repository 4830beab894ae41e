"""The final table's size: one full table of the event unless the director says otherwise,
at most ten (tda-de 11)."""

from __future__ import annotations

import pytest

from tournament.forms import NewTournamentForm, TournamentForm

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
