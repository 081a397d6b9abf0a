"""``fuda compare``: two variants of a ruleset, the same seeds, every statistic's difference with a
95% confidence interval and a plain-language verdict.

Proportions (win rates, draws) are compared with Newcombe's hybrid-score interval for a difference
of two independent proportions (built from the two Wilson intervals); means (game length, scores)
with a normal interval on the difference (Welch). A difference is called significant when its
interval excludes zero.
"""

from __future__ import annotations

import math
from typing import Any

from .simulate import Summary, simulate, wilson


def diff_proportion(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    """p2 - p1 and its Newcombe 95% interval."""
    p1, p2 = (k1 / n1 if n1 else 0.0), (k2 / n2 if n2 else 0.0)
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return d, lo, hi


def diff_mean(a: list[float], b: list[float]) -> tuple[float, float, float, float, float]:
    """mean(a), mean(b), the difference and its 95% interval."""
    def mv(x: list[float]) -> tuple[float, float]:
        m = sum(x) / len(x) if x else 0.0
        v = sum((y - m) ** 2 for y in x) / (len(x) - 1) if len(x) > 1 else 0.0
        return m, v
    ma, va = mv(a)
    mb, vb = mv(b)
    se = math.sqrt(va / max(len(a), 1) + vb / max(len(b), 1))
    d = mb - ma
    return ma, mb, d, d - 1.96 * se, d + 1.96 * se


def compare(ruleset: str, a: dict[str, Any], b: dict[str, Any], n: int, seed: int = 0, workers: int = 1,
            seats: list[str] | None = None, show_progress: bool = True, rotate: bool = False) -> dict[str, Any]:
    sa = simulate(ruleset, a, n, seed, workers, seats, show_progress, rotate=rotate)
    sb = simulate(ruleset, b, n, seed, workers, seats, show_progress, rotate=rotate)
    return compare_summaries(sa, sb, a, b)


def compare_studies(store: Any, a: str, b: str) -> dict[str, Any]:
    """Two studies already stored (``fuda simulate --study``): compared without playing a game."""
    from ..errors import error

    sums = []
    for name in (a, b):
        study = store.study(name)
        games = store.results(name)
        if not games:
            raise error("E505", f"study {name} has no games yet", hint=f"fuda simulate … --study {name} plays them")
        sums.append(Summary(study.ruleset, len(games), len(games[0]["places"]), 0.0, games))
    if sums[0].players != sums[1].players:
        raise error("E505", f"studies {a} and {b} are of {sums[0].players} and {sums[1].players} players: "
                    "their seats cannot be compared")
    r = compare_summaries(sums[0], sums[1], store.study(a).options, store.study(b).options)
    r["studies"] = [a, b]
    return r


def compare_summaries(sa: Summary, sb: Summary, a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []

    def prop(label: str, ka: int, na: int, kb: int, nb: int) -> None:
        d, lo, hi = diff_proportion(ka, na, kb, nb)
        rows.append({"statistic": label, "kind": "rate", "a": ka / na if na else 0.0, "b": kb / nb if nb else 0.0,
                     "difference": d, "ci95": [lo, hi], "significant": lo > 0 or hi < 0})

    def mean(label: str, xa: list[float], xb: list[float]) -> None:
        ma, mb, d, lo, hi = diff_mean(xa, xb)
        rows.append({"statistic": label, "kind": "mean", "a": ma, "b": mb, "difference": d, "ci95": [lo, hi],
                     "significant": lo > 0 or hi < 0})

    ga, gb = sa.games, sb.games
    na, nb = len(ga), len(gb)
    fa = [g for g in ga if g["first"] is not None]
    fb = [g for g in gb if g["first"] is not None]
    prop("first-player win rate", sum(g["first"] in g["winners"] for g in fa), len(fa),
         sum(g["first"] in g["winners"] for g in fb), len(fb))
    for p in range(min(sa.players, sb.players)):
        prop(f"P{p} win rate", sum(p in g["winners"] for g in ga), na, sum(p in g["winners"] for g in gb), nb)
    prop("draw rate", sum(g["draw"] for g in ga), na, sum(g["draw"] for g in gb), nb)
    prop("games stopped by the decision limit", sum(g["capped"] for g in ga), na, sum(g["capped"] for g in gb), nb)
    mean("game length (decisions)", [g["length"] for g in ga], [g["length"] for g in gb])
    for p in range(min(sa.players, sb.players)):
        xa = [float(g["scores"][p]) for g in ga]
        xb = [float(g["scores"][p]) for g in gb]
        if any(xa) or any(xb):
            mean(f"P{p} mean score", xa, xb)
    out = {"ruleset": sa.ruleset, "games": [na, nb], "a": a, "b": b, "rows": rows}
    if sb.ruleset != sa.ruleset:    # two studies of different rulesets (a variant against its base)
        out["rulesets"] = [sa.ruleset, sb.ruleset]
    return out


def verdict(row: dict[str, Any]) -> str:
    lo, hi = row["ci95"]
    if row["kind"] == "rate":
        text = (f"{row['statistic']} {row['a']:.1%} → {row['b']:.1%} ({row['difference'] * 100:+.1f} points, "
                f"95% CI [{lo * 100:+.1f}, {hi * 100:+.1f}])")
    else:
        text = (f"{row['statistic']} {row['a']:.2f} → {row['b']:.2f} ({row['difference']:+.2f}, "
                f"95% CI [{lo:+.2f}, {hi:+.2f}])")
    return text + (": difference significant at 95%" if row["significant"] else ": no significant difference")


def _options(opts: dict[str, Any]) -> str:
    """Option values as --set writes them (players=2, stop_at_first_winner=false), or "defaults"."""
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in opts.items()) or "defaults"


def format_compare(r: dict[str, Any]) -> str:
    how = (f"studies {r['studies'][0]} and {r['studies'][1]}" if "studies" in r else "the same seeds")
    a, b = r.get("rulesets", [r["ruleset"], r["ruleset"]])
    head = f"A = {a} {_options(r['a'])}  vs  B = {b} {_options(r['b'])}" if a != b else \
        f"{a}: A = {_options(r['a'])}  vs  B = {_options(r['b'])}"
    lines = [f"{head}  "
             f"({r['games'][0]} and {r['games'][1]} games, {how})"]
    lines.extend("  " + verdict(row) for row in r["rows"])
    return "\n".join(lines)
