"""Fair play on the club: what an attacker did to the club's results, reproduced and closed.

- The deal of a table cannot be searched from a seat's cards: every seed comes from 128 bits
  of ``secrets`` (a seat's first deal leaves far more than 2^100 candidate seeds).
- The daily deal is an account's, once; the server alone sets its table up (no host, no
  configure, kick or publish; a seat only by its token).
- One identity per connection: one ``hello``, one account.
- Quick tables count for every player's account and address and against the global limit;
  ``quick`` is rate-limited per account; a found match not joined counts against the dodger.
- Ratings cannot be farmed (the rules in game.online.server.ratings).
- Slow headers from one address fill only that address's few slots; a full server keeps a
  reserve for players coming back to their seats.

Everything on 127.0.0.x (distinct loopback addresses stand for distinct clients with
``local_unlimited`` off); every loop is bounded in count and time.
"""

from __future__ import annotations

import math
import socket
import time

import pytest

from game.match import Match
from game.online.server.accounts import Rating
from game.online.server.limits import ServerLimits
from game.online.server.ratings import (
    FEW_MATCHES,
    NEW_OPPONENT_GAIN,
    REPEAT_FACTORS,
    guarded,
    shown,
)
from game.online.server.serving import start_server_in_thread
from game.online.wire import protocol as P
from game.rulesets import game_ids, make_rules
from tests.online.wshelp import Client, FakeServers, Player, create

# ----------------------------------------------------------------------------- the seeds


def first_deal_views(gid: str, players: int) -> int:
    """How many different first deals one seat can be shown: its hand, the cards face up on
    the table (a capture game) and the face-up trump — an upper bound on what the seat learns."""
    rules = make_rules(gid, None, players, {})
    deal = next(e for e in Match(rules, 7).start() if e["event"] == "deal")
    n = int(rules.deck.cards)
    hand, table = len(deal["hands"][0]), len(deal["table"])
    trump = 1 if deal.get("trump") else 0
    return math.comb(n, hand) * math.comb(n - hand, table) * (n - hand - table) ** trump * players


@pytest.mark.parametrize("gid", game_ids())
def test_a_seats_first_deal_leaves_more_than_2_to_the_100_candidate_seeds(gid):
    from game.config import get_config

    for players in get_config().games[gid].players:
        views = first_deal_views(gid, players)
        assert P.SEED_BITS - math.log2(views) > 100, (gid, players, math.log2(views))
    assert P.SEED_BITS >= 128


def test_every_deal_the_server_makes_is_seeded_from_128_bits_of_secrets(tmp_path, monkeypatch):
    """Spy on secrets and on the play loop's Match: every match the server starts (a host's
    table, the daily deal) is seeded with a number secrets drew with at least 128 bits."""
    import game.online.server.play

    drawn: list[tuple[int, int]] = []
    real = P.secrets.randbits

    def spy(k: int) -> int:
        value = real(k)
        drawn.append((k, value))
        return value

    monkeypatch.setattr(P.secrets, "randbits", spy)
    seeds: list[int] = []

    class Spied(Match):
        def __init__(self, rules, seed, *args, **kw):
            seeds.append(seed)
            super().__init__(rules, seed, *args, **kw)

    monkeypatch.setattr(game.online.server.play, "Match", Spied)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1)
    try:
        host, created = create(h.url, "briscola", 2, ["friend", "ai:easy"])
        Player(h.url, created["code"], created["tokens"]["0"], "Anna", seed=1, stop_after=2).start().join(60)
        daily = Client(h.url, "Dora")
        daily.request({"type": "account", "name": "Dora", "secret": None}, "account")
        made = daily.request({"type": "daily", "game": "scopa", "preset": None}, "created")
        Player(h.url, made["code"], made["tokens"]["0"], "Dora", seed=2, stop_after=2).start().join(60)
        for c in (host, daily):
            c.close()
    finally:
        assert h.stop(timeout=10)
    assert len(seeds) == 2
    wide = {v for k, v in drawn if k >= 128}
    assert all(s in wide for s in seeds), (seeds, [k for k, _ in drawn])


# ------------------------------------------------------------------ one identity, the daily


