"""Each game's coach reasons (game/games/<id>/coach.py) on positions where the rule of thumb
clearly holds, and their text in all four languages."""

from __future__ import annotations

import random

from game.ai.bots import make_bot
from game.cards import card
from game.coach.analysis import analyse_position, positions
from game.coach.hooks import load_coach
from game.coach.words import Words
from game.match import Match
from game.rules.base import Action, play
from game.rules.capture import captured
from game.rulesets import make_rules
from game.services.i18n import I18n

LANGS = ("en", "nl", "de", "it")
_I18N: dict[str, I18n] = {}


def texts(rules, reason, seat: int = 0) -> dict[str, str]:
    for lang in LANGS:
        if lang not in _I18N:  # reading a locale costs a few tenths of a second
            _I18N[lang] = I18n(lang)
    out = {lang: Words(_I18N[lang].t, rules, lang, seat).reason(reason) for lang in LANGS}
    assert len(set(out.values())) == 4 and not any("{" in t or t.startswith("coach.") for t in out.values()), out
    return out


def deal_positions(game: str, players: int, seeds: range, seat: int = 0):
    rules = make_rules(game, None, players)
    for seed in seeds:
        events = Match(rules, seed, [make_bot("greedy", rules, s, seed) for s in range(players)], deals=1).run()
        yield from positions(rules, events, seat)


def test_tressette_throwing_the_ace_on_a_lost_trick_is_a_blunder_and_says_so():
    """Tressette for two, the stock gone: North led the 3 of Cups (nothing beats it); South
    must follow with the Ace (a whole point) or the 4, and wins the last two tricks with the
    2 of Batons and the club kept — so the 4 now keeps the Ace."""
    rules = make_rules("tressette", None, 2)
    s = rules.new_deal(random.Random(2), 1, 1)
    hands = [[card("AC"), card("4C"), card("2B")], [card("5B"), card("6B")]]
    led = card("3C")
    rest = [c for c in rules.deck_cards if c not in {*hands[0], *hands[1], led}]
    s.hands, s.stock, s.trick, s.leader, s.to_act = hands, [], [led], 1, 0
    s.piles = [rest[0::2], rest[1::2]]
    s.thirds = [sum(rules.card_thirds[c] for c in p) for p in s.piles]
    s.tricks = [9, 9]
    s.known, s.voids = [[], []], [frozenset(), frozenset()]
    s.history = [(i % 2, c) for i, c in enumerate(rest)] + [(1, led)]
    view, legal = rules.view(s, 0), rules.legal_actions(s)
    assert set(legal) == {play("AC"), play("4C")}  # following suit
    d = analyse_position(rules, view, legal, play("AC"), 0, 0, budget=20)
    assert d.method == "exact" and d.best == play("4C")
    assert d.loss == 2.0 and d.klass == "blunder"  # a point to them instead of none: the margin moves by 2
    assert d.reason == ("coach.reason.throws_thirds", {"card": "AC"})
    out = texts(rules, d.reason)
    assert out["en"] == "throws the Ace of Cups, a counting card, on a trick the other side takes"


def test_schnapsen_closing_without_a_sure_trick_is_named():
    rules = make_rules("schnapsen")
    hook = load_coach("schnapsen").reason
    close = Action("close")
    seen = 0
    for p in deal_positions("schnapsen", 2, range(1, 30)):
        if close not in p.legal:
            continue
        other = next(a for a in p.legal if a.kind == "play")
        sure = sum(
            1
            for c in p.view.hand
            if c.suit == p.view.trump
            and all(rules.strength[c] > rules.strength[u] for u in p.view.unseen if u.suit == p.view.trump)
        )
        key, params = hook(rules, p.view, close, other)
        assert key == ("coach.reason.closing_weak" if sure else "coach.reason.closing_blind")
        assert params == {"points": p.view.points, "count": sure}
        out = texts(rules, (key, params))
        assert str(p.view.points) in out["de"]
        assert hook(rules, p.view, other, close) == ("coach.reason.should_close", {"points": p.view.points})
        seen += 1
    assert seen >= 3


def test_cicera_a_missed_bonus_is_named_with_the_better_move():
    rules = make_rules("cicera")
    hook = load_coach("cicera").reason
    for p in deal_positions("cicera", 4, range(1, 20)):
        table = list(p.view.table)
        scored = [
            a for a in p.legal if captured(a) and rules.capture_bonuses(a.card, captured(a), table, p.view.last_placed)
        ]
        plain = [a for a in p.legal if not captured(a)]
        if scored and plain:
            best = scored[0]
            bonuses = list(rules.capture_bonuses(best.card, captured(best), table, p.view.last_placed))
            reason = hook(rules, p.view, plain[0], best)
            assert reason == ("coach.reason.missed_bonus", {"bonus": bonuses, "move": best})
            out = texts(rules, reason)
            assert all(rules.bonus_callouts.get(b, b) in out["it"] for b in bonuses)
            return
    raise AssertionError("no position with a bonus capture and a plain play")


def test_briscola_for_four_trumping_the_partners_trick_is_named():
    rules = make_rules("briscola", None, 4)
    hook = load_coach("briscola").reason
    from game.games.briscola.heuristics import trick_so_far

    for seat in (2, 3):
        for p in deal_positions("briscola", 4, range(1, 25), seat=seat):
            v = p.view
            if len(v.trick) < 2:
                continue
            leader = (v.to_act - len(v.trick)) % 4
            _, top_seat, _ = trick_so_far(rules, list(v.trick), leader, v.trump_suit)
            if rules.team_of(top_seat) != rules.team_of(seat) or top_seat == seat:
                continue
            trumps = [
                a
                for a in p.legal
                if a.card.suit == v.trump_suit and rules.trick_winner([*v.trick, a.card], leader, v.trump_suit) == seat
            ]
            low = [a for a in p.legal if a.card.suit != v.trump_suit and rules.card_points[a.card] == 0]
            if trumps and low:
                reason = hook(rules, v, trumps[0], low[0])
                assert reason == ("coach.reason.trumps_partner", {"card": trumps[0].card.code})
                out = texts(rules, reason, seat)
                assert "partner" in out["en"] and "compagno" in out["it"]
                return
    raise AssertionError("no position where the partner held the trick")
