"""How many cards the second player chose on their first draw of 戦列札, in the games of a stored
study (each game replayed from its seed up to that decision), and how often they then won.

    python docs/balance/first_draws.py balance.sqlite ismcts-3to6
"""
import collections
import json
import sqlite3
import sys

from interpreter.api import load
from interpreter.runner.simulate import make_bot

db, study = sys.argv[1], sys.argv[2]
rows = [json.loads(r[0]) for r in sqlite3.connect(db).execute(
    "select result from games where study=? order by idx", (study,))]
game = load("senretsu", {})
chosen: collections.Counter[int] = collections.Counter()
won: collections.Counter[int] = collections.Counter()
for g in rows:
    seed = g["seed"]
    st = game.new_state(seed)
    bots = [make_bot(kind, seed * 1000 + p) for p, kind in enumerate(g["seats"])]
    found = False
    while not st.over and not found:
        for p in st.to_move():
            action = bots[p].choose(st, p, game.legal_actions(st, p))
            if action.id.startswith("draw "):          # the 3–6 choice
                k = int(action.id.split()[1])
                chosen[k] += 1
                won[k] += p in g["winners"]
                found = True
                break
            game.apply_raw(st, p, action.raw)
for k in sorted(chosen):
    print(f"draw {k}: chosen in {chosen[k]} games, won {won[k]} ({won[k] / chosen[k]:.0%})")
