"""``python main.py online host`` / ``online join --bot``: tables made and played from the
command line against real servers on 127.0.0.1 (subprocesses, every wait bounded)."""

from __future__ import annotations

import importlib.util
import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.online.cli import main as online_main
from game.online.client.client import RemoteSession
from game.online.client.headless import BotPlayer
from game.online.wire.links import parse_address
from game.rulesets import game_ids
from game.verify import verify_file
from tests.online.wshelp import record_file

ROOT = Path(__file__).resolve().parents[3]
MAIN = [sys.executable, str(ROOT / "main.py")]
WAIT = 30.0


def _run(args: list[str], timeout: float = WAIT) -> subprocess.CompletedProcess:
    return subprocess.run(MAIN + args, capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def _lines(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        key, _, value = line.partition(": ")
        out[key] = value
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from game.online.server.serving import start_server_in_thread

    handle = start_server_in_thread("127.0.0.1", 0, tmp_path_factory.mktemp("tables"))
    yield handle
    assert handle.stop(10.0)


# ------------------------------------------------------------------------------ bad arguments
BAD = [
    ["online"],
    ["online", "join", "--server", "ws://127.0.0.1:1", "--bot", "greedy"],  # no code
    ["online", "join", "--server", "ftp://127.0.0.1:1", "--code", "ABCDEFGHJK", "--bot", "greedy"],
    ["online", "join", "--server", "cardavia://127.0.0.1:1/NOPE", "--bot", "greedy"],
    ["online", "join", "--server", "ws://127.0.0.1:1", "--code", "ABCDEFGHJK", "--bot", "nobody"],
    ["online", "join", "--server", "ws://127.0.0.1:1", "--code", "ABCDEFGHJK", "--bot", "greedy", "--token", "xyz"],
    ["online", "join", "--server", "ws://127.0.0.1:1", "--code", "ABCDEFGHJK", "--bot", "greedy", "--name", " "],
    ["online", "join", "--server", "ws://127.0.0.1:1", "--code", "ABCDEFGHJK", "--bot", "greedy", "--timeout", "-1"],
    [
        "online",
        "host",
        "--server",
        "ws://127.0.0.1:1",
        "--game",
        "nogame",
        "--players",
        "2",
        "--seats",
        "friend,friend",
    ],
    [
        "online",
        "host",
        "--server",
        "ws://127.0.0.1:1",
        "--game",
        "scopa",
        "--players",
        "4",
        "--seats",
        "friend,ai:hard",
    ],
    [
        "online",
        "host",
        "--server",
        "ws://127.0.0.1:1",
        "--game",
        "scopa",
        "--players",
        "2",
        "--seats",
        "friend,ai:genius",
    ],
    [
        "online",
        "host",
        "--server",
        "ws://127.0.0.1:1",
        "--game",
        "scopa",
        "--players",
        "2",
        "--seats",
        "ai:hard,ai:easy",
    ],
    ["online", "host", "--server", "ws://127.0.0.1:1", "--game", "scopa", "--players", "9", "--seats", "friend"],
    [
        "online",
        "host",
        "--server",
        "ws://127.0.0.1:1",
        "--game",
        "scopa",
        "--players",
        "2",
        "--seats",
        "friend,friend",
        "--option",
        "target=12",
    ],
    [
        "online",
        "host",
        "--server",
        "ws://127.0.0.1:1",
        "--game",
        "scopa",
        "--players",
        "2",
        "--seats",
        "friend,friend",
        "--option",
        "target",
    ],
    [
        "online",
        "host",
        "--server",
        "ws://127.0.0.1:1",
        "--game",
        "scopa",
        "--players",
        "2",
        "--seats",
        "friend,friend",
        "--pause-seconds",
        "-5",
    ],
]


@pytest.mark.parametrize("argv", BAD, ids=lambda a: " ".join(a[1:3] + a[-2:]))
def test_bad_arguments_say_one_line_and_exit_2(argv, capsys):
    try:
        code = online_main(argv)
    except SystemExit as e:  # argparse's own errors (through the one-line parser)
        code = e.code
    out, err = capsys.readouterr()
    assert code == 2
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_bad_arguments_through_main_py_and_an_unknown_table(server):
    p = _run(["online", "join", "--server", "ws://127.0.0.1:1", "--code", "abc", "--bot", "greedy"])
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and p.stdout == ""
    p = _run(["online", "join", "--server", server.url, "--code", "ABCDEFGHJK", "--bot", "greedy"])
    assert p.returncode == 2 and "no table" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    p = _run(
        [
            "online",
            "host",
            "--server",
            server.url,
            "--game",
            game_ids()[0],
            "--players",
            "2",
            "--seats",
            "friend,friend",
            "--deck",
            "no-such-deck",
        ]
    )
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


def test_an_unreachable_server_is_one_line_and_exit_1():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nobody listens here once closed
    p = _run(
        [
            "online",
            "join",
            "--server",
            f"127.0.0.1:{port}",
            "--code",
            "ABCDEFGHJK",
            "--bot",
            "greedy",
            "--retry-seconds",
            "1",
        ]
    )
    assert p.returncode == 1 and len(p.stderr.strip().splitlines()) == 1 and "cannot reach" in p.stderr


# ------------------------------------------------------------------------------ whole matches
def test_host_then_two_bot_clients_play_four_player_scopa_with_two_computers(server):
    host = _run(
        [
            "online",
            "host",
            "--server",
            server.url,
            "--game",
            "scopa",
            "--players",
            "4",
            "--seats",
            "friend,ai:greedy,friend,ai:greedy",
            "--pause-seconds",
            "20",
        ]
    )
    assert host.returncode == 0, host.stderr
    info = _lines(host.stdout)
    code = info["code"]
    assert set(info) == {"code", "link", "host", "seat 0", "seat 2"}
    assert parse_address(info["link"]) == (server.url, code)
    # One bot takes the next free seat through the link, the other comes with seat 2's token.
    joins = [
        subprocess.Popen(
            MAIN + ["online", "join", "--server", info["link"], "--bot", "greedy", "--seed", "1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        ),
        subprocess.Popen(
            MAIN
            + [
                "online",
                "join",
                "--server",
                server.url,
                "--code",
                code.lower(),
                "--token",
                info["seat 2"],
                "--bot",
                "random",
                "--name",
                "Zia",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        ),
    ]
    outs = []
    try:
        for p in joins:
            out, err = p.communicate(timeout=WAIT)
            assert p.returncode == 0, err
            outs.append(_lines(out))
    finally:
        for p in joins:
            if p.poll() is None:
                p.kill()
    assert "seat 0" in outs[0] and outs[1]["seat 2"] == info["seat 2"]
    assert outs[1]["record"] == outs[0]["record"] == f"{code}.jsonl"  # its name only: never the server's folders
    record = record_file(server.data_dir, outs[0]["record"])
    verdict = verify_file(record)
    assert verdict.ok, str(verdict)
    # Each client ends with the final score: the record's, and partners agree.
    end = json.loads(Path(record).read_text(encoding="utf-8").splitlines()[-1])
    side = "your side" if end["winner"] == 0 else "the other side"  # seats 0 and 2: team 0
    assert (
        outs[0]["final score"]
        == outs[1]["final score"]
        == f"totals {end['totals']}, winner team {end['winner']} ({side})"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_server(port: int, data: Path, *flags: str, loop: str | None = None) -> subprocess.Popen:
    p = subprocess.Popen(
        MAIN + ["serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data), *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    line = p.stdout.readline()  # "cardavia server on ws://…" once it listens (bounded by the test's timeout)
    assert "cardavia server on" in line, (line, p.poll())
    if loop is not None:  # the event loop it says it runs on
        assert f", {loop} event loop)" in line, line
    return p


def test_a_bot_client_rejoins_by_itself_when_the_server_is_killed_and_comes_back(tmp_path):
    """SIGKILL the server mid-match, start it again on the same port and folder: the
    headless bot reconnects with its token and finishes; the record passes verify. The match
    is played on both event loops ``serve`` offers: the default (uvloop where installed), then
    after the kill the standard library's (``--event-loop asyncio``)."""
    from game.online.client.client import create_table

    port, data = _free_port(), tmp_path / "tables"
    url = f"ws://127.0.0.1:{port}"
    default_loop = "uvloop" if importlib.util.find_spec("uvloop") is not None else "asyncio"
    srv = _start_server(port, data, loop=default_loop)
    bot = me = None
    try:
        game = game_ids()[0]
        created = create_table(url, "host", game, 2, ["friend", "friend"], pause_seconds=30)
        bot = subprocess.Popen(
            MAIN
            + [
                "online",
                "join",
                "--server",
                url,
                "--code",
                created["code"],
                "--token",
                created["tokens"]["0"],
                "--bot",
                "greedy",
                "--retry-seconds",
                "20",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        me = RemoteSession(url, created["code"], "Me", token=created["tokens"]["1"], retry_for=20)
        deadline = time.monotonic() + WAIT
        player = None
        killed = False
        while not me.over and time.monotonic() < deadline:
            me.wait(0.05)
            if me.human_to_act:
                player = player or BotPlayer("greedy", me.rules, me.human_seat, 5)
                me.submit(player.choose(me.match.events, me.legal_actions(), me.decision))
            if not killed and len(me.match.decisions) >= 8:
                srv.send_signal(signal.SIGKILL)
                srv.wait(10)
                killed = True
                made = len(me.match.decisions)
                srv = _start_server(port, data, "--event-loop", "asyncio", loop="asyncio")
        assert killed and me.over, (me.failed, list(me.errors))
        assert me.conn.connects >= 2 and len(me.match.decisions) > made
        out, err = bot.communicate(timeout=WAIT)
        assert bot.returncode == 0, err
        record = record_file(data, _lines(out)["record"])
        verdict = verify_file(record)
        assert verdict.ok, str(verdict)
        assert Path(record).parent == data.resolve()
    finally:
        if me is not None:
            me.close()
        for p in (bot, srv):
            if p is not None and p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
