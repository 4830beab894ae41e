"""One-time keys of dealer tablet actions: each action counts once (docs/seating.md, "Through a
Wi-Fi drop").

A tablet sends every action with a key of its own making (the `Idempotency-Key` header, as the
registration API does: tournament/services/registration.py). The first answer is kept with the
key, written in the transaction of the action itself, so a crash can leave neither the effect
without its key nor the key without its effect. The same key again (a tablet sending its queue
when the Wi-Fi is back, a request whose answer was lost on the way) gets the first answer and
changes nothing; the same key with another request is refused.

An action that waited on the tablet (`queued`) and is refused no longer fits what the floor did
meanwhile (the player was busted from the desk, the table was broken): the refusal is kept with
the key as any answer, and reported to the floor in the same transaction (`report_not_applied`),
so the floor sees it once, with its reason."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import FloorError
from tables.models import Table, TabletKey

KEY_LENGTH = 100
# Keys are kept for the night and the day after: a tablet's queue is sent within minutes.
KEPT = timedelta(days=2)


@dataclass(frozen=True)
class Answer:
    """What an action answered: its HTTP status, the message for the dealer (a confirmation
    or the reason of a refusal), the refusal's code; `replayed` when this is the first answer
    given again, `reported` when the refusal was reported to the floor."""

    status: int
    message: str = ""
    code: str = ""
    replayed: bool = False
    reported: bool = False

    @property
    def ok(self) -> bool:
        return self.status < 300


def tablet_key(text: str | None) -> str:
    """A key as sent, checked: 1 to 100 printable ASCII characters ("" for none)."""
    key = (text or "").strip()
    if len(key) > KEY_LENGTH or not all(33 <= ord(c) <= 126 for c in key):
        raise FloorError(
            _("The action key must be 1 to %(n)s printable characters.") % {"n": KEY_LENGTH},
            code="bad_key",
        )
    return key


def fingerprint(action: str, fields: Iterable[tuple[str, str]]) -> str:
    """A digest of an action and its fields (in any order): what the key stands for."""
    digest = hashlib.sha256(action.encode())
    for name, value in sorted(fields):
        digest.update(b"\0" + name.encode() + b"=" + value.encode())
    return digest.hexdigest()


def _first_answer(table: Table, key: str, digest: str) -> Answer | None:
    found = TabletKey.objects.filter(table=table, key=key).first()
    if found is None:
        return None
    if found.fingerprint != digest:
        raise FloorError(
            _("This action key was already used for another action."), code="key_reused"
        )
    return Answer(
        status=found.status,
        message=found.message,
        code=found.code,
        replayed=True,
        reported=found.reported,
    )


def keyed_action(
    *,
    table: Table,
    key: str,
    action: str,
    digest: str,
    run: Callable[[], str],
    on_refusal: Callable[[FloorError], None] | None = None,
) -> Answer:
    """Do `run` (the action; it returns the confirmation, or raises FloorError when refused)
    once for `key`, and keep its answer. `on_refusal`: called with the refusal in the same
    transaction (the tablet's queued action is reported to the floor)."""
    again = _first_answer(table, key, digest)
    if again is not None:
        return again
    try:
        with transaction.atomic():
            try:
                with transaction.atomic():
                    answer = Answer(status=200, message=run())
            except FloorError as exc:
                answer = Answer(status=exc.status_code, message=str(exc), code=exc.code)
                if on_refusal is not None:
                    on_refusal(exc)
                    answer = replace(answer, reported=True)
            TabletKey.objects.filter(created_at__lt=timezone.now() - KEPT).delete()
            TabletKey.objects.create(
                table=table,
                key=key,
                action=action[:20],
                fingerprint=digest,
                status=answer.status,
                message=answer.message[:300],
                code=answer.code[:30],
                reported=answer.reported,
            )
    except IntegrityError:
        # The same key at the same moment (a retry while the first was still on its way):
        # the first one's commit holds the key, and this one's effect was rolled back with
        # its own key row.
        again = _first_answer(table, key, digest)
        if again is None:
            raise
        return again
    return answer
