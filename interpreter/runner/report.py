"""``fuda report STUDY [STUDY…]``: one self-contained HTML page for stored studies — the
statistics, the design heuristics when bots reported estimates, and plots made with matplotlib (win
rates with their 95% intervals, per bot when seats differ, the game-length histogram, score
distributions), embedded as PNG. Several studies (variants of one experiment) also get a side-by-side
comparison first."""

from __future__ import annotations

import base64
import html
import io
from typing import Any

from .compare import options_text
from .heuristics import study_measures
from .simulate import Summary, format_stats, replay_command
from .study import Store


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode()


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        from ..errors import error

        raise error("E505", "fuda report draws with matplotlib: pip install 'fuda[lab]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _rate_bars(ax: Any, xs: list[str], rates: list[tuple[float, list[float]]], colours: list[str]) -> None:
    """Bars of rates with their 95% intervals as error bars."""
    ys = [r for r, _ in rates]
    err = [[max(0.0, y - ci[0]) for y, (_, ci) in zip(ys, rates, strict=True)],    # 1 - 1e-16: not below
           [max(0.0, ci[1] - y) for y, (_, ci) in zip(ys, rates, strict=True)]]
    ax.bar(xs, ys, color=colours)
    ax.errorbar(xs, ys, yerr=err, fmt="none", ecolor="black", capsize=4)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    if len(xs) > 4 or max((len(x) for x in xs), default=0) > 8:     # long labels would overlap
        ax.tick_params(axis="x", labelrotation=30)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")


def plots(stats: dict[str, Any], games: list[dict[str, Any]]) -> list[tuple[str, str]]:
    plt = _pyplot()
    out = []
    seats = stats["seats"]
    bots = stats.get("bots", [])
    fig, ax = plt.subplots(figsize=(6, 3))
    _rate_bars(ax, [f"P{s['player']}" for s in seats] + ["first player"] + [b["bot"] for b in bots],
               [(s["win_rate"], s["ci95"]) for s in seats] + [(stats["first_player"]["win_rate"],
                                                               stats["first_player"]["ci95"])]
               + [(b["win_rate"], b["ci95"]) for b in bots],
               ["#4c72b0"] * len(seats) + ["#dd8452"] + ["#8172b3"] * len(bots))
    ax.axhline(1 / len(seats), color="grey", linestyle="--", linewidth=1)
    out.append(("Win rates", _png(fig)))
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.hist([g["length"] for g in games], bins=40, color="#55a868")
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    out.append(("Game length", _png(fig)))
    plt.close(fig)
    scores = [abs(x) for g in games for x in g["scores"]]
    if any(scores) and max(scores) < 1e300:     # an axis up to 1.8e308 overflows in the plotting library
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.boxplot([[g["scores"][p] for g in games] for p in range(len(seats))])
        ax.set_xticks(range(1, len(seats) + 1), [f"P{p}" for p in range(len(seats))])
        ax.set_ylabel("score")
        out.append(("Scores", _png(fig)))
        plt.close(fig)
    return out


def comparison(store: Store, names: list[str]) -> tuple[str, list[tuple[str, str]]]:
    """Several studies side by side: a table of the headline statistics and the first player's win
    rate per study with its interval."""
    rows = []
    for name in names:
        games = store.results(name)
        st = Summary(store.study(name).ruleset, len(games), len(games[0]["places"]) if games else 0, 0.0,
                     games).stats()
        rows.append((name, st))
    e = html.escape
    table = ["<table><tr><th>study</th><th>games</th><th>first player wins</th><th>95% CI</th>"
             "<th>mean length</th><th>median</th><th>capped</th></tr>"]
    for name, st in rows:
        fp = st["first_player"]
        ln = st.get("length", {})
        table.append(f"<tr><th>{e(name)}</th><td>{st['games']}</td><td>{fp['win_rate']:.1%}</td>"
                     f"<td>[{fp['ci95'][0]:.1%}, {fp['ci95'][1]:.1%}]</td><td>{ln.get('mean', 0):.1f}</td>"
                     f"<td>{ln.get('p50', '')}</td><td>{st['capped']}</td></tr>")
    table.append("</table>")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 3))
    _rate_bars(ax, [n for n, _ in rows], [(st["first_player"]["win_rate"], st["first_player"]["ci95"])
                                          for _, st in rows], ["#dd8452"] * len(rows))
    if rows and rows[0][1]["seats"]:
        ax.axhline(1 / len(rows[0][1]["seats"]), color="grey", linestyle="--", linewidth=1)
    ax.set_ylabel("first player's win rate (95% CI)")
    fig_png = _png(fig)
    plt.close(fig)
    return "\n".join(table), [("First player's win rate by study", fig_png)]


