"""Lessons (issue 30, item 4): every shipped lesson plays through under the real rules with
its good moves, its scripted moves are legal, its wrong moves are explained and taken back,
what its words promise is what the rules score, and a broken lesson file is refused in one
line naming the file and the step."""

from __future__ import annotations

import copy

import pytest

from game.lessons.lesson import (
    LessonError,
    get_lesson,
    lesson_names,
    lessons_dir,
    load_lesson,
    parse_lesson,
    parse_move,
)
from game.lessons.session import LessonSession, drive, play_through
from game.rulesets import game_ids
from game.safeyaml import load_yaml
from game.services.i18n import I18n
from game.services.settings import Settings

NAMES = lesson_names()
LANGS = ("en", "nl", "de", "it")


_I18N: list[I18n] = []


def locales() -> I18n:
    if not _I18N:
        _I18N.append(I18n("en"))
    return _I18N[0]


def raw(name: str) -> dict:
    path = lessons_dir() / f"{name}.yaml"
    return load_yaml(path.read_text(encoding="utf-8"), path.name, allow_aliases=False)[0]


def test_there_is_a_lesson_for_every_game():
    assert sorted(NAMES) == sorted(game_ids())
    assert {get_lesson(n).game for n in NAMES} == set(game_ids())


@pytest.mark.parametrize("name", NAMES)
def test_the_lesson_plays_to_its_end_with_its_good_moves(name):
    lesson = get_lesson(name)
    s = play_through(lesson)
    assert s.finished and s.mistakes == 0 and s.step == len(lesson.steps)
    human = [a for seat, a in s.match.decisions if seat == lesson.human]
    assert len(human) == len(lesson.steps)
    for step, action in zip(lesson.steps, human):
        assert step.is_good(action)
    # Every decision went through the rules: the record replays in a fresh rules object.
    rules = lesson.make_rules()
    state = lesson.new_state(rules)
    for seat, action in s.match.decisions:
        assert rules.to_act(state) == seat
        assert action in rules.legal_actions(state)
        rules.apply(state, action)


@pytest.mark.parametrize("name", NAMES)
def test_a_wrong_move_is_explained_waits_and_is_taken_back(name):
    lesson = get_lesson(name)
    s = LessonSession(lesson)
    s.start()
    assert s.phase == "intro" and not s.human_to_act and not s.poll()
    tried = 0
    for k, step in enumerate(lesson.steps):
        drive(s, k)
        assert s.step == k and s.phase == "move" and s.human_to_act
        wrong = [a for a in s.legal_actions() if not step.is_good(a)]
        if not wrong:
            continue
        before = list(s.match.events)
        s.submit(wrong[-1])
        tried += 1
        assert s.phase == "wrong" and s.wrong_key == step.explanation(wrong[-1]) and s.wrong_key
        assert not s.human_to_act and s.to_act is None and not s.poll()  # nothing moves meanwhile
        with pytest.raises(RuntimeError):
            s.submit(wrong[-1])
        assert s.take_back() and s.phase == "move" and s.wrong_key is None
        assert s.match.events == before and s.human_to_act
        assert not s.take_back()
    drive(s)
    assert s.finished and s.mistakes == tried > 0


@pytest.mark.parametrize("name", NAMES)
def test_every_text_of_the_lesson_exists_in_four_languages(name):
    lesson = get_lesson(name)
    i18n = locales()
    missing = [(lang, k) for k in lesson.keys for lang in LANGS if not i18n.has(k, lang)]
    assert not missing
    assert len(set(lesson.keys)) >= 3 + 2 * len(lesson.steps)
    for step in lesson.steps:  # a step's own words and at least one explanation of a wrong move
        assert step.otherwise or step.wrong or len(step.good) > 0


# ---------------------------------------------------------------------- what the words promise
def bonuses(s: LessonSession, seat: int) -> list[list[str]]:
    return [e.get("bonuses", []) for e in s.match.events if e.get("event") == "play" and e.get("seat") == seat]


def test_scopa_lesson_scores_two_scope_keeps_the_settebello_and_leaves_no_sweep():
    s = play_through(get_lesson("scopa"))
    assert bonuses(s, 0) == [[], ["scopa"], ["scopa"], []]
    assert "7D" in {c.code for c in s.match.state.piles[0]}
    rules, table = s.rules, s.match.state.table
    assert sum(rules.values[c] for c in table) > 10  # more than any card is worth: no sweep next
    wrong = LessonSession(get_lesson("scopa"))
    wrong.start()
    drive(wrong, 3, "wrong")  # the Ace put down: 5 + 1, and a 6 would sweep
    assert sum(rules.values[c] for c in wrong.match.state.table) == 6


def test_cicera_lesson_earns_quadriglia_simili_picada_and_scua():
    s = play_through(get_lesson("cicera"))
    assert bonuses(s, 0) == [["simili", "quadriglia"], ["picada"], ["scua"]]


def test_schnapsen_lesson_counts_the_waiting_marriage_with_the_first_trick():
    s = play_through(get_lesson("schnapsen"))
    state = s.match.state
    assert state.points(0) == 20 + 11 + 10


def test_briscola_and_tressette_lessons_win_the_tricks_they_say():
    s = play_through(get_lesson("briscola"))
    tricks = [e for e in s.match.events if e.get("event") == "trick"]
    assert [(t["winner"], t["points"]) for t in tricks] == [(0, 21), (1, 0), (0, 4)]
    s = play_through(get_lesson("tressette"))
    tricks = [e for e in s.match.events if e.get("event") == "trick"]
    assert [t["winner"] for t in tricks] == [0, 0, 0]
    assert tricks[0]["points"] == 4  # Ace (3 thirds) and the 2 (1 third)


