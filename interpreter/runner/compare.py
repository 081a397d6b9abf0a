"""``fuda compare``: two variants of a ruleset, the same seeds, every statistic's difference with a
95% confidence interval and a plain-language verdict.

Games of the two variants with the same seed are paired (the same shuffle, the same seats): a
statistic's difference is then measured game by game, which removes the luck of the deal the two
share. Paired proportions (win rates, draws) get Newcombe's interval for paired data (his method 10,
1998: the two Wilson intervals combined with the correlation φ of the 2×2 table), paired means
(game length, scores) Student's t interval on the per-game differences. Unpaired samples (two studies
of different seeds) fall back to Newcombe's hybrid-score interval for independent proportions and
Welch's t interval for means. A mean of fewer than 2 games (pairs) has no interval and p = 1; a
difference with no spread at all (every pair differs by the same amount) keeps its zero-width interval
but takes the exact p of the sign test (paired) or of the permutation test (unpaired), since t is then
infinite and says nothing about how many games saw it.

A compare tests many statistics at once (every seat's win rate, draws, length, scores): by chance
alone one of ten true nulls would look significant at 95% four times in ten. Each statistic's
p-value is that of its own interval's test (the smallest level at which the interval excludes zero),
and a difference is called significant when the p-value, corrected by Holm's step-down method
(Holm 1979: the family-wise error stays under 5% whatever the statistics' dependence), is under 5%.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .simulate import Summary, simulate, wilson

Z95 = 1.96
ALPHA = math.erfc(Z95 / math.sqrt(2))     # 0.05: the level of the 1.96 intervals, so one test alone agrees with them


def diff_proportion(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """p2 - p1 and its Newcombe interval (95% at the default z)."""
    p1, p2 = (k1 / n1 if n1 else 0.0), (k2 / n2 if n2 else 0.0)
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return d, lo, hi


def _scale(xs: list[float]) -> float:
    """1, or a power of two that brings scores past 1e150 down to where their squares do not
    overflow (a score may be any `number`, up to about 1.8e308): the same result for the rest."""
    top = max((abs(x) for x in xs), default=0.0)
    return 1.0 if top < 1e150 else 2.0 ** (math.frexp(top)[1] - 1)


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function, by the modified Lentz method
    (Numerical Recipes §6.4); converges fast for x < (a + 1) / (a + b + 2)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def _ibeta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def student_p(t: float, df: float) -> float:
    """The two-sided p-value of Student's t with ``df`` degrees of freedom, I_{df/(df+t²)}(df/2, 1/2)
    (exact: scipy is not a dependency). A handful of games has heavier tails than the normal."""
    return _ibeta(df / 2, 0.5, df / (df + t * t))


def student_q(df: float) -> float:
    """The t at which ``student_p`` is ALPHA: the half-width of the 95% interval in standard errors."""
    inside, outside = 0.0, 1e6
    for _ in range(100):
        mid = (inside + outside) / 2
        inside, outside = (mid, outside) if student_p(mid, df) > ALPHA else (inside, mid)
    return outside


def _t_interval(d: float, se: float, df: float) -> tuple[float, float, float]:
    """d's 95% t interval and p-value, the standard error ``se`` > 0."""
    half = student_q(df) * se
    return d - half, d + half, student_p(d / se, df)


