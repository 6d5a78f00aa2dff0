"""The club server's read-only web pages on its own port: by HTTP (status, type, every text
escaped, only finished records, four languages) and in a real headless Chromium (the DOM it
builds and a screenshot). Everything on 127.0.0.1, every wait bounded."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from game.verify import verify_file
from tests.online.wshelp import Client, create

HOSTILE = "<b>&\"x'</b>"  # a name that must be shown as text, never read as markup


def get(url: str, lang: str | None = None) -> tuple[int, str, str]:
    req = urllib.request.Request(url, headers={"Accept-Language": lang} if lang else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read().decode("utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    limits = ServerLimits(quick_wait=0.3, bot_after=5.0, fill_levels=("easy",))
    h = start_server_in_thread("127.0.0.1", 0, tmp_path_factory.mktemp("web"), workers=1, limits=limits)
    # A finished quick match of a player with a hostile name (the computer filled the wait).
    c = Client(h.url, "x")
    c.request({"type": "account", "name": HOSTILE, "secret": None}, "account")
    c.send({"type": "quick", "game": "briscola", "preset": None})
    found = c.expect("quick_found")
    c.send({"type": "join", "code": found["code"], "name": HOSTILE, "token": found["token"]})
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        m = c.recv(10)
        if m["type"] == "turn" and m["legal"]:
            c.send({"type": "act", "decision": m["decision"], "action": m["legal"][0]})
        if m["type"] == "over":
            break
    c.expect("rated") if not any(x["type"] == "rated" for x in c.seen) else None
    c.close()
    # An open public table and a playing private one.
    host, created = create(h.url, "scopa", 2, ["friend", "ai:easy"], name="Host")
    host.request({"type": "publish", "public": True}, "published")
    yield h, found["code"], created["code"], host
    host.close()
    assert h.stop(timeout=10)


def base(h) -> str:
    return f"http://127.0.0.1:{h.port}"


def test_the_pages_answer_by_http_escaped_everywhere(site):
    h, finished, lobby_code, _ = site
    status, kind, body = get(base(h) + "/")
    assert status == 200 and kind.startswith("text/html") and lobby_code in body and "<script" not in body
    assert "Briscola</a>" in body and "{'en'" not in body  # the games by their names
    status, kind, body = get(base(h) + "/leaderboard/briscola")
    assert status == 200 and "&lt;b&gt;&amp;&quot;x&#x27;&lt;/b&gt;" in body and HOSTILE not in body
    status, _, body = get(base(h) + "/player/" + urllib.request.quote(HOSTILE, safe=""))
    assert status == 200 and f"/record/{finished}.jsonl" in body and HOSTILE not in body
    assert "1000 →" in body and ".0 →" not in body  # the rating change, as the player sees ratings
    status, kind, record = get(base(h) + f"/record/{finished}.jsonl")
    assert status == 200 and kind.startswith("application/x-ndjson")
    path = Path(h.data_dir) / "copy.jsonl"
    path.write_text(record)
    assert verify_file(path).ok
    # Never a record that is not a finished club match (a running one holds every hand).
    for page in (
        f"/record/{lobby_code}.jsonl",
        "/record/../players.sqlite3",
        "/nope",
        "/leaderboard/poker",
        "/player/nobody",
        "/" + "x" * 5000,
    ):
        assert get(base(h) + page)[0] == 404, page
    # The browser's language, or ?lang=.
    assert "Classifica" in get(base(h) + "/leaderboard/briscola", "it-IT,it;q=0.9")[2]
    assert "Rangliste" in get(base(h) + "/leaderboard/briscola?lang=de")[2]
    # The protocol still works on the same port.
    assert Client(h.url, "Anna").request({"type": "ping"}, "pong")


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    assert found, "Chromium is missing: `make test` installs it (make browser)"
    return found


def run_chromium(*args: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [
                chromium(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )


def test_the_pages_in_a_real_headless_chromium(site, tmp_path):
    h, finished, lobby_code, _ = site
    out = run_chromium("--dump-dom", base(h) + "/leaderboard/briscola?lang=it")
    dom = out.stdout
    assert "Classifica" in dom and "&lt;b&gt;" in dom and "<b>&amp;" not in dom, out.stderr[-2000:]
    shot = tmp_path / "lobby.png"
    out = run_chromium(f"--screenshot={shot}", "--window-size=900,600", base(h) + "/?lang=nl")
    assert shot.exists() and shot.stat().st_size > 2000, out.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
