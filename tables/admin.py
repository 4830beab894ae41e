from django.contrib import admin

from tables.models import (
    KeepApart,
    SeatAssignment,
    ShotClock,
    Table,
    TableReport,
    TimeBank,
    TimeCall,
)


class SeatInline(admin.TabularInline):
    model = SeatAssignment
    extra = 0
    raw_id_fields = ["entry"]
    readonly_fields = ["seated_at"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = [
        "number",
        "tournament",
        "area",
        "seats",
        "is_open",
        "button_seat",
        "hand_number",
    ]
    list_filter = ["tournament", "is_open", "area"]
    search_fields = ["number", "area"]
    exclude = ["dealer_token"]
    inlines = [SeatInline]


@admin.register(KeepApart)
class KeepApartAdmin(admin.ModelAdmin):
    list_display = ["tournament", "first", "second"]
    raw_id_fields = ["first", "second"]


@admin.register(TableReport)
class TableReportAdmin(admin.ModelAdmin):
    list_display = ["table", "kind", "seat", "created_at", "resolution"]
    list_filter = ["kind", "resolution"]


@admin.register(TimeCall)
class TimeCallAdmin(admin.ModelAdmin):
    list_display = ["table", "seat", "started_at", "seconds", "countdown", "cancelled_at"]


@admin.register(ShotClock)
class ShotClockAdmin(admin.ModelAdmin):
    list_display = ["table", "started_at", "seconds", "seat", "cards_used", "version"]


@admin.register(TimeBank)
class TimeBankAdmin(admin.ModelAdmin):
    list_display = ["entry", "used"]
    raw_id_fields = ["entry"]
