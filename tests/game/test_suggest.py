"""Suggest a move (issue 17): the normal level's choice for the human seat, reproducible for a
seed and a decision, always legal, with a reason the locales can say; and the statistics
count practice (a match with an undo) and suggested matches."""
from __future__ import annotations

import random

import pytest

from game import stats
from game.ai import make_bot
from game.ai.hooks import OPTIONAL, check_hooks, hooks_module, load_hooks
from game.ai.suggest import FALLBACK_LEVEL, ONLY_MOVE, SUGGEST_LEVEL, reason_for, suggest, suggest_for
from game.config import get_config
from game.i18n import I18n
from game.rules import game_ids
from game.session import Session

CASES = [(gid, n) for gid in game_ids() for n in get_config().games[gid].players]


def _reference(session) -> tuple[str, object]:
    """What a normal bot in the human's seat plays here, seeded per decision as the session's
    bots are (iterations only), or the greedy baseline where the search cannot play."""
    seat = session.human_seat
    for level in (SUGGEST_LEVEL, FALLBACK_LEVEL):
        bot = make_bot(level, session.rules, seat, session.seed)
        if hasattr(bot, "time_cap"):
            bot.time_cap = None
        bot.begin_decision(len(session.decisions))
        try:
            return level, bot.choose(session.view(), session.legal_actions())
        except ValueError:
            if level == FALLBACK_LEVEL:
                raise
    raise AssertionError("unreachable")


def _human_turns(gid: str, players: int, seed: int, stops: tuple[int, ...]):
    """The session at the human's decisions number ``stops`` (others played by greedy bots,
    the human by a seeded random choice)."""
    s = Session.new(gid, None, players, None, seed, human_seat=0, bot_name="greedy", threaded=False)
    s.start()
    rng = random.Random(seed)
    k = 0
    while not s.over and k <= max(stops):
        if not s.human_to_act:
            s.poll()
            continue
        if k in stops:
            yield s
        s.submit(rng.choice(s.legal_actions()))
        k += 1


@pytest.mark.parametrize("gid,players", CASES)
def test_the_suggestion_is_the_normal_levels_choice_and_legal(gid, players):
    en = I18n("en")
    seen = 0
    for s in _human_turns(gid, players, seed=11, stops=(0, 3, 6)):
        before = list(s.match.events)
        sg = suggest_for(s)
        level, expected = _reference(s)
        assert sg.action == expected and sg.level == level
        assert sg.action in s.legal_actions()
        assert sg.decision == len(s.decisions) and not sg.stopped
        assert suggest_for(s) == sg  # the same seed and decision: the same suggestion
        assert s.match.events == before  # asking changes nothing
        if sg.reason is not None:
            key, params = sg.reason
            assert en.has(key), key
            assert isinstance(params, dict)
        seen += 1
    assert seen == 3


def test_the_normal_level_is_suggested_where_the_search_plays():
    # Every game's two-player (or only) table is searched by the normal level itself.
    for gid in game_ids():
        n = min(get_config().games[gid].players)
        s = next(_human_turns(gid, n, seed=5, stops=(1,)))
        assert suggest_for(s).level == SUGGEST_LEVEL, gid


def test_a_suggestion_cut_short_says_so():
    s = next(_human_turns("scopa", 2, seed=4, stops=(2,)))
    legal = s.legal_actions()
    sg = suggest(s.rules, s.view(), legal, 0, s.seed, len(s.decisions), should_stop=lambda: True)
    assert sg.stopped and sg.action in legal


def test_a_suggestion_needs_the_humans_turn():
    s = Session.new("briscola", None, 2, None, 3, human_seat=None, threaded=False)
    s.start()
    with pytest.raises(ValueError):
        suggest_for(s)


def test_the_reason_hook_is_part_of_the_interface_and_every_game_has_one():
    assert "reason" in OPTIONAL
    for gid in game_ids():
        assert check_hooks(hooks_module(gid)) == []
        assert load_hooks(gid).reason is not None, gid


def test_the_only_move_says_so():
    s = next(_human_turns("scopa", 2, seed=4, stops=(0,)))
    a = s.legal_actions()[0]
    assert reason_for(s.rules, s.view(), [a], a) == (ONLY_MOVE, {})


def _first(gid: str, players: int, want, seeds=range(1, 60)):
    """(session, action) at the first human decision where ``want(session, action)`` holds."""
    for seed in seeds:
        for s in _human_turns(gid, players, seed, stops=tuple(range(12))):
            for a in s.legal_actions():
                if want(s, a):
                    return s, a
    raise AssertionError(f"no such position in {gid}")


def _key(s, a):
    r = reason_for(s.rules, s.view(), s.legal_actions(), a)
    return r[0] if r else None


def test_scopa_reasons_name_the_sweep_and_the_settebello():
    def sweeps(s, a):
        v = s.view()
        return bool(a.capture) and len(a.capture) == len(v.table) and len(s.legal_actions()) > 1 \
            and not (v.stock_count == 0 and sum(v.hand_counts) == 1)
    s, a = _first("scopa", 2, sweeps)
    assert _key(s, a) == "suggest.reason.sweep"

    def settebello(s, a):
        return bool(a.capture) and s.rules.settebello in a.capture and len(a.capture) < len(s.view().table) \
            and len(s.legal_actions()) > 1
    s, a = _first("scopa", 2, settebello)
    assert reason_for(s.rules, s.view(), s.legal_actions(), a) == \
        ("suggest.reason.settebello", {"card": s.rules.settebello.code})


def test_briscola_names_a_sure_trick():
    def wins_last(s, a):
        v = s.view()
        return len(v.trick) == 1 and len(s.legal_actions()) > 1 and s.rules.beats(a.card, v.trick[0], v.trump_suit) \
            and s.rules.card_points[v.trick[0]] < 10
    s, a = _first("briscola", 2, wins_last)
    v = s.view()
    pts = s.rules.card_points[v.trick[0]] + s.rules.card_points[a.card]
    assert reason_for(s.rules, v, s.legal_actions(), a) == ("suggest.reason.sure_trick", {"points": pts})


# ---------------------------------------------------------------------- the statistics
def test_a_practice_match_counts_as_practice_only():
    stats.record_result("scopa", "versus", "won", 3)
    assert stats.record_result("scopa", "versus", "lost", 5, practice=True) is None
    r = stats.load_stats()[0]["scopa/versus"]
    assert (r.played, r.won, r.lost, r.streak, r.best_margin, r.practice) == (1, 1, 0, 1, 3, 1)


def test_a_suggested_match_counts_as_played_and_as_suggested():
    stats.record_result("briscola", "versus", "won", 10, suggested=True)
    stats.record_result("briscola", "versus", "lost", 2)
    r = stats.load_stats()[0]["briscola/versus"]
    assert (r.played, r.won, r.lost, r.suggested, r.practice) == (2, 1, 1, 1, 0)


def test_the_session_keeps_its_help_counts_in_the_save():
    s = next(_human_turns("scopa", 2, seed=4, stops=(2,)))
    s.suggestions = 2
    s.undos = 1
    back = Session.from_save(s.to_save(), threaded=False)
    assert (back.suggestions, back.undos) == (2, 1)
    assert back.match.events == s.match.events
