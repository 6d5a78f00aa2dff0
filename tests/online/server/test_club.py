"""The club server on 127.0.0.1: accounts (unique names, secrets, recovery), quick match
between two headless players whose ratings move the right way, a lone player's computer
fill, a leaver replaced by the computer and rated as a loss, blocks and mutes, chat, the live
table list and spectators (no hidden card, the stream one decision late). Every wait bounded."""

from __future__ import annotations

import argparse
import io
import threading
import time

import pytest

from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from game.online.server.spectate import spectator_events
from game.record import read_record
from game.rulesets import make_rules
from game.verify import verify_file
from tests.online.wire.test_redact_leak import named_cards
from tests.online.wshelp import Client, Player, create, record_file


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    # The computer fills at level easy only: the tests' matches stay fast (hard thinks long).
    limits = ServerLimits(quick_wait=1.5, bot_after=1.0, fill_levels=("easy",))
    handle = start_server_in_thread("127.0.0.1", 0, tmp_path_factory.mktemp("club"), workers=1, limits=limits)
    yield handle
    assert handle.stop(timeout=10)


def account(url: str, name: str) -> tuple[Client, dict]:
    c = Client(url, name)
    return c, c.request({"type": "account", "name": name, "secret": None}, "account")


def quick_cli(url: str, game: str, name: str, bot: str = "greedy", seed: int = 1) -> tuple[threading.Thread, dict]:
    """``online quick`` in a thread (its output in box["out"], its exit code in box["code"])."""
    from game.online.client.clubclient import quick

    box: dict = {}
    args = argparse.Namespace(server=url, game=game, preset=None, bot=bot, name=name, seed=seed, timeout=60.0)

    def run() -> None:
        out, err = io.StringIO(), io.StringIO()
        box["code"] = quick(args, out=out, err=err)
        box["out"], box["err"] = out.getvalue(), err.getvalue()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, box


def line(text: str, key: str) -> str:
    return next(ln for ln in text.splitlines() if ln.startswith(key + ":"))[len(key) + 1 :].strip()


def rating_change(out: str) -> tuple[int, int]:
    old, new = line(out, "rating").split(" (")[0].rstrip("?").split(" -> ")
    return int(old), int(new.rstrip("?"))


def test_accounts_are_unique_kept_by_secret_and_recovered(club):
    c, made = account(club.url, "Greta")
    assert made["new"] and len(made["secret"]) == 32 and len(made["recovery"]) == 19
    other = Client(club.url, "x")
    assert other.request({"type": "account", "name": "GRETA", "secret": None}, "error")["code"] == "name_taken"
    assert other.request({"type": "account", "name": "Greta", "secret": "0" * 32}, "error")["code"] == "bad_secret"
    wrong = other.request({"type": "recover", "name": "Greta", "recovery": "AAAA-AAAA-AAAA-AAAA"}, "error")
    assert wrong["code"] == "bad_secret"
    back = other.request({"type": "account", "name": "whatever", "secret": made["secret"]}, "account")
    assert back["name"] == "Greta" and back["secret"] is None and back["recovery"] is None  # shown once only
    # One identity per connection: signed in, it cannot become someone else.
    assert other.request({"type": "account", "name": "Otto", "secret": None}, "error")["code"] == "account"
    mover = Client(club.url, "m")
    moved = mover.request({"type": "recover", "name": "greta", "recovery": made["recovery"].lower()}, "account")
    assert moved["secret"] != made["secret"] and moved["recovery"] != made["recovery"]
    third = Client(club.url, "y")
    assert (
        third.request({"type": "account", "name": "Greta", "secret": made["secret"]}, "error")["code"] == "bad_secret"
    )
    assert third.request({"type": "account", "name": "Greta", "secret": moved["secret"]}, "account")["name"] == "Greta"
    # The server keeps only digests: no secret or recovery code in the database file.
    raw = (club.data_dir / "players.sqlite3").read_bytes() + b"".join(
        p.read_bytes() for p in club.data_dir.glob("players.sqlite3-wal")
    )
    assert made["secret"].encode() not in raw and moved["secret"].encode() not in raw
    assert moved["recovery"].encode() not in raw
    for x in (c, other, mover, third):
        x.close()