def diff_mean(a: list[float], b: list[float]) -> tuple[float, float, float, float, float, float]:
    """mean(a), mean(b), the difference, its 95% Welch t interval (±inf: fewer than 2 games a side)
    and p-value."""
    k = _scale([*a, *b])

    def mv(x: list[float]) -> tuple[float, float]:
        x = [y / k for y in x]
        m = sum(x) / len(x) if x else 0.0
        v = sum((y - m) ** 2 for y in x) / (len(x) - 1) if len(x) > 1 else 0.0
        return m, v
    ma, va = mv(a)
    mb, vb = mv(b)
    na, nb = len(a), len(b)
    d = mb - ma
    if va == vb == 0:   # every game of a side alike: only the permutation test's 2 / C(na + nb, na) is left
        p = 1.0 if d == 0 or not na or not nb else min(1.0, 2 / math.comb(na + nb, na))
        lo, hi = (d, d) if min(na, nb) > 1 else (-math.inf, math.inf)
    elif min(na, nb) < 2:
        lo, hi, p = -math.inf, math.inf, 1.0
    else:
        ea, eb = va / na, vb / nb
        df = (ea + eb) ** 2 / (ea ** 2 / (na - 1) + eb ** 2 / (nb - 1))     # Welch–Satterthwaite
        lo, hi, p = _t_interval(d, math.sqrt(ea + eb), df)
    return ma * k, mb * k, d * k, lo * k, hi * k, p


def diff_paired_proportion(pairs: list[tuple[bool, bool]], z: float = Z95) -> tuple[float, float, float]:
    """p(b) - p(a) over paired yes/no outcomes (a, b), and Newcombe's interval for paired data."""
    return paired_table_diff(*paired_table(pairs), z)


def paired_table(pairs: list[tuple[bool, bool]]) -> tuple[int, int, int, int]:
    """The 2×2 table of paired outcomes: both yes, only a, only b, neither."""
    both = sum(1 for a, b in pairs if a and b)
    only_a = sum(1 for a, b in pairs if a and not b)
    only_b = sum(1 for a, b in pairs if b and not a)
    return both, only_a, only_b, len(pairs) - both - only_a - only_b


def paired_table_diff(both: int, only_a: int, only_b: int, neither: int, z: float = Z95) -> tuple[float, float, float]:
    """Newcombe's method 10 on a 2×2 table of paired outcomes."""
    n = both + only_a + only_b + neither
    if not n:
        return 0.0, 0.0, 0.0
    pa, pb = (both + only_a) / n, (both + only_b) / n
    la, ua = wilson(both + only_a, n, z)
    lb, ub = wilson(both + only_b, n, z)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = (both * neither - only_a * only_b) / math.sqrt(margins) if margins else 0.0
    d = pb - pa
    lo = d - math.sqrt(max((pb - lb) ** 2 - 2 * phi * (pb - lb) * (ua - pa) + (ua - pa) ** 2, 0.0))
    hi = d + math.sqrt(max((ub - pb) ** 2 - 2 * phi * (ub - pb) * (pa - la) + (pa - la) ** 2, 0.0))
    return d, lo, hi


def diff_paired_mean(pairs: list[tuple[float, float]]) -> tuple[float, float, float, float, float, float]:
    """mean(a), mean(b), the mean per-pair difference b - a, its 95% t interval (±inf: fewer than 2
    pairs) and p-value."""
    n = len(pairs)
    if not n:
        return 0.0, 0.0, 0.0, -math.inf, math.inf, 1.0
    k = _scale([x for pair in pairs for x in pair])
    pairs = [(a / k, b / k) for a, b in pairs]
    ds = [b - a for a, b in pairs]
    d = sum(ds) / n
    v = sum((x - d) ** 2 for x in ds) / (n - 1) if n > 1 else 0.0
    if n < 2:
        lo, hi, p = -math.inf, math.inf, 1.0
    elif v == 0:        # n pairs, all of one sign: the sign test's 2^(1 - n)
        lo, hi, p = d, d, 1.0 if d == 0 else 2.0 ** (1 - n)
    else:
        lo, hi, p = _t_interval(d, math.sqrt(v / n), n - 1)
    return (sum(a for a, _ in pairs) / n * k, sum(b for _, b in pairs) / n * k, d * k, lo * k, hi * k, p)


def interval_p(d: float, interval: Callable[[float], tuple[float, float]]) -> float:
    """The two-sided p-value of an interval's own test: the level erfc(z/√2) of the widest interval,
    found by bisection on z, that still excludes zero (a difference of 0 has p = 1)."""
    def excludes(z: float) -> bool:
        lo, hi = interval(z)
        return lo > 0 or hi < 0
    if d == 0 or not excludes(0.0):
        return 1.0
    inside, outside = 0.0, 38.0         # erfc(38/√2) underflows to 0
    if excludes(outside):
        return 0.0
    for _ in range(60):
        mid = (inside + outside) / 2
        inside, outside = (mid, outside) if excludes(mid) else (inside, mid)
    return math.erfc(inside / math.sqrt(2))


