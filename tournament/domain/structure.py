"""Blind structures: validation, generation from chips and a target length, import and export."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tournament.domain.levels import RowLabel, row_labels


class StructureError(ValueError):
    """A structure that cannot be played or read. `code` and `params` let the caller word it in
    the user's language; `params` name the row by `number` (a level) or `after` (a break)."""

    def __init__(self, message: str, code: str = "", **params: int) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class LevelSpec:
    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: bool = False
    minutes: int = 20
    is_break: bool = False
    # Chip values removed from play during this break (colour-up / chip race).
    color_up: tuple[int, ...] = ()


MAX_MINUTES = 600
# Blinds, antes and chip values fit the level's integer columns.
MAX_CHIP_VALUE = 2_147_483_647
MAX_LEVELS = 500


def _where(label: RowLabel) -> str:
    """A row as people name it: "level 5", "the break after level 4" (breaks are not levels)."""
    if label.number is not None:
        return f"level {label.number}"
    if label.after:
        return f"the break after level {label.after}"
    return "the break before level 1"


def _row_error(label: RowLabel, code: str, text: str, **params: int) -> StructureError:
    where = {"number": label.number} if label.number is not None else {"after": label.after}
    return StructureError(f"{_where(label)}: {text}", code, **where, **params)


def validate_levels(levels: Sequence[LevelSpec]) -> None:
    """Raise StructureError naming the first level (or break) at fault by its level number."""
    if not levels:
        raise StructureError("the structure has no levels", "no_levels")
    if not any(not lv.is_break for lv in levels):
        raise StructureError("the structure has only breaks", "only_breaks")
    if levels[0].is_break:
        raise StructureError("the structure cannot start with a break", "starts_with_break")
    if len(levels) > MAX_LEVELS:
        raise StructureError(
            f"a structure has at most {MAX_LEVELS} levels", "too_many", limit=MAX_LEVELS
        )
    last_bb = 0
    labels = row_labels([lv.is_break for lv in levels])
    for label, lv in zip(labels, levels, strict=True):
        if max(lv.small_blind, lv.big_blind, lv.ante, *lv.color_up) > MAX_CHIP_VALUE:
            raise _row_error(
                label,
                "chip_value",
                f"blinds and chip values go up to {MAX_CHIP_VALUE}",
                limit=MAX_CHIP_VALUE,
            )
        if len(lv.color_up) > 20:
            raise _row_error(label, "colour_up_count", "at most 20 chip values are coloured up")
        if not 1 <= lv.minutes <= MAX_MINUTES:
            raise _row_error(
                label, "minutes", f"a level lasts 1 to {MAX_MINUTES} minutes", limit=MAX_MINUTES
            )
        if lv.is_break:
            if lv.small_blind or lv.big_blind or lv.ante:
                raise _row_error(label, "break_blinds", "a break has no blinds")
            if any(v <= 0 for v in lv.color_up):
                raise _row_error(
                    label, "colour_up_positive", "colour-up chip values must be positive"
                )
            continue
        if lv.color_up:
            raise _row_error(
                label, "colour_up_in_level", "chips are coloured up during breaks only"
            )
        if lv.small_blind < 0 or lv.big_blind <= 0 or lv.ante < 0:
            raise _row_error(label, "blinds_positive", "blinds must be positive")
        if lv.small_blind > lv.big_blind:
            raise _row_error(
                label, "small_above_big", "the small blind is larger than the big blind"
            )
        if lv.big_blind < last_bb:
            raise _row_error(label, "big_blind_down", "the big blind goes down")
        last_bb = lv.big_blind


# --- Generation ---------------------------------------------------------------------------

_NICE = (10, 12, 15, 20, 25, 30, 40, 50, 60, 80)


def _nice_values(smallest_chip: int, upto: int) -> list[int]:
    """Big blinds people are used to (100, 150, 200, 300, 400, 600, 800, 1,000, ...) that
    split into a small blind payable in chips."""
    values: list[int] = []
    scale = 1
    while scale * 10 <= upto * 10:
        for n in _NICE:
            v = n * scale
            if v % (2 * smallest_chip) == 0 and v not in values:
                values.append(v)
        scale *= 10
    return sorted(v for v in values if v <= upto * 2) or [2 * smallest_chip]