def test_one_hello_per_connection_and_the_daily_table_has_no_host(tmp_path):
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1)
    try:
        c = Client(h.url, "Anna")
        assert c.request({"type": "hello", "version": 1, "name": "Bert"}, "error")["code"] == "hello"
        c.request({"type": "account", "name": "Anna", "secret": None}, "account")
        made = c.request({"type": "daily", "game": "briscola", "preset": None}, "created")
        code = made["code"]
        assert made["host_token"] is None
        table = h.server.tables[code]
        assert table.host_conn is None and not table.public
        # Nobody can claim the host (the host token is nobody's), nor take the seat without its token.
        assert c.request({"type": "host", "code": code, "host_token": "0" * 32}, "error")["code"] == "not_host"
        friend = Client(h.url, "Friend")
        assert (
            friend.request({"type": "join", "code": code, "name": "Friend", "token": None}, "error")["code"] == "full"
        )
        # Even a connection that is the host of a daily table (as an older server allowed) may
        # not change, publish or kick it.
        table.host_conn, c.hosting = None, None
        conn = next(x for x in h.server.conns if x.player is not None)
        conn.hosting, table.host_conn = table, conn
        for msg in (
            {"type": "publish", "public": True},
            {"type": "kick", "seat": 0},
            {
                "type": "configure",
                "game": "briscola",
                "deck": None,
                "players": 2,
                "options": {},
                "seats": ["friend", "friend"],
                "pause_seconds": 60,
                "ai_takes_over": False,
            },
        ):
            assert c.request(msg, "error")["code"] == "daily", msg
        assert not table.public and table.seats[1].kind == "ai"
        # The seat is taken with its token, under the account's name whatever is asked.
        seated = Client(h.url, "Mallory")
        seated.request({"type": "join", "code": code, "name": "Mallory", "token": made["tokens"]["0"]}, "joined")
        assert table.seats[0].name == "Anna"
        # The watcher's way in is closed too: the table is never listed.
        watcher = Client(h.url, "Watcher")
        assert watcher.request({"type": "watch", "code": code}, "error")["code"] in ("no_table", "not_public", "config")
        for x in (c, friend, seated, watcher):
            x.close()
    finally:
        assert h.stop(timeout=10)


# ------------------------------------------------------------------------------ quick match


def _account(url: str, name: str, source: str | None = None) -> Client:
    c = Client(url, name, source=source)
    c.request({"type": "account", "name": name, "secret": None}, "account")
    return c


def test_quick_tables_count_against_the_players_quota_and_the_global_limit(tmp_path, monkeypatch):
    limits = ServerLimits(tables_per_player=2, quick_wait=0.2)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1, limits=limits)
    try:
        anna = _account(h.url, "Anna")
        found = []
        for _ in range(6):  # bounded: more than the quota
            anna.send({"type": "quick", "game": "scopa", "preset": None})
            reply = anna.expect("quick_waiting") if not found or len(found) < 2 else anna.recv()
            if reply["type"] == "error":
                assert reply["code"] == "limit" and "open tables" in reply["message"]
                break
            found.append(anna.expect("quick_found", timeout=10))
        assert len(found) == 2  # her account holds two unfinished tables: no third
        assert h.server.quota.by_player[next(c.player for c in h.server.conns if c.name == "Anna")] == 2
        # The server's table limit holds quick tables too.
        monkeypatch.setattr(P, "MAX_TABLES", len(h.server.tables))
        bert = _account(h.url, "Bert")
        assert bert.request({"type": "quick", "game": "scopa", "preset": None}, "error")["code"] == "limit"
        for c in (anna, bert):
            c.close()
    finally:
        assert h.stop(timeout=10)


def test_quick_tables_count_for_the_address_and_quick_is_rate_limited(tmp_path, monkeypatch):
    import game.online.server.club as club

    limits = ServerLimits(tables_per_address=3, tables_per_player=10, quick_wait=0.2, local_unlimited=False)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1, limits=limits)
    try:
        pairs = [_account(h.url, f"Sock{i}", source="127.0.0.7") for i in range(3)]
        made = 0
        for attempt in range(12):  # bounded
            c = pairs[attempt % 3]
            c.send({"type": "quick", "game": "scopa", "preset": None})
            reply = c.recv()
            while reply["type"] not in ("quick_waiting", "error"):
                reply = c.recv()
            if reply["type"] == "error":
                assert reply["code"] == "limit"
                continue
            try:
                c.expect("quick_found", timeout=3)
                made += 1
            except TimeoutError:
                pass
        assert made <= 3 and h.server.quota.by_address.get("127.0.0.7", 0) <= 3
        other = _account(h.url, "Elsewhere", source="127.0.0.8")
        assert other.request({"type": "quick", "game": "scopa", "preset": None}, "quick_waiting")
        # Quick requests of one account are rate-limited.
        monkeypatch.setattr(club, "QUICK_PER_MINUTE", 3)
        codes = []
        for _ in range(5):
            other.send({"type": "quick_cancel"})
            other.send({"type": "quick", "game": "briscola", "preset": None})
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and "rate" not in codes:
            m = other.recv(max(0.05, deadline - time.monotonic()))
            if m["type"] == "error":
                codes.append(m["code"])
        assert "rate" in codes
        for c in (*pairs, other):
            c.close()
    finally:
        assert h.stop(timeout=10)


