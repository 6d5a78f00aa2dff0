"""The window's client of a club server's daily deal (game.online.client.daily_client): what a
server sends is checked before anything is drawn, and a question is bounded in time."""

from __future__ import annotations

import socket
import time

import pytest

from game.online.client.daily_client import Request, ask_for_board, board_info, board_line

GOOD = {"name": "Anna", "score": 7, "par": 5.333, "over_par": 1.667, "seconds": 95.2}


def test_a_board_line_is_checked():
    assert board_line(GOOD) == {**GOOD, "par": 5.333, "over_par": 1.667}
    for bad in (
        [GOOD],
        None,
        {**GOOD, "score": True},
        {**GOOD, "par": float("nan")},
        {**GOOD, "seconds": "9"},
        {**GOOD, "name": ""},
        {**GOOD, "name": "x" * 41},
        {**GOOD, "name": "a\nb"},
        {**GOOD, "over_par": 1e12},
        {k: v for k, v in GOOD.items() if k != "par"},
    ):
        assert board_line(bad) is None, bad
    assert board_line({**GOOD, "seconds": -5})["seconds"] == 0.0


def test_a_days_facts_are_checked_and_the_seed_only_counts_with_its_nonce():
    info = {"date": "2026-12-01", "game": "scopa", "preset": "classica", "hash": "ab" * 32, "seed": None, "nonce": None}
    assert board_info(info) == info
    assert board_info({**info, "seed": 5, "nonce": "cd" * 16})["seed"] == 5
    assert board_info({**info, "seed": 5})["seed"] is None  # a seed without its nonce cannot be checked
    assert board_info({**info, "seed": True, "nonce": "cd"})["seed"] is None
    assert board_info({**info, "seed": 5, "nonce": "not hex\n"})["seed"] is None
    assert board_info({**info, "seed": 2**256 - 1, "nonce": "cd"})["seed"] == 2**256 - 1  # the club's 256-bit seeds
    assert board_info({**info, "seed": 2**600, "nonce": "cd"})["seed"] is None
    for bad in ({**info, "hash": "AB" * 32}, {**info, "hash": "ab" * 31}, {**info, "date": 20261201}, "x", None):
        assert board_info(bad) is None, bad


def test_a_bad_address_or_message_is_refused_before_anything_is_sent():
    with pytest.raises(ValueError):
        ask_for_board("not an address", "Anna", "scopa", None, None)
    with pytest.raises(ValueError):
        ask_for_board("127.0.0.1:1", "Anna", "scopa", None, "yesterday")


def test_nobody_answering_ends_the_question_within_its_time():
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    req = Request(
        f"127.0.0.1:{port}",
        "Anna",
        {"type": "daily_board", "game": "scopa", "preset": None, "date": None},
        ("daily_board",),
        timeout=3.0,
    )
    deadline = time.monotonic() + 10
    while not req.poll() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert req.done and req.error is not None and req.error[0] in ("unreachable", "timeout")
    # A listener that never answers: the question times out.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        req = Request(
            f"127.0.0.1:{silent.getsockname()[1]}",
            "Anna",
            {"type": "daily_board", "game": "scopa", "preset": None, "date": None},
            ("daily_board",),
            timeout=1.0,
        )
        deadline = time.monotonic() + 10
        while not req.poll() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert req.done and req.error is not None
