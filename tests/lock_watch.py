"""A guard for the tests: every event-log line is written while the transaction that writes it
holds its tournament's row lock, taken by the service itself.

Why: screens and pages compare the tournament's latest event-log id (its "version"). Ids are
handed out when a line is inserted and become visible when its transaction commits; two
writers of one tournament that do not queue on its row could commit out of id order, and a page
that read the higher id would never fetch the lower one's change. Taking the tournament's lock
first also keeps every writer in the one lock order (tournament, tables, seats) that cannot
deadlock (tournament/locks.py).

How: an execute wrapper on the test thread's connection reads the statements as they go: the
tournament rows locked (`SELECT … FROM tournament_tournament … FOR [NO KEY] UPDATE`, the
tournament joined to other rows with `FOR UPDATE OF t`, or an
`UPDATE tournament_tournament … WHERE id = …`) and the savepoints that `transaction.atomic`
opens, releases and rolls back, so that a lock counts while it is held: a lock taken in a
savepoint that was rolled back is gone. Locks taken by the test body itself (outside any
`atomic` block) do not count: the service must take its own. (A test body that opens an
`atomic` block of its own and locks in it counts as code under test; none does.) PostgreSQL only
(SQLite has no row locks), and only on the test's own thread (a live server's threads are not
watched)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_SAVEPOINT = re.compile(r'^\s*SAVEPOINT\s+"?([\w]+)"?', re.I)
_RELEASE = re.compile(r'^\s*RELEASE SAVEPOINT\s+"?([\w]+)"?', re.I)
_ROLLBACK_TO = re.compile(r'^\s*ROLLBACK TO SAVEPOINT\s+"?([\w]+)"?', re.I)
_LOCKING = re.compile(r"\bFOR (?:NO KEY )?UPDATE\b", re.I)
_FROM_TOURNAMENT = re.compile(
    r'\bFROM "?tournament_tournament"?(?:\s+(?:AS\s+)?t)?\s+WHERE\b', re.I
)
# The tournament joined to other rows (a bust locks it with its entries in one statement): a
# lock of the tournament only when the locking clause names it.
_FROM_TOURNAMENT_JOINED = re.compile(
    r'\bFROM "?tournament_tournament"?\s+(?:AS\s+)?t\s+JOIN\b', re.I
)
_LOCKING_T = re.compile(r"\bFOR (?:NO KEY )?UPDATE OF t\b", re.I)
_UPDATE_TOURNAMENT = re.compile(r'^\s*UPDATE "?tournament_tournament"?\s+SET\b', re.I)
_ID_IS = re.compile(r'(?:"tournament_tournament"\."id"|\bt\.id)\s*=\s*%s', re.I)


class EventWithoutLock(AssertionError):
    pass


class LockWatch:
    """The tournament locks a connection holds, by the savepoint that took them.

    `frames[0]` is whatever the test body runs in (pytest-django's per-test transaction, or in a
    transactional test the code's own outermost transaction); every savepoint opened after the
    watch started adds a frame."""

    def __init__(self, connection: Any, *, transactional: bool) -> None:
        self.connection = connection
        self.transactional = transactional
        self.names: list[str | None] = [None]
        self.frames: list[set[int]] = [set()]

    # --- reading the statements ------------------------------------------------------------

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        result = execute(sql, params, many, context)
        self.saw(sql, params, many)
        return result

    def saw(self, sql: str, params: Any, many: bool) -> None:
        if m := _SAVEPOINT.match(sql):
            self.names.append(m.group(1))
            self.frames.append(set())
        elif m := _RELEASE.match(sql):
            i = self._index(m.group(1))
            if i is not None:
                for frame in self.frames[i:]:
                    self.frames[i - 1] |= frame
                del self.names[i:], self.frames[i:]
        elif m := _ROLLBACK_TO.match(sql):
            i = self._index(m.group(1))
            if i is not None:
                self.frames[i] = set()
                del self.names[i + 1 :], self.frames[i + 1 :]
        elif not many and params is not None:
            pk = self._locked_tournament(sql, params)
            if pk is not None:
                self.frames[-1].add(pk)
        if self.transactional and not self.connection.in_atomic_block:
            # Autocommit: the statement's locks ended with it.
            self.frames[0] = set()

    def _index(self, name: str) -> int | None:
        try:
            return self.names.index(name)
        except ValueError:
            return None  # opened before the watch started: nothing of ours inside

    @staticmethod
    def _locked_tournament(sql: str, params: Any) -> int | None:
        if _UPDATE_TOURNAMENT.match(sql):
            pass
        elif not (
            (_LOCKING.search(sql) and _FROM_TOURNAMENT.search(sql))
            or (_LOCKING_T.search(sql) and _FROM_TOURNAMENT_JOINED.search(sql))
        ):
            return None
        m = _ID_IS.search(sql)
        if m is None:
            return None
        index = sql.count("%s", 0, m.start())
        try:
            return int(params[index])
        except (IndexError, KeyError, TypeError, ValueError):
            return None

    # --- the transaction's end (transactional tests only) ----------------------------------

    def ended(self) -> None:
        self.names, self.frames = [None], [set()]

    # --- the check -------------------------------------------------------------------------

    def held(self) -> set[int]:
        """The tournaments locked by the code under test and still held."""
        if self.transactional:
            frames = self.frames
        else:
            # pytest-django's per-test atomic is the outermost block: what the test body itself
            # locks is not the code under test's. Every savepoint open now is the code's.
            mine = set(self.connection.savepoint_ids)
            frames = [f for n, f in zip(self.names, self.frames, strict=True) if n in mine]
        held: set[int] = set()
        for frame in frames:
            held |= frame
        return held

    def check(self, tournament_id: int | None, action: str) -> None:
        if tournament_id is None or _written_by_a_test():
            return
        if tournament_id not in self.held():
            raise EventWithoutLock(
                f"event-log action {action!r} written without tournament {tournament_id}'s row "
                "lock: lock it first (tournament.locks.lock_tournament) in the service"
            )


def _written_by_a_test() -> bool:
    """Whether `event_record` was called by a test itself (a history set up by hand)."""
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "event_record" and code.co_filename.endswith("events.py"):
            caller = frame.f_back
            name = caller.f_code.co_filename if caller is not None else ""
            return "/tests/" in name or Path(name).name.startswith(("test_", "conftest"))
        frame = frame.f_back
    return False


@contextmanager
def watching(connection: Any, *, transactional: bool) -> Iterator[LockWatch]:
    """Watch `connection` (the calling thread's) and check every event-log line written on it."""
    from django.db.models.signals import post_save, pre_save

    from tournament.models import Event, Tournament

    watch = LockWatch(connection, transactional=transactional)

    def check(sender: Any, instance: Event, using: str, **kwargs: Any) -> None:
        ours = getattr(connection, "_floor_lock_watch", None) is watch
        if ours and using == connection.alias and instance._state.adding:
            watch.check(instance.tournament_id, instance.action)

    def created(sender: Any, instance: Tournament, created: bool, using: str, **kw: Any) -> None:
        # A row this transaction inserted is its own until it commits: as good as locked
        # (in autocommit it is committed at once, and nothing is held).
        ours = getattr(connection, "_floor_lock_watch", None) is watch
        if created and ours and connection.in_atomic_block:
            watch.frames[-1].add(instance.pk)

    commit, rollback = connection.commit, connection.rollback

    def ended_after(method: Callable[[], None]) -> Callable[[], None]:
        def end() -> None:
            method()
            watch.ended()

        return end

    connection._floor_lock_watch = watch
    pre_save.connect(check, sender=Event, weak=False, dispatch_uid="floor_lock_watch")
    post_save.connect(created, sender=Tournament, weak=False, dispatch_uid="floor_lock_watch")
    if transactional:
        connection.commit, connection.rollback = ended_after(commit), ended_after(rollback)
    try:
        with connection.execute_wrapper(watch):
            yield watch
    finally:
        pre_save.disconnect(sender=Event, dispatch_uid="floor_lock_watch")
        post_save.disconnect(sender=Tournament, dispatch_uid="floor_lock_watch")
        connection._floor_lock_watch = None
        if transactional:
            del connection.commit, connection.rollback
