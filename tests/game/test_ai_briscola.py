"""The Briscola search hooks: determinizations match the view, the bot never peeks, and the
obvious captures are made."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai import hooks_briscola as H
from game.ai.search import OBVIOUS, SearchBot, solve_exact
from game.cards import card, cards
from game.rules import make_rules
from game.rules.base import play
from game.rules.briscola import BriscolaState

R = make_rules("briscola", "piacentine", 2)
SEEDS = st.integers(min_value=0, max_value=2**31 - 1)


def random_position(seed: int, steps: int | None = None) -> BriscolaState:
    rng = random.Random(seed)
    s = R.new_deal(rng, rng.randrange(2))
    for _ in range(rng.randrange(40) if steps is None else steps):
        if s.over:
            break
        R.apply(s, rng.choice(R.legal_actions(s)))
    return s


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS, det_seed=SEEDS)
def test_determinize_respects_the_view(seed, det_seed):
    s = random_position(seed)
    if s.over:
        return
    seat = s.to_act if seed % 2 else 1 - s.to_act
    v = R.view(s, seat)
    d = H.determinize(R, v, random.Random(det_seed))
    assert R.view(d, seat) == v
    opp = 1 - seat
    assert set(v.opponent_known) <= set(d.hands[opp])
    if v.stock_count:
        assert d.stock[-1] is v.trump_card  # the turned trump is drawn last
    if v.trump_drawn_by == opp and v.trump_card not in v.played:
        assert v.trump_card in d.hands[opp]
    assert not (set(d.hands[opp]) | set(d.stock)) & (set(v.hand) | v.played)


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS)
def test_never_peeks(seed):
    s = random_position(seed, steps=random.Random(seed).randrange(0, 30))
    if s.over:
        return
    seat = s.to_act
    v = R.view(s, seat)
    other = H.determinize(R, v, random.Random(seed + 1))
    assert R.view(other, seat) == v
    moves = []
    for state in (s, other):
        bot = SearchBot(R, seat, seed=5, iterations=120, time_cap=None)
        moves.append(bot.choose(R.view(state, seat), R.legal_actions(state)))
    assert moves[0] == moves[1]


def test_takes_the_three_with_the_trump_ace_on_the_last_tricks():
    # Stock gone, two tricks left, trumps are coins (D). The opponent leads the 3 of cups
    # (10 points); seat 0 holds the trump Ace and a 2 of swords. At 49–50 the Ace wins the deal
    # 70–50; the 2 lets the opponent reach 60 and the deal is drawn.
    s = BriscolaState(players=2, dealer=0, number=1, hands=[cards("AD 2S"), cards("4B")], stock=[],
                      trump_card=card("5D"), trump_suit="D", piles=[[], []], points=[49, 50], to_act=0,
                      led=card("3C"), trump_drawn_by=0)
    played = [c for c in R.cards if c not in cards("AD 2S 4B 3C")]
    s.history = [(i % 2, c) for i, c in enumerate(played)] + [(1, card("3C"))]
    s.piles = [played[:len(played) // 2], played[len(played) // 2:]]
    v = R.view(s, 0)
    assert H.complete(R, v)
    bot = SearchBot(R, 0, seed=1, iterations=100, time_cap=None)
    a = bot.choose(v, R.legal_actions(s))
    assert a == play("AD")
    assert bot.last_stats["method"] == "exact"
    assert H.prior(R, v, play("AD")) >= OBVIOUS


def test_wins_a_led_ace_cheaply_in_the_middle_of_the_deal():
    # The opponent leads the Ace of cups (11); seat 0 can take it with a low trump (4 of coins)
    # or throw away a card. Taking it is worth at least 11 points.
    rng = random.Random(3)
    s = R.new_deal(rng, 1)
    # Rearrange: seat 0 to follow the Ace of cups holding 4D (trump) 2S 5B; trump is coins.
    deck = list(R.cards)
    fixed = cards("AC 4D 2S 5B 7D")
    rest = [c for c in deck if c not in fixed]
    rng.shuffle(rest)
    hand1 = rest[:2]
    stock = rest[2:] + [card("7D")]
    s = BriscolaState(players=2, dealer=0, number=1, hands=[cards("4D 2S 5B"), hand1], stock=stock,
                      trump_card=card("7D"), trump_suit="D", piles=[[], []], points=[0, 0], to_act=0,
                      led=card("AC"), history=[(1, card("AC"))])
    bot = SearchBot(R, 0, seed=2, iterations=400, time_cap=None)
    assert bot.choose(R.view(s, 0), R.legal_actions(s)) == play("4D")


def test_utility_prefers_winning_and_a_bigger_margin():
    s = random_position(1, steps=0)
    s.points = [70, 50]
    u_small = H.utilities(R, s)
    s.points = [90, 30]
    u_big = H.utilities(R, s)
    s.points = [60, 60]
    u_draw = H.utilities(R, s)
    assert u_big[0] > u_small[0] > u_draw[0] == 0.0 > u_small[1]
    assert abs(u_big[0]) <= 1.0


def _position_with_stock(seed: int, stock: int) -> BriscolaState | None:
    """A random position with ``stock`` cards left (None if the random walk skips past it)."""
    rng = random.Random(seed)
    s = R.new_deal(rng, rng.randrange(2))
    while len(s.stock) > stock:
        R.apply(s, rng.choice(R.legal_actions(s)))
    # Sometimes stop with a card led, sometimes before the lead.
    if rng.random() < 0.5 and not s.over:
        R.apply(s, rng.choice(R.legal_actions(s)))
    return s if len(s.stock) == stock and not s.over else None


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_fast_solver_equals_the_generic_minimax_once_the_stock_is_gone(seed):
    s = _position_with_stock(seed, 0)
    if s is None:
        return
    assert H.solve(R, s, s.to_act) == pytest.approx(solve_exact(R, s, s.to_act))


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, det_seed=SEEDS)
def test_last_draw_solve_uses_only_the_view(seed, det_seed):
    # Stock of 2 (one hidden card + the turned trump): complete() says yes and solve() averages
    # the exact values of the 3 or 4 possible deals — the same whatever the sampled state hides.
    s = _position_with_stock(seed, 2)
    if s is None:
        return
    seat = s.to_act
    v = R.view(s, seat)
    assert H.complete(R, v)
    other = H.determinize(R, v, random.Random(det_seed))
    values = H.solve(R, s, seat)
    assert values == H.solve(R, other, seat)
    # The average of the worlds' exact values (which hidden card is the stock's), each world
    # solved by the generic minimax.
    hidden = sorted(v.unseen, key=lambda c: c.index)
    assert len(hidden) == v.hand_counts[1 - seat] + 1
    # Each world is weighted by how well it explains the opponent's last play (card reading).
    expect = {a: 0.0 for a in values}
    clue = H._last_clue(v)
    total = 0.0
    for stock_card in hidden:
        w = R.clone(s)
        w.hands[1 - seat] = [c for c in hidden if c is not stock_card]
        w.stock = [stock_card, v.trump_card]
        weight = H._clue_likelihood(R, v, clue, w.hands[1 - seat]) if clue else 1.0
        assert 0.0 < weight <= 1.0
        total += weight
        for a, u in solve_exact(R, w, seat).items():
            expect[a] += weight * u
    assert values == pytest.approx({a: x / total for a, x in expect.items()})


def test_complete_only_near_the_end():
    s = _position_with_stock(11, 6) or _position_with_stock(12, 6)
    assert s is not None and not H.complete(R, R.view(s, s.to_act))


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, det_seed=SEEDS)
def test_sampled_solve_at_stock_four_uses_only_the_view(seed, det_seed):
    s = _position_with_stock(seed, 4)
    if s is None:
        return
    seat = s.to_act
    v = R.view(s, seat)
    assert H.complete(R, v)
    values = H.solve(R, s, seat)
    assert values == H.solve(R, H.determinize(R, v, random.Random(det_seed)), seat)
    assert set(values) == set(R.legal_actions(s))
    assert all(-1.0 <= u <= 1.0 for u in values.values())


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_playout_finishes_with_perfect_play_and_all_points(seed):
    s = _position_with_stock(seed, 0)
    if s is None:
        return
    best = max(H._exact_margins(R, s, s.to_act).values())
    p = R.clone(s)
    H.playout(R, p, random.Random(seed))
    assert p.over and sum(p.points) == 120
    assert p.points[s.to_act] - p.points[1 - s.to_act] == best
    # From the start of a deal the playout also ends with all 120 points shared out.
    d = R.new_deal(random.Random(seed), 0)
    H.playout(R, d, random.Random(seed))
    assert d.over and sum(d.points) == 120


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_fast_playout_follows_the_engine_and_its_own_policy(seed):
    # The inlined playout plays only legal cards, scores and draws exactly as the engine does,
    # and (with no random moves) its choices are the rollout policy's.
    s = random_position(seed, steps=random.Random(seed).randrange(0, 30))
    if s.over or not s.stock:
        return
    fast = R.clone(s)
    trace = []
    H.playout(R, fast, random.Random(seed), trace=trace)
    assert fast.over and sum(fast.points) == 120
    ref = R.clone(s)
    for c in trace:
        R.apply(ref, play(c), check=True)
    assert not ref.stock
    H._finish_exact(R, ref)
    assert ref.points == fast.points
    # Policy check: replay with the same rng stream through ``rollout`` (EPSILON kept).
    pol = R.clone(s)
    rng = random.Random(seed)
    for c in trace:
        legal = R.legal_actions(pol)
        assert H.rollout(R, pol, legal, rng).card is c
        R.apply(pol, play(c))


def _after(plays: list[str], trump_card: str = "2D", seat_to_lead: int = 0) -> BriscolaState:
    """A hand-built position: plays made from fixed hands, the rest of the deck in the stock
    (in index order, the turned trump last)."""
    hands = [cards("AC 4S 5S"), cards("7C 5C 2B")]
    deck = set(R.deck_cards)
    rest = sorted(deck - set(hands[0]) - set(hands[1]) - {card(trump_card)}, key=lambda c: c.index)
    s = BriscolaState(players=2, dealer=1, number=1, hands=[list(h) for h in hands],
                      stock=[], trump_card=card(trump_card), trump_suit=card(trump_card).suit,
                      piles=[[], []], points=[0, 0], to_act=seat_to_lead)
    s.stock = [*rest, card(trump_card)]
    for code in plays:
        R.apply(s, play(card(code)))
    return s


def test_card_reading_believes_a_player_who_does_not_trump_an_ace_has_no_trump():
    # Seat 0 leads the Ace of cups (11 points); seat 1 lets it go with the 7 of cups, which it
    # would not do holding a trump (coins). After the draw, seat 0's determinizations should
    # give seat 1 far fewer trumps among the two cards it kept than a blind deal does.
    s = _after(["AC", "7C"])
    assert s.to_act == 0 and s.stock
    v = R.view(s, 0)
    rng = random.Random(3)
    trumps_read = trumps_blind = 0
    for _ in range(600):
        d = H.determinize(R, v, rng)
        trumps_read += sum(c.suit == v.trump_suit for c in d.hands[1])
    H.CARD_READING = False
    try:
        for _ in range(600):
            d = H.determinize(R, v, rng)
            trumps_blind += sum(c.suit == v.trump_suit for c in d.hands[1])
    finally:
        H.CARD_READING = True
    assert trumps_read < 0.7 * trumps_blind


def test_play_likelihood_follows_the_sensible_player_model():
    hand = cards("AC 2D 4S")
    # Answering a led Three of cups: trumping with the 2 of coins is the sensible play.
    led = card("3C")
    p_trump = H._play_likelihood(R, hand, card("2D"), led, "D")
    p_ace = H._play_likelihood(R, hand, card("AC"), led, "D")
    p_low = H._play_likelihood(R, hand, card("4S"), led, "D")
    assert p_trump > p_low and p_ace > p_low
    assert p_trump + p_ace + p_low == pytest.approx(1.0)
    assert min(p_trump, p_ace, p_low) >= H.UNIFORM / 3


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS)
def test_playout_without_the_exact_finish_plays_the_policy_to_the_last_card(seed):
    s = random_position(seed, steps=random.Random(seed).randrange(0, 36))
    if s.over:
        return
    plain = R.clone(s)
    H.playout(R, plain, random.Random(seed), exact=False)
    assert plain.over and sum(plain.points) == 120 and not any(plain.hands)
    # The same moves as the rollout policy through the engine (every move validated).
    ref = R.clone(s)
    rng = random.Random(seed)
    while not ref.over:
        legal = R.legal_actions(ref)
        R.apply(ref, legal[0] if len(legal) == 1 else H.rollout(R, ref, legal, rng))
    assert ref.points == plain.points
