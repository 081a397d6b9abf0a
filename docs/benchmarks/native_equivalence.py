"""The rules compiled to C play the Python rules' games: for N seeds of every bundled and example
ruleset (or those named after N), a playout in Python and one in C, with the log and quiet, must end
in the same state with the same events. Builds what the cache lacks first (minutes for all of
them); prints one line per ruleset and exits 1 if any differs or cannot be built.

    python docs/benchmarks/native_equivalence.py 40 [NAMES…]
"""
import random
import sys

from interpreter.api import load
from interpreter.compile.native import NativeError
from interpreter.resources import bundled_rulesets, example_rulesets

n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
bad = 0
for name in sys.argv[2:] or sorted(bundled_rulesets()) + sorted(example_rulesets()):
    game = load(name)
    try:
        game.use_native(note=lambda text: print(text, file=sys.stderr, flush=True))
    except NativeError as e:
        print(f"{name}: NOT BUILT: {e}", flush=True)
        bad += 1
        continue
    same = True
    for seed in range(n):
        for quiet in (False, True):
            ends = []
            for in_c in (False, True):
                game.use_native(in_c)
                st = game.new_state(seed)
                game.playout(st, random.Random(seed).random, quiet=quiet)
                ends.append(st.to_json())
            same = same and ends[0] == ends[1]
    game.use_native(False)
    bad += not same
    print(f"{name}: {'same' if same else 'DIFFERENT'} ({n} seeds, with the log and quiet)", flush=True)
sys.exit(1 if bad else 0)