def test_a_found_match_not_joined_counts_against_the_dodger(tmp_path, monkeypatch):
    import game.online.server.club as club

    monkeypatch.setattr(club, "JOIN_WITHIN", 0.5)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1, limits=ServerLimits(quick_wait=0.2))
    try:
        dodger = _account(h.url, "Dodger")
        dodger.send({"type": "quick", "game": "briscola", "preset": None})
        dodger.expect("quick_found", timeout=10)
        deadline = time.monotonic() + 10
        recent = []
        while time.monotonic() < deadline and not recent:
            time.sleep(0.2)
            recent = Client(h.url, "z").request({"type": "recent", "name": "Dodger"}, "recent")["matches"]
        assert recent and recent[0]["result"] == "left" and recent[0]["new"] < recent[0]["old"]
        refused = dodger.request({"type": "quick", "game": "briscola", "preset": None}, "error")
        assert refused["code"] == "rate" and "not joined" in refused["message"]
        dodger.close()
    finally:
        assert h.stop(timeout=10)


# --------------------------------------------------------------------------------- ratings


def test_a_rating_never_rises_on_a_loss_and_farming_gains_less_and_less():
    old = Rating(25.0, 25 / 3, 0)
    shrunk = Rating(25.0, 6.0, 1)  # a loss where only the uncertainty shrank: the shown number rose
    assert shown(shrunk) > shown(old)
    assert shown(guarded(old, shrunk, "lost", anyone_left=False, meetings=0, fresh_opponent=False)) == pytest.approx(
        shown(old)
    )
    won = Rating(27.0, 7.0, 1)
    gain = shown(won) - shown(old)
    for meetings, factor in enumerate(REPEAT_FACTORS):
        after = guarded(old, won, "won", anyone_left=False, meetings=meetings, fresh_opponent=False)
        assert shown(after) - shown(old) == pytest.approx(gain * factor)
    assert guarded(old, won, "won", anyone_left=False, meetings=9, fresh_opponent=False).mu < won.mu
    fresh = guarded(old, won, "won", anyone_left=False, meetings=0, fresh_opponent=True)
    assert shown(fresh) - shown(old) == pytest.approx(min(gain, NEW_OPPONENT_GAIN))
    left = guarded(old, won, "won", anyone_left=True, meetings=0, fresh_opponent=False)
    assert shown(left) == pytest.approx(shown(old))  # someone walked out: no gain for anyone
    assert FEW_MATCHES >= 2


def test_a_match_mostly_played_by_the_computer_is_the_persons_loss_and_nobodys_gain(tmp_path):
    """A player and a fresh sock puppet: the puppet joins, then the computer plays all of its
    decisions (silent at every turn). The puppet is rated "left", the player gains nothing."""
    limits = ServerLimits(quick_wait=30.0, bot_after=0.2)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1, limits=limits)
    try:
        farmer, puppet = _account(h.url, "Farmer"), _account(h.url, "Puppet")
        farmer.send({"type": "quick", "game": "briscola", "preset": None})
        farmer.expect("quick_waiting")
        puppet.send({"type": "quick", "game": "briscola", "preset": None})
        found = {c: c.expect("quick_found", timeout=10) for c in (farmer, puppet)}
        puppet.send({"type": "join", "code": found[puppet]["code"], "name": "Puppet", "token": found[puppet]["token"]})
        puppet.expect("joined")
        player = Player(h.url, found[farmer]["code"], found[farmer]["token"], "Farmer", seed=3)
        player.start().join(90)
        deadline = time.monotonic() + 10
        rows = []
        while time.monotonic() < deadline and not rows:
            time.sleep(0.2)
            rows = Client(h.url, "z").request({"type": "recent", "name": "Puppet"}, "recent")["matches"]
        assert rows and rows[0]["result"] == "left"
        mine = Client(h.url, "y").request({"type": "recent", "name": "Farmer"}, "recent")["matches"][0]
        assert mine["new"] <= mine["old"]  # nothing gained from a match the other side never played
        for c in (farmer, puppet):
            c.close()
    finally:
        assert h.stop(timeout=10)


