"""The Briscola search hooks: determinizations match the view, the bot never peeks, and the
obvious captures are made."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai.search import OBVIOUS, SearchBot, solve_exact
from game.cards import card, cards
from game.games.briscola import ai as H
from game.games.briscola import heuristics as hb
from game.games.briscola.ai import policy as HP
from game.games.briscola.ai import reading as HR
from game.games.briscola.ai import solver as HS
from game.games.briscola.ai import team_policy as HTP
from game.games.briscola.ai import team_solver as HTS
from game.games.briscola.ai import tuning as HT
from game.games.briscola.ai import values as HV
from game.games.briscola.rules import BriscolaState
from game.rules.base import play
from game.rulesets import make_rules

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
    s = BriscolaState(
        players=2,
        dealer=0,
        number=1,
        hands=[cards("AD 2S"), cards("4B")],
        stock=[],
        trump_card=card("5D"),
        trump_suit="D",
        piles=[[], []],
        points=[49, 50],
        to_act=0,
        led=card("3C"),
        trump_drawn_by=0,
    )
    played = [c for c in R.cards if c not in cards("AD 2S 4B 3C")]
    s.history = [(i % 2, c) for i, c in enumerate(played)] + [(1, card("3C"))]
    s.piles = [played[: len(played) // 2], played[len(played) // 2 :]]
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
    s = BriscolaState(
        players=2,
        dealer=0,
        number=1,
        hands=[cards("4D 2S 5B"), hand1],
        stock=stock,
        trump_card=card("7D"),
        trump_suit="D",
        piles=[[], []],
        points=[0, 0],
        to_act=0,
        led=card("AC"),
        history=[(1, card("AC"))],
    )
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
    # Each world is weighted by how well it explains the opponent's recent plays (card reading;
    # the reading itself is checked against a brute force in test_ai_briscola_reading.py).
    expect = {a: 0.0 for a in values}
    clues = HR._clues(v)
    total = 0.0
    for stock_card in hidden:
        w = R.clone(s)
        w.hands[1 - seat] = [c for c in hidden if c is not stock_card]
        w.stock = [stock_card, v.trump_card]
        weight = HR._Reading(R, v, clues).likelihood(w.hands[1 - seat]) if clues else 1.0
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
    best = max(HS._exact_margins(R, s, s.to_act).values())
    p = R.clone(s)
    H.playout(R, p, random.Random(seed))
    assert p.over and sum(p.points) == 120
    assert p.points[s.to_act] - p.points[1 - s.to_act] == best
    # From the start of a deal the playout also ends with all 120 points shared out.
    d = R.new_deal(random.Random(seed), 0)
    H.playout(R, d, random.Random(seed))
    assert d.over and sum(d.points) == 120


def test_the_coachs_coupled_playout_deals_the_stock_by_seat():
    """coupled: seat 0 draws the even places of the stock, seat 1 the odd ones, whoever wins
    each trick; the last pair (the face-up trump) goes as the rules deal it; all 120 points
    are shared out."""
    for seed in range(20):
        d = R.new_deal(random.Random(seed), 0)
        stock, start, first = list(d.stock), [list(h) for h in d.hands], d.to_act
        trace = []
        H.playout(R, d, random.Random(seed), trace=trace, exact=False, coupled=True)
        assert (
            d.over
            and sum(d.points) == 120
            and sorted(c.index for c in trace) == sorted(c.index for c in stock + start[0] + start[1])
        )
        # Replay the trace: the cards each seat plays come from its hand and its draws.
        held = [set(start[0]) | set(stock[0:-2:2]), set(start[1]) | set(stock[1:-2:2])]
        to_act, led, last = first, None, set(stock[-2:])
        for c in trace:
            assert c in held[to_act] or c in last
            if led is None:
                led, to_act = c, 1 - to_act
            else:
                to_act = to_act if R.beats(c, led, d.trump_suit) else 1 - to_act
                led = None


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
    HP._finish_exact(R, ref)
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
    s = BriscolaState(
        players=2,
        dealer=1,
        number=1,
        hands=[list(h) for h in hands],
        stock=[],
        trump_card=card(trump_card),
        trump_suit=card(trump_card).suit,
        piles=[[], []],
        points=[0, 0],
        to_act=seat_to_lead,
    )
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
    HT.CARD_READING = False
    try:
        for _ in range(600):
            d = H.determinize(R, v, rng)
            trumps_blind += sum(c.suit == v.trump_suit for c in d.hands[1])
    finally:
        HT.CARD_READING = True
    assert trumps_read < 0.7 * trumps_blind


def test_play_likelihood_follows_the_sensible_player_model():
    hand = cards("AC 2D 4S")
    # Answering a led Three of cups: trumping with the 2 of coins is the sensible play.
    led = card("3C")
    p_trump = HR._play_likelihood(R, hand, card("2D"), led, "D")
    p_ace = HR._play_likelihood(R, hand, card("AC"), led, "D")
    p_low = HR._play_likelihood(R, hand, card("4S"), led, "D")
    assert p_trump > p_low and p_ace > p_low
    assert p_trump + p_ace + p_low == pytest.approx(1.0)
    assert min(p_trump, p_ace, p_low) >= HT.UNIFORM / 3


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


def test_the_coachs_playout_epsilon_replaces_the_searchs(monkeypatch):
    """``epsilon=0`` (the coach's PLAYOUT_KW) plays no random card: the same moves as the
    rollout policy with EPSILON 0, where the default (EPSILON 0.1) does play random cards."""
    differs = 0
    for seed in range(30):
        s = random_position(seed, steps=random.Random(seed).randrange(0, 20))
        if s.over or not s.stock:
            continue
        greedy, default = R.clone(s), R.clone(s)
        H.playout(R, greedy, random.Random(seed), exact=False, epsilon=0.0)
        H.playout(R, default, random.Random(seed), exact=False)
        differs += greedy.points != default.points
        monkeypatch.setattr(HT, "EPSILON", 0.0)
        ref = R.clone(s)
        rng = random.Random(seed)
        while not ref.over:
            legal = R.legal_actions(ref)
            R.apply(ref, legal[0] if len(legal) == 1 else H.rollout(R, ref, legal, rng))
        monkeypatch.undo()
        assert ref.points == greedy.points
    assert differs > 0


# ================================================================ four players, in partnerships
R4 = make_rules("briscola", "piacentine", 4)


def random_position4(seed: int, steps: int | None = None) -> BriscolaState:
    rng = random.Random(seed)
    s = R4.new_deal(rng, rng.randrange(4))
    for _ in range(rng.randrange(40) if steps is None else steps):
        if s.over:
            break
        R4.apply(s, rng.choice(R4.legal_actions(s)))
    return s


def _position4_with_stock(seed: int, stock: int, extra: int) -> BriscolaState | None:
    """A random four-player position with ``stock`` cards left, ``extra`` plays after that."""
    rng = random.Random(seed)
    s = R4.new_deal(rng, rng.randrange(4))
    while len(s.stock) > stock:
        R4.apply(s, rng.choice(R4.legal_actions(s)))
    for _ in range(extra):
        if s.over:
            return None
        R4.apply(s, rng.choice(R4.legal_actions(s)))
    return None if s.over else s


def trick4(hands: list[str], trick: str, leader: int, trump: str = "2D") -> BriscolaState:
    """A hand-built first trick of four players: ``hands`` as they are now, ``trick`` the
    cards played so far from ``leader`` on, the rest of the deck in the stock (turned trump last)."""
    hs = [cards(h) for h in hands]
    played = cards(trick)
    tc = card(trump)
    used = {c for h in hs for c in h} | set(played) | {tc}
    stock = [c for c in R4.deck_cards if c not in used] + [tc]
    s = BriscolaState(
        players=4,
        dealer=(leader - 1) % 4,
        number=1,
        hands=hs,
        stock=stock,
        trump_card=tc,
        trump_suit=tc.suit,
        piles=[[], [], [], []],
        points=[0] * 4,
        to_act=(leader + len(played)) % 4,
        led=played[0] if played else None,
        following=played[1:],
        history=[((leader + i) % 4, c) for i, c in enumerate(played)],
    )
    assert len(stock) == 28 and sum(len(h) for h in hs) + len(played) == 12
    return s


def _greedy(rules, s: BriscolaState) -> str:
    v = rules.view(s, s.to_act)
    return max(rules.legal_actions(s), key=lambda a: hb.evaluate(rules, v, a)).card.code


def _hard_choice(s: BriscolaState, seed: int, iterations: int = 1500) -> str:
    from game.ai.levels import HardBot

    bot = HardBot(R4, s.to_act, seed, iterations=iterations, time_cap=None)
    return bot.choose(R4.view(s, s.to_act), R4.legal_actions(s)).card.code


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_briscola_4p_partner_never_trumps_partners_winning_trick(seed):
    # Seat 3 plays last. Its partner (seat 1) wins the trick with the Ace of Cups over seat
    # 0's Three (21 points on it); trumps are Coins. Trumping with the 4 of Coins "takes" 21
    # points the side already has and spends a trump (the two-player rule of thumb would
    # trump here): greedy and hard play a plain card.
    s = trick4(["7S JB", "6C QB", "3B AB", "4D 6S 2B"], "3C AC 4S", leader=0)
    assert s.to_act == 3
    assert _greedy(R4, s) in ("6S", "2B")
    assert _hard_choice(s, seed) in ("6S", "2B")
    # Also earlier in the trick: seat 2's partner (seat 0) leads the Ace of Cups; seat 2 does
    # not trump it (greedy), whatever is still to come.
    s = trick4(["7S JB", "6C QB", "4D 6S 2B", "KS 4B 7B"], "AC 5C", leader=0)
    assert s.to_act == 2 and _greedy(R4, s) != "4D"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_briscola_4p_loads_an_ace_onto_partners_sure_trick(seed):
    # Seat 3 plays last; its partner's King of Cups takes the trick for sure. The Ace of
    # Swords (11 points) goes onto it rather than the 4 of Batons or a trump.
    s = trick4(["7S JB", "4C QB", "3B 5B", "AS 4B 6D"], "5C KC 6C", leader=0)
    assert _greedy(R4, s) == "AS"
    assert _hard_choice(s, seed) == "AS"


def test_briscola_4p_loads_a_three_when_the_partner_holds_the_top_trump():
    # Seat 2 plays third: its partner led the Ace of trumps, which nothing still out can
    # beat — a sure trick even with seat 3 to come. The Three of Cups (10 points) goes on it.
    s = trick4(["7S JB", "6C QB", "3C 5S 6B", "KS 4B 7B"], "AD 4C", leader=0)
    assert s.to_act == 2 and _greedy(R4, s) == "3C"
    # With a plain King led instead, seat 3 may still trump it: no Three thrown on it.
    s = trick4(["7S JB", "6C QB", "3C 5S 6B", "KS 4B 7B"], "KB 4C", leader=0)
    assert _greedy(R4, s) != "3C"


def test_briscola_4p_greedy_takes_an_opponents_ace_last():
    # Seat 3, last: an opponent's Ace of Cups wins the trick; the 4 of Coins (a trump) takes it.
    s = trick4(["7S JB", "6C QB", "3B 5B", "4D 6S 2B"], "AC 5C KS", leader=0)
    assert _greedy(R4, s) == "4D"
    assert H.prior(R4, R4.view(s, 3), play("4D")) >= OBVIOUS


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, det_seed=SEEDS)
def test_briscola_4p_determinize_respects_the_view(seed, det_seed):
    s = random_position4(seed)
    if s.over:
        return
    seat = (s.to_act + seed) % 4
    v = R4.view(s, seat)
    d = H.determinize(R4, v, random.Random(det_seed))
    assert R4.view(d, seat) == v
    assert [len(h) for h in d.hands] == [len(h) for h in s.hands]
    if v.stock_count:
        assert d.stock[-1] is v.trump_card and len(d.stock) == len(s.stock)
    if v.opponent_known:
        assert v.trump_card in d.hands[v.trump_drawn_by]
    placed = [c for h in d.hands for c in h] + d.stock
    assert sorted(placed) == sorted([c for h in s.hands for c in h] + s.stock)


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_briscola_4p_never_peeks(seed):
    s = random_position4(seed, steps=random.Random(seed).randrange(0, 36))
    if s.over:
        return
    seat = s.to_act
    v = R4.view(s, seat)
    other = H.determinize(R4, v, random.Random(seed + 1))
    moves = []
    for state in (s, other):
        bot = SearchBot(R4, seat, seed=5, iterations=120, time_cap=None)
        moves.append(bot.choose(R4.view(state, seat), R4.legal_actions(state)))
    assert moves[0] == moves[1]


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, extra=st.integers(min_value=0, max_value=11))
def test_briscola_4p_team_solver_equals_the_generic_minimax(seed, extra):
    s = _position4_with_stock(seed, 0, extra)
    if s is None:
        return
    seat = s.to_act
    exact = {a: HV._utility_of_margin(m) for a, m in HTS._team_margins(R4, s, seat).items()}
    assert exact == pytest.approx(solve_exact(R4, s, seat, node_limit=10**6))
    # The playout's exact finish gives each team what perfect play gives it.
    p = R4.clone(s)
    HP._finish_exact(R4, p)
    assert p.over and sum(p.points) == 120
    mine = H.team_points(R4, p.points)[R4.team_of(seat)] - H.team_points(R4, p.points)[1 - R4.team_of(seat)]
    assert mine == max(HTS._team_margins(R4, s, seat).values())


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, det_seed=SEEDS, extra=st.integers(min_value=0, max_value=8))
def test_briscola_4p_endgame_solve_uses_only_the_view(seed, det_seed, extra):
    s = _position4_with_stock(seed, 0, extra)
    if s is None:
        return
    seat = s.to_act
    v = R4.view(s, seat)
    assert H.complete(R4, v)
    values = H.solve(R4, s, seat)
    assert values is not None and set(values) == set(R4.legal_actions(s))
    assert values == H.solve(R4, H.determinize(R4, v, random.Random(det_seed)), seat)
    assert all(-1.0 <= u <= 1.0 for u in values.values())


def test_briscola_4p_complete_only_once_the_stock_is_gone():
    s = _position4_with_stock(3, 4, 1)
    assert s is not None and not H.complete(R4, R4.view(s, s.to_act))


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS)
def test_briscola_4p_playout_is_the_rollout_policy_and_ends_with_all_points(seed):
    s = random_position4(seed, steps=random.Random(seed).randrange(0, 39))
    if s.over:
        return
    plain = R4.clone(s)
    H.playout(R4, plain, random.Random(seed), exact=False)
    assert plain.over and sum(plain.points) == 120 and not any(plain.hands)
    ref = R4.clone(s)
    rng = random.Random(seed)
    while not ref.over:
        legal = R4.legal_actions(ref)
        R4.apply(ref, legal[0] if len(legal) == 1 else H.rollout(R4, ref, legal, rng))
    assert H.team_points(R4, ref.points) == H.team_points(R4, plain.points)
    full = R4.clone(s)
    H.playout(R4, full, random.Random(seed))
    assert full.over and sum(full.points) == 120


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, pooled=st.booleans())
def test_briscola_4p_playout_policy_ranks_cards_as_the_heuristic_model(seed, pooled):
    # _pick_team (inlined for speed) is heuristics_briscola.follow_value: with the chances
    # judged from the cards not yet played (side_chance), or with the fixed ones.
    s = random_position4(seed, steps=random.Random(seed).randrange(1, 39))
    if s.over or s.led is None:
        return
    seat = s.to_act
    hand = s.hands[seat]
    best, best_seat, count, pts = HV._team_trick(R4, s)
    ours = R4.team_of(best_seat) == R4.team_of(seat)
    opp_after, mate_after = hb.after_me(R4, seat, count)
    keep = HV._keep_table(R4, s.trump_suit)
    unplayed = [c for h in s.hands for c in h] + s.stock
    later = HTP._later(R4, s.hands, seat, count)
    chance = (
        HTP._pool_chance(
            HTP._unplayed_counts(R4, s),
            s.trump_suit,
            R4.strength,
            hand,
            len(unplayed) - len(hand),
            later,
            HTP._nobody_table(R4),
        )
        if pooled
        else None
    )
    got = HTP._pick_team(
        hand, best, pts, ours, opp_after, mate_after, s.trump_suit, keep, R4.card_points, R4.beats, lambda: 0.0, chance
    )

    def model(c):
        p = None
        if pooled:
            ahead, top = hb.team_top(R4, c, best, ours, s.trump_suit)
            # The chance as side_chance defines it, the beaters counted card by card.
            k = sum(1 for x in unplayed if x not in hand and R4.beats(x, top, s.trump_suit))
            p = hb.side_chance(ahead, k, len(unplayed) - len(hand), later)
        return hb.follow_value(R4, c, best, pts, ours, opp_after, mate_after, s.trump_suit, chance=p)

    vals = {c: model(c) for c in hand}
    assert vals[got] == pytest.approx(max(vals.values()))


def test_briscola_4p_card_reading_believes_a_player_who_does_not_trump_an_ace_has_no_trump():
    # Seat 0 leads the Ace of Cups; seat 1 lets it go with the 7 of Cups, which a player
    # holding a trump (Coins) seldom does. Seat 0's determinizations give seat 1 fewer trumps.
    s = trick4(["4S 5S", "7C 5C 2B", "QS 6B JB", "6S 7B KB"], "AC", leader=0)
    R4.apply(s, play("7C"))
    v = R4.view(s, 0)

    def trumps() -> int:
        rng = random.Random(3)
        return sum(sum(c.suit == v.trump_suit for c in H.determinize(R4, v, rng).hands[1]) for _ in range(600))

    read = trumps()
    HT.CARD_READING = False
    try:
        blind = trumps()
    finally:
        HT.CARD_READING = True
    assert read < 0.7 * blind


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_briscola_4p_every_level_plays_a_whole_deal(level):
    from game.ai.bots import make_bot

    rng = random.Random(7)
    s = R4.new_deal(rng, 0)
    bots = [make_bot(level, R4, seat, 7) for seat in range(4)]
    for b in bots:
        b.time_cap = None
        b.iterations = min(b.iterations, 80)
    while not s.over:
        seat = s.to_act
        R4.apply(s, bots[seat].choose(R4.view(s, seat), R4.legal_actions(s)), check=True)
    assert sum(R4.deal_result(s).points) == 120
