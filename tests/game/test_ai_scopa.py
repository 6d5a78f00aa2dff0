"""The search AI plays Scopa sensibly: it sweeps, takes the settebello, does not leave an easy
sweep to the next opponent in the 4-player game, and scores for its team."""

from __future__ import annotations

import random

import pytest

from game.ai.bots import make_bot
from game.ai.search import OBVIOUS, SearchBot, load_hooks
from game.cards import cards
from game.games.scopa import ai as hooks_scopa
from game.games.scopa.rules import ScopaState
from game.rulesets import make_rules


def position(
    players: int,
    hands: list[str],
    table: str,
    stock: int,
    to_act: int,
    dealer: int,
    in_stock: str = "",
    options: dict | None = None,
    piles: list[str] | None = None,
) -> tuple:
    """A hand-built deal: the given hands and table, ``stock`` cards in the stock (``in_stock``
    among them), the rest of the deck already captured (split between the teams' piles, after
    the cards ``piles`` puts in each), under the house rules ``options``."""
    rules = make_rules("scopa", None, players, options or {})
    hs = [cards(h) for h in hands]
    tb = cards(table)
    given = [cards(p) for p in piles or [""] * rules.teams]
    used = {c for h in hs for c in h} | set(tb) | {c for p in given for c in p}
    first = cards(in_stock)
    rest = first + [c for c in rules.cards if c not in used and c not in first]
    stk, rest = rest[:stock], rest[stock:]
    piles = [given[t] + rest[t :: rules.teams] for t in range(rules.teams)]
    state = ScopaState(
        players=players,
        dealer=dealer,
        number=1,
        hands=hs,
        table=tb,
        stock=stk,
        piles=piles,
        scope=[0] * rules.teams,
        to_act=to_act,
        last_capture_team=0,
    )
    return rules, state


def decide(rules, state, seed: int, iterations: int = 1200):
    seat = state.to_act
    bot = SearchBot(rules, seat, seed, iterations=iterations, time_cap=None)
    return str(bot.choose(rules.view(state, seat), rules.legal_actions(state))), bot


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_takes_an_obvious_scopa(seed):
    # 7C sweeps 3C+4S; the stock is not empty, so this is sampled search, not the exact solver.
    rules, state = position(2, ["7C KB 2D", "5S 6B QC"], "3C 4S", stock=6, to_act=0, dealer=1)
    action, bot = decide(rules, state, seed)
    assert bot.last_stats["method"] == "ismcts"
    assert action == "7C x 3C+4S"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_takes_the_settebello(seed):
    # 7B takes the settebello; 5S (5C) and KC (2S+JB) capture too. The other 7s are unseen, so
    # the settebello left on the table is at risk (with no 7 unseen, taking it later is safe).
    rules, state = position(2, ["7B 5S KC", "AS 6B QC"], "7D 5C 2S JB", stock=12, to_act=0, dealer=1, in_stock="7C 7S")
    action, _ = decide(rules, state, seed)
    assert action == "7B x 7D"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_four_players_avoids_leaving_an_easy_sweep(seed):
    # Placing 3S leaves 6C+3S = 9 for the next seat (an opponent), and three 9s (Q) are unseen;
    # placing KB leaves 6C+KB = 16, which no single card sweeps.
    rules, state = position(4, ["3S KB", "QC 5B", "2C AB", "QS QB"], "6C", stock=12, to_act=0, dealer=3)
    action, _ = decide(rules, state, seed)
    assert action == "KB"


def test_team_utility_is_shared_by_partners():
    rules, state = position(4, ["3S", "", "", ""], "", stock=0, to_act=0, dealer=3)
    rules.apply(state, rules.legal_actions(state)[0])
    u = hooks_scopa.utilities(rules, state)
    assert load_hooks("scopa").utility(rules, state, 0) == load_hooks("scopa").utility(rules, state, 2) == u[0]
    assert load_hooks("scopa").utility(rules, state, 1) == u[1] == -u[0]
    pts = rules.deal_result(state).points
    assert u[0] == pytest.approx((pts[0] - pts[1]) / hooks_scopa.SCALE)


def test_three_player_utility_is_the_margin_over_the_others_mean():
    rules, state = position(3, ["3S", "", ""], "", stock=0, to_act=0, dealer=2)
    rules.apply(state, rules.legal_actions(state)[0])
    pts = rules.deal_result(state).points
    u = hooks_scopa.utilities(rules, state)
    for t in range(3):
        others = [p for i, p in enumerate(pts) if i != t]
        assert u[t] == pytest.approx((pts[t] - sum(others) / 2) / hooks_scopa.SCALE)


