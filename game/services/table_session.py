"""What the table asks of a match: the :class:`TableSession` protocol, and the
:class:`Capabilities` record that says which of the table's offers a session supports.

Three kinds of session stand behind a table: the local :class:`game.services.session.Session` (bots in
a worker thread, saved after every batch), the online
:class:`game.online.client.client.RemoteSession` (the server decides, keeps the record and sends
the seat's redacted events) and :class:`RecordSession` (a finished record shown by the
replay viewer and the story panels: nothing to decide). The table never asks which kind it
has: it reads ``session.capabilities`` (undo, suggest, save …) and calls the protocol.

Pure Python: no pygame here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, NoReturn, Protocol, runtime_checkable

from game.rules.base import Action, Event, GameRules


@dataclass(frozen=True)
class Capabilities:
    """What a table may offer with this session; each field names who reads it."""

    #: Ctrl+Z and the Undo button take back a move (the controller's ``take_back``).
    undo: bool = False
    #: G and the Suggest button show the normal level's move (``suggest``).
    suggest: bool = False
    #: The match is saved after every batch and resumed from the menu; False: someone else
    #: keeps it (the server, for an online seat) — the pause overlay says so.
    save: bool = False
    #: The finished match counts in the statistics.
    statistics: bool = False
    #: The finished match is kept for Replays; the results screen offers to watch it again.
    replays: bool = False
    #: Quick messages (Q, the Messages button) and their bubbles.
    chat: bool = False
    #: Events, turns, refusals and pauses arrive whenever they come: polled every tick,
    #: also during the player's turn (the online table's extras).
    streamed: bool = False
    #: Open hands practice may show the other hands (they are known here, not hidden).
    open_hands: bool = False
    #: The players' own names replace the table's words for the seats (``seat_names()``).
    given_names: bool = False
    #: What the match-over panel's first button does: "rematch" (the same game again, new
    #: cards) or "another_table" (back to hosting or joining one).
    again: Literal["rematch", "another_table"] = "rematch"


#: A match played here against the computer.
LOCAL = Capabilities(undo=True, suggest=True, save=True, statistics=True, replays=True, open_hands=True)
#: A seat at a table on a server.
ONLINE = Capabilities(chat=True, streamed=True, given_names=True, again="another_table")
#: A record being shown: nothing to decide, keep or send.
RECORD = Capabilities()


class TableMatch(Protocol):
    """What the table reads of ``session.match``: the local :class:`game.match.Match`, the
    online seat's :class:`game.online.client.remote_match.RemoteMatch` or a record's events."""

    @property
    def events(self) -> list[Event]:
        """The record so far (for a seat online: what the seat was sent)."""

    @property
    def decisions(self) -> Sequence[object]:
        """One entry per decision made (the table reads their count)."""

    @property
    def deal_start(self) -> int:
        """How many decisions were made before the current deal."""

    @property
    def totals(self) -> list[int]: ...

    @property
    def winner(self) -> int | None: ...

    @property
    def over(self) -> bool: ...

    @property
    def state(self) -> object:
        """The deal's position, or None where it is not known here (online, a record)."""


#: The words of the window's language: a locale key and its parameters → the text.
Translate = Callable[..., str]


class MatchContext(Protocol):
    """What a match is part of (a daily deal, a duplicate half: game.services.challenge). The
    table then neither saves it nor counts it in the statistics; the results screen asks it
    for its lines, and for the session that follows it (a duplicate's second half)."""

    @property
    def kind(self) -> str: ...

    def lines(self, t: Translate, session: TableSession | None = None) -> list[str]: ...

    def next_session(self, threaded: bool = True) -> TableSession | None: ...


@runtime_checkable
class TableSession(Protocol):
    """The match behind a table (see the module)."""

    capabilities: Capabilities
    rules: GameRules
    human_seat: int | None
    threaded: bool
    seed: int
    #: Counted for the statistics: decisions taken back, suggestions shown, open hands.
    undos: int
    suggestions: int
    open_hands: bool
    #: Bumped when the match was rebuilt under the table (undo, a stream shown anew).
    rewinds: int

    @property
    def match(self) -> TableMatch: ...

    @property
    def over(self) -> bool: ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def human_to_act(self) -> bool: ...

    @property
    def thinking(self) -> bool: ...

    @property
    def can_undo(self) -> bool: ...

    def start(self) -> None: ...

    def poll(self) -> bool: ...

    def take_events(self) -> list[Event]: ...

    def legal_actions(self) -> list[Action]: ...

    def submit(self, action: Action) -> list[Event]: ...

    def undo(self) -> bool: ...

    def view(self, seat: int | None = None) -> object:
        """What ``seat`` (the human's by default) may see, as the game's rules make it: handed
        to a bot's ``choose`` and the coach, which know the game's own view."""

    def seat_names(self) -> dict[int, str]: ...

    def close(self) -> None: ...


class _Record:
    """A record's ``match``: its events, nothing else known."""

    def __init__(self, rules: GameRules | None, events: list[Event]):
        self.events = events
        self.decisions: list[object] = []
        self.deal_start = 0
        self.totals = list(rules.initial_totals()) if rules is not None else []
        self.winner: int | None = None
        self.over = True
        self.state: object = None


class RecordSession:
    """A record seen from ``seat``'s chair (the replay viewer, the story panels over it):
    the protocol with nothing to act on."""

    capabilities = RECORD
    threaded = False
    seed = 0
    undos = 0
    suggestions = 0
    open_hands = False
    rewinds = 0
    over = True
    to_act: int | None = None
    human_to_act = False
    thinking = False
    can_undo = False

    def __init__(self, rules: GameRules, seat: int | None, events: list[Event] | None = None):
        self.rules = rules
        self.human_seat = seat
        self.match = _Record(rules, list(events or []))

    def start(self) -> None:
        """Nothing to start: the record is what it is."""

    def poll(self) -> bool:
        return False

    def take_events(self) -> list[Event]:
        return []

    def legal_actions(self) -> list[Action]:
        return []

    def submit(self, action: Action) -> list[Event]:
        raise RuntimeError("a record takes no decisions")

    def undo(self) -> bool:
        return False

    def view(self, seat: int | None = None) -> NoReturn:
        raise NotImplementedError("a record has no position to search")

    def seat_names(self) -> dict[int, str]:
        return {}

    def close(self) -> None:
        """Nothing runs."""


__all__ = [
    "Capabilities",
    "LOCAL",
    "MatchContext",
    "ONLINE",
    "RECORD",
    "RecordSession",
    "TableMatch",
    "TableSession",
    "Translate",
]
