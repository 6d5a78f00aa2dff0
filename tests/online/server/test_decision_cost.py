"""What cuts the server's cost per decision keeps the same answers: the legal actions worked
out once per position (the turn and the act's check share them), an act's action parsed
once and its check remembered, the computer's worker replaying only the new decisions, the
keepalive sparing pings to peers that write, the cluster's record lines written with an
encoder made once, the ``turn`` and ``events`` written from their parts (the declared
messages' bytes)."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import serve

from game.match import Match
from game.online.server import worker
from game.online.server.cluster import tables
from game.online.server.turns import decisions_json, events_text, legal_now, turn_text
from game.online.server.wsconn import READ_BYTES, FrameSink
from game.online.wire import messages as M
from game.online.wire import protocol as P
from game.record import dumps
from game.rules.base import IllegalAction
from game.rulesets import game_ids, make_rules


def _match(game: str = "scopa", players: int = 4, seed: int = 7) -> Match:
    m = Match(make_rules(game, None, players, {}), seed)
    m.start()
    return m


def test_legal_actions_are_worked_out_once_per_position(monkeypatch):
    m = _match()
    calls = []
    real = m.rules.legal_actions
    monkeypatch.setattr(m.rules, "legal_actions", lambda state: calls.append(1) or real(state))
    first = legal_now(m)
    assert legal_now(m) is first and len(calls) == 1
    m.play(first[0], first)  # the check is the lookup in them: no second computation
    assert len(calls) == 1
    assert legal_now(m) == real(m.state) and len(calls) == 2  # a new position, worked out anew


def test_play_with_the_legal_actions_gives_what_play_gives():
    a, b = _match(seed=11), _match(seed=11)
    while not a.over:
        legal = legal_now(a)
        action = legal[len(a.decisions) % len(legal)]
        assert a.play(action, legal) == b.play(action)
    assert a.events == b.events


def test_an_illegal_action_is_refused_with_the_rule_it_breaks():
    m, plain = _match(seed=3), _match(seed=3)
    legal = legal_now(m)
    # A card of another seat's hand: not among the legal actions, refused as Match.play refuses it.
    seat = m.to_act
    foreign = next(c for h, hand in enumerate(m.state.hands) if h != seat for c in hand)
    action = type(legal[0]).make(legal[0].kind, foreign)
    with pytest.raises(IllegalAction) as cached:
        m.play(action, legal)
    with pytest.raises(IllegalAction) as fresh:
        plain.play(action)
    assert cached.value.rule == fresh.value.rule and str(cached.value) == str(fresh.value)
    assert m.events == plain.events and legal_now(m) == legal


@pytest.mark.parametrize("game", game_ids())
def test_the_turn_and_events_texts_are_the_declared_messages_bytes(game):
    """The play loop writes ``turn`` and ``events`` without building each message: the same
    bytes as the declared message encoded, for every position of a whole match, and what it
    writes passes the declaration's check."""
    players = max(make_rules(game).game.players)
    m = Match(make_rules(game, None, players, {}), 5)
    m.start()
    while not m.over:
        legal, seat, k = legal_now(m), m.to_act, len(m.decisions)
        for offered in (legal, []):
            text = turn_text(seat, k, offered)
            assert text == P.encode(M.TURN(seat=seat, decision=k, legal=[P.action_to_json(a) for a in offered]))
            M.TURN.check(json.loads(text))
        events = m.play(legal[k % len(legal)], legal)
        text = events_text(len(m.events) - len(events), events)
        assert text == P.encode(M.EVENTS(**{"from": len(m.events) - len(events), "events": events}))
        M.EVENTS.check(json.loads(text))


def test_a_message_written_from_its_parts_keeps_its_declaration():
    assert M.RESUMED.encoded(seat="2", by='"ai"') == P.encode(M.RESUMED(seat=2, by="ai"))
    assert M.RESUMED.encoded(seat="2") == P.encode(M.RESUMED(seat=2))  # an optional field left out
    with pytest.raises(M.MessageError, match="'legal' is missing"):
        M.TURN.encoded(seat="0", decision="3")
    with pytest.raises(M.MessageError, match="'colour' is not a field"):
        M.TURN.encoded(seat="0", decision="3", legal="[]", colour='"red"')


