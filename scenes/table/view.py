"""The table's declared seams: what the views read (:class:`TableView`), what the
controller and the motion may ask of the scene above them (:class:`ControllerHost`,
:class:`MotionHost`), and the seats' names in words (:class:`TableNames`).

A view function (hud, board, assist, buttons' labels) gets a :class:`TableView`: a frozen
record naming each part it may read — ``model`` (what the table shows), ``motion`` (the
sprites, the caption), ``choice`` (the human's choice, the controller's) — typed by the
read-only protocols below (no pygame here), so a reader of ``board.py`` sees that ``v.choice.selected`` is the
controller's and that nothing there writes it. The scene makes one per frame
(``TableScene.view()``); the replay viewer makes its own (scenes.replay.view).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from game.rules.base import Action, GameRules
from game.services.table_session import Capabilities, TableSession
from scenes import names
from scenes.table.model import TableModel
from scenes.table.narrate import Narrator

if TYPE_CHECKING:  # the types only: this module stays free of pygame (the controller reads it)
    from game.config_types import DeckConfig
    from scenes.scene import AppServices
    from sprites.table_draw import CardSprite
    from sprites.table_layout import TableLayout
    from sprites.tween import Smooth
    from sprites.widgets import Button


class SeatNames(Protocol):
    """Who gives the seats names of their own (a session online, a watched table's lobby)."""

    @property
    def capabilities(self) -> Capabilities: ...

    def seat_names(self) -> dict[int, str]: ...


class TableNames:
    """The seats, teams and cards in the player's language; friends online by their own
    names (when the session's ``capabilities.given_names``; the viewer is always "You")."""

    def __init__(
        self,
        app: AppServices,
        rules: GameRules,
        human: int | None,
        session: SeatNames | None = None,
        fix: Callable[[dict[int, str]], dict[int, str]] | None = None,
    ):
        self.app = app
        self.rules = rules
        #: Whose eyes the names are from ("You"); None: nobody's ("Player 1", "Team 2").
        self.human = human
        self.session = session
        #: Completes the given names (an online table names its computer seats too).
        self.fix = fix

    def t(self, key: str, **params: object) -> str:
        return self.app.t(key, **params)

    @property
    def lang(self) -> str:
        return self.app.language

    def given(self) -> dict[int, str]:
        """Friends' own names, by seat (not the viewer's)."""
        s = self.session
        if s is None or not s.capabilities.given_names:
            return {}
        given = s.seat_names()
        if self.fix is not None:
            given = self.fix(given)
        return {k: v for k, v in given.items() if k != self.human}

    def seat_name(self, seat: int, subject: bool = False) -> str:
        """The seat's label; ``subject``: as a sentence's subject ("Il compagno sta pensando…")."""
        given = self.given().get(seat)
        if given:
            return given
        return names.seat_name(self.t, seat, self.human, self.rules.players, subject, self.team_of)

    def rating(self, seat: int) -> str:
        """The seat's rating for its plate at a club table ("1000?"), else "": shown beside
        the name, never part of it (the names go into sentences)."""
        ratings = getattr(self.session, "seat_ratings", None)
        text = ratings().get(seat) if callable(ratings) else None
        return text if isinstance(text, str) else ""

    def team_of(self, seat: int) -> int | None:
        """The seat's team as the viewer knows it (the rules' score column; a view of a
        game whose partner is hidden may answer None until it is revealed)."""
        return self.rules.team_of(seat)

    def team_name(self, team: int) -> str:
        if not names.partnered(
            self.rules.players, self.rules.team_of
        ):  # a team is a seat: a friend online by their name
            return self.seat_name(team)
        return names.team_name(self.t, team, self.human, self.rules.players, team_of=self.rules.team_of)

    def card_name(self, code: str) -> str:
        return names.card_name(self.t, self.rules.deck, self.lang, code)


class Glowing(Protocol):
    """A seat's turn glow as the plates read it (0…1)."""

    @property
    def value(self) -> float: ...


class ChoiceState(Protocol):
    """The human's choice as the views read it (scenes.table.controller.TableController)."""

    @property
    def cursor(self) -> int: ...
    @property
    def selected(self) -> str | None: ...
    @property
    def mode(self) -> str | None: ...
    @property
    def cands(self) -> list[Action]: ...
    @property
    def cand_i(self) -> int: ...
    @property
    def built(self) -> list[str]: ...
    @property
    def toggled(self) -> bool: ...
    @property
    def confirming(self) -> str | None: ...
    @property
    def spectator(self) -> bool: ...
    @property
    def can_act(self) -> bool: ...
    @property
    def suggesting(self) -> bool: ...

    def legal(self) -> list[Action]: ...
    def candidates_for(self, code: str) -> list[Action]: ...
    def current_suggestion(self) -> Any: ...


class MotionState(Protocol):
    """The animation as the views read it (scenes.table.motion.TableMotion)."""

    @property
    def sprites(self) -> Mapping[str, CardSprite]: ...
    @property
    def backs(self) -> Mapping[int, list[str]]: ...
    @property
    def lifts(self) -> Mapping[str, Smooth]: ...
    @property
    def idle(self) -> bool: ...
    @property
    def waiting(self) -> bool: ...
    @property
    def caption(self) -> str | None: ...
    @property
    def caption_age(self) -> float: ...
    @property
    def narrator(self) -> Narrator | None: ...


class NoChoice:
    """No one chooses here (the replay viewer's table): nothing to act on."""

    cursor, selected, mode, cand_i, confirming = 0, None, None, 0, None
    cands: list[Action] = []
    built: list[str] = []
    toggled = spectator = can_act = suggesting = False

    def legal(self) -> list[Action]:
        return []

    def candidates_for(self, code: str) -> list[Action]:
        return []

    def current_suggestion(self) -> object:
        return None


@dataclass(frozen=True)
class TableView:
    """One frame of the table, for the views (see the module). ``app`` gives the settings,
    the messages and the audio; ``names`` the words for seats and cards."""

    app: AppServices
    rules: GameRules
    layout: TableLayout
    session: TableSession
    names: TableNames
    model: TableModel
    motion: MotionState
    choice: ChoiceState
    #: The seat the table is seen from (seat 0 when all seats are the computer's).
    human: int
    time: float = 0.0
    alpha: float = 1.0
    #: Per seat, how much its plate is lit (``.value``).
    active_glow: Mapping[int, Glowing] = field(default_factory=dict)
    hover_code: str | None = None
    #: The refusal's banner being shown: (text, its tween), or None.
    refusal: tuple[str, object] | None = None
    #: The decision buttons by name (the suggestion outlines one).
    buttons: Mapping[str, Button] = field(default_factory=dict)
    #: The caption's line is taken by the table's help (a suggestion, a question).
    caption_hidden: bool = False

    # ---- the rules' facts the views name often
    @property
    def deck(self) -> DeckConfig:
        return self.rules.deck

    @property
    def game(self) -> str:
        return self.rules.game_id

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def teams(self) -> int:
        return self.rules.teams

    @property
    def human_team(self) -> int:
        return self.rules.team_of(self.human)

    @property
    def capture_game(self) -> bool:
        return self.rules.is_capture_game

    @property
    def lang(self) -> str:
        return self.app.language

    def t(self, key: str, **params: object) -> str:
        return self.app.t(key, **params)


class ControllerHost(Protocol):
    """What the controller asks of the table above it: the parts it reads (replaced when a
    rewound session is redrawn) and four calls."""

    @property
    def model(self) -> TableModel: ...
    @property
    def motion(self) -> Any: ...  # scenes.table.motion.TableMotion

    def refused(self, text: str) -> None:
        """Show the rules' refusal (a banner over the hand, and a click)."""

    def accepted(self) -> None:
        """A decision went through: the refusal's banner goes."""

    def asked_toggle(self) -> None:
        """The toggle's question (declare the marriage?) is asked: place its two buttons over the chosen card."""

    def redraw(self) -> None:
        """The session was rewound under the table: show its position from the record."""


class MotionHost(Protocol):
    """What the animation asks of the controller as it shows the events."""

    @property
    def spectator(self) -> bool: ...

    def clear_choice(self) -> None:
        """An event is being shown: any half-made choice is dropped."""

    def new_deal(self) -> None:
        """A deal begins: the cursor goes back to the first card."""

    def show_results(self, deal_end: dict, match_end: dict | None) -> bool:
        """The deal is over: open the results screen; False when none could be opened."""


__all__ = ["TableNames", "TableView", "ChoiceState", "MotionState", "NoChoice", "ControllerHost", "MotionHost"]
