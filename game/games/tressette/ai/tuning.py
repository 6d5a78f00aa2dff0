"""Tressette AI's tuning constants, in one module the other parts read at call time
(``tuning.EPSILON``), so a test or a tuning run (``bench/ai_strength.py --hook
tressette.EPSILON=0.2``, through game.ai.hooks.tuning_module) sets one here as a module
attribute and the next decision sees it. Imports nothing: every part may import it."""

#: Chance that the playout plays a random legal card instead of the greedy one.
EPSILON = 0.1

#: Playouts may finish the deal exactly (double-dummy on the sampled deal) once this many
#: tricks or fewer are left. Off: with the last two tricks solved, 60 % of an iteration's
#: time went to the finish (profiled, 4p), so hard ran 2.5 times fewer iterations — and in
#: four-player play hard was then no better than normal (+0.03 ± 0.45 points per deal, 30
#: seeds). Two players solve the whole deal once the stock is gone anyway.
EXACT_PLAYOUT_TRICKS = 0

#: Four players: ``complete`` says yes in the last this-many tricks; ``solve`` enumerates
#: every consistent deal of the unseen cards up to ALL_WORLDS of them, else samples WORLDS,
#: and solves them exactly one by one (each move's exact value, averaged) within SOLVE_NODES.
EXACT_TRICKS_4P = 4
ALL_WORLDS = 150
WORLDS = 40

#: Fewer deals solved than this within SOLVE_NODES: ``solve`` gives up (returns None).
MIN_WORLDS = 12

#: Budget of one exact solve, in nodes (about 7 µs each) — two players with ten tricks left
#: take 20 000 nodes on average, rarely 90 000. NODE_LIMIT bounds one solve of a known deal
#: (the playouts' finish); SOLVE_NODES bounds ``solve``, the decision's own (two players: the
#: one deal; four: all the worlds together); above it ``solve`` gives up (None) and the search
#: samples instead. A node budget, not seconds (it was 0.6 s, about as many nodes on a quiet
#: core): the same answer on every machine, however loaded.
NODE_LIMIT = 150_000
SOLVE_NODES = 85_000

#: Attempts at a plain uniform deal before the constrained dealer places the void suits.
UNIFORM_TRIES = 6
