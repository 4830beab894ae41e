"""Read a tournament back from a JSON export: `manage.py floor_import cup.json`."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from actions.archive import tournament_import
from core.errors import FloorError
from tournament.events import Actor


class Command(BaseCommand):
    help = (
        "Import a tournament exported with floor_export as a new tournament; nothing here is "
        "changed (rows whose ids are taken get new ids)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with open(options["file"], encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc}") from exc
        try:
            tournament = tournament_import(data, actor=Actor.system("floor_import"))
        except FloorError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            self.style.SUCCESS(f"Imported tournament {tournament.pk}: {tournament.name}")
        )
