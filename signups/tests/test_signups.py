"""Sign-ups through the services: places and the waiting list, cancellations moving it up (with a
mail), the director's changes, the check-in deadline, the check-in at the desk, walk-ins after
the list, a barred person, and bad input that changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone

from actions.registration import entry_register
from actions.signups import signup_check_in
from core.errors import FloorError, NotFound
from signups import services as su
from signups.models import SignUp, SignUpSheet, SignUpStatus
from tournament.events import Actor
from tournament.models import EntryStatus, Event, Player
from tournament.services.registration import player_create

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
    night.capacity = 5  # a fifth seat, offered to the sign-ups
    night.save(update_fields=["capacity"])
    su.sheet_update(
        tournament=night, actor=actor, is_open=True, places=5, reserved=0, check_in_deadline=None
    )
    assert dict(statuses(night))["GG"] == "confirmed" and dict(statuses(night))["EE"] == "waiting"


def test_the_deadline_makes_no_shows_and_gives_their_places_in_order(night, actor):
    for n in ["AA", "BB", "CC", "DD", "EE", "FF"]:
        sign(night, n)
    signup_check_in(signup=SignUp.objects.get(display_name="AA"), actor=actor)
    signup_check_in(signup=SignUp.objects.get(display_name="BB"), actor=actor)
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
    checked = signup_check_in(signup=SignUp.objects.get(display_name="AA"), actor=actor)
    assert checked.entry.status == EntryStatus.ACTIVE and checked.entry.player.display_name == "AA"
    with pytest.raises(FloorError, match="waiting list: no place yet"):
        signup_check_in(signup=SignUp.objects.get(display_name="EE"), actor=actor)
    walk_in = player_create(name="Walk In", actor=actor)
    night.refresh_from_db()
    with pytest.raises(FloorError, match="held for sign-ups"):
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
        signup_check_in(signup=s, actor=actor)
    assert signup_check_in(signup=s, actor=actor, director=True).entry.player_id == p.pk


def test_cancel_erases_contact_when_asked(night):
    s = sign(night, "Anna", email="anna@example.org", phone="+49 1", consent=True)
    su.signup_cancel(signup=s, actor=NOBODY, erase_contact=True)
    s.refresh_from_db()
    assert (s.email, s.phone, s.status) == ("", "", SignUpStatus.CANCELLED)


def counted(t):
    """The sheet's kept counts and the counts of its rows."""
    sheet = SignUpSheet.objects.get(tournament=t)
    rows = [s for _n, s in statuses(t)]
    held = sum(1 for s in rows if s in ("confirmed", "checked_in"))
    return (sheet.held, sheet.waiting), (held, rows.count("waiting"))


def test_the_sheets_counts_follow_every_change(night, actor):
    for n in ["AA", "BB", "CC", "DD", "EE", "FF", "GG"]:
        sign(night, n)
    kept, rows = counted(night)
    assert kept == rows == (4, 3)
    su.signup_cancel(signup=SignUp.objects.get(display_name="BB"), actor=NOBODY)
    su.signup_cancel(signup=SignUp.objects.get(display_name="GG"), actor=NOBODY)
    signup_check_in(signup=SignUp.objects.get(display_name="AA"), actor=actor)
    su.signup_to_top(signup=SignUp.objects.get(display_name="FF"), actor=actor)
    sign(night, "HH", by_staff=True)
    kept, rows = counted(night)
    assert kept == rows == (4, 2)
    night.capacity = 6
    night.save(update_fields=["capacity"])
    su.sheet_update(
        tournament=night, actor=actor, is_open=True, places=6, reserved=0, check_in_deadline=None
    )
    kept, rows = counted(night)
    assert kept == rows == (6, 0)


def test_a_deadline_that_passed_is_applied_before_the_next_sign_up(night, actor):
    for n in ["AA", "BB", "CC", "DD", "EE"]:
        sign(night, n)
    signup_check_in(signup=SignUp.objects.get(display_name="AA"), actor=actor)
    SignUpSheet.objects.filter(tournament=night).update(
        check_in_deadline=timezone.now() - timedelta(seconds=1)
    )
    sign(night, "FF")  # BB, CC, DD miss the deadline: EE and FF take two of their places
    assert statuses(night) == [
        ("AA", "checked_in"),
        ("BB", "no_show"),
        ("CC", "no_show"),
        ("DD", "no_show"),
        ("EE", "confirmed"),
        ("FF", "confirmed"),
    ]
    assert counted(night)[0] == (3, 0)