def test_prior_marks_sweeps_and_the_settebello_obvious():
    rules, state = position(2, ["7B 5S KC", "AS 6B QC"], "7D 5C 2S JB", stock=12, to_act=0, dealer=1)
    view = rules.view(state, 0)
    pri = {str(a): hooks_scopa.prior(rules, view, a) for a in rules.legal_actions(state)}
    assert pri["7B x 7D"] >= OBVIOUS
    assert pri["5S x 5C"] < OBVIOUS


def test_rollout_policy_plays_legal_actions_to_the_end():
    rules = make_rules("scopa", None, 2)
    rng = random.Random(1)
    for _ in range(20):
        s = rules.new_deal(rng, 0, 1)
        while not rules.is_over(s):
            legal = rules.legal_actions(s)
            rules.apply(s, hooks_scopa.rollout(rules, s, legal, rng))  # check=True: must be legal


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_takes_a_free_settebello(level):
    """Even the easy level, which samples its choices, never gives up the settebello."""
    rules, state = position(2, ["7B 5S KC", "AS 6B QC"], "7D 5C 2S JB", stock=12, to_act=0, dealer=1, in_stock="7C 7S")
    for seed in range(6 if level == "easy" else 1):
        bot = make_bot(level, rules, 0, seed)
        bot.time_cap = None
        if level == "hard":
            bot.iterations = 1500  # the same search, a smaller budget keeps the test quick
        assert str(bot.choose(rules.view(state, 0), rules.legal_actions(state))) == "7B x 7D"


def test_easy_sometimes_differs_from_hard_where_it_matters_little():
    """Easy samples among near-equal actions: over many positions it does not always agree
    with the most-searched move (a human-like spread), yet it stays legal."""
    rules = make_rules("scopa", None, 2)
    rng = random.Random(5)
    differ = 0
    for i in range(12):
        s = rules.new_deal(rng, 0, 1)
        seat = s.to_act
        view, legal = rules.view(s, seat), rules.legal_actions(s)
        if len(legal) < 3:
            continue
        easy = make_bot("easy", rules, seat, i)
        easy.time_cap = None
        values = easy.analyse(view, legal)
        picks = {easy.pick(view, legal, values) for _ in range(10)}
        assert picks <= set(legal)
        differ += len(picks) > 1
    assert differ >= 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_playout_follows_the_rules_exactly(players):
    """The search's fast playout, replayed move by move through the rules engine (validated),
    ends in the same state: same piles, scope, table, last capturer and result."""
    rules = make_rules("scopa", None, players)
    rng = random.Random(players)
    for i in range(40):
        s = rules.new_deal(rng, i % players, 1)
        for _ in range(rng.randrange(0, 20)):
            rules.apply(s, rng.choice(rules.legal_actions(s)))
        fast = rules.clone(s)
        trace: list = []
        hooks_scopa.playout(rules, fast, random.Random(i), trace)
        slow = rules.clone(s)
        for a in trace:
            assert a in rules.legal_actions(slow)
            rules.apply(slow, a)
        assert fast.over and slow.over
        assert (fast.piles, fast.scope, fast.table, fast.last_capture_team) == (
            slow.piles,
            slow.scope,
            slow.table,
            slow.last_capture_team,
        )
        assert rules.deal_result(fast).points == rules.deal_result(slow).points


HOUSE_RULES = [
    (2, {"capture": "fifteen"}),
    (3, {"aces": "take_all"}),
    (2, {"capture": "fifteen", "aces": "take_all"}),
    (4, {"deal": "scopone", "aces": "take_all"}),
    (4, {"deal": "scopone10", "capture": "fifteen"}),
    (4, {"deal": "scopone"}),
    (4, {"deal": "scopone10", "re_bello": True, "napola": True}),
    (2, {"aces": "take_all", "re_bello": True, "napola": True}),
]


@pytest.mark.parametrize("players,options", HOUSE_RULES)
@pytest.mark.parametrize("smart", [True, False])
def test_fast_playout_follows_every_house_rule_exactly(players, options, smart):
    """The playout's own move code covers every house rule (Scopone's hands of nine and ten
    without a stock, Scopa a quindici, Asso piglia tutto — whose Ace scores no scopa — re bello,
    napola): each traced move, replayed through the engine (validated), is legal, and the deal
    ends with the playout's own scores."""
    rules = make_rules("scopa", None, players, options)
    rng = random.Random(players)
    for i in range(25):
        s = rules.new_deal(rng, i % players, 1)
        for _ in range(rng.randrange(0, 12)):
            rules.apply(s, rng.choice(rules.legal_actions(s)))
        fast = rules.clone(s)
        trace: list = []
        hooks_scopa.playout(rules, fast, random.Random(i), trace, smart=smart, epsilon=0.1)
        assert fast.over and not any(fast.hands) and not fast.stock
        slow = rules.clone(s)
        for a in trace:
            assert a in rules.legal_actions(slow)
            rules.apply(slow, a)
        assert slow.over
        assert (fast.piles, fast.scope, fast.table) == (slow.piles, slow.scope, slow.table)
        assert rules.deal_result(fast).points == rules.deal_result(slow).points


