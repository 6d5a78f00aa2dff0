"""Partners that help: a computer partner never spoils what its team has on the table.

In four-player Scopa and Cìcera an opponent always plays between the partner and the human
(partners sit opposite), so what the partner can spoil is the team's: a sweep the table
offers it, or a sweep it hands the opponent who plays next. In Briscola for four the partner
plays after the human in some tricks: it must not trump or overtake a trick the human
already holds for sure, and should load it with points instead. Every level is checked on the
obvious cases; normal and hard on the one that needs a look ahead.
"""

from __future__ import annotations

import pytest

from game.ai.bots import make_bot
from game.cards import Card, card, cards
from game.games.briscola.rules import BriscolaState
from game.games.cicera.rules import CiceraState
from game.games.scopa.rules import ScopaState
from game.rulesets import make_rules

SCOPA = make_rules("scopa", None, 4, {})
CICERA = make_rules("cicera", None, 4, {})
BRISCOLA = make_rules("briscola", None, 4, {})
LEVELS = ["easy", "normal", "hard"]


def _choice(rules, state, level: str, seed: int) -> Card:
    bot = make_bot(level, rules, state.to_act, seed)
    bot.time_cap = None  # decided by the iteration budget: the same on every machine
    if level == "hard":
        bot.iterations = 1000
    return bot.choose(rules.view(state, state.to_act), rules.legal_actions(state)).card


def _rest(rules, used: list[Card]) -> list[Card]:
    taken = set(used)
    return [c for c in rules.deck_cards if c not in taken]


def _scopa(hands: list[str], table: str) -> ScopaState:
    """Seat 2 (seat 0's partner) to play in the first round: seats 0 and 1 have played one card
    each (they lie in the piles), seat 3 still holds three; the rest is the stock."""
    hs = [cards(h) for h in hands]
    tb = cards(table)
    used = [c for h in hs for c in h] + tb
    rest = _rest(SCOPA, used)
    piles, stock = rest[: 40 - 24 - len(used)], rest[40 - 24 - len(used) :]
    assert len(stock) == 24 and [len(h) for h in hs] == [2, 2, 3, 3]
    half = len(piles) // 2
    return ScopaState(
        players=4,
        dealer=1,
        number=1,
        hands=hs,
        table=tb,
        stock=stock,
        piles=[piles[:half], piles[half:]],
        scope=[0, 0],
        to_act=2,
    )


@pytest.mark.parametrize("level", LEVELS)
def test_scopa_partner_takes_the_sweep_the_table_offers(level):
    s = _scopa(["AD 2D", "3D 4D", "7C 5S KB", "6D 6C 6S"], "3C 4S")
    assert _choice(SCOPA, s, level, seed=1) == card("7C")


@pytest.mark.parametrize("level", LEVELS)
def test_scopa_partner_takes_the_settebello(level):
    s = _scopa(["AD 2D", "3D 4D", "7S 5S KB", "6D 6C 6S"], "7D JC")
    assert _choice(SCOPA, s, level, seed=2) == card("7S")


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("seed", [3, 4])
def test_scopa_partner_hands_the_next_opponent_no_sweep(level, seed):
    # Nothing captures. A 2 beside the 5 leaves a 7 for seat 3 to sweep, a 3 leaves an 8 (a
    # Jack); the King makes 15, which no card can sweep, and is worth least in the primiera.
    s = _scopa(["AD 2D", "3D 4D", "2S 3B KB", "6D 6C 6S"], "5C")
    assert _choice(SCOPA, s, level, seed) == card("KB")


def _cicera(hands: list[str], table: str) -> CiceraState:
    """Seat 2 to play, its first card: seats 0 and 1 have placed one card each on the table."""
    hs = [cards(h) for h in hands]
    tb = cards(table)
    used = [c for h in hs for c in h] + tb
    rest = _rest(CICERA, used)
    # Whatever is not in a hand or on the table was captured by the team that holds seat 0.
    return CiceraState(
        players=4,
        dealer=1,
        number=1,
        hands=hs,
        table=tb,
        piles=[rest, []],
        bonuses=[[0, 0, 0, 0], [0, 0, 0, 0]],
        to_act=2,
        last_capture_team=0,
    )


@pytest.mark.parametrize("level", LEVELS)
def test_cicera_partner_takes_the_scua_the_table_offers(level):
    # The 9 of Cups takes 4 + 5 and clears the table (scùa); nothing else captures.
    hands = ["AD 2D", "3D 4D", "9C JS QB", "KD KC KS"]
    s = _cicera(hands, "4S 5B")
    assert _choice(CICERA, s, level, seed=5) == card("9C")


def _briscola_trick(hands: list[str], trick: str, leader: int, trump: str = "2D") -> BriscolaState:
    """A first trick of four players with ``trick`` played from ``leader`` on."""
    hs = [cards(h) for h in hands]
    played = cards(trick)
    tc = card(trump)
    stock = _rest(BRISCOLA, [c for h in hs for c in h] + played + [tc]) + [tc]
    return BriscolaState(
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
        led=played[0],
        following=played[1:],
        history=[((leader + i) % 4, c) for i, c in enumerate(played)],
    )


@pytest.mark.parametrize("level", LEVELS)
def test_briscola_partner_never_trumps_the_humans_sure_trick(level):
    # Seat 3 led the 4 of Cups, seat 0 (the human) took the lead with the Ace of Cups, seat 1
    # threw the 5 of Cups; seat 2 plays last, so the Ace wins unless seat 2 trumps its own
    # partner's trick. No level does.
    s = _briscola_trick(["KS 4B", "6S 7S", "3D 6B 3B", "JS QS"], "4C AC 5C", leader=3)
    assert s.to_act == 2
    assert _choice(BRISCOLA, s, level, seed=6) != card("3D")


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_briscola_partner_loads_the_humans_sure_trick(level):
    # Same trick: the 3 of Clubs (10 points) goes onto the trick the team surely takes.
    s = _briscola_trick(["KS 4B", "6S 7S", "3D 6B 3B", "JS QS"], "4C AC 5C", leader=3)
    assert _choice(BRISCOLA, s, level, seed=7) == card("3B")