@pytest.mark.postgres
def test_the_one_statement_and_the_locked_sign_up_agree(make_tournament, actor, settings):
    """On PostgreSQL a player's sign-up is one statement; the locked one (staff, SQLite) must
    write the same rows: the sign-up, the sheet's counts and the event."""
    if not settings.TEST_ON_POSTGRES:
        pytest.skip("the one statement is PostgreSQL's")
    made = []
    for locked in (False, True):
        t = make_tournament(status="registering", capacity=2)
        su.sheet_update(
            tournament=t, actor=actor, is_open=True, places=None, reserved=1, check_in_deadline=None
        )
        phone = Actor(user=None, label="", source="10.1.2.3")
        for k, name in enumerate(["Anna", "Bert", "Cleo"]):
            kw = dict(email="a@example.org", consent=True) if k == 0 else {}
            if locked:
                form = su._checked(display_name=name, nonce=f"n{k}", language="de", **kw)
                with transaction.atomic():
                    su._signup_locked(t, form, phone, None, False)
            else:
                su.signup_create(
                    tournament=t, display_name=name, actor=phone, nonce=f"n{k}", language="de", **kw
                )
        again = su.signup_create(tournament=t, display_name="Anna", actor=phone, nonce="n0")
        assert again.display_name == "Anna" and again.sequence == 1  # the nonce's sign-up
        rows = [
            (s.sequence, s.display_name, s.status, s.email, s.consent_at is not None, s.language)
            for s in SignUp.objects.filter(sheet__tournament=t).order_by("sequence")
        ]
        sheet = SignUpSheet.objects.get(tournament=t)
        events = [
            (e.action, e.source, {k: v for k, v in e.payload.items() if k != "signup"})
            for e in Event.objects.filter(tournament=t, action="signup.create").order_by("id")
        ]
        counts = (sheet.sequence, sheet.held, sheet.promised, sheet.waiting, sheet.last_placed)
        made.append((rows, counts, events))
    assert made[0] == made[1]
    rows, counts, events = made[0]
    assert [r[2] for r in rows] == ["confirmed", "waiting", "waiting"]  # capacity 2, 1 held back
    assert counts == (3, 1, 1, 2, False)
    assert events[0] == (
        "signup.create",
        "10.1.2.3",
        {"sequence": 1, "name": "Anna", "status": "confirmed", "by_staff": False},
    )


@pytest.mark.postgres
def test_the_one_statement_answers_the_row_it_wrote(make_tournament, actor, settings):
    """The sign-up the one statement returns is built from what it wrote, without reading it
    back: it equals the stored row, field by field."""
    if not settings.TEST_ON_POSTGRES:
        pytest.skip("the one statement is PostgreSQL's")
    t = make_tournament(status="registering", capacity=1)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=0, check_in_deadline=None
    )
    phone = Actor(user=None, label="", source="10.1.2.3")
    made = [
        su.signup_by_phone(
            tournament_id=t.pk,
            actor=phone,
            display_name=name,
            email=email,
            phone="0171 1234567" if email else "",
            consent=bool(email),
            nonce=f"n{k}",
            language="de",
        )
        for k, (name, email) in enumerate([("Anna", "Anna@Example.org"), ("Bert", "")])
    ]
    for signup in made:
        assert signup is not None and not signup._state.adding
        stored = SignUp.objects.get(pk=signup.pk)
        fields = [f.attname for f in SignUp._meta.concrete_fields]
        assert [getattr(signup, f) for f in fields] == [getattr(stored, f) for f in fields]
    assert [s.status for s in made] == ["confirmed", "waiting"]
    assert made[0].email_key == "anna@example.org" and made[0].phone_key == "491711234567"


def test_a_sign_up_writes_no_index_it_does_not_need(make_tournament):
    """Every index of the sign-ups' table is written by each sign-up while the sheet is locked:
    none for the sheet alone (the arrival number's index starts with it), the person's only
    on rows with a person, the token unique without a pattern index."""
    from django.db import IntegrityError, connection

    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, SignUp._meta.db_table)
    indexed = {name: c for name, c in found.items() if c["index"] or c["unique"]}
    columns = [tuple(c["columns"]) for c in indexed.values()]
    assert ("sheet_id",) not in columns
    assert columns.count(("token",)) == 1 and indexed["signup_token_unique"]["unique"]
    assert columns.count(("player_id",)) == 1 and "signup_by_person" in indexed
    sheet = SignUpSheet.objects.create(tournament=make_tournament())
    SignUp.objects.create(sheet=sheet, sequence=1, display_name="Anna", token="same")
    with pytest.raises(IntegrityError), transaction.atomic():
        SignUp.objects.create(sheet=sheet, sequence=2, display_name="Bert", token="same")


