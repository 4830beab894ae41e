"""Tournaments, structures, chips, players, entries, purchases, payouts and the event log.

Money is always an integer number of minor units (cents) of the tournament's currency.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from tournament.domain.countries import country_name
from tournament.domain.lifecycle import Status as DomainStatus
from tournament.validation import merged_values, settings_errors


class Ruleset(models.TextChoices):
    TDA_DE = "tda-de", _("TDA (German edition)")
    BDPV = "bdpv", _("BDPV (German Poker Federation)")


class BountyKind(models.TextChoices):
    NONE = "none", _("No bounties")
    FIXED = "fixed", _("Fixed bounty")
    PROGRESSIVE = "progressive", _("Progressive knockout (half to the eliminator's head)")


class Game(models.TextChoices):
    NLHE = "nlhe", _("No-Limit Hold'em")
    PLO = "plo", _("Pot-Limit Omaha")
    LHE = "lhe", _("Limit Hold'em")


class TimeBankReset(models.TextChoices):
    DAY_AND_FINAL_TABLE = "day_and_final_table", _("New day and final table")
    DAY = "day", _("Each new day")
    FINAL_TABLE = "final_table", _("At the final table")
    NEVER = "never", _("Never")


class Status(models.TextChoices):
    PLANNED = DomainStatus.PLANNED.value, _("Planned")
    REGISTERING = DomainStatus.REGISTERING.value, _("Registering")
    RUNNING = DomainStatus.RUNNING.value, _("Running")
    FINAL_TABLE = DomainStatus.FINAL_TABLE.value, _("Final table")
    FINISHED = DomainStatus.FINISHED.value, _("Finished")


def status_label(value: Any) -> str:
    """A tournament status in the reader's words; an unknown value as it is."""
    try:
        return str(Status(value).label)
    except ValueError:
        return str(value)


class ChipSet(models.Model):
    name = models.CharField(_("name"), max_length=100)

    class Meta:
        verbose_name = _("chip set")
        verbose_name_plural = _("chip sets")

    def __str__(self) -> str:
        return self.name

    def values(self) -> list[int]:
        return sorted(d.value for d in self.denominations.all())


class ChipDenomination(models.Model):
    chip_set = models.ForeignKey(ChipSet, on_delete=models.CASCADE, related_name="denominations")
    value = models.PositiveIntegerField(_("value"), validators=[MinValueValidator(1)])
    colour = models.CharField(_("colour"), max_length=7, default="#ffffff", help_text="#rrggbb")
    label = models.CharField(_("colour name"), max_length=40, blank=True)

    class Meta:
        ordering = ["value"]
        verbose_name = _("chip denomination")
        verbose_name_plural = _("chip denominations")
        constraints = [
            models.UniqueConstraint(fields=["chip_set", "value"], name="unique_denomination")
        ]

    def __str__(self) -> str:
        return f"{self.value} ({self.label or self.colour})"


