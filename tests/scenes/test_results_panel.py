"""The results panel: nothing of the table shows through it, and the player keeps the first
column in a duplicate's second half (where they sit in the other chair)."""

from __future__ import annotations

import pygame
import pytest

from game.ai.bots import make_bot
from scenes.app import TICK
from scenes.results import scene as results
from scenes.results.breakdown import breakdown, viewer_first
from scenes.scene import Scene
from scenes.table import hud
from sprites import theme
from tests.scenes.test_table import make_app


@pytest.fixture(autouse=True)
def normal_text_after():
    yield
    theme.set_text_scale(1.0)  # a test with larger text leaves the others at the usual size


# ---------------------------------------------------------------------- the results panel is opaque
class Painted(Scene):
    """A stand-in table: the whole canvas one colour (a bright caption anywhere under the panel)."""

    name = "table"
    colour = (255, 255, 255)

    def draw(self, surface):
        surface.fill(self.colour)


def test_nothing_of_the_table_shows_through_the_results_panel():
    app = make_app("en")
    s, de, me = results.demo(app, "scopa", None, 2, False)
    app.open_path("menu")
    below = Painted(app)
    app.stack.push(below)
    app.open_scene("results", session=s, deal_end=de, match_end=None)
    app.settle(60)
    res = app.stack.top
    inner = res.rect.inflate(-40, -40)
    shots = []
    for colour in ((255, 255, 255), (0, 0, 0)):
        below.colour = colour
        app.render(1.0)
        shots.append(pygame.image.tobytes(app.canvas.subsurface(inner), "RGB"))
    # The same panel over white and over black (a see-through one differed by 17 levels).
    assert max(abs(a - b) for a, b in zip(*shots)) <= 2


# ---------------------------------------------------------------------- a duplicate's second half
def test_the_second_half_of_a_duplicate_keeps_you_in_the_first_column():
    from game.services.challenge import DuplicatePlay
    from game.services.daily import daily_deal

    app = make_app("en")
    d = daily_deal("briscola").deal
    dup = DuplicatePlay(d.game, d.deck, d.players, dict(d.options), d.seed, "greedy")
    for half in (1, 2):
        s = dup.session(half, threaded=False)
        helper = make_bot("greedy", s.rules, s.human_seat, 1)
        s.start()
        while not s.over:
            if s.human_to_act:
                s.submit(helper.choose(s.view(), s.legal_actions()))
            else:
                s.poll()
        dup.finished(s)
    assert s.human_seat != 0  # the second half: the player sits in the other chair
    ends = [e for e in s.match.events if e["event"] in ("deal_end", "match_end")]
    app.open_path("daily")
    app.open_scene("table", session=s)
    app.open_scene("results", session=s, deal_end=ends[0], match_end=ends[-1])
    app.update(TICK)
    res = app.stack.top
    m = res.model()
    you, other = app.t("table.you"), app.t("table.north")
    assert m.columns == [you, other] and m.mine == 0
    plain = breakdown(app.t, s.rules, ends[0], s.human_seat, "en", True)
    assert plain.columns == [other, you]  # in team order the player's column is the second
    assert [[c.text for c in r.cells] for r in m.rows] == [[c.text for c in r.cells][::-1] for r in plain.rows]
    app.render(1.0)
    drawn = [t for t, _, _ in res.text_log]
    assert drawn.index(you) < drawn.index(other)
    assert res.speech_opening()[1:] and all(
        ln.index(you) < ln.index(other) for ln in res.speech_opening() if you in ln and other in ln
    )
    # The table's score panel beneath too: "You" on top in the other chair as well.
    assert [row[1] for row in hud.score_rows(app.stack.find("table").view())] == [you, other]


def test_viewer_first_moves_a_second_seats_column_and_keeps_team_order_otherwise():
    app = make_app("en")
    s, de, _ = results.demo(app, "briscola", None, 2, False)
    b = viewer_first(breakdown(app.t, s.rules, de, 1, "en"))
    assert b.columns[0] == app.t("table.you") and b.order == [1, 0] and b.mine == 0
    assert b.bar == (de["detail"]["card_points"][1], de["detail"]["card_points"][0])
    same = viewer_first(breakdown(app.t, s.rules, de, 0, "en"))
    assert same.order == [0, 1] and same.columns[0] == app.t("table.you")