def holm(ps: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (in the order given): the i-th smallest is multiplied by
    m - i + 1, kept at least as large as those before it, and capped at 1."""
    m = len(ps)
    out = [1.0] * m
    top = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda i: ps[i])):
        top = max(top, min(1.0, (m - rank) * ps[i]))
        out[i] = top
    return out


def compare(ruleset: str, a: dict[str, Any], b: dict[str, Any], n: int, seed: int = 0, workers: int = 1,
            seats: list[str] | None = None, show_progress: bool = True, rotate: bool = False,
            rulesets: tuple[str, str] | None = None) -> dict[str, Any]:
    """``rulesets``: A's and B's rulesets when they differ (a variant file against its base)."""
    from ..api import load
    from ..errors import error

    ra, rb = rulesets or (ruleset, ruleset)
    na, nb = load(ra, a).n, load(rb, b).n
    if na != nb:
        raise error("E505", f"A is a game of {na} players and B of {nb}: their seats cannot be compared",
                    hint="set the same number on both sides (--players N)")
    sa = simulate(ra, a, n, seed, workers, seats, show_progress, rotate=rotate)
    sb = simulate(rb, b, n, seed, workers, seats, show_progress, rotate=rotate)
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


def paired_games(ga: list[dict[str, Any]], gb: list[dict[str, Any]]) -> list[tuple[Any, Any]] | None:
    """The games of A and B matched by seed, when both sides played exactly the same seeds."""
    by_a = {g["seed"]: g for g in ga}
    by_b = {g["seed"]: g for g in gb}
    if len(by_a) != len(ga) or by_a.keys() != by_b.keys() or not ga:
        return None
    return [(by_a[s], by_b[s]) for s in sorted(by_a)]


def compare_summaries(sa: Summary, sb: Summary, a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    ga, gb = sa.games, sb.games
    pairs = paired_games(ga, gb)

    def row(label: str, kind: str, ma: float, mb: float, d: float, lo: float, hi: float, p: float) -> None:
        """A mean of too few games has no interval: its ci95 is None."""
        rows.append({"statistic": label, "kind": kind, "a": ma, "b": mb, "difference": d,
                     "ci95": [lo, hi] if math.isfinite(lo) and math.isfinite(hi) else None,
                     "p": p, "significant_alone": p < ALPHA})

    def prop(label: str, yes: Any, counts: Any = lambda g: True) -> None:
        """The rate of games where ``yes(g)``, among the games where ``counts(g)``."""
        if pairs is not None:
            table = paired_table([(bool(yes(x)), bool(yes(y))) for x, y in pairs if counts(x) and counts(y)])
            d, lo, hi = paired_table_diff(*table)
            n = sum(table)
            row(label, "rate", (table[0] + table[1]) / n if n else 0.0, (table[0] + table[2]) / n if n else 0.0,
                d, lo, hi, interval_p(d, lambda z: paired_table_diff(*table, z)[1:]))
            return
        xa = [bool(yes(g)) for g in ga if counts(g)]
        xb = [bool(yes(g)) for g in gb if counts(g)]
        ka, kb = sum(xa), sum(xb)
        d, lo, hi = diff_proportion(ka, len(xa), kb, len(xb))
        row(label, "rate", ka / len(xa) if xa else 0.0, kb / len(xb) if xb else 0.0, d, lo, hi,
            interval_p(d, lambda z: diff_proportion(ka, len(xa), kb, len(xb), z)[1:]))

    def mean(label: str, value: Any) -> None:
        if pairs is not None:
            row(label, "mean", *diff_paired_mean([(float(value(x)), float(value(y))) for x, y in pairs]))
        else:
            row(label, "mean", *diff_mean([float(value(g)) for g in ga], [float(value(g)) for g in gb]))

    if any(g["first"] is not None for g in [*ga, *gb]):     # a game everyone starts at once has none
        prop("first-player win rate", lambda g: g["first"] in g["winners"], lambda g: g["first"] is not None)
    for p in range(min(sa.players, sb.players)):
        prop(f"P{p} win rate", lambda g, p=p: p in g["winners"])
    prop("draw rate", lambda g: g["draw"])
    prop("games stopped by the decision limit", lambda g: g["capped"])
    mean("game length (decisions)", lambda g: g["length"])
    for p in range(min(sa.players, sb.players)):
        if any(g["scores"][p] for g in ga) or any(g["scores"][p] for g in gb):
            mean(f"P{p} mean score", lambda g, p=p: g["scores"][p])
    for r, adjusted in zip(rows, holm([r["p"] for r in rows]), strict=True):
        r["p_holm"] = adjusted
        r["significant"] = adjusted < ALPHA
    out = {"ruleset": sa.ruleset, "games": [len(ga), len(gb)], "paired": pairs is not None, "a": a, "b": b,
           "correction": "holm", "tests": len(rows), "rows": rows}
    if sb.ruleset != sa.ruleset:    # two studies of different rulesets (a variant against its base)
        out["rulesets"] = [sa.ruleset, sb.ruleset]
    return out


def p_text(p: float) -> str:
    return "< 0.0001" if p < 0.0001 else f"{p:.4f}" if p < 0.01 else f"{p:.3f}" if p < 0.995 else "1"


def verdict(row: dict[str, Any]) -> str:
    """A statistic's line: its change, its own interval and p-value, and the verdict after Holm's correction."""
    lo, hi = row["ci95"] or (0.0, 0.0)
    p = p_text(row["p"]) if row["p"] < 0.0001 else "= " + p_text(row["p"])
    if row["kind"] == "rate":
        text = (f"{row['statistic']} {row['a']:.1%} → {row['b']:.1%} ({row['difference'] * 100:+.1f} points, "
                f"95% CI [{lo * 100:+.1f}, {hi * 100:+.1f}], p {p})")
    else:
        ci = f"95% CI [{lo:+.2f}, {hi:+.2f}]" if row["ci95"] else "too few games for a 95% CI"
        text = f"{row['statistic']} {row['a']:.2f} → {row['b']:.2f} ({row['difference']:+.2f}, {ci}, p {p})"
    held = p_text(row["p_holm"])
    if row["significant"]:
        return text + f": difference significant at 95% (Holm-corrected p {held if held[0] == '<' else '= ' + held})"
    if row["significant_alone"]:    # the interval excludes 0, but not once the other statistics are counted
        return text + f": no significant difference once corrected for the other statistics (Holm-corrected p = {held})"
    return text + ": no significant difference"


def options_text(opts: dict[str, Any]) -> str:
    """Option values as --set writes them (players=2, stop_at_first_winner=false), or "defaults"."""
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in opts.items()) or "defaults"


def format_compare(r: dict[str, Any]) -> str:
    how = (f"studies {r['studies'][0]} and {r['studies'][1]}" if "studies" in r else "the same seeds")
    if r.get("paired"):
        how += ", paired by seed"
    a, b = r.get("rulesets", [r["ruleset"], r["ruleset"]])
    head = f"A = {a} {options_text(r['a'])}  vs  B = {b} {options_text(r['b'])}" if a != b else \
        f"{a}: A = {options_text(r['a'])}  vs  B = {options_text(r['b'])}"
    lines = [f"{head}  "
             f"({r['games'][0]} and {r['games'][1]} games, {how})"]
    lines.extend("  " + verdict(row) for row in r["rows"])
    lines.append(f"  ({r['tests']} statistics tested at once: each p-value is corrected for them all by Holm–Bonferroni, "
                 "so that the chance of any false 'significant' stays under 5%)")
    return "\n".join(lines)
