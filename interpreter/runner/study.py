"""Studies: simulations stored in SQLite, so their results can be queried again without re-running,
an interrupted run keeps every finished game, and running the same study again resumes it.

A study is (name, ruleset, options, seats, whether seats rotate, base seed, number of games); game i always uses seed
``base * 1_000_000 + i`` (simulate.game_seed), so any stored game can be replayed with
``fuda replay RULESET --seed SEED``.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..errors import error
from .home import fuda_home
from .sqlite_file import JsonKinds, JsonObject, Row, connect, guarded, stored_names

SCHEMA = """
CREATE TABLE IF NOT EXISTS studies (
    name TEXT PRIMARY KEY, ruleset TEXT NOT NULL, options TEXT NOT NULL, seats TEXT NOT NULL,
    base_seed INTEGER NOT NULL, games INTEGER NOT NULL, created REAL NOT NULL,
    rotate INTEGER NOT NULL DEFAULT 0, fingerprint TEXT
);
CREATE TABLE IF NOT EXISTS games (
    study TEXT NOT NULL, idx INTEGER NOT NULL, seed INTEGER NOT NULL, result TEXT NOT NULL,
    PRIMARY KEY (study, idx)
);
"""


def default_db() -> Path:
    return fuda_home() / "studies.sqlite"


@dataclass
class Study:
    name: str
    ruleset: str
    options: dict[str, Any]
    seats: list[str]
    base_seed: int
    games: int
    rotate: bool = False


class StudyRow(Row):
    table = "studies"
    name: str = Field(description="a name")
    ruleset: str = Field(description="a ruleset's name or file")
    options: JsonObject
    seats: JsonKinds = Field(description="a JSON list of seat kinds")
    base_seed: int = Field(description="a seed")
    games: int = Field(ge=0, description="a count of games")
    rotate: int = Field(ge=0, le=1, description="0 or 1")
    fingerprint: str | None = Field(description="the rules' fingerprint")


class GameRow(Row):
    table = "games"
    idx: int = Field(ge=0, description="a game's number")
    result: JsonObject


class Store:
    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else default_db()
        self.db = connect(self.path, SCHEMA, "study", added_later=frozenset({"rotate", "fingerprint"}))
        with guarded(self.path, "study"):
            columns = {r[1] for r in self.db.execute("PRAGMA table_info(studies)")}
            if "rotate" not in columns:
                self.db.execute("ALTER TABLE studies ADD COLUMN rotate INTEGER NOT NULL DEFAULT 0")
            if "fingerprint" not in columns:
                self.db.execute("ALTER TABLE studies ADD COLUMN fingerprint TEXT")

    def close(self) -> None:
        self.db.close()

    def open_study(self, name: str, ruleset: str, options: dict[str, Any], seats: list[str], base_seed: int,
                   games: int, rotate: bool = False, fingerprint: str | None = None) -> Study:
        """Create the study, or check that an existing one of that name is the same experiment — also
        the same rules (``fingerprint``: an edited file must not add its games to the old ones)."""
        with guarded(self.path, "study"):
            row = self.db.execute(f"SELECT {StudyRow.columns()} FROM studies WHERE name = ?", (name,)).fetchone()
            if row is None:
                self.db.execute("INSERT INTO studies (name, ruleset, options, seats, base_seed, games, created, rotate, "
                                "fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                (name, ruleset, json.dumps(options, sort_keys=True, ensure_ascii=False),
                                 json.dumps(seats), base_seed, games, time.time(), int(rotate), fingerprint))
                self.db.commit()
            else:
                was = StudyRow.read(row, f"study {name!r}")
                same = (was.ruleset == ruleset and was.options == options and was.seats == seats
                        and was.base_seed == base_seed and bool(was.rotate) == rotate)
                if not same:
                    raise error("E503", f"study {name!r} exists with another ruleset, options, seats or seed",
                                hint="choose another --study name (fuda report lists the stored studies)")
                if fingerprint is not None and was.fingerprint is not None and was.fingerprint != fingerprint:
                    raise error("E505", f"{ruleset} (or a ruleset it extends) changed since study {name!r} began: its "
                                "stored games are of the old rules, and the two would mix in one table",
                                hint="use a new --study name for the new rules (fuda report lists the stored studies)")
                if fingerprint is not None and was.fingerprint is None:      # a study from before fingerprints were kept
                    self.db.execute("UPDATE studies SET fingerprint = ? WHERE name = ?", (fingerprint, name))
                    self.db.commit()
                if games > was.games:
                    self.db.execute("UPDATE studies SET games = ? WHERE name = ?", (games, name))
                    self.db.commit()
            return self.study(name)

    def study(self, name: str) -> Study:
        with guarded(self.path, "study"):
            row = self.db.execute(f"SELECT {StudyRow.columns()} FROM studies WHERE name = ?", (name,)).fetchone()
            if row is None:
                names = [r[0] for r in self.db.execute("SELECT name FROM studies ORDER BY created")]
                from ..errors import did_you_mean

                raise error("E503", f"no study named {name!r} in {self.path}",
                            hint=did_you_mean(name, names) or ("studies: " + ", ".join(names) if names else
                                                               "run fuda simulate … --study NAME first"))
            r = StudyRow.read(row, f"study {name!r}")
            return Study(r.name, r.ruleset, r.options, r.seats, r.base_seed, r.games, bool(r.rotate))

    def names(self) -> list[str]:
        with guarded(self.path, "study"):
            return stored_names(self.db, "studies", "study", "created")

    def done(self, name: str, tell: bool = False, players: int | None = None) -> set[int]:
        """The games stored whole; a damaged one is played again (and its row replaced): ``tell``
        says so, and warns of a row that names no game, which stays left out. ``players``: the
        study's player count, when the ruleset is at hand (see ``_read``)."""
        good, bad = self._read(name, players)
        again = [why for idx, why in bad if idx is not None]
        if again and tell:
            print(f"note: {len(again)} damaged game(s) of study {name!r} in {self.path} are played again",
                  file=sys.stderr)
        for why in [why for idx, why in bad if idx is None] if tell else []:
            print(f"warning: the study file {self.path} is damaged: {why}; left out", file=sys.stderr)
        return {r["_idx"] for r in good}

    def add(self, name: str, rows: list[tuple[int, dict[str, Any]]]) -> None:
        with guarded(self.path, "study"):
            self.db.executemany("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?)",
                                [(name, i, g["seed"], json.dumps(g)) for i, g in rows])
            self.db.commit()

    def results(self, name: str) -> list[dict[str, Any]]:
        """The stored games' results, each checked for the shape the reports read. A game stored
        damaged (a row edited by hand or by another program) is left out with a warning naming it:
        the others stay usable."""
        good, bad = self._read(name)
        for _, why in bad:
            print(f"warning: the study file {self.path} is damaged: {why}; left out", file=sys.stderr)
        for r in good:
            del r["_idx"]
        return good

    def _read(self, name: str, players: int | None = None) -> tuple[list[dict[str, Any]], list[tuple[int | None, str]]]:
        """The stored games whole (each with its index as ``_idx``), and what is wrong with the others
        (with their index, None for a row that names no game). A game of another player count than
        the study's is damaged too: the reports read every game as one of the same seats. The study's
        count is ``players`` (the ruleset's, with the study's options), else the count most of its
        games have (the first game's on a tie) — the stored file alone, nothing rewritten."""
        good, bad = self._read_rows(name)
        counts = Counter(len(r["places"]) for r in good)
        n = players if players is not None else max(counts, key=counts.__getitem__, default=0)
        bad += [(r["_idx"], f"game {r['_idx']} of study {name!r} has {len(r['places'])} players, "
                 f"the study's games {n}") for r in good if len(r["places"]) != n]
        return [r for r in good if len(r["places"]) == n], sorted(bad, key=lambda x: (x[0] is None, x[0] or 0))

    def _read_rows(self, name: str) -> tuple[list[dict[str, Any]], list[tuple[int | None, str]]]:
        """The stored games each whole on its own, and what is wrong with the others (see ``_read``)."""
        with guarded(self.path, "study"):
            good: list[dict[str, Any]] = []
            bad: list[tuple[int | None, str]] = []
            for idx, text in self.db.execute("SELECT idx, result FROM games WHERE study = ? ORDER BY idx", (name,)):
                game = isinstance(idx, int) and idx >= 0
                where = f"game {idx} of study {name!r}" if game else f"a game of study {name!r}"
                try:
                    r = GameRow.read((idx, text), where).result
                    StoredGame.model_validate(r)
                except ValidationError as e:
                    err = e.errors()[0]
                    whole = err["type"] == "value_error" and not err["loc"]     # StoredGame's own check
                    said = str(err["ctx"]["error"]) if whole else \
                        f"{'.'.join(map(str, err['loc'])) or 'its result'}: {err['msg']}"
                    bad.append((idx, f"games.result of {where}: {said}"))
                    continue
                except ValueError as e:
                    bad.append((idx if game else None, str(e)))
                    continue
                good.append({**r, "_idx": idx})
            return good, bad


