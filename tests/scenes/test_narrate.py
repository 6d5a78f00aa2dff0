"""The table's words (scenes.table.narrate) on the events of every registered game: each
play, trick, draw and score told in the deck's own names in four languages, nothing hidden
told, the story's piles and points agreeing with the record, and the running tally (the
rules' ``tally``) agreeing with ``deal_result`` at the end of every deal."""

from __future__ import annotations

import re

import pytest

from game.registry import rules_class
from game.rulesets import game_ids, make_rules
from game.services.i18n import I18n
from game.services.session import Session
from scenes import names
from scenes.table.narrate import Capture, Narrator, Trick, narrate

LANGS = ("en", "nl", "de", "it")


def _match(game: str, players: int, seed: int = 5) -> Session:
    s = Session.new(game, None, players, None, seed, human_seat=None, bot_name="greedy", threaded=False)
    s.start()
    while not s.over:
        s.poll()
    return s


def _cases() -> list[tuple[str, int]]:
    out = []
    for gid in game_ids():
        rules = make_rules(gid)
        for n in rules.game.players:
            out.append((gid, n))
    return out


CASES = _cases()
MATCHES: dict[tuple[str, int], Session] = {}


def match(game: str, players: int) -> Session:
    if (game, players) not in MATCHES:
        MATCHES[(game, players)] = _match(game, players)
    return MATCHES[(game, players)]


def test_every_registered_game_is_told():
    assert {g for g, _ in CASES} == set(game_ids()) and len(CASES) >= len(game_ids())


