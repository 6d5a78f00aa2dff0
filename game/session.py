"""A match as the window plays it: one human seat (or none), bots in the others.

Bots think in a worker thread so the window keeps drawing; the scene calls :meth:`poll`
every tick, takes the produced events with :meth:`take_events` to animate them, and submits
the human's choice with :meth:`submit`. Pure Python: no pygame here.

A session can be saved as its record (the events so far) and resumed by replaying the
recorded decisions through a fresh match with the same seed: same cards, same scores, same
seat to act.
"""
from __future__ import annotations

import threading
from collections import deque
from typing import Any

from game.ai import make_bot
from game.match import Match
from game.rules import make_rules
from game.rules.base import Action, Event, GameRules

DECISIONS = ("play", "exchange", "marriage", "close")


def _choose(bot: Any, view: Any, legal: list[Action], should_stop: Any) -> Action:
    """Ask the bot; ``should_stop`` lets a closing window end a search at once."""
    return bot.choose(view, legal, should_stop=should_stop)


class Session:
    def __init__(self, rules: GameRules, seed: int, human_seat: int | None = 0,
                 bot_name: str = "greedy", partner_bot: str | None = None, threaded: bool = True):
        self.rules = rules
        self.seed = seed
        self.human_seat = human_seat
        self.bot_name = bot_name
        self.partner_bot = partner_bot or bot_name
        self.threaded = threaded
        bots = []
        for seat in range(rules.players):
            if seat == human_seat:
                bots.append(None)
            else:
                partner = human_seat is not None and rules.players == 4 and rules.team_of(seat) == rules.team_of(human_seat)
                bots.append(make_bot(self.partner_bot if partner else bot_name, rules, seat, seed))
        self.match = Match(rules, seed, bots)
        self._pending: deque[Event] = deque()
        self._thread: threading.Thread | None = None
        self._result: Action | BaseException | None = None
        self._stop = threading.Event()

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def new(cls, game: str, deck: str | None, players: int, options: dict | None, seed: int,
            human_seat: int | None = 0, bot_name: str = "greedy", threaded: bool = True) -> Session:
        return cls(make_rules(game, deck, players, options), seed, human_seat, bot_name, threaded=threaded)

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
        return self._thread is not None

    def close(self) -> None:
        """Abandon any search in progress (the window is closing). The bot thread is a
        daemon and its search polls ``should_stop``, so waiting briefly is enough."""
        self._stop.set()
        t = self._thread
        if t is not None:
            t.join(timeout=0.2)

    # ------------------------------------------------------------------ the tick
    def poll(self) -> bool:
        """Advance bots: start a search when a bot is to act, apply its result when ready.
        Returns True when new events were produced."""
        if self.match.over or self._stop.is_set():
            return False
        if self._thread is not None:
            if self._thread.is_alive():
                return False
            self._thread = None
            result, self._result = self._result, None
            if isinstance(result, BaseException):
                raise result
            self._pending.extend(self.match.play(result))
            return True
        bot = self.match.bot_to_act()
        if bot is None:
            return False
        view = self.match.view(self.match.to_act)
        legal = self.match.legal_actions()
        if not self.threaded:
            self._pending.extend(self.match.play(bot.choose(view, legal)))
            return True

        stop = self._stop.is_set

        def think() -> None:
            try:
                self._result = _choose(bot, view, legal, stop)
            except BaseException as e:  # surfaced on the main thread by poll()
                self._result = e

        self._thread = threading.Thread(target=think, name="cardavia-bot", daemon=True)
        self._thread.start()
        return False

    def take_events(self) -> list[Event]:
        out = list(self._pending)
        self._pending.clear()
        return out

    # ------------------------------------------------------------------ the human
    def view(self, seat: int | None = None) -> Any:
        return self.match.view(self.human_seat if seat is None else seat)

    def legal_actions(self) -> list[Action]:
        return self.match.legal_actions()

    def submit(self, action: Action) -> list[Event]:
        """The human's decision. Raises IllegalAction (with the rule) when the rules refuse it."""
        if not self.human_to_act:
            raise RuntimeError("it is not the human's turn")
        self.rules.validate(self.match.state, action)
        events = self.match.play(action)
        self._pending.extend(events)
        return events

    # ------------------------------------------------------------------ save and resume
    def to_save(self) -> dict:
        """Everything needed to resume: who plays, and the record so far."""
        return {
            "game": self.rules.game_id, "deck": self.rules.deck.id, "players": self.rules.players,
            "options": dict(self.rules.options), "seed": self.seed, "human_seat": self.human_seat,
            "bot": self.bot_name, "partner_bot": self.partner_bot, "events": list(self.match.events),
        }

    @classmethod
    def from_save(cls, data: dict, threaded: bool = True) -> Session:
        """Rebuild a session by replaying the saved decisions. Raises ValueError on a bad save."""
        try:
            rules = make_rules(data["game"], data["deck"], data["players"], data["options"])
            s = cls(rules, int(data["seed"]), data.get("human_seat"), data.get("bot", "greedy"),
                    data.get("partner_bot"), threaded=threaded)
            events = data["events"]
            s.match.start()
            i = len(s.match.events)
            if s.match.events != events[:i]:
                raise ValueError("the saved match does not start like this seed deals it")
            while i < len(events):
                if events[i].get("event") not in DECISIONS:
                    raise ValueError(f"the saved match is out of step at event {i + 1}")
                produced = s.match.play(rules.action_from_record(events, i))
                i += len(produced)
            if s.match.events[:len(events)] != events:
                raise ValueError("the saved match does not replay to the same position")
        except (KeyError, TypeError, IndexError) as e:
            raise ValueError(f"the save is incomplete ({e})") from None
        return s

