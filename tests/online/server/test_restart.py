"""``python main.py serve`` as a process: killed with SIGKILL in the middle of a deal and
started again on the same data folder, it resumes the table where it stood — the players
rejoin with their tokens, the match finishes, the record verifies and nothing was lost.
And the command line's bad arguments: one line, exit code 2."""

from __future__ import annotations

import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from game.online.cli import main as online_main
from game.record import read_record
from game.verify import verify_file
from tests.online.wshelp import Client, Player, create

ROOT = Path(__file__).resolve().parents[3]


class ServeProcess:
    """``main.py serve --port 0 --data DIR`` in a subprocess; ``url`` from its first line."""

    def __init__(self, data: Path, *extra: str, preexec=None):
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "main.py"), "serve", "--port", "0", "--data", str(data), *extra],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=preexec,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        try:
            self.first = self.lines.get(timeout=20)
        except queue.Empty:
            self.proc.kill()
            raise AssertionError(
                f"serve did not start: {self.proc.stderr.read() if self.proc.poll() else ''}"
            ) from None
        found = re.search(r"(ws://127\.0\.0\.1:\d+)", self.first)
        assert found, self.first
        self.url = found.group(1)

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=15)


def test_a_table_survives_sigkill_mid_deal(tmp_path):
    data = tmp_path / "tables"
    first = ServeProcess(data)
    try:
        assert "0 table(s) resumed" in first.first
        host, created = create(first.url, "scopa", 4, ["friend", "ai:greedy", "friend", "ai:easy"])
        code, tokens = created["code"], created["tokens"]
        early = [Player(first.url, code, tokens[s], f"P{s}", seed=int(s), stop_after=14).start() for s in ("0", "2")]
        for p in early:
            p.join(timeout=30)
        host.close()
        record = data / f"{code}.jsonl"
        before = read_record(record)
        decisions = sum(1 for ev in before if ev["event"] == "play")
        assert decisions >= 14
        assert not any(ev["event"] == "deal_end" for ev in before), "not in the middle of the first deal"
        first.kill()
    finally:
        if first.proc.poll() is None:
            first.proc.kill()
    assert first.proc.returncode == -signal.SIGKILL
    # Started again on the same folder: the table is there, where it stood.
    again = ServeProcess(data)
    try:
        assert "1 table(s) resumed" in again.first
        late = [Player(again.url, code, tokens[s], f"P{s}", seed=10 + int(s)).start() for s in ("0", "2")]
        for p, was in zip(late, early):
            p.join(timeout=60)
            assert p.seat == was.seat
            # Everything the seat had been sent is still its stream's beginning.
            assert p.events[: len(was.events)] == was.events
            assert p.record == record.name  # its name only: never the server's folders
        after = read_record(record)
        assert after[: len(before)] == before, "the record was rewritten, not continued"
        assert after[-1]["event"] == "match_end"
        verdict = verify_file(str(record))
        assert verdict.ok, verdict
        meta = (data / f"{code}.table.json").read_text()
        assert '"finished": true' in meta
        for token in tokens.values():
            assert token not in meta
    finally:
        code_ = again.stop() if again.proc.poll() is None else again.proc.returncode
    assert code_ == 0
    assert "Traceback" not in again.proc.stderr.read()
    # A third start resumes nothing: the match is over.
    third = ServeProcess(data)
    try:
        assert "0 table(s) resumed" in third.first
        c = Client(third.url)
        assert (
            c.request({"type": "join", "code": code, "name": "x", "token": tokens["0"]}, "error")["code"] == "no_table"
        )
        c.close()
    finally:
        assert third.stop() == 0


@pytest.mark.parametrize(
    "args,words",
    [
        (["--port", "70000"], "not a TCP port"),
        (["--workers", "0"], "--workers"),
        (["--certfile", "cert.pem"], "go together"),
        (["--port", "x"], "invalid int"),
        (["--nope"], "unrecognized"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(args, words, capsys, tmp_path):
    assert run_cli(["serve", "--data", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def run_cli(argv: list[str]) -> int:
    """The exit code of game.online.cli (argparse's own errors exit through SystemExit)."""
    try:
        return online_main(argv)
    except SystemExit as e:
        return int(e.code)


def test_unusable_tls_files_and_a_taken_port_are_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.pem"
    bad.write_text("not a certificate\n")
    assert run_cli(["serve", "--data", str(tmp_path), "--certfile", str(bad), "--keyfile", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "TLS certificate" in err and err.count("\n") == 1
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert run_cli(["serve", "--data", str(tmp_path / "d"), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert "cannot listen" in err and err.count("\n") == 1


def test_main_py_dispatches_serve():
    out = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "serve", "--port", "-1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "--port -1" in out.stderr
