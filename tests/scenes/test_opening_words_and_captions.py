"""The table's words: the hand said once the deal has landed, a long caption in extra-large
text leaving the trump chip in view, and a language switched mid-match telling the table in
the new one."""

from __future__ import annotations

import pygame
import pytest

from game.services.speech import Speech
from scenes.app import TICK
from scenes.registry import make_scene
from scenes.table import board, hud
from sprites import theme
from tests.scenes.test_table import key, make_app, table


@pytest.fixture(autouse=True)
def normal_text_after():
    yield
    theme.set_text_scale(1.0)  # a test with larger text leaves the others at the usual size


SEED = 5


# ---------------------------------------------------------------------- the opening words
def test_the_table_says_the_hand_once_the_deal_has_landed_not_that_it_is_empty(tmp_path):
    log = tmp_path / "speech.txt"
    app = make_app("en", speed="normal")
    app.speech = Speech("off", "en", log)
    app.open_path("menu")
    app.update(TICK)
    scene = make_scene(
        app, "table", game="briscola", players=2, seed=SEED, ai_level="greedy", threaded=False, autoplay_moves=0
    )
    app.stack.push(scene)
    for _ in range(600):
        app.update(TICK)
        if scene.controller.can_act:
            break
    app.update(TICK)
    assert scene.controller.can_act
    app.speech.close()
    said = log.read_text(encoding="utf-8").splitlines()
    assert app.t("access.hand_empty") not in said
    title = said.index(app.t("access.scene_table"))
    hand = said.index(scene.reader.hand())
    assert title < hand < len(said) - 1 - said[::-1].index(app.t("access.your_turn"))
    assert said.count(scene.reader.hand()) == 1 and said.count(app.t("access.your_turn")) == 1
    # Opened on a deal already dealt (a resumed match), the hand comes at once, as before.
    again = make_scene(
        app, "table", game="briscola", players=2, seed=SEED, ai_level="greedy", threaded=False, autoplay_moves=2
    )
    assert again.speech_opening()[0] == again.reader.hand() != app.t("access.hand_empty")


# ---------------------------------------------------------------------- the caption and the trump chip
@pytest.mark.parametrize("lang", ["it", "de"])
def test_a_long_caption_in_extra_large_text_leaves_the_trump_chip_in_view(lang):
    def layout(text_size: str, players: int = 2):
        app = make_app(lang, text_size=text_size)
        scene = table(app, "briscola", players, seed=SEED, moves=0)
        deal = next(ln for ln in scene.motion.narrator.deal.lines if ln.kind == "deal")
        scene.motion.caption, scene.motion.caption_age = deal.caption, 0.0  # the deal's words, the longest
        v = scene.view()
        st = scene.layout.stock()
        chip = board.trump_chip(
            pygame.Surface((1280, 720)),
            v,
            scene._painter(),
            scene.model.trump_suit,
            (round(st.x), round(st.y + st.h / 2 + 28)),
        )
        lines, box = hud.caption_layout(v)
        assert board.trump_chip_box(v).contains(chip)  # where the caption keeps clear of
        return chip, lines, box, deal.caption

    for players in (2, 4):
        chip, lines, box, caption = layout("xlarge", players)
        assert not box.colliderect(chip), (box, chip)
        assert " ".join(lines) == caption  # the whole caption, nothing cut
        assert box.right <= 1076 and box.height >= len(lines) * round(20 * 1.3)  # XL lines do not touch
    chip, lines, box, _ = layout("normal")
    assert box.centerx == 640 and not box.colliderect(chip)  # the usual size: centred as ever


# ---------------------------------------------------------------------- a language switched mid-match
def test_switching_the_language_mid_match_tells_the_table_in_the_new_one():
    app = make_app("it")
    scene = table(app, "briscola", 2, seed=SEED, moves=3)
    italian = scene.motion.caption
    assert italian and scene.motion.narrator.lang == "it"
    app.set_setting("language", "de")
    app.update(TICK)
    from scenes.table.narrate import narrate

    german = narrate(scene.session.match.events, scene.rules, app.t, "de", scene.human)
    assert scene.motion.caption != italian
    assert scene.motion.caption in [ln.caption for ln in german.deal.lines if ln.caption]
    assert [ln.text for ln in scene.motion.narrator.deal.lines] == [ln.text for ln in german.deal.lines]
    with theme.measure_text() as m:
        app.render(1.0)
    shown = [s for s, _, _ in m.entries]
    assert scene.motion.caption in shown and italian not in shown
    key(app, pygame.K_e)  # the last play, read aloud: in German too
    last = [ln for ln in german.deal.lines if ln.seat is not None][-1]
    assert app.speech.last.split() == (last.caption or last.text).split()