def _round_to(value: int, chip: int) -> int:
    return max(chip, round(value / chip) * chip)


def generate_structure(
    *,
    starting_stack: int,
    level_minutes: int,
    target_minutes: int,
    denominations: Sequence[int],
    break_every: int = 4,
    break_minutes: int = 15,
    big_blind_ante: bool = True,
) -> list[LevelSpec]:
    """A structure for a stack and a target length: blinds start at 1/100 of the stack and rise
    geometrically to about 1.5 stacks at the target time, on round numbers payable with the chips.
    A break follows every `break_every` levels; chips no longer needed are coloured up there."""
    chips = sorted(set(denominations))
    if not chips or chips[0] <= 0:
        raise StructureError("the chip set has no denominations")
    if starting_stack <= 0 or starting_stack % chips[0]:
        raise StructureError("the starting stack must be a positive multiple of the smallest chip")
    if not 1 <= level_minutes <= MAX_MINUTES or target_minutes < level_minutes:
        raise StructureError("the level length or the target length is not possible")
    if break_every < 0 or break_minutes < 0:
        raise StructureError("breaks cannot be negative")
    playing = max(3, min(60, target_minutes // level_minutes))
    start_bb = max(2 * chips[0], starting_stack // 100)
    end_bb = max(start_bb * 2, starting_stack * 3 // 2)
    nice = _nice_values(chips[0], end_bb * 4)
    ratio = (end_bb / start_bb) ** (1 / (playing - 1))
    bbs: list[int] = []
    for i in range(playing):
        target = start_bb * ratio**i
        candidate = min(nice, key=lambda v: abs(math.log(v / target)))
        if bbs and candidate <= bbs[-1]:
            larger = [v for v in nice if v > bbs[-1]]
            if not larger:
                # Blinds at four times 1.5 stacks end any tournament; doubling on would only
                # outgrow the level's columns.
                break
            candidate = larger[0]
        bbs.append(candidate)
    playing = len(bbs)
    levels: list[LevelSpec] = []
    for i, bb in enumerate(bbs):
        if big_blind_ante:
            ante = bb if i >= 2 else 0
        else:
            ante = _round_to(bb // 8, chips[0]) if i >= 3 else 0
        levels.append(
            LevelSpec(
                small_blind=bb // 2,
                big_blind=bb,
                ante=ante,
                big_blind_ante=big_blind_ante and ante > 0,
                minutes=level_minutes,
            )
        )
        if break_every and break_minutes and (i + 1) % break_every == 0 and i + 1 < playing:
            levels.append(LevelSpec(0, 0, minutes=break_minutes, is_break=True))
    levels = color_up_plan(levels, chips)
    validate_levels(levels)
    return levels


def color_up_plan(levels: Sequence[LevelSpec], denominations: Sequence[int]) -> list[LevelSpec]:
    """Mark, at each break, the chips that no later blind or ante needs (chip race, bdpv section
    6 / dealer course); the two largest chips always stay in play."""
    chips = sorted(set(denominations))
    in_play = list(chips)
    out: list[LevelSpec] = []
    for i, lv in enumerate(levels):
        if not lv.is_break:
            out.append(lv)
            continue
        later = [x for x in levels[i + 1 :] if not x.is_break]
        amounts = [a for x in later for a in (x.small_blind, x.big_blind, x.ante) if a]
        removed: list[int] = []
        while len(in_play) > 2 and amounts:
            smallest, nxt = in_play[0], in_play[1]
            if all(a % nxt == 0 for a in amounts):
                removed.append(smallest)
                in_play.pop(0)
            else:
                break
        out.append(LevelSpec(0, 0, minutes=lv.minutes, is_break=True, color_up=tuple(removed)))
    return out


@dataclass(frozen=True)
class Template:
    starting_stack: int
    level_minutes: int
    target_minutes: int
    break_every: int = 4
    break_minutes: int = 15


TEMPLATES: dict[str, Template] = {
    "turbo": Template(starting_stack=20_000, level_minutes=12, target_minutes=240, break_every=6),
    "standard": Template(starting_stack=30_000, level_minutes=20, target_minutes=420),
    "deep": Template(starting_stack=50_000, level_minutes=30, target_minutes=600, break_every=3),
}


def structure_from_template(name: str, denominations: Sequence[int]) -> list[LevelSpec]:
    try:
        t = TEMPLATES[name]
    except KeyError as exc:
        raise StructureError(f"no template named {name!r}") from exc
    return generate_structure(
        starting_stack=t.starting_stack,
        level_minutes=t.level_minutes,
        target_minutes=t.target_minutes,
        denominations=denominations,
        break_every=t.break_every,
        break_minutes=t.break_minutes,
    )


# --- Import and export --------------------------------------------------------------------

FIELDS = ("small_blind", "big_blind", "ante", "big_blind_ante", "minutes", "is_break", "color_up")


def _as_dict(lv: LevelSpec) -> dict[str, Any]:
    return {
        "small_blind": lv.small_blind,
        "big_blind": lv.big_blind,
        "ante": lv.ante,
        "big_blind_ante": lv.big_blind_ante,
        "minutes": lv.minutes,
        "is_break": lv.is_break,
        "color_up": list(lv.color_up),
    }


def levels_to_json(levels: Iterable[LevelSpec]) -> str:
    return json.dumps({"levels": [_as_dict(lv) for lv in levels]}, indent=2)


def _int(value: Any, row: int, name: str) -> int:
    if isinstance(value, bool):
        raise StructureError(f"row {row}: {name} must be a whole number")
    try:
        number = int(str(value).strip() or "0")
    except ValueError as exc:
        raise StructureError(f"row {row}: {name} must be a whole number") from exc
    if number < 0:
        raise StructureError(f"row {row}: {name} cannot be negative")
    return number


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in ("1", "true", "yes", "y", "x", "ja", "break", "pause")


def _level(data: dict[str, Any], row: int) -> LevelSpec:
    raw_colour = data.get("color_up") or ()
    if isinstance(raw_colour, str):
        raw_colour = raw_colour.replace(",", " ").split()
    if not isinstance(raw_colour, list | tuple):
        raise StructureError(f"row {row}: color_up must be a list of chip values")
    return LevelSpec(
        small_blind=_int(data.get("small_blind", 0), row, "small_blind"),
        big_blind=_int(data.get("big_blind", 0), row, "big_blind"),
        ante=_int(data.get("ante", 0), row, "ante"),
        big_blind_ante=_bool(data.get("big_blind_ante", False)),
        minutes=_int(data.get("minutes", 20), row, "minutes"),
        is_break=_bool(data.get("is_break", False)),
        color_up=tuple(_int(v, row, "color_up") for v in raw_colour),
    )


def levels_from_json(text: str) -> list[LevelSpec]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StructureError(f"not JSON: {exc.msg} (line {exc.lineno})") from exc
    except RecursionError as exc:  # thousands of nested brackets
        raise StructureError("not JSON: nested too deeply") from exc
    rows = data.get("levels") if isinstance(data, dict) else data
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise StructureError('expected a list of levels or {"levels": [...]}')
    levels = [_level(r, i) for i, r in enumerate(rows, start=1)]
    validate_levels(levels)
    return levels


def levels_to_csv(levels: Iterable[LevelSpec]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FIELDS)
    for lv in levels:
        d = _as_dict(lv)
        d["color_up"] = " ".join(str(v) for v in lv.color_up)
        d["big_blind_ante"] = int(lv.big_blind_ante)
        d["is_break"] = int(lv.is_break)
        writer.writerow([d[f] for f in FIELDS])
    return out.getvalue()


def levels_from_csv(text: str) -> list[LevelSpec]:
    sample = text[:2048]
    delimiter = ";" if sample.count(";") > sample.count(",") else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    header = [h.strip() for h in reader.fieldnames or []]
    if "big_blind" not in header or "small_blind" not in header:
        raise StructureError("the first line must name the columns, e.g. " + ",".join(FIELDS))
    levels = []
    for i, raw in enumerate(reader, start=1):
        row = {(k or "").strip(): v for k, v in raw.items()}
        if not any((v or "").strip() for v in row.values() if isinstance(v, str)):
            continue
        levels.append(_level(row, i))
    validate_levels(levels)
    return levels
