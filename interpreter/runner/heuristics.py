"""Design heuristics from the literature on evaluating generated card games (CardStock, Bell &
Goadrich; Browne's aesthetic measures), computed from what bots believe along a game: every ISMCTS
decision records the mover's estimated result (0…1). Per game we keep each player's latest estimate.

- lead changes: how often the lead passes to another side (the side of the player with the highest
  latest estimate): partners overtaking each other is no change;
- drama: how far behind the eventual winners were, on average over the game (0 when always ahead);
- decisiveness: the share of the game played after the eventual winners last took the lead
  (1 = they led from the start, 0 = decided at the very end);
- fairness (over a study): 1 minus the spread of the seats' win rates (1 = every seat wins equally).
The winners are one player or a side (a team of two or more): a side leads when its best
estimate is the highest. The sides are the game's ``sides`` (one seat per player, from the ruleset's
``allies`` at the game's end); without them the winners are one side and every other player its own.
Games without estimates (random bots), or that nobody (or everybody) won, are left out of the first
three.
"""

from __future__ import annotations

from typing import Any


def game_measures(g: dict[str, Any], players: int) -> dict[str, float] | None:
    est = g.get("estimates") or []
    won = set(g["winners"])
    if not est or not won or len(won) == players:
        return None
    sides = g.get("sides") or [min(won) if q in won else q for q in range(players)]
    latest = [1.0 / players] * players
    leader = None
    changes = 0
    deficit = 0.0
    last_lead = 0
    for t, (p, e) in enumerate(est):
        latest[p] = e
        best = max(range(players), key=lambda q: (latest[q], q == leader))
        if leader is not None and sides[best] != sides[leader]:
            changes += 1
        if best in won and leader not in won:
            last_lead = t
        leader = best
        others = max(latest[q] for q in range(players) if q not in won)
        deficit += max(0.0, others - max(latest[q] for q in won))
    total = len(est)
    decided = 1.0 - last_lead / total if leader in won else 0.0
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
