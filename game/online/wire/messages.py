"""Every message the server sends, declared once: its type, its fields with their JSON types,
and who may receive it.

The server builds a message only through its declaration (``WELCOME(version=1, server=…)``:
each field checked, no other field allowed), and the clients dispatch what arrives through
one table keyed by the declared types (:class:`Dispatch`): a type nobody declared is refused
with a clear error instead of being ignored. The messages a client sends have their strict
schema in game.online.wire.protocol (``CLIENT_MESSAGES``).

Who may receive a message (:data:`Audience`):

- ``"connection"`` — the one connection that asked (an answer);
- ``"seat"`` — the seat it concerns (its cards, its choices, its rating);
- ``"table"`` — every connection at the table (its seats and its host);
- ``"spectators"`` — the watchers of a public table;
- ``"lobby"`` — the club's listeners (the live list of tables).

The connection thread of a client (game.online.client.connection) adds its own news to what
arrives (``_open``, ``_lost``, ``_failed``): they are declared here too, with the audience
``"local"``, so that one dispatch table holds everything a client may be handed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from game.rules.vocabulary import JsonObject

#: Who may receive a message (see the module).
Audience = Literal["connection", "seat", "table", "spectators", "lobby", "local"]

#: The JSON types a field may hold.
NONE: tuple[type, ...] = (type(None),)
STR: tuple[type, ...] = (str,)
INT: tuple[type, ...] = (int,)
NUM: tuple[type, ...] = (int, float)
BOOL: tuple[type, ...] = (bool,)
LIST: tuple[type, ...] = (list,)
OBJ: tuple[type, ...] = (dict,)


class MessageError(ValueError):
    """A server message that is not what its declaration says, or one nobody declared."""


@dataclass(frozen=True)
class Slot:
    """One field of a message: its name, the JSON types it may hold, whether it may be left out."""

    name: str
    types: tuple[type, ...]
    optional: bool = False

    def check(self, value: object, where: str) -> None:
        # JSON's true is no number: a bool passes only where a bool is declared.
        if isinstance(value, bool) and bool not in self.types:
            ok = False
        else:
            ok = isinstance(value, self.types)
        if not ok:
            names = " or ".join("null" if t is type(None) else t.__name__ for t in self.types)
            raise MessageError(f"{where}: '{self.name}' must be {names}, not {type(value).__name__}")


def slot(name: str, *types: tuple[type, ...], optional: bool = False) -> Slot:
    """A field that holds any of ``types`` (each a tuple such as STR or NONE)."""
    return Slot(name, tuple(t for group in types for t in group), optional)


@dataclass(frozen=True)
class ServerMessage:
    """One server-to-client message type. Calling it builds the message (checked)."""

    type: str
    fields: tuple[Slot, ...]
    audience: frozenset[Audience]
    doc: str = ""

    def __call__(self, **values: object) -> JsonObject:
        """The message with these fields (every required one given, no other): MessageError if not."""
        out: JsonObject = {"type": self.type}
        out.update(values)
        self.check(out)
        return out

    def check(self, message: Mapping[str, object]) -> None:
        """MessageError when ``message`` is not this type's (a field missing, of another type,
        or not declared)."""
        where = self.type
        names = set()
        for f in self.fields:
            names.add(f.name)
            if f.name not in message:
                if not f.optional:
                    raise MessageError(f"{where}: '{f.name}' is missing")
                continue
            f.check(message[f.name], where)
        extra = sorted(k for k in message if k != "type" and k not in names)
        if extra:
            raise MessageError(f"{where}: '{extra[0]}' is not a field of it")

    @cached_property
    def _written(self) -> tuple[str, tuple[tuple[str, str, bool], ...]]:
        """``{"type":"<type>"`` and, per field, its name, ``,"<name>":`` and whether it may be left out."""
        head = json.dumps({"type": self.type}, ensure_ascii=False, separators=(",", ":"))[:-1]
        keys = tuple((f.name, f",{json.dumps(f.name, ensure_ascii=False)}:", f.optional) for f in self.fields)
        return head, keys

    @cached_property
    def _template(self) -> str:
        """The message as a %-template of every field, in declared order (see :meth:`encoded_all`)."""
        head, keys = self._written
        return "".join([head.replace("%", "%%"), *(key.replace("%", "%%") + "%s" for _, key, _ in keys), "}"])

    def encoded_all(self, *texts: str) -> str:
        """:meth:`encoded` with every declared field given, as JSON texts in declared order:
        the same bytes, filled into a template made once (what the server sends at every
        decision). MessageError when the count is not the fields'."""
        if len(texts) != len(self.fields):
            raise MessageError(f"{self.type}: {len(self.fields)} fields, {len(texts)} given")
        return self._template % texts

    def encoded(self, **texts: str) -> str:
        """The message as its JSON text, from each field's value already written as JSON
        (compact, as game.online.wire.protocol.encode writes it): the same bytes as
        ``encode(self(**values))`` when the fields are given in their declared order, which
        is the order written. For what the server sends per decision (a ``turn``, an
        ``events``), whose values it writes once for many messages. MessageError when a
        required field is missing or one is not declared; the values' types are the caller's."""
        head, keys = self._written
        out = [head]
        given = 0
        for name, key, optional in keys:
            text = texts.get(name)
            if text is None:
                if not optional:
                    raise MessageError(f"{self.type}: '{name}' is missing")
                continue
            given += 1
            out.append(key)
            out.append(text)
        if given != len(texts):
            names = {f.name for f in self.fields}
            extra = sorted(k for k in texts if k not in names)
            raise MessageError(f"{self.type}: '{extra[0]}' is not a field of it")
        out.append("}")
        return "".join(out)


#: Every declared message, by type.
SERVER_MESSAGES: dict[str, ServerMessage] = {}


def declare(kind: str, audience: Iterable[Audience], *fields: Slot, doc: str = "") -> ServerMessage:
    """Declare the message ``kind`` (once: a second declaration of a type raises)."""
    if kind in SERVER_MESSAGES:
        raise MessageError(f"the message type {kind!r} is declared twice")
    message = ServerMessage(kind, tuple(fields), frozenset(audience), doc)
    SERVER_MESSAGES[kind] = message
    return message


# ---- the connection and the answers it is given ---------------------------------------
WELCOME = declare("welcome", ["connection"], slot("version", INT), slot("server", STR), doc="the hello's answer")
PONG = declare("pong", ["connection"], doc="the ping's answer")
ERROR = declare(
    "error",
    ["connection", "table"],
    slot("code", STR),
    slot("message", STR),
    # The protocol version the server speaks (code "version"), and where a table went (code
    # "moved": another process's address, or null to connect again).
    slot("server_version", INT, optional=True),
    slot("url", STR, NONE, optional=True),
    doc="a refusal (the connection stays open unless it is closed after it)",
)

# ---- the lobby of a table ---------------------------------------------------------------
CREATED = declare(
    "created",
    ["connection"],
    slot("code", STR),
    slot("host_token", STR, NONE),
    slot("tokens", OBJ),
    doc="a table made for the connection: its code, its host token, its friends' seat tokens",
)
LOBBY = declare(
    "lobby",
    ["table"],
    slot("code", STR),
    slot("game", STR),
    slot("deck", STR, NONE),
    slot("players", INT),
    slot("options", OBJ),
    slot("seats", LIST),
    slot("you", INT, NONE),
    slot("host", BOOL),
    slot("started", BOOL),
    slot("pause_seconds", INT),
    slot("ai_takes_over", BOOL),
    doc="the table's settings and seats, as each connection sees them (its seat, whether it hosts)",
)
JOINED = declare(
    "joined",
    ["connection"],
    slot("code", STR),
    slot("seat", INT),
    slot("token", STR, NONE),
    doc="the connection holds a seat now (with the token to come back to it)",
)

# ---- the match ------------------------------------------------------------------------
EVENTS = declare(
    "events",
    ["seat", "spectators"],
    slot("from", INT),
    slot("events", LIST),
    doc="the record events from ``from`` on, as this seat (or a spectator) may see them",
)
TURN = declare(
    "turn",
    ["seat", "table"],
    slot("seat", INT),
    slot("decision", INT),
    slot("legal", LIST),
    doc="whose decision is next; the seat to act alone is sent its legal actions",
)
REFUSED = declare(
    "refused",
    ["seat"],
    slot("rule", STR),
    slot("params", OBJ),
    slot("decision", INT),
    slot("message", STR),
    doc="the rules refused the seat's action (the rule's id and its parameters)",
)
SAID = declare("said", ["table"], slot("seat", INT), slot("phrase", STR), doc="a seat's quick phrase")
CHAT = declare("chat", ["table"], slot("seat", INT), slot("text", STR), doc="a seat's free text (serve --chat)")
PAUSED = declare(
    "paused",
    ["table"],
    slot("seat", INT),
    slot("seconds", NUM),
    slot("then", STR),
    doc="a friend left during the match: the seat waits, then the computer plays it (or the table waits)",
)
RESUMED = declare(
    "resumed",
    ["table"],
    slot("seat", INT),
    slot("by", STR, optional=True),
    slot("silent", BOOL, optional=True),
    doc="the seat plays again: its friend is back, or the computer covers it (``by``)",
)
OVER = declare("over", ["seat"], slot("record", STR), doc="the match is over: the record's file name")
STORAGE = declare(
    "storage",
    ["table"],
    slot("ok", BOOL),
    slot("message", STR),
    doc="the table cannot be saved just now (play waits), or is saved again",
)

# ---- the server's daily deal --------------------------------------------------------------
DAILY_INFO = declare(
    "daily_info",
    ["connection"],
    slot("date", STR),
    slot("game", STR),
    slot("preset", STR, NONE),
    slot("hash", STR),
    slot("seed", INT, NONE),
    slot("nonce", STR, NONE),
    doc="the day's deal's commitment (its seed and nonce once the day is closed)",
)
DAILY_BOARD = declare(
    "daily_board",
    ["connection"],
    slot("info", OBJ),
    slot("lines", LIST),
    slot("mine", OBJ, NONE),
    doc="a day's leaderboard, its commitment and the asking account's own line",
)
DAILY_RESULT = declare(
    "daily_result",
    ["seat", "connection"],
    slot("name", STR),
    slot("score", NUM),
    slot("par", NUM),
    slot("over_par", NUM),
    slot("seconds", NUM),
    doc="the daily deal's play as the leaderboard took it",
)

# ---- the club ---------------------------------------------------------------------------
ACCOUNT = declare(
    "account",
    ["connection"],
    slot("name", STR),
    slot("secret", STR, NONE),
    slot("recovery", STR, NONE),
    slot("new", BOOL),
    slot("ratings", OBJ, optional=True),
    slot("chat", BOOL, optional=True),
    doc="signed in (a new account's secret and recovery code are shown once)",
)
QUICK_WAITING = declare(
    "quick_waiting",
    ["connection"],
    slot("game", STR),
    slot("preset", STR, NONE),
    slot("wait", NUM),
    slot("rating", NUM, NONE, optional=True),
    slot("matches", INT, optional=True),
    slot("provisional", BOOL, optional=True),
    doc="in the quick-match queue (with the account's rating in the game)",
)
QUICK_CANCELLED = declare("quick_cancelled", ["connection"], doc="out of the quick-match queue")
QUICK_FOUND = declare(
    "quick_found",
    ["seat"],
    slot("code", STR),
    slot("seat", INT),
    slot("token", STR),
    slot("rated", BOOL),
    slot("filled", BOOL),
    slot("seats", LIST),
    doc="a quick match found: the table, the seat and its token, every seat's plate",
)
TABLES = declare(
    "tables",
    ["lobby", "connection"],
    slot("tables", LIST),
    slot("waiting", INT),
    slot("playing", INT),
    doc="the live list of public tables",
)
PUBLISHED = declare(
    "published", ["connection"], slot("code", STR), slot("public", BOOL), doc="the table is listed (or not)"
)
LEADERBOARD = declare(
    "leaderboard",
    ["connection"],
    slot("game", STR),
    slot("lines", LIST),
    slot("computers", OBJ),
    doc="a game's rated players, best first, and the computers' ratings",
)
RECENT = declare("recent", ["connection"], slot("name", STR), slot("matches", LIST), doc="a player's recent matches")
RATED = declare(
    "rated",
    ["seat"],
    slot("game", STR),
    slot("rated", BOOL),
    slot("result", STR),
    slot("old", NUM, NONE),
    slot("new", NUM, NONE),
    slot("matches", INT, NONE),
    slot("provisional", BOOL, NONE),
    doc="a club match is over: the seat's result and its rating before and after",
)
BLOCKED = declare("blocked", ["connection"], slot("name", STR), doc="a player blocked")
MUTED = declare("muted", ["connection"], slot("name", STR), slot("muted", BOOL), doc="a player muted (or not)")
REPORTED = declare("reported", ["connection"], slot("name", STR), doc="a report kept for the server's owner")

# ---- spectators -------------------------------------------------------------------------
WATCHING = declare(
    "watching",
    ["spectators"],
    slot("code", STR),
    slot("game", STR),
    slot("deck", STR, NONE),
    slot("players", INT),
    slot("options", OBJ),
    slot("seats", LIST),
    slot("started", BOOL),
    slot("finished", BOOL),
    slot("watchers", INT),
    doc="what anyone may know of a watched table (never a token or a card)",
)
WATCHERS = declare("watchers", ["table"], slot("count", INT), doc="how many watch the table")

# ---- the puzzle of the day ----------------------------------------------------------------
PUZZLE_DAILY = declare(
    "puzzle_daily",
    ["connection"],
    slot("date", STR),
    slot("game", STR),
    slot("id", STR),
    slot("solved_by", LIST),
    doc="today's puzzle of a game and who solved it",
)
PUZZLE_SOLVED = declare(
    "puzzle_solved",
    ["connection"],
    slot("date", STR),
    slot("game", STR),
    slot("id", STR),
    slot("solved", BOOL),
    slot("solved_by", LIST),
    doc="an answer judged",
)

# ---- the club's events (game.online.server.events.wiring) ---------------------------------
EVENT_LIST = declare(
    "event_list",
    ["connection"],
    slot("tournaments", LIST),
    slot("arenas", LIST),
    slot("swiss", LIST),
    slot("challenges", LIST),
    doc="the club's events as the asking player sees them (names, never account ids or seeds)",
)
TOD = declare(
    "tod",
    ["connection"],
    slot("info", OBJ),
    slot("me", OBJ, NONE),
    doc="a tournament of the day: its public facts (the seed once revealed) and the player's progress",
)
TOD_RESULT = declare(
    "tod_result",
    ["seat"],
    slot("info", OBJ),
    slot("deal", INT),
    slot("score", NUM),
    slot("me", OBJ),
    doc="a tournament deal's result, as the server scored it from the table's record",
)
TOD_STANDINGS = declare(
    "tod_standings",
    ["connection"],
    slot("info", OBJ),
    slot("lines", LIST),
    doc="a tournament's standings (shown once the player has ended every deal, or the day is revealed)",
)
TOD_FIELD = declare(
    "tod_field",
    ["connection"],
    slot("info", OBJ),
    slot("field", OBJ),
    doc="how the field played one deal (shown once the player has ended it)",
)
CHALLENGE = declare(
    "challenge",
    ["connection", "seat"],
    slot("challenge", OBJ),
    doc="a challenge as the player sees it (game.online.server.events.hub.challenge_json)",
)
ARENA = declare(
    "arena",
    ["connection"],
    slot("id", STR),
    slot("standings", LIST),
    slot("me", OBJ, NONE),
    doc="an arena's live standings (names, never account ids) and the player's own line",
)
ARENA_FOUND = declare(
    "arena_found",
    ["connection"],
    slot("id", STR),
    slot("code", STR),
    slot("seat", INT),
    slot("token", STR),
    slot("computers", INT),
    slot("level", STR, NONE),
    doc="an arena match: the table, the player's seat and its token; the computer's seats and level",
)
SWISS = declare(
    "swiss",
    ["connection"],
    slot("id", STR),
    slot("round", INT),
    slot("rounds", INT),
    slot("finished", BOOL),
    slot("standings", LIST),
    slot("me", OBJ, NONE),
    slot("waiting", STR, NONE),
    slot("asked", LIST),
    doc="a Swiss tournament's standings (names, never account ids) and the entrant's own line; the "
    "partner the player named and waits for, and the names of those who named the player",
)
SWISS_ROUND = declare(
    "swiss_round",
    ["connection"],
    slot("id", STR),
    slot("round", INT),
    slot("code", STR, NONE),
    slot("seat", INT, NONE),
    slot("token", STR, NONE),
    slot("opponent", STR, NONE),
    doc="a Swiss round's table for the player (its seat and token), or a bye (code null)",
)
TOD_RECORD = declare(
    "tod_record",
    ["connection"],
    slot("code", STR),
    slot("deal", INT),
    slot("record", STR),
    doc="a tournament deal's record (JSON Lines), for a player who may see that deal",
)

#: How many message types the server sends (the declarations above).
SERVER_TYPES = frozenset(SERVER_MESSAGES)

# ---- the client's own news (game.online.client.connection) --------------------------------
OPEN = declare("_open", ["local"], doc="the connection is open (the greeting was sent)")
LOST = declare(
    "_lost",
    ["local"],
    slot("code", INT, NONE),
    slot("reason", STR, NONE),
    slot("again", BOOL),
    doc="the connection dropped (it will try again when ``again``)",
)
FAILED = declare("_failed", ["local"], slot("message", STR), doc="the connection gave up")


# ---- reading a field of what arrived ---------------------------------------------------------
def as_int(value: object) -> int:
    """A whole number a message holds (TypeError otherwise: a message that cannot be read)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{value!r:.40} is no number")
    return int(value)


def as_float(value: object) -> float:
    """A number a message holds (TypeError otherwise)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{value!r:.40} is no number")
    return float(value)


def as_str(value: object) -> str | None:
    """A text a message holds, None for anything else (a missing or null field)."""
    return value if isinstance(value, str) else None


def as_list(value: object) -> list[object]:
    """A list a message holds (TypeError otherwise)."""
    if not isinstance(value, list):
        raise TypeError(f"{value!r:.40} is no list")
    return value


def as_obj(value: object) -> JsonObject:
    """An object a message holds (TypeError otherwise)."""
    if not isinstance(value, dict):
        raise TypeError(f"{value!r:.40} is no object")
    return value


# ---- dispatching what arrives ---------------------------------------------------------------
#: A handler of one message type.
Handler = Callable[[JsonObject], None]


def declared(message: Mapping[str, object]) -> ServerMessage:
    """The declaration of ``message``'s type; MessageError for a type nobody declared."""
    kind = message.get("type")
    decl = SERVER_MESSAGES.get(kind) if isinstance(kind, str) else None
    if decl is None:
        shown = kind[:40] if isinstance(kind, str) else type(kind).__name__
        raise MessageError(f"the server sent a message of undeclared type {shown!r}")
    return decl


class Dispatch:
    """One table from declared message types to handlers: handing it a message calls its
    type's handler (types it has none for are passed over); a type nobody declared raises
    MessageError, and so does a table naming one."""

    def __init__(self, handlers: Mapping[str, Handler], *, check_fields: bool = False):
        unknown = sorted(k for k in handlers if k not in SERVER_MESSAGES)
        if unknown:
            raise MessageError(f"a handler for the undeclared message type {unknown[0]!r}")
        self.handlers = dict(handlers)
        self.check_fields = check_fields

    def __call__(self, message: JsonObject) -> bool:
        """Hand ``message`` to its handler; whether there was one."""
        decl = declared(message)
        handler = self.handlers.get(decl.type)
        if handler is None:
            return False
        if self.check_fields:
            decl.check(message)
        handler(message)
        return True


__all__ = [
    "Audience",
    "Dispatch",
    "Handler",
    "MessageError",
    "SERVER_MESSAGES",
    "SERVER_TYPES",
    "ServerMessage",
    "Slot",
    "as_float",
    "as_int",
    "as_list",
    "as_obj",
    "as_str",
    "declare",
    "declared",
    "slot",
]
