from typing import Any

from django.contrib import admin

from rules_engine.models import ColourUp, Penalty, Ruling


class RecordAdmin(admin.ModelAdmin):
    """Rulings, penalties and colour-ups are made in the console; the admin only reads them."""

    def get_readonly_fields(self, request: Any, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request: Any) -> bool:
        return False


@admin.register(Ruling)
class RulingAdmin(RecordAdmin):
    list_display = ("decided_at", "tournament", "table", "situation", "decision", "decided_by")
    list_filter = ("situation", "follows_suggestion")
    search_fields = ("decision", "reason", "players")


@admin.register(Penalty)
class PenaltyAdmin(RecordAdmin):
    list_display = ("given_at", "tournament", "entry", "kind", "count", "hands_left", "rule")
    list_filter = ("kind",)


@admin.register(ColourUp)
class ColourUpAdmin(RecordAdmin):
    list_display = ("done_at", "tournament", "table", "removed", "new_value", "method")
