"""Kept matches: every finished window match is kept as its record in the user data
folder's replays/, the newest N (a setting); the list reads each record's first and last
lines, newest first; a corrupt entry is skipped with a note, never a crash; the folder never
grows past its limit."""

from __future__ import annotations

import json
import os

import pytest

from game.ai import levels
from game.ai.bots import make_bot
from game.match import Match
from game.rulesets import game_ids, make_rules
from game.services import replays
from game.services.session import Session
from game.services.settings import Settings
from game.verify import verify_file


def finished(game: str | None = None, seed: int = 1, players: int | None = None) -> list[dict]:
    rules = make_rules(game or game_ids()[0], None, players)
    return Match(rules, seed, [make_bot("greedy", rules, s, seed) for s in range(rules.players)]).run()


@pytest.fixture(autouse=True)
def _quick_easy_level(monkeypatch):
    # The computer plays its matches at the easy level, whose name the records keep; how well
    # it plays is not what is checked here, so its search runs at a tenth of its budget.
    monkeypatch.setattr(levels.EasyBot, "ITERATIONS", 12)


def session_over(seed: int = 2, human: int | None = 0) -> Session:
    """A whole window match (the human's seat played by the greedy bot)."""
    s = Session.new(game_ids()[0], None, 2, None, seed, human_seat=human, bot_name="easy", threaded=False)
    s.start()
    helper = make_bot("greedy", s.rules, 0, seed)
    while not s.over:
        if s.human_to_act:
            s.submit(helper.choose(s.view(), s.legal_actions()))
        else:
            s.poll()
    return s


# ---------------------------------------------------------------------- keeping
def test_a_kept_match_is_a_record_verify_accepts_with_who_played_and_practice(tmp_path):
    events = finished()
    path, problem = replays.keep(events, seats=["human", "hard"], practice=True, folder=tmp_path, now=0)
    assert problem is None and path is not None and path.parent == tmp_path and path.suffix == ".jsonl"
    assert verify_file(str(path)).ok
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["seats"] == ["human", "hard"] and head["practice"] is True
    assert [json.loads(ln) for ln in lines[1:]] == events[1:]  # the record itself is unchanged
    m = replays.read_summary(path)
    assert (m.game, m.players, m.human_seat, m.levels, m.practice) == (events[0]["game"], 2, 0, ["hard"], True)
    assert m.totals == events[-1]["totals"] and m.winner == events[-1]["winner"]


def test_a_match_kept_twice_in_one_second_gets_two_files_never_one_replaced(tmp_path):
    events = finished()
    a, _ = replays.keep(events, folder=tmp_path, now=1_700_000_000)
    b, _ = replays.keep(events, folder=tmp_path, now=1_700_000_000)
    assert a != b and a.exists() and b.exists()


def test_an_unfinished_or_empty_match_is_not_kept(tmp_path):
    events = finished()
    assert replays.keep(events[:-1], folder=tmp_path)[0] is None
    assert replays.keep([], folder=tmp_path)[0] is None
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("limit", [1, 3, 5])
def test_the_folder_never_grows_past_its_limit_and_keeps_the_newest(tmp_path, limit):
    events = finished()
    kept = []
    for i in range(limit + 4):
        path, problem = replays.keep(events, folder=tmp_path, limit=limit, now=1_700_000_000 + 60 * i)
        assert problem is None
        kept.append(path)
        assert len(list(tmp_path.glob("*.jsonl"))) == min(i + 1, limit)
    assert sorted(p.name for p in tmp_path.glob("*.jsonl")) == sorted(p.name for p in kept[-limit:])


def test_a_limit_of_zero_keeps_nothing_and_a_bad_limit_is_the_default(tmp_path):
    assert replays.keep(finished(), folder=tmp_path, limit=0) == (None, None)
    assert list(tmp_path.iterdir()) == []
    assert replays.clamp_limit("200") == replays.DEFAULT_LIMIT and replays.clamp_limit(True) == replays.DEFAULT_LIMIT
    assert replays.clamp_limit(-5) == 0 and replays.clamp_limit(10**9) == replays.MAX_LIMIT


