"""The protocol module: the strict schema of every client message, the limits, codes and
tokens from secrets, actions as JSON, refusal params made JSON-safe."""

from __future__ import annotations

import hashlib
import json
import math

import pytest

from game.ai.bots import make_bot
from game.cards import card
from game.config import get_config
from game.games.schnapsen.vocabulary import CLOSE, EXCHANGE
from game.match import Match
from game.online.wire import protocol as P
from game.rules.base import play
from game.rules.capture import captured
from game.rulesets import game_ids, make_rules

TOKEN = "0123456789abcdef0123456789abcdef"
CODE = "ABCDEFGH23"

VALID: dict[str, dict] = {
    "hello": {"type": "hello", "version": 1, "name": "Anna"},
    "create": {
        "type": "create",
        "game": "scopa",
        "deck": None,
        "players": 4,
        "options": {"target": 21},
        "seats": ["friend", "ai:hard", "friend", "ai:normal"],
        "pause_seconds": 60,
        "ai_takes_over": True,
    },
    "configure": {
        "type": "configure",
        "game": "briscola",
        "deck": "napoletane",
        "players": 2,
        "options": {},
        "seats": ["friend", "ai:greedy"],
        "pause_seconds": 0,
        "ai_takes_over": False,
    },
    "join": {"type": "join", "code": CODE, "name": "Bo", "token": None},
    "host": {"type": "host", "code": CODE, "host_token": TOKEN},
    "kick": {"type": "kick", "seat": 2},
    "act": {
        "type": "act",
        "decision": 7,
        "action": {"kind": "play", "card": "7D", "capture": ["3C", "4S"], "marriage": False},
    },
    "say": {"type": "say", "phrase": "good_game"},
    "ping": {"type": "ping"},
    "daily": {"type": "daily", "game": "scopa", "preset": "classica"},
    "daily_board": {"type": "daily_board", "game": "briscola", "preset": None, "date": "2026-12-01"},
    "puzzle_daily": {"type": "puzzle_daily", "game": "briscola"},
    "puzzle_solved": {
        "type": "puzzle_solved",
        "game": "briscola",
        "id": "briscola-123-31",
        "moves": [{"kind": "play", "card": "7D", "capture": [], "marriage": False}, {"kind": "close"}],
    },
    "account": {"type": "account", "name": "Anna", "secret": TOKEN},
    "recover": {"type": "recover", "name": "Anna", "recovery": "ABCD-EFGH-JKLM-NPQR"},
    "quick": {"type": "quick", "game": "scopa", "preset": None},
    "quick_cancel": {"type": "quick_cancel"},
    "tables": {"type": "tables"},
    "publish": {"type": "publish", "public": True},
    "watch": {"type": "watch", "code": CODE},
    "unwatch": {"type": "unwatch"},
    "leaderboard": {"type": "leaderboard", "game": "briscola"},
    "recent": {"type": "recent", "name": "Bo"},
    "block": {"type": "block", "name": "Bo"},
    "mute": {"type": "mute", "name": "Bo", "muted": True},
    "report": {"type": "report", "name": "Bo", "table": CODE, "reason": "rude words"},
    "chat": {"type": "chat", "text": "hello there"},
    "event_list": {"type": "event_list"},
    "tod_enter": {"type": "tod_enter", "game": "briscola", "preset": None},
    "tod_deal": {"type": "tod_deal", "game": "briscola", "preset": "standard"},
    "tod_standings": {"type": "tod_standings", "game": "briscola", "preset": None, "date": "2026-12-01"},
    "tod_field": {"type": "tod_field", "game": "briscola", "preset": None, "date": None, "deal": 3},
    "tod_record": {"type": "tod_record", "game": "briscola", "preset": None, "date": None, "code": CODE},
    "challenge": {"type": "challenge", "name": "Bo", "game": "briscola", "preset": None},
    "challenge_answer": {"type": "challenge_answer", "id": "challenge:0123456789abcdef", "accept": True},
    "challenge_deal": {"type": "challenge_deal", "id": "challenge:0123456789abcdef"},
    "arena_join": {"type": "arena_join", "id": "arena:evening-blitz"},
    "arena_pause": {"type": "arena_pause", "id": "arena:evening-blitz"},
    "arena_standings": {"type": "arena_standings", "id": "arena:evening-blitz"},
    "swiss_register": {"type": "swiss_register", "id": "swiss:december-club", "partner": "Bo"},
    "swiss_leave": {"type": "swiss_leave", "id": "swiss:december-club"},
    "swiss_standings": {"type": "swiss_standings", "id": "swiss:december-club"},
}