def test_a_message_filled_in_declared_order_is_the_same_bytes():
    """``encoded_all``: every field, in declared order, into a template made once."""
    assert M.TURN.encoded_all("1", "7", '[{"kind":"play"}]') == M.TURN.encoded(
        seat="1", decision="7", legal='[{"kind":"play"}]'
    )
    assert M.TURN.encoded_all("1", "7", "[]") == P.encode(M.TURN(seat=1, decision=7, legal=[]))
    text = '[{"event":"x","note":"100% sure"}]'  # a % in a value is the value's, not the template's
    assert M.EVENTS.encoded_all("4", text) == P.encode(M.EVENTS(**{"from": 4, "events": json.loads(text)}))
    with pytest.raises(M.MessageError, match="3 fields, 2 given"):
        M.TURN.encoded_all("1", "7")


def test_the_workers_decisions_are_made_json_once_and_kept():
    m = _match(seed=5)
    for _ in range(6):
        m.play(legal_now(m)[0])
    first = decisions_json(m)
    assert first == [[s, P.action_to_json(a)] for s, a in m.decisions]
    first.append("not the match's")  # a copy: what the pool sends later cannot change
    m.play(legal_now(m)[0])
    assert decisions_json(m) == [[s, P.action_to_json(a)] for s, a in m.decisions]


def test_an_act_is_parsed_once_and_its_check_remembered():
    m = _match(seed=9)
    wire = P.action_to_json(legal_now(m)[0])
    for _ in range(2):  # the second: from what the first check kept
        msg = P.check_message({"type": "act", "decision": 0, "action": json.loads(json.dumps(wire))})
        assert msg["action"] == wire
        assert P.checked_action(msg["action"]) == P.action_from_json(wire)
        msg["action"]["capture"].append("XX")  # each message its own copy
    # A copy of the object checked last is no longer that object: parsed again, the same.
    assert P.checked_action(dict(msg["action"], capture=wire["capture"])) == P.action_from_json(wire)


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ({"kind": "play", "card": "7D", "marriage": True}, {"kind": "play", "card": "7D", "marriage": 1}),
        ({"kind": "bid", "points": 80}, {"kind": "bid", "points": True}),
        ({"kind": "play", "card": "7D", "capture": ["3S"]}, {"kind": "play", "card": "7D", "capture": ["3S", "3S"]}),
    ],
)
def test_a_remembered_check_keeps_the_strict_schema(good, bad):
    """What passed before is no pass for a look-alike: true is no 1, a card named twice is
    refused, whatever was checked first."""
    for _ in range(2):
        P.check_message({"type": "act", "decision": 0, "action": good})
        with pytest.raises(P.ProtocolError):
            P.check_message({"type": "act", "decision": 0, "action": bad})


def test_the_worker_replays_only_the_new_decisions_and_answers_the_same(monkeypatch):
    worker._cache.clear()
    rules = make_rules("briscola", None, 2, {})
    m = Match(rules, 77)
    m.start()
    while not m.over and len(m.decisions) < 12:
        m.play(legal_now(m)[0])
    rebuilt = []
    real = Match.rebuild
    monkeypatch.setattr(worker.Match, "rebuild", classmethod(lambda cls, *a, **k: rebuilt.append(1) or real(*a, **k)))

    def ask(k: int) -> dict:
        seat = m.decisions[k][0]
        # the house bot: a fixed budget and no clock, so a loaded machine chooses the same
        return worker.choose_action("briscola", rules.deck.id, 2, {}, 77, seat, "easy", decisions_json(m)[:k], True)

    first = [ask(k) for k in (4, 6, 9)]
    assert len(rebuilt) == 1  # then only the decisions made since
    back = ask(5)  # an earlier position than the one kept: rebuilt
    assert len(rebuilt) == 2
    fresh = []
    for k in (4, 6, 9, 5):
        worker._cache.clear()
        fresh.append(ask(k))
    assert [*first, back] == fresh  # the same choices as from a rebuild each time


