"""Import The Tournament Director's files: `manage.py floor_import_td night1.tdt night2.tdt`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from actions.imports import td3_files_import, td3_season_plan
from core.errors import FloorError
from imports.services import td3_preview, td3_read
from tournament.events import Actor


class Command(BaseCommand):
    help = (
        "Import tournaments saved by The Tournament Director (.tdt) as finished tournaments. "
        "Each file is one transaction; a refused file writes nothing and the command stops with "
        "its reason. Players are found again by their TD3 id; a likely duplicate of a record "
        "here is named and imported as a new person unless --match joins them. Each tournament counts "
        "for the league and season its file names (found by their TD3 ids, or made); a new season "
        "takes the file's points formula when Floor can score it, else the construct is named."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("files", nargs="+")
        parser.add_argument(
            "--match",
            action="append",
            default=[],
            metavar="TD3_UUID=PLAYER_ID",
            help="a player of the files is this person here (repeatable)",
        )
        parser.add_argument("--currency", default="EUR")
        parser.add_argument(
            "--dry-run", action="store_true", help="read and preview only, write nothing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        matches: dict[str, int] = {}
        for pair in options["match"]:
            uuid, _sep, pk = pair.partition("=")
            if not uuid or not pk.isdigit():
                raise CommandError(f"--match {pair!r}: write TD3_UUID=PLAYER_ID")
            matches[uuid.strip()] = int(pk)
        actor = Actor.system("floor_import_td")
        for name in options["files"]:
            path = Path(name)
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise CommandError(f"Cannot read {name}: {exc}") from exc
            try:
                file = td3_read(data, path.name)
                preview = td3_preview(file, path.name)
                for likely in preview.likely:
                    reasons = ", ".join(r.value for r in likely.reasons)
                    self.stdout.write(
                        f"  {likely.td3_name} ({likely.td3_uuid}) looks like #{likely.player.pk} "
                        f"{likely.player.name} ({reasons})"
                    )
                if options["dry_run"]:
                    self._summary(path.name, file, None)
                    plan = td3_season_plan(file)
                    for line in plan.lines() if plan else []:
                        self.stdout.write(f"  {line}")
                    continue
                own = {u: pk for u, pk in matches.items() if u in {p.uuid for p in file.players}}
                (done,) = td3_files_import(
                    [(path.name, file)], actor=actor, matches=own, currency=options["currency"]
                )
            except FloorError as exc:
                raise CommandError(str(exc)) from exc
            self._summary(path.name, file, done.tournament.pk)
            for line in done.link.lines() if done.link else []:
                self.stdout.write(f"  {line}")

    def _summary(self, name: str, file: Any, pk: int | None) -> None:
        t = file.tournament
        winner = next((f for f in file.finishes if f.place == 1), None)
        names = {p.uuid: p.shown_name for p in file.players}
        head = f"Imported tournament {pk}" if pk else "Would import"
        self.stdout.write(
            self.style.SUCCESS(
                f"{head}: {t.title} ({name}, TD3 {t.version}): {len(file.players)} players, "
                f"{len(file.entries)} entries, winner {names.get(winner.player_uuid, '?') if winner else '?'}"
                + (f", league {t.league_name} {t.season_name}" if t.league_name else "")
            )
        )
