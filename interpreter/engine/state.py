"""The game state: plain data only (lists, tuples, ints, dicts), so it clones cheaply, saves to
JSON exactly, and replays deterministically: its randomness is an integer inside it.

Layout (the compiler relies on it):
  z       zone contents, one list of card ids per zone slot (bottom → top)
  loc     card id → zone slot;  vis: card id → bitmask of players who see it beyond its zone (ALL = face up)
  g       every variable: current, direction, per-player out/place/score/outcome, then the ruleset's
  sq      sequences (dynamic zone rows): per sequence a list of zone slots, front first
  dyn     for zone slots created at run time: (sequence, owner)
  frames  the suspended procedures: [proc, label, locals…]
  stack, items, nitem   the effect stack: item ids, id → [kind, controller, source, times, negated, fields…]
  pend    the pending decision: (site, players) — opts for one player, sopts/schosen for simultaneous ones
  rng     splitmix64 state;  ev: events (tuples);  tally: recorded positions (tcard: of these, those
          holding cards found by their place, key → (compile.record_shape, count));  revealed: revealed variable slots
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Action, Game

_LISTS = ("loc", "vis", "g", "dyn", "stack", "revealed")


class State:
    __slots__ = ("game", "z", "loc", "vis", "g", "sq", "dyn", "frames", "stack", "items", "nitem", "pend",
                 "opts", "sopts", "schosen", "rng", "ev", "tally", "tcard", "over", "capped", "ndec", "phase", "revealed",
                 "ret", "choice", "in_check", "ck_ok", "seed")

    game: Game
    z: list[list[int]]
    loc: list[int]
    vis: list[int]
    g: list[Any]
    sq: list[list[int]]
    dyn: list[tuple[int, int | None]]
    frames: list[list[Any]]
    stack: list[int]
    items: dict[int, list[Any]]
    nitem: int
    pend: tuple[int, tuple[int, ...]] | None
    opts: list[tuple[Any, ...]] | None
    sopts: list[list[tuple[Any, ...]]] | None
    schosen: list[tuple[Any, ...] | None] | None
    rng: int
    ev: list[tuple[Any, ...]]
    tally: dict[str, int]
    tcard: dict[str, tuple[str, int]]
    over: bool
    capped: bool
    ndec: int
    phase: int
    revealed: list[int]
    ret: Any
    choice: Any
    in_check: bool
    ck_ok: bool          # no check condition holds (the last full pass found none); see CHECKS
    seed: int

    # -------------------------------------------------------------- the State API (DESIGN.md §3)
    def to_move(self) -> list[int]:
        """Players who must decide now (several for a simultaneous decision; none when over)."""
        pend = self.pend
        if pend is None:
            return []
        if self.schosen is None:
            return [pend[1][0]]
        return [p for p, c in zip(pend[1], self.schosen, strict=True) if c is None]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        return self.game.legal_actions(self, player)

    def apply(self, player: int, action: Action | str | int) -> None:
        self.game.apply(self, player, action)

    def is_over(self) -> bool:
        return self.over

    def result(self) -> list[dict[str, Any]]:
        return self.game.result(self)

    def view(self, player: int | None, lang: int = 0, said: dict[int, str] | None = None) -> dict[str, Any]:
        """What ``player`` may see (None: a spectator, who sees public information only);
        ``lang`` 1 gives the Japanese halves of labels and log lines; ``said``: observe.view."""
        from .observe import view

        return view(self, player, lang=lang, said=said)

    def restore(self, other: State) -> None:
        """Take back everything from ``other``, a clone of this state taken earlier (a native
        playout that failed is played again from where it began: Game.playout)."""
        for name in State.__slots__:
            setattr(self, name, getattr(other, name))

    def clone(self) -> State:
        s = State.__new__(State)
        s.game = self.game
        s.z = [c[:] for c in self.z]
        s.loc = self.loc[:]
        s.vis = self.vis[:]
        s.g = self.g[:]
        s.sq = [q[:] for q in self.sq]
        s.dyn = self.dyn[:]
        s.frames = [f[:] for f in self.frames]
        s.stack = self.stack[:]
        s.items = {k: v[:] for k, v in self.items.items()}
        s.nitem = self.nitem
        s.pend = self.pend
        s.opts = self.opts
        s.sopts = self.sopts
        s.schosen = self.schosen[:] if self.schosen is not None else None
        s.rng = self.rng
        s.ev = self.ev[:]
        s.tally = dict(self.tally)
        s.tcard = dict(self.tcard)
        s.over = self.over
        s.capped = self.capped
        s.ndec = self.ndec
        s.phase = self.phase
        s.revealed = self.revealed[:]
        s.ret = None
        s.choice = None
        s.in_check = False
        s.ck_ok = self.ck_ok            # the same cards and variables: what held for one holds for both
        s.seed = self.seed
        return s

    def to_json(self) -> dict[str, Any]:
        """Everything needed to continue this game exactly, as JSON-ready data."""
        return {
            "format": "fuda-state/1",
            "game": self.game.ident(),
            "compiled": self.game.fingerprint,
            "seed": self.seed,
            "z": self.z, "loc": self.loc, "vis": self.vis, "g": _jsonable(self.g), "sq": self.sq,
            "dyn": [list(d) for d in self.dyn], "frames": _jsonable(self.frames), "stack": self.stack,
            "items": {str(k): _jsonable(v) for k, v in self.items.items()}, "nitem": self.nitem,
            "pend": _jsonable(self.pend), "opts": _jsonable(self.opts), "sopts": _jsonable(self.sopts),
            "schosen": _jsonable(self.schosen), "rng": self.rng, "ev": _jsonable(self.ev), "tally": self.tally,
            "tcard": self.tcard,
            "over": self.over, "capped": self.capped, "ndec": self.ndec, "phase": self.phase,
            "revealed": self.revealed,
        }

    @staticmethod
    def from_json(data: dict[str, Any], game: Game | None = None) -> State:
        """Rebuild a state saved by ``to_json`` (loading its ruleset unless ``game`` is given)."""
        from .game import state_from_json

        return state_from_json(data, game)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def _jsonable(v: Any) -> Any:
    """Tuples → lists, recursively (JSON has no tuples)."""
    if isinstance(v, tuple | list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    return v


def tuplify(v: Any) -> Any:
    """Lists → tuples, recursively: values inside variables, frames and events are immutable."""
    if isinstance(v, list):
        return tuple(tuplify(x) for x in v)
    return v