def test_two_headless_players_quick_match_and_their_ratings_move_the_right_way(club):
    (t1, a), (t2, b) = quick_cli(club.url, "scopa", "Ada", seed=1), quick_cli(club.url, "scopa", "Bruno", seed=2)
    t1.join(60)
    t2.join(60)
    assert a.get("code") == 0 and b.get("code") == 0, (a, b)
    assert line(a["out"], "opponents").startswith("Bruno (1000?)") and line(b["out"], "opponents").startswith("Ada")
    assert line(a["out"], "rated") == "yes" and "recovery code" in a["out"]
    assert line(a["out"], "record") == line(b["out"], "record")
    record = record_file(club.data_dir, line(a["out"], "record"))
    assert verify_file(record).ok
    end = read_record(record)[-1]
    winner = end["winner"]
    (a_old, a_new), (b_old, b_new) = rating_change(a["out"]), rating_change(b["out"])
    assert a_old == b_old == 1000
    if winner is None:
        assert a_new == b_new
    else:
        won, lost = (a_new, b_new) if "your side" in line(a["out"], "final score") else (b_new, a_new)
        assert won > 1000 > lost
    # The second quick match of the same player signs in with the secret kept in the settings.
    t3, again = quick_cli(club.url, "scopa", "Ada", seed=3)
    t3.join(60)
    assert again.get("code") == 0 and "recovery code" not in again["out"]
    assert rating_change(again["out"])[0] == a_new
    assert "computer" in line(again["out"], "opponents")  # nobody else waited: the computer filled


def test_a_leaver_is_replaced_by_the_computer_and_rated_as_a_loss(club):
    quitter, _ = account(club.url, "Quentin")
    quitter.send({"type": "quick", "game": "briscola", "preset": None})
    quitter.expect("quick_waiting")
    t, stayer = quick_cli(club.url, "briscola", "Stella", seed=4)
    found = quitter.expect("quick_found")
    assert found["rated"] and not found["filled"]
    quitter.send({"type": "join", "code": found["code"], "name": "Stella", "token": found["token"]})
    lobby = quitter.expect("lobby")
    assert [s["name"] for s in lobby["seats"]].count("Stella") == 1  # the account's name, not the one asked
    quitter.expect("events")
    quitter.close()  # gone for good: after --bot-after the computer plays the seat
    t.join(60)
    assert stayer.get("code") == 0, stayer
    old, new = rating_change(stayer["out"])
    assert new == old  # a leaver's match gains nothing for the others (no feeding by walking out)
    record = read_record(record_file(club.data_dir, line(stayer["out"], "record")))
    assert any(ev.get("by") == "computer" for ev in record)  # marked in the record
    assert verify_file(record_file(club.data_dir, line(stayer["out"], "record"))).ok
    recent = Client(club.url, "z").request({"type": "recent", "name": "Quentin"}, "recent")["matches"]
    assert recent[0]["result"] == "left" and recent[0]["new"] < recent[0]["old"]
    assert any(p.get("by_ai") for p in recent[0]["summary"]["players"])  # and on the plates


def test_blocked_players_are_never_matched_and_muted_ones_are_not_heard(club):
    a, _ = account(club.url, "Bianca")
    b, _ = account(club.url, "Bert")
    assert a.request({"type": "block", "name": "Bert"}, "blocked")["name"] == "Bert"
    for c in (a, b):
        c.send({"type": "quick", "game": "scopa", "preset": None})
        c.expect("quick_waiting")
    fa, fb = a.expect("quick_found"), b.expect("quick_found")
    assert fa["code"] != fb["code"] and fa["filled"] and fb["filled"]
    # A report is kept for the server's owner, with the table it was about.
    assert (
        a.request({"type": "report", "name": "Bert", "table": fa["code"], "reason": "rude  words"}, "reported")["name"]
        == "Bert"
    )
    kept = club.server.db.reports()[-1]
    assert kept["reason"] == "rude words" and kept["code"] == fa["code"]
    assert b.request({"type": "report", "name": "Nobody", "table": None, "reason": "x"}, "error")["code"] == "no_player"
    a.close()
    b.close()
    # Mute: at a two-friend table, Carla mutes Dario: his phrases no longer reach her.
    host, created = create(club.url, "scopa", 2, ["friend", "friend"], name="Host")
    carla, dario = Client(club.url, "Carla"), Client(club.url, "Dario")
    carla.request({"type": "join", "code": created["code"], "name": "Carla", "token": created["tokens"]["0"]}, "joined")
    dario.request({"type": "join", "code": created["code"], "name": "Dario", "token": created["tokens"]["1"]}, "joined")
    assert carla.request({"type": "mute", "name": "dario", "muted": True}, "muted")["muted"]
    dario.send({"type": "say", "phrase": "oops"})
    assert dario.expect("said")["phrase"] == "oops"
    carla.send({"type": "say", "phrase": "thanks"})
    assert carla.expect("said")["phrase"] == "thanks"  # Dario's oops never came before her own
    assert not any(m.get("type") == "said" and m.get("phrase") == "oops" for m in carla.seen)
    assert dario.request({"type": "chat", "text": "hi"}, "error")["code"] == "chat_off"
    for c in (host, carla, dario):
        c.close()


