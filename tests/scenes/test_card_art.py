"""Card art: every card of every deck renders at the right size, faces differ, pips add up."""

from __future__ import annotations

import pygame
import pytest

from game.cards import SUITS
from game.config import get_config
from sprites.cards import CardArt, get_card_art, pip_layout, style_for

CONFIG = get_config()
DECKS = list(CONFIG.decks.values())


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()  # no display mode: the art must not need one
    yield


def _codes(deck) -> list[str]:
    return [r + s for s in SUITS for r in deck.ranks()]


@pytest.mark.parametrize("deck", DECKS, ids=lambda d: d.id)
def test_every_face_renders_at_two_heights_with_the_deck_aspect(deck):
    art = CardArt(deck)  # a private instance: nothing cached from other tests
    for height in (96, 173):
        w, h = art.size(height)
        assert h == height and w == round(height / deck.aspect)
        for code in _codes(deck):
            surf = art.face(code, height)
            assert surf.get_size() == (w, h), code
            assert surf.get_flags() & pygame.SRCALPHA, code
            # Rounded corners: the very corner is transparent, the centre is opaque.
            assert surf.get_at((0, 0)).a < 40, code
            assert surf.get_at((w // 2, h // 2)).a == 255, code
        back = art.back(height)
        assert back.get_size() == (w, h)
        assert back.get_at((0, 0)).a < 40 and back.get_at((w // 2, h // 2)).a == 255


@pytest.mark.parametrize("deck", DECKS, ids=lambda d: d.id)
def test_no_two_faces_of_a_deck_are_identical(deck):
    art = CardArt(deck)
    seen: dict[bytes, str] = {}
    for code in _codes(deck):
        raw = pygame.image.tobytes(art.face(code, 120), "RGBA")
        assert raw not in seen, f"{code} looks exactly like {seen.get(raw)}"
        seen[raw] = code
    back = pygame.image.tobytes(art.back(120), "RGBA")
    assert back not in seen


def test_backs_of_different_decks_differ():
    backs = set()
    for deck in DECKS:
        back = get_card_art(deck).back(150)
        # Compare at a common size so the aspect alone cannot make them differ.
        backs.add(pygame.image.tobytes(pygame.transform.scale(back, (60, 100)), "RGB"))
    assert len(backs) == len(DECKS)


@pytest.mark.parametrize("system", ["italian", "french", "german"])
@pytest.mark.parametrize("curved", [True, False])
def test_pip_layout_has_one_pip_per_point(system, curved):
    for suit in SUITS:
        assert len(pip_layout(system, suit, "A", curved)) == 1
        for n in range(2, 11):
            pips = pip_layout(system, suit, str(n), curved)
            assert len(pips) == n, (system, suit, n)
            for p in pips:
                assert 0.0 <= p.x <= 1.0 and 0.0 <= p.y <= 1.0
            if pips[0].kind == "sign":  # distinct places: no two signs stacked on each other
                assert len({(round(p.x, 3), round(p.y, 3)) for p in pips}) == n
        for court in ("J", "Q", "K"):
            assert pip_layout(system, suit, court, curved) == []


def test_long_pips_are_swords_and_batons_in_italian_packs():
    assert {p.kind for p in pip_layout("italian", "S", "5", True)} == {"sword"}
    assert {p.kind for p in pip_layout("italian", "B", "6", True)} == {"baton"}
    curved = pip_layout("italian", "S", "4", True)
    straight = pip_layout("italian", "S", "4", False)
    assert any(p.bow for p in curved) and not any(p.bow for p in straight)
    assert style_for(CONFIG.deck("napoletane")).curved_swords is False
    assert style_for(CONFIG.deck("piacentine")).curved_swords is True


def test_more_pips_mean_more_ink():
    """A 7 of coins covers more of the card than a 2 (the pips are really drawn)."""
    art = CardArt(CONFIG.deck("piacentine"))
    paper = art.pal.paper

    def inked(code: str) -> int:
        s = art.face(code, 120)
        w, h = s.get_size()
        return sum(
            1
            for x in range(0, w, 2)
            for y in range(0, h, 2)
            if sum(abs(a - b) for a, b in zip(s.get_at((x, y))[:3], paper)) > 60
        )

    assert inked("7D") > inked("4D") > inked("2D")


def test_cache_returns_the_same_surface_and_shares_numerals_across_languages():
    art = get_card_art(CONFIG.deck("bresciane"))
    assert get_card_art(CONFIG.deck("bresciane")) is art
    a = art.face("7D", 150, "it")
    assert art.face("7D", 150, "it") is a
    assert art.face("7D", 150, "de") is a  # numerals do not depend on the language
    assert art.back(150) is art.back(150)
    assert art.face("7D", 151, "it") is not a  # a new height is a new, crisp render


@pytest.mark.parametrize("deck_id", ["piacentine", "napoletane", "bresciane", "trevisane"])
def test_italian_courts_carry_their_name_in_the_players_language(deck_id):
    deck = CONFIG.deck(deck_id)
    art = CardArt(deck)
    for rank in ("J", "Q", "K"):
        for a, b in (("en", "it"), ("de", "nl")):
            if deck.court_name(rank, a) != deck.court_name(rank, b):
                fa = pygame.image.tobytes(art.face(rank + "C", 140, a), "RGBA")
                fb = pygame.image.tobytes(art.face(rank + "C", 140, b), "RGBA")
                assert fa != fb, (rank, a, b)


def test_corner_indices_use_local_initials_when_they_are_unambiguous():
    it = CardArt(CONFIG.deck("piacentine"))
    assert [it.index_label(r, "it") for r in "JQK"] == ["F", "C", "R"]
    # Knave, Knight, King all start with K: the King keeps it, the Knight is "Kn", the Knave "J".
    assert [it.index_label(r, "en") for r in "JQK"] == ["J", "Kn", "K"]
    de = CardArt(CONFIG.deck("schnapsen-german"))
    assert [de.index_label(r, "de") for r in "JQK"] == ["U", "O", "K"]
    fr = CardArt(CONFIG.deck("schnapsen-french"))
    assert [fr.index_label(r, "de") for r in "JQK"] == ["B", "D", "K"]
    assert fr.index_label("10") == "10"
    # Courts of French-suited packs differ by language through their corner index.
    assert pygame.image.tobytes(fr.face("KC", 120, "nl"), "RGBA") != pygame.image.tobytes(
        fr.face("KC", 120, "en"), "RGBA"
    )


@pytest.mark.parametrize("lang", ["en", "nl", "de", "it"])
def test_every_deck_shows_three_distinct_court_indices_none_naming_another_court(lang):
    """The English Knight's corner is never "Q" (the Queen's letter) beside the word KNIGHT:
    each court's index starts its own name or is its own rank token, and the three differ."""
    for deck in CONFIG.decks.values():
        art = CardArt(deck)
        labels = {r: art.index_label(r, lang) for r in "JQK"}
        assert len(set(labels.values())) == 3, (deck.id, lang, labels)
        names = {r: deck.court_name(r, lang) for r in "JQK"}
        for r, label in labels.items():
            own = names[r].upper().startswith(label.upper()) or label == r
            assert own, (deck.id, lang, r, label)
            others = [o for o in "JQK" if o != r]
            # A bare rank token only where no other court's name starts with it.
            if label == r and not names[r].upper().startswith(r):
                assert not any(names[o].upper().startswith(r) for o in others), (deck.id, lang, r)
        if names["Q"] == "Knight":
            assert labels["Q"] == "Kn"


def test_court_indices_resolve_clashing_initials():
    from sprites.cards import court_indices

    assert court_indices({"J": "Knave", "Q": "Knight", "K": "King"}) == {"J": "J", "Q": "Kn", "K": "K"}
    assert court_indices({"J": "Fante", "Q": "Cavallo", "K": "Re"}) == {"J": "F", "Q": "C", "K": "R"}
    assert court_indices({"J": "Jack", "Q": "Queen", "K": "King"}) == {"J": "J", "Q": "Q", "K": "K"}


def test_bad_requests_raise_clear_errors():
    art = get_card_art(CONFIG.deck("schnapsen-german"))
    with pytest.raises(ValueError, match="no card 7D"):
        art.face("7D", 100)  # Schnapsen packs have A, 10, K, Q, J only
    with pytest.raises(ValueError, match="not a card code"):
        art.face("ZZ", 100)
    with pytest.raises(ValueError, match="height"):
        art.face("AD", 0)
    with pytest.raises(ValueError, match="height"):
        art.back("tall")
    # A tiny height still gives a card of the right proportions.
    assert art.face("AD", 5).get_height() >= 5


def test_a_new_size_renders_a_fresh_hand_quickly_enough_to_work():
    """Sanity, not timing: twelve faces at an odd height all render and are all distinct."""
    art = CardArt(CONFIG.deck("trevisane"))
    hand = [art.face(r + s, 211, "it") for s in "DS" for r in ("A", "2", "5", "7", "9", "K")]
    assert len({pygame.image.tobytes(s, "RGBA") for s in hand}) == 12


def test_a_tilted_card_casts_a_card_shaped_shadow_not_a_box():
    """The shadow turns with the card: the corners of the box round a tilted card stay
    clear felt, while the shadow is there along the card's own edges."""
    from sprites.table_draw import CardPainter

    deck = CONFIG.deck("piacentine")
    painter = CardPainter(get_card_art(deck), deck.aspect, "en")
    felt = (60, 120, 80)

    def paint(shadow: int) -> tuple[pygame.Surface, pygame.Rect]:
        surf = pygame.Surface((400, 400))
        surf.fill(felt)
        return surf, painter.draw(surf, None, 200, 200, 30.0, 150, shadow=shadow)

    lit, box = paint(200)
    bare, _ = paint(0)
    for corner in (
        (box.x + 3, box.y + 3),
        (box.right - 4, box.y + 3),
        (box.x + 3, box.bottom - 4),
        (box.right - 4, box.bottom - 4),
    ):
        assert tuple(lit.get_at(corner))[:3] == felt, corner
    # And a shadow there is: pixels the card leaves bare get darker with it.
    darker = sum(
        1
        for x in range(box.x, box.right, 3)
        for y in range(box.y, box.bottom, 3)
        if tuple(bare.get_at((x, y)))[:3] == felt and tuple(lit.get_at((x, y)))[:3] != felt
    )
    assert darker > 40
