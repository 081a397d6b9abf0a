"""Quiet random playouts of 超ページワン (games 0…N-1, no log), to count instructions under callgrind:

    valgrind --tool=callgrind python docs/benchmarks/quiet_playouts.py 20
    valgrind --tool=callgrind python docs/benchmarks/quiet_playouts.py 220

The difference of the two totals over 200 is the count a game, start-up left out. Compare two
commits in one sitting (the count moves a little between sittings, never within one)."""
import gc
import random
import sys

from interpreter.api import load

g = load(sys.argv[2] if len(sys.argv) > 2 else "super_page_one")
g.quiet_rules()
gc.disable()
for i in range(int(sys.argv[1])):
    g.playout(g.new_state(i), random.Random(i).random, quiet=True)
