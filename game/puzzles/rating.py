"""Glicko-2 for puzzles: each attempt is a game between the player and the puzzle.

We chose a small pure implementation of Glickman's paper ("Example of the Glicko-2 system",
2013) over the PyPI ``glicko2`` package: the package is a single unmaintained file with no
releases since 2013 and a mutable player object, where the puzzle attempt needs a pure
function of two ratings; the algorithm is some sixty lines, and the tests hold it to the
paper's worked example (a 1500 player beating a 1400, losing to a 1550 and a 1700: new
rating 1464.06, deviation 151.52, volatility 0.05999). The club's match ratings
(game/online/server/ratings.py) are OpenSkill: several players per table, teams; a puzzle is
always one against one, where Glicko-2 is the standard (lichess rates its puzzles with it).

One attempt is one rating period for both sides, as lichess does for puzzles: the player's
deviation shrinks as they solve, the puzzle's as it is tried.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: The system constant τ (the paper suggests 0.3 to 1.2; smaller: volatility changes slowly).
TAU = 0.5
#: Glicko-2's scale factor between the Glicko scale (1500 ± 350) and its internal one.
SCALE = 173.7178
BASE = 1500.0
#: The convergence tolerance of the volatility's iteration (the paper's ε).
EPSILON = 1e-6
#: Deviations stay within these (a deviation near 0 would freeze a rating for good).
MIN_RD = 45.0
MAX_RD = 350.0
#: Ratings stay within these (a player solving everything cannot run off the scale).
MIN_RATING = 400.0
MAX_RATING = 3000.0


@dataclass(frozen=True)
class Rating:
    rating: float = BASE
    rd: float = MAX_RD
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    for _ in range(100):  # converges in a handful of steps; bounded all the same
        if abs(big_b - big_a) <= EPSILON:
            break
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2.0
        big_b, fb = c, fc
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: list[tuple[Rating, float]], tau: float = TAU, clamp: bool = True) -> Rating:
    """The player's rating after one period of games, each (opponent, score: 1 win, 0 loss,
    0.5 draw), by the paper's steps 2–8. ``clamp`` keeps the result within the bounds
    above (off for the paper's example)."""
    mu = (player.rating - BASE) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(MAX_RD, phi_star * SCALE), sigma)
    v_inv = 0.0
    delta_sum = 0.0
    for opp, score in results:
        mu_j = (opp.rating - BASE) / SCALE
        phi_j = opp.rd / SCALE
        e = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    sigma2 = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma2 * sigma2)
    phi2 = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu2 = mu + phi2 * phi2 * delta_sum
    rating, rd = BASE + SCALE * mu2, SCALE * phi2
    if clamp:
        rating = min(MAX_RATING, max(MIN_RATING, rating))
        rd = min(MAX_RD, max(MIN_RD, rd))
    return Rating(rating, rd, sigma2)


def update(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """(player's new rating, puzzle's new rating) after one attempt: a win for the player
    when ``solved``, a win for the puzzle otherwise; both from the ratings before it."""
    score = 1.0 if solved else 0.0
    return rate(player, [(puzzle, score)]), rate(puzzle, [(player, 1.0 - score)])


def expected(player: Rating, puzzle: Rating) -> float:
    """The chance the player solves the puzzle, by the ratings (Glicko-2's E: the puzzle's
    deviation widens it)."""
    return _e((player.rating - BASE) / SCALE, (puzzle.rating - BASE) / SCALE, puzzle.rd / SCALE)


__all__ = ["BASE", "MAX_RD", "MIN_RD", "Rating", "TAU", "expected", "rate", "update"]