def test_corrupt_files_count_towards_the_limit_too(tmp_path):
    # Kept by the game, then damaged: still the game's, so they count and the oldest go.
    events = finished()
    for i in range(6):
        path, _ = replays.keep(events, folder=tmp_path, limit=10, now=1_700_000_000 + 60 * i)
        path.write_text("not a record\n")
    replays.keep(events, folder=tmp_path, limit=4, now=1_800_000_000)
    names = sorted(p.name for p in tmp_path.glob("*.jsonl"))
    assert len(names) == 4 and sum(1 for p in tmp_path.glob("*.jsonl") if p.read_text() != "not a record\n") == 1
    # Files the game did not write (a player's own records) are never its to prune.
    (tmp_path / "2000-01-01-junk.jsonl").write_text("not a record\n")
    replays.keep(events, folder=tmp_path, limit=1, now=1_900_000_000)
    assert sorted(p.name for p in tmp_path.glob("*.jsonl"))[0] == "2000-01-01-junk.jsonl"
    assert len(list(tmp_path.glob("*.jsonl"))) == 2


def test_the_setting_is_200_by_default_and_is_kept_within_its_range():
    assert Settings().replays_kept == replays.DEFAULT_LIMIT == 200
    assert Settings.from_json({"replays_kept": 12}).replays_kept == 12
    assert Settings.from_json({"replays_kept": -3}).replays_kept == 0
    assert Settings.from_json({"replays_kept": "all"}).replays_kept == 200


# ---------------------------------------------------------------------- listing
def test_the_list_is_newest_first_and_skips_every_corrupt_entry_with_a_note(tmp_path):
    events = finished()
    old, _ = replays.keep(events, seats=["human", "easy"], folder=tmp_path, now=1_600_000_000)
    new, _ = replays.keep(events, seats=["normal", "human"], folder=tmp_path, now=1_700_000_000)
    bad = {
        "20990101-000000-notjson.jsonl": b"{this is not json\n",
        "20990101-000001-cut.jsonl": "\n".join(json.dumps(e) for e in events[:5]).encode(),  # no match_end
        "20990101-000002-binary.jsonl": bytes(range(256)),
        "20990101-000003-empty.jsonl": b"",
        "20990101-000004-wrongfirst.jsonl": (json.dumps(events[-1]) + "\n").encode(),
        "20990101-000005-unknowngame.jsonl": (
            json.dumps({**events[0], "game": "chess"}) + "\n" + json.dumps(events[-1]) + "\n"
        ).encode(),
    }
    for name, data in bad.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "20990101-000006-folder.jsonl").mkdir()
    listing = replays.list_kept(tmp_path)
    assert [m.path for m in listing.matches] == [new, old]
    assert listing.matches[0].human_seat == 1 and listing.matches[1].levels == ["easy"]
    assert len(listing.skipped) == len(bad) + 1
    for name in [*bad, "20990101-000006-folder.jsonl"]:
        assert any(note.startswith(name) for note in listing.skipped), name
    assert all("\n" not in note for note in listing.skipped)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_in_the_folder_is_skipped_unread(tmp_path):
    replays.keep(finished(), folder=tmp_path, now=1_600_000_000)
    os.mkfifo(tmp_path / "20990101-000000-fifo.jsonl")
    listing = replays.list_kept(tmp_path)  # would block for ever if the FIFO were opened for reading
    assert len(listing.matches) == 1 and listing.skipped[0].startswith("20990101-000000-fifo.jsonl")


def test_a_missing_folder_lists_nothing():
    assert replays.list_kept(replays.replays_dir() / "nowhere").matches == []
    assert replays.list_kept().matches == []  # the user data folder has no replays/ yet


def test_a_record_written_elsewhere_lists_without_seats(tmp_path):
    events = finished(seed=4)
    (tmp_path / "someone.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    m = replays.list_kept(tmp_path).matches[0]
    assert m.seats is None and m.human_seat is None and not m.practice


# ---------------------------------------------------------------------- window matches
def test_keep_session_names_the_human_seat_and_the_computer_s_level():
    s = session_over()
    path, problem = replays.keep_session(s)
    assert problem is None and path.parent == replays.replays_dir()
    m = replays.list_kept().matches[0]
    assert m.seats == ["human", "easy"] and not m.practice
    assert verify_file(str(path)).ok


def test_an_open_hands_or_undone_match_is_kept_as_practice():
    s = session_over(seed=3)
    s.open_hands = True
    replays.keep_session(s)
    s2 = session_over(seed=4)
    s2.undos = 1
    replays.keep_session(s2)
    assert [m.practice for m in replays.list_kept().matches] == [True, True]


def test_the_save_keeps_open_hands_so_a_resumed_match_is_still_practice():
    s = Session.new(game_ids()[0], None, 2, None, 5, bot_name="easy", threaded=False)
    s.start()
    s.open_hands = True
    again = Session.from_save(json.loads(json.dumps(s.to_save())), threaded=False)
    assert again.open_hands is True
    plain = s.to_save()
    plain["open_hands"] = "yes"  # only true itself counts
    assert Session.from_save(plain, threaded=False).open_hands is False
