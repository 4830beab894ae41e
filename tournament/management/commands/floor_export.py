"""Write one tournament to a JSON file: `manage.py floor_export 12 > cup.json`."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from actions.archive import tournament_export
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Export a tournament (everything it is made of, event log included) as JSON."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("tournament", type=int)
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["tournament"]).first()
        if tournament is None:
            raise CommandError(f"There is no tournament {options['tournament']}.")
        text = json.dumps(tournament_export(tournament), ensure_ascii=False, indent=1)
        if options.get("output"):
            with open(options["output"], "w", encoding="utf-8") as fh:
                fh.write(text)
        else:
            self.stdout.write(text)
