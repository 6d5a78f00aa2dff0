"""Saves and statistics: atomic writes, corrupt files kept aside, a kill between saves loses nothing."""

from __future__ import annotations

import json
import os

from game.services import saves, stats, storage
from game.services.session import Session


def _session(seed=4, moves=12):
    s = Session.new("scopa", "piacentine", 2, None, seed=seed, human_seat=0, threaded=False)
    s.start()
    for _ in range(moves):
        if s.human_to_act:
            s.submit(s.legal_actions()[0])
        else:
            s.poll()
    return s


def test_save_and_resume_same_cards_scores_and_turn():
    s = _session()
    assert saves.save_match(s.to_save()) is None
    r, problem = saves.resume_session(threaded=False)
    assert problem is None
    assert r.match.events == s.match.events and r.to_act == s.to_act and r.match.totals == s.match.totals
    assert r.view(0).hand == s.view(0).hand


def test_no_save_is_not_a_problem():
    assert saves.load_match() == (None, None)
    assert saves.resume_session() == (None, None)


def test_corrupt_save_is_moved_aside_with_a_message():
    p = saves.save_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("{not json", encoding="utf-8")
    s, problem = saves.resume_session()
    assert s is None and "damaged" in problem
    assert not p.exists() and p.with_name("match.json.bad").read_text() == "{not json"


def test_save_that_does_not_replay_is_moved_aside():
    data = _session().to_save()
    data["events"][3]["card"] = "KD" if data["events"][3].get("card") != "KD" else "QD"
    saves.save_match(data)
    s, problem = saves.resume_session(threaded=False)
    assert s is None and "could not be resumed" in problem and saves.save_path().with_name("match.json.bad").exists()


