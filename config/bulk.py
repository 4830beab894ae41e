"""Inserting many rows given column by column (the Day-2 draw's thousands of entries, purchases
and counts, festivals/services.py).

On PostgreSQL one `INSERT … SELECT … FROM unnest(arrays)` with the columns the caller gives as
arrays and every other column a constant: its value in `constants`, else the field's default
(`auto_now`/`auto_now_add`: now; text: ""), else NULL. The ids come back in the order of the rows.
Elsewhere (SQLite, the embedded default) the ORM's `bulk_create`. As with `bulk_create`, no
model `save()` runs and no signal is sent: use it for models whose rows need neither (the
database's triggers still keep their counters, tournament/counters.py).

Why not `bulk_create` everywhere: Django prepares every value of every field of every instance
in Python (3,000 entries of 30 fields: about 90,000 preparations, 0.3–0.5 s on this machine,
measured in bench/festival.py); here the rows are plain lists and the constants are sent once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connection, models
from django.utils import timezone


def insert_columns(
    model: type[models.Model],
    columns: Mapping[str, Sequence[Any]],
    *,
    constants: Mapping[str, Any] | None = None,
) -> list[int]:
    """Insert one row per position of the `columns` lists (attribute names, `entry_id` for a
    foreign key) and return the new ids in that order."""
    constants = dict(constants or {})
    sizes = {len(v) for v in columns.values()}
    if len(sizes) > 1:
        raise ValueError("every column needs the same number of values")
    count = sizes.pop() if sizes else 0
    if count == 0:
        return []
    if connection.vendor != "postgresql":
        rows = [
            model(**constants, **{name: values[i] for name, values in columns.items()})
            for i in range(count)
        ]
        return [obj.pk for obj in model._default_manager.bulk_create(rows, batch_size=500)]
    now = timezone.now()
    names: list[str] = []
    selected: list[str] = []
    params: list[Any] = []
    arrays: list[str] = []
    array_params: list[Any] = []
    for field in model._meta.concrete_fields:
        if field.primary_key:
            continue
        names.append(connection.ops.quote_name(field.column))
        db_type = _base_type(field)
        if field.attname in columns:
            arrays.append(f"%s::{db_type}[]")
            array_params.append(_array(columns[field.attname]))
            selected.append(f"c{len(arrays)}")
            continue
        if field.attname in constants:
            value = constants[field.attname]
        elif getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            value = now
        else:
            value = field.get_default()  # its default; "" for text; None where NULL is allowed
        selected.append(f"%s::{db_type}")
        params.append(field.get_db_prep_save(value, connection) if value is not None else None)
    table = connection.ops.quote_name(model._meta.db_table)
    aliases = ", ".join(f"c{i + 1}" for i in range(len(arrays)))
    sql = (
        f"INSERT INTO {table} ({', '.join(names)}) "  # noqa: S608 (names from the model)
        f"SELECT {', '.join(selected)} FROM unnest({', '.join(arrays)}) "
        f"WITH ORDINALITY AS u({aliases}, o) ORDER BY o RETURNING id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params + array_params)
        return [row[0] for row in cursor.fetchall()]


def _array(values: Sequence[Any]) -> Any:
    """Whole numbers and text as one PostgreSQL array literal (psycopg adapts a list element by
    element in Python: 40 ms of the 3,000-player Day-2 draw); anything else as a list."""
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "{" + ",".join(map(str, values)) + "}"
    if all(isinstance(v, str) for v in values):
        quoted = (v.replace("\\", "\\\\").replace('"', '\\"') for v in values)
        return "{" + ",".join(f'"{v}"' for v in quoted) + "}"
    return list(values)


def _base_type(field: models.Field[Any, Any]) -> str:
    """The column's type without its length (varchar(40) -> varchar), for a cast."""
    target = field.target_field if field.is_relation else field  # type: ignore[attr-defined]
    return str(target.db_type(connection) or "text").split("(")[0].replace(" unsigned", "")