def test_the_one_statement_keeps_its_parsed_form():
    """psycopg parses a statement's placeholders once and keeps the result only for statements
    of at most 4,096 bytes: the sign-up's statement stays under it (one parse less a sign-up)."""
    from psycopg import _queries

    sql = su._one_statement_sql()
    assert len(sql.encode()) <= _queries.MAX_CACHED_STATEMENT_LENGTH
    assert "  " not in sql and "'signup.create'" in sql


# --- Walk-ins and sign-ups share the seats (issue 55: findings 2 and 3) ----------------------


def walk_in(t, name, actor):
    from actions.registration import player_register

    return player_register(tournament=t, name=name, actor=actor)


def seats_taken(t):
    """Entries playing and places promised to sign-ups not checked in yet."""
    playing = t.entries.filter(status=EntryStatus.ACTIVE).count()
    return playing + SignUp.objects.filter(sheet__tournament=t, status="confirmed").count()


def test_walk_ins_at_the_desk_count_against_the_sign_ups_places(make_tournament, actor):
    """Capacity 6, places blank: two sign-ups and four walk-ins fill the room; the sheet says
    so, the next sign-ups wait, a fifth walk-in is refused with nothing written, and the two
    sign-ups check in as playing entries, not alternates."""
    from signups.selectors import sheet_numbers

    t = make_tournament(status="registering", capacity=6)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=0, check_in_deadline=None
    )
    sign(t, "AA")
    sign(t, "BB")
    for k in range(4):
        assert walk_in(t, f"Walk In {k}", actor).status == EntryStatus.ACTIVE
    numbers = sheet_numbers(t)
    assert (numbers.free, numbers.places) == (0, 6)
    for n in ["CC", "DD", "EE", "FF"]:
        assert sign(t, n).status == SignUpStatus.WAITING
    players, entries = Player.objects.count(), t.entries.count()
    with pytest.raises(FloorError, match="All 6 places are taken") as refused:
        walk_in(t, "One Too Many", actor)
    assert refused.value.code == "held_for_signups"
    assert (Player.objects.count(), t.entries.count()) == (players, entries)
    for n in ["AA", "BB"]:
        checked = signup_check_in(signup=SignUp.objects.get(display_name=n), actor=actor)
        assert checked.entry.status == EntryStatus.ACTIVE
    assert t.entries.filter(status=EntryStatus.ACTIVE).count() == 6
    assert not t.entries.filter(status=EntryStatus.ALTERNATE).exists()


def test_a_place_given_back_moves_the_list_up_within_the_seats(make_tournament, actor):
    """Capacity 4, nobody held back: a place given back by a sign-up goes to the first waiting
    only if no walk-in took the seat meanwhile; seats are never promised twice."""
    t = make_tournament(status="registering", capacity=4)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=0, check_in_deadline=None
    )
    for n in ["AA", "BB", "CC"]:
        sign(t, n)
    walk_in(t, "Walk In", actor)
    assert sign(t, "DD").status == SignUpStatus.WAITING
    su.signup_cancel(signup=SignUp.objects.get(display_name="AA"), actor=NOBODY)
    assert SignUp.objects.get(display_name="DD").status == SignUpStatus.CONFIRMED
    assert seats_taken(t) == 4


def test_a_waiting_sign_up_takes_no_place_held_back(make_tournament, actor):
    """Capacity 6, 2 held back, places blank (6 - 2 = 4 for sign-ups); 5 sign-ups: 4 with a
    place, 1 waiting. The 2 places held back are the desk's: both walk-ins get in (4 promised
    + 2 playing = 6), a third is refused, and every sign-up with a place still has a seat."""
    t = make_tournament(status="registering", capacity=6)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=2, check_in_deadline=None
    )
    for n in ["AA", "BB", "CC", "DD", "EE"]:
        sign(t, n)
    assert [s for _n, s in statuses(t)] == ["confirmed"] * 4 + ["waiting"]
    assert walk_in(t, "Walk One", actor).status == EntryStatus.ACTIVE
    assert walk_in(t, "Walk Two", actor).status == EntryStatus.ACTIVE
    with pytest.raises(FloorError) as refused:
        walk_in(t, "Walk Three", actor)
    assert refused.value.code == "held_for_signups"
    for n in ["AA", "BB", "CC", "DD"]:
        signup_check_in(signup=SignUp.objects.get(display_name=n), actor=actor)
    assert t.entries.filter(status=EntryStatus.ACTIVE).count() == 6


