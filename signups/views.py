"""Sign-up pages (docs/signups.md): the public sign-up (phone first), the private status page that
follows the waiting list live, the printable poster, and the console's list where the door
checks sign-ups in and the director runs the sheet.

The public pages show display names only; contact data is shown to directors only."""

from __future__ import annotations

import functools
import re
import uuid
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import get_script_prefix, reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from actions.signups import signup_check_in
from core.errors import FloorError, NotFound
from core.inputs import search_text, whole_number_or_none
from core.links import public_url
from core.qr import qr_svg
from core.ratelimit import allow
from core.roles import floor_required, is_director
from signups import services as su
from signups.forms import SheetForm, SignUpForm
from signups.models import SignUp, SignUpSheet, SignUpStatus
from signups.selectors import sheet_numbers, sheet_or_none, signup_list
from tournament.domain.ledger import PURCHASE_METHODS
from tournament.events import Actor
from tournament.live import board_version
from tournament.models import PaymentMethod, Player, Tournament
from tournament.public_selectors import entry_by_token
from tournament.selectors import name_query, players_by_name
from tournament.views import console_context, get_tournament

# A flood of sign-ups from one address is throttled (issue: "with a clear message"); a club's
# Wi-Fi puts every phone in the room behind one address, so the limit leaves room for a table
# signing up together.
SIGNUPS_PER_WINDOW = 40
SIGNUP_WINDOW_SECONDS = 600
STATUS_LOOKUPS_PER_MINUTE = 120
HONEYPOT = "website"
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,40}")
# The private links of the sign-ups made in this browser (tokens, newest last): a second
# sign-up of the same person from it shows the first one instead of a refusal.
MINE_COOKIE = "floor_signups"
MINE_KEPT = 8
MINE_DAYS = 60


def _mine(request: HttpRequest) -> list[str]:
    tokens = (request.COOKIES.get(MINE_COOKIE) or "").split(".")
    return [t for t in (_link_token(t) for t in tokens) if t][-MINE_KEPT:]


