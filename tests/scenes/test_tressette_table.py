"""Tressette at the table: whole 2- and 4-player matches played by key presses alone (to
the results screen's stand-in), records that pass the verifier, and the must-follow refusal
naming the suit and the cards that may be played, in the deck's own words."""

from __future__ import annotations

import pygame

from game.rules.base import IllegalAction, play
from scenes.app import TICK
from tests.scenes.test_table import key, make_app, table
from tests.scenes.test_table_e2e import check_match, play_match, results_log  # noqa: F401  (a fixture)


def test_a_whole_two_player_tressette_match_by_keyboard(results_log, _private_home):  # noqa: F811
    app, scene, n = play_match("tressette", 2, {"target": 11}, 61, max_ticks=20000)
    check_match(scene, results_log, _private_home, n)
    events = scene.session.match.events
    assert any(e["event"] == "draw" for e in events)
    deal_ends = [e for e in events if e["event"] == "deal_end"]
    assert all(sum(e["points"]) == 11 for e in deal_ends) and n >= 20 * len(deal_ends) - 20
    app.render()


def test_a_whole_four_player_tressette_match_by_keyboard(results_log, _private_home):  # noqa: F811
    app, scene, n = play_match("tressette", 4, {"target": 11}, 62, lang="it", max_ticks=20000)
    check_match(scene, results_log, _private_home, n)
    events = scene.session.match.events
    assert not any(e["event"] == "draw" for e in events)
    assert n >= 10 * (len([e for e in events if e["event"] == "deal_end"]) - 1)
    app.render()


def _refusal_at_a_follow(lang: str) -> tuple[str, IllegalAction]:
    """Find a position where the human must follow and holds another suit; refuse that card."""
    for seed in range(1, 40):
        app = make_app(lang)
        scene = table(app, "tressette", players=2, seed=seed, moves=1)
        s = scene.session
        if not scene.controller.can_act:
            continue
        view = s.match.view(s.human_seat)
        if not view.trick:
            continue
        led = view.trick[0]
        off = [c for c in view.hand if c.suit != led.suit]
        if not off or not any(c.suit == led.suit for c in view.hand):
            continue
        try:
            s.match.rules.validate(s.match.state, play(off[0]))
        except IllegalAction as e:
            key(app, pygame.K_1 + scene.model.hand.index(off[0].code))
            key(app, pygame.K_RETURN)
            app.update(TICK)
            return scene.controller.refusal_text(e), e
    raise AssertionError("no follow with a choice found")


def test_the_must_follow_refusal_names_the_suit_and_the_cards():
    text, e = _refusal_at_a_follow("en")
    assert e.rule == "must_follow"
    suit = {"D": "Coins", "C": "Cups", "S": "Swords", "B": "Batons"}[e.params["suit"]]
    assert text.startswith(f"You must follow {suit}: ")
    # "5 or King of Coins": the suit once, after the ranks that follow it, joined by "or".
    cards = text.split(": ", 1)[1].rstrip(".")
    options = e.params["options"].split(", ")
    assert cards.endswith(f" of {suit}") and cards.count(" of ") == 1
    assert (" or " in cards) == (len(options) > 1)
    text, e = _refusal_at_a_follow("it")
    assert text.startswith("Devi rispondere a ")


def test_a_left_tressette_match_resumes_exactly_with_the_public_draws(_private_home):
    from tests.scenes.test_resume import key as rkey
    from tests.scenes.test_resume import leave_a_match
    from tests.scenes.test_resume import make_app as resume_app

    for players in (2, 4):
        app = resume_app()
        left = leave_a_match(app, "tressette", players, moves=players * 3 + 1)
        menu = app.stack.top
        assert menu.saved is not None and menu.saved.game == "tressette"
        rkey(app, pygame.K_RETURN)
        s = app.stack.top.session
        assert s.match.events == left.match.events and s.to_act == left.to_act
        for seat in range(players):
            # What every seat knows, the public draws and voids included, is rebuilt exactly.
            assert s.match.view(seat) == left.match.view(seat)
        if players == 2:
            assert any(s.match.view(0).known)


