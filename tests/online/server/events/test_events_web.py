"""The club's events on the server's web pages: the events list (today's tournaments, an arena
and a Swiss tournament from the owner's schedule, ``serve --events FILE``), a tournament's page
(its commitment; its standings only once the day's seed is revealed), an arena's and a Swiss
tournament's standings; every name escaped, no script, four languages; and the pages in a real
headless Chromium (its DOM, and screenshots kept under /work/shots61 when that folder exists)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from game.online.server.daily import GRACE
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from tests.online.server.test_web import get, run_chromium

HOSTILE = "<b>&\"x'</b>"
SHOTS = Path("/work/shots61")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    now = dt.datetime.now().replace(microsecond=0)
    folder = tmp_path_factory.mktemp("events-web")
    schedule = folder / "events.yaml"
    start = (now - dt.timedelta(minutes=5)).strftime("%Y-%m-%d %H:%M")
    later = (now + dt.timedelta(days=1)).strftime("%Y-%m-%d %H:%M")
    schedule.write_text(
        f"arenas:\n  - name: evening-blitz\n    game: briscola\n    start: {start}\n    minutes: 60\n"
        f"swiss:\n  - name: club-swiss\n    game: briscola\n    rounds: 4\n    start: {later}\n",
        encoding="utf-8",
    )
    limits = ServerLimits(tournament_deals=2, events_file=str(schedule))
    h = start_server_in_thread("127.0.0.1", 0, folder / "data", workers=1, limits=limits)
    ev = h.server.events
    tid = ev.tod.ensure(now.date().isoformat(), "briscola", None, now)
    for k, (name, scores) in enumerate([(HOSTILE, (40, 70)), ("Bea", (80, 50)), ("Carlo", (60, 60))]):
        player = f"p:{900 + k}"
        ev.tod.enter(tid, player, name, now)
        for i, score in enumerate(scores):
            code = f"C{k}X{i}"
            ev.tod.begin(tid, player, i, code, now)
            ev.tod.finish(tid, player, i, code, score, now)
    ev.hub.arenas.join("arena:evening-blitz", "p:900", HOSTILE, now)
    ev.hub.arenas.join("arena:evening-blitz", "p:901", "Bea", now)
    ev.hub.swisses.register("swiss:club-swiss", ["p:901"], "Bea", 1500.0, now)
    ev.hub.swisses.register("swiss:club-swiss", ["p:900"], HOSTILE, 1500.0, now)
    yield h, now, tid
    assert h.stop(timeout=10)


def base(h) -> str:
    return f"http://127.0.0.1:{h.port}"


def test_the_events_pages_by_http(site):
    h, now, tid = site
    day = now.date().isoformat()
    status, kind, body = get(base(h) + "/events")
    assert status == 200 and kind.startswith("text/html") and "<script" not in body
    assert f'href="/tournament/briscola/{day}?lang=en"' in body
    assert 'href="/arena/arena%3Aevening-blitz?lang=en"' in body and "club-swiss" in body
    assert "Tournaments of the day" in body and "p:90" not in body
    # the lobby's menu leads here
    assert 'href="/events?lang=en"' in get(base(h) + "/")[2]
    # a tournament's page: the commitment, the entries; no standings while the day is open
    status, _, body = get(base(h) + f"/tournament/briscola/{day}")
    assert status == 200 and "3 players have entered." in body
    info = h.server.events.tod.public(tid, now)
    assert info["hash"] in body and "Bea" not in body and "once the day is over" in body
    # once the seed is revealed (the server's clock moved past the deadline): the standings
    h.server.events.clock = lambda: dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time()) + GRACE
    try:
        status, _, body = get(base(h) + f"/tournament/briscola/{day}?lang=it")
        assert status == 200 and "Bea" in body and "Carlo" in body
        assert "&lt;b&gt;&amp;&quot;x&#x27;&lt;/b&gt;" in body and HOSTILE not in body
        assert "Seme" in body and str(h.server.events.tod.public(tid, h.server.events.clock())["seed"]) in body
        # Bea: 100 % then 0 %; Carlo 50 % and 50 %; the hostile name 0 % then 100 %: all 50.00 %
        assert body.count("50.00 %") == 3
    finally:
        h.server.events.clock = dt.datetime.now
    # an arena's and a Swiss tournament's standings, names escaped
    status, _, body = get(base(h) + "/arena/arena%3Aevening-blitz?lang=de")
    assert status == 200 and "Arena-Turnier: evening-blitz" in body and "&lt;b&gt;" in body and HOSTILE not in body
    status, _, body = get(base(h) + "/swiss/swiss%3Aclub-swiss?lang=nl")
    assert status == 200 and "Buchholz" in body and "Bea" in body and HOSTILE not in body
    for page in (
        "/tournament/briscola/1999-01-01",
        "/tournament/poker/" + day,
        "/arena/arena%3Anope",
        "/swiss/arena%3Aevening-blitz",
        "/arena/" + "x" * 400,
    ):
        assert get(base(h) + page)[0] == 404, page


def test_the_events_pages_in_a_real_headless_chromium(site, tmp_path):
    h, now, _ = site
    out = run_chromium("--dump-dom", base(h) + "/events?lang=it")
    dom = out.stdout
    assert "Tornei del giorno" in dom and "evening-blitz" in dom and "<script" not in dom, out.stderr[-2000:]
    out = run_chromium("--dump-dom", base(h) + "/arena/arena%3Aevening-blitz?lang=en")
    assert "&lt;b&gt;" in out.stdout and "<b>&amp;" not in out.stdout, out.stderr[-2000:]
    for page, name in (
        ("/events?lang=en", "web-events-en.png"),
        ("/events?lang=it", "web-events-it.png"),
        ("/arena/arena%3Aevening-blitz?lang=en", "web-arena-en.png"),
        ("/swiss/swiss%3Aclub-swiss?lang=it", "web-swiss-it.png"),
    ):
        shot = tmp_path / name
        out = run_chromium(f"--screenshot={shot}", "--window-size=1000,800", base(h) + page)
        assert shot.exists() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", out.stderr[-2000:]
        if SHOTS.is_dir():
            shutil.copy(shot, SHOTS / name)
