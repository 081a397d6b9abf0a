"""Match play: scores and the number of games accumulate per seat over several games of one ruleset.

A match is stored in an SQLite file (Python's sqlite3): by default ``~/.fuda/matches.sqlite`` (the
directory can be moved with the environment variable ``FUDA_HOME``), or any file given with
``--match-db``. It is saved after every finished game, so a match can be left and continued later
(``fuda play --match NAME``); ``fuda match`` lists the matches and shows one's standings.

Nothing here knows any game: each game's result gives every seat a ``score`` and an outcome; the
match adds the scores up per seat, counts the wins and the games, and keeps each game's replayable
log (``fuda-log/1``) with its seed and options, which may change between games (a table's settings
are remembered: the last game's options are the match's options). A ruleset's `carried` variables
pass from one game to the next: a game's log keeps what it started with (``carried``, for replays)
and what it ended with (``carried_next``, what the next game starts with).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, Field, ValidationError

from ..errors import error
from .home import fuda_home
from .sqlite_file import JsonKinds, JsonList, JsonObject, Row, connect, guarded, stored_names

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    name     TEXT PRIMARY KEY,
    ruleset  TEXT NOT NULL,
    players  INTEGER NOT NULL,
    options  TEXT NOT NULL,          -- JSON: the options of the latest game
    seats    TEXT NOT NULL,          -- JSON: the seat kinds (human, random, …)
    games    INTEGER NOT NULL DEFAULT 0,
    created  TEXT NOT NULL,
    updated  TEXT NOT NULL,
    first_to INTEGER                 -- the wins that end the match (NULL: it goes on while games are played)
);
CREATE TABLE IF NOT EXISTS seats (
    match    TEXT NOT NULL REFERENCES matches(name) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    score    REAL NOT NULL DEFAULT 0,
    wins     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match, seat)
);
CREATE TABLE IF NOT EXISTS games (
    match    TEXT NOT NULL REFERENCES matches(name) ON DELETE CASCADE,
    number   INTEGER NOT NULL,       -- 1, 2, … within the match
    seed     INTEGER NOT NULL,
    options  TEXT NOT NULL,          -- JSON
    result   TEXT NOT NULL,          -- JSON: per seat {player, outcome, place, score}
    log      TEXT NOT NULL,          -- JSON: a fuda-log/1 game log (fuda replay)
    finished TEXT NOT NULL,
    PRIMARY KEY (match, number)
);
"""


class MatchRow(Row):
    table = "matches"
    name: str = Field(description="a name")
    ruleset: str = Field(description="a ruleset's name or file")
    players: int = Field(ge=1, le=16, description="a player count (1 to 16)")     # as a ruleset may say
    options: JsonObject
    seats: JsonKinds = Field(description="a JSON list of seat kinds")
    games: int = Field(ge=0, description="a count of games")
    created: str = Field(description="a time")
    updated: str = Field(description="a time")
    first_to: int | None = Field(ge=1, description="a count of wins or NULL")


class SeatRow(Row):
    table = "seats"
    seat: int = Field(ge=0, description="a seat number")
    score: int | float = Field(description="a number")
    wins: int = Field(ge=0, description="a count of wins")


def _game_log(log: dict[str, Any]) -> dict[str, Any]:
    """A stored game's log is one `fuda replay` re-runs and `--match` resumes from (`{}` is not)."""
    from .replay import GameLog

    try:
        GameLog.model_validate(log)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(map(str, err["loc"]))
        raise ValueError("is not a fuda-log/1 game log: " + (f"it has no {where}" if err["type"] == "missing"
                                                             else f"its {where}: {err['msg']}")) from None
    if log["format"] != "fuda-log/1":
        raise ValueError(f"is not a fuda-log/1 game log: its format is {log['format']!r}")
    return log


class GameRow(Row):
    table = "games"
    number: int = Field(ge=1, description="a game's number")
    seed: int = Field(description="a seed")
    options: JsonObject
    result: JsonList
    log: Annotated[JsonObject, AfterValidator(_game_log)]
    finished: str = Field(description="a time")

    @classmethod
    def of(cls, values: Any, name: str) -> GameRow:
        number = values[0]
        return cls.read(values, f"game {number} of match {name}" if isinstance(number, int) else f"a game of match {name}")

    def check_result(self, name: str, players: int) -> None:
        """What the standings read: one {player, score} object for each seat (`[]` gives none)."""
        seats = [r.get("player") if isinstance(r, dict) else None for r in self.result]
        if sorted(p if isinstance(p, int) else -1 for p in seats) != list(range(players)) \
                or not all(isinstance(r.get("score") or 0, int | float) for r in self.result):
            every = "P0" if players == 1 else f"each of P0–P{players - 1}"
            raise ValueError(f"games.result of game {self.number} of match {name} is not a list of "
                             f"{{player, score}} objects, one for {every}")


