"""The SQLite files fuda keeps (matches, studies): a file is used only if its tables are fuda's
(another program's file is refused before anything is written to it), and a failure reading one —
a damaged file, a row edited by hand — is a diagnostic naming the file, never a traceback."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, ClassVar, Self

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from ..errors import error, os_reason


def _columns(db: sqlite3.Connection) -> dict[str, set[str]]:
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: {r[1] for r in db.execute(f"PRAGMA table_info({t})")} for t in tables}


def _schema_columns(schema: str) -> dict[str, set[str]]:
    mem = sqlite3.connect(":memory:")
    mem.executescript(schema)
    cols = _columns(mem)
    mem.close()
    return cols


def connect(path: Path, schema: str, kind: str, added_later: frozenset[str] = frozenset()) -> sqlite3.Connection:
    """Open (or create) the ``kind`` file at ``path`` with ``schema`` (CREATE TABLE IF NOT EXISTS …).
    ``added_later``: columns that older files may lack (the caller adds them)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(str(path))
        have = _columns(db)
    except (OSError, sqlite3.Error) as e:
        why = os_reason(e, str(path)) if isinstance(e, OSError) else str(e)
        raise error("E503", f"cannot open the {kind} file {path}: {why}") from None
    for table, cols in _schema_columns(schema).items():
        missing = sorted(cols - have[table] - added_later) if table in have else []
        if missing:
            db.close()
            raise error("E503", f"{path} is not a fuda {kind} file: its table {table} has no column {missing[0]}",
                        hint="give another file (--match-db, --db)")
    with guarded(path, kind):
        db.executescript(schema)
    return db


@contextmanager
def guarded(path: Path, kind: str) -> Iterator[None]:
    """Turn a failure of the file (or of a value stored in it) into an E503 naming the file."""
    try:
        yield
    except sqlite3.Error as e:
        raise error("E503", f"the {kind} file {path} cannot be used: {e}") from None
    except (ValueError, TypeError, IndexError, KeyError, AttributeError) as e:
        raise error("E503", f"the {kind} file {path} is damaged: {damage(e)}") from None


def damage(e: Exception) -> str:
    """What is wrong with a stored value, in words (not Python's class names)."""
    if isinstance(e, KeyError):
        return f"a stored value has no {e}"
    if isinstance(e, IndexError):
        return "a stored list is too short"
    return str(e) or "a stored value is not as fuda wrote it"


def _json(kind: type | None) -> BeforeValidator:
    """A column of JSON text, read as its value (a ``kind``, dict or list, when given)."""
    def parse(text: Any) -> Any:
        try:
            value = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"is not valid JSON ({e.msg}, at character {e.pos + 1})") from None
        except TypeError:
            raise ValueError("is not JSON text") from None
        if kind is not None and not isinstance(value, kind):
            raise ValueError(f"is not a JSON {'object' if kind is dict else 'list'}")
        return value
    return BeforeValidator(parse)


JsonObject = Annotated[dict[str, Any], _json(dict)]
JsonList = Annotated[list[Any], _json(list)]
JsonKinds = Annotated[list[str], _json(list)]      # seat kinds: human, random, ismcts:50 …


class Row(BaseModel):
    """A row of one of fuda's tables as fuda writes it, read in one place: a value that is not (a
    row edited by hand or by another program: text in a number column, a huge number, a NULL) is a
    ValueError naming the table, the column, whose row it is and what it should be (each field's
    description), which ``guarded`` turns into E503 — never a traceback further on."""
    model_config = ConfigDict(strict=True)
    table: ClassVar[str]

    @classmethod
    def columns(cls) -> str:
        return ", ".join(cls.model_fields)

    @classmethod
    def read(cls, values: Sequence[Any], of: str) -> Self:
        """``values``: the row's columns in the order of ``columns()``; ``of``: whose row it is
        (`match friday`, `game 4 of study 'nap'`)."""
        try:
            return cls.model_validate(dict(zip(cls.model_fields, values, strict=True)))
        except ValidationError as e:
            err = e.errors()[0]
            name = str(err["loc"][0])
            if err["type"] == "value_error":        # a JSON column: what is wrong with its text
                why = str(err["ctx"]["error"])
            else:
                value = values[list(cls.model_fields).index(name)]
                shown = "NULL" if value is None else repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "…"
                why = f"is not {cls.model_fields[name].description}: {shown}"
            raise ValueError(f"{cls.table}.{name} of {of} {why}") from None


def stored_names(db: sqlite3.Connection, table: str, kind: str, order: str) -> list[str]:
    """The names of a file's matches or studies (``table``), a NULL one refused: no ``kind`` of that
    name could be asked for."""
    out = []
    for name, ruleset in db.execute(f"SELECT name, ruleset FROM {table} ORDER BY {order}"):
        if not isinstance(name, str):
            raise ValueError(f"{table}.name of a {kind} of {ruleset} is not a name: "
                             f"{'NULL' if name is None else repr(name)}")
        out.append(name)
    return out