def test_ace_taking_all_scores_no_scopa_in_the_playout():
    # Asso piglia tutto: the Ace takes 5C + KB, clearing the table, and scores no scopa.
    rules, state = position(2, ["AS", "4B"], "5C KB", stock=0, to_act=0, dealer=1, options={"aces": "take_all"})
    trace: list = []
    hooks_scopa.playout(rules, state, random.Random(1), trace, epsilon=0.0)
    assert str(trace[0]) == "AS x 5C+KB" and state.scope == [0, 0]


def test_fast_playout_plain_policy_follows_the_rules_too():
    """The plain policy (normal level) is the same engine walk with another choice rule."""
    rules = make_rules("scopa", None, 2)
    rng = random.Random(7)
    for i in range(20):
        s = rules.new_deal(rng, i % 2, 1)
        fast, slow = rules.clone(s), rules.clone(s)
        trace: list = []
        hooks_scopa.playout(rules, fast, random.Random(i), trace, smart=False, epsilon=0.3)
        for a in trace:
            rules.apply(slow, a)
        assert fast.over and slow.over and fast.piles == slow.piles and fast.scope == slow.scope


@pytest.mark.parametrize("seed", range(5))
def test_smart_playout_leaves_only_sums_no_unseen_card_can_take(seed):
    # Table 6C. Placing 3S leaves 9, and every 9 (Q) is already in a pile: safe. Placing 2S
    # leaves 8, and the next seat may hold the JB (it is unseen to seat 0): a likely scopa.
    # The plain policy penalises both alike; the smart one must place 3S every time.
    rules, state = position(2, ["3S 2S", "JB 5B"], "6C", stock=0, to_act=0, dealer=1)
    assert all(c.rank != "Q" for c in state.hands[1]) and not state.stock
    trace: list = []
    hooks_scopa.playout(rules, rules.clone(state), random.Random(seed), trace, epsilon=0.0)
    assert str(trace[0]) == "3S"


def test_search_passes_playout_kw_to_the_hook(monkeypatch):
    rules, state = position(2, ["7C KB 2D", "5S 6B QC"], "3C 4S", stock=6, to_act=0, dealer=1)
    seen: list = []
    real = hooks_scopa.playout

    def spy(rules, state, rng, trace=None, **kw):
        seen.append(kw)
        return real(rules, state, rng, trace, **kw)

    monkeypatch.setattr(hooks_scopa, "playout", spy)
    bot = SearchBot(rules, 0, 1, iterations=50, time_cap=None, playout_kw={"smart": False, "epsilon": 0.25})
    bot.choose(rules.view(state, 0), rules.legal_actions(state))
    assert seen and all(kw == {"smart": False, "epsilon": 0.25} for kw in seen)
    seen.clear()
    SearchBot(rules, 0, 1, iterations=50, time_cap=None).choose(rules.view(state, 0), rules.legal_actions(state))
    assert seen and all(kw == {} for kw in seen)


def test_card_reading_believes_a_player_who_drops_a_card_had_nothing_to_take():
    # The opponent drops the Queen of cups (9) next to 5 + 3. A sensible player holding a
    # Jack (8) would have swept the table instead, so seat 0's determinizations should give
    # him far fewer Jacks than a blind deal does.
    from game.rules.base import play

    rules, state = position(2, ["AS 4B 6S", "QC 4S 6B"], "5D 3B", 20, to_act=1, dealer=0)
    rules.apply(state, play(cards("QC")[0]))
    view = rules.view(state, 0)
    takers = {8}
    rng = random.Random(4)

    def count() -> int:
        n = 0
        for _ in range(800):
            d = hooks_scopa.determinize(rules, view, rng)
            assert rules.view(d, 0) == view
            n += sum(rules.values[c] in takers for c in d.hands[1])
        return n

    read = count()
    hooks_scopa.CARD_READING = False
    try:
        blind = count()
    finally:
        hooks_scopa.CARD_READING = True
    assert read < 0.5 * blind