def default_db() -> Path:
    return fuda_home() / "matches.sqlite"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Match:
    name: str
    ruleset: str
    players: int
    options: dict[str, Any]
    seats: list[str]
    games: int = 0
    scores: list[float] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    created: str = ""
    updated: str = ""
    carried: dict[str, Any] = field(default_factory=dict)   # what the next game starts with (`carried` variables)
    carried_kinds: dict[str, str] = field(default_factory=dict)     # their kinds in the game they come from
    first_to: int | None = None     # a seat with this many wins has won the match, which is then over

    @property
    def winners(self) -> list[int]:
        """The seats that won the match (several when one game made them all reach the target)."""
        if self.first_to is None:
            return []
        return [p for p in range(self.players) if self.wins[p] >= self.first_to]

    def standings(self, score_name: str = "score", seat_names: list[str] | None = None) -> str:
        """A small table: seat (by its name, when the ruleset names seats), kind, total score (by the
        ruleset's name for it), wins; then the number of games."""
        lines = [f"match {self.name} — {self.ruleset}, {self.games} game{'s' if self.games != 1 else ''}"]
        width = max((len(s) for s in self.seats), default=5)
        seats = [seat_names[p] if seat_names and p < len(seat_names) else f"P{p}" for p in range(self.players)]
        named = max((len(s) for s in seats), default=2)
        for p in range(self.players):
            kind = self.seats[p] if p < len(self.seats) else "?"
            score = self.scores[p]
            shown = number_text(score)
            lines.append(f"  {seats[p]:<{named}}  {kind:<{width}}  {score_name} {shown:>6}  wins {self.wins[p]}")
        if self.first_to is not None:
            won = " and ".join(seats[p] for p in self.winners)
            lines.append(f"first to {self.first_to} win{'s' if self.first_to != 1 else ''}: "
                         + (f"{won} won the match" if won else "not won yet"))
        return "\n".join(lines)


def number_text(x: float) -> str:
    """A score as the game shows numbers: 12, 3.6, 1234567.5 (never 1.23457e+06)."""
    return str(int(x)) if float(x).is_integer() else repr(round(float(x), 10))