def test_a_history_that_does_not_replay_is_refused_and_forgotten():
    worker._cache.clear()
    rules = make_rules("briscola", None, 2, {})
    m = Match(rules, 78)
    m.start()
    for _ in range(4):
        m.play(legal_now(m)[0])
    good = decisions_json(m)
    worker.choose_action("briscola", rules.deck.id, 2, {}, 78, m.to_act, "easy", good)
    bad = [*good, [m.to_act, {"kind": "play", "card": good[0][1]["card"]}]]  # a card played before
    with pytest.raises(ValueError):
        worker.choose_action("briscola", rules.deck.id, 2, {}, 78, 0, "easy", bad)
    assert worker.choose_action("briscola", rules.deck.id, 2, {}, 78, m.to_act, "easy", good)


def test_the_clusters_record_lines_keep_the_record_modules_bytes():
    events = [{"event": "play", "seat": 1, "card": "7D", "capture": ["3S", "4C"]}, {"event": "x", "note": "è ü"}]
    assert [tables.dumps(e) for e in events] == [dumps(e) for e in events]
    assert tables.append_args("me", "append", 3, events)[4:] == [dumps(e) for e in events]


def test_the_writers_commands_are_packed_as_redis_py_packs_them():
    from redis.asyncio.connection import Connection

    from game.online.server.cluster.writer import packed_connection

    line = dumps({"event": "play", "seat": 0, "card": "7D", "note": "è"})
    for args in [
        ("EVALSHA", "ab" * 20, 3, "cv:lease:X", "cv:rec:X", "cv:meta:X", "me", "append", 10_000, 5, line),
        ("SCRIPT LOAD", "return 1"),
        (b"SET", b"k", 1.5),  # a float: redis-py's own packing
    ]:
        assert b"".join(packed_connection()().pack_command(*args)) == b"".join(Connection().pack_command(*args))


# ---- the connection: its reads and its keepalive
def _run(coro):
    return asyncio.run(asyncio.wait_for(coro, 20))


class Spied(FrameSink):
    pings = 0

    async def ping(self, data=None):
        type(self).pings += 1
        return await super().ping(data)


async def _server(**kw):
    async def handler(ws):
        async for _ in ws:
            pass

    return await serve(handler, "127.0.0.1", 0, create_connection=Spied, compression=None, **kw)


def test_a_socket_is_read_in_heap_sized_pieces_and_long_frames_still_arrive():
    async def main():
        got = []

        async def handler(ws):
            got.append(ws.transport.max_size)
            async for text in ws:
                got.append(len(text))

        async with await serve(handler, "127.0.0.1", 0, create_connection=FrameSink, compression=None) as srv:
            port = srv.sockets[0].getsockname()[1]
            async with connect(f"ws://127.0.0.1:{port}", compression=None) as c:
                await c.send("x" * (3 * READ_BYTES))  # longer than one read
                await c.send("y")
                await asyncio.sleep(0.3)
        return got

    assert _run(main()) == [READ_BYTES, 3 * READ_BYTES, 1]


def test_a_peer_that_writes_is_not_pinged_a_silent_one_is():
    async def main():
        Spied.pings = 0
        async with await _server(ping_interval=0.1, ping_timeout=1) as srv:
            port = srv.sockets[0].getsockname()[1]
            async with connect(f"ws://127.0.0.1:{port}", ping_interval=None) as c:
                for _ in range(30):  # writes every 0.02 s for 0.6 s (websockets would ping 6 times)
                    await c.send("hi")
                    await asyncio.sleep(0.02)
                busy = Spied.pings
                await asyncio.sleep(0.6)  # silent
                silent = Spied.pings - busy
        return busy, silent

    busy, silent = _run(main())
    assert busy <= 2 and silent >= 2


def test_a_silent_peer_that_never_answers_the_ping_is_closed():
    async def main():
        async with await _server(ping_interval=0.1, ping_timeout=0.2, close_timeout=0.2) as srv:
            port = srv.sockets[0].getsockname()[1]
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(
                b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            await reader.readuntil(b"\r\n\r\n")
            t0 = asyncio.get_running_loop().time()
            while await reader.read(4096):  # a ping, never answered, then the close
                pass
            writer.close()
            return asyncio.get_running_loop().time() - t0

    assert _run(main()) < 3
