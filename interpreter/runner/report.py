"""``fuda report STUDY``: one self-contained HTML page for a stored study — the statistics, the
design heuristics when bots reported estimates, and plots made with matplotlib (win rates with
their 95% intervals, the game-length histogram, score distributions), embedded as PNG."""

from __future__ import annotations

import base64
import html
import io
from typing import Any

from .heuristics import study_measures
from .simulate import Summary, format_stats
from .study import Store


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode()


def plots(stats: dict[str, Any], games: list[dict[str, Any]]) -> list[tuple[str, str]]:
    try:
        import matplotlib
    except ImportError:
        from ..errors import error

        raise error("E505", "fuda report draws with matplotlib: pip install 'fuda[lab]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = []
    seats = stats["seats"]
    fig, ax = plt.subplots(figsize=(6, 3))
    xs = [f"P{s['player']}" for s in seats] + ["first player"]
    ys = [s["win_rate"] for s in seats] + [stats["first_player"]["win_rate"]]
    cis = [s["ci95"] for s in seats] + [stats["first_player"]["ci95"]]
    err = [[y - lo for y, (lo, _) in zip(ys, cis, strict=True)], [hi - y for y, (_, hi) in zip(ys, cis, strict=True)]]
    ax.bar(xs, ys, color=["#4c72b0"] * len(seats) + ["#dd8452"])
    ax.errorbar(xs, ys, yerr=err, fmt="none", ecolor="black", capsize=4)
    ax.axhline(1 / len(seats), color="grey", linestyle="--", linewidth=1)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    out.append(("Win rates", _png(fig)))
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.hist([g["length"] for g in games], bins=40, color="#55a868")
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    out.append(("Game length", _png(fig)))
    plt.close(fig)
    if any(any(g["scores"]) for g in games):
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.boxplot([[g["scores"][p] for g in games] for p in range(len(seats))])
        ax.set_xticks(range(1, len(seats) + 1), [f"P{p}" for p in range(len(seats))])
        ax.set_ylabel("score")
        out.append(("Scores", _png(fig)))
        plt.close(fig)
    return out


def report(store: Store, name: str) -> str:
    study = store.study(name)
    games = store.results(name)
    players = len(games[0]["places"]) if games else 0
    summary = Summary(study.ruleset, len(games), players, 0.0, games)
    stats = summary.stats()
    stats["seconds"], stats["games_per_second"] = 0.0, 0.0
    measures = study_measures(games, players) if games else {}
    figs = plots(stats, games) if games else []
    e = html.escape
    parts = [
        "<!doctype html><meta charset='utf-8'>",
        f"<title>fuda study {e(name)}</title>",
        "<style>body{font-family:sans-serif;max-width:52em;margin:2em auto}pre{background:#f6f6f6;padding:1em}"
        "td,th{padding:.2em .8em;text-align:right}</style>",
        f"<h1>Study {e(name)}</h1>",
        f"<p>Ruleset <b>{e(study.ruleset)}</b>, options {e(str(study.options or 'defaults'))}, seats "
        f"{e(', '.join(study.seats) or 'all random')}{' (rotated a chair each game)' if study.rotate else ''}, base seed {study.base_seed}: {len(games)} of "
        f"{study.games} games stored. Game i was played with seed {study.base_seed}·1000000+i "
        f"(<code>fuda replay {e(study.ruleset)} --seed SEED</code>).</p>",
        "<h2>Statistics</h2><pre>" + e(format_stats(stats).split("\n", 1)[1] if games else "no games yet") + "</pre>",
    ]
    if measures:
        parts.append("<h2>Design heuristics</h2><table>")
        for k in ("fairness", "lead_changes", "drama", "decisiveness", "games_with_estimates"):
            v = measures.get(k)
            parts.append(f"<tr><th>{e(k.replace('_', ' '))}</th><td>"
                         f"{'—' if v is None else (f'{v:.3f}' if isinstance(v, float) else v)}</td></tr>")
        parts.append("</table><p>Lead changes, drama and decisiveness need bots that estimate their chances "
                     "(ISMCTS seats); see docs/balance.md for the definitions.</p>")
    for title, png in figs:
        parts.append(f"<h2>{e(title)}</h2><img alt='{e(title)}' src='data:image/png;base64,{png}'>")
    return "\n".join(parts)