def _greedy(rules, state) -> str:
    from game.games.scopa.heuristics import evaluate

    view = rules.view(state, state.to_act)
    return str(max(rules.legal_actions(state), key=lambda a: evaluate(rules, view, a)))


def test_greedy_takes_the_king_of_coins_with_re_bello():
    # KS takes the King of Coins, 7C the 7 of Swords (two primiera sevens). Without re bello
    # the sevens are worth more; with it the King of Coins is a point by itself.
    hands = ["KS 7C", "AS 6B QC"]
    rules, state = position(2, hands, "KD 7S", stock=12, to_act=0, dealer=1)
    assert _greedy(rules, state) == "7C x 7S"
    rules, state = position(2, hands, "KD 7S", stock=12, to_act=0, dealer=1, options={"re_bello": True})
    assert _greedy(rules, state) == "KS x KD"
    take = next(a for a in rules.legal_actions(state) if str(a) == "KS x KD")
    assert hooks_scopa.prior(rules, rules.view(state, 0), take) >= OBVIOUS


def test_greedy_keeps_king_of_coins_with_re_bello():
    # Nothing to take: a card must go on the table, where the next player may take it. With
    # re bello the King of Coins stays in hand and the 4 of Coins goes down instead.
    rules, state = position(2, ["KD 4D", "AS 6B QC"], "JS", stock=12, to_act=0, dealer=1, options={"re_bello": True})
    assert _greedy(rules, state) == "4D"


def test_greedy_chases_the_napola_with_the_ace_of_coins():
    # AS takes the Ace of Coins, 7C the 7 of Swords. With napola the Ace of Coins starts the
    # run that scores (A, 2, 3 of Coins: worth chasing) and is taken first.
    hands = ["AS 7C", "4S 6B QC"]
    rules, state = position(2, hands, "AD 7S", stock=12, to_act=0, dealer=1)
    assert _greedy(rules, state) == "7C x 7S"
    rules, state = position(2, hands, "AD 7S", stock=12, to_act=0, dealer=1, options={"napola": True})
    assert _greedy(rules, state) == "AS x AD"


def test_playout_scores_re_bello_and_napola_through_the_rules():
    # The search's utility is the rules' own deal_result: re bello and napola count in it.
    rules, state = position(
        2,
        ["", ""],
        "",
        stock=0,
        to_act=0,
        dealer=1,
        options={"re_bello": True, "napola": True},
        piles=["KD AD 2D 3D 4D", ""],
    )
    state.over = True
    plain_rules = make_rules("scopa", None, 2)
    plain = hooks_scopa.utilities(plain_rules, state)
    house = hooks_scopa.utilities(rules, state)
    pts = rules.deal_result(state).points
    run = rules.napola_value(state.piles[0])
    assert run >= 5 and pts[0] - plain_rules.deal_result(state).points[0] == 1 + run  # re bello + the napola
    assert house[0] == pytest.approx((pts[0] - pts[1]) / hooks_scopa.SCALE) and house[0] > plain[0]


@pytest.mark.parametrize("options", [{"deal": "scopone"}, {"deal": "scopone10"}])
def test_scopone_determinizes_nine_and_ten_card_hands_without_a_stock(options):
    rules = make_rules("scopa", None, 4, options)
    rng = random.Random(2)
    s = rules.new_deal(rng, 0, 1)
    assert not s.stock and {len(h) for h in s.hands} == {rules.hand_size}
    for _ in range(7):
        rules.apply(s, rng.choice(rules.legal_actions(s)))
    for seat in range(4):
        view = rules.view(s, seat)
        for k in range(20):
            d = hooks_scopa.determinize(rules, view, random.Random(k))
            assert rules.view(d, seat) == view and not d.stock
            assert [len(h) for h in d.hands] == [len(h) for h in s.hands]
            assert sorted(c for h in d.hands for c in h) == sorted(c for h in s.hands for c in h)


def test_the_playouts_random_share_is_read_when_they_run(monkeypatch):
    """A tuning run sets the module's EPSILON (``--hook scopa.EPSILON=…``); the playout must
    read it at the call, not keep the value it had when the module was imported."""
    rules = make_rules("scopa", None, 2)

    def traces() -> list[list]:
        out = []
        for i in range(10):
            s = rules.new_deal(random.Random(i), 0, 1)
            trace: list = []
            hooks_scopa.playout(rules, s, random.Random(i), trace)
            out.append(trace)
        return out

    monkeypatch.setattr(hooks_scopa, "EPSILON", 0.0)
    greedy = traces()
    assert traces() == greedy  # the same streams, the same games
    monkeypatch.setattr(hooks_scopa, "EPSILON", 1.0)
    assert traces() != greedy