# ------------------------------------------------------------------------------ slowloris


def _half_request(port: int, source: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=3, source_address=(source, 0))
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
    return s


def _closed_soon(s: socket.socket, within: float) -> bool:
    s.settimeout(within)
    try:
        return s.recv(4096) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def test_slow_headers_from_one_address_keep_nobody_else_out(tmp_path):
    limits = ServerLimits(max_connections=30, local_unlimited=False)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1, limits=limits)
    held: list[socket.socket] = []
    try:
        held = [_half_request(h.port, "127.0.0.9") for _ in range(30)]
        time.sleep(0.3)
        open_ = [s for s in held if not _closed_soon(s, 0.05)]
        assert len(open_) <= P.MAX_HANDSHAKES_PER_ADDRESS  # the rest were dropped at the accept
        # Everyone else still gets in, for a page and to play.
        with socket.create_connection(("127.0.0.1", h.port), timeout=3, source_address=("127.0.0.10", 0)) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert s.recv(64).startswith(b"HTTP/1.1 200")
        c = Client(h.url, "Anna", source="127.0.0.11")
        assert c.request({"type": "ping"}, "pong")
        c.close()
        # The half-sent requests are closed after the header time.
        assert all(_closed_soon(s, P.HEADER_TIMEOUT + 3) for s in open_)
    finally:
        for s in held:
            s.close()
        assert h.stop(timeout=10)


def test_a_full_server_keeps_a_reserve_for_players_coming_back(tmp_path):
    limits = ServerLimits(max_connections=12)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1, limits=limits)
    idle: list[Client] = []
    try:
        host, created = create(h.url, "briscola", 2, ["friend", "ai:easy"], pause_seconds=600, ai_takes_over=False)
        reserve = h.server.reserve
        for _ in range(limits.max_connections - reserve - 1):  # the server fills up with idle connections
            idle.append(Client(h.url, "Idle"))
        newcomer = Client(h.url, "New")
        assert (
            newcomer.request(
                {
                    "type": "create",
                    "game": "briscola",
                    "deck": None,
                    "players": 2,
                    "options": {},
                    "seats": ["friend", "ai:easy"],
                    "pause_seconds": 60,
                    "ai_takes_over": True,
                },
                "error",
            )["code"]
            == "limit"
        )
        assert newcomer.closed()
        back = Client(h.url, "Anna")
        joined = back.request(
            {"type": "join", "code": created["code"], "name": "Anna", "token": created["tokens"]["0"]}, "joined"
        )
        assert joined["seat"] == 0
        back.close()
        host.close()
    finally:
        for c in idle:
            c.close()
        assert h.stop(timeout=10)


# ----------------------------------------------------------------------- names and manners


def test_look_alike_names_are_one_name_and_a_mute_follows_the_account(tmp_path):
    from game.online.server.accounts import name_key

    assert {name_key(n) for n in ("Anna", "АNNA", "Ａnna", "A nna", "Ánna", "Ann\u200ba", "Anna\u0301")} == {"anna"}
    assert name_key("Anna") != name_key("Hanna")
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1)
    try:
        anna = _account(h.url, "Anna")
        for fake in ("АNNA", "Ａnna", "A nna", "Ánna"):
            c = Client(h.url, "x")
            assert c.request({"type": "account", "name": fake, "secret": None}, "error")["code"] == "name_taken", fake
            c.close()
        anna.close()
    finally:
        assert h.stop(timeout=10)


