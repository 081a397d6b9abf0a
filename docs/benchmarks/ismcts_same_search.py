"""The same ISMCTS searches (150 iterations from six positions along random games, seed 0), timed:
best of three rounds, and the moves chosen. Run it on two checkouts to compare them:
`python docs/benchmarks/ismcts_same_search.py super_page_one`."""
import random, sys, time
from interpreter.api import load
from interpreter.bots.ismcts import ISMCTS
name = sys.argv[1]
game = load(name)
rng = random.Random(0)
sts = []
for i in range(6):
    st = game.new_state(i)
    for _ in range(rng.randrange(1, 30)):
        if st.over: break
        p = st.to_move()[0]
        st.apply(p, rng.choice(st.legal_actions(p)))
    if not st.over: sts.append(st)
best = 1e9
for r in range(3):
    t = time.perf_counter()
    ch = []
    for st in sts:
        p = st.to_move()[0]
        ch.append(ISMCTS(1, iterations=150).choose(st, p, st.legal_actions(p)).id)
    best = min(best, time.perf_counter() - t)
print(name, round(best, 3), ch)
