"""Every link a device receives carries the public base address (core/links.py): the
venue's name or LAN address, whatever address the staff's own browser used (docs/venue.md)."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from core.qr import qr_svg
from signups import services as su
from tables.models import Table
from tables.services.draw import seats_draw

VENUE = "http://floor.local:8000"


@pytest.fixture
def staff(director):
    # The director's own browser on the laptop: localhost.
    c = Client(HTTP_HOST="localhost")
    c.force_login(director)
    return c


@pytest.fixture
def night(make_tournament, register, actor):
    t = make_tournament(status="registering", capacity=20)
    for name in ("Anna Weber", "Ben Koch", "Clara Wolf"):
        register(t, name)
    seats_draw(tournament=t, actor=actor)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=4, reserved=0, check_in_deadline=None
    )
    return t


def _page(client, name, *args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@override_settings(FLOOR_PUBLIC_URL=VENUE)
def test_qr_codes_and_links_carry_the_venue_address_not_the_browsers(staff, night):
    entry = night.entries.order_by("pk").first()
    seat = f"{VENUE}/s/{entry.public_token}/"
    receipt = _page(staff, "entry-receipt", night.pk, entry.pk)
    assert str(qr_svg(seat)) in receipt  # the QR code encodes exactly the venue's link
    assert "localhost" not in receipt.replace('lang="', "")

    cards = _page(staff, "print-seat-cards", night.pk)
    for e in night.entries.all():
        assert str(qr_svg(f"{VENUE}/s/{e.public_token}/")) in cards

    tables = _page(staff, "print-table-cards", night.pk)
    table = Table.objects.filter(tournament=night, is_open=True).order_by("number").first()
    assert str(qr_svg(f"{VENUE}/t/{night.pk}/table/{table.number}/")) in tables

    detail = _page(staff, "table-detail", night.pk, table.number)
    assert f"{VENUE}/d/{table.dealer_token}/" in detail

    poster = _page(staff, "signup-poster", night.pk)
    assert f"floor.local:8000/t/{night.pk}/signup/" in poster and "localhost" not in poster

    phone = Client(HTTP_HOST="localhost")
    my_seat = _page(phone, "my-seat", entry.public_token)
    assert str(qr_svg(seat)) in my_seat


@override_settings(FLOOR_PUBLIC_URL=VENUE)
def test_the_console_shows_the_venue_address_with_its_qr_code(staff, night):
    page = _page(staff, "console-devices")
    assert f"{VENUE}/console/" in page and str(qr_svg(f"{VENUE}/console/", scale=6)) in page
    assert f"{VENUE}/" in page and f"{VENUE}/t/{night.pk}/clock/" in page
    assert 'id="local-only"' not in page


def test_without_a_public_address_a_page_links_to_its_own_address(staff, night):
    entry = night.entries.order_by("pk").first()
    receipt = _page(staff, "entry-receipt", night.pk, entry.pk)
    assert str(qr_svg(f"http://localhost/s/{entry.public_token}/")) in receipt
    # ... and the Other devices page says that only this machine can open it.
    assert 'id="local-only"' in _page(staff, "console-devices")


def test_the_other_devices_page_is_for_staff_only(client, night):
    response = client.get(reverse("console-devices"))
    assert response.status_code == 302 and "login" in response["Location"]


@override_settings(FLOOR_PUBLIC_URL=VENUE)
def test_a_move_up_mail_carries_the_venue_address(night, mailoutbox):
    from signups.services import _mail_one

    _mail_one("anna@example.org", "tok123", "Anna", night)
    assert f"{VENUE}/signup/tok123/" in mailoutbox[0].body
    assert "127.0.0.1" not in mailoutbox[0].body
