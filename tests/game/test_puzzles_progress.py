"""The player's side of puzzles: Glicko-2 (the paper's worked example), the progress file
(kept, a damaged one moved aside), streaks, the spaced queue of "Your mistakes", picking near
the rating, the dashboard, and a coach blunder from a played match becoming a puzzle."""

from __future__ import annotations

import json

import pytest

from game.ai.bots import make_bot
from game.coach.analysis import analyse_events
from game.match import Match
from game.puzzles import store
from game.puzzles.mistakes import deal_prefix, from_analysis, keep_blunders, keep_from_job
from game.puzzles.progress import AGAIN_SECONDS, DAY, INTERVALS, PuzzleProgress
from game.puzzles.rating import Rating, expected, rate, update
from game.rulesets import make_rules
from game.verify import verify_prefix

NOON = 1_750_000_000.0  # a fixed "now" (seconds since the epoch)


# ---------------------------------------------------------------------- Glicko-2
def test_glicko2_matches_the_papers_worked_example():
    """Glickman, "Example of the Glicko-2 system": a 1500 (RD 200, σ 0.06) player beats a
    1400 (RD 30), loses to a 1550 (RD 100) and a 1700 (RD 300), τ 0.5."""
    r = rate(
        Rating(1500, 200, 0.06),
        [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)],
        clamp=False,
    )
    assert r.rating == pytest.approx(1464.06, abs=0.01)
    assert r.rd == pytest.approx(151.52, abs=0.01)
    assert r.volatility == pytest.approx(0.05999, abs=1e-5)


def test_an_attempt_moves_both_ratings_the_right_way():
    player, puzzle = Rating(1500, 200), Rating(1500, 200)
    p2, z2 = update(player, puzzle, solved=True)
    assert p2.rating > 1500 > z2.rating and p2.rd < 200 and z2.rd < 200
    p3, z3 = update(player, puzzle, solved=False)
    assert p3.rating < 1500 < z3.rating
    # Solving a much harder puzzle is worth more than an easy one.
    hard, _ = update(player, Rating(1900, 100), True)
    easy, _ = update(player, Rating(1100, 100), True)
    assert hard.rating - 1500 > easy.rating - 1500 > 0
    assert expected(player, Rating(1900, 100)) < 0.5 < expected(player, Rating(1100, 100))
    # Bounded: a run of wins cannot leave the scale, a deviation never reaches zero.
    r = Rating(2990, 46)
    for _ in range(50):
        r, _ = update(r, Rating(800, 50), True)
    assert r.rating <= 3000 and r.rd >= 45


# ---------------------------------------------------------------------- the file
def test_progress_is_kept_and_read_back(tmp_path):
    path = tmp_path / "puzzles.json"
    prog = PuzzleProgress.load(path)
    assert prog.problem is None and prog.rating("scopa").rating == 1500
    p = store.shipped("scopa")[0]
    before, after = prog.record_attempt(p, True, NOON)
    assert after > before
    assert prog.save() is None
    again = PuzzleProgress.load(path)
    assert again.rating("scopa") == prog.rating("scopa")
    assert again.history["scopa"] == [(NOON, round(before, 1)), (NOON, round(after, 1))]
    assert again.themes["scopa"][p.theme] == [1, 0]
    assert again.seen[p.id][:2] == [1.0, 1.0]
    assert again.puzzle_rating(p).rating < p.rating  # the puzzle lost to the player
    assert again.streak_right == 1 and again.streak_days == 1


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2, 3]", b"\xff\xfe", b"null"])
def test_a_damaged_progress_file_is_moved_aside_and_play_goes_on(tmp_path, content):
    path = tmp_path / "puzzles.json"
    path.write_bytes(content)
    prog = PuzzleProgress.load(path)
    assert prog.problem and "\n" not in prog.problem and "puzzles.json.bad" in prog.problem
    assert (tmp_path / "puzzles.json.bad").read_bytes() == content  # nothing lost
    assert prog.ratings == {} and prog.save() is None
    assert PuzzleProgress.load(path).problem is None


def test_a_bad_field_falls_back_for_that_field_only(tmp_path):
    path = tmp_path / "puzzles.json"
    path.write_text(
        json.dumps(
            {
                "ratings": {"scopa": [1600, 120, 0.06], "briscola": ["x", 1, 1]},
                "streak": {"days": -3, "right": 4, "best_right": 2, "last_day": "2025-02-30"},
                "mistakes": {"x": {"puzzle": {"id": "x"}, "box": 0, "due": 0, "added": 0}},
            }
        )
    )
    prog = PuzzleProgress.load(path)
    assert prog.problem is None
    assert prog.rating("scopa").rating == 1600 and "briscola" not in prog.ratings
    assert prog.streak_days == 0 and prog.streak_right == 4 and prog.best_right == 4 and prog.last_day is None
    assert prog.mistakes == {}


