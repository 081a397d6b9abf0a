"""Design heuristics from the literature on evaluating generated card games (CardStock, Bell &
Goadrich; Browne's aesthetic measures), computed from what bots believe along a game: every ISMCTS
decision records the mover's estimated result (0…1). Per game we keep each player's latest estimate.

- lead changes: how often the player with the highest latest estimate changes;
- drama: how far behind the eventual winner was, on average over the game (0 when always ahead);
- decisiveness: the share of the game played after the eventual winner last took the lead
  (1 = the winner led from the start, 0 = decided at the very end);
- fairness (over a study): 1 minus the spread of the seats' win rates (1 = every seat wins equally).
Games without estimates (random bots) or without a single winner are left out of the first three.
"""

from __future__ import annotations

from typing import Any


def game_measures(g: dict[str, Any], players: int) -> dict[str, float] | None:
    est = g.get("estimates") or []
    if not est or len(g["winners"]) != 1:
        return None
    w = g["winners"][0]
    latest = [1.0 / players] * players
    leader = None
    changes = 0
    deficit = 0.0
    last_lead = 0
    for t, (p, e) in enumerate(est):
        latest[p] = e
        best = max(range(players), key=lambda q: (latest[q], q == leader))
        if leader is not None and best != leader:
            changes += 1
        if best == w and leader != w:
            last_lead = t
        leader = best
        others = max(latest[q] for q in range(players) if q != w)
        deficit += max(0.0, others - latest[w])
    total = len(est)
    decided = 1.0 - last_lead / total if leader == w else 0.0
    return {"lead_changes": float(changes), "drama": deficit / total, "decisiveness": decided}


def study_measures(games: list[dict[str, Any]], players: int) -> dict[str, Any]:
    per = [m for m in (game_measures(g, players) for g in games) if m is not None]
    n = len(games)
    rates = [sum(p in g["winners"] for g in games) / n for p in range(players)] if n else []
    out: dict[str, Any] = {"fairness": 1.0 - (max(rates) - min(rates)) if rates else None,
                           "games_with_estimates": len(per)}
    for k in ("lead_changes", "drama", "decisiveness"):
        out[k] = sum(m[k] for m in per) / len(per) if per else None
    return out
