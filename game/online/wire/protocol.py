"""The online protocol, version 1: JSON text frames, one object per frame (docs/ONLINE.md).

Everything a client sends goes through :func:`parse_client` before the server looks at it:
the frame's size, UTF-8, the hardened JSON reader (game.safejson: depth, duplicate keys,
NaN), then a strict schema per ``type`` — every field present, no other field, exact JSON
types (``true`` is not a number, ``1.0`` is not a seat), every text of a bounded length and
form. What fails is a :class:`ProtocolError` whose message is one line; the server answers it
with ``{"type": "error", "code": "schema", ...}`` and keeps the connection.

Table codes and seat tokens come from :mod:`secrets`; the server keeps only the sha256 of a
token (:func:`hash_token`) and compares digests in constant time (:func:`token_matches`).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
from collections.abc import Callable, Mapping, Sequence

from game import __version__
from game.action_codec import action_from_json, action_to_json, wire_decisions
from game.cards import Card, is_card_code
from game.online.wire import messages as M
from game.rules.base import Action
from game.rules.vocabulary import JsonObject, VocabularyError
from game.safejson import JSONError, loads, text_encoder

#: The protocol's version: a client of another version is told so and closed.
PROTOCOL_VERSION = 1
#: What ``welcome`` says the server is.
SERVER_NAME = f"cardavia {__version__}"
#: The port ``serve`` listens on unless told.
DEFAULT_PORT = 7420

# ---- limits (the server enforces every one of them) ----------------------------------
#: The largest frame a client may send (websockets' ``max_size``: a bigger one closes the
#: connection with 1009 before it is read into memory).
MAX_MESSAGE_BYTES = 8192
#: Token bucket per connection: RATE messages a second on average, BURST at once.
RATE = 20.0
BURST = 40
#: Messages over the rate a connection may send (each answered ``error``/``rate``) before
#: it is closed.
MAX_EXCESS = 200
MAX_TABLES = 1000
MAX_CONNECTIONS = 4000
MAX_CONNECTIONS_PER_TABLE = 12
#: Connections from one address (loopback excepted: the tests, the benchmark, and every
#: player when the server sits behind a TLS proxy — limit per address in the proxy then).
MAX_CONNECTIONS_PER_ADDRESS = 100
#: Messages that write a table's files or fan out to many (publish, report, configure, kick,
#: watch): a bucket of their own per connection, SLOW_RATE a second, bursts of SLOW_BURST.
SLOW_MESSAGES = frozenset({"publish", "report", "configure", "kick", "watch", "puzzle_solved"})
SLOW_RATE = 1.0
SLOW_BURST = 5
#: Sockets of one address still in the opening handshake (a slow-headers attack holds many).
MAX_HANDSHAKES_PER_ADDRESS = 8
#: Seconds a client has to send its whole opening request (headers) after connecting.
HEADER_TIMEOUT = 5.0
#: Tables one connection may create (so one client cannot take every table).
MAX_TABLES_PER_CONNECTION = 20
#: Failed ``join``/``host`` attempts (no such table, a wrong token) before a connection is
#: closed: guessing codes or tokens is slow on top of being hopeless (50 and 128 bits).
MAX_FAILED_CLAIMS = 20
#: A player's name: 1 to 20 printable characters.
NAME_MAX = 20
#: The longest pause before a computer takes a dropped seat (or the table waits).
MAX_PAUSE_SECONDS = 3600
#: The most seats any game has (a bound for the schema; the rules decide the real count).
MAX_SEATS = 8

# ---- codes and tokens ----------------------------------------------------------------
#: 32 letters and digits without 0/O, 1/I: read aloud and typed without mistakes.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10
#: 10 characters of 32: 50 bits (the issue asks for at least 40).
CODE_BITS = CODE_LENGTH * 5
TOKEN_BYTES = 16
#: A seat or host token: 128 bits from secrets.token_hex.
TOKEN_BITS = TOKEN_BYTES * 8

#: The quick phrases (no free text at the table); each client shows them in its language.
PHRASES = ("well_played", "good_game", "oops", "thanks")
#: The computer levels a seat may be given ("ai:<level>").
AI_LEVELS = ("easy", "normal", "hard", "greedy")
#: Refusal rule ids of the server itself (the rules' own ids come from IllegalAction.rule).
NOT_YOUR_TURN = "not_your_turn"
STALE = "stale"

_CODE_RE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
_TOKEN_RE = re.compile(f"[0-9a-f]{{{TOKEN_BYTES * 2}}}")
_ID_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


def new_code() -> str:
    """A fresh table code: 10 characters from CODE_ALPHABET (50 bits from secrets)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


