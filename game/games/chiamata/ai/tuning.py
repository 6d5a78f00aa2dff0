"""Briscola chiamata AI's tuning constants, in one module the other parts read at call time
(``tuning.EPSILON``), so a test or a tuning run (game.ai.hooks.tuning_module) sets one here
as a module attribute and the next decision sees it. Imports nothing: every part may import it."""

#: Utility = WIN_WEIGHT · game points / 4 + (1 − WIN_WEIGHT) · card-point margin over the
#: contract / 120 (from the seat's side): the deal's game points matter most, a bigger margin
#: still counts (a cushion against a misread partner).
WIN_WEIGHT = 0.7

#: Chance that the playout plays a random card instead of the policy's one.
EPSILON = 0.1

#: What keeping a trump is worth beyond its points (it takes a later trick), per strength.
TRUMP_BASE = 4.0
TRUMP_PER_STRENGTH = 0.6
#: Tie-breaker: spend weaker cards first.
STRENGTH_COST = 0.05
#: The chance the trick's best card so far stays best while others are still to play.
AHEAD = 0.6
AHEAD_TRUMP = 0.85
#: With sight (hard's playouts read the hands still to play to a trick): the chance a card
#: holds the trick when one of those hands, not a known mate's, could beat it.
SIGHT_RISK = 0.3

# ---------------------------------------------------------------- the auction
#: The hand's score for a (trump suit, called card): each trump its points plus TRUMP_TRICK ×
#: TRUMP_DECAY ** (stronger trumps with the defenders) plus TRUMP_EACH; TRUMP_LENGTH per trump
#: beyond two; a side Ace SIDE_ACE of its points, a side Three SIDE_THREE (SIDE_THREE_GUARDED
#: with its Ace); other side cards SIDE_OTHER of their points; the partner's called card as a
#: trump of ours plus PARTNER_BASE (the rest of his hand).
TRUMP_TRICK = 12.0
TRUMP_DECAY = 0.7
TRUMP_EACH = 3.0
TRUMP_LENGTH = 4.0
SIDE_ACE = 0.7
SIDE_THREE = 0.3
SIDE_THREE_GUARDED = 0.6
SIDE_OTHER = 0.2
PARTNER_BASE = 8.0
#: Card points the caller's side makes, predicted from the score (a linear fit measured on
#: policy playouts, bench/chiamata_ai.py --calibrate): points ≈ FIT_A + FIT_B · score; alone
#: (no partner in the score) ALONE_A + ALONE_B · score.
FIT_A = 29.4
FIT_B = 0.506
ALONE_A = 5.5
ALONE_B = 0.673
#: Card points more or fewer by the caller's place in the first trick (0: he leads it, 4: he
#: plays last), over the fit's mean (bench/chiamata_ai.py --calibrate's playouts, seed 5:
#: -1.1, -0.7, -0.6, +1.7, +3.8 over 8000 deals); the first_lead option ``caller`` puts every
#: caller at 0.
POSITION = (-1.6, -1.3, -1.2, 1.0, 3.2)
#: Bid only when the prediction clears the contract by this much (conservative: the fit's
#: spread is some 15 points, a lost contract costs the caller double).
BID_MARGIN = 8.0
#: Go alone only when the prediction clears the contract by this much (an overwhelming hand).
ALONE_MARGIN = 20.0

# ---------------------------------------------------------------- card reading
#: Determinizations place the unplayed called card with the seat the reading weighs (False:
#: every other seat alike, by its card count).
CARD_READING = True
#: Determinizations in the play deal the caller a hand that bears his bid and his call by
#: the bidding rules (reading.bears_the_call): up to AUCTION_TRIES deals tried for each, until
#: AUCTION_POOL are kept for the decision, then those reused.
AUCTION_WORLDS = False
AUCTION_TRIES = 20
AUCTION_POOL = 60
#: A defender's prior that the caller went alone (he then holds the called card himself).
ALONE_PRIOR = 0.15
#: Likelihood ratios (partner : defender) of a play before the called card shows, on a trick
#: the caller is winning: taking it from him (last to play: BEAT_CALLER_LAST), loading it with
#: 10 points or more (last: LOAD_BIG_LAST), with 2 to 4 points, giving nothing (failing to
#: support him; last: FAIL_SUPPORT_LAST); and LOAD_AGAINST_CALLER, loading 10 points or more
#: on a trick that beat the caller's card (a defender gives points to a defender). Measured on
#: the bots' own play (bench/chiamata_ai.py --clues 150 --seed 2000, normal at every seat:
#: 535 partner and 1634 defender plays), shrunk toward 1 where the counts are small: a
#: partner who is not last often takes the caller's trick himself to keep it from the seats
#: behind (1.33 measured), last he never does (0.22); last, he loads it (16.8 on 22 : 4).
BEAT_CALLER = 1.2
BEAT_CALLER_LAST = 0.25
LOAD_BIG = 1.0
LOAD_BIG_LAST = 8.0
LOAD_SMALL = 1.3
FAIL_SUPPORT = 0.75
FAIL_SUPPORT_LAST = 0.55
LOAD_AGAINST_CALLER = 0.15