def _remember(request: HttpRequest, response: HttpResponse, signup: SignUp) -> HttpResponse:
    mine = [t for t in _mine(request) if t != signup.token] + [signup.token]
    response.set_cookie(
        MINE_COOKIE,
        ".".join(mine[-MINE_KEPT:]),
        max_age=MINE_DAYS * 24 * 3600,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


# --- The public sign-up ---------------------------------------------------------------------


def _link_token(value: str) -> str:
    """A token as links carry them (letters, digits, '-' and '_'), else "" (the database refuses
    a NUL, and nothing else can match)."""
    value = value.strip()[:40]
    return value if TOKEN.fullmatch(value) else ""


def _returning_player(token: str) -> Player | None:
    """The person behind a my-seat link of an earlier night, or None (never guessed by name)."""
    token = _link_token(token)
    entry = entry_by_token(token) if token else None
    return entry.player if entry is not None else None


_SLOT = "0slot0"  # stands for the token in the private page's address, once


@functools.lru_cache(maxsize=8)
def _status_url_around(script_prefix: str) -> tuple[str, str]:
    """The private page's address before and after its token (under `script_prefix`: reverse
    reads the same prefix of this thread)."""
    head, tail = reverse("signup-status", args=[_SLOT]).split(_SLOT)
    return head, tail


def _to_status(token: str) -> HttpResponseRedirect:
    """`redirect("signup-status", token)` without resolving the route anew on every sign-up
    (a token is letters, digits, "-" and "_": nothing in it is quoted)."""
    head, tail = _status_url_around(get_script_prefix())
    return HttpResponseRedirect(f"{head}{token}{tail}")


@never_cache
def signup_page(request: HttpRequest, pk: int) -> HttpResponse:
    posted = request.method == "POST"
    # A sign-up is tried before the tournament is read (one statement, signups/services.py);
    # the tournament is read when the page is shown or the sign-up needs the full path.
    tournament: Tournament | None = None
    sheet: SignUpSheet | None = None  # read for the page's figures, else read there
    if not posted:  # a sign-up applies a deadline that has passed itself, under the sheet's lock
        tournament = get_tournament(pk)
        # One read of the sheet for the deadline and the figures (every phone loads the page).
        sheet = sheet_or_none(tournament)
        if su.deadline_due(sheet):
            su.deadline_check(tournament)
            sheet = None  # read again, as the deadline left it
    token = ((request.POST if posted else request.GET).get("from") or "")[:40]
    returning = _returning_player(token)
    initial = {"display_name": returning.display_name} if returning else None
    form = SignUpForm(request.POST if posted else None, initial=initial)
    error, status = "", 200
    if posted:
        if not allow(request, "signup", SIGNUPS_PER_WINDOW, SIGNUP_WINDOW_SECONDS):
            error, status = (
                _("Too many sign-ups from this connection. Please wait ten minutes and try again."),
                429,
            )
        elif request.POST.get(HONEYPOT):
            # A field people never see was filled in: a bot. Nothing is written.
            error, status = (
                _("This sign-up could not be taken. Reload the page and try again."),
                400,
            )
        elif not form.is_valid():
            error, status = _("Check the form: %(e)s") % {"e": _first_error(form)}, 400
        else:
            data = form.cleaned_data
            fields = {
                "display_name": data["display_name"],
                "actor": Actor.from_request(request),
                "email": data["email"],
                "phone": data["phone"],
                "consent": data["consent"],
                "nonce": _link_token(request.POST.get("nonce") or ""),
                "language": get_language() or "",
            }
            try:
                signup = None if returning else su.signup_by_phone(tournament_id=pk, **fields)
                if signup is None:
                    tournament = get_tournament(pk)
                    signup = su.signup_create(
                        tournament=tournament, player=returning, one_statement=False, **fields
                    )
            except su.SignedUpAlready as exc:
                if exc.signup.token in _mine(request):
                    # This browser made it: the player sees their sign-up again.
                    messages.info(request, _("You are signed up already: this is your sign-up."))
                    return redirect("signup-status", exc.signup.token)
                # Anyone else learns nothing of it: its link is its owner's alone.
                error, status = (
                    _(
                        "This e-mail address, phone number or person is signed up for this "
                        "tournament already: one sign-up per person. Open the sign-up with the "
                        "link it got; the desk can help."
                    ),
                    exc.status_code,
                )
            except FloorError as exc:
                error, status = str(exc), exc.status_code
            else:
                return _remember(request, _to_status(signup.token), signup)
    tournament = tournament or get_tournament(pk)
    numbers = sheet_numbers(tournament, sheet)
    return render(
        request,
        "signups/signup.html",
        {
            "tournament": tournament,
            "numbers": numbers,
            "position": numbers.waiting + 1,
            "form": form,
            "error": error,
            "nonce": uuid.uuid4().hex,
            "returning": returning,
            "from_token": token if returning else "",
            "honeypot": HONEYPOT,
        },
        status=status,
    )


def _first_error(form: Any) -> str:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        return f"{label}: {errors[0]}" if label else str(errors[0])
    return ""


def signup_poster(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    url = public_url(reverse("signup", args=[pk]), request)
    return render(
        request,
        "signups/poster.html",
        {
            "tournament": tournament,
            # Drawn as large as the sheet allows (the code's viewBox scales it).
            "qr": qr_svg(url, scale=10),
            "url": url,
            "short_url": url.split("://", 1)[-1],
            "numbers": sheet_numbers(tournament),
        },
    )


# --- The private status page ----------------------------------------------------------------


@never_cache
def signup_status(request: HttpRequest, token: str) -> HttpResponse:
    if not allow(request, "signup-status", STATUS_LOOKUPS_PER_MINUTE):
        return render(
            request,
            "signups/unknown.html",
            {"message": _("Too many look-ups. Please wait a minute and try again.")},
            status=429,
        )
    try:
        signup = su.signup_by_token(token[:60])
    except NotFound:
        return render(request, "signups/unknown.html", status=404)
    tournament = signup.sheet.tournament
    # The event-log version, then the sign-up read again: what the page shows is at least as new
    # as the version it carries, and the page fetches itself once when its socket's hello is
    # newer (static/signups/status.js).
    version = board_version(tournament.pk)
    su.deadline_check(tournament)
    signup.refresh_from_db()
    status = 200
    if request.method == "POST":
        if request.POST.get("action") != "cancel":
            messages.error(request, _("Nothing to do."))
            status = 400
        else:
            try:
                su.signup_cancel(
                    signup=signup,
                    actor=Actor.from_request(request),
                    erase_contact=bool(request.POST.get("erase_contact")),
                )
            except FloorError as exc:
                messages.error(request, str(exc))
                status = exc.status_code
            else:
                messages.success(request, _("Your sign-up is cancelled."))
                return redirect("signup-status", signup.token)
        signup.refresh_from_db()
    payload = su.status_payload(signup)
    live = {
        "ws": f"/ws/t/{tournament.pk}/",
        "version": version,
        **payload,
        "texts": {
            "confirmed": _("You have a place!"),
            "waiting": _("Waiting list: position %(p)s of %(w)s"),
            "live": _("live"),
            "offline": _("offline – showing the last known state"),
        },
    }
    return render(
        request,
        "signups/status.html",
        {
            "signup": signup,
            "tournament": tournament,
            "sheet": signup.sheet,
            "payload": payload,
            "live": live,
            "active": signup.status in (SignUpStatus.CONFIRMED, SignUpStatus.WAITING),
            "has_contact": bool(signup.email or signup.phone),
        },
        status=status,
    )


# --- The console ----------------------------------------------------------------------------

DIRECTOR_ACTIONS = frozenset({"sheet", "add", "cancel", "top", "link"})
PAYMENT_METHODS = [(m, label) for m, label in PaymentMethod.choices if m in PURCHASE_METHODS]


@floor_required
def signups_console(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    actor = Actor.from_request(request)
    su.deadline_check(tournament, actor)
    director = is_director(request.user)
    if request.method != "POST":
        return _console_page(request, tournament, director)
    action = request.POST.get("action", "")
    if action in DIRECTOR_ACTIONS and not director:
        raise PermissionDenied
    if action == "sheet":
        return _sheet_update(request, tournament, actor)
    try:
        done = _console_action(request, tournament, action, actor, director)
    except FloorError as exc:
        messages.error(request, str(exc))
        return _console_page(request, tournament, director, status=exc.status_code)
    messages.success(request, done)
    query = search_text(request.POST.get("q"))
    back = reverse("signups", args=[pk])
    return redirect(f"{back}?{urlencode({'q': query})}" if query else back)


def _console_action(
    request: HttpRequest, tournament: Tournament, action: str, actor: Actor, director: bool
) -> str:
    """Carry out one action of the list; a FloorError says why nothing was done."""
    if action == "add":
        made = su.signup_create(
            tournament=tournament,
            display_name=request.POST.get("display_name", ""),
            actor=actor,
            by_staff=True,
        )
        return _("%(n)s is signed up: %(s)s.") % {"n": made.display_name, "s": _words(made)}
    signup = _signup_of(request, tournament)
    if action == "check_in":
        method = request.POST.get("method", "")
        if method not in PURCHASE_METHODS:
            raise FloorError(_("Say how the buy-in was paid."))
        done = signup_check_in(signup=signup, actor=actor, method=method, director=director)
        entry = done.entry
        seat = getattr(entry, "seat", None) if entry else None
        if seat is not None:
            return _("%(n)s is checked in as #%(e)s: table %(t)s, seat %(s)s.") % {
                "n": done.display_name,
                "e": entry.number if entry else "",
                "t": seat.table.number,
                "s": seat.seat,
            }
        return _("%(n)s is checked in as #%(e)s.") % {
            "n": done.display_name,
            "e": entry.number if entry else "",
        }
    if action == "cancel":
        su.signup_cancel(signup=signup, actor=actor, by_staff=True)
        return _("%(n)s's sign-up is cancelled.") % {"n": signup.display_name}
    if action == "top":
        su.signup_to_top(signup=signup, actor=actor)
        return _("%(n)s is first on the waiting list.") % {"n": signup.display_name}
    if action == "link":
        player_id = whole_number_or_none(request.POST.get("player"), low=1)
        player = Player.objects.filter(pk=player_id or 0).first()
        if player is None:
            raise FloorError(_("No such person: check the player number."))
        su.signup_link_person(signup=signup, player=player, actor=actor)
        return _("%(n)s is linked to %(p)s.") % {"n": signup.display_name, "p": player.name}
    raise FloorError(_("Nothing to do."))


def _words(signup: SignUp) -> str:
    return str(SignUpStatus(signup.status).label)


def _signup_of(request: HttpRequest, tournament: Tournament) -> SignUp:
    signup_id = whole_number_or_none(request.POST.get("signup"), low=1)
    signup = (
        SignUp.objects.select_related("sheet__tournament", "player")
        .filter(pk=signup_id or 0, sheet__tournament=tournament)
        .first()
    )
    if signup is None:
        raise FloorError(_("No such sign-up."))
    return signup


def _sheet_update(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    form = SheetForm.for_sheet(sheet_or_none(tournament), request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            su.sheet_update(
                tournament=tournament,
                actor=actor,
                is_open=data["is_open"],
                places=data["places"],
                reserved=data["reserved"],
                check_in_deadline=data["check_in_deadline"],
            )
        except FloorError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Sign-up settings saved."))
            return redirect("signups", tournament.pk)
    messages.error(request, _("The settings were not saved: check the form."))
    return _console_page(request, tournament, True, sheet_form=form, status=400)


def _console_page(
    request: HttpRequest,
    tournament: Tournament,
    director: bool,
    *,
    sheet_form: SheetForm | None = None,
    status: int = 200,
) -> HttpResponse:
    sheet: SignUpSheet | None = sheet_or_none(tournament)
    query = search_text(request.GET.get("q") or request.POST.get("q"))
    listed = signup_list(sheet, query) if sheet is not None else None
    person_for = whole_number_or_none(request.GET.get("person_for"), low=1)
    who = search_text(request.GET.get("who"))
    context = console_context(
        tournament,
        "signups",
        sheet=sheet,
        numbers=sheet_numbers(tournament, sheet),
        listed=listed,
        query=query,
        director=director,
        sheet_form=sheet_form or SheetForm.for_sheet(sheet),
        methods=PAYMENT_METHODS,
        person_for=person_for,
        who=who,
        people=_people(who) if director and person_for else [],
        now=timezone.now(),
    )
    htmx = getattr(request, "htmx", None)
    if htmx and htmx.target == "signup-list":
        return render(request, "signups/_list.html", context, status=status)
    return render(request, "signups/console.html", context, status=status)


def _people(who: str) -> list[Player]:
    """People a director may link a sign-up to: by player number, or by any part of the name."""
    number = whole_number_or_none(who, low=1)
    if number is not None:
        return list(Player.objects.filter(pk=number))
    if len(who) < 2:
        return []
    return players_by_name(Player.objects.filter(name_query(who)), 8)
