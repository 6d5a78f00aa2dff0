"""Online tables, the client side: :class:`RemoteSession` over a
:class:`game.online.client.connection.Connection` (the socket in a daemon thread, a queue of what
arrived), which the table drives like
game.services.session.Session.

The window never waits on the network: the connection's thread connects, greets the server
(``hello`` then ``join`` with the seat's token, ``host`` with the host token), reads frames
into a queue and, when the connection drops, connects again with a growing pause, for a
bounded time. The session's :meth:`RemoteSession.poll` (called every tick) drains that queue
and applies it: the seat's redacted events, whose turn it is and what it may play, pauses,
quick messages, refusals. A rejoin receives the seat's whole stream again; what the session
already had is kept and only the new events are handed to the table.

Addresses, links and codes are parsed in one place, game.online.wire.links; what the seat's
events say (decisions, totals, the end) is kept by game.online.client.remote_match.

Pure Python: no pygame here.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from game.cards import card
from game.online.client.connection import FATAL_ERRORS, FIRST_CONNECT_FOR, OPEN_TIMEOUT, RETRY_FOR, Connection
from game.online.client.remote_match import RemoteMatch
from game.online.wire import protocol as P
from game.online.wire.links import check_code, parse_address
from game.online.wire.messages import Dispatch, Handler, MessageError, as_float, as_int, as_list, as_obj, as_str
from game.rules.base import PLAY_KIND, Action, Event, GameRules, IllegalAction
from game.rules.vocabulary import JsonObject
from game.rulesets import make_rules
from game.services.table_session import ONLINE, Capabilities


# ------------------------------------------------------------------------------ the session
class RemoteSession:
    """A seat at a table on a server, a :class:`game.services.table_session.TableSession` (see
    docs/ONLINE.md): the table polls it, takes its events and submits the human's
    decisions; the server decides everything.

    ``url`` is a server address or a table link (:func:`parse_address`); ``code`` may then be
    None. ``token`` (re)takes that seat, else the next free friend's seat is claimed and its
    token kept in ``token`` (a rejoin uses it). ``host_token`` also makes this connection the
    table's host (``configure``, ``kick`` before the start)."""

    capabilities: Capabilities = ONLINE
    threaded = True
    can_undo = False
    undos = 0
    suggestions = 0
    open_hands = False
    rewinds = 0
    seed = 0
    #: What the match is part of (game.services.challenge.OnlineDailyPlay), or None.
    context: object = None

    def __init__(
        self,
        url: str,
        code: str | None,
        name: str,
        token: str | None = None,
        rules: GameRules | None = None,
        *,
        host_token: str | None = None,
        retry_for: float = RETRY_FOR,
        first_connect_for: float = FIRST_CONNECT_FOR,
        connect: bool = True,
    ):
        self.url, link_code = parse_address(url)
        self.code = check_code(code) if code else link_code
        if self.code is None:
            raise ValueError("no table code given")
        self.name = name
        self.token = token
        self.host_token = host_token
        self.rules = rules
        self.match = RemoteMatch(rules)
        self.human_seat: int | None = None
        self.lobby: dict | None = None
        self.started = False
        self.server: str | None = None
        #: The last ``turn`` message (None once the decision it asked for was made).
        self._turn: dict | None = None
        self._legal: list[Action] | None = None
        #: The decision number of an ``act`` sent and not yet answered.
        self._awaiting: int | None = None
        self._pending: deque[Event] = deque()
        #: The server's refusal of the last submitted action: an IllegalAction(rule, text,
        #: **params) for the table to translate (``take_refusal``).
        self.last_refusal: IllegalAction | None = None
        #: Dropped friends' seats holding the table up: seat -> (deadline in time.monotonic()
        #: seconds, what happens then: "ai" or "wait"). ``paused`` shows the soonest.
        self.pauses: dict[int, tuple[float, str | None]] = {}
        #: Seats a computer plays for a dropped friend (until the friend is back).
        self.ai_seats: set[int] = set()
        #: The computer plays for this seat's player, who was silent at their turn (a club
        #: table): the table says so and takes no card until they take over (:meth:`take_over`).
        self.covered = False
        #: The decision of the ``act`` that took the seat back, whose refusal is no news.
        self._taking_over: int | None = None
        #: Quick messages not yet shown: (seat, phrase).
        self.said: list[tuple[int, str]] = []
        #: Errors the server sent that did not end the session: (code, message), latest last.
        self.errors: deque[tuple[str, str]] = deque(maxlen=20)
        #: Why the session cannot go on (a fatal error, the server gone), None while it can.
        self.failed: str | None = None
        #: The server's error code when it ended the session (``no_table`` …), else None.
        self.failed_code: str | None = None
        self.connected = False
        #: The server cannot save the table just now (a cluster's Redis away): play waits.
        self.storage_paused = False
        #: Where the server keeps the finished match's record (the ``over`` message).
        self.record_path: str | None = None
        #: The ``created`` reply, for a session that made its table (``create_table``).
        self.created: dict | None = None
        self._dispatch = Dispatch(self._handlers())
        self.conn = Connection(self.url, self._greeting, retry_for=retry_for, first_connect_for=first_connect_for)
        if connect:
            self.conn.start()

    # ---------------------------------------------------------------- the greeting
    def _greeting(self) -> list[dict]:
        out: list[dict] = [{"type": "hello", "version": P.PROTOCOL_VERSION, "name": self.name}]
        if self.host_token:
            out.append({"type": "host", "code": self.code, "host_token": self.host_token})
        out.append({"type": "join", "code": self.code, "name": self.name, "token": self.token})
        return out

    # ---------------------------------------------------------------- Session's interface
    def start(self) -> None:
        """Nothing to do: the server starts the match once every friend's seat is taken."""

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def to_act(self) -> int | None:
        turn = self._turn
        if self.match.over or turn is None:
            return None
        return turn.get("seat")

    @property
    def human_to_act(self) -> bool:
        return (
            self.human_seat is not None
            and self.to_act == self.human_seat
            and self._awaiting is None
            and self.connected
            and self.failed is None
            and not self.covered
            and self.human_seat not in self.ai_seats
        )

    @property
    def thinking(self) -> bool:
        """Another seat is to act (a friend or a computer), or the computer for this seat's
        silent player: the table shows who."""
        seat = self.to_act
        return seat is not None and (seat != self.human_seat or seat in self.ai_seats)

    @property
    def paused(self) -> tuple[int, float] | None:
        """(seat, deadline) of the paused seat whose countdown ends first, None when none is."""
        if not self.pauses:
            return None
        seat = min(self.pauses, key=lambda k: (self.pauses[k][0], k))
        return seat, self.pauses[seat][0]

    @property
    def paused_then(self) -> str | None:
        """What happens when ``paused``'s countdown ends: "ai" (a computer plays the seat) or
        "wait" (the table waits for the player)."""
        p = self.paused
        return None if p is None else self.pauses[p[0]][1]

    @property
    def decision(self) -> int | None:
        """The number of the decision now asked for (as the server counts), None when none is."""
        turn = self._turn
        return None if turn is None else turn.get("decision")

    @property
    def decisions(self) -> list[None]:
        return list(self.match.decisions)

    def poll(self) -> bool:
        """Apply everything the connection received; True when new events came."""
        before = len(self._pending)
        while True:
            message = self.conn.get()
            if message is None:
                break
            self._handle(message)
        return len(self._pending) > before

    def wait(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds for a message, then poll (headless clients)."""
        before = len(self._pending)
        message = self.conn.get(timeout=timeout)
        if message is not None:
            self._handle(message)
        self.poll()
        return len(self._pending) > before

    def take_events(self) -> list[Event]:
        out = list(self._pending)
        self._pending.clear()
        return out

    def view(self, seat: int | None = None) -> Any:
        raise NotImplementedError("an online seat has no view to search: no suggestions online")

    def legal_actions(self) -> list[Action]:
        if self._legal is None or self.to_act is None:
            return []
        return list(self._legal)

    def submit(self, action: Action) -> list[Event]:
        """Send the human's decision. The events it causes arrive later (``poll``); a
        refusal arrives as ``last_refusal``."""
        if not self.human_to_act:
            raise RuntimeError("it is not this seat's turn")
        k = self.decision
        if not self.conn.send({"type": "act", "decision": k, "action": P.action_to_json(action)}):
            raise IllegalAction("disconnected", "the connection to the server is down")
        self._awaiting = k
        self.last_refusal = None
        return []

    def take_over(self) -> bool:
        """The silent player is back (any key, a click): the seat is theirs again. While the
        server's computer still holds it, an ``act`` for the decision being made hands it
        back — a move no rules allow (a card taking itself), so that it can never be played
        if the seat was already given back. False when the computer was not playing here."""
        if not self.covered:
            return False
        self.covered = False
        seat = self.human_seat
        if seat is None or seat not in self.ai_seats or self.match.over:
            return True
        k = self.decision if self.decision is not None else len(self.match.decisions)
        action = _never_legal(self._any_card())
        if action is not None:
            self._taking_over = k
            self.conn.send({"type": "act", "decision": k, "action": action})
        return True

    def _any_card(self) -> str | None:
        """A card code of this table's pack (the one :meth:`take_over` names)."""
        for ev in reversed(self.match.events):
            for c in [ev.get("card"), ev.get("trump"), *(h for hand in ev.get("hands") or [] for h in hand or [])]:
                if isinstance(c, str):
                    return c
        return None

    def take_refusal(self) -> IllegalAction | None:
        out, self.last_refusal = self.last_refusal, None
        return out

    def undo(self) -> bool:
        return False

    def undo_point(self) -> None:
        return None

    def say(self, phrase: str) -> bool:
        if phrase not in P.PHRASES:
            raise ValueError(f"{phrase!r} is not a quick message ({', '.join(P.PHRASES)})")
        return self.conn.send({"type": "say", "phrase": phrase})

    def close(self) -> None:
        self.conn.close()

    # ---------------------------------------------------------------- the host's lobby
    def configure(
        self,
        game: str,
        deck: str | None,
        players: int,
        options: dict,
        seats: list[str],
        pause_seconds: int,
        ai_takes_over: bool,
    ) -> bool:
        """Host only, before the start: change the table (the server answers with a lobby)."""
        return self.conn.send(
            {
                "type": "configure",
                "game": game,
                "deck": deck,
                "players": players,
                "options": dict(options),
                "seats": list(seats),
                "pause_seconds": pause_seconds,
                "ai_takes_over": ai_takes_over,
            }
        )

    def kick(self, seat: int) -> bool:
        return self.conn.send({"type": "kick", "seat": seat})

    def ping(self) -> bool:
        return self.conn.send({"type": "ping"})

    # ---------------------------------------------------------------- messages
    def _handlers(self) -> dict[str, Handler]:
        """What this session does with each declared message (game.online.wire.messages)."""
        return {
            "_open": self._on_open,
            "_lost": self._on_lost,
            "_failed": self._on_failed,
            "welcome": self._on_welcome,
            "error": self._on_error,
            "created": self._on_created,
            "joined": self._on_joined,
            "lobby": self._on_lobby,
            "events": self._on_events,
            "turn": self._on_turn,
            "refused": self._on_refused,
            "paused": self._on_paused,
            "resumed": self._on_resumed,
            "said": self._on_said,
            "over": self._on_over,
            "storage": self._on_storage,
        }

    def _handle(self, m: JsonObject) -> None:
        kind = m.get("type")
        try:
            self._dispatch(m)
        except MessageError as e:
            self.errors.append(("client", str(e)))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            # A server of this protocol does not send these; a broken one must not crash the window.
            self.errors.append(("client", f"a {kind!r} message could not be read: {e}"))

    def _on_open(self, m: JsonObject) -> None:
        self.connected = True

    def _on_lost(self, m: JsonObject) -> None:
        self.connected = False
        # What was asked before the drop is asked again after the rejoin (a fresh ``turn``).
        self._turn, self._legal, self._awaiting = None, None, None

    def _on_failed(self, m: JsonObject) -> None:
        self.connected = False
        self._turn, self._legal, self._awaiting = None, None, None
        if self.failed is None:
            self.failed = str(m.get("message") or "the connection failed")

    def _on_welcome(self, m: JsonObject) -> None:
        self.server = as_str(m.get("server"))

    def _on_error(self, m: JsonObject) -> None:
        code, message = str(m.get("code")), str(m.get("message", ""))
        self.errors.append((code, message))
        if code == "rate" and self._awaiting is not None:
            self._awaiting = None  # the server may have dropped the act: it is asked again
        if code in FATAL_ERRORS:
            self.failed, self.failed_code = message or code, code
            self.conn.stop_retrying()

    def _on_created(self, m: JsonObject) -> None:
        self.created = m

    def _on_joined(self, m: JsonObject) -> None:
        self.human_seat = as_int(m["seat"])
        self.ai_seats.discard(self.human_seat)  # a (re)join gives the seat back to its player
        self.token = as_str(m.get("token")) or self.token
        self.code = as_str(m.get("code")) or self.code

    def seat_names(self) -> dict[int, str]:
        """The names the friends chose, by seat (the computer seats have none)."""
        seats = (self.lobby or {}).get("seats") if isinstance(self.lobby, dict) else None
        out: dict[int, str] = {}
        for i, seat in enumerate(seats if isinstance(seats, list) else []):
            name = seat.get("name") if isinstance(seat, dict) else None
            if isinstance(name, str) and name.strip():
                out[i] = name.strip()
        return out

    def _on_lobby(self, m: JsonObject) -> None:
        self.lobby = m
        you = m.get("you")
        if isinstance(you, int):
            self.human_seat = you
        self.started = bool(m.get("started")) or self.started
        config = (str(m["game"]), as_str(m.get("deck")), as_int(m["players"]), dict(as_obj(m.get("options") or {})))
        rules = self.rules
        if rules is None or (not self.match.events and config != _config_of(rules)):
            self._set_rules(make_rules(*config))

    def _set_rules(self, rules: GameRules) -> None:
        self.rules = rules
        self.match.rules = rules
        if not self.match.events:
            self.match.totals = rules.initial_totals()

    def _on_events(self, m: JsonObject) -> None:
        start = as_int(m["from"])
        events: list[Event] = [as_obj(e) for e in as_list(m["events"])]
        have = len(self.match.events)
        if start > have:
            # A gap (messages lost): ask for the whole stream again by rejoining.
            self.errors.append(("client", f"events from {start} while {have} were received: rejoining"))
            self.conn.drop()
            return
        overlap = have - start
        if [_plain(e) for e in self.match.events[start : start + len(events[:overlap])]] != [
            _plain(e) for e in events[:overlap]
        ]:
            # The stream differs from what was shown (cannot happen with one server): show it anew.
            self._restart_stream(self.match.events[:start] + events)
            return
        new = events[overlap:]
        if not new:
            return
        if self.rules is None and new[0].get("event") == "match":
            first = new[0]
            self._set_rules(make_rules(first["game"], first.get("deck"), int(first["players"]), first.get("options")))
        new = [self._by_computer(ev) for ev in new]
        made = len(self.match.decisions)
        self.match.extend(new)
        self._pending.extend(new)
        self.started = True
        if len(self.match.decisions) != made:
            self._turn, self._legal, self._awaiting = None, None, None

    def _by_computer(self, ev: Event) -> Event:
        """A decision the computer made for a person (a seat it covers now) is marked as the
        server's record marks it (``"by": "computer"``): the table tells it so."""
        rules = self.rules
        if (
            rules is not None
            and ev.get("event") in rules.decisions
            and ev.get("seat") in self.ai_seats
            and "by" not in ev
        ):
            return {**ev, "by": "computer"}
        return ev

    def _restart_stream(self, events: list[Event]) -> None:
        self.match = RemoteMatch(self.rules)
        self.match.extend(events)
        self._pending.clear()
        self.rewinds += 1  # the table redraws from match.events
        self._turn, self._legal, self._awaiting = None, None, None

    def _on_turn(self, m: JsonObject) -> None:
        legal = [P.action_from_json(as_obj(a)) for a in as_list(m.get("legal") or [])]
        self._turn = {"seat": as_int(m["seat"]), "decision": as_int(m["decision"])}
        self._legal = legal
        if self._awaiting is not None and self._turn["decision"] != self._awaiting:
            self._awaiting = None

    def _on_refused(self, m: JsonObject) -> None:
        if self._taking_over is not None and m.get("decision") == self._taking_over:
            self._taking_over = None  # the seat was already back: the hand-back act is no move
            return
        rule = str(m.get("rule"))
        given = m.get("params")
        params = given if isinstance(given, dict) else {}
        text = str(m.get("message") or f"refused by the server: {rule}")
        self.last_refusal = IllegalAction(rule, text, **{str(k): v for k, v in params.items()})
        self._awaiting = None

    def _on_paused(self, m: JsonObject) -> None:
        then = m.get("then")
        self.pauses[as_int(m["seat"])] = (
            time.monotonic() + as_float(m.get("seconds") or 0),
            then if then in ("ai", "wait") else None,
        )

    def _on_resumed(self, m: JsonObject) -> None:
        seat = as_int(m["seat"])
        self.pauses.pop(seat, None)
        if m.get("by") == "ai":
            self.ai_seats.add(seat)
            if seat == self.human_seat and m.get("silent"):
                self.covered = True
        else:
            self.ai_seats.discard(seat)
            if seat == self.human_seat:
                if self._awaiting is not None:  # the player acted as the computer took over: back
                    self.covered = False
                # An act the server took as "I am back" (not as a move) is asked for again.
                self._awaiting = None
                self._taking_over = None

    def _on_said(self, m: JsonObject) -> None:
        phrase = m.get("phrase")
        if phrase in P.PHRASES:
            self.said.append((as_int(m["seat"]), phrase))

    def _on_over(self, m: JsonObject) -> None:
        self.record_path = as_str(m.get("record"))

    def _on_storage(self, m: JsonObject) -> None:
        self.storage_paused = m.get("ok") is False


def _never_legal(code: str | None) -> JsonObject | None:
    """A play no rules allow, on the wire: the card ``code`` played and naming itself in the
    play's list of cards (a card taking itself), by the declared play (game.rules.base.PLAY_KIND
    as the games declare it); None when there is no card or no such list."""
    play = P.wire_decisions().get(PLAY_KIND)
    names = [f.name for f in play.fields if f.type == "cards"] if play is not None else []
    if code is None or play is None or not names:
        return None
    played = card(code)
    return play.to_wire(Action.make(PLAY_KIND, played, **{names[0]: (played,)}))


def _plain(ev: Event) -> Event:
    """An event without the mark of who made the decision (the client adds it)."""
    return {k: v for k, v in ev.items() if k != "by"} if "by" in ev else ev


def _config_of(rules: GameRules) -> tuple:
    return (rules.game_id, rules.deck.id, rules.players, dict(rules.options))


# ------------------------------------------------------------------------------ making a table
def create_table(
    url: str,
    name: str,
    game: str,
    players: int,
    seats: list[str],
    *,
    deck: str | None = None,
    options: dict | None = None,
    pause_seconds: int = 60,
    ai_takes_over: bool = True,
    timeout: float = 10.0,
) -> dict:
    """Make a table on the server at ``url``: the ``created`` reply (``code``, ``host_token``,
    ``tokens`` per friend's seat as {"0": token, …}). The creator is not seated by this.
    ValueError (one line: the server's message) when the server refuses, OSError-like
    ConnectionError when it cannot be reached in ``timeout`` seconds."""
    ws_url, _ = parse_address(url)
    create: JsonObject = {
        "type": "create",
        "game": game,
        "deck": deck,
        "players": players,
        "options": dict(options or {}),
        "seats": list(seats),
        "pause_seconds": pause_seconds,
        "ai_takes_over": ai_takes_over,
    }
    P.check_message(create)  # ProtocolError (a ValueError) before anything is sent
    hello = {"type": "hello", "version": P.PROTOCOL_VERSION, "name": name}
    P.check_message(hello)
    conn = Connection(ws_url, lambda: [hello, create], reconnect=False, open_timeout=min(timeout, OPEN_TIMEOUT))
    conn.start()
    deadline = time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ConnectionError(f"no answer from {ws_url} within {timeout:g} s")
            m = conn.get(timeout=left)
            if m is None:
                continue
            kind = m.get("type")
            if kind == "created":
                return m
            if kind == "error":
                raise ValueError(str(m.get("message") or m.get("code")))
            if kind == "_failed":
                raise ConnectionError(str(m.get("message")))
    finally:
        conn.close()


__all__ = ["Connection", "RemoteMatch", "RemoteSession", "check_code", "create_table", "parse_address"]