class StoredGame(BaseModel):
    """The shape of one stored game's result (runner/simulate.py writes it)."""
    model_config = ConfigDict(extra="allow")
    seed: int
    winners: list[int]
    places: list[int | float]
    scores: list[int | float]
    draw: bool = False
    length: int = 0
    capped: bool = False
    first: int | None = None
    estimates: list[Any] = []
    seats: list[str] = []
    roles: dict[str, Any] = {}

    @model_validator(mode="after")
    def _one_per_seat(self) -> StoredGame:
        """The reports read a place and a score for each seat, and a winner's and the first player's
        by their seat (`places: []` is no game's)."""
        n = len(self.places)
        if n == 0 or len(self.scores) != n or self.seats and len(self.seats) != n:
            raise ValueError(f"its places, scores and seats are not one for each player ({n}, {len(self.scores)}, "
                             f"{len(self.seats)})")
        if any(not 0 <= p < n for p in self.winners) or self.first is not None and not 0 <= self.first < n:
            raise ValueError(f"its winners or first player are not among its {n} players")
        return self



def run_study(store: Store, study: Study, workers: int = 1, show_progress: bool = True,
              backend: str = "local", address: str | None = None) -> list[dict[str, Any]]:
    """Play the games of ``study`` that are not stored yet, storing them as they finish (every finished
    game survives an interruption); returns all stored results."""
    from ..api import load
    from .simulate import game_seed, iter_games, seats_for

    game = load(study.ruleset, study.options)
    n = game.n
    done = store.done(study.name, tell=True, players=n)
    todo = [i for i in range(study.games) if i not in done]
    jobs = [(study.ruleset, study.options, game_seed(study.base_seed, i), seats_for(study.seats, n, i, study.rotate),
             game.fingerprint) for i in todo]
    batch: list[tuple[int, dict[str, Any]]] = []
    last = time.perf_counter()
    try:
        for i, g in zip_indices(todo, jobs, iter_games(jobs, workers, show_progress, backend, address)):
            batch.append((i, g))
            if len(batch) >= 200 or time.perf_counter() - last > 2:
                store.add(study.name, batch)
                batch = []
                last = time.perf_counter()
    finally:
        if batch:
            store.add(study.name, batch)
    return store.results(study.name)


def zip_indices(todo: list[int], jobs: list[Any], results: Iterator[dict[str, Any]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Results may arrive out of order: match them to their game index by seed."""
    by_seed = {j[2]: i for i, j in zip(todo, jobs, strict=True)}
    for g in results:
        yield by_seed[g["seed"]], g
