"""The webhooks' writes: endpoints (created with their secret, paused, resumed, deleted), the
outbox rows an event-log row makes, and each attempt's result.

Every function that writes takes its own short transaction: the outbox is filled after the
event-log row committed (webhooks/receivers.py), never inside the transaction of the action
that caused it, and an attempt's HTTP request runs outside any transaction.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import FloorError, NotFound
from tournament.models import Event, Tournament
from webhooks import payloads, sending
from webhooks.domain import rules
from webhooks.domain.rules import Kind, Refused
from webhooks.models import Delivery, Endpoint
from webhooks.wakeup import dispatch

log = logging.getLogger(__name__)

DESCRIPTION_MAX = 120
# An attempt holds its row this long (longer than its timeouts): a sender that died meanwhile
# leaves it to the next one, which sends it again with the same message id.
LEASE = timedelta(seconds=120)


def refusal_words(exc: Refused) -> str:
    """Why Floor does not send to this URL, for the director."""
    words = {
        rules.SCHEME: _("The address must start with https://."),
        rules.HTTP_OUTSIDE_VENUE: _(
            "The address must start with https:// (plain http:// only in venue mode, on the room's network)."
        ),
        rules.CREDENTIALS: _("The address must not contain a user name or password."),
        rules.NO_HOST: _("The address names no server."),
        rules.TOO_LONG: _("The address is too long (at most 500 characters)."),
        rules.PORT: _("The address has an invalid port."),
        rules.LOOPBACK: _("The address leads to this machine itself (%(ip)s): refused."),
        rules.LINK_LOCAL: _("The address is a link-local address (%(ip)s): refused."),
        rules.PRIVATE: _(
            "The address is on a private network (%(ip)s): allowed only in venue mode."
        ),
        rules.NOT_GLOBAL: _("The address is not a public internet address (%(ip)s): refused."),
        rules.UNRESOLVED: _("The server's name could not be found."),
        rules.CHARACTERS: _("The address contains spaces or control characters."),
    }
    text = words.get(exc.reason, _("The address is refused."))
    return text % {"ip": exc.detail} if "%(ip)s" in text else text


def _kinds_clean(kinds: Iterable[str]) -> list[str]:
    chosen = list(dict.fromkeys(str(k) for k in kinds))
    allowed = {str(k) for k in rules.SUBSCRIBABLE}
    unknown = [k for k in chosen if k not in allowed]
    if unknown:
        raise FloorError(_("Unknown event: %(k)s.") % {"k": unknown[0][:40]}, field="kinds")
    if not chosen:
        raise FloorError(_("Choose at least one event."), field="kinds")
    return [str(k) for k in rules.SUBSCRIBABLE if str(k) in chosen]


def endpoint_create(
    *,
    url: str,
    kinds: Iterable[str],
    tournament: Tournament | None = None,
    description: str = "",
    user: Any = None,
) -> tuple[Endpoint, str]:
    """Register an endpoint. Returns it and its secret: the only time the secret is handed out.
    Refuses (FloorError, nothing written) a URL Floor would not send to, checked with its name
    resolved now (and again on every attempt)."""
    url = (url or "").strip()
    if not url:
        raise FloorError(_("Enter the receiver's address."), field="url")
    try:
        sending.target_check(url)
    except Refused as exc:
        raise FloorError(refusal_words(exc), field="url") from exc
    chosen = _kinds_clean(kinds)
    description = (description or "").strip()
    if any(not c.isprintable() for c in description):
        raise FloorError(
            _("Enter the description without control characters."), field="description"
        )
    if len(description) > DESCRIPTION_MAX:
        raise FloorError(
            _("The description is too long (at most %(n)s characters).") % {"n": DESCRIPTION_MAX},
            field="description",
        )
    secret = rules.secret_new()
    endpoint = Endpoint.objects.create(
        url=url,
        kinds=chosen,
        tournament=tournament,
        description=description,
        secret=secret,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    return endpoint, secret


def refusal_missing() -> str:
    return _("No such webhook endpoint.")


def refusal_tournament() -> str:
    return _("Choose a tournament from the list.")


def _endpoint(pk: int) -> Endpoint:
    endpoint = Endpoint.objects.filter(pk=pk).first()
    if endpoint is None:
        raise NotFound(refusal_missing())
    return endpoint


def endpoint_set_active(*, pk: int, active: bool) -> Endpoint:
    """Pause (nothing is queued or sent to it) or resume an endpoint; what waited is sent
    on resuming, if its attempts are not spent."""
    endpoint = _endpoint(pk)
    Endpoint.objects.filter(pk=pk).update(active=active)
    endpoint.active = active
    if active:
        transaction.on_commit(dispatch)
    return endpoint


def endpoint_delete(*, pk: int) -> None:
    _endpoint(pk).delete()


def ping(*, pk: int) -> Delivery:
    """A test message to one endpoint (paused or not), sent like every other."""
    endpoint = _endpoint(pk)
    now = timezone.now()
    delivery = Delivery.objects.create(
        endpoint=endpoint,
        kind=str(Kind.TEST),
        message_id=f"msg_test_{uuid.uuid4().hex}",
        payload=payloads.ping_message(now.isoformat()),
        next_attempt_at=now,
    )
    transaction.on_commit(lambda: dispatch([delivery.pk]))
    return delivery


# --- The outbox --------------------------------------------------------------------------------


def message_id(event_id: int, kind: str, endpoint_id: int) -> str:
    """The same for every attempt, and for the same row told twice: a receiver dedupes by it."""
    return f"msg_{event_id}_{kind.replace('.', '-')}_{endpoint_id}"


def endpoints_for(tournament_id: int, kinds: Iterable[Kind]) -> dict[Kind, list[Endpoint]]:
    """The active endpoints that take each of these kinds for this tournament (one query)."""
    rows = list(
        Endpoint.objects.filter(active=True).filter(
            Q(tournament__isnull=True) | Q(tournament_id=tournament_id)
        )
    )
    return {k: [e for e in rows if str(rules.subscription(k)) in (e.kinds or [])] for k in kinds}


def deliveries_enqueue(
    event_id: int,
    *,
    action: str | None = None,
    payload: dict[str, Any] | None = None,
    tournament_id: int | None = None,
) -> list[int]:
    """The outbox rows one committed event-log row makes, one per endpoint and kind, at most
    once however often it is asked (a unique row per endpoint, event and kind). Returns the
    new rows' ids. With the row's action, payload and tournament given (the receiver has them),
    a row no endpoint wants costs one query."""
    event: Event | None = None
    if action is None or payload is None or tournament_id is None:
        event = Event.objects.filter(pk=event_id).select_related("tournament").first()
        if event is None or event.tournament_id is None:
            return []
        action, payload, tournament_id = event.action, event.payload, event.tournament_id
    kinds = payloads.kinds_of(action, payload)
    if not kinds:
        return []
    wanted = {k: e for k, e in endpoints_for(tournament_id, kinds).items() if e}
    if not wanted:
        return []
    if event is None:
        event = Event.objects.filter(pk=event_id).select_related("tournament").first()
    if event is None or event.tournament is None:
        return []
    made: list[int] = []
    now = timezone.now()
    for kind, endpoints in wanted.items():
        body = payloads.message(kind, event, event.tournament)
        for endpoint in endpoints:
            try:
                with transaction.atomic():
                    delivery = Delivery.objects.create(
                        endpoint=endpoint,
                        event_id=event.pk,
                        kind=str(kind),
                        message_id=message_id(event.pk, str(kind), endpoint.pk),
                        payload=body,
                        next_attempt_at=now,
                    )
            except IntegrityError:
                continue  # already in the outbox
            made.append(delivery.pk)
    return made


def _claim(delivery: Delivery, now: Any) -> bool:
    """Take one due row for this attempt (a conditional update: one sender wins), counting the
    attempt before it is made."""
    taken = Delivery.objects.filter(
        pk=delivery.pk,
        state=Delivery.PENDING,
        attempts=delivery.attempts,
        next_attempt_at=delivery.next_attempt_at,
    ).update(attempts=delivery.attempts + 1, next_attempt_at=now + LEASE, last_attempt_at=now)
    return taken == 1


def delivery_attempt(delivery: Delivery) -> bool | None:
    """One attempt at a due row: claimed, sent, its answer recorded and its next attempt set
    (or failed for good after the last). Returns whether it was delivered; None when another
    sender had taken it."""
    now = timezone.now()
    if not _claim(delivery, now):
        return None
    attempts = delivery.attempts + 1
    endpoint = delivery.endpoint
    outcome = sending.attempt(
        url=endpoint.url,
        secret=endpoint.secret,
        message_id=delivery.message_id,
        payload=delivery.payload,
        at=now,
    )
    done = timezone.now()
    fields: dict[str, Any] = {
        "last_status": outcome.status,
        "last_answer": outcome.answer,
        "last_error": outcome.error,
    }
    ok = outcome.status is not None and rules.success(outcome.status)
    if ok:
        fields.update(state=Delivery.DELIVERED, delivered_at=done, next_attempt_at=None)
    else:
        if outcome.status is not None and not outcome.error:
            fields["last_error"] = "redirect: not followed" if 300 <= outcome.status < 400 else ""
        again = rules.next_attempt(attempts, done)
        fields.update(state=Delivery.PENDING if again else Delivery.FAILED, next_attempt_at=again)
        _hold_the_others(delivery, until=again or done + rules.schedule_span())
    Delivery.objects.filter(pk=delivery.pk).update(**fields)
    return ok


def _hold_the_others(delivery: Delivery, *, until: Any) -> None:
    """An endpoint that just failed is not tried again for its other waiting messages before
    this one's next attempt (their own attempts are not counted): a receiver that is down costs
    the sender one timeout per retry, not one per message of a busy night."""
    Delivery.objects.filter(
        endpoint_id=delivery.endpoint_id,
        state=Delivery.PENDING,
        next_attempt_at__lt=until,
    ).exclude(pk=delivery.pk).update(next_attempt_at=until)


def due(now: Any = None, ids: Iterable[int] | None = None, limit: int = 50) -> list[Delivery]:
    now = now or timezone.now()
    rows = Delivery.objects.filter(state=Delivery.PENDING, next_attempt_at__lte=now).select_related(
        "endpoint"
    )
    rows = rows.filter(Q(endpoint__active=True) | Q(kind=str(Kind.TEST)))
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return list(rows.order_by("next_attempt_at", "pk")[:limit])


def deliveries_send(ids: Iterable[int] | None = None, now: Any = None) -> int:
    """Send what is due (or these rows, if due): one attempt each. Returns how many were
    delivered. Each attempt is its own; one endpoint's failure never stops the others."""
    sent = 0
    for delivery in due(now, ids):
        try:
            if delivery_attempt(delivery):
                sent += 1
        except Exception:  # a bug or the database: the row waits for its lease to end
            log.exception("webhook delivery %s failed", delivery.pk)
    return sent


KEEP_DAYS = 30


def deliveries_prune(now: Any = None) -> int:
    """Delivered and failed rows older than KEEP_DAYS go (the page shows the latest anyway);
    waiting ones stay whatever their age. Returns how many went."""
    before = (now or timezone.now()) - timedelta(days=KEEP_DAYS)
    gone, _by_model = Delivery.objects.filter(
        state__in=[Delivery.DELIVERED, Delivery.FAILED], created_at__lt=before
    ).delete()
    return gone


def next_due_at() -> Any:
    """The soonest instant a waiting row is due (the in-process sender sleeps until then)."""
    row = (
        Delivery.objects.filter(state=Delivery.PENDING, next_attempt_at__isnull=False)
        .filter(Q(endpoint__active=True) | Q(kind=str(Kind.TEST)))
        .order_by("next_attempt_at")
        .values_list("next_attempt_at", flat=True)
        .first()
    )
    return row
