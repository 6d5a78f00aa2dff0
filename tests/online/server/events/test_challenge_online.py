"""A challenge on a real server (127.0.0.1), played by two headless players on different days
(the server's events clock, moved by the test): Anna challenges Bea on day 1; Bea accepts and
plays her deals on day 2; Anna plays hers on day 3. The result is the duplicate difference of
the scores in the records (each verifies, the two players were dealt the same deals), shown
to each from their own side; a challenge to nobody or to oneself is refused in one line."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from pathlib import Path

import pytest

from game.online.cli import main
from game.online.server.serving import start_server_in_thread
from game.verify import verify_events
from tests.online.server.events.helpers import Clock
from tests.online.server.events.recompute import record_score
from tests.online.wshelp import record_file

GAME = "briscola"
DEALS = 2


@pytest.fixture
def server(tmp_path):
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "data", workers=1)
    h.server.events.hub.challenges.deals = DEALS
    clock = Clock(dt.datetime.combine(dt.date.today(), dt.time(10)))
    h.server.events.clock = clock
    yield h, clock
    assert h.stop(timeout=10)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["online", "challenge", *argv])
    got = capsys.readouterr()
    return rc, got.out, got.err


def played(out: str, root: Path) -> list[dict]:
    """The records the ``--play`` lines name, read from the server's folder."""
    names = re.findall(r"^deal \d+: record (\S+)$", out, re.M)
    return [[json.loads(line) for line in Path(record_file(root, n)).read_text().splitlines()] for n in names]


def test_a_challenge_played_on_different_days(server, capsys):
    h, clock = server
    url = h.url
    assert run(capsys, "--server", url, "--name", "Bea")[0] == 0  # Bea's account (lists nothing)
    rc, _, err = run(capsys, "--server", url, "--name", "Anna", "--send", "Nobody", "--game", GAME)
    assert rc == 2 and "Nobody" in err and "\n" not in err.strip()
    rc, _, err = run(capsys, "--server", url, "--name", "Anna", "--send", "Anna", "--game", GAME)
    assert rc == 2 and err.strip()
    rc, out, _ = run(capsys, "--server", url, "--name", "Anna", "--send", "Bea", "--game", GAME)
    assert rc == 0
    cid = out.split("challenge: ")[1].split()[0]
    # Anna cannot play before Bea has accepted
    rc, _, err = run(capsys, "--server", url, "--name", "Anna", "--play", cid, "--bot", "random")
    assert rc != 0 and "pending" in err
    clock.move(days=1)
    rc, out, _ = run(capsys, "--server", url, "--name", "Bea", "--accept", cid)
    assert rc == 0 and "accepted" in out
    rc, bea_out, _ = run(capsys, "--server", url, "--name", "Bea", "--play", cid, "--bot", "random", "--seed", "5")
    assert rc == 0 and "challenge: " in bea_out and "accepted, 2 of 2 deals played" in bea_out
    clock.move(days=1)
    rc, anna_out, _ = run(capsys, "--server", url, "--name", "Anna", "--play", cid, "--bot", "random", "--seed", "9")
    assert rc == 0 and ": done, 2 of 2 deals played" in anna_out
    anna, bea = played(anna_out, h.data_dir), played(bea_out, h.data_dir)
    assert len(anna) == len(bea) == DEALS
    for a, b in zip(anna, bea):
        assert verify_events(a).ok and verify_events(b).ok
        assert a[0]["seed"] == b[0]["seed"]  # the same deal, in the same seat
    diff = sum(record_score("\n".join(map(json.dumps, a)))[1] for a in anna) - sum(
        record_score("\n".join(map(json.dumps, b)))[1] for b in bea
    )
    outcome = "won" if diff > 0 else "lost" if diff < 0 else "draw"
    other = {"won": "lost", "lost": "won", "draw": "draw"}[outcome]
    assert f", {outcome} ({float(diff):+g})" in anna_out
    rc, listed, _ = run(capsys, "--server", url, "--name", "Bea")
    assert rc == 0 and f"{cid} {GAME} from Anna: done" in listed and f", {other} ({float(-diff):+g})" in listed
    # the deals are the published derivation of the challenge's secret seed, in order
    seed = int(h.server.events.store.load(cid).state["seed"])
    for i, a in enumerate(anna):
        want = hashlib.sha256(f"cardavia-online-challenge|{seed}|{i}".encode()).digest()
        assert a[0]["seed"] == int.from_bytes(want, "big")
