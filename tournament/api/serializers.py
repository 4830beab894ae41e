from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from core.domain.limits import INT_MAX
from core.roles import is_director
from tournament.domain.countries import country_clean
from tournament.domain.ledger import PURCHASE_METHODS
from tournament.domain.people import membership_clean
from tournament.models import TOURNAMENT_SETTINGS, Entry, Event, Level, Player, Tournament
from tournament.services.people import (
    birth_year_error,
    membership_error,
    membership_holder,
    membership_taken_error,
)
from tournament.validation import merged_values, settings_errors


def _with_methods(message: Any) -> str:
    return str(message) % {"methods": ", ".join(PURCHASE_METHODS)}


# Worded when the error is shown, in the request's language (not when this module is imported).
_with_methods_lazy = lazy(_with_methods, str)
BUY_IN_METHOD_ERRORS: dict[str, Any] = {
    "required": _with_methods_lazy(_("Say how the buy-in was paid: %(methods)s.")),
    "invalid_choice": _with_methods_lazy(_("Unknown payment method; one of: %(methods)s.")),
}
PURCHASE_METHOD_ERRORS: dict[str, Any] = {
    "required": _with_methods_lazy(_("Say how it was paid: %(methods)s.")),
    "invalid_choice": _with_methods_lazy(_("Unknown payment method; one of: %(methods)s.")),
}


class LevelSerializer(serializers.ModelSerializer):
    level_number = serializers.SerializerMethodField(
        help_text="The playing level's number (1, 2, 3 …); null for a break: breaks are not "
        "levels. Every screen and every “until level” setting uses this number."
    )
    after_level = serializers.SerializerMethodField(
        help_text="For a break: the number of the level it follows; null for a level."
    )

    class Meta:
        model = Level
        fields = [
            "position",
            "level_number",
            "after_level",
            "is_break",
            "small_blind",
            "big_blind",
            "ante",
            "big_blind_ante",
            "minutes",
            "color_up",
        ]
        extra_kwargs = {
            "position": {
                "help_text": "Row in the structure (1-based, breaks included); not the level "
                "number: see level_number."
            }
        }

    def get_level_number(self, obj: Level) -> int | None:
        return getattr(obj, "number", None)

    def get_after_level(self, obj: Level) -> int | None:
        return getattr(obj, "after", None) if obj.is_break else None


class LevelInputSerializer(serializers.Serializer):
    is_break = serializers.BooleanField(default=False)
    small_blind = serializers.IntegerField(min_value=0, max_value=INT_MAX, default=0)
    big_blind = serializers.IntegerField(min_value=0, max_value=INT_MAX, default=0)
    ante = serializers.IntegerField(min_value=0, max_value=INT_MAX, default=0)
    big_blind_ante = serializers.BooleanField(default=False)
    minutes = serializers.IntegerField(min_value=1, max_value=600)
    color_up = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=INT_MAX), default=list, max_length=20
    )


class TournamentSerializer(serializers.ModelSerializer):
    """Public fields only: no player data."""

    class Meta:
        model = Tournament
        fields = ["id", *TOURNAMENT_SETTINGS, "status", "hand_for_hand", "registration_closed_at"]
        read_only_fields = [
            "id",
            "status",
            "hand_for_hand",
            "registration_closed_at",
            "ruleset_version",
        ]
        # Level numbers are playing levels (breaks are not counted), as `level_number` of the
        # levels endpoint and `number` in the clock JSON.
        extra_kwargs = {
            "late_registration_until_level": {
                "help_text": "Playing level number (breaks not counted): late entries are taken "
                "through this level and the break right after it. Null or 0: until the clock "
                "starts."
            },
            "reentry_until_level": {
                "help_text": "Playing level number for re-entries; null: as late registration, "
                "never beyond it."
            },
            "rebuy_until_level": {
                "help_text": "Playing level number, the break right after it included; null: "
                "no limit by level."
            },
            "addon_until_level": {
                "help_text": "Playing level number, the break right after it included; null: "
                "no limit by level."
            },
        }

    def validate(self, attrs: dict) -> dict:
        # The merged state (stored row + this change): a partial PATCH meets every rule too.
        changed = None if self.instance is None else set(attrs)
        errors = settings_errors(merged_values(self.instance, attrs), changed=changed)
        if errors:
            raise serializers.ValidationError(errors)
        return attrs


class TournamentCreateSerializer(TournamentSerializer):
    structure = serializers.IntegerField(
        min_value=1, max_value=INT_MAX, help_text="id of a template structure to copy"
    )
    chip_set = serializers.IntegerField(min_value=1, max_value=INT_MAX)

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "structure", "chip_set"]


class NumbersSerializer(serializers.Serializer):
    entries = serializers.IntegerField()
    players_left = serializers.IntegerField()
    alternates = serializers.IntegerField()
    average_stack = serializers.IntegerField()
    prize_pool = serializers.IntegerField()
    rebuys = serializers.IntegerField()
    addons = serializers.IntegerField()


class StatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["planned", "registering", "running", "final_table", "finished"]
    )


class ReopenSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="Why the finished tournament is reopened (kept in the event log).",
    )


class PlayerSerializer(serializers.ModelSerializer):
    """A player. E-mail, phone and the year of birth are written by the floor but read back by
    directors only: they appear when the serializer's context holds a director's request. The
    membership number is unique when given; the year of birth must be plausible (the same
    rules as the console's form: tournament/services/people.py)."""

    CONTACT = ("email", "phone", "birth_year")

    membership_number = serializers.CharField(required=False, allow_blank=True, max_length=40)
    country = serializers.CharField(required=False, allow_blank=True, max_length=80)
    birth_year = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=9999
    )

    class Meta:
        model = Player
        fields = [
            "id",
            "name",
            "display_name",
            "membership_number",
            "country",
            "birth_year",
            "email",
            "phone",
        ]
        read_only_fields = ["id"]
        # Empty: made from the name ("Anna Schäfer" -> "Anna S."), as at the desk.
        extra_kwargs = {"display_name": {"required": False, "allow_blank": True}}

    def validate_membership_number(self, value: str) -> str:
        try:
            number = membership_clean(value)
        except ValueError as exc:
            raise serializers.ValidationError(membership_error(exc.args[0])) from exc
        besides = self.instance.pk if isinstance(self.instance, Player) else None
        holder = membership_holder(number, besides=besides)
        if holder is not None:
            raise serializers.ValidationError(membership_taken_error(holder, number))
        return number

    def validate_country(self, value: str) -> str:
        try:
            return country_clean(value)
        except ValueError as exc:
            raise serializers.ValidationError(
                _("Enter a country as its two-letter code (DE) or its name.")
            ) from exc

    def validate_birth_year(self, value: int | None) -> int | None:
        error = birth_year_error(value)
        if error:
            raise serializers.ValidationError(error)
        return value

    def to_representation(self, instance: Player) -> dict:
        data = super().to_representation(instance)
        request = self.context.get("request")
        if request is None or not is_director(request.user):
            for name in self.CONTACT:
                data.pop(name, None)
        return data


class EntrySerializer(serializers.ModelSerializer):
    player = PlayerSerializer(read_only=True)
    table = serializers.SerializerMethodField()
    seat = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = [
            "id",
            "number",
            "player",
            "is_reentry",
            "status",
            "alternate_position",
            "place",
            "prize",
            "bounty",
            "bounties_won",
            "busted_at",
            "table",
            "seat",
        ]

    def get_table(self, entry: Entry) -> int | None:
        seat = getattr(entry, "seat", None)
        return seat.table.number if seat else None

    def get_seat(self, entry: Entry) -> int | None:
        seat = getattr(entry, "seat", None)
        return seat.seat if seat else None


class RegisterSerializer(serializers.Serializer):
    player = serializers.IntegerField(
        required=False, min_value=1, max_value=INT_MAX, help_text="an existing player's id"
    )
    name = serializers.CharField(required=False, max_length=120)
    display_name = serializers.CharField(required=False, allow_blank=True, max_length=60)
    email = serializers.EmailField(required=False, allow_blank=True)
    phone = serializers.CharField(required=False, allow_blank=True, max_length=40)
    payment_method = serializers.ChoiceField(
        choices=list(PURCHASE_METHODS),
        help_text="How the buy-in was paid; it goes into the cash ledger (docs/ledger.md).",
        error_messages=BUY_IN_METHOD_ERRORS,
    )

    def validate(self, attrs: dict) -> dict:
        if not attrs.get("player") and not attrs.get("name"):
            raise serializers.ValidationError(_("Give an existing player id or a name."))
        return attrs


class PurchaseSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["rebuy", "addon"])
    payment_method = serializers.ChoiceField(
        choices=list(PURCHASE_METHODS),
        help_text="How it was paid; it goes into the cash ledger (docs/ledger.md).",
        error_messages=PURCHASE_METHOD_ERRORS,
    )


class BustItemSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    stack_at_hand_start = serializers.IntegerField(
        min_value=0,
        max_value=10**15,
        required=False,
        allow_null=True,
        help_text="Chips at the start of the hand; needed when several are out in one hand. "
        "Where the player sat relative to the button is taken from the seat and the table.",
    )
    eliminated_by = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=INT_MAX),
        required=False,
        max_length=9,
        help_text="Entry numbers of the players who knocked this one out (bounties).",
    )


class BustSerializer(serializers.Serializer):
    busts = BustItemSerializer(many=True, allow_empty=False)

    def validate_busts(self, value: list) -> list:
        if len(value) > 100:
            raise serializers.ValidationError(_("At most 100 busts at once."))
        return value


class BustUndoSerializer(serializers.Serializer):
    correct_payments = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Undo even though money was paid for the bust: the payment stays on the "
        "books and the payout desk shows a correction to collect.",
    )


class PayoutsSerializer(serializers.Serializer):
    amounts = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=INT_MAX),
        allow_empty=False,
        max_length=10_000,
    )


class EventSerializer(serializers.ModelSerializer):
    class Meta:
        model = Event
        fields = ["id", "at", "actor_label", "source", "action", "payload"]