#: Per field, values of the wrong JSON type or out of range (every one must be refused).
BAD_VALUES: dict[str, list] = {
    "version": ["1", 1.0, True, None, -1, [1]],
    "name": ["", "   ", "x" * 21, "a\nb", "bell\x07", 5, None, ["Anna"]],
    "game": ["", "Scopa!", "../etc", 3, None, "x" * 41],
    "deck": ["", "Napoletane", 7, ["napoletane"]],
    "players": ["4", 4.0, True, 0, 9, None],
    "options": [
        [],
        "target=21",
        None,
        {"target": [21]},
        {"target": {"x": 1}},
        {"Target": 21},
        {f"k{i}": 1 for i in range(17)},
        {"target": 1.5},
    ],
    "seats": [[], "friend", ["Friend"], ["ai:superhard"], ["ai:"], [None], ["friend"] * 9],
    "pause_seconds": [-1, 3601, 1.5, "60", None, False],
    "ai_takes_over": [1, 0, "true", None],
    "code": ["ABCDEFGH2", "ABCDEFGH234", "ABCDEFGHI1", "ABCDEFGH0O", 12345, None, "ABCDE FGH2"],
    "token": ["abc", TOKEN.upper(), TOKEN + "0", 12, ["x"], "g" * 32],
    "host_token": [None, "abc", 5],
    "seat": [-1, 8, "1", 1.0, None, True],
    "decision": [-1, "7", 7.0, None, True, 10**7],
    "action": [
        None,
        "7D",
        [],
        {"kind": "fold"},
        {"kind": "play"},
        {"kind": "play", "card": "1D"},
        {"kind": "play", "card": "7D", "capture": "3C"},
        {"kind": "play", "card": "7D", "capture": ["3C", "3C"]},
        {"kind": "play", "card": "7D", "marriage": 1},
        {"kind": "play", "card": "7D", "seat": 1},
        {"kind": "close", "card": "7D"},
        {"kind": "play", "card": 7},
        {"kind": "play", "card": "7D", "capture": ["3C"] * 21},
    ],
    "phrase": ["hello", "", None, 1, "Well played!"],
    "preset": ["", "Classica!", 3, ["classica"], True],
    "secret": ["abc", TOKEN.upper(), 5, ["x"]],
    "recovery": ["ABCD-EFGH-JKLM", "ABCD-EFGH-JKLM-NPQ0", 5, None, "x" * 41],
    "public": [1, "yes", None],
    "muted": [0, None, "no"],
    "table": ["ABCDEFGH2", 5, "ABCDEFGH0O"],
    "reason": ["", "  ", "x" * 301, 5, None, "bell\x07"],
    "text": ["", "x" * 201, 5, None, ["hi"]],
    "date": ["2026-13-01", "2026-02-30", "1.12.2026", "2026-1-1", 20261201, "", True, ["2026-12-01"]],
    "id": ["", "../briscola", "Briscola-1-2", "-briscola", "x" * 65, 5, None, ["briscola-1-2"]],
    "moves": [[], None, {"kind": "close"}, [{"kind": "fold"}], [{"kind": "close"}] * 9, ["7D"]],
    "deal": [-1, 100, "1", 1.0, None, True],
    "accept": [1, None, "yes"],
    "partner": ["", "x" * 21, 5, ["Bo"]],
}


def schema_error(message) -> str:
    with pytest.raises(P.ProtocolError) as e:
        P.parse_client(message if isinstance(message, (str, bytes)) else json.dumps(message))
    assert e.value.code == "schema"
    assert "\n" not in str(e.value) and str(e.value)
    return str(e.value)


def test_the_limits_are_the_spec_s():
    assert P.PROTOCOL_VERSION == 1
    assert P.MAX_MESSAGE_BYTES == 8192
    assert (P.RATE, P.BURST, P.MAX_EXCESS) == (20, 40, 200)
    assert (P.MAX_TABLES, P.MAX_CONNECTIONS, P.MAX_CONNECTIONS_PER_TABLE) == (1000, 4000, 12)
    assert P.NAME_MAX == 20
    assert P.PHRASES == ("well_played", "good_game", "oops", "thanks")


@pytest.mark.parametrize("kind", sorted(VALID))
def test_each_valid_message_passes(kind):
    msg = VALID[kind]
    assert P.parse_client(json.dumps(msg))["type"] == kind


def test_every_message_type_has_a_sample():
    assert set(VALID) == set(P.CLIENT_MESSAGES)


@pytest.mark.parametrize("kind", sorted(VALID))
def test_a_missing_or_extra_field_is_refused(kind):
    msg = VALID[kind]
    for name in msg:
        if name != "type":
            schema_error({k: v for k, v in msg.items() if k != name})
    assert "unknown field" in schema_error({**msg, "extra": 1})
    if kind != "kick":  # acting, saying or joining "for" a seat is not in the protocol
        assert "unknown field" in schema_error({**msg, "seat": 0})


@pytest.mark.parametrize("kind", sorted(VALID))
def test_wrong_types_and_ranges_are_refused(kind):
    msg = VALID[kind]
    tried = 0
    for name in msg:
        for bad in BAD_VALUES.get(name, []):
            if name == "token" and bad is None:
                continue
            schema_error({**msg, name: bad})
            tried += 1
    assert tried or kind in ("ping", "quick_cancel", "tables", "unwatch", "event_list")