@pytest.mark.parametrize("game,players", CASES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_event_of_a_whole_match_is_told_in_the_decks_own_words(game, players, lang):
    s = match(game, players)
    rules = s.rules
    i18n = I18n(lang)
    viewer = 0
    n = Narrator(rules, i18n.t, lang, viewer)
    deal_trump = None
    for ev in s.match.events:
        kind = ev["event"]
        if kind == "deal":
            deal_trump = ev.get("trump")
        line = n.feed(ev)
        if kind in (
            "deal",
            "play",
            "trick",
            "draw",
            "deal_end",
            "match_end",
            "exchange",
            "marriage",
            "close",
            "hands",
            "redeal",
        ):
            assert line is not None, kind
        if line is None:
            continue
        text = line.text
        # No key, no unfilled placeholder, no card code shows through.
        assert "narrate." not in text and not re.search(r"\{[a-z_]+\}", text), text
        if kind == "play":
            assert names.card_name(i18n.t, rules.deck, lang, ev["card"]) in text
            who = names.seat_name(i18n.t, ev["seat"], viewer, rules.players, True, rules.team_of)
            if ev["seat"] != viewer:
                assert text.startswith(who), text
            assert line.caption, "every play has a caption"
            for b in ev.get("bonuses") or []:
                assert rules.bonus_callouts[b] in text and rules.bonus_callouts[b] in line.caption
        elif kind == "trick":
            assert line.caption and line.seat == ev["winner"]
        elif kind == "draw":
            drawn = names.card_name(i18n.t, rules.deck, lang, ev["card"])
            public = rules.draws_public or ev["seat"] == viewer or ev["card"] == deal_trump
            # Another seat's private draw is told as "a card": its name never appears.
            assert (drawn in line.text) == public, (line.text, drawn)
            if ev["card"] == deal_trump:
                deal_trump = None


@pytest.mark.parametrize("game,players", CASES)
def test_the_story_agrees_with_the_record(game, players):
    s = match(game, players)
    rules = s.rules
    i18n = I18n("en")
    n = Narrator(rules, i18n.t, "en", 0)
    for ev in s.match.events:
        n.feed(ev)
        if ev["event"] != "deal_end":
            continue
        deal, detail = n.deal, ev.get("detail") or {}
        if rules.is_capture_game:
            counts = detail.get("card_counts")
            if counts is not None and not detail.get("no_capture"):
                assert [len(p) for p in deal.piles] == counts
            # The running tally, from the story's piles and bonuses, is the deal's result.
            result = rules.tally(deal.piles, deal.bonuses)
            assert result is not None and result.points == ev["points"]
        else:
            assert rules.tally(deal.piles, deal.bonuses) is None
            assert sum(len(p) for p in deal.piles) == sum(len(t.cards) for ts in deal.tricks for t in ts)
            if "thirds" in detail:
                assert deal.points == detail["thirds"]
            elif "card_points" in detail and len(detail["card_points"]) == rules.teams:
                assert deal.points == detail["card_points"]
            elif "card_points" in detail:  # the deal's sides (a caller's and the defenders'), not its teams
                assert sum(deal.points) == sum(detail["card_points"])
    assert n.totals == s.match.events[-1]["totals"]
    assert n.deals and n.deals[-1].lines[-1].kind == "match_end"


@pytest.mark.parametrize(
    "lang,expected",
    [
        ("en", "West plays the 7 of Coins and takes 3 + 4 — Scopa!"),
        ("nl", "West speelt de 7 van Munten en pakt 3 + 4 — Scopa!"),
        ("de", "West spielt Münzen-7 und nimmt 3 + 4 — Scopa!"),
        ("it", "Ovest gioca il 7 di Denari e prende 3 + 4 — Scopa!"),
    ],
)
def test_a_sweep_is_captioned_in_words_with_the_decks_names(lang, expected):
    rules = make_rules(next(g for g in game_ids() if rules_class(g).bonus_callouts.get("scopa")), "piacentine", 4)
    t = I18n(lang).t
    n = Narrator(rules, t, lang, 0)
    n.feed(
        {
            "event": "deal",
            "number": 1,
            "dealer": 2,
            "hands": [[], [], [], []],
            "table": ["3C", "4S"],
            "stock": [],
            "trump": None,
        }
    )
    line = n.feed({"event": "play", "seat": 3, "card": "7D", "capture": ["3C", "4S"], "bonuses": ["scopa"]})
    assert line.caption == expected
    assert line.seat == 3 and line.score is not None and "3 + 4" not in line.text  # the log names them in full
    take = n.deal.last_take
    assert isinstance(take, Capture) and take.taken == ["3C", "4S"] and n.deal.piles[1] == ["7D", "3C", "4S"]


def test_italian_articles_follow_the_rank_word():
    rules = make_rules("briscola", "piacentine", 2)
    n = Narrator(rules, I18n("it").t, "it", 0)
    assert n.card("AD") == "l'Asso di Denari"
    assert n.card("7C") == "il 7 di Coppe"
    assert n.card("KS") == "il Re di Spade"
    french = make_rules("briscola", "piemontesi", 2)
    assert Narrator(french, I18n("it").t, "it", 0).card("QC").startswith("la Donna")
    assert Narrator(rules, I18n("en").t, "en", 0).card("AD") == "the Ace of Coins"


def test_a_trick_names_its_winner_card_and_points_and_the_viewers_own_verb():
    rules = make_rules("briscola", "piacentine", 2)
    t = I18n("en").t
    n = Narrator(rules, t, "en", 0)
    n.feed(rules.deal_event(rules.new_deal(__import__("random").Random(1), 1)))
    assert n.feed({"event": "play", "seat": 1, "card": "AC"}).text == "North leads the Ace of Cups."
    assert n.feed({"event": "play", "seat": 0, "card": "3C"}).text == "You play the 3 of Cups."
    line = n.feed({"event": "trick", "winner": 1, "cards": ["AC", "3C"], "points": 21})
    assert line.text == "North takes the trick with the Ace of Cups: 21 points."
    assert line.score == "You 0  ·  North 21"
    assert isinstance(n.deal.last_trick, Trick) and n.deal.last_trick.cards == [(1, "AC"), (0, "3C")]
    assert n.feed({"event": "draw", "seat": 1, "card": "5S"}).text == "North draws a card."
    n.feed({"event": "draw", "seat": 0, "card": "6S"})
    assert n.deal.lines[-1].text == "North draws a card.  ·  You draw the 6 of Swords."  # one line per round


def test_thirds_are_told_as_players_count_them():
    rules = make_rules(next(g for g in game_ids() if rules_class(g).draws_public), None, 2)
    n = Narrator(rules, I18n("en").t, "en", 0)
    assert n.points(5) == "1 ⅔ points" and n.points(3) == "1 point" and n.points(0) == "no points"
    assert rules.points_text(2) == "⅔"


def test_a_narrator_starts_over_with_a_new_match():
    s = match("briscola", 2)
    i = I18n("en")
    n = narrate(s.match.events, s.rules, i.t, "en", 0)
    again = narrate(s.match.events + s.match.events, s.rules, i.t, "en", 0)  # a second "match" line resets
    assert [ln.text for d in again.deals for ln in d.lines] == [ln.text for d in n.deals for ln in d.lines]


def test_a_redeal_keeps_its_words_and_starts_the_deal_afresh():
    rules = make_rules("scopa", "piacentine", 2)
    n = Narrator(rules, I18n("en").t, "en", 0)
    deal = {
        "event": "deal",
        "number": 1,
        "dealer": 1,
        "hands": [[], []],
        "table": ["KC", "KS", "KB", "2D"],
        "stock": ["5C"] * 30,
        "trump": None,
    }
    n.feed(deal)
    n.feed({"event": "redeal", "reason": "kings"})
    n.feed({**deal, "table": ["3C", "4S", "5B", "2D"]})
    assert len(n.deals) == 1
    kinds = [ln.kind for ln in n.deal.lines]
    assert kinds == ["deal", "redeal", "deal"] and "the 3 of Cups" in n.deal.lines[-1].text
    assert n.deal.piles == [[], []] and n.deal.stock == 30


# ---------------------------------------------------------------------- an auction and a hidden partner
def _chiamata_deal(seed: int) -> tuple[object, list[dict], object]:
    """A deal of Briscola chiamata played by random legal actions: (rules, its lines, the state)."""
    import random

    rules = make_rules("chiamata", "piacentine", 5)
    rng = random.Random(seed)
    state = rules.new_deal(rng, rng.randrange(5))
    lines = list(state.opening_events)
    while not rules.is_over(state):
        lines += rules.apply(state, rng.choice(rules.legal_actions(state)))
    return rules, lines, state


@pytest.mark.parametrize("lang", LANGS)
def test_the_auction_and_the_call_are_told_with_the_decks_words(lang):
    rules = make_rules("chiamata", "piacentine", 5)
    i18n = I18n(lang)
    n = Narrator(rules, i18n.t, lang, 0)
    n.feed({"event": "deal", "number": 1, "dealer": 4, "hands": [[]] * 5, "table": [], "stock": [], "trump": None})
    told = [
        n.feed(ev)
        for ev in (
            {"event": "bid", "seat": 1, "rank": "K"},
            {"event": "bid", "seat": 2, "rank": "2", "points": 75},
            {"event": "pass", "seat": 3},
            {"event": "call", "seat": 2, "card": "QC"},
        )
    ]
    texts = [line.text for line in told if line is not None]
    assert len(texts) == 4
    for text in texts:
        assert "narrate." not in text and "{" not in text, text
    assert rules.deck.court_name("K", lang) in texts[0]
    assert "75" in texts[1]
    suit = rules.deck.suit_name("C", lang)
    assert names.card_name(i18n.t, rules.deck, lang, "QC") in texts[3] and suit in texts[3].split(":")[-1]
    assert not re.search(r"\b(the the|il il|il l'|de de)\b", texts[3]), texts[3]


@pytest.mark.parametrize("seed", range(6))
def test_a_hidden_partner_is_told_when_the_called_card_falls_and_never_before(seed):
    rules, lines, state = _chiamata_deal(seed)
    if state.caller is None:
        return  # thrown in: nobody called
    i18n = I18n("en")
    caller, partner = state.caller, state.partner
    called = state.called.code
    for viewer in range(5):
        n = Narrator(rules, i18n.t, "en", viewer)
        told = []
        for ev in lines:
            line = n.feed(ev)
            told.append((ev, line))
            # The narrator's sight of the sides is the view's, line by line: no leak.
            if ev.get("event") not in ("deal_end",):
                assert n.deal.seen == rules.seen_teams(n.deal.events, viewer)
        said = [(ev, ln) for ev, ln in told if ln is not None and ("partner" in ln.text or "alone" in ln.text)]
        knows_early = viewer == partner  # the holder of the called card (a lone caller too)
        if knows_early and viewer != caller:
            # told at the call: "South is your partner."
            assert [ev["event"] for ev, _ in said] == ["call"] and said[0][1].text.endswith("is your partner.")
        elif knows_early:
            assert said == []  # alone, and the caller knew it
        else:
            ev, line = said[0]
            assert len(said) == 1 and ev["event"] == "play" and ev["card"] == called, line.text
            assert line.text.endswith("plays alone." if caller == partner else "partner.")