def test_spectators_see_nothing_hidden_one_decision_late_and_players_see_the_count(club):
    host, created = create(club.url, "briscola", 2, ["friend", "ai:easy"], name="Host")
    host.request({"type": "publish", "public": True}, "published")
    lister = Client(club.url, "Lister")
    listed = lister.request({"type": "tables"}, "tables")
    row = next(r for r in listed["tables"] if r["code"] == created["code"])
    assert row["free"] == 1 and row["plates"][1]["level"] == "easy" and not named_cards(listed)
    assert "token" not in str(listed) and created["host_token"] not in str(listed)
    player = Player(club.url, created["code"], created["tokens"]["0"], "Pia", seed=5, pace=0.01).start()
    watcher = Client(club.url, "Walter")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not club.server.tables[created["code"]].started:
        time.sleep(0.02)
    watching = watcher.request({"type": "watch", "code": created["code"]}, "watching")
    assert watching["watchers"] == 1 and not named_cards(watching)
    stream: list[dict] = []
    checked_list = False
    while True:
        m = watcher.recv(10)
        if m["type"] == "events":
            assert m["from"] == len(stream)
            stream += m["events"]
            table = club.server.tables[created["code"]]
            match = table.match
            if not match.over:  # never the last decision's events while the match goes on
                last_start = max(
                    (i for i, ev in enumerate(match.events) if ev["event"] in table.rules.decisions),
                    default=len(match.events),
                )
                assert len(stream) <= last_start
                if len(stream) > 10 and not checked_list:  # the lobby's list mid-match: no card, no token
                    # a fresh client: the first lister also gets pushed lists, and one queued
                    # before Walter came would still say no one watches
                    late = Client(club.url, "Late")
                    mid = late.request({"type": "tables"}, "tables")
                    late.close()
                    row = next(r for r in mid["tables"] if r["code"] == created["code"])
                    assert row["started"] and row["watchers"] == 1 and not named_cards(mid)
                    assert created["tokens"]["0"] not in str(mid)
                    checked_list = True
        if stream and stream[-1]["event"] == "match_end":
            break
    player.join(30)
    assert checked_list
    assert host.expect("watchers", timeout=5)["count"] == 1  # the players see how many watch
    record = read_record(record_file(club.data_dir, player.record))
    rules = make_rules("briscola", None, 2, {})
    assert stream == spectator_events(rules, record)
    assert not any(h for ev in stream if ev["event"] == "deal" for hand in ev["hands"] for h in hand)
    assert not any(c for ev in stream if ev["event"] == "deal" for c in ev["stock"][:-1])
    assert not any(ev.get("card") for ev in stream if ev["event"] == "draw" and ev["card"] != record[1]["stock"][-1])
    bad = Client(club.url, "Eve")
    private, made = create(club.url, "scopa", 2, ["friend", "ai:easy"], name="Priv")
    assert bad.request({"type": "watch", "code": made["code"]}, "error")["code"] == "no_table"
    for c in (host, lister, watcher, bad, private):
        c.close()


def test_accounts_ratings_and_the_lobby_s_tables_survive_sigkill(tmp_path):
    """``main.py serve`` killed with SIGKILL: started again on its folder, the account signs
    in with the secret the settings kept, its rating is the one it had, the leaderboard
    lists it and the public lobby is listed again."""
    from game.online.client.clubclient import leaderboard
    from tests.online.server.test_restart import ServeProcess

    flags = ("--quick-wait", "1", "--bot-after", "5", "--fill-levels", "easy")
    srv = ServeProcess(tmp_path, *flags)
    try:
        t, first = quick_cli(srv.url, "briscola", "Kilian", seed=6)
        t.join(60)
        assert first.get("code") == 0, first
        _, after = rating_change(first["out"])
        host, created = create(srv.url, "scopa", 2, ["friend", "ai:easy"], name="Host")
        host.request({"type": "publish", "public": True}, "published")
        # A lobby change is written within a quarter second (coalesced, off the event loop).
        meta = tmp_path / f"{created['code']}.table.json"
        deadline = time.monotonic() + 5
        while '"public": true' not in meta.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        host.close()
    finally:
        srv.kill()
    port = srv.url.rsplit(":", 1)[1]  # the same address: the settings keep the account per server
    again = ServeProcess(tmp_path, *flags, "--port", port)
    try:
        out = io.StringIO()
        assert leaderboard(argparse.Namespace(server=again.url, game="briscola"), out=out) == 0
        assert "Kilian" in out.getvalue() and f" {after}?" in out.getvalue()
        listed = Client(again.url, "Lister").request({"type": "tables"}, "tables")
        assert created["code"] in [r["code"] for r in listed["tables"]]
        t, second = quick_cli(again.url, "briscola", "Kilian", seed=7)
        t.join(60)
        assert second.get("code") == 0 and "recovery code" not in second["out"], second
        assert rating_change(second["out"])[0] == after
    finally:
        assert again.stop() == 0


