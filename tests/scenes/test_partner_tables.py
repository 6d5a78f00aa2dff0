"""Tables with partners: the score panel counts the teams, not the seats; a key offered only
where cards are drawn in view; each side's capture pile labelled with whose it is."""

from __future__ import annotations

import pygame

from game.registry import rules_class
from scenes.app import TICK
from scenes.table import hud
from sprites import theme
from tests.scenes.test_table import key, make_app, table


# ---------------------------------------------------------------------- 2: partners' scores
def test_briscola_for_four_scores_the_teams_not_the_seats():
    app = make_app("en")
    game = next(g for g, c in app.config.games.items() if rules_class(g).hud_scores == "card_points" and 4 in c.players)
    scene = table(app, game, players=4, seed=5, moves=9)
    rules = scene.session.match.rules
    won = [0, 0]
    for ev in scene.session.match.events:
        if ev["event"] == "deal":
            won = [0, 0]
        elif ev["event"] == "trick":
            won[rules.team_of(ev["winner"])] += ev["points"]
    rows = hud.score_rows(scene.view())
    assert [r[1] for r in rows] == [scene.names.team_name(t) for t in range(2)]
    assert {r[1] for r in rows} == {app.t("table.us"), app.t("table.them")}
    assert [int(r[2]) for r in rows] == won and any(won)
    # The replay viewer draws the same HUD from the same rows.
    with theme.measure_text() as m:
        app.render(1.0)
    shown = {s for s, _, _ in m.entries}
    assert app.t("table.us") in shown and app.t("table.partner") in shown


# ---------------------------------------------------------------------- 8: K only where cards are drawn
def test_tressette_for_four_offers_no_key_for_cards_drawn():
    app = make_app("en")
    game = next(g for g, c in app.config.games.items() if rules_class(g).draws_public)
    two = table(app, game, players=2, seed=3, moves=0)
    four = table(make_app("en"), game, players=4, seed=3, moves=0)
    assert two.rules.draws_public and not four.rules.draws_public

    def status(scene) -> set[str]:
        for _ in range(200):
            if scene.controller.can_act:
                break
            scene.app.update(TICK)
        assert scene.controller.can_act
        with theme.measure_text() as m:
            scene.app.render(1.0)
        return {s for s, _, _ in m.entries}

    hint = app.t(f"table.keys_{game}_public_draws")
    assert hint in status(two)
    assert hint not in status(four) and app.t(f"table.keys_{game}") in status(four)
    recalled = []
    four.recall_known = lambda: recalled.append(1)
    key(four.app, pygame.K_k)
    assert recalled == []


# ---------------------------------------------------------------------- 17: one labelled pile per side
def test_four_player_capture_piles_say_whose_they_are():
    from scenes.table import board

    app = make_app("en")
    game = next(g for g in app.config.games if rules_class(g).family == "capture" and 4 in app.config.games[g].players)
    scene = table(app, game, players=4, seed=11, moves=8)
    m = scene.model
    assert len(m.piles) == 2
    for t in range(2):
        text = board.pile_text(scene.view(), t)
        assert text is None if not m.piles[t] else text == f"{scene.names.team_name(t)} · {m.piles[t]}"
    drawn = []
    real = board.badge
    board.badge = lambda surface, text, *a, **k: drawn.append(text) or real(surface, text, *a, **k)
    try:
        app.render(1.0)
    finally:
        board.badge = real
    import sprites.table_draw as draw

    assert (
        all(
            (f"{scene.names.team_name(t)} · {m.piles[t]}" if m.piles[t] else scene.names.team_name(t)) in drawn
            or m.piles[t]
            for t in range(2)
        )
        and draw.badge is real
    )
    # Two players: the count alone, as before.
    two = table(make_app("en"), game, players=2, seed=11, moves=8)
    assert all(board.pile_text(two, t) in (None, str(two.model.piles[t])) for t in range(2))