def test_chiamata_lesson_has_an_auction_a_call_and_a_partner_revealed():
    lesson = get_lesson("chiamata")
    s = play_through(lesson)
    events = s.match.events
    auction = [(e["event"], e["seat"], e.get("rank")) for e in events if e.get("event") in ("bid", "pass")]
    assert auction == [
        ("bid", 0, "A"),
        ("bid", 1, "3"),
        ("pass", 2, None),
        ("pass", 3, None),
        ("pass", 4, None),
        ("bid", 0, "K"),
        ("pass", 1, None),
    ]
    assert [(e["seat"], e["card"]) for e in events if e.get("event") == "call"] == [(0, "KC")]
    tricks = [e for e in events if e.get("event") == "trick"]
    assert [(t["winner"], t["points"]) for t in tricks] == [(1, 4), (0, 17)]
    assert "KC" in tricks[0]["cards"]  # the partner showed with the called card
    rules, state = s.rules, s.match.state
    assert state.trump_suit == "C" and state.partner == 1
    # Once the called card is played every seat knows the sides; before, a defender did not.
    assert all(rules.view(state, seat).partner == 1 for seat in range(rules.players))
    fresh = lesson.new_state(rules)
    for _seat, action in s.match.decisions[:8]:  # the auction and the call
        rules.apply(fresh, action)
    assert rules.view(fresh, 2).partner is None and rules.view(fresh, 1).partner == 1


def test_a_move_of_a_decision_that_plays_no_card_names_its_payload():
    lesson = get_lesson("chiamata")
    rules = lesson.make_rules()
    codes = {c.code for c in rules.cards}
    legal = rules.legal_actions(lesson.new_state(rules))
    bid_a = parse_move("bid A", codes, rules.vocabulary)
    assert [str(a) for a in legal if bid_a.matches(a)] == ["bid (rank A)"]
    assert sum(parse_move("bid", codes, rules.vocabulary).matches(a) for a in legal) == len(legal) - 1  # any bid
    assert [str(a) for a in legal if parse_move(" pass ", codes, rules.vocabulary).matches(a)] == ["pass"]
    for text, problem in (
        ("bid Z", "'Z' is not a rank of a bid"),
        ("bid 2 121", "'121' is not a points of a bid"),
        ("bid 2 70 1", "bid takes rank points"),
        ("pass now", "pass takes no value"),
        ("call 9X", "'9X' is not a card of a call"),
        ("AC now", "'AC' is not a decision that plays no card"),
    ):
        with pytest.raises(ValueError, match=problem):
            parse_move(text, codes, rules.vocabulary)


# ---------------------------------------------------------------------- broken data
def broken(change, name: str = "scopa") -> str:
    data = copy.deepcopy(raw(name))
    change(data)
    with pytest.raises(LessonError) as e:
        parse_lesson(data, name, f"{name}.yaml")
    message = str(e.value)
    assert "\n" not in message and message.startswith(f"{name}.yaml")
    return message


def test_a_broken_lesson_is_refused_in_one_line_naming_the_problem():
    assert "not one of" in broken(lambda d: d.update(game="whist"))
    assert "'9X' is not a card" in broken(lambda d: d["steps"][0].update(good=["9X"]))
    assert "step 1: 3D:7C is not a legal move" in broken(lambda d: d["steps"][0].update(good=["3D:7C"]))
    assert "step 1: no explanation for 3D" in broken(lambda d: d["steps"][0].pop("otherwise"))
    assert "not one the rules deal" in broken(lambda d: d["deal"]["table"].__setitem__(0, "7D"))
    assert "seat 1's move 1, QB:QS, is not legal" in broken(
        lambda d: (
            d["deal"]["table"].__setitem__(3, "5S")
            or d["deal"]["stock"].__setitem__(d["deal"]["stock"].index("5S"), "QS")
        )
    )
    # A scripted answer after the last step is played (a trick's end); one after that is never reached.
    assert "never reaches" in broken(lambda d: d["script"][1].extend(["5B", "AC"]))
    assert "a locale key is required" in broken(lambda d: d["steps"][1].pop("why"))
    assert "is not another seat" in broken(lambda d: d["script"].update({0: ["7D"]}))
    # A bid must go lower than the one before; a move naming no payload fits every bid.
    assert "step 2: bid A is not a legal move" in broken(lambda d: d["steps"][1].update(good=["bid A"]), "chiamata")
    assert "seat 1's move 1, bid, fits several legal moves" in broken(
        lambda d: d["script"][1].__setitem__(0, "bid"), "chiamata"
    )
    assert "'Z' is not a rank of a bid" in broken(lambda d: d["steps"][0].update(good=["bid Z"]), "chiamata")


def test_a_missing_or_unreadable_lesson_file_is_one_line(tmp_path):
    with pytest.raises(LessonError, match="file not found"):
        load_lesson(tmp_path / "nothing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: [scopa\n", encoding="utf-8")
    with pytest.raises(LessonError, match="bad.yaml: cannot be read"):
        load_lesson(bad)
    with pytest.raises(LessonError, match="no lesson named"):
        get_lesson("whist")


def test_the_done_marks_live_in_the_settings():
    s = Settings.from_json({"lessons_done": ["scopa", "scopa", 3, "", "briscola"]})
    assert s.lessons_done == ["scopa", "briscola"]
    assert Settings.from_json({"lessons_done": "scopa"}).lessons_done == []
    assert Settings.from_json(s.to_json()).lessons_done == ["scopa", "briscola"]