def test_kill_between_save_steps_keeps_the_previous_save(monkeypatch):
    first = _session(moves=4)
    assert saves.save_match(first.to_save()) is None
    later = _session(moves=10)

    def killed(src, dst):  # the process dies after writing the temp file, before the rename
        raise OSError("killed")

    with monkeypatch.context() as m:
        m.setattr(os, "replace", killed)
        assert saves.save_match(later.to_save()) is not None
    r, problem = saves.resume_session(threaded=False)
    assert problem is None and r.match.events == first.match.events
    leftovers = [p for p in saves.save_path().parent.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_clear_match():
    saves.save_match(_session().to_save())
    assert saves.has_saved_match()
    saves.clear_match()
    assert not saves.has_saved_match()


def test_stats_count_outcomes_margin_and_streak():
    for outcome, margin in [("won", 3), ("won", 7), ("lost", -2), ("lost", -5), ("drawn", 0), ("won", 1)]:
        assert stats.record_result("scopa", "versus", outcome, margin) is None
    st, problem = stats.load_stats()
    r = st["scopa/versus"]
    assert problem is None
    assert (r.played, r.won, r.lost, r.drawn, r.best_margin, r.streak) == (6, 3, 2, 1, 7, 1)
    stats.record_result("scopa", "versus", "lost", -1)
    stats.record_result("scopa", "versus", "lost", -1)
    assert stats.load_stats()[0]["scopa/versus"].streak == -2
    assert "briscola/versus" not in stats.load_stats()[0]


def test_stats_reset():
    stats.record_result("briscola", "versus", "won", 20)
    stats.reset_stats()
    assert stats.load_stats() == ({}, None)


def test_corrupt_stats_fall_back_and_are_kept():
    p = stats.stats_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("[[[", encoding="utf-8")
    st, problem = stats.load_stats()
    assert st == {} and "damaged" in problem and p.with_name("stats.json.bad").exists()
    stats.record_result("cicera", "partners", "won", 4)
    assert stats.load_stats()[0]["cicera/partners"].won == 1


def test_stats_ignore_nonsense_values():
    p = stats.stats_path()
    storage.write_json(p, {"scopa/versus": {"played": -3, "won": "many", "streak": 2}})
    r = stats.load_stats()[0]["scopa/versus"]
    assert (r.played, r.won, r.streak) == (0, 0, 2)
    assert json.loads(p.read_text())["scopa/versus"]["played"] == -3  # reading never rewrites


def test_stats_keep_a_record_per_variant_and_read_an_old_file():
    """A stats.json written before house rules (game/mode keys) still loads; a variant's
    matches go to game/mode/variant and leave the old record alone."""
    p = stats.stats_path()
    storage.write_json(
        p, {"scopa/versus": {"played": 3, "won": 2, "lost": 1, "drawn": 0, "best_margin": 4, "streak": 1}}
    )
    st, problem = stats.load_stats()
    assert problem is None and st["scopa/versus"].played == 3 and st["scopa/versus"].best_margin == 4
    assert stats.record_result("scopa", "partners", "won", 6, variant="scopone") is None
    assert stats.record_result("scopa", "versus", "lost", 2) is None
    st = stats.load_stats()[0]
    assert (st["scopa/versus"].played, st["scopa/versus"].lost) == (4, 2)
    assert st["scopa/partners/scopone"].won == 1 and "scopa/partners" not in st
    assert stats.split_key("scopa/partners/scopone") == ("scopa", "partners", "scopone")
    assert stats.split_key("scopa/versus") == ("scopa", "versus", "")
    assert stats.key("scopa", "versus", "") == "scopa/versus"


def test_a_game_with_roles_counts_the_players_deals_by_role():
    """Briscola chiamata declares its roles (its results module): the statistics count the
    player's deals as caller, partner and defender — won, lost, the game points — from the
    record's deal_end lines; a thrown-in deal plays no role, a practice match adds nothing."""
    assert stats.declared_roles("chiamata") == ("caller", "partner", "defender")
    assert stats.declared_roles("scopa") == () and stats.declared_roles("no-such-game") == ()

    def end(caller, partner, points):
        detail = {"caller": caller, "partner": partner, "called": None, "card_points": None, "won": None}
        return {"event": "deal_end", "points": points, "detail": detail}

    events = [
        {"event": "match"},
        end(0, 2, [2, -1, 1, -1, -1]),  # seat 0 calls and makes it
        end(1, 0, [-1, -2, 1, 1, 1]),  # seat 0 the partner of a contract lost
        end(3, 3, [-1, -1, -1, 4, -1]),  # a defender against a lone caller who made it
        end(None, None, [0, 0, 0, 0, 0]),  # thrown in: no role
        end(4, 4, [1, 1, 1, 1, -4]),  # a defender again, this time the caller fell short
    ]
    roles = stats.roles_in("chiamata", events, 0, 0)
    assert roles == {
        "caller": {"deals": 1, "won": 1, "lost": 0, "points": 2},
        "partner": {"deals": 1, "won": 0, "lost": 1, "points": -1},
        "defender": {"deals": 2, "won": 1, "lost": 1, "points": 0},
    }
    assert stats.roles_in("scopa", [{"event": "deal_end", "points": [1, 0]}], 0, 0) == {}
    assert stats.record_result("chiamata", "versus", "won", 3, roles=roles) is None
    assert stats.record_result("chiamata", "versus", "lost", 1, roles=roles) is None
    stats.record_result("chiamata", "versus", "lost", 1, practice=True, roles=roles)
    got = stats.load_stats()[0]["chiamata/versus"]
    assert got.played == 2 and got.practice == 1
    assert got.roles["caller"] == {"deals": 2, "won": 2, "lost": 0, "points": 4}
    assert got.roles["defender"] == {"deals": 4, "won": 2, "lost": 2, "points": 0}


def test_a_hand_edited_roles_entry_is_dropped_not_trusted():
    data = {
        "chiamata/versus": {
            "played": 1,
            "roles": {"caller": {"deals": 2, "won": 1, "lost": 1, "points": -2}, "partner": {"deals": -1}, "x": 3},
        }
    }
    p = stats.stats_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(data), encoding="utf-8")
    got = stats.load_stats()[0]["chiamata/versus"]
    assert got.played == 1 and got.roles == {"caller": {"deals": 2, "won": 1, "lost": 1, "points": -2}}
