"""Seats named by where they sit, at every table size a game offers (five: two seats along the
top), alike on the table, in the coach's words and on the results screen; a headline naming
two seats reads as one sentence; a refused bid names ranks in words."""

from __future__ import annotations

import pytest

from game.coach.words import Words
from game.registry import game_module
from game.rulesets import game_ids, make_rules
from game.seat_names import direction_key
from game.services.i18n import I18n
from scenes import names
from scenes.results.breakdown import breakdown
from scenes.table.phrases import refusal_words
from sprites import theme
from sprites.table_layout import TableLayout

LANGS = ("en", "nl", "de", "it")


def _tables() -> dict[int, str]:
    """A game for every player count some game offers."""
    out: dict[int, str] = {}
    for gid in game_ids():
        for n in make_rules(gid).game.players:
            out.setdefault(n, gid)
    return out


def _five() -> str:
    return next(gid for n, gid in _tables().items() if n == len(("S", "E", "NE", "NW", "W")))


@pytest.mark.parametrize("players,game", sorted(_tables().items()))
def test_each_seat_is_named_by_where_the_table_draws_it(players, game):
    t = I18n("en").t
    for viewer in range(players):
        layout = TableLayout(players, 1.6, game, human_seat=viewer)
        top = sorted((s for s in range(players) if layout.side(s) == "top"), key=layout.top_slot)
        expect = {s: {"right": "East", "left": "West"}.get(layout.side(s)) for s in range(players)}
        if len(top) == 1:
            expect[top[0]] = "North"
        elif top:  # along the top, left to right as drawn
            expect[top[0]], expect[top[-1]] = "North-West", "North-East"
        expect[viewer] = "You"
        got = {s: names.seat_name(t, s, viewer, players) for s in range(players)}
        assert got == expect, (players, viewer)


def test_two_three_and_four_seats_keep_their_names():
    t = I18n("en").t
    assert [names.seat_name(t, s, 0, 2) for s in range(2)] == ["You", "North"]
    assert [names.seat_name(t, s, 1, 3) for s in range(3)] == ["West", "You", "East"]
    assert [names.seat_name(t, s, 0, 4) for s in range(4)] == ["You", "East", "North", "West"]
    assert direction_key(0, 4) is None


@pytest.mark.parametrize(
    "lang,words",
    [
        ("en", ["You", "East", "North-East", "North-West", "West"]),
        ("nl", ["Jij", "Oost", "Noordoost", "Noordwest", "West"]),
        ("de", ["Du", "Ost", "Nordost", "Nordwest", "West"]),
        ("it", ["Tu", "Est", "Nord-Est", "Nord-Ovest", "Ovest"]),
    ],
)
def test_five_seats_read_the_same_on_the_table_in_the_coach_and_in_the_results(lang, words):
    i18n = I18n(lang)
    rules = make_rules(_five())
    n = rules.players
    for viewer in (0, 3):
        turned = [words[(s - viewer) % n] for s in range(n)]
        assert [names.seat_name(i18n.t, s, viewer, n) for s in range(n)] == turned
        assert [Words(i18n.t, rules, lang, viewer).seat(s) for s in range(n)] == turned
        assert names.team_names(i18n.t, n, viewer, subject=True, team_of=rules.team_of) == turned


def test_a_four_seat_coach_still_names_the_partner():
    rules = next(make_rules(g, None, 4) for n, g in sorted(_tables().items()) if n == len("NESW"))
    t = I18n("en").t
    assert [Words(t, rules, "en", 0).seat(s) for s in range(4)] == ["You", "East", "Partner", "West"]


# ---------------------------------------------------------------------- the results headline
def _headline(lang: str, viewer: int | None, caller: int, partner: int, won: bool = True) -> str:
    rules = make_rules(_five())
    i18n = I18n(lang)
    detail = {"caller": caller, "partner": partner, "called": "3C", "card_points": [70, 50], "won": won}
    ev = {"event": "deal_end", "points": [0] * rules.players, "totals": [0] * rules.players, "detail": detail}
    return breakdown(i18n.t, rules, ev, viewer, lang).headline


def test_the_headline_of_two_seats_reads_as_one_sentence():
    assert game_module(_five(), "results", optional=True) is not None
    # Nobody's chair: the second name keeps its article in lower case.
    assert _headline("it", None, 2, 3).startswith("Il giocatore 3 fa il contratto in coppia con il giocatore 4")
    assert _headline("en", None, 2, 3).startswith("Player 3 and Player 4 made the contract")
    # The player's own side: "you" first, the verb agreeing with it.
    # Italian names the partner after "in coppia con": never "e Est", which wants "ed".
    assert _headline("it", 0, 3, 0) == "Contratto fatto, in coppia con Nord-Ovest: 70 punti."
    assert _headline("it", 0, 0, 1) == "Contratto fatto, in coppia con Est: 70 punti."
    assert _headline("de", 0, 0, 2, won=False) == "Du und Nordost verfehlt das Gebot: 70 Augen."
    assert _headline("en", 0, 0, 0) == "You played alone and made it with 70 card points."
    assert _headline("it", 0, 0, 0) == "Giochi da solo e fai il contratto con 70 punti."
    assert _headline("nl", 0, 1, 4) == "Oost en West halen het bod met 70 punten."
    for lang in LANGS:
        for viewer in (None, 0, 1):
            for caller, partner in ((2, 3), (0, 1), (1, 0), (4, 4), (0, 0)):
                text = _headline(lang, viewer, caller, partner)
                assert "{" not in text and "results." not in text, (lang, text)
                head, _, rest = text.partition(" ")
                assert not any(w in rest.split() for w in ("Il", "Dein", "Je")), (lang, text)


# ---------------------------------------------------------------------- a refused bid
@pytest.mark.parametrize("lang", LANGS)
def test_a_bid_not_lower_names_the_last_bid_and_the_bids_left_in_words(lang):
    import random

    from game.games.chiamata.vocabulary import bid
    from game.rules.base import IllegalAction

    rules = make_rules("chiamata")
    i18n = I18n(lang)
    state = rules.new_deal(random.Random(1), 0)
    rules.apply(state, bid(rules.bid_order[2]))  # the third rank down: the two above it are refused now
    with pytest.raises(IllegalAction) as caught:
        rules.validate(state, bid(rules.bid_order[0]))
    e = caught.value
    text = refusal_words(i18n.t, i18n.has, rules.deck, lang, e)
    ranks = [names.rank_name(i18n.t, rules.deck, lang, r) for r in rules.bid_order]
    assert "{" not in text and ranks[2] in text and ranks[-1] in text, text
    assert ranks[0] not in text.split(":")[-1], text  # only the bids still open are offered
    # The longest refusal (after a bid of the highest rank) still fits the banner's two lines.
    state = rules.new_deal(random.Random(1), 0)
    rules.apply(state, bid(rules.bid_order[0]))
    with pytest.raises(IllegalAction) as caught:
        rules.validate(state, bid(rules.bid_order[0]))
    longest = refusal_words(i18n.t, i18n.has, rules.deck, lang, caught.value)
    assert len(theme.wrap(longest, "sans_bold", 16, 760 - 48)) <= 2, longest  # sprites.table_draw.banner
    if lang == "en":
        assert text == (
            "Each bid must come below the last one (King) in the order of bids: "
            "you may bid Knight, Knave, 7, 6, 5, 4 or 2."
        )