def test_frames_that_are_not_one_json_object_are_refused():
    for raw in [
        "",
        "{",
        "null",
        "[]",
        '[{"type": "ping"}]',
        "5",
        '"ping"',
        "{'type': 'ping'}",
        '{"type": "ping"} {"type": "ping"}',
        '{"type": NaN}',
        '{"type": "ping", "type": "ping"}',
        "[" * 100 + "]" * 100,
        '{"type": 1e999}',
        "\udcff",
    ]:
        schema_error(raw)
    assert "binary" in schema_error(b'{"type": "ping"}')
    assert "8192" in schema_error(json.dumps({"type": "hello", "version": 1, "name": "A" * 9000}))
    assert "unknown message type" in schema_error({"type": "shutdown"})
    schema_error({"type": 5})
    schema_error({"kind": "ping"})


def test_values_are_normalised():
    assert P.parse_client(json.dumps({**VALID["join"], "code": CODE.lower(), "name": "  Zoë "})) == {
        **VALID["join"],
        "name": "Zoë",
    }
    assert P.parse_client(json.dumps({**VALID["hello"], "name": "x" * 20}))["name"] == "x" * 20
    act = P.parse_client(json.dumps({"type": "act", "decision": 0, "action": {"kind": "play", "card": "AC"}}))
    assert act["action"] == {"kind": "play", "card": "AC", "capture": [], "marriage": False}
    assert P.parse_client(json.dumps({"type": "act", "decision": 0, "action": {"kind": "close"}}))["action"] == {
        "kind": "close"
    }


def test_codes_are_50_bits_from_secrets(monkeypatch):
    assert P.CODE_BITS >= 40
    assert len(P.CODE_ALPHABET) == 32 == len(set(P.CODE_ALPHABET))
    assert P.CODE_BITS == P.CODE_LENGTH * math.log2(len(P.CODE_ALPHABET))
    codes = {P.new_code() for _ in range(2000)}
    assert len(codes) == 2000
    for c in codes:
        assert len(c) == 10 and set(c) <= set(P.CODE_ALPHABET) and P.is_code(c)
    assert not set("01IO") & set(P.CODE_ALPHABET)
    monkeypatch.setattr(P.secrets, "choice", lambda seq: seq[3])
    assert P.new_code() == P.CODE_ALPHABET[3] * 10


def test_tokens_are_128_bits_from_secrets_and_kept_hashed(monkeypatch):
    assert P.TOKEN_BITS == 128
    tokens = {P.new_token() for _ in range(2000)}
    assert len(tokens) == 2000
    for t in list(tokens)[:50]:
        assert len(t) == 32 and int(t, 16) >= 0
        h = P.hash_token(t)
        assert h == hashlib.sha256(t.encode()).hexdigest() and t not in h
        assert P.token_matches(t, h)
        assert not P.token_matches(P.new_token(), h)
    assert not P.token_matches(None, P.hash_token(TOKEN)) and not P.token_matches(TOKEN, None)
    monkeypatch.setattr(P.secrets, "token_hex", lambda n: "ab" * n)
    assert P.new_token() == "ab" * 16


def test_every_legal_action_of_every_game_goes_through_json_and_the_schema():
    config = get_config()
    kinds = set()
    for gid in game_ids():
        for n in config.game(gid).players:
            rules = make_rules(gid, None, n)
            m = Match(rules, 11, [make_bot("greedy", rules, s, 11) for s in range(n)])
            m.start()
            for _ in range(60):
                if m.over:
                    break
                for a in m.legal_actions():
                    data = P.action_to_json(a)
                    kinds.add((a.kind, a.arg("marriage", False), bool(captured(a))))
                    msg = P.parse_client(json.dumps({"type": "act", "decision": 3, "action": data}))
                    assert P.action_from_json(msg["action"]) == a
                m.step_bot()
    assert ("play", False, True) in kinds and ("play", False, False) in kinds
    for a in (CLOSE, EXCHANGE, play("KC", marriage=True), play("7D", ["4S", "3C"])):
        assert P.action_from_json(json.loads(json.dumps(P.action_to_json(a)))) == a


def test_refusal_params_become_json():
    params = {
        "card": card("7D"),
        "cards": (card("3C"), card("4S")),
        "set": {card("AC")},
        "n": 3,
        "action": play("7D", ["3C"]),
        "nested": {"x": [card("KB"), None]},
        "nan": float("nan"),
        "obj": ValueError("x"),
    }
    safe = P.json_safe(params)
    json.dumps(safe, allow_nan=False)
    assert safe["card"] == "7D" and safe["cards"] == ["3C", "4S"] and safe["set"] == ["AC"]
    assert safe["action"] == {"kind": "play", "card": "7D", "capture": ["3C"], "marriage": False}
    assert safe["nested"] == {"x": ["KB", None]} and isinstance(safe["nan"], str) and safe["obj"] == "x"


def test_seats_parse():
    assert P.parse_seat("friend") == ("friend", None)
    assert [P.parse_seat(f"ai:{lv}") for lv in P.AI_LEVELS] == [("ai", lv) for lv in P.AI_LEVELS]
    for bad in ("Friend", "ai", "ai:", "ai:random", "human"):
        with pytest.raises(ValueError):
            P.parse_seat(bad)
