from django.contrib import admin

from rules_engine.models import Ruling


@admin.register(Ruling)
class RulingAdmin(admin.ModelAdmin):
    list_display = ("decided_at", "tournament", "table", "situation", "decision", "decided_by")
    list_filter = ("situation", "follows_suggestion")
    search_fields = ("decision", "reason", "players")
    readonly_fields = [f.name for f in Ruling._meta.fields]

    def has_add_permission(self, request):  # rulings are made in the console
        return False