class MatchStore:
    """The SQLite file of matches. Use as a context manager or call ``close``."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_db()
        self.db = connect(self.path, SCHEMA, "match", added_later=frozenset({"first_to"}))
        self.db.execute("PRAGMA foreign_keys = ON")
        with guarded(self.path, "match"):
            if "first_to" not in {r[1] for r in self.db.execute("PRAGMA table_info(matches)")}:
                self.db.execute("ALTER TABLE matches ADD COLUMN first_to INTEGER")

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    # -------------------------------------------------------------- reading
    def get(self, name: str) -> Match | None:
        with guarded(self.path, "match"):
            row = self.db.execute(f"SELECT {MatchRow.columns()} FROM matches WHERE name = ?", (name,)).fetchone()
            if row is None:
                return None
            r = MatchRow.read(row, f"match {name}")
            m = Match(r.name, r.ruleset, r.players, r.options, r.seats, r.games, created=r.created, updated=r.updated,
                      first_to=r.first_to)
            if len(m.seats) != m.players:
                raise ValueError(f"matches.seats of match {name} names {len(m.seats)} seats for {m.players} players")
            m.scores = [0.0] * m.players
            m.wins = [0] * m.players
            found: set[int] = set()
            for values in self.db.execute(f"SELECT {SeatRow.columns()} FROM seats WHERE match = ?", (name,)):
                seat = values[0]
                if not isinstance(seat, int) or not 0 <= seat < m.players:
                    raise ValueError(f"the seats table holds a seat {seat!r} for match {name}, of {m.players} players")
                sr = SeatRow.read(values, f"P{seat} of match {name}")
                m.scores[seat] = float(sr.score)
                m.wins[seat] = sr.wins
                found.add(seat)
            if lost := [f"P{p}" for p in range(m.players) if p not in found]:
                # played on, the seat's totals would start again from 0 and the next game's be lost too
                raise ValueError(f"the seats table has no row for {', '.join(lost)} of match {name}: "
                                 f"{'its' if len(lost) == 1 else 'their'} score and wins are lost")
            last = self.db.execute(f"SELECT {GameRow.columns()} FROM games WHERE match = ? ORDER BY number DESC LIMIT 1",
                                   (name,)).fetchone()
            if last is not None:
                g = GameRow.of(last, name)
                g.check_result(name, m.players)
                log = g.log
                kept, kinds = log.get("carried_next"), log.get("carried_kinds")
                m.carried = kept if isinstance(kept, dict) else {}
                m.carried_kinds = {str(k): str(v) for k, v in kinds.items()} if isinstance(kinds, dict) else {}
            return m

    def names(self) -> list[str]:
        with guarded(self.path, "match"):
            return stored_names(self.db, "matches", "match", "updated DESC, name")

    def game_rows(self, name: str) -> list[dict[str, Any]]:
        """The games of a match, first first: number, seed, options, result, log, finished."""
        with guarded(self.path, "match"):
            m = self.get(name)
            players = m.players if m is not None else 0
            out = []
            for values in self.db.execute(f"SELECT {GameRow.columns()} FROM games WHERE match = ? ORDER BY number",
                                          (name,)):
                g = GameRow.of(values, name)
                g.check_result(name, players)
                out.append(g.model_dump())
            return out

    def counted(self, name: str, seed: int, actions: list[Any]) -> int | None:
        """The number of the game of match ``name`` played with this seed and these actions, if it
        is counted already (a finished game resumed again is not counted twice)."""
        with guarded(self.path, "match"):
            for values in self.db.execute(f"SELECT {GameRow.columns()} FROM games WHERE match = ? AND seed = ?",
                                          (name, seed)):
                g = GameRow.of(values, name)
                if g.log.get("actions") == [list(a) for a in actions]:
                    return g.number
            return None

    # -------------------------------------------------------------- writing
    def create(self, name: str, ruleset: str, players: int, options: dict[str, Any], seats: list[str],
               first_to: int | None = None) -> Match:
        with guarded(self.path, "match"):
            if self.get(name) is not None:
                raise error("E503", f"a match named {name!r} already exists in {self.path}")
            now = _now()
            with self.db:
                self.db.execute("INSERT INTO matches (name, ruleset, players, options, seats, games, created, updated, "
                                "first_to) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
                                (name, ruleset, players, json.dumps(options, ensure_ascii=False),
                                 json.dumps(seats), now, now, first_to))
                self.db.executemany("INSERT INTO seats (match, seat, score, wins) VALUES (?, ?, 0, 0)",
                                    [(name, p) for p in range(players)])
            m = self.get(name)
            assert m is not None
            return m

    def record(self, m: Match, result: list[dict[str, Any]], seed: int, options: dict[str, Any],
               log: dict[str, Any], seats: list[str] | None = None) -> Match:
        """Add one finished game: its scores and wins per seat, the game count; saved at once."""
        with guarded(self.path, "match"):
            if len(result) != m.players:
                raise error("E503", f"match {m.name} is for {m.players} players; this game had {len(result)}")
            now = _now()
            number = m.games + 1
            with self.db:
                self.db.execute("INSERT INTO games (match, number, seed, options, result, log, finished) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                (m.name, number, seed, json.dumps(options, ensure_ascii=False),
                                 json.dumps(result, ensure_ascii=False), json.dumps(log, ensure_ascii=False), now))
                for r in result:
                    self.db.execute("UPDATE seats SET score = score + ?, wins = wins + ? WHERE match = ? AND seat = ?",
                                    (float(r.get("score") or 0), 1 if r.get("outcome") == "win" else 0,
                                     m.name, r["player"]))
                self.db.execute("UPDATE matches SET games = ?, options = ?, seats = ?, updated = ? WHERE name = ?",
                                (number, json.dumps(options, ensure_ascii=False),
                                 json.dumps(seats if seats is not None else m.seats), now, m.name))
            new = self.get(m.name)
            assert new is not None
            return new

    def set_first_to(self, m: Match, first_to: int | None) -> Match:
        """A new target for the match (``None``: none): given when it is continued, remembered."""
        with guarded(self.path, "match"):
            with self.db:
                self.db.execute("UPDATE matches SET first_to = ? WHERE name = ?", (first_to, m.name))
            new = self.get(m.name)
            assert new is not None
            return new

    def delete(self, name: str) -> bool:
        with guarded(self.path, "match"):
            with self.db:
                cur = self.db.execute("DELETE FROM matches WHERE name = ?", (name,))
                self.db.execute("DELETE FROM seats WHERE match = ?", (name,))
                self.db.execute("DELETE FROM games WHERE match = ?", (name,))
            return cur.rowcount > 0