def test_streaks_count_days_in_a_row_and_right_answers_in_a_row(tmp_path):
    prog = PuzzleProgress(path=tmp_path / "puzzles.json")
    ps = store.shipped("briscola")
    prog.record_attempt(ps[0], True, NOON)
    prog.record_attempt(ps[1], True, NOON + 60)
    assert prog.streak_days == 1 and prog.streak_right == 2
    prog.record_attempt(ps[2], False, NOON + DAY)
    assert prog.streak_days == 2 and prog.streak_right == 0 and prog.best_right == 2
    prog.record_attempt(ps[3], True, NOON + 3 * DAY)  # a day missed: the day streak starts again
    assert prog.streak_days == 1 and prog.streak_right == 1


# ---------------------------------------------------------------------- choosing and the dashboard
def test_rated_puzzles_are_chosen_near_the_players_rating(tmp_path):
    prog = PuzzleProgress(path=tmp_path / "puzzles.json")
    pool = store.shipped("tressette")
    for target in (1100.0, 1700.0):
        prog.ratings["tressette"] = Rating(target, 80)
        picks = [prog.next_puzzle("tressette", None, "rated", NOON + i) for i in range(20)]
        gaps = sorted(abs(p.rating - target) for p in pool)
        assert all(
            abs(p.rating - target) <= gaps[min(11, len(gaps) - 1)] + 1e-9 for p in picks
        )  # among the nearest twelve
    # A theme narrows it; a puzzle tried is not offered again while fresh ones remain.
    theme = pool[0].theme
    p = prog.next_puzzle("tressette", theme, "rated", NOON)
    assert p.theme == theme
    for q in pool:
        if q.theme == theme and q.id != p.id:
            prog.seen[q.id] = [1.0, 1.0, NOON]
    assert prog.next_puzzle("tressette", theme, "rated", NOON) == p
    assert prog.next_puzzle("tressette", "no-such-theme", "rated", NOON) is None
    mixed = {prog.next_puzzle(None, None, "rated", NOON + i).game for i in range(40)}
    assert len(mixed) >= 2


def test_the_dashboard_names_strong_and_weak_themes(tmp_path):
    prog = PuzzleProgress(path=tmp_path / "puzzles.json")
    ps = store.shipped("scopa")
    themes = sorted({p.theme for p in ps})[:2]
    good = [p for p in ps if p.theme == themes[0]][:4]
    bad = [p for p in ps if p.theme == themes[1]][:4]
    for i, p in enumerate(good):
        prog.record_attempt(p, True, NOON + i)
    for i, p in enumerate(bad):
        prog.record_attempt(p, False, NOON + 10 + i)
    d = prog.dashboard("scopa")
    if len(good) >= 3:
        assert themes[0] in d["strong"]
    if len(bad) >= 3:
        assert themes[1] in d["weak"]
    assert d["tried"] == len(good) + len(bad) and d["solved"] == len(good)
    assert len(d["history"]) == len(good) + len(bad) + 1 and d["rating"] == round(prog.rating("scopa").rating)


# ---------------------------------------------------------------------- your mistakes
def _blunders(game: str, players: int, seed: int, deals: int | None = None):
    """A match where seat 0 plays at random (it blunders), its coach analysis at a small
    budget, and the blunders as puzzles."""
    rules = make_rules(game, None, players, {})
    bots = [make_bot("random", rules, 0, seed)] + [make_bot("greedy", rules, s, seed) for s in range(1, players)]
    events = Match(rules, seed, bots, deals=deals).run()
    analysis = analyse_events(events, 0, budget=120, deals={2} if deals is None else None)
    return events, analysis, from_analysis(events, 0, analysis)


