"""What the console tells staff about the venue's copies and a restore (docs/continuity.md):
a one-line warning for directors when the replica is behind or stopped (or a snapshot failed),
and, after `floor.py restore`, a banner for staff with the time the restored state is from,
until a director dismisses it or the night is over.

`notices` is a context processor (config/settings/venue.py adds it; base.html shows what it
gives)."""

from __future__ import annotations

import contextlib
import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from core.roles import is_director, is_floor
from venue import replica

RESTORED_FILE = "restored.json"
# The restored banner stays for the night unless a director dismisses it.
RESTORED_SHOWN = timedelta(hours=12)


def restored_write(
    var_dir: Path, *, source: str, state_at: datetime | None, name: str
) -> dict[str, Any]:
    record = {
        "source": source,
        "state_at": state_at.isoformat() if state_at else None,
        "restored_at": datetime.now(UTC).isoformat(),
        "venue_name": name,
        "dismissed_by": None,
    }
    _write(var_dir / RESTORED_FILE, record)
    return record


def _write(path: Path, record: dict[str, Any]) -> None:
    part = path.with_name(f".{path.name}.part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        json.dump(record, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(part, path)


def restored_read(var_dir: Path) -> dict[str, Any] | None:
    """The restore's record while its banner is shown: not dismissed, not older than the
    night. Its times as aware datetimes."""
    try:
        record = json.loads((var_dir / RESTORED_FILE).read_text())
        restored_at = datetime.fromisoformat(record["restored_at"])
        state_at = datetime.fromisoformat(record["state_at"]) if record.get("state_at") else None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if record.get("dismissed_by") or timezone.now() - restored_at > RESTORED_SHOWN:
        return None
    return {**record, "restored_at": restored_at, "state_at": state_at}


def restored_dismiss(var_dir: Path, by: str) -> None:
    path = var_dir / RESTORED_FILE
    with contextlib.suppress(OSError, ValueError):
        record = json.loads(path.read_text())
        record["dismissed_by"] = by
        record["dismissed_at"] = datetime.now(UTC).isoformat()
        _write(path, record)


def clock_time(when: datetime | None) -> str:
    """An instant as the console shows a time of the night (the venue's time zone)."""
    if when is None:
        return "–"
    return formats.time_format(timezone.localtime(when), "H:i:s")


def copy_sentence(status: replica.Status) -> str:
    """The copies' state in one sentence."""
    where = status.target
    if status.mode == "snapshots":
        if status.state != "ok":
            return _("The last snapshot of the database failed (%(reason)s).") % {
                "reason": status.problem or _("unknown reason")
            }
        if status.last_sync is None:
            return _("No snapshot yet.")
        return _(
            "A snapshot of the database every minute into %(where)s; the newest is from "
            "%(time)s, %(kept)s kept."
        ) % {"where": where, "time": clock_time(status.last_sync), "kept": status.kept}
    if status.state == "unwritable":
        return _("The replica %(where)s cannot be written (%(reason)s): nothing is copied.") % {
            "where": where,
            "reason": status.problem,
        }
    if status.state == "stopped":
        sentence = _("The replica to %(where)s has stopped: nothing is copied.") % {"where": where}
        return f"{sentence} {status.problem}".strip()
    if status.state == "starting":
        return _("The replica to %(where)s is starting.") % {"where": where}
    behind = int(status.behind_seconds or 0)
    if status.state == "behind":
        if status.last_sync is None:
            sentence = _("The replica to %(where)s has not synced for %(seconds)s s.") % {
                "where": where,
                "seconds": behind,
            }
        else:
            sentence = _(
                "The replica to %(where)s is %(seconds)s s behind (last sync at %(time)s)."
            ) % {"where": where, "seconds": behind, "time": clock_time(status.last_sync)}
        return f"{sentence} {status.problem}".strip()
    return _(
        "The replica to %(where)s is up to date: last sync at %(time)s, %(seconds)s s ago."
    ) % {"where": where, "time": clock_time(status.last_sync), "seconds": behind}


def notices(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if not is_floor(user):
        return {}
    out: dict[str, Any] = {}
    restored = restored_read(Path(settings.VAR_DIR))
    if restored is not None:
        out["venue_restored"] = {
            **restored,
            "state_time": clock_time(restored["state_at"]),
            "state_date": formats.date_format(timezone.localtime(restored["state_at"]))
            if restored["state_at"]
            else "",
        }
    if is_director(user):
        status = replica.current()
        if status is not None and status.warn:
            out["venue_copy_warning"] = copy_sentence(status)
    return out