def test_the_results_show_thirds_whole_points_the_last_trick_and_the_total_of_11():
    from game.rulesets import make_rules
    from game.services.i18n import I18n
    from scenes.results.breakdown import breakdown

    rules = make_rules("tressette", "piacentine", 2)
    ev = {
        "event": "deal_end",
        "number": 1,
        "leftover": None,
        "points": [6, 5],
        "totals": [6, 5],
        "detail": {"thirds": [17, 15], "last_trick": 0},
    }
    i18n = I18n("en")
    b = breakdown(i18n.t, rules, ev, 0, "en")
    rows = {r.label: r for r in b.rows}
    assert [c.text for c in rows["Card values"].cells] == ["5 ⅔", "5"]
    assert [c.text for c in rows["Whole points of the thirds"].cells] == ["5", "5"]
    assert [c.mark for c in rows["Last trick"].cells] == [True, False]
    assert [c.points for c in rows["Last trick"].cells] == [1, None]
    assert [c.text for c in rows["Deal points (11 in all)"].cells] == ["6", "5"]
    assert b.headline == "You took the last trick: 1 point"
    assert any("every deal is worth 11" in n for n in b.notes)
    rules4 = make_rules("tressette", "piacentine", 4)
    b = breakdown(i18n.t, rules4, dict(ev, detail={"thirds": [20, 12], "last_trick": 1}), 0, "en")
    assert b.headline == "The opponents took the last trick: 1 point"


def test_the_score_panel_counts_the_deal_in_thirds():
    from scenes.table import hud

    app = make_app("en")
    scene = table(app, "tressette", players=4, seed=5, moves=9)
    rules = scene.session.match.rules
    won = [0, 0]
    for ev in scene.session.match.events:
        if ev["event"] == "deal":
            won = [0, 0]
        elif ev["event"] == "trick":
            won[rules.team_of(ev["winner"])] += ev["points"]
    rows = hud.score_rows(scene.view())
    assert [r[3] for r in rows] == [f"{rules.points_text(w)} this deal" for w in won]
    assert [rules.points_text(n) for n in (0, 1, 2, 3, 14)] == ["0", "⅓", "⅔", "1", "4 ⅔"]
    assert any(won)


def _drawn_face_up_and_held(events: list[dict], seat: int) -> list[str]:
    """From the record: the cards ``seat`` drew in this deal and has not played yet."""
    deal = max(i for i, e in enumerate(events) if e["event"] == "deal")
    held: list[str] = []
    for e in events[deal:]:
        if e["event"] == "draw" and e["seat"] == seat:
            held.append(e["card"])
        elif e["event"] == "play" and e["seat"] == seat and e["card"] in held:
            held.remove(e["card"])
    return held


def test_the_opponents_drawn_cards_stay_face_up_in_their_hand_and_can_be_recalled(_private_home):
    import random

    from scenes.table.scene import RECALL_KEY
    from tests.scenes.test_table import keyboard_play

    app = make_app()
    scene = table(app, "tressette", players=2, seed=7, moves=0)
    rng = random.Random(7)
    opponent = 1 - scene.human
    checked = played_known = 0
    for _ in range(4000):
        if scene.session.over or app.stack.top is not scene:
            break
        if scene.controller.can_act and scene.motion.idle:
            # Everything produced so far is shown: the model agrees with the record.
            events = scene.session.match.events
            known = scene.model.known[opponent]
            assert sorted(known) == sorted(_drawn_face_up_and_held(events, opponent))
            for code in known:  # face up, where that hand's backs lie
                assert scene.motion.sprites[code].code == code and code in scene.motion.backs[opponent]
            key(app, RECALL_KEY)
            shown = app.toasts.active[-1]
            if known:
                assert shown.startswith("Drawn face up, still held by North: ")
                for code in known:
                    assert scene.names.card_name(code).split(" of ")[0] in shown
            else:
                assert shown == "No card drawn face up is still held by North."
            checked += 1
            last = events[-1]
            if last["event"] == "play" and last["seat"] == opponent:
                drawn = [e["card"] for e in events if e["event"] == "draw" and e["seat"] == opponent]
                played_known += last["card"] in drawn
            keyboard_play(app, scene, rng.choice(scene.session.legal_actions()))
        app.update(TICK)
    assert checked > 10 and played_known > 0