def test_chat_is_off_unless_the_server_allows_it_and_then_limited(tmp_path):
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1, limits=ServerLimits(chat=True))
    try:
        host, created = create(h.url, "scopa", 2, ["friend", "friend"], name="Host")
        a, b = Client(h.url, "Alma"), Client(h.url, "Bas")
        a.request({"type": "join", "code": created["code"], "name": "Alma", "token": created["tokens"]["0"]}, "joined")
        b.request({"type": "join", "code": created["code"], "name": "Bas", "token": created["tokens"]["1"]}, "joined")
        a.send({"type": "chat", "text": "  good   luck  "})
        assert b.expect("chat") == {"type": "chat", "seat": 0, "text": "good luck"}
        assert a.request({"type": "chat", "text": "again"}, "error")["code"] == "rate"  # one a second
        assert a.request({"type": "chat", "text": "x" * 201}, "error")["code"] == "schema"
        outsider = Client(h.url, "Olga")
        assert outsider.request({"type": "chat", "text": "hi"}, "error")["code"] == "not_seated"
        for c in (host, a, b, outsider):
            c.close()
    finally:
        assert h.stop(timeout=10)


def test_the_club_commands_say_what_is_wrong_in_one_line(club, capsys):
    from game.online.cli import main as online_main

    assert online_main(["online", "leaderboard", "--server", club.url, "--game", "poker"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown game" in err
    assert (
        online_main(["online", "quick", "--server", club.url, "--game", "poker", "--bot", "greedy", "--name", "Pat"])
        == 2
    )
    assert "unknown game" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        online_main(["online", "quick", "--server", club.url, "--game", "scopa", "--bot", "nobot"])
    assert e.value.code == 2 and capsys.readouterr().err.count("\n") == 1
    assert (
        online_main(["online", "quick", "--server", club.url, "--game", "scopa", "--bot", "greedy", "--name", "x" * 30])
        == 2
    )
    with __import__("socket").socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nobody listens there
    assert online_main(["online", "leaderboard", "--server", f"127.0.0.1:{port}", "--game", "scopa"]) == 1
    assert "cannot reach" in capsys.readouterr().err
    assert online_main(["serve", "--tables-per-address", "0"]) == 2
    assert online_main(["serve", "--fill-levels", "genius"]) == 2
    assert online_main(["serve", "--bot-after", "0.5"]) == 2


def test_a_silent_player_is_covered_by_the_computer_for_that_turn_and_is_no_leaver(club):
    silent, _ = account(club.url, "Silvio")
    silent.send({"type": "quick", "game": "briscola", "preset": None})
    silent.expect("quick_waiting")
    t, other = quick_cli(club.url, "briscola", "Olivia", seed=8)
    found = silent.expect("quick_found")
    silent.send({"type": "join", "code": found["code"], "name": "Silvio", "token": found["token"]})
    covered = False
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        m = silent.recv(10)
        if m["type"] == "resumed" and m.get("silent"):
            assert m["seat"] == found["seat"]
            covered = True
        elif m["type"] == "turn" and m["seat"] == found["seat"] and m["legal"] and covered:
            silent.send({"type": "act", "decision": m["decision"], "action": m["legal"][0]})  # back to playing
        elif m["type"] == "over":
            break
    t.join(60)
    assert covered and other.get("code") == 0, other
    record = read_record(record_file(club.data_dir, line(other["out"], "record")))
    marked = [ev for ev in record if ev.get("by") == "computer"]
    assert len(marked) == 1 and marked[0]["seat"] == found["seat"]  # only the silent turn
    rated = next(m for m in silent.seen if m["type"] == "rated")
    assert rated["result"] in ("won", "lost", "draw")  # silent for a turn is not leaving
    silent.close()