def report(store: Store, name: str | list[str]) -> str:
    """The HTML page; with several study names, a comparison first, then each study."""
    names = [name] if isinstance(name, str) else name
    sections = [_study_section(store, n, level=2 if len(names) > 1 else 1) for n in names]
    head = ["<!doctype html><meta charset='utf-8'>",
            f"<title>fuda study {html.escape(', '.join(names))}</title>",
            "<style>body{font-family:sans-serif;max-width:52em;margin:2em auto}pre{background:#f6f6f6;padding:1em}"
            "td,th{padding:.2em .8em;text-align:right}</style>"]
    if len(names) > 1:
        table, figs = comparison(store, names)
        head.append(f"<h1>Studies {html.escape(', '.join(names))}</h1><h2>Side by side</h2>{table}")
        head += [f"<img alt='{html.escape(t)}' src='data:image/png;base64,{png}'>" for t, png in figs]
    return "\n".join(head + sections)


def report_plots(store: Store, names: list[str]) -> list[tuple[str, str]]:
    """Every plot of the report as (file name, base64 PNG), for ``fuda report --plots DIR``."""
    import re

    out = []
    if len(names) > 1:
        out += [("compare-" + re.sub(r"\W+", "-", t.lower()).strip("-"), png) for t, png in comparison(store, names)[1]]
    for name in names:
        games = store.results(name)
        if not games:
            continue
        stats = Summary(store.study(name).ruleset, len(games), len(games[0]["places"]), 0.0, games).stats()
        out += [(f"{name}-" + re.sub(r"\W+", "-", t.lower()).strip("-"), png) for t, png in plots(stats, games)]
    return out


def _study_section(store: Store, name: str, level: int = 1) -> str:
    study = store.study(name)
    games = store.results(name)
    players = len(games[0]["places"]) if games else 0
    summary = Summary(study.ruleset, len(games), players, 0.0, games)
    stats = summary.stats()
    stats["seconds"], stats["games_per_second"] = 0.0, 0.0
    measures = study_measures(games, players) if games else {}
    figs = plots(stats, games) if games else []
    e = html.escape
    h, h2 = f"h{level}", f"h{level + 1}"
    parts = [
        f"<{h}>Study {e(name)}</{h}>",
        f"<p>Ruleset <b>{e(study.ruleset)}</b>, options {e(options_text(study.options))}, seats "
        f"{e(', '.join(study.seats) or 'all random')}{' (rotated a chair each game)' if study.rotate else ''}, "
        f"base seed {study.base_seed}: {len(games)} of "
        f"{study.games} games stored. Game i was played with seed {study.base_seed}·1000000+i "
        f"(<code>{e(replay_command(study.ruleset, study.options, 'SEED', study.seats))}</code>"
        f"{', with each game’s seats, shifted a chair a game' if study.rotate else ''}).</p>",
        f"<{h2}>Statistics</{h2}><pre>" + e(format_stats(stats).split("\n", 1)[1] if games else "no games yet") + "</pre>",
    ]
    if measures:
        parts.append(f"<{h2}>Design heuristics</{h2}><table>")
        for k in ("fairness", "lead_changes", "drama", "decisiveness", "games_with_estimates"):
            v = measures.get(k)
            parts.append(f"<tr><th>{e(k.replace('_', ' '))}</th><td>"
                         f"{'—' if v is None else (f'{v:.3f}' if isinstance(v, float) else v)}</td></tr>")
        parts.append("</table><p>Lead changes, drama and decisiveness need bots that estimate their chances "
                     "(ISMCTS seats); see docs/balance.md in the fuda source for the definitions.</p>")
    for title, png in figs:
        parts.append(f"<{h2}>{e(title)}</{h2}><img alt='{e(title)}' src='data:image/png;base64,{png}'>")
    return "\n".join(parts)
