"""Sign-ups through the services: places and the waiting list, cancellations moving it up (with a
mail), the director's changes, the check-in deadline, the check-in at the desk, walk-ins after
the list, a barred person, and bad input that changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from signups import services as su
from signups.models import SignUp, SignUpStatus
from tournament.errors import FloorError, NotFound
from tournament.events import Actor
from tournament.models import EntryStatus, Event, Player
from tournament.services.registration import entry_register, player_create

pytestmark = pytest.mark.django_db

NOBODY = Actor.system("phone")


@pytest.fixture
def night(make_tournament, actor):
    t = make_tournament(status="registering", capacity=4)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=4, reserved=0, check_in_deadline=None
    )
    return t


def sign(t, name, **kw):
    return su.signup_create(tournament=t, display_name=name, actor=NOBODY, **kw)


def statuses(t):
    return [
        (s.display_name, s.status)
        for s in SignUp.objects.filter(sheet__tournament=t).order_by("sequence")
    ]


def test_places_then_the_waiting_list_in_arrival_order(night):
    for n in ["AA", "BB", "CC", "DD", "EE", "FF"]:
        sign(night, n)
    assert [s for _n, s in statuses(night)] == ["confirmed"] * 4 + ["waiting"] * 2
    e = SignUp.objects.get(display_name="EE")
    assert su.status_payload(e)["position"] == 1
    assert su.status_payload(SignUp.objects.get(display_name="FF"))["position"] == 2


def test_a_cancellation_moves_the_first_waiting_up_and_tells_them(night, sent):
    for n in ["AA", "BB", "CC", "DD", "EE"]:
        sign(
            night,
            n,
            email=f"{n.lower()}@example.org" if n == "EE" else "",
            consent=n == "EE",
            language="de",
        )
    with django_capture_on_commit():
        su.signup_cancel(signup=SignUp.objects.get(display_name="BB"), actor=NOBODY)
    assert dict(statuses(night))["EE"] == "confirmed"
    assert len(mail.outbox) == 1 and "ee@example.org" in mail.outbox[0].to
    assert "/signup/" in mail.outbox[0].body
    # In the language the player signed up in, whoever caused the move.
    assert mail.outbox[0].subject.startswith("Du hast einen Platz")
    moved = [d for _g, name, d in sent if name == "signups" and d["moved"]]
    assert moved and moved[-1]["moved"] == [5] and moved[-1]["waiting"] == []
    assert moved[-1]["waiting_count"] == 0
    with pytest.raises(FloorError, match="cancelled already"):
        su.signup_cancel(signup=SignUp.objects.get(display_name="BB"), actor=NOBODY)


class django_capture_on_commit:
    """Run the on-commit callbacks (the mails) inside the test's transaction."""

    def __enter__(self):
        from django.db import connection

        self._start = len(connection.run_on_commit)

    def __exit__(self, *exc):
        from django.db import connection

        for _sids, func, _robust in connection.run_on_commit[self._start :]:
            func()


def test_a_form_sent_twice_makes_one_signup(night):
    one = sign(night, "Anna", nonce="n-1")
    two = sign(night, "Anna", nonce="n-1")
    assert one.pk == two.pk and SignUp.objects.count() == 1


@pytest.mark.parametrize(
    "name,why",
    [
        ("", "Enter a name"),
        ("x" * 61, "60 characters"),
        ("Ann\na", "line breaks"),
        ("A\u202eB", "control"),
    ],
)
def test_bad_names_are_refused_and_nothing_written(night, name, why):
    with pytest.raises(FloorError, match=why):
        sign(night, name)
    assert not SignUp.objects.exists()


def test_contact_needs_consent_and_closed_sheets_refuse(night, actor):
    with pytest.raises(FloorError, match="consent"):
        sign(night, "Anna", email="a@example.org")
    su.sheet_update(
        tournament=night, actor=actor, is_open=False, places=4, reserved=0, check_in_deadline=None
    )
    with pytest.raises(FloorError, match="closed"):
        sign(night, "Anna")
    assert su.signup_create(tournament=night, display_name="Gast", actor=actor, by_staff=True)


