"""The SQLite files fuda keeps (matches, studies): a file is used only if its tables are fuda's
(another program's file is refused before anything is written to it), and a failure reading one —
a damaged file, a row edited by hand — is a diagnostic naming the file, never a traceback."""

from __future__ import annotations

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
        raise error("E503", f"the {kind} file {path} is damaged: {type(e).__name__}: {e}") from None


def shaped(value: Any, kind: type, what: str) -> Any:
    """``value`` if it is a ``kind`` (a dict, a list), else the TypeError ``guarded`` turns into E503."""
    if not isinstance(value, kind):
        raise TypeError(f"its {what} are not a JSON {'object' if kind is dict else 'list'}")
    return value
