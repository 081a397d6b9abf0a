"""Event-log hashes (spans left out) of N seeded random games of every bundled and example ruleset,
to show that an engine change kept every game the same (or changed only the games it meant to): run
it at two checkouts and diff the outputs,

    PYTHONPATH=OLD python docs/benchmarks/event_hashes.py 3 > old.txt
    PYTHONPATH=NEW python docs/benchmarks/event_hashes.py 3 > new.txt && diff old.txt new.txt

Each line also counts the game's events, so a diff shows whether events were added or left out.
Names after N (`event_hashes.py 8 durak uno`) hash those rulesets only."""
import hashlib
import random
import sys

from interpreter.api import load
from interpreter.resources import bundled_rulesets, example_rulesets

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
for name in sys.argv[2:] or sorted(bundled_rulesets()) + sorted(example_rulesets()):
    g = load(name)
    h = hashlib.sha1()
    events = 0
    for seed in range(n):
        st = g.new_state(seed)
        rnd = random.Random(seed)
        while not st.over:
            p = st.to_move()[0]
            legal = g.legal_actions(st, p)
            g.apply(st, p, legal[rnd.randrange(len(legal))])
        for ev in st.ev:
            h.update(repr((ev[0],) + tuple(ev[2:])).encode())
        h.update(repr(g.result(st)).encode())
        events += len(st.ev)
    print(name, h.hexdigest()[:16], events)
