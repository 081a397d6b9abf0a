"""``fuda report STUDY… --csv FILE``: every stored game as rows of a table, one row per player of
each game (tidy data: a spreadsheet, pandas or R reads it without reshaping), for the analyses the
report does not make — a statistic of your own, a regression on options, a per-game plot."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from .study import Store

COLUMNS = ["study", "ruleset", "options", "seed", "player", "seat", "place", "score", "won", "draw",
           "first", "roles", "length", "capped"]


def games_csv(store: Store, names: list[str]) -> str:
    """The games of the studies ``names`` as CSV text (``COLUMNS``; ``options`` as JSON, ``roles``
    the public roles the player held, joined by ``;``)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for name in names:
        study = store.study(name)
        options = json.dumps(study.options, ensure_ascii=False, sort_keys=True)
        for g in store.results(name):
            w.writerows(_rows(name, study.ruleset, options, g))
    return out.getvalue()


def _rows(name: str, ruleset: str, options: str, g: dict[str, Any]) -> list[list[Any]]:
    roles = g.get("roles") or {}
    return [[name, ruleset, options, g["seed"], f"P{p}", g["seats"][p], place, g["scores"][p],
             int(p in g["winners"]), int(g["draw"]), int(g["first"] == p),
             ";".join(sorted(r for r, who in roles.items() if who == p)), g["length"], int(g["capped"])]
            for p, place in enumerate(g["places"])]
