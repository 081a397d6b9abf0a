"""``fuda simulate``: many games between bots, with statistics a designer can trust.

Each game i of a run with base seed S uses the game seed ``S * 1_000_000 + i`` and the bot seeds
derived from it, so ``fuda replay RULESET --seed SEED`` re-runs any single game exactly.
Win rates carry Wilson 95% intervals.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from ..bots.base import make_bot
from ..engine import runtime as R
from ..errors import NO_SPAN, Diagnostic, FudaError, RuleRuntimeError, error


def game_seed(base: int, i: int) -> int:
    return base * 1_000_000 + i


def check_seat_count(seats: list[str], n: int) -> None:
    if len(seats) > n:
        raise FudaError([Diagnostic("E505", f"{len(seats)} seats given for {n} players", NO_SPAN,
                                    "one --seat per player, in seat order")])


def seats_for(seats: list[str], n: int, i: int, rotate: bool = False) -> list[str]:
    """Game i's bot for each of the n players: the given seats, padded with random bots; with
    ``rotate`` shifted i places round the table, so over n games every bot sits in every chair
    once (seats alternated: first player, dealer and colour advantages cancel out)."""
    check_seat_count(seats, n)
    kinds = [seats[p] if p < len(seats) else "random" for p in range(n)]
    k = i % n if rotate else 0
    return kinds[-k:] + kinds[:-k] if k else kinds


def run_game(game: Any, seed: int, seats: list[str], estimates: list[tuple[int, float]] | None = None,
             st: Any = None, progress: Any = None, quiet: bool = False) -> Any:
    """Play one game between bots (the same way for `simulate` and `replay --seed`): all-random
    seats use the engine's playout loop with one generator seeded by the game seed. Bots that
    estimate their chances (ISMCTS) append (player, estimate) to ``estimates`` as they move.
    ``st``: the game's new state, when the caller wants it even if a rule fails on the way;
    ``progress``: called with the state after each bot's decision (slow bots: show that it moves);
    ``quiet``: an all-random game is played without its log (Game.playout), for a caller that reads
    only its outcome."""
    import random

    if st is None:
        st = game.new_state(seed)
    kinds = seats_for(seats, game.n, 0)
    if not game.weighted:       # no `rollout weight` anywhere: a rollout seat is a random one
        kinds = ["random" if k == "rollout" else k for k in kinds]
    if all(k == "random" for k in kinds):
        game.playout(st, random.Random(seed).random, quiet=quiet)
        return st
    bots = [make_bot(k, seed * 1000 + p) for p, k in enumerate(kinds)]
    while not st.over:
        for p in st.to_move():
            legal = game.legal_actions(st, p)
            game.apply_raw(st, p, bots[p].choose(st, p, legal).raw)
            if progress is not None:
                progress(st)
            est = getattr(bots[p], "last_estimate", None)
            if estimates is not None and est is not None:
                estimates.append((p, round(est, 4)))
            if st.over:
                break
    return st


# a game to play: ruleset, options, seed, seats, and the fingerprint of the rules the run began with
Job = tuple[str, dict[str, Any], int, list[str], str]


def play_one(ruleset: str, options: dict[str, Any], seed: int, seats: list[str],
             fingerprint: str | None = None) -> dict[str, Any]:
    """One bot game; a summary of its outcome. ``fingerprint``: the rules the run began with (a file
    edited during a run must not mix two rulesets in one table of results)."""
    from ..api import load

    changed = f"{ruleset} (or a ruleset it extends) changed while the games were played"
    hint = ("run it again — with --study, under a new name: the stored games are of the old rules; to edit "
            "while a run goes on, simulate a copy of the file")
    try:
        game = load(ruleset, options)
    except FudaError as e:
        if fingerprint is None:
            raise
        # the file was fine when the run began: say so before what is wrong with it now
        raise FudaError([Diagnostic("E505", f"{changed}, and no longer loads:", NO_SPAN, hint), *e.diagnostics],
                        e.sources) from None
    if fingerprint is not None and game.fingerprint != fingerprint:
        raise error("E505", f"{changed}: the results would mix two rulesets, and their seeds would not replay", hint=hint)
    estimates: list[tuple[int, float]] = []
    try:
        st = game.new_state(seed)
        first = first_player(game, st)                 # read now: the game's log is not kept
        late = first is None and not st.over            # a simultaneous opening: the log is kept,
        st = run_game(game, seed, seats, estimates, st=st, quiet=not late)     # to find who goes first after it
        if late:
            first = first_after_simultaneous(game, st)
    except RuleRuntimeError as e:    # say which game, so that it can be replayed
        where = f"{e.first.hint}\n  " if e.first.hint else ""     # the calls that led there, kept
        raise RuleRuntimeError([replace(e.first, hint=f"{where}in the game with seed {seed}: "
                                        f"{replay_command(ruleset, options, seed, seats)} shows it")]
                               + e.diagnostics[1:], e.sources) from None
    res = game.result(st)
    return {"seed": seed, "winners": [r["player"] for r in res if r["outcome"] == "win"],
            "draw": all(r["outcome"] == "draw" for r in res), "places": [r["place"] for r in res],
            "scores": [r["score"] for r in res], "length": st.ndec, "capped": st.capped, "first": first,
            **({"first_late": True} if late and first is not None else {}),
            "estimates": estimates, "seats": seats_for(seats, game.n, 0),
            "roles": roles(st), **({"sides": sides(game, st)} if estimates and game.allies_fn else {})}


def sides(game: Any, st: Any) -> list[int]:
    """Each player's side, named by its first seat: the ruleset's ``allies`` read at the game's end
    (when a secret partner is known), so that the heuristics count a lead passing between partners
    as no change."""
    return [next(q for q in range(game.n) if q == p or game.allied(st, p, q)) for p in range(game.n)]


SHOWN_SEEDS = 5      # draws and capped games: this many seeds are named, to replay them


def first_player(game: Any, st: Any) -> int | None:
    """At the first decision of a new game: whose turn it is (the rules' first `turn`, if one has
    begun), else who is asked first, unless everyone chooses at once."""
    turn = next((ev[2] for ev in st.ev if ev[0] == R.EV_TURN), None)
    if turn is not None:
        return int(turn)
    if st.over or st.pend is None or game.sites[st.pend[0]].kind == "simul":
        return None
    return int(st.to_move()[0])


def first_after_simultaneous(game: Any, st: Any) -> int | None:
    """For a game that opens with a simultaneous decision (Skull's placement): the first player
    whose turn begins after it, or who is the first asked alone, as the log tells."""
    for ev in st.ev:
        if ev[0] == R.EV_TURN or ev[0] == R.EV_ACT and game.sites[ev[3]].kind != "simul":
            return int(ev[2])
    return None


def replay_command(ruleset: str, options: dict[str, Any], seed: int | str, seats: list[str]) -> str:
    """The command that re-runs one game of a simulation."""
    import shlex

    words = ["fuda", "replay", ruleset, "--seed", str(seed)]
    for k in seats if any(k != "random" for k in seats) else []:
        words += ["--seat", k]
    for k, v in options.items():
        words += ["--set", f"{k}={str(v).lower() if isinstance(v, bool) else v}"]
    return " ".join(shlex.quote(w) for w in words)


def roles(st: Any) -> dict[str, int]:
    """Who played each part the ruleset declares a ``role`` (a dealer, a secret partner), as far as a spectator
    sees it at the end, so results can be split by role."""
    from ..engine.observe import var_visible

    return {v.name: st.g[v.slot] for v in st.game.prog.vars[5:]
            if v.decl is not None and v.decl.role and isinstance(st.g[v.slot], int)
            and var_visible(st, v.slot, v.visibility, None, None)}


def _work(args: Job) -> dict[str, Any]:
    from .bench import paused_gc

    with paused_gc():
        return play_one(*args)


def _quiet_on_interrupt() -> None:
    """Workers leave Ctrl-C to the main process, which stops them and keeps what is stored (they
    printed a traceback each); the pool ends them with SIGTERM, which the fuda command turns into
    an interrupt for itself: a worker takes it plainly."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean(xs: list[Any]) -> float:
    """The mean of scores: any `number` may be scored (up to about 1.8e308), and the sum of a few
    such overflows where their mean does not (ints: "too large for a float"; floats: inf)."""
    n = len(xs)
    if not n:
        return 0.0
    try:
        m = sum(xs) / n
    except OverflowError:
        m = math.inf
    return m if math.isfinite(m) else sum(x / n for x in xs)


@dataclass
class Summary:
    ruleset: str
    n: int
    players: int
    seconds: float
    games: list[dict[str, Any]] = field(default_factory=list)
    played: int | None = None       # games played in this run (a resumed study has the others stored)

    def stats(self) -> dict[str, Any]:
        n = len(self.games)
        played = n if self.played is None else self.played
        out: dict[str, Any] = {"ruleset": self.ruleset, "games": n, "played": played,
                               "seconds": round(self.seconds, 3),
                               "games_per_second": _rate(played / self.seconds) if self.seconds and played else None}
        seats = []
        for p in range(self.players):
            w = sum(1 for g in self.games if p in g["winners"])
            lo, hi = wilson(w, n)
            scores = [g["scores"][p] for g in self.games]
            seats.append({"player": p, "wins": w, "win_rate": w / n if n else 0.0, "ci95": [lo, hi],
                          "mean_score": mean(scores),
                          "mean_place": sum(g["places"][p] for g in self.games) / n if n else 0.0})
        out["seats"] = seats
        bots = self.bot_stats()
        if len(bots) > 1:
            out["bots"] = bots
        by_role = self.role_stats()
        if by_role:         # also with one kind of bot: what the dealer's chair is worth
            out["bots_by_role"] = by_role
        if n and self.players > 1 and all(len(set(g["places"])) == 1 and not g["draw"] for g in self.games):
            # every game ended alike for every seat (`win players`, `lose players`): a cooperative game,
            # whose one result is the table's — and whose first player's rate means nothing
            w = sum(1 for g in self.games if len(g["winners"]) == self.players)
            out["table"] = {"wins": w, "win_rate": w / n, "ci95": list(wilson(w, n))}
        firsts = [g for g in self.games if g["first"] is not None]
        fw = sum(1 for g in firsts if g["first"] in g["winners"])
        out["first_player"] = {"games": len(firsts), "wins": fw, "win_rate": fw / len(firsts) if firsts else 0.0,
                               "ci95": list(wilson(fw, len(firsts))),
                               "after_simultaneous": sum(1 for g in firsts if g.get("first_late"))}
        lengths = sorted(g["length"] for g in self.games)
        if lengths:
            def pct(q: float) -> int:
                return lengths[min(len(lengths) - 1, int(q * len(lengths)))]
            out["length"] = {"mean": sum(lengths) / n, "p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99),
                             "max": lengths[-1]}
        out["draws"] = sum(1 for g in self.games if g["draw"])
        out["capped"] = sum(1 for g in self.games if g["capped"])
        # which games to replay (fuda replay RULESET --seed S): the first few of each
        out["draw_seeds"] = [g["seed"] for g in self.games if g["draw"]][:SHOWN_SEEDS]
        out["capped_seeds"] = [g["seed"] for g in self.games if g["capped"]][:SHOWN_SEEDS]
        return out


    def bot_stats(self) -> list[dict[str, Any]]:
        """Results per bot kind over every chair it took (what a seat-alternated run measures)."""
        chairs: dict[str, list[tuple[dict[str, Any], int]]] = {}
        for g in self.games:
            kinds = g.get("seats") or ["random"] * self.players
            for p, k in enumerate(kinds):
                chairs.setdefault(k, []).append((g, p))
        out = []
        for k, cs in chairs.items():
            m = len(cs)
            w = sum(1 for g, p in cs if p in g["winners"])
            first = sum(1 for g, p in cs if g["places"][p] == 1)
            out.append({"bot": k, "chairs": m, "wins": w, "win_rate": w / m, "ci95": list(wilson(w, m)),
                        "first_place": first / m, "mean_score": mean([g["scores"][p] for g, p in cs]),
                        "mean_place": sum(g["places"][p] for g, p in cs) / m})
        return out


    def role_stats(self) -> list[dict[str, Any]]:
        """Each bot's results in each public role it held (``roles`` of the game summaries)."""
        acc: dict[tuple[str, str], list[int]] = {}
        for g in self.games:
            kinds = g.get("seats") or ["random"] * self.players
            for role, p in (g.get("roles") or {}).items():
                a = acc.setdefault((role, kinds[p]), [0, 0])
                a[0] += 1
                a[1] += p in g["winners"]
        return [{"role": r, "bot": k, "games": m, "wins": w, "win_rate": w / m, "ci95": list(wilson(w, m))}
                for (r, k), (m, w) in sorted(acc.items())]


def progress(done: int, total: int, start: float, stream: Any = None) -> None:
    stream = stream or sys.stderr       # the stream of the moment (not the one at import)
    el = time.perf_counter() - start
    rate = done / el if el > 0 else 0.0
    eta = (total - done) / rate if rate > 0 else 0.0
    bar = int(30 * done / total) if total else 30
    line = f"\r[{'#' * bar}{'.' * (30 - bar)}] {done}/{total}  {rate:,.0f} games/s  ETA {eta:,.0f}s "
    if stream.isatty() or done == total:
        stream.write(line + ("\n" if done == total else ""))
        stream.flush()


def iter_games(jobs: list[Job], workers: int = 1,
               show_progress: bool = True, backend: str = "local", address: str | None = None
               ) -> Iterator[dict[str, Any]]:
    """Play the jobs, yielding each game's summary as it finishes (in any order): in this process,
    in ``workers`` local processes, or on a Ray cluster (``backend="ray"``; results are identical)."""
    n = len(jobs)
    start = time.perf_counter()
    step = max(1, n // 200)
    done = 0

    def tick() -> None:
        if show_progress and (done % step == 0 or done == n):
            progress(done, n, start)

    if backend == "ray":
        yield from _ray_games(jobs, address, tick_progress=(show_progress, start))
        return
    if backend != "local":
        raise error("E505", f"unknown backend {backend!r}", hint="local or ray")
    workers = min(workers, n)      # a process per game at most: --workers 100000 for 2 games forked 100000
    if workers <= 1:
        for j in jobs:
            g = _work(j)
            done += 1
            tick()
            yield g
        return
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    # random games are cheap: batches save the hand-over; a searching bot's game is slow, so each
    # comes back (and into a study) as soon as it ends
    cheap = all(s == "random" for j in jobs for s in j[3])
    chunk = max(1, min(64, n // (workers * 8) or 1)) if cheap else 1
    with ctx.Pool(workers, initializer=_quiet_on_interrupt) as pool:
        for g in pool.imap_unordered(_work, jobs, chunksize=chunk):
            done += 1
            tick()
            yield g


def _ray_games(jobs: list[Job], address: str | None,
               tick_progress: tuple[bool, float]) -> Iterator[dict[str, Any]]:
    try:
        import ray
    except ImportError:
        raise error("E505", "the ray backend needs Ray: pip install 'fuda[ray]'") from None
    ray.init(address=address, ignore_reinit_error=True, log_to_driver=False, include_dashboard=False)
    remote = ray.remote(_work_batch)
    batches = [jobs[i:i + 64] for i in range(0, len(jobs), 64)]
    pending = [remote.remote(b) for b in batches]
    done = 0
    show, start = tick_progress
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for g in ray.get(ready[0]):
            done += 1
            if show:
                progress(done, len(jobs), start)
            yield g


def _work_batch(jobs: list[Job]) -> list[dict[str, Any]]:
    return [_work(j) for j in jobs]


def simulate(ruleset: str, options: dict[str, Any], n: int, seed: int = 0, workers: int = 1,
             seats: list[str] | None = None, show_progress: bool = True, backend: str = "local",
             address: str | None = None, rotate: bool = False) -> Summary:
    from ..api import load

    game = load(ruleset, options)          # fail early (and compile once before forking)
    jobs = [(ruleset, options, game_seed(seed, i), seats_for(seats or [], game.n, i, rotate), game.fingerprint)
            for i in range(n)]
    start = time.perf_counter()
    games = list(iter_games(jobs, workers, show_progress, backend, address))
    games.sort(key=lambda g: g["seed"])
    return Summary(ruleset, n, game.n, time.perf_counter() - start, games)


CAPPED_HINT = 0.05      # more games than this stopped at the decision limit: say what may help


def simulate_hints(stats: dict[str, Any], seats: list[str], weighted: bool, evaluates: bool) -> list[str]:
    """What to try when the numbers say little: many games stopped at the decision limit (random
    seats that never finish: an Uno with house rules), or searching seats that play every rollout
    to the game's end, slowly, for want of an `evaluate` (the hint `fuda bench --bot ismcts` gives)."""
    out = []
    games, capped = stats["games"], stats.get("capped", 0)
    kinds = {k.partition(":")[0] for k in seats} | ({"random"} if len(seats) < len(stats["seats"]) else set())
    if games and capped > CAPPED_HINT * games:
        if "random" in kinds:
            cure = ("play `--seat rollout` at each seat (the ruleset's `rollout weight`s)" if weighted else
                    "give the options `rollout weight`s (playing a card weighs more than drawing one) and play "
                    "`--seat rollout` at each seat")
            out.append(f"{capped} of {games} games stopped at the decision limit: random seats may play on for "
                       f"ever; {cure}, or raise `limit` (language.md §28 and §21 in the fuda source)")
        else:       # the seats are already the ruleset's rollout players, or searching ones
            cure = "weigh the options that bring the end nearer more (`rollout weight`)" if "rollout" in kinds \
                else "check that the rules can end"
            out.append(f"{capped} of {games} games stopped at the decision limit: {cure}, or raise `limit` "
                       "(language.md §28 and §21 in the fuda source)")
    searching = [k for k in seats if k.partition(":")[0] in ("ismcts", "persona")]
    length = stats.get("length", {}).get("mean", 0)
    if searching and not evaluates and length > 40 and stats.get("played"):
        # their share of the decisions took (nearly) all the time: about this long a move
        move = stats["seconds"] / stats["played"] / (length * len(searching) / len(stats["seats"]))
        if move > 1:
            out.append(f"the searching seats took about {move:.1f} s a move: their random rollouts play this "
                       f"ruleset to its end ({length:.0f} decisions a game); declare `evaluate … after N "
                       "decisions` to cut them short (docs/bots.md in the fuda source)")
    return out


def _rate(x: float) -> float:
    """Games a second, to one decimal — or to three significant digits when slower than that."""
    return round(x, 1) if x >= 0.1 else float(f"{x:.3g}")


def format_stats(s: dict[str, Any]) -> str:
    played = s.get("played", s["games"])
    rate = s["games_per_second"]
    speed = "no game played now" if not rate else f"{rate:,} games/s" if rate >= 0.1 else f"{1 / rate:,.0f} s a game"
    games = f"{s['games']} game{'s' if s['games'] != 1 else ''}"
    lines = [f"{s['ruleset']}: {games} in {s['seconds']:.2f}s ({speed})" if played == s["games"] else
             f"{s['ruleset']}: {games}, {played} of them played now in {s['seconds']:.2f}s ({speed}), "
             "the others stored"]
    lines.append("seat  wins   win rate  95% CI            mean score  mean place")
    for x in s["seats"]:
        lo, hi = x["ci95"]
        lines.append(f"P{x['player']:<4} {x['wins']:<6} {x['win_rate']:8.1%}  [{lo:6.1%}, {hi:6.1%}]  "
                     f"{x['mean_score']:10.2f}  {x['mean_place']:10.2f}")
    fp = s["first_player"]
    lo, hi = fp["ci95"]
    if "table" in s:
        t = s["table"]
        lo, hi = t["ci95"]
        lines.append(f"every game ended alike for every seat (a cooperative game): the table won {t['wins']} "
                     f"of {s['games']}, {t['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]")
    elif fp["games"] and len(s["seats"]) > 1:      # a lone player's seat line says it all (a patience)
        # against the rate of a seat on average: where everyone but one wins, that is the base line
        base = sum(x["win_rate"] for x in s["seats"]) / len(s["seats"]) if s["seats"] else 0.0
        lines.append(f"first player wins {fp['win_rate']:.1%} [{lo:.1%}, {hi:.1%}] of {fp['games']} games "
                     f"(a seat on average: {base:.1%})")
        if fp.get("after_simultaneous"):
            lines.append(f"  (in {fp['after_simultaneous']} of them everyone chose at once first: the first player is "
                         "the first to take a turn, or decide alone, after that)")
    if "length" in s:
        ln = s["length"]
        lines.append(f"length (decisions): mean {ln['mean']:.1f}, median {ln['p50']}, p90 {ln['p90']}, "
                     f"p99 {ln['p99']}, max {ln['max']}")
    if "bots" in s:
        lines.append("bot               chairs  wins   win rate  95% CI            1st place  mean score  mean place")
        for b in s["bots"]:
            lo, hi = b["ci95"]
            lines.append(f"{b['bot']:<17} {b['chairs']:<7} {b['wins']:<6} {b['win_rate']:8.1%}  [{lo:6.1%}, {hi:6.1%}]  "
                         f"{b['first_place']:9.1%}  {b['mean_score']:10.2f}  {b['mean_place']:10.2f}")
    wide = max((len(r["role"]) for r in s.get("bots_by_role", [])), default=0) + 1
    for r in s.get("bots_by_role", []):
        lo, hi = r["ci95"]
        lines.append(f"  as {r['role'] + ':':<{wide}} {r['bot']:<17} {r['wins']:>5}/{r['games']:<5} wins "
                     f"{r['win_rate']:6.1%}  [{lo:6.1%}, {hi:6.1%}]")
    seeds = {k: f" (seeds {', '.join(map(str, s[k]))}{', …' if len(s[k]) < n else ''})" if s[k] else ""
             for k, n in (("draw_seeds", s["draws"]), ("capped_seeds", s["capped"]))}
    lines.append(f"draws: {s['draws']}{seeds['draw_seeds']}   games stopped by the decision limit: "
                 f"{s['capped']}{seeds['capped_seeds']}")
    return "\n".join(lines)