def test_a_full_room_without_sign_ups_holding_or_waiting_makes_alternates(make_tournament, actor):
    """Every sign-up checked in and nobody waiting: a walk-in in a full room is an alternate,
    as without sign-ups (tda-de 7)."""
    t = make_tournament(status="registering", capacity=2)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=0, check_in_deadline=None
    )
    signup_check_in(signup=sign(t, "AA"), actor=actor)
    walk_in(t, "Walk One", actor)
    assert walk_in(t, "Walk Two", actor).status == EntryStatus.ALTERNATE


def test_places_beyond_the_seats_are_refused(make_tournament, actor):
    t = make_tournament(status="registering", capacity=6)
    with pytest.raises(FloorError, match="more than the tournament's 6 seats"):
        su.sheet_update(
            tournament=t, actor=actor, is_open=True, places=5, reserved=2, check_in_deadline=None
        )
    assert not SignUpSheet.objects.filter(tournament=t, is_open=True).exists()


# --- The same person signs up once (issue 55: finding 4) --------------------------------------


def creates(t):
    return Event.objects.filter(tournament=t, action="signup.create").count()


@pytest.mark.parametrize(
    "first,again",
    [
        (dict(email="Anna@Example.org"), dict(email=" anna@example.ORG ")),
        (dict(phone="0171 123 4567"), dict(phone="+49 (171) 1234567")),
        (dict(phone="+49 171 1234567", email="a@example.org"), dict(phone="0049 171 1234567")),
    ],
    ids=["e-mail", "phone", "phone in another form"],
)
def test_the_same_contact_data_signs_up_once(night, first, again):
    one = sign(night, "Anna", consent=True, nonce="n-1", **first)
    with pytest.raises(su.SignedUpAlready, match="signed up for this tournament already") as no:
        sign(night, "Anna", consent=True, nonce="n-2", **again)
    assert no.value.signup.pk == one.pk and no.value.status_code == 409
    assert SignUp.objects.filter(sheet__tournament=night).count() == 1
    assert creates(night) == 1
    # Cancelled, the person may sign up again.
    su.signup_cancel(signup=one, actor=NOBODY)
    assert sign(night, "Anna", consent=True, nonce="n-3", **again).status == "confirmed"


def test_the_same_person_record_signs_up_once_also_after_check_in(night, actor):
    p = Player.objects.create(name="Anna Berg", display_name="Anna")
    first = sign(night, "Anna", player=p)
    with pytest.raises(FloorError, match="already"):
        sign(night, "Anna B", player=p)
    signup_check_in(signup=first, actor=actor)
    with pytest.raises(FloorError, match="already"):
        sign(night, "Anna B", player=p, by_staff=True)
    other = sign(night, "Anna Berg")
    with pytest.raises(FloorError, match="already"):
        su.signup_link_person(signup=other, player=p, actor=actor)
    assert creates(night) == 2


def test_the_database_holds_one_sign_up_per_person_on_the_list(night):
    from django.db import IntegrityError

    p = Player.objects.create(name="Anna Berg", display_name="Anna")
    one = sign(night, "Anna", player=p, email="a@example.org", consent=True)
    for kw in (dict(player=p), dict(email_key="a@example.org")):
        with pytest.raises(IntegrityError), transaction.atomic():
            SignUp.objects.create(sheet=one.sheet, sequence=99, display_name="Anna", **kw)


def test_a_seat_freed_at_the_desk_goes_to_the_waiting_list(make_tournament, actor):
    """Capacity 3: one sign-up, two walk-ins, then a sign-up waits. A walk-in unregistered at
    the desk gives its seat to the first waiting at once; a new sign-up never overtakes it."""
    from actions.registration import entry_unregister

    t = make_tournament(status="registering", capacity=3)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=0, check_in_deadline=None
    )
    sign(t, "AA")
    gone = walk_in(t, "Walk One", actor)
    walk_in(t, "Walk Two", actor)
    assert sign(t, "BB").status == SignUpStatus.WAITING
    entry_unregister(entry=gone, actor=actor)
    assert SignUp.objects.get(display_name="BB").status == SignUpStatus.CONFIRMED
    assert sign(t, "CC").status == SignUpStatus.WAITING
    assert seats_taken(t) == 3