class Structure(models.Model):
    """A blind structure. Templates are reusable; each tournament owns its own copy."""

    name = models.CharField(_("name"), max_length=100)
    is_template = models.BooleanField(_("template"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("structure")
        verbose_name_plural = _("structures")

    def __str__(self) -> str:
        return self.name


class Level(models.Model):
    structure = models.ForeignKey(Structure, on_delete=models.CASCADE, related_name="levels")
    position = models.PositiveIntegerField(_("position"))
    is_break = models.BooleanField(_("break"), default=False)
    small_blind = models.PositiveIntegerField(_("small blind"), default=0)
    big_blind = models.PositiveIntegerField(_("big blind"), default=0)
    ante = models.PositiveIntegerField(_("ante"), default=0)
    big_blind_ante = models.BooleanField(_("big blind ante"), default=False)
    minutes = models.PositiveIntegerField(_("minutes"), validators=[MinValueValidator(1)])
    color_up = models.JSONField(_("chips coloured up"), default=list, blank=True)

    class Meta:
        ordering = ["structure", "position"]
        verbose_name = _("level")
        verbose_name_plural = _("levels")
        constraints = [
            models.UniqueConstraint(fields=["structure", "position"], name="unique_level_position")
        ]

    def __str__(self) -> str:
        if self.is_break:
            return f"{self.position}: break {self.minutes}'"
        return f"{self.position}: {self.small_blind}/{self.big_blind}"


class DatabaseCounted(models.Model):
    """A model with head counts that the database keeps (triggers in the migrations, see
    `tournament/counters.py`). Python never writes them: a plain `save()` of an existing row
    leaves them out, so a form or an old copy of the row cannot overwrite a fresh count."""

    counters: tuple[str, ...] = ()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding and kwargs.get("update_fields") is None and self.counters:
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name not in self.counters
            ]
        super().save(*args, **kwargs)


# A tournament's settings: the one list the settings form, the API and the services use
# (`ruleset_version` is chosen in the form from the versions of the ruleset; the API shows it).
TOURNAMENT_SETTINGS = (
    "name",
    "venue",
    "starts_at",
    "game",
    "currency",
    "buy_in",
    "fee",
    "starting_stack",
    "seats_per_table",
    "final_table_size",
    "ruleset",
    "ruleset_version",
    "capacity",
    "balance_tolerance",
    "break_order",
    "max_entries_per_player",
    "reentry_until_level",
    "late_registration_until_level",
    "rebuys_max",
    "rebuy_price",
    "rebuy_fee",
    "rebuy_chips",
    "rebuy_until_level",
    "addons_max",
    "addon_price",
    "addon_fee",
    "addon_chips",
    "addon_until_level",
    "guarantee",
    "withholding_bp",
    "house_contribution",
    "payout_unit",
    "places_paid",
    "bounty_kind",
    "bounty",
    "satellite_seat_value",
    "satellite_target",
    "shot_clock",
    "shot_clock_seconds",
    "time_bank_cards",
    "time_bank_seconds",
    "time_bank_reset",
)


class Tournament(DatabaseCounted):
    name = models.CharField(_("name"), max_length=120)
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    starts_at = models.DateTimeField(_("start time"))
    game = models.CharField(_("game"), max_length=10, choices=Game.choices, default=Game.NLHE)
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    buy_in = models.PositiveIntegerField(_("buy-in (to the prize pool, in cents)"))
    fee = models.PositiveIntegerField(_("fee (in cents)"), default=0)
    starting_stack = models.PositiveIntegerField(_("starting stack"))
    seats_per_table = models.PositiveSmallIntegerField(
        _("seats per table"), default=9, validators=[MinValueValidator(2), MaxValueValidator(10)]
    )
    final_table_size = models.PositiveSmallIntegerField(
        _("final table size"), default=9, validators=[MinValueValidator(2), MaxValueValidator(10)]
    )
    ruleset = models.CharField(
        _("ruleset"), max_length=10, choices=Ruleset.choices, default=Ruleset.TDA_DE
    )
    capacity = models.PositiveIntegerField(
        _("seats available"), null=True, blank=True, help_text=_("Beyond this, alternates wait.")
    )
    max_entries_per_player = models.PositiveSmallIntegerField(
        _("entries per player (1 = no re-entry)"), default=1, validators=[MinValueValidator(1)]
    )
    reentry_until_level = models.PositiveSmallIntegerField(
        _("re-entry until level"), null=True, blank=True
    )
    late_registration_until_level = models.PositiveSmallIntegerField(
        _("late registration until level"), null=True, blank=True
    )
    rebuys_max = models.PositiveSmallIntegerField(_("rebuys per entry"), default=0)
    rebuy_price = models.PositiveIntegerField(_("rebuy price (cents)"), default=0)
    rebuy_fee = models.PositiveIntegerField(_("rebuy fee (cents)"), default=0)
    rebuy_chips = models.PositiveIntegerField(_("rebuy chips"), default=0)
    rebuy_until_level = models.PositiveSmallIntegerField(
        _("rebuys until level"), null=True, blank=True
    )
    addons_max = models.PositiveSmallIntegerField(_("add-ons per entry"), default=0)
    addon_price = models.PositiveIntegerField(_("add-on price (cents)"), default=0)
    addon_fee = models.PositiveIntegerField(_("add-on fee (cents)"), default=0)
    addon_chips = models.PositiveIntegerField(_("add-on chips"), default=0)
    addon_until_level = models.PositiveSmallIntegerField(
        _("add-ons until level"), null=True, blank=True
    )
    guarantee = models.PositiveIntegerField(_("guaranteed prize pool (cents)"), default=0)
    # Taken from the players' prize contributions before the pool is paid out (a staff fee or
    # dealer withholding), in hundredths of a percent: 250 = 2.5 %. The house keeps it.
    withholding_bp = models.PositiveIntegerField(
        _("staff fee withheld from the prize pool (hundredths of a percent)"), default=0
    )
    # Money the house adds to the prize pool on top of the players' contributions.
    house_contribution = models.PositiveIntegerField(
        _("house contribution to the prize pool (cents)"), default=0
    )
    bounty_kind = models.CharField(
        _("bounties"), max_length=12, choices=BountyKind.choices, default=BountyKind.NONE
    )
    bounty = models.PositiveIntegerField(
        _("bounty per entry (cents)"),
        default=0,
        help_text=_("Part of the buy-in that goes on the player's head, not into the prize pool."),
    )
    satellite_seat_value = models.PositiveIntegerField(
        _("satellite seat value (cents)"),
        default=0,
        help_text=_("0: not a satellite. Otherwise the pool buys seats of this value."),
    )
    satellite_target = models.CharField(_("satellite target event"), max_length=120, blank=True)
    payout_unit = models.PositiveIntegerField(
        _("round payouts to (cents)"), default=100, validators=[MinValueValidator(1)]
    )
    places_paid = models.PositiveIntegerField(
        _("places paid"), null=True, blank=True, help_text=_("Empty: the default schedule.")
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.PLANNED
    )
    structure = models.ForeignKey(
        Structure, on_delete=models.PROTECT, related_name="tournaments", verbose_name=_("structure")
    )
    chip_set = models.ForeignKey(
        ChipSet, on_delete=models.PROTECT, related_name="tournaments", verbose_name=_("chip set")
    )
    # Set when the floor closes registration (late entries, re-entries and waiting alternates):
    # from then the field is final, and so are the places. The clock closes it too, after the
    # level set in `late_registration_until_level`.
    registration_closed_at = models.DateTimeField(
        _("registration closed at"), null=True, blank=True
    )
    # The version of the ruleset the tournament plays under (empty: the newest when created).
    ruleset_version = models.CharField(_("ruleset version"), max_length=20, blank=True)
    hand_for_hand = models.BooleanField(_("hand-for-hand"), default=False)
    h4h_round = models.PositiveIntegerField(default=0)
    balance_tolerance = models.PositiveSmallIntegerField(
        _("balance tolerance (players)"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(5)],
        help_text=_("Tables may differ by this many players (tda-de 10: 1 at full ring)."),
    )
    break_order = models.CharField(
        _("table break order"),
        max_length=10,
        choices=[("highest", _("Highest number first")), ("lowest", _("Lowest number first"))],
        default="highest",
    )
    # Shot clock and time-bank cards on the dealer tablets (docs/seating.md): seconds per
    # decision, cards per player and their length, and when the cards come back.
    shot_clock = models.BooleanField(_("shot clock on the dealer tablets"), default=False)
    shot_clock_seconds = models.PositiveSmallIntegerField(
        _("shot clock: seconds per decision"), default=30
    )
    time_bank_cards = models.PositiveSmallIntegerField(_("time-bank cards per player"), default=2)
    time_bank_seconds = models.PositiveSmallIntegerField(
        _("seconds per time-bank card"), default=30
    )
    time_bank_reset = models.CharField(
        _("time-bank cards come back"),
        max_length=20,
        choices=TimeBankReset.choices,
        default=TimeBankReset.DAY_AND_FINAL_TABLE,
    )
    # An event with starting flights (festivals/, docs/festivals.md): a flight's buy-ins go to
    # the prize pool of the event's Day 2 (`pool_to`), which pays the places of the whole event;
    # the Day 2 (`pooled`) counts the entries and the pool of its flights with its own.
    pool_to = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="pool_from",
        verbose_name=_("prize pool paid at"),
    )
    pooled = models.BooleanField(
        _("gathers the prize pools of its starting flights"), default=False
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Kept by the database on every change of an entry (tournament/counters.py): players still
    # in, entries that count for the field (neither unregistered nor waiting as alternates), and
    # alternates waiting for a seat.
    players_left = models.PositiveIntegerField(default=0, editable=False)
    entries_counted = models.PositiveIntegerField(default=0, editable=False)
    alternates_waiting = models.PositiveIntegerField(default=0, editable=False)
    # Kept by the database whenever a table opens or closes.
    tables_open = models.PositiveIntegerField(default=0, editable=False)
    # Kept by the database on every purchase (refunds left out): money to the prize pool
    # (before bounties), fees and chips, in minor units, and how many of each kind were bought.
    paid_in = models.PositiveBigIntegerField(default=0, editable=False)
    fees_in = models.PositiveBigIntegerField(default=0, editable=False)
    chips_in = models.PositiveBigIntegerField(default=0, editable=False)
    bought_buyins = models.PositiveIntegerField(default=0, editable=False)
    bought_reentries = models.PositiveIntegerField(default=0, editable=False)
    bought_rebuys = models.PositiveIntegerField(default=0, editable=False)
    bought_addons = models.PositiveIntegerField(default=0, editable=False)

    counters = (
        "players_left",
        "entries_counted",
        "alternates_waiting",
        "paid_in",
        "fees_in",
        "chips_in",
        "bought_buyins",
        "bought_reentries",
        "bought_rebuys",
        "bought_addons",
        "tables_open",
    )

    class Meta:
        ordering = ["-starts_at"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(seats_per_table__gte=2) & Q(seats_per_table__lte=10),
                name="seats_per_table_2_to_10",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def status_text(self) -> str:
        """The status as the pages show it. Before the start with registration closed (a Day 2
        once its draw seated the field, or a tournament closed by hand) it says so: its status
        is still `registering`, but nobody can register."""
        if self.status == Status.REGISTERING and self.registration_closed_at is not None:
            return str(_("Registration closed"))
        return status_label(self.status)

    def clean(self) -> None:
        """The setting rules on the whole row (tournament/domain/settings_rules.py)."""
        errors = settings_errors(merged_values(self, {}))
        if errors:
            raise ValidationError(errors)


class Player(models.Model):
    """A person. Contact data is private: it never appears on public pages or public API."""

    name = models.CharField(_("full name"), max_length=120)
    display_name = models.CharField(_("display name"), max_length=60)
    # The club's own number for a member (optional, unique when given).
    membership_number = models.CharField(_("membership number"), max_length=40, blank=True)
    # Only to tell two people of the same name apart (duplicates are found by it).
    birth_year = models.PositiveSmallIntegerField(_("year of birth"), null=True, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    # ISO 3166-1 alpha-2 ("DE"), as results databases take it (tournament/domain/countries.py);
    # published with the results, like the display name.
    country = models.CharField(_("country"), max_length=2, blank=True, default="")
    needs_accessible_seat = models.BooleanField(_("needs an accessible seat"), default=False)
    # Eligibility (docs/signups.md): a member has a membership number, anyone else is a guest; a
    # barred person is checked in only by a director, and the reason is shown at the door.
    barred = models.BooleanField(_("barred"), default=False)
    barred_reason = models.CharField(_("why barred"), max_length=200, blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The full and the display name folded for search (tournament/domain/names.py); kept by
    # a pre_save receiver (tournament/signals.py), so also on import. Never shown.
    search_key = models.CharField(max_length=200, blank=True, default="", editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        indexes = [models.Index(fields=["name"]), models.Index(fields=["display_name"])]
        constraints = [
            models.UniqueConstraint(
                fields=["membership_number"],
                condition=~Q(membership_number=""),
                name="unique_membership_number",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def country_label(self) -> str:
        """The country's name in the reader's language ("" when not known)."""
        return country_name(self.country, get_language() or "en")


class Club(models.Model):
    """The club's own settings: one row (id 1), made when first read (`Club.current()`)."""

    name = models.CharField(_("club name"), max_length=120, blank=True)
    public_profiles = models.BooleanField(
        _("public player profiles"),
        default=False,
        help_text=_("Anyone may see a player's display name and results, nothing else."),
    )

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("club")
        constraints = [models.CheckConstraint(condition=Q(id=1), name="club_single_row")]

    def __str__(self) -> str:
        return self.name or "club"

    @classmethod
    def current(cls) -> Club:
        club, _created = cls.objects.get_or_create(pk=1)
        return club


class EntryStatus(models.TextChoices):
    ALTERNATE = "alternate", _("Alternate")
    ACTIVE = "active", _("Playing")
    BUSTED = "busted", _("Busted")
    UNREGISTERED = "unregistered", _("Unregistered")


def new_public_token() -> str:
    return secrets.token_urlsafe(18)


class Entry(models.Model):
    """One buy-in (or re-entry) of a player into a tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField(_("player number"))
    is_reentry = models.BooleanField(_("re-entry"), default=False)
    status = models.CharField(
        _("status"), max_length=20, choices=EntryStatus.choices, default=EntryStatus.ACTIVE
    )
    alternate_position = models.PositiveIntegerField(null=True, blank=True)
    place = models.PositiveIntegerField(_("finishing place"), null=True, blank=True)
    busted_at = models.DateTimeField(null=True, blank=True)
    bust_hand = models.PositiveIntegerField(null=True, blank=True)
    bust_sequence = models.PositiveIntegerField(null=True, blank=True)
    # The finish as the ruleset ranks it, kept apart from the field size: 1 = the first player
    # out. The place is entries + 1 - rank, so it stays right when the field grows (late
    # registration, re-entries); `bust_group` is the sequence of the first bust of the same hand
    # (players out in one hand are ranked together, whatever the order they were confirmed in).
    elimination_rank = models.PositiveIntegerField(null=True, blank=True)
    bust_group = models.PositiveIntegerField(null=True, blank=True)
    # What the ranking of a hand needs: the stack at the start of the hand, the seat's distance
    # clockwise from that hand's button, the table (number), the hand-for-hand round, and a lot
    # drawn once for ties the ruleset does not let stand.
    bust_stack = models.PositiveBigIntegerField(null=True, blank=True)
    bust_seats_from_button = models.PositiveSmallIntegerField(null=True, blank=True)
    bust_table = models.PositiveIntegerField(null=True, blank=True)
    bust_h4h_round = models.PositiveIntegerField(null=True, blank=True)
    bust_lot = models.PositiveIntegerField(null=True, blank=True)
    prize = models.PositiveIntegerField(_("prize (cents)"), default=0)
    paid_at = models.DateTimeField(_("paid at"), null=True, blank=True)
    paid_by = models.CharField(_("paid by"), max_length=120, blank=True)
    paid_amount = models.PositiveIntegerField(_("paid out (cents)"), default=0)
    bounty = models.PositiveIntegerField(_("bounty on the head (cents)"), default=0)
    bounties_won = models.PositiveIntegerField(_("bounties won (cents)"), default=0)
    # Players this entry knocked out (each eliminator named in a bust makes one hit): TD3's
    # hits, a league formula's `h` (docs/leagues.md).
    hits = models.PositiveIntegerField(_("knock-outs"), default=0)
    won_seat = models.BooleanField(_("won a seat"), default=False)
    public_token = models.CharField(max_length=40, unique=True, default=new_public_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_entry_number"),
            # No second live entry of the same player in one tournament.
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(status__in=["active", "alternate"]),
                name="one_live_entry_per_player",
            ),
        ]
        indexes = [
            models.Index(fields=["tournament", "status"]),
            models.Index(fields=["tournament", "bust_sequence"]),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.player.display_name}"


class PurchaseKind(models.TextChoices):
    BUYIN = "buyin", _("Buy-in")
    REENTRY = "reentry", _("Re-entry")
    REBUY = "rebuy", _("Rebuy")
    ADDON = "addon", _("Add-on")
    # A stack bagged at the end of a starting flight and carried into Day 2: chips, no money.
    CARRIED = "carried", _("Chips carried from a starting flight")


class Purchase(models.Model):
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="purchases")
    kind = models.CharField(max_length=10, choices=PurchaseKind.choices)
    price = models.PositiveIntegerField(help_text="To the prize pool, cents")
    fee = models.PositiveIntegerField(default=0)
    chips = models.PositiveIntegerField(default=0)
    refunded = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("purchase")
        verbose_name_plural = _("purchases")


class Payout(models.Model):
    """A manual payout table entry; without rows the default schedule applies."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="payouts")
    place = models.PositiveIntegerField()
    amount = models.PositiveIntegerField()

    class Meta:
        ordering = ["tournament", "place"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "place"], name="unique_payout_place")
        ]


class EventQuerySet(models.QuerySet["Event"]):
    def update(self, **kwargs: Any) -> int:
        raise PermissionError("The event log is append-only.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise PermissionError("The event log is append-only.")


class Event(models.Model):
    """The append-only event log: who did what, when (UTC), from where, with what payload."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="events"
    )
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    actor_label = models.CharField(max_length=120, blank=True)
    source = models.CharField(max_length=64, blank=True)
    action = models.CharField(max_length=60, db_index=True)
    payload = models.JSONField(default=dict)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise PermissionError("The event log is append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise PermissionError("The event log is append-only.")


class DealMethod(models.TextChoices):
    ICM = "icm", _("ICM")
    CHIP_CHOP = "chip_chop", _("Chip chop")
    CUSTOM = "custom", _("Custom split")


class Deal(models.Model):
    """A deal the players left agreed on. Their prizes become their shares; whoever wins the
    rest of the game also gets `play_for`."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="deals")
    method = models.CharField(_("method"), max_length=12, choices=DealMethod.choices)
    play_for = models.PositiveIntegerField(_("left to play for (cents)"), default=0)
    unit = models.PositiveIntegerField(_("rounded to (cents)"), default=100)
    total = models.PositiveIntegerField(_("distributed (cents)"))
    created_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(fields=["tournament"], name="one_deal_per_tournament")
        ]


class DealShare(models.Model):
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="shares")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="deal_share")
    stack = models.PositiveBigIntegerField(_("stack"))
    amount = models.PositiveIntegerField(_("share (cents)"))
    consented = models.BooleanField(_("agreed"), default=False)

    class Meta:
        ordering = ["-amount"]


class RegistrationKey(models.Model):
    """A one-time key a registration was submitted with (the desk form's hidden key, the API's
    `Idempotency-Key` header). Written in the transaction that creates the entry: the same key
    sent again (a double click, a retry after a timeout) finds the entry instead of making a
    second one."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registration_keys"
    )
    key = models.CharField(max_length=100)
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="registration_keys")
    # What was asked (the player's id or the folded name): the same key with another request
    # is refused rather than answered with someone else's entry.
    fingerprint = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("registration key")
        verbose_name_plural = _("registration keys")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="unique_registration_key")
        ]


class PaymentMethod(models.TextChoices):
    """How money came in or went out. Voucher, satellite seat and staff comp bring no money
    into the cage: the house (voucher, comp) or a satellite's prize pays the entry."""

    CASH = "cash", _("Cash")
    CARD = "card", _("Card")
    TRANSFER = "transfer", _("Bank transfer")
    VOUCHER = "voucher", _("Voucher")
    SATELLITE = "satellite", _("Satellite seat")
    COMP = "comp", _("Staff comp")
    # Only for purchases made before the ledger existed (migration 0011).
    UNRECORDED = "unrecorded", _("Not recorded")


class LedgerKind(models.TextChoices):
    BUYIN = "buyin", _("Buy-in")
    REENTRY = "reentry", _("Re-entry")
    REBUY = "rebuy", _("Rebuy")
    ADDON = "addon", _("Add-on")
    REFUND = "refund", _("Refund")
    PAYOUT = "payout", _("Payout")
    CORRECTION = "correction", _("Correction")


class LedgerQuerySet(models.QuerySet["LedgerLine"]):
    def update(self, **kwargs: Any) -> int:
        raise PermissionError("The ledger is append-only: correct it with a new line.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise PermissionError("The ledger is append-only: correct it with a new line.")


class LedgerLine(models.Model):
    """One movement of money at the cage (docs/ledger.md). `amount` is signed: above zero
    money came in, below zero it went out. It is split into the players' money (`prizes`:
    prize pool and bounties) and the house's (`fees`); the database refuses a line whose
    parts do not add up. Lines are never changed: a correction is a new line."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="ledger")
    entry = models.ForeignKey(
        Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="ledger"
    )
    purchase = models.ForeignKey(
        Purchase, on_delete=models.SET_NULL, null=True, blank=True, related_name="ledger"
    )
    kind = models.CharField(_("kind"), max_length=12, choices=LedgerKind.choices)
    method = models.CharField(_("paid by"), max_length=12, choices=PaymentMethod.choices)
    amount = models.BigIntegerField(_("amount (cents)"))
    prizes = models.BigIntegerField(_("players' money (cents)"), default=0)
    fees = models.BigIntegerField(_("fees (cents)"), default=0)
    corrects = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="corrections"
    )
    note = models.CharField(_("reason"), max_length=200, blank=True)
    recorded_by = models.CharField(_("recorded by"), max_length=120, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = LedgerQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        verbose_name = _("ledger line")
        verbose_name_plural = _("ledger lines")
        constraints = [
            models.CheckConstraint(
                condition=Q(amount=models.F("prizes") + models.F("fees")),
                name="ledger_line_adds_up",
            ),
            models.CheckConstraint(condition=~Q(amount=0), name="ledger_line_not_zero"),
        ]
        indexes = [models.Index(fields=["tournament", "at"])]

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise PermissionError("The ledger is append-only: correct it with a new line.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise PermissionError("The ledger is append-only: correct it with a new line.")
