"""The menu's "continue" card: the game and the deck by their own names ("Schnapsen · German
suits"), the seats as the table names them, and a count that runs down (the Bummerl)
explained as what each side still needs ("You need 5 more game points, North 4") — from the
rules' facts (totals_count_down, match_goal), in every language."""

from __future__ import annotations

import pytest

from game.config import get_config
from game.rulesets import game_ids, make_rules
from scenes.names import game_and_deck
from tests.scenes.test_resume import leave_a_match, make_app


def test_a_deck_named_after_its_game_shows_only_its_own_part():
    assert game_and_deck("Schnapsen", "Schnapsen (German suits)") == "Schnapsen · German suits"
    assert game_and_deck("Schnapsen", "Schnapsen (deutsch)") == "Schnapsen · deutsch"
    assert game_and_deck("Scopa", "Piacentine") == "Scopa · Piacentine"
    assert game_and_deck("Scopa", "Scopa") == "Scopa"


def _counting_down() -> list[str]:
    return [g for g in game_ids() if make_rules(g).totals_count_down]


@pytest.mark.parametrize(
    "lang,head,need",
    [
        ("en", "Schnapsen · German suits · 2 players", "You need {mine} more game points, North {other}"),
        ("de", "Schnapsen · deutsch · 2 Spieler", "Dir fehlen noch {mine} Punkte, Nord {other}"),
        ("it", "Schnapsen · semi tedeschi · 2 giocatori", "Ti mancano ancora {mine} punti, Nord {other}"),
        ("nl", "Schnapsen · Duits · 2 spelers", "Jij hebt nog {mine} punten nodig, Noord {other}"),
    ],
)
def test_the_continue_card_names_game_and_deck_and_explains_the_count_down(lang, head, need):
    gid = _counting_down()[0]
    app = make_app(lang)
    left = leave_a_match(app, gid, 2, moves=30)
    menu = app.stack.top
    got_head, score = menu.offer_lines()
    deck = get_config().decks[left.rules.deck.id]
    assert deck.name["en"] == "Schnapsen (German suits)", "the first deck of the game is the German one"
    assert got_head == head
    mine, other = left.match.totals
    assert mine < 7 or other < 7, "a deal was scored"
    assert score.endswith(need.format(mine=mine, other=other)), score
    app.render()


def test_a_count_up_match_shows_the_totals_by_the_tables_seat_names():
    app = make_app()
    left = leave_a_match(app, "scopa", 3, moves=9)
    head, score = app.stack.top.offer_lines()
    assert head.startswith("Scopa · ") and "3 players" in head
    t = left.match.totals
    assert score.endswith(f"You {t[0]}  ·  East {t[1]}  ·  West {t[2]}"), score