def test_wrong_recovery_codes_are_limited_per_name_and_per_address(tmp_path, monkeypatch):
    import game.online.server.club as club

    monkeypatch.setattr(club, "RECOVERY_GUESSES_PER_NAME", 3)
    monkeypatch.setattr(club, "RECOVERY_GUESSES_PER_ADDRESS", 5)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1, limits=ServerLimits(local_unlimited=False))
    try:
        made = Client(h.url, "Greta", source="127.0.0.20")
        code = made.request({"type": "account", "name": "Greta", "secret": None}, "account")["recovery"]
        made.close()
        codes = []
        for n in range(5):  # new connections: the per-connection claim limit does not stop it
            c = Client(h.url, "guess", source="127.0.0.21")
            codes.append(
                c.request({"type": "recover", "name": "Greta", "recovery": "AAAA-AAAA-AAAA-AAA" + "BCDEF"[n]}, "error")[
                    "code"
                ]
            )
            c.close()
        assert codes[:3] == ["bad_secret"] * 3 and codes[3:] == ["rate", "rate"]
        # Even the right code is refused for that name until the window ends.
        c = Client(h.url, "guess", source="127.0.0.22")
        assert c.request({"type": "recover", "name": "Greta", "recovery": code}, "error")["code"] == "rate"
        c.close()
    finally:
        assert h.stop(timeout=10)


def test_publish_toggles_are_rate_limited_and_their_meta_writes_coalesced(tmp_path):
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1)
    try:
        host, created = create(h.url, "scopa", 2, ["friend", "ai:easy"])
        writes = []
        real = h.server.store.write_meta
        h.server.store.write_meta = lambda code, meta: (writes.append(meta.get("public")), real(code, meta))[1]
        answers = []
        for k in range(20):  # a host toggling as fast as it can
            host.send({"type": "publish", "public": k % 2 == 0})
        deadline = time.monotonic() + 5
        while len(answers) < 20 and time.monotonic() < deadline:
            m = host.recv(max(0.05, deadline - time.monotonic()))
            if m["type"] in ("published", "error"):
                answers.append(m["code"] if m["type"] == "error" else "published")
        assert answers.count("published") == P.SLOW_BURST and answers.count("rate") == 20 - P.SLOW_BURST
        time.sleep(0.6)
        assert 1 <= len(writes) <= 2  # five changes, written once or twice, in a thread
        from game.services.storage import read_json

        meta, _ = read_json(tmp_path / f"{created['code']}.table.json", expect=dict, what="a meta")
        assert meta["public"] is h.server.tables[created["code"]].public is True  # the last change is kept
        host.close()
    finally:
        assert h.stop(timeout=10)


# --------------------------------------------------------------------------- the client


def test_the_client_follows_moved_only_within_its_cluster_and_gives_up_in_time():
    """A server that answers every greeting with ``joined`` then ``moved``: to a foreign host
    the client never goes (it asks its first address again); between its cluster's own
    processes (same host, another port) it gives up once its retry time is out, ``joined`` or not."""
    import asyncio
    import json

    from game.online.client.connection import Connection, same_cluster

    assert same_cluster("ws://127.0.0.1:7420", "ws://127.0.0.1:7421")
    assert not same_cluster("ws://127.0.0.1:7420", "ws://attacker.example:7420")
    assert not same_cluster("wss://cards.example.org", "ws://cards.example.org:80")
    hits: list[str] = []
    ports: list[int] = []

    async def handler(ws):
        hello = json.loads(await ws.recv())
        hits.append(hello.get("name", "?"))
        await ws.send(json.dumps({"type": "joined", "code": "ABCDEFGHJK", "seat": 0, "token": "0" * 32}))
        other = ports[1] if ws.local_address[1] == ports[0] else ports[0]
        target = f"ws://127.0.0.1:{other}" if len(hits) % 2 else "ws://attacker.example:1"
        await ws.send(json.dumps({"type": "error", "code": "moved", "message": "elsewhere", "url": target}))
        await asyncio.sleep(5)

    servers = FakeServers(handler, 2)
    ports.extend(servers.ports)
    conn = Connection(
        f"ws://127.0.0.1:{ports[0]}", lambda: [{"type": "hello", "version": 1, "name": "Anna"}], retry_for=2.0
    )
    conn.start()
    visited: set[str] = set()
    failed = None
    deadline = time.monotonic() + 15
    try:
        while time.monotonic() < deadline and failed is None:
            m = conn.get(timeout=0.2)
            visited.add(conn.url)
            if m is not None and m["type"] == "_failed":
                failed = m
    finally:
        conn.close()
        servers.stop()
    assert failed is not None and "elsewhere" in failed["message"]  # gave up within its retry time
    assert all("attacker" not in u for u in visited)
    assert len(hits) < 40  # a bounded number of tries, not forever
