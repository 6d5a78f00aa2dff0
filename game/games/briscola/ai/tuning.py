"""Briscola AI's tuning constants, in one module the other parts read at call time
(``tuning.EPSILON``), so a test or a tuning run (``bench/ai_strength.py --hook
briscola.EPSILON=0.2``, through game.ai.hooks.tuning_module) sets one here as a module
attribute and the next decision sees it. Imports nothing: every part may import it."""

#: Utility = WIN_WEIGHT · sign(margin) + (1 − WIN_WEIGHT) · margin / 120: winning the deal
#: matters most, but a bigger margin still counts (match play, and a cushion against bad luck).
WIN_WEIGHT = 0.5

#: Chance that the playout plays a random card instead of the greedy one.
EPSILON = 0.1

#: Keeping a trump is worth this plus a little per strength (it wins a trick later).
TRUMP_BASE = 4.0
TRUMP_PER_STRENGTH = 0.6

#: Card reading: determinizations are weighted by how likely the opponent's last play was
#: from the hand they give him, under a "sensible player" model (a softmax over the greedy
#: evaluation, TEMPERATURE card points wide, mixed with UNIFORM random play). Why: a player
#: who lets your Ace go without trumping it most likely holds no trump; one who leads a Three
#: most likely holds nothing cheaper. Four players: rejection sampling, at most READ_TRIES
#: draws (two players: the exact table of READ_PLAYS below).
CARD_READING = True
TEMPERATURE = 2.5
UNIFORM = 0.15
READ_TRIES = 24

#: How many of the opponent's most recent plays the two-player reading explains at once (his
#: hand before each rebuilt backwards, every order of his draws averaged, the chances
#: multiplied; every hand he may hold weighed once per view, determinizations drawn from that
#: table): 1 reads only the last play. Six: of the opponent's hidden cards a determinization
#: holds 0.290 (greedy opponent) against 0.232 reading one play and 0.197 dealt blind
#: (bench/briscola_reading.py, tuning seeds 1-3; docs/AI.md).
READ_PLAYS = 6

#: From this stock size down, ``complete`` says yes and ``solve`` averages exact values over
#: every deal of the unseen cards (stock 2: one hidden stock card, so 3 or 4 worlds).
EXACT_STOCK = 2

#: Up to this stock size ``solve`` samples WORLDS deals instead (PIMC with exact play: the
#: last five tricks solved per world, ~2 ms each, beat heuristic playouts there).
SAMPLED_STOCK = 4
WORLDS = 40

#: Four players: ``complete`` says yes once the stock is gone and at most SOLVE_CARDS_4P
#: cards are left in the hands; ``solve`` then solves every deal of the unseen cards among
#: the three other hands when there are at most ALL_WORLDS_4P of them, else WORLDS_4P sampled
#: ones, within SOLVE_NODES_4P nodes of the alpha-beta search in all (a node budget, not a
#: time: the same answer on every machine); with fewer than MIN_WORLDS_4P deals solved in
#: it, ``solve`` gives up (None) and the search samples instead.
SOLVE_CARDS_4P = 12
ALL_WORLDS_4P = 90
WORLDS_4P = 30
SOLVE_NODES_4P = 60_000
MIN_WORLDS_4P = 8

#: Four players: the playout policy judges who takes a trick from the cards not yet played
#: (heuristics.side_chance: the chance that no opponent still to come holds a card
#: that beats the trick's best, as the player could judge it); False: the fixed chances.
POOL_CHANCES = True

#: Playouts finish the deal exactly once the stock is gone (double-dummy on the sampled
#: deal: ~20 µs for the last three tricks, and the playout's ending is then perfect play).
EXACT_PLAYOUT = True

#: Four players: the playout finishes exactly once the stock is gone and at most this many
#: cards are left in the hands (the last two tricks: 16 lines of play, 0.05 ms; the last
#: three take 0.8 ms, measured, more than the rest of a whole playout: the search's hot loop).
EXACT_PLAYOUT_CARDS_4P = 8
