"""A match as the window plays it: one human seat (or none), bots in the others.

Bots think in a worker thread so the window keeps drawing; the scene calls :meth:`poll`
every tick, takes the produced events with :meth:`take_events` to animate them, and submits
the human's choice with :meth:`submit`. Pure Python: no pygame here.

A session is replayable: the rules, the seed and the match's decisions (``decisions``: every
(seat, Action) so far) rebuild it at any decision (:meth:`rebuild`, :meth:`truncate_to`). The
bots draw their randomness per decision from the seed, their seat and the decision's number
(game.ai.base.BaseBot.begin_decision), so a rebuilt session's bots play on exactly as the
original's would have — the base of resume, undo (:meth:`undo`), replays and online tables.

A session is saved as its record (the events so far) and resumed by walking the record with
the one replay (game.replay.follow) through a fresh match with the same seed: same cards, same
scores, same seat to act.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, cast

from game.ai.bots import make_bot
from game.match import Bot, Match
from game.replay import ReplayError, follow
from game.rules.base import Action, Event, GameRules
from game.rulesets import make_rules
from game.services.table_session import LOCAL, Capabilities, MatchContext

if TYPE_CHECKING:
    from game.services.save_format import SaveData

#: The bots of every seat (None at the human's) for a match's rules: the daily deal's seeded
#: house bots, instead of the session's own levels.
BotFactory = Callable[[GameRules], Sequence[Bot | None]]

#: Seconds to wait for an abandoned search (undo, rewind) to notice its stop flag before
#: the session gives up on reusing its bots and makes fresh ones.
ABANDON_WAIT = 5.0


class _Job:
    """One bot decision being thought in a worker thread; ``result`` is an Action or the
    exception the bot raised."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.result: Action | BaseException | None = None
        self.thread: threading.Thread | None = None


