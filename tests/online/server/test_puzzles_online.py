"""The club server's puzzle of the day: the day's id (the offline rule's), an answer judged
against the puzzle, once per account a day, signed-in accounts only, and who solved it
(names, no times), kept in the data folder across a restart."""

from __future__ import annotations

import datetime as dt

from game.online.server.puzzles import PuzzleDays, solves
from game.online.server.serving import start_server_in_thread
from game.online.wire.protocol import ProtocolError, action_to_json, check_message
from game.puzzles.daily import daily_puzzle
from game.puzzles.store import position
from tests.online.wshelp import Client

GAME = "briscola"


def _answers(game: str) -> tuple[str, list[dict], list[dict]]:
    """(today's id, its right moves, a wrong first move) as the client sends them."""
    p = daily_puzzle(dt.date.today(), game)
    right = [p.line[i][1] for i in p.seat_steps()]
    m = position(p)
    wrong = next(a for a in m.legal_actions() if action_to_json(a) != right[0])
    return p.id, right, [action_to_json(wrong)] + right[1:]


def signed_in(url: str, name: str) -> Client:
    c = Client(url, name)
    c.request({"type": "account", "name": name, "secret": None}, "account")
    return c


def test_the_schema_of_the_puzzle_messages():
    assert check_message({"type": "puzzle_daily", "game": "scopa"})["game"] == "scopa"
    msg = check_message(
        {
            "type": "puzzle_solved",
            "game": "scopa",
            "id": "scopa-100002-30",
            "moves": [{"kind": "play", "card": "7D", "capture": ["7C"]}],
        }
    )
    assert msg["moves"] == [{"kind": "play", "card": "7D", "capture": ["7C"], "marriage": False}]
    for bad in (
        {"type": "puzzle_solved", "game": "scopa", "id": "../x", "moves": [{"kind": "close"}]},
        {"type": "puzzle_solved", "game": "scopa", "id": "scopa-1", "moves": []},
        {"type": "puzzle_solved", "game": "scopa", "id": "scopa-1", "moves": [{"kind": "close"}] * 9},
        {"type": "puzzle_solved", "game": "scopa", "id": "scopa-1", "moves": [{"kind": "play"}]},
        {"type": "puzzle_daily", "game": "scopa", "date": "2025-01-01"},
    ):
        try:
            check_message(bad)
        except ProtocolError as e:
            assert e.code == "schema"
        else:
            raise AssertionError(f"accepted {bad}")


def test_solves_judges_every_answer_move():
    pid, right, wrong = _answers(GAME)
    assert solves(pid, right)
    assert not solves(pid, wrong)
    assert not solves(pid, right + [right[0]])  # one move too many
    assert not solves(pid, [{"kind": "close"}])  # not legal there
    assert not solves("briscola-0-0", right)  # no such puzzle


def test_the_daily_puzzle_on_the_server(tmp_path):
    pid, right, wrong = _answers(GAME)
    day = dt.date.today().isoformat()
    handle = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1)
    try:
        nameless = Client(handle.url, "Nobody")
        info = nameless.request({"type": "puzzle_daily", "game": GAME}, "puzzle_daily")
        assert info == {"type": "puzzle_daily", "date": day, "game": GAME, "id": pid, "solved_by": []}
        # No account: may look, may not answer.
        err = nameless.request({"type": "puzzle_solved", "game": GAME, "id": pid, "moves": right}, "error")
        assert err["code"] == "account"
        nameless.close()
        anna = signed_in(handle.url, "Anna")
        # Another id than the day's is refused.
        err = anna.request({"type": "puzzle_solved", "game": GAME, "id": "briscola-1-1", "moves": right}, "error")
        assert err["code"] == "puzzle"
        got = anna.request({"type": "puzzle_solved", "game": GAME, "id": pid, "moves": right}, "puzzle_solved")
        assert got["solved"] is True and got["solved_by"] == ["Anna"] and got["date"] == day
        # Once a day per account.
        err = anna.request({"type": "puzzle_solved", "game": GAME, "id": pid, "moves": right}, "error")
        assert err["code"] == "played"
        bert = signed_in(handle.url, "Bert")
        got = bert.request({"type": "puzzle_solved", "game": GAME, "id": pid, "moves": wrong}, "puzzle_solved")
        assert got["solved"] is False and got["solved_by"] == ["Anna"]  # a wrong answer is no solve
        # The list shows names only: no times, no order of speed beyond who came first.
        info = bert.request({"type": "puzzle_daily", "game": GAME}, "puzzle_daily")
        assert info["solved_by"] == ["Anna"] and set(info) == {"type", "date", "game", "id", "solved_by"}
        anna.close()
        bert.close()
    finally:
        handle.stop()
    # Kept in the data folder: a restarted server remembers who answered.
    days = PuzzleDays(tmp_path)
    assert days.solved_by(day, GAME, pid) == ["Anna"]
    assert (tmp_path / "puzzles" / f"{day}.json").is_file()
