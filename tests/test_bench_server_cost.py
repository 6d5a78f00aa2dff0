"""bench/server_floor.py and bench/decision_cost.py, the two halves of the server's cost per
decision: each runs, prints its figure, and refuses bad settings with a clear message."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.bench_module import BENCH, load_bench

ROOT = Path(__file__).resolve().parent.parent


def run_bench(name: str, *args: str) -> subprocess.CompletedProcess:
    # A subprocess: the floor bench pins its own process to cores, which a test worker must not be.
    return subprocess.run(
        [sys.executable, str(BENCH / f"{name}.py"), *args], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def test_the_floor_serves_real_decisions_and_prints_its_cost():
    out = run_bench("server_floor", "--tables", "3", "--seconds", "1", "--think", "0.05", "--corpus", "2000")
    assert out.returncode == 0, out.stdout + out.stderr
    decisions = int(re.search(r"decisions: (\d+)", out.stdout).group(1))
    assert decisions > 10
    assert re.search(r"stand-in server CPU per decision: \d+\.\d+ ms \(user", out.stdout)
    assert "bench clients:" in out.stdout


def test_the_floor_corpus_is_what_the_server_would_send():
    """Each decision's frames: every seat its view of the events, then the next turn, whose
    legal actions only the seat to act is sent; the record's lines are the events'."""
    floor = load_bench("server_floor")
    actors, records, frames = floor.corpus(4, 60, 3)
    assert len(actors) == len(records) == len(frames) == 60
    deals_seen = 0
    for j in range(59):
        for seat, data in enumerate(frames[j]):
            texts = load_bench("decision_cost").texts_of(data)  # the server's frames, read back
            events, turn = json.loads(texts[0]), json.loads(texts[1])
            assert events["type"] == "events" and turn["type"] == "turn"
            assert turn["decision"] == j + 1 and turn["seat"] == actors[j + 1]
            assert bool(turn["legal"]) == (seat == actors[j + 1])
            hands = [ev for ev in events["events"] if "hands" in ev]
            deals_seen += len(hands)
            for ev in hands:  # a new deal: only the seat's own hand is shown
                assert all(all(c is None for c in h) for i, h in enumerate(ev["hands"]) if i != seat)
        lines = records[j].decode().splitlines()
        assert lines and all(json.loads(line)["event"] for line in lines)
    assert deals_seen  # a deal of four ends within 60 decisions: a new deal's hands were looked at


def test_the_decision_cost_harness_plays_real_decisions():
    """One run: every act it sends is a decision the rules take (the harness checks the
    count itself), and its figure is a time."""
    out = run_bench("decision_cost", "--one", "--tables", "2", "--decisions", "200")
    assert out.returncode == 0, out.stdout + out.stderr
    assert 0 < float(out.stdout.strip().splitlines()[-1]) < 0.1


def test_bad_settings_get_one_line():
    out = run_bench("server_floor", "--corpus", "10")
    assert out.returncode == 2 and "--corpus >= 2000" in out.stderr
    out = run_bench("decision_cost", "--decisions", "0")
    assert out.returncode == 2 and "at least 1" in out.stderr