class Session:
    """A :class:`game.services.table_session.TableSession` played here: every offer of the table."""

    capabilities: Capabilities = LOCAL
    #: A duplicate deal's half (1 or 2), set by game.services.challenge on its two sessions;
    #: 1 for every other match.
    half: int = 1

    def __init__(
        self,
        rules: GameRules,
        seed: int,
        human_seat: int | None = 0,
        bot_name: str = "greedy",
        partner_bot: str | None = None,
        threaded: bool = True,
        deals: int | None = None,
        bot_factory: BotFactory | None = None,
    ):
        self.rules = rules
        #: Only the first ``deals`` deals are played (a daily deal, a duplicate half), or None.
        self.deals = deals
        #: ``bot_factory(rules)`` → the bots of every seat (None at the human's), instead of
        #: ``bot_name``'s: the daily deal's seeded house bots.
        self.bot_factory = bot_factory
        #: What the match is part of (game.services.challenge: a daily deal, a duplicate half), or None
        #: for an ordinary match: the table then neither saves it nor counts it in the statistics.
        self.context: MatchContext | None = None
        self.seed = seed
        self.human_seat = human_seat
        self.bot_name = bot_name
        self.partner_bot = partner_bot or bot_name
        self.threaded = threaded
        self.match = Match(rules, seed, self._make_bots(), deals)
        self._pending: deque[Event] = deque()
        self._job: _Job | None = None
        self._stop = threading.Event()
        #: Decisions taken back so far (an undone match counts as practice: a taken-back move
        #: is no fair result).
        self.undos = 0
        #: Decisions at which a move was suggested to the human (counted in the statistics).
        self.suggestions = 0
        #: The computer's hands were shown face up (open hands practice): practice, since the
        #: player saw what a fair match hides.
        self.open_hands = False
        #: Bumped whenever the match is rebuilt under the session (undo, truncate_to): the
        #: table then redraws from ``match.events`` (the events of a rebuild are not pending).
        self.rewinds = 0

    def _make_bots(self) -> list[Bot | None]:
        rules, human = self.rules, self.human_seat
        if self.bot_factory is not None:
            return list(self.bot_factory(rules))
        bots: list[Bot | None] = []
        for seat in range(rules.players):
            if seat == human:
                bots.append(None)
            else:
                partner = human is not None and seat in rules.partners_of(human)
                bots.append(make_bot(self.partner_bot if partner else self.bot_name, rules, seat, self.seed))
        return bots

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def new(
        cls,
        game: str,
        deck: str | None,
        players: int | None,
        options: Mapping[str, object] | None,
        seed: int,
        human_seat: int | None = 0,
        bot_name: str = "greedy",
        threaded: bool = True,
    ) -> Session:
        return cls(make_rules(game, deck, players, options), seed, human_seat, bot_name, threaded=threaded)

    @classmethod
    def rebuild(
        cls,
        rules: GameRules,
        seed: int,
        decisions: list[tuple[int, Action]],
        human_seat: int | None = 0,
        bot_name: str = "greedy",
        partner_bot: str | None = None,
        threaded: bool = True,
    ) -> Session:
        """The session as it stood after ``decisions`` (a prefix of some match's decisions with
        this seed). Its events so far are in ``match.events`` (none pending, as after a resume).
        Raises IllegalAction or ValueError when the decisions do not replay."""
        s = cls(rules, seed, human_seat, bot_name, partner_bot, threaded=threaded)
        s.match = Match.rebuild(rules, seed, decisions, s.match.bots, s.deals)
        return s

    def start(self) -> None:
        self._pending.extend(self.match.start())

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def to_act(self) -> int | None:
        return self.match.to_act

    @property
    def human_to_act(self) -> bool:
        return self.human_seat is not None and self.to_act == self.human_seat and not self.thinking

    @property
    def thinking(self) -> bool:
        return self._job is not None

    @property
    def worker(self) -> threading.Thread | None:
        """The thread a bot is thinking in, None when none is."""
        job = self._job
        return None if job is None else job.thread

    @property
    def decisions(self) -> list[tuple[int, Action]]:
        """Every decision of the match so far, (seat, Action), in order (read-only)."""
        return list(self.match.decisions)

    def close(self) -> None:
        """Abandon any search in progress (the window is closing). The bot thread is a
        daemon and its search polls ``should_stop``, so waiting briefly is enough."""
        self._stop.set()
        job = self._job
        if job is not None and job.thread is not None:
            job.thread.join(timeout=0.2)

    # ------------------------------------------------------------------ the tick
    def poll(self) -> bool:
        """Advance bots: start a search when a bot is to act, apply its result when ready.
        Returns True when new events were produced."""
        if self.match.over or self._stop.is_set():
            return False
        job = self._job
        if job is not None:
            if job.thread is not None and job.thread.is_alive():
                return False
            self._job = None
            result = job.result
            if isinstance(result, BaseException):
                raise result
            if result is None:  # think() sets an Action or the exception before it ends
                raise RuntimeError("the bot's thread ended without a move")
            self._pending.extend(self.match.play(result))
            return True
        turn = self.match.bot_turn()
        if turn is None:
            return False
        bot, view, legal = turn
        if not self.threaded:
            self._pending.extend(self.match.play(bot.choose(view, legal)))
            return True
        job = _Job()
        session_stop, job_stop = self._stop.is_set, job.stop.is_set

        def stop() -> bool:
            return session_stop() or job_stop()

        def think() -> None:
            try:
                job.result = bot.choose(view, legal, should_stop=stop)
            except BaseException as e:  # surfaced on the main thread by poll()
                job.result = e

        job.thread = threading.Thread(target=think, name="cardavia-bot", daemon=True)
        self._job = job
        job.thread.start()
        return False

    def take_events(self) -> list[Event]:
        out = list(self._pending)
        self._pending.clear()
        return out

    def seat_names(self) -> dict[int, str]:
        """No names but the table's own words for the seats."""
        return {}

    # ------------------------------------------------------------------ the human
    def view(self, seat: int | None = None) -> object:
        seat = self.human_seat if seat is None else seat
        if seat is None:  # as the rules' view raised for a seat of None
            raise TypeError("a table without a human seat has no view of its own: name the seat")
        return self.match.view(seat)

    def legal_actions(self) -> list[Action]:
        return self.match.legal_actions()

    def submit(self, action: Action) -> list[Event]:
        """The human's decision. Raises IllegalAction (with the rule) when the rules refuse it."""
        if not self.human_to_act:
            raise RuntimeError("it is not the human's turn")
        events = self.match.play(action)  # the rules validate it first: nothing changes on a refusal
        self._pending.extend(events)
        return events

    # ------------------------------------------------------------------ rewinding
    def undo_point(self) -> int | None:
        """Where :meth:`undo` would rewind to: the index of the human's last decision in the
        current deal, None when there is none (no human seat, the match over, or the human
        has not decided since the last deal was scored)."""
        if self.human_seat is None or self.match.over:
            return None
        decisions = self.match.decisions
        for i in range(len(decisions) - 1, self.match.deal_start - 1, -1):
            if decisions[i][0] == self.human_seat:
                return i
        return None

    @property
    def can_undo(self) -> bool:
        return self.undo_point() is not None

    def undo(self) -> bool:
        """Take back the human's last decision and the bots' decisions after it, within the
        current deal (a scored deal stands). A search in progress is abandoned. Returns
        whether anything was taken back; the table redraws from ``match.events``."""
        k = self.undo_point()
        if k is None:
            return False
        self.truncate_to(k)
        self.undos += 1
        return True

    def truncate_to(self, k: int) -> None:
        """Rebuild the match as it stood before decision ``k`` (0 ≤ k ≤ decisions made): the
        same seed replayed through the first k decisions, the bots kept (their randomness is
        per decision). Nothing is pending afterwards; ``rewinds`` is bumped."""
        n = len(self.match.decisions)
        if not 0 <= k <= n:
            raise ValueError(f"cannot rewind to decision {k}: the match has {n}")
        bots = self.match.bots
        if not self._abandon_search():
            bots = self._make_bots()  # the old search still runs on the old bots: do not share them
        self.match = Match.rebuild(self.rules, self.seed, self.match.decisions[:k], bots, self.deals)
        self._pending.clear()
        self.rewinds += 1

    def _abandon_search(self) -> bool:
        """Stop the search in progress, if any; True when no thread still runs on the bots."""
        job, self._job = self._job, None
        if job is None or job.thread is None:
            return True
        job.stop.set()
        job.thread.join(timeout=ABANDON_WAIT)
        return not job.thread.is_alive()

    # ------------------------------------------------------------------ save and resume
    def to_save(self) -> SaveData:
        """Everything needed to resume: who plays, and the record so far."""
        return {
            "game": self.rules.game_id,
            "deck": self.rules.deck.id,
            "players": self.rules.players,
            "options": dict(self.rules.options),
            "seed": self.seed,
            "human_seat": self.human_seat,
            "bot": self.bot_name,
            "partner_bot": self.partner_bot,
            "undos": self.undos,
            "suggestions": self.suggestions,
            "open_hands": self.open_hands,
            "events": list(self.match.events),
        }

    @classmethod
    def from_save(cls, data: Mapping[str, object], threaded: bool = True) -> Session:
        """Rebuild a session by replaying the saved decisions. Raises ValueError on a bad save
        (one naming a seat, deck, bot or option that cannot be is refused before replaying)."""
        from game.services.save_format import SAVE_VERSION, check_save

        problem = check_save({"version": SAVE_VERSION, **data}) if isinstance(data, dict) else "not an object"
        if problem:
            raise ValueError(f"the save is not usable ({problem})")
        save = cast("SaveData", data)  # check_save has seen every field's type
        try:
            rules = make_rules(save["game"], save["deck"], save["players"], save["options"])
            s = cls(
                rules,
                int(save["seed"]),
                save.get("human_seat"),
                save.get("bot", "greedy"),
                save.get("partner_bot"),
                threaded=threaded,
            )
            s.undos = int(save.get("undos", 0))
            s.suggestions = int(save.get("suggestions", 0))
            s.open_hands = save.get("open_hands") is True
            events = save["events"]
            s.match.start()
            s.match.keep_version(events[0])  # a save written by another version resumes as written
            i = len(s.match.events)
            if s.match.events != events[:i]:
                raise ValueError("the saved match does not start like this seed deals it")
            try:
                follow(s.match, events)  # the record's decisions, through the one replay
            except ReplayError as e:
                raise ValueError(f"the saved match is out of step at event {e.line}: {e}") from None
            if s.match.events[: len(events)] != events:
                raise ValueError("the saved match does not replay to the same position")
        except (KeyError, TypeError, IndexError, AttributeError, OverflowError) as e:
            raise ValueError(f"the save is incomplete ({e})") from None
        return s
