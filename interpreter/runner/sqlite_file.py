"""The SQLite files fuda keeps (matches, studies): a file is used only if its tables are fuda's
(another program's file is refused before anything is written to it), and a failure reading one —
a damaged file, a row edited by hand — is a diagnostic naming the file, never a traceback."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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


def stored(text: Any, where: str, kind: type | None = None) -> Any:
    """The JSON value of a column, ``where`` naming it (`matches.options of match m1`); one that is
    not JSON, or not a ``kind`` (dict, list), is a ValueError saying so, which ``guarded`` turns into
    E503."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{where} is not valid JSON ({e.msg}, at character {e.pos + 1})") from None
    except TypeError:
        raise ValueError(f"{where} is not JSON text") from None
    if kind is not None and not isinstance(value, kind):
        raise ValueError(f"{where} is not a JSON {'object' if kind is dict else 'list'}")
    return value
