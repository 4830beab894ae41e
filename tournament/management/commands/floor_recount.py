"""Rebuild or check the counters the database keeps (tournament/counters.py).

manage.py floor_recount                    rebuild every counter of every tournament
manage.py floor_recount --tournament 12    rebuild one tournament's counters
manage.py floor_recount --check            compare, write nothing; exit 1 on a difference
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournament import counters
from tournament.models import Tournament


class Command(BaseCommand):
    help = (
        "Rebuild the counters the database keeps (players seated per table; players left, "
        "entries, alternates, open tables and purchases per tournament) from the rows. With "
        "--check, compare them with a full recount instead, write nothing, and exit 1 when any "
        "counter differs."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--tournament", type=int, metavar="ID", help="only this tournament (its id)"
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="compare every kept counter with a recount; write nothing; exit 1 on a difference",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament_id: int | None = options["tournament"]
        if tournament_id is not None and not Tournament.objects.filter(pk=tournament_id).exists():
            raise CommandError(f"There is no tournament {tournament_id}.")
        started = time.perf_counter()
        if not options["check"]:
            with transaction.atomic():
                counters.recount(tournament_id)
            scope = "all tournaments" if tournament_id is None else f"tournament {tournament_id}"
            self.stdout.write(
                self.style.SUCCESS(
                    f"Rebuilt the kept counters of {scope} from the rows "
                    f"in {(time.perf_counter() - started) * 1000:.0f} ms."
                )
            )
            return
        report = counters.check(tournament_id)
        ms = (time.perf_counter() - started) * 1000
        for difference in report.differences:
            self.stdout.write(self.style.ERROR(f"Differs: {difference}"))
        summary = (
            f"Checked {report.tournaments} tournament(s), {report.counters} counter(s) "
            f"in {ms:.0f} ms: "
        )
        if report.ok:
            self.stdout.write(self.style.SUCCESS(summary + "every counter agrees with its rows."))
            return
        self.stdout.write(
            self.style.ERROR(
                summary + f"{len(report.differences)} differ. "
                "Run floor_recount without --check to rebuild them from the rows."
            )
        )
        raise SystemExit(1)