def test_a_link_that_does_not_exist():
    with pytest.raises(NotFound):
        su.signup_by_token("nope")


def test_more_places_and_a_move_to_the_top(night, actor):
    for n in ["AA", "BB", "CC", "DD", "EE", "FF", "GG"]:
        sign(night, n)
    su.signup_to_top(signup=SignUp.objects.get(display_name="GG"), actor=actor)
    su.sheet_update(
        tournament=night, actor=actor, is_open=True, places=5, reserved=0, check_in_deadline=None
    )
    assert dict(statuses(night))["GG"] == "confirmed" and dict(statuses(night))["EE"] == "waiting"


def test_the_deadline_makes_no_shows_and_gives_their_places_in_order(night, actor):
    for n in ["AA", "BB", "CC", "DD", "EE", "FF"]:
        sign(night, n)
    su.signup_check_in(signup=SignUp.objects.get(display_name="AA"), actor=actor)
    su.signup_check_in(signup=SignUp.objects.get(display_name="BB"), actor=actor)
    su.sheet_update(
        tournament=night,
        actor=actor,
        is_open=True,
        places=4,
        reserved=0,
        check_in_deadline=timezone.now() - timedelta(minutes=1),
    )
    assert su.deadline_check(night) == 0  # applied at once by the update
    assert statuses(night) == [
        ("AA", "checked_in"),
        ("BB", "checked_in"),
        ("CC", "no_show"),
        ("DD", "no_show"),
        ("EE", "confirmed"),
        ("FF", "confirmed"),
    ]
    assert Event.objects.filter(action="signup.deadline").get().payload["no_shows"] == [3, 4]


def test_check_in_makes_a_paid_entry_and_walk_ins_come_after_the_list(night, actor):
    for n in ["AA", "BB", "CC", "DD", "EE"]:
        sign(night, n)
    checked = su.signup_check_in(signup=SignUp.objects.get(display_name="AA"), actor=actor)
    assert checked.entry.status == EntryStatus.ACTIVE and checked.entry.player.display_name == "AA"
    with pytest.raises(FloorError, match="waiting list: no place yet"):
        su.signup_check_in(signup=SignUp.objects.get(display_name="EE"), actor=actor)
    walk_in = player_create(name="Walk In", actor=actor)
    night.refresh_from_db()
    with pytest.raises(FloorError, match="held for a sign-up"):
        entry_register(tournament=night, player=walk_in, actor=actor)
    # The waiting list gives up (E cancels), three more no-shows: places free for walk-ins.
    su.signup_cancel(signup=SignUp.objects.get(display_name="EE"), actor=NOBODY)
    for n in ["BB", "CC", "DD"]:
        su.signup_cancel(signup=SignUp.objects.get(display_name=n), actor=NOBODY)
    night.refresh_from_db()
    assert entry_register(tournament=night, player=walk_in, actor=actor).status == "active"


def test_a_barred_person_needs_the_director(night, actor):
    p = Player.objects.create(
        name="Bad Guy", display_name="Bad", barred=True, barred_reason="debts"
    )
    s = sign(night, "Bad")
    su.signup_link_person(signup=s, player=p, actor=actor)
    with pytest.raises(FloorError, match="barred \\(debts\\)"):
        su.signup_check_in(signup=s, actor=actor)
    assert su.signup_check_in(signup=s, actor=actor, director=True).entry.player_id == p.pk


def test_cancel_erases_contact_when_asked(night):
    s = sign(night, "Anna", email="anna@example.org", phone="+49 1", consent=True)
    su.signup_cancel(signup=s, actor=NOBODY, erase_contact=True)
    s.refresh_from_db()
    assert (s.email, s.phone, s.status) == ("", "", SignUpStatus.CANCELLED)
