"""A Briscola verdict a card player questioned: trumps Batons, North leads the 5 of Cups into
your 6 of Cups, Knight of Swords and 3 of Batons, 16 cards in the stock, you 6 card points and
North 16. Winning the trick for nothing with the 6 is not a mistake; spending the 3 of trumps
on it is. The coach's playouts are the hard level's policy without its random cards, and the
move valued is dealt the next pair of cards by seat, as the playouts deal the rest."""

from __future__ import annotations

import random
import statistics

from game.ai.hooks import load_hooks
from game.ai.levels import HardBot
from game.cards import card
from game.coach.analysis import analyse_position
from game.coach.hooks import load_coach
from game.games.briscola.ai.policy import playout
from game.rules.base import play
from game.rulesets import make_rules

#: Every card South and North hold in turn (the first three dealt, then their draws in order).
SOUTH = "2D JD 2C JC 6D JB 2S 7D 4S 6C QS 3B".split()
NORTH = "4D 5D KC 4C KD 7C JS QD QC 5C AS 6S".split()
#: The nine tricks before the position: (leader, the led card, the answer).
TRICKS = [
    (0, "2D", "4D"),
    (1, "5D", "JD"),
    (0, "2C", "KC"),
    (1, "4C", "JC"),
    (0, "6D", "KD"),
    (1, "7C", "JB"),
    (0, "2S", "JS"),
    (1, "QD", "7D"),
    (1, "QC", "4S"),
]
TURNED = "4B"


def position():
    """(rules, the state with North's 5 of Cups led): the deal built so that each seat draws
    the cards above, then the nine tricks and North's lead played through the rules."""
    rules = make_rules("briscola", None, 2, {"format": "single"})
    draws = [list(SOUTH[3:]), list(NORTH[3:])]
    stock: list[str] = []
    for leader, a, b in TRICKS:
        w = rules.trick_winner([card(a), card(b)], leader, "B")
        stock += [draws[w].pop(0), draws[1 - w].pop(0)]
    used = set(SOUTH + NORTH + stock + [TURNED])
    stock += [c.code for c in rules.deck_cards if c.code not in used] + [TURNED]
    state = rules.state_from_deal(
        {
            "event": "deal",
            "number": 1,
            "dealer": 1,
            "hands": [SOUTH[:3], NORTH[:3]],
            "table": [],
            "stock": stock,
            "trump": TURNED,
        }
    )
    for _, a, b in TRICKS:
        rules.apply(state, play(a))
        rules.apply(state, play(b))
    rules.apply(state, play("5C"))
    return rules, state


def test_the_position_is_the_one_reported():
    rules, s = position()
    v = rules.view(s, 0)
    assert sorted(c.code for c in v.hand) == ["3B", "6C", "QS"] and v.trick == (card("5C"),)
    assert v.trump_suit == "B" and v.stock_count == 16 and v.points == (6, 16)


def test_winning_the_pointless_trick_with_the_6_is_not_a_mistake_and_the_trump_three_is():
    rules, s = position()
    v, legal = rules.view(s, 0), rules.legal_actions(s)
    thresholds = rules.game.coach
    for seed in (1, 2):  # the player's (the coach's own seed) and another
        six = analyse_position(rules, v, legal, play("6C"), 0, 19, seed=seed)
        assert six.method == "flat"
        assert six.klass in ("best", "good", "inaccuracy") and six.loss < thresholds["mistake"], six
        three = analyse_position(rules, v, legal, play("3B"), 0, 19, seed=seed)
        assert three.klass in ("mistake", "blunder") and three.best != play("3B")
        assert min(three.values, key=lambda m: m.points).action == play("3B")  # the worst of the three


def test_the_move_valued_is_dealt_the_next_pair_by_seat():
    """Winning the trick (6♣) and losing it (Knight) give each seat the same drawn card in a
    world, as the coupled playouts deal every later pair; the rules deal it winner first."""
    rules, s = position()
    v = rules.view(s, 0)
    coach = load_coach("briscola")
    world = load_hooks("briscola").determinize(rules, v, random.Random(3))
    drawn = {}
    for move in ("6C", "QS"):
        mine = rules.clone(world)
        coach.apply(rules, mine, play(move))
        theirs = rules.clone(world)
        rules.apply(theirs, play(move), check=False)
        assert sorted(mine.hands[0] + mine.hands[1]) == sorted(theirs.hands[0] + theirs.hands[1])
        assert mine.points == theirs.points and mine.to_act == theirs.to_act
        drawn[move] = (mine.hands[0][-1], theirs.hands[0][-1])
    assert drawn["6C"][0] == drawn["QS"][0] == world.stock[0]  # seat 0 takes the pair's first card
    assert drawn["6C"][1] != drawn["QS"][1]  # the rules: the winner draws first
    # The last pair, with the turned trump, is dealt as the rules deal it.
    late = rules.clone(world)
    late.stock = late.stock[-2:]
    for move in ("6C", "QS"):
        mine, theirs = rules.clone(late), rules.clone(late)
        coach.apply(rules, mine, play(move))
        rules.apply(theirs, play(move), check=False)
        assert mine.hands == theirs.hands and mine.trump_drawn_by == theirs.trump_drawn_by


def test_dealing_the_pair_by_seat_makes_the_paired_difference_steadier():
    rules, s = position()
    v = rules.view(s, 0)
    hooks, coach = load_hooks("briscola"), load_coach("briscola")

    def spread(apply) -> float:
        diffs = []
        for w in range(300):
            world = hooks.determinize(rules, v, random.Random(f"t:{w}"))
            value = {}
            for move in ("6C", "QS"):
                st = rules.clone(world)
                apply(st, play(move))
                playout(rules, st, random.Random(f"p:{w}"), **coach.playout_kw)
                value[move] = hooks.utilities(rules, st)[0]
            diffs.append(value["QS"] - value["6C"])
        return statistics.stdev(diffs)

    by_seat = spread(lambda st, a: coach.apply(rules, st, a))
    winner_first = spread(lambda st, a: rules.apply(st, a, check=False))
    assert by_seat < 0.85 * winner_first


def test_the_coachs_playouts_are_the_hard_levels_policy_without_random_cards():
    """Both seats of the coach's playouts play the hard level's playout policy (the same hook,
    its exact finish), never a random card: the opponent there is at least as careful as in
    the hard level's own search, which plays a random card one time in ten."""
    rules = make_rules("briscola", None, 2)
    hard = HardBot(rules, 0)
    kw = {**(hard.playout_kw or {}), **load_coach("briscola").playout_kw}
    assert kw.get("epsilon") == 0.0 and kw.get("exact", True) is not False
    assert hard.hooks.playout is load_hooks("briscola").playout