def test_the_spaced_queue_brings_wrong_answers_back_sooner(tmp_path):
    _, _, puzzles = _blunders("briscola", 2, 11, deals=1)
    assert puzzles
    prog = PuzzleProgress(path=tmp_path / "puzzles.json")
    assert prog.add_mistake_puzzles(puzzles, NOON) == len(puzzles)
    assert prog.add_mistake_puzzles(puzzles, NOON) == 0  # the same mistakes are not added twice
    p = puzzles[0]
    assert prog.next_puzzle(None, None, "mistakes", NOON) == p  # due at once, the first first
    prog.record_attempt(p, True, NOON)
    m = prog.mistakes[p.id]
    assert m.box == 1 and m.due == NOON + INTERVALS[1]
    assert p not in prog.mistakes_due(NOON + INTERVALS[1] - 1)
    prog.record_attempt(p, True, NOON + INTERVALS[1])
    assert m.box == 2 and m.due == NOON + INTERVALS[1] + INTERVALS[2]
    prog.record_attempt(p, False, NOON + 5 * DAY)  # wrong again: back to the first box, soon
    assert m.box == 0 and m.due == NOON + 5 * DAY + AGAIN_SECONDS
    assert p in prog.mistakes_due(NOON + 5 * DAY + AGAIN_SECONDS)
    for box in range(len(INTERVALS)):  # right all the way up: retired
        prog.record_attempt(p, True, NOON + 100 * DAY + box)
    assert m.retired and p not in prog.mistakes_due(NOON + 1000 * DAY)
    # Practice: a mistake moves no rating.
    assert "briscola" not in prog.ratings
    # Kept with the file.
    prog.save()
    again = PuzzleProgress.load(tmp_path / "puzzles.json")
    assert again.mistakes[p.id].retired and again.mistakes[p.id].puzzle == p


def test_a_coach_blunder_from_a_played_match_appears_in_your_mistakes(tmp_path):
    """Deal 2 of a Schnapsen match where seat 0 played at random: the coach's blunders become
    puzzles (cut to their deal, which then stands as deal 1), kept in the file, offered in
    "Your mistakes", judged like any puzzle — the coach's move right, the move played wrong."""
    events, analysis, puzzles = _blunders("schnapsen", 2, 5)
    blunders = [d for d in analysis.decisions if d.klass == "blunder"]
    assert blunders and len(puzzles) == len(blunders)
    path = tmp_path / "puzzles.json"
    added, problem = keep_blunders(events, 0, analysis, path=path, now=NOON)
    assert added == len(puzzles) and problem is None
    prog = PuzzleProgress.load(path)
    p = prog.next_puzzle("schnapsen", None, "mistakes", NOON)
    assert p is not None and p.origin == "mistake" and not p.known and p.id in {q.id for q in puzzles}
    d = next(d for d in blunders if from_analysis(events, 0, analysis)[blunders.index(d)].id == p.id)
    assert p.margin == pytest.approx(d.loss, abs=1e-4)
    assert p.prefix[0]["deals"] == 1 and [e for e in p.prefix if e["event"] == "deal"][0]["number"] == 1
    assert verify_prefix(list(p.prefix)).ok and store.check(p) is None
    m = store.position(p)
    assert m.view(0).hand == analysis_view_hand(events, d)
    assert store.judge(p, 0, d.best).ok
    played = store.judge(p, 0, d.played)
    assert not played.ok and played.loss == pytest.approx(d.loss, abs=1e-3)
    assert prog.dashboard("schnapsen")["mistakes_due"] >= 1


def analysis_view_hand(events, d):
    """The seat's hand at the analysed decision, read from the full record."""
    from game.coach.analysis import positions, rules_of

    rules = rules_of(events)
    return next(p.view.hand for p in positions(rules, events, d.seat) if p.index == d.index)


def test_the_window_hook_keeps_a_finished_jobs_blunders(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDAVIA_HOME", str(tmp_path))
    events, analysis, puzzles = _blunders("briscola", 2, 11, deals=1)

    class Job:  # what game.coach.job.AnalysisJob holds when it has finished
        pass

    job = Job()
    job.events, job.seat, job.analysis = events, 0, analysis
    keep_from_job(job)
    assert job.puzzles_added == len(puzzles) and job.puzzles_problem is None
    assert set(PuzzleProgress.load().mistakes) == {p.id for p in puzzles}


def test_a_deal_prefix_is_cut_to_its_deal():
    rules = make_rules("schnapsen", None, 2, {})
    events = Match(rules, 3, [make_bot("greedy", rules, s, 3) for s in range(2)]).run()
    deal2 = next(i for i, e in enumerate(events) if e["event"] == "deal" and e["number"] == 2)
    line = next(i for i in range(deal2 + 1, len(events)) if events[i]["event"] == "play")
    cut = deal_prefix(events, line + 2, 2)
    assert cut[0]["deals"] == 1 and "version" not in cut[0] and cut[1]["number"] == 1
    assert cut[1]["hands"] == events[deal2]["hands"] and len(cut) == 1 + (line + 2 - deal2)
