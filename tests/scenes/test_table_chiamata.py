"""Briscola chiamata at the table, through the generic seams only: the plates coloured by
what the viewer knows of the hidden sides (never the partner before it shows), the rules'
facts in sight (the contract, the called card and its trump, the caller's and the
partner's plates), the caption of a match of fixed deals, the auction's words on the
plates, and the results' row of who played with whom."""

from __future__ import annotations

import random

import pygame

from scenes.results.breakdown import breakdown, deal_lines
from scenes.table import board, hud
from scenes.table.narrate import plate_words
from tests.scenes.test_table import keyboard_play, make_app, table


def settle(app, scene, ticks: int = 600) -> None:
    for _ in range(ticks):
        if scene.controller.can_act or scene.session.over or app.stack.scenes[-1] is not scene:
            return
        app.update(1 / 60)


def test_plates_show_only_the_sides_the_viewer_knows_and_the_facts_follow_the_deal():
    app = make_app("en")
    scene = table(app, "chiamata", players=5, deck="piacentine", seed=11, moves=0)
    rng = random.Random(2)
    session, human = scene.session, scene.human
    assert hud.score_caption(scene.view()) == "Deal 1 of 10"
    checked = called_seen = plays_checked = 0
    for _ in range(60):
        settle(app, scene)
        if app.stack.scenes[-1] is not scene or session.over:
            break
        v = scene.view()
        sides = session.view(human).sides  # what the rules say the human knows now
        for seat in range(5):
            neutral = hud.seat_color(v, seat) == hud.NEUTRAL
            assert neutral == (sides[seat] is None), (seat, sides)
            if sides[seat] is not None and sides[human] is not None:
                same = hud.seat_color(v, seat) == hud.seat_color(v, human)
                assert same == (sides[seat] == sides[human])
        facts = hud.facts(v)
        state = session.match.state
        if state.called is not None:
            called_seen += 1
            shown = {f.label: hud.fact_words(v, f.value, f.params) for f in facts if f.seat is None}
            assert shown["table.chiamata.called"] == scene.names.card_name(state.called.code)
            assert any(f.suit == state.called.suit for f in facts)
            # W reads them aloud: the contract and the called card.
            assert f"Called card: {scene.names.card_name(state.called.code)}." in scene.reader.trump()
            tags = {f.seat: f.label for f in facts if f.seat is not None}
            assert tags.get(state.caller) in ("table.chiamata.caller", "table.chiamata.alone")
            # The partner's plate is marked once the human knows it, never before.
            knows = sides[state.partner] is not None and None not in sides
            assert (tags.get(state.partner) is not None) == knows or state.partner == state.caller
        # The auction's buttons are in sight until the card is called, then gone (not greyed);
        # while the human only bids, passes or calls, no card of the hand rises.
        auction = state.called is None
        assert all(scene.buttons[k].visible == auction for k in ("bid", "pass", "call")), auction
        if scene.controller.can_act:
            cards = any(a.card is not None for a in session.legal_actions())
            assert board.plays_a_card(v) == cards
            if not cards:
                assert all(board.lift_target(v, code) == 0.0 for code in v.model.hand)
                plays_checked += 1
        checked += 1
        keyboard_play(app, scene, rng.choice(session.legal_actions()))
    assert checked > 8 and called_seen > 0 and plays_checked > 0


def test_the_auction_in_short_words_on_the_plates():
    app = make_app("it")
    scene = table(app, "chiamata", players=5, deck="piacentine", seed=3, moves=0)
    fields = scene.motion.narrator.fields
    said = {
        1: {"event": "bid", "seat": 1, "rank": "K"},
        2: {"event": "bid", "seat": 2, "rank": "2", "points": 75},
        3: {"event": "pass", "seat": 3},
        4: {"event": "call", "seat": 4, "card": "3C"},
    }
    assert plate_words(app.t, said, 1, fields) == scene.deck.court_name("K", "it")
    assert plate_words(app.t, said, 2, fields) == "2 a 75"
    assert plate_words(app.t, said, 3, fields) == "Passo"
    assert plate_words(app.t, said, 4, fields) == f"3 di {scene.deck.suit_name('C', 'it')}"


def test_the_results_say_who_played_with_whom():
    app = make_app("en")
    scene = table(app, "chiamata", players=5, deck="piacentine", seed=5, moves=0)
    rng = random.Random(1)
    session = scene.session
    for _ in range(80):
        settle(app, scene)
        ends = [ev for ev in session.match.events if ev.get("event") == "deal_end"]
        if ends or not scene.controller.can_act:
            break
        keyboard_play(app, scene, rng.choice(session.legal_actions()))
    ends = [ev for ev in session.match.events if ev.get("event") == "deal_end"]
    assert ends
    end = ends[0]
    detail = end["detail"]
    b = breakdown(app.t, session.rules, end, 0, "en", lines=deal_lines(session.match.events, end))
    if detail["caller"] is None:  # thrown in: nobody had a part
        assert all(r.label != "Role" for r in b.rows)
        return
    role = next(r for r in b.rows if r.label == "Role")
    words = [c.text for c in role.cells]
    assert words[detail["caller"]] in ("Caller", "Alone")
    if detail["partner"] != detail["caller"]:
        assert words[detail["partner"]] == "Partner"
    assert words.count("Defender") == 5 - len({detail["caller"], detail["partner"]})


def test_the_chooser_draws_and_fits_in_every_language():
    from scenes.table.chooser import Chooser

    for lang in ("en", "nl", "de", "it"):
        app = make_app(lang)
        scene = table(app, "chiamata", players=5, deck="piacentine", seed=3, moves=0)
        settle(app, scene)
        kind = scene.controller.kinds["bid"]
        scene.controller.chooser = Chooser(kind, scene.session.legal_actions())
        scene.draw(app.canvas)
        from scenes.table import chooser_view

        panel, boxes = chooser_view.boxes(scene.controller.chooser, scene.deck.aspect, scene.chooser_bottom())
        assert pygame.Rect(0, 0, 1280, 720).contains(panel)
        for b in scene.buttons.values():  # the table's own buttons stay clickable beside it
            assert not panel.colliderect(b.rect), (lang, b.name)