#: The bits of secrets behind every deal a person plays against others (a match's seed, the
#: daily deal's): no search over seeds can find the one that dealt the cards a seat sees. The
#: design asks for at least 128; 256 leave more than 2^100 seeds for every first deal a seat
#: can be shown (a four-player Cìcera hand and table tell about 56 bits).
SEED_BITS = 256


def new_seed() -> int:
    """A fresh match seed: SEED_BITS bits from secrets (random.Random takes the whole integer)."""
    return secrets.randbits(SEED_BITS)


def new_token() -> str:
    """A fresh seat or host token: 128 bits from secrets, as 32 hex digits."""
    return secrets.token_hex(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """What the server keeps of a token: its sha256, hex."""
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def token_matches(token: str | None, digest: str | None) -> bool:
    """Whether ``token`` is the one ``digest`` was made from (compared in constant time)."""
    if not token or not digest:
        return False
    return hmac.compare_digest(hash_token(token), digest)


def is_code(text: object) -> bool:
    return isinstance(text, str) and _CODE_RE.fullmatch(text) is not None


# ---- errors --------------------------------------------------------------------------
class ProtocolError(ValueError):
    """A message the server refuses: ``code`` for the client (``schema``, ``version`` …),
    the message one line of English."""

    def __init__(self, code: str, message: str):
        self.code = code
        super().__init__(message)


def ws_url(host: str, port: int, tls: bool) -> str:
    """The address a server listening on ``host``:``port`` is reached at (every interface:
    this machine's loopback)."""
    shown = "127.0.0.1" if host in ("", "0.0.0.0") else "::1" if host == "::" else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"{'wss' if tls else 'ws'}://{shown}:{port}"


def error(code: str, message: str, **extra: object) -> JsonObject:
    """The ``error`` message (game.online.wire.messages declares it)."""
    return M.ERROR(code=code, message=message, **extra)


#: json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False), made once
#: (json.dumps builds an encoder per call when given options: most of the cost of a small message).
_ENCODER = text_encoder((",", ":"), allow_nan=False)


def encode(message: Mapping[str, object] | Sequence[object]) -> str:
    """One frame's text, or a part of one (compact JSON; no NaN can get out)."""
    return _ENCODER(message)


# ---- actions as JSON -----------------------------------------------------------------
#: The most cards one field of an action names (a capture takes at most the table).
MAX_ACTION_CARDS = 20


def json_safe(value: object, depth: int = 0) -> object:
    """``value`` with nothing JSON cannot say: cards as their codes, actions as JSON actions,
    tuples and sets as lists, keys as texts, anything else as its text (refusal params)."""
    if depth > 8:
        return str(value)
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Action):
        return action_to_json(value)
    if isinstance(value, Mapping):
        return {str(k): json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((json_safe(v, depth + 1) for v in value), key=str)
    if isinstance(value, (list, tuple)):
        return [json_safe(v, depth + 1) for v in value]
    return str(value)


# ---- the strict schema ---------------------------------------------------------------
Check = Callable[[str, object], object]


def _fail(field: str, want: str) -> ProtocolError:
    return ProtocolError("schema", f"field '{field}' must be {want}")


def _int(lo: int, hi: int) -> Check:
    def check(field: str, v: object) -> object:
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise _fail(field, f"a whole number from {lo} to {hi}")
        return v

    return check


def _bool(field: str, v: object) -> object:
    if not isinstance(v, bool):
        raise _fail(field, "true or false")
    return v


def _ident(field: str, v: object) -> object:
    if not isinstance(v, str) or _ID_RE.fullmatch(v) is None:
        raise _fail(field, "an id (lower-case letters, digits, '_' or '-', at most 40)")
    return v


def _optional(check: Check) -> Check:
    def opt(field: str, v: object) -> object:
        return None if v is None else check(field, v)

    return opt


def _name(field: str, v: object) -> object:
    if not isinstance(v, str):
        raise _fail(field, f"a name of 1 to {NAME_MAX} printable characters")
    name = v.strip()
    if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
        raise _fail(field, f"a name of 1 to {NAME_MAX} printable characters")
    return name


def _code(field: str, v: object) -> object:
    # Codes are read aloud and typed: lower case is the same code.
    if not isinstance(v, str) or not is_code(v.upper()):
        raise _fail(field, f"a table code ({CODE_LENGTH} characters of {CODE_ALPHABET})")
    return v.upper()


def _token(field: str, v: object) -> object:
    if not isinstance(v, str) or _TOKEN_RE.fullmatch(v) is None:
        raise _fail(field, f"a token ({TOKEN_BYTES * 2} hex digits)")
    return v


def _card(field: str, v: object) -> object:
    if not isinstance(v, str) or len(v) > 3 or not is_card_code(v):
        raise _fail(field, "a card code such as 7D")
    return v


def _options(field: str, v: object) -> object:
    if not isinstance(v, dict) or len(v) > 16:
        raise _fail(field, "an object of at most 16 options")
    for k, x in v.items():
        _ident(f"{field}.{k[:40]}", k)
        ok = (
            isinstance(x, bool)
            or (isinstance(x, int) and -(10**6) <= x <= 10**6)
            or (isinstance(x, str) and 0 < len(x) <= 40)
        )
        if not ok:
            raise _fail(f"{field}.{k}", "a whole number, a short text or true/false")
    return dict(v)


def parse_seat(text: str) -> tuple[str, str | None]:
    """``"friend"`` → ("friend", None); ``"ai:hard"`` → ("ai", "hard"). ValueError otherwise."""
    if text == "friend":
        return ("friend", None)
    if text.startswith("ai:") and text[3:] in AI_LEVELS:
        return ("ai", text[3:])
    raise ValueError(f"a seat is 'friend' or 'ai:<{'|'.join(AI_LEVELS)}>', not {text[:24]!r}")


def _seats(field: str, v: object) -> object:
    if not isinstance(v, list) or not 1 <= len(v) <= MAX_SEATS:
        raise _fail(field, f"a list of 1 to {MAX_SEATS} seats")
    for i, s in enumerate(v):
        try:
            if not isinstance(s, str):
                raise ValueError
            parse_seat(s)
        except ValueError:
            raise _fail(f"{field}.{i}", f"'friend' or 'ai:<{'|'.join(AI_LEVELS)}>'") from None
    return list(v)


#: Actions checked before, by :func:`_action_key`: their normalised JSON and Action. A table's
#: moves repeat (the same card codes, the same kinds); only what passed the check is kept.
_CHECKED: dict[str, tuple[JsonObject, Action]] = {}
_CHECKED_MAX = 4096


def _action_key(v: dict) -> str | None:
    """An action object as a key: its ``repr``, which tells every JSON type apart (``True``
    is no ``1``, ``1.0`` no ``1``, a text keeps its quotes), or None for a long one (checked
    the long way, every time)."""
    try:
        key = repr(v)
    except ValueError:  # an integer too long to write
        return None
    return key if len(key) <= 400 else None


def _action(field: str, v: object) -> object:
    global _last_checked
    if not isinstance(v, dict):
        raise _fail(field, "an action object")
    key = _action_key(v)
    hit = _CHECKED.get(key) if key is not None else None
    if hit is not None:  # the same object passed before: the same answer, a fresh copy of it
        out = {k: list(x) if type(x) is list else x for k, x in hit[0].items()}
        _last_checked = (out, hit[1])
        return out
    kinds = wire_decisions()
    name = v.get("kind")
    kind = kinds.get(name) if isinstance(name, str) else None
    if kind is None:
        raise _fail(f"{field}.kind", " or ".join(repr(k) for k in kinds))
    for f in kind.fields:
        value = v.get(f.name)
        if f.type == "cards" and isinstance(value, list):
            if len(value) > MAX_ACTION_CARDS:
                raise _fail(f"{field}.{f.name}", f"a list of at most {MAX_ACTION_CARDS} card codes")
            if len(set(map(str, value))) != len(value):
                raise ProtocolError("schema", f"the {f.name} names a card twice")
    try:
        # Normalised: every field of the declaration, with its default where left out.
        action = kind.from_wire(v, field)
        out = kind.to_wire(action)
    except VocabularyError as e:
        raise ProtocolError("schema", str(e)[:200]) from None
    if key is not None:
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.clear()
        _CHECKED[key] = ({k: list(x) if type(x) is list else x for k, x in out.items()}, action)
    _last_checked = (out, action)  # the handler takes it from here (checked_action): one parse
    return out


#: The last action :func:`_action` checked: its normalised JSON (held, so that its identity
#: stays its own) and the Action it states.
_last_checked: tuple[object, Action] | None = None


def checked_action(data: Mapping[str, object]) -> Action:
    """The Action of a checked message's ``action`` field: the one the check made from it when
    ``data`` is that very object (the message being handled), else parsed again."""
    last = _last_checked
    if last is not None and last[0] is data:
        return last[1]
    return action_from_json(data)


def _phrase(field: str, v: object) -> object:
    if v not in PHRASES:
        raise _fail(field, f"one of {', '.join(PHRASES)}")
    return v


_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _date(field: str, v: object) -> object:
    import datetime

    try:
        if not isinstance(v, str) or _DATE_RE.fullmatch(v) is None:
            raise ValueError
        datetime.date.fromisoformat(v)
    except ValueError:
        raise _fail(field, "a date written YYYY-MM-DD") from None
    return v


_PUZZLE_ID_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
_CHALLENGE_ID_RE = re.compile(r"challenge:[0-9a-f]{16}")
_ARENA_ID_RE = re.compile(r"arena:[a-z0-9][a-z0-9-]{0,47}")
_SWISS_ID_RE = re.compile(r"swiss:[a-z0-9][a-z0-9-]{0,47}")


def _swiss_id(field: str, v: object) -> object:
    if not isinstance(v, str) or _SWISS_ID_RE.fullmatch(v) is None:
        raise _fail(field, "a Swiss tournament's id such as swiss:december-club")
    return v


def _arena_id(field: str, v: object) -> object:
    if not isinstance(v, str) or _ARENA_ID_RE.fullmatch(v) is None:
        raise _fail(field, "an arena's id such as arena:evening-blitz")
    return v


def _challenge_id(field: str, v: object) -> object:
    if not isinstance(v, str) or _CHALLENGE_ID_RE.fullmatch(v) is None:
        raise _fail(field, "a challenge's id such as challenge:0123456789abcdef")
    return v


#: The most moves a puzzle answer holds (the shipped puzzles ask for four at most).
MAX_PUZZLE_MOVES = 8


def _puzzle_id(field: str, v: object) -> object:
    if not isinstance(v, str) or _PUZZLE_ID_RE.fullmatch(v) is None:
        raise _fail(field, "a puzzle id such as briscola-123-31")
    return v


def _moves(field: str, v: object) -> object:
    if not isinstance(v, list) or not 1 <= len(v) <= MAX_PUZZLE_MOVES:
        raise _fail(field, f"a list of 1 to {MAX_PUZZLE_MOVES} actions")
    return [_action(f"{field}.{i}", a) for i, a in enumerate(v)]


#: Free-text chat (``serve --chat`` only): at most this many characters a message.
CHAT_MAX = 200
#: A report's reason: at most this many characters.
REASON_MAX = 300
_RECOVERY_RE = re.compile(f"[{CODE_ALPHABET}]{{4}}(-[{CODE_ALPHABET}]{{4}}){{3}}")


def _text(limit: int) -> Check:
    def check(field: str, v: object) -> object:
        if not isinstance(v, str):
            raise _fail(field, f"a text of 1 to {limit} printable characters")
        text = " ".join(v.split())
        if not 1 <= len(text) <= limit or not text.isprintable():
            raise _fail(field, f"a text of 1 to {limit} printable characters")
        return text

    return check


def _recovery(field: str, v: object) -> object:
    text = v.strip().upper() if isinstance(v, str) and len(v) <= 40 else None
    if text is None or _RECOVERY_RE.fullmatch(text) is None:
        raise _fail(field, "a recovery code such as ABCD-EFGH-JKLM-NPQR")
    return text


_TABLE_FIELDS: dict[str, Check] = {
    "game": _ident,
    "deck": _optional(_ident),
    "players": _int(1, MAX_SEATS),
    "options": _options,
    "seats": _seats,
    "pause_seconds": _int(0, MAX_PAUSE_SECONDS),
    "ai_takes_over": _bool,
}

#: Every client message: its fields (all required, no others) and their checks.
CLIENT_MESSAGES: dict[str, dict[str, Check]] = {
    "hello": {"version": _int(0, 10**6), "name": _name},
    "create": dict(_TABLE_FIELDS),
    "configure": dict(_TABLE_FIELDS),
    "join": {"code": _code, "name": _name, "token": _optional(_token)},
    "host": {"code": _code, "host_token": _token},
    "kick": {"seat": _int(0, MAX_SEATS - 1)},
    "act": {"decision": _int(0, 10**6), "action": _action},
    "say": {"phrase": _phrase},
    "ping": {},
    # The server's daily deal (game.online.server.daily): play today's, or ask a day's leaderboard.
    "daily": {"game": _ident, "preset": _optional(_ident)},
    "daily_board": {"game": _ident, "preset": _optional(_ident), "date": _optional(_date)},
    # The puzzle of the day (game.online.server.puzzles): its id and who solved it; an answer.
    "puzzle_daily": {"game": _ident},
    "puzzle_solved": {"game": _ident, "id": _puzzle_id, "moves": _moves},
    # The club (docs/ONLINE.md, "The club"): accounts, quick match, the lobby, spectators, manners.
    "account": {"name": _name, "secret": _optional(_token)},
    "recover": {"name": _name, "recovery": _recovery},
    "quick": {"game": _ident, "preset": _optional(_ident)},
    "quick_cancel": {},
    "tables": {},
    "publish": {"public": _bool},
    "watch": {"code": _code},
    "unwatch": {},
    "leaderboard": {"game": _ident},
    "recent": {"name": _name},
    "block": {"name": _name},
    "mute": {"name": _name, "muted": _bool},
    "report": {"name": _name, "table": _optional(_code), "reason": _text(REASON_MAX)},
    "chat": {"text": _text(CHAT_MAX)},
    # The club's events (game.online.server.events.wiring): the list, the tournament of the day.
    "event_list": {},
    "tod_enter": {"game": _ident, "preset": _optional(_ident)},
    "tod_deal": {"game": _ident, "preset": _optional(_ident)},
    "tod_standings": {"game": _ident, "preset": _optional(_ident), "date": _optional(_date)},
    "tod_field": {"game": _ident, "preset": _optional(_ident), "date": _optional(_date), "deal": _int(0, 99)},
    "tod_record": {"game": _ident, "preset": _optional(_ident), "date": _optional(_date), "code": _code},
    "challenge": {"name": _name, "game": _ident, "preset": _optional(_ident)},
    "challenge_answer": {"id": _challenge_id, "accept": _bool},
    "challenge_deal": {"id": _challenge_id},
    "arena_join": {"id": _arena_id},
    "arena_pause": {"id": _arena_id},
    "arena_standings": {"id": _arena_id},
    "swiss_register": {"id": _swiss_id, "partner": _optional(_name)},
    "swiss_leave": {"id": _swiss_id},
    "swiss_standings": {"id": _swiss_id},
}


def decode_frame(frame: str | bytes) -> JsonObject:
    """The JSON object of one text frame (size, UTF-8, depth, duplicate keys checked).
    ProtocolError ``schema`` for a binary frame or anything that is not one JSON object."""
    if isinstance(frame, (bytes, bytearray, memoryview)):
        raise ProtocolError("schema", "binary frames are not part of the protocol: send JSON text")
    if len(frame) > MAX_MESSAGE_BYTES:
        raise ProtocolError("schema", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = loads(frame, max_bytes=MAX_MESSAGE_BYTES, max_depth=8)
    except JSONError as e:
        raise ProtocolError("schema", str(e)) from None
    if not isinstance(data, dict):
        raise ProtocolError("schema", "a message is one JSON object")
    return data


def _no_unknown_field(kind: str, data: JsonObject, fields: Mapping[str, object]) -> None:
    extra = [k for k in data if k != "type" and k not in fields]
    if extra:
        raise ProtocolError("schema", f"{kind}: unknown field '{str(extra[0])[:40]}'")


def check_message(data: JsonObject) -> JsonObject:
    """``data`` checked against its type's schema and normalised (a code in upper case, a
    name stripped, an action with every field). ProtocolError ``schema`` otherwise."""
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_MESSAGES:
        shown = kind[:24] if isinstance(kind, str) else kind if kind is None else type(kind).__name__
        raise ProtocolError("schema", f"unknown message type {shown!r} (types: {', '.join(CLIENT_MESSAGES)})")
    fields = CLIENT_MESSAGES[kind]
    # Every field is required, so a message of the right length that has them all has no
    # other: the unknown field is looked for only when one may be there (and named first).
    if len(data) != len(fields) + 1:
        _no_unknown_field(kind, data, fields)
    out: JsonObject = {"type": kind}
    for name, check in fields.items():
        if name not in data:
            _no_unknown_field(kind, data, fields)
            raise ProtocolError("schema", f"{kind}: missing field '{name}'")
        try:
            out[name] = check(name, data[name])
        except ProtocolError as e:
            raise ProtocolError("schema", f"{kind}: {e}") from None
    return out


def parse_client(frame: str | bytes) -> JsonObject:
    """One client frame, decoded and checked (see the module). ProtocolError otherwise."""
    return check_message(decode_frame(frame))


__all__ = [
    "AI_LEVELS",
    "BURST",
    "CODE_ALPHABET",
    "CODE_BITS",
    "CODE_LENGTH",
    "DEFAULT_PORT",
    "MAX_CONNECTIONS",
    "MAX_CONNECTIONS_PER_TABLE",
    "MAX_EXCESS",
    "MAX_MESSAGE_BYTES",
    "MAX_TABLES",
    "NAME_MAX",
    "PHRASES",
    "PROTOCOL_VERSION",
    "ProtocolError",
    "RATE",
    "SERVER_NAME",
    "TOKEN_BITS",
    "action_from_json",
    "action_to_json",
    "check_message",
    "checked_action",
    "decode_frame",
    "encode",
    "error",
    "hash_token",
    "json_safe",
    "new_code",
    "new_token",
    "parse_client",
    "parse_seat",
    "token_matches",
]
