from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournament.events import Actor
from tournament.models import (
    ChipDenomination,
    ChipSet,
    Entry,
    Event,
    Level,
    Payout,
    Player,
    Purchase,
    Structure,
    Tournament,
)
from tournament.services.sessions import user_sessions_end


class DenominationInline(admin.TabularInline):
    model = ChipDenomination
    extra = 0


@admin.register(ChipSet)
class ChipSetAdmin(admin.ModelAdmin):
    inlines = [DenominationInline]


class LevelInline(admin.TabularInline):
    model = Level
    extra = 0


@admin.register(Structure)
class StructureAdmin(admin.ModelAdmin):
    list_display = ["name", "is_template", "created_at"]
    list_filter = ["is_template"]
    inlines = [LevelInline]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "starts_at", "status", "ruleset", "buy_in"]
    list_filter = ["status", "ruleset"]
    search_fields = ["name", "venue"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "display_name", "email", "phone"]
    search_fields = ["name", "display_name", "email"]


class PurchaseInline(admin.TabularInline):
    model = Purchase
    extra = 0
    readonly_fields = ["kind", "price", "fee", "chips", "refunded", "created_at"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["number", "player", "tournament", "status", "place", "prize"]
    list_filter = ["status", "tournament"]
    search_fields = ["player__name", "number"]
    readonly_fields = ["public_token"]
    inlines = [PurchaseInline]


@admin.register(Payout)
class PayoutAdmin(admin.ModelAdmin):
    list_display = ["tournament", "place", "amount"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Read-only: the event log cannot be edited through the product."""

    list_display = ["at", "tournament", "actor_label", "action", "source"]
    list_filter = ["action"]
    search_fields = ["action", "actor_label"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# Staff accounts: a director ends an account's sessions on every device from the admin (the
# account's own "Log out everywhere" is on its account page, tournament/account_views.py).
@admin.action(
    description=_("Log out everywhere (every session of the selected accounts)"),
    permissions=["change"],
)
def log_out_everywhere(modeladmin: Any, request: HttpRequest, queryset: Any) -> None:
    actor = Actor.from_request(request)
    ended = sum(user_sessions_end(user=user, actor=actor) for user in queryset)
    modeladmin.message_user(
        request,
        ngettext("%(n)d session ended.", "%(n)d sessions ended.", ended) % {"n": ended},
    )


class StaffAdmin(UserAdmin):
    actions = [log_out_everywhere]


admin.site.unregister(User)
admin.site.register(User, StaffAdmin)
