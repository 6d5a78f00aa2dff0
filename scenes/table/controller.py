"""The table's controller: the session (bots thinking, the human's decisions), the save after
every batch, the statistics at the end, and the human's choice as a small state machine.

The choice: point at a hand card (``point_at``, the keyboard) and play it (``confirm``:
Enter), or click it once to choose it (``pick``, the mouse) and again to play it (``confirm``
again) — one click never plays. When the card can be played in several ways the controller
asks how — ``mode`` "capture" (several captures: ``cycle`` through them, or
``click_table_card`` to build the set, ``confirm`` to take it, ``place_only`` to take
nothing) or "toggle" (declare with it — a marriage — or just play: ``choose``). Every
decision goes to the session; a refusal comes back as the rule's message and changes nothing.

The decisions beyond playing a card are the game's declared ones (its rules'
``decision_kinds``: game.rules.vocabulary.DecisionKind), never named here: one declared
``confirm`` (closing the stock, which cannot be taken back) is asked first
(``ask_decision``; ``confirming`` names it) and taken only on a second request or
``confirm``; one declared as a ``toggle`` (a declaration made with the card led) is switched
on for the next card (``toggle``), and says why when there is nothing to declare.

Help against the computer: ``suggest`` shows the normal level's choice
(:mod:`game.ai.suggest`, worked out in a worker thread when the session is threaded) and
``take_back`` undoes the human's last decision of the deal with the computer's plays after it
(``Session.undo``); the statistics count such matches as suggested, or as practice.

No pygame here: the scene maps keys and clicks to these operations; the ``host``
(scenes.table.view.ControllerHost: the scene) gives the model and the animation, shows
refusals (``refused``) and redraws a rewound session (``redraw``). The controller is the
animation's host in turn (scenes.table.view.MotionHost): an event shown drops a half-made
choice, and a deal's end opens the results screen (``show_results``): navigation is the
controller's, not the animation's.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING

from game.rules.base import Action, IllegalAction, play
from game.rules.capture import captured
from game.rules.vocabulary import DecisionKind
from scenes.table.chooser import Chooser
from scenes.table.keeping import MatchKeeping
from scenes.table.phrases import refusal_words

if TYPE_CHECKING:
    from game.ai.suggest import Suggestion
    from game.rules.base import GameRules
    from game.services.table_session import TableSession
    from scenes.scene import AppServices
    from scenes.table.view import ControllerHost

#: The choice's question while a toggle (a marriage) is asked: declare it or just play.
TOGGLE_MODE = "toggle"


def decision_kinds(rules: object) -> tuple[DecisionKind, ...]:
    """The decisions ``rules`` declare (their ``decision_kinds``)."""
    kinds = getattr(rules, "decision_kinds", None)
    return tuple(kinds) if kinds else ()


def own_decisions(rules: object) -> list[DecisionKind]:
    """The decisions with their own key or button beyond playing a card (closing the stock,
    exchanging the trump), then the toggles (a marriage declared with the lead)."""
    kinds = [k for k in decision_kinds(rules) if k.key or k.label]
    return [k for k in kinds if not k.toggle and not k.plays_card] + [k for k in kinds if k.toggle]


def declared_toggle(rules: object) -> str:
    """The payload field ``rules`` offer as a toggle with the card led ("" for none): what
    the table's words for it are named after (``table.choose_<toggle>``)."""
    return next((k.toggle for k in decision_kinds(rules) if k.toggle), "")


def declares_toggle(action: Action, kind: DecisionKind) -> bool:
    """The action is the toggle's declaration (a lead declaring its marriage)."""
    return bool(action.arg(kind.toggle, False))


class _Hint:
    """A suggestion being worked out in a worker thread, for the decision ``key``."""

    def __init__(self, key: tuple[int, int]):
        self.key = key
        self.stop = threading.Event()
        self.result: Suggestion | BaseException | None = None  # or the exception the search raised
        self.thread: threading.Thread | None = None


class TableController(MatchKeeping):
    """The table's session and the human's choice; the match's save, statistics and replay
    are its base's (scenes.table.keeping)."""

    def __init__(self, host: ControllerHost, app: AppServices, session: TableSession):
        super().__init__(app, session)
        self.host = host
        #: The game's decisions beyond playing a card, by name; its toggle (a marriage
        #: declared with the card led), None when it has none.
        self.kinds = {k.name: k for k in own_decisions(self.rules)}
        self.toggle_kind = next((k for k in self.kinds.values() if k.toggle), None)
        #: The match-over panel is up (once the last deal's results were seen).
        self.final_panel = False
        # ---- the human's choice
        self.cursor = 0
        self.selected: str | None = None
        self.mode: str | None = None  # None, "capture" or TOGGLE_MODE
        self.cands: list[Action] = []
        self.cand_i = 0
        self.built: list[str] = []
        #: The toggle is on: the next card led declares it.
        self.toggled = False
        #: The decision asked to be confirmed (closing the stock), None when none is.
        self.confirming: str | None = None
        #: A decision with a payload being chosen (a bid's rank and points), None when none is.
        self.chooser: Chooser | None = None
        self.submitted: list[Action] = []  # every action handed to the session (tests)
        # ---- help: the suggestion shown (game.ai.suggest.Suggestion) and the one being worked out
        self.suggestion: Suggestion | None = None
        self._suggestion_key: tuple[int, int] | None = None
        self._hint: _Hint | None = None
        self._suggested_at: set[tuple[int, int]] = set()

    @property
    def hand(self) -> list[str]:
        return self.host.model.hand

    @property
    def can_act(self) -> bool:
        s = self.session
        return self.host.motion.idle and not s.over and s.human_to_act and not self.final_panel

    def legal(self) -> list[Action]:
        return self.session.legal_actions() if self.can_act else []

    # ================================================================== the session
    def pull(self) -> None:
        """Take the session's new events into the animation; save; settle the end."""
        events = self.session.take_events()
        if not events:
            return
        try:
            from audio.cues import sounds_for_batch

            cues = sounds_for_batch(
                events, self.rules.game_id, None if self.spectator else self.human_team, self.rules.team_of
            )
        except Exception:  # noqa: BLE001 - sound is never worth a crash
            cues = [[] for _ in events]
        self.host.motion.feed(events, cues)
        self.save()

    def tick(self) -> None:
        """Once the animation is still: bots play, the match ends, the cursor stays in the hand."""
        self._collect_hint()
        self.note_open_hands()
        if not self.host.motion.idle or self.final_panel:
            return
        if self.session.over:
            if self.host.model.match_over and not self.host.motion.awaiting_results:
                self.final_panel = True
        elif not self.session.human_to_act:
            self.session.poll()
            self.pull()
        elif self.cursor >= len(self.hand):
            self.cursor = max(0, len(self.hand) - 1)

    def close(self) -> None:
        """Leaving the table for good: keep the match, stop any thinking bot (and suggestion)."""
        self._drop_hint()
        if not self.session.over and not self.spectator:
            self.save()
        self.session.close()

    # ================================================================== the animation's host
    def new_deal(self) -> None:
        self.cursor = 0

    def show_results(self, deal_end: dict, match_end: dict | None) -> bool:
        """The deal's results screen (the match's too, with ``match_end``); False when none
        could be opened (the table then shows a short summary and plays on)."""
        try:
            return bool(self.app.open_scene("results", session=self.session, deal_end=deal_end, match_end=match_end))
        except Exception as e:  # noqa: BLE001 - a broken results screen must not end the match
            print(f"cardavia: the results screen failed: {e!r}", file=sys.stderr)
            return False

    # ================================================================== the human's choice
    def clear_choice(self) -> None:
        self.selected = None
        self.mode = None
        self.cands = []
        self.cand_i = 0
        self.built = []
        self.confirming = None
        self.chooser = None

    def candidates_for(self, code: str) -> list[Action]:
        """The legal plays of one hand card, in the order Tab cycles them."""
        mine = [a for a in self.legal() if a.card is not None and a.card.code == code and self._plays(a)]
        if self.rules.is_capture_game:
            caps = [a for a in mine if captured(a)]
            place = [a for a in mine if not captured(a)]
            return caps + place
        return sorted(mine, key=lambda a: not self.declares(a))

    def _plays(self, action: Action) -> bool:
        """The action plays a card from the hand (not a decision with a button of its own)."""
        return action.kind not in self.kinds or bool(self.kinds[action.kind].toggle)

    def declares(self, action: Action) -> bool:
        """The play declares the toggle with its card (a marriage with the lead)."""
        tk = self.toggle_kind
        return tk is not None and declares_toggle(action, tk)

    def declaring(self, code: str) -> Action:
        """The card played declaring the toggle (refused, with the reason, when it may not)."""
        tk = self.toggle_kind
        return play(code).with_args(**{tk.toggle: True}) if tk is not None else play(code)

    def _ask_toggle(self, code: str, declare: Action, plain: Action) -> None:
        self.selected, self.mode, self.cands, self.cand_i = code, TOGGLE_MODE, [declare, plain], 0
        self.host.asked_toggle()

    def select(self, code: str) -> None:
        """Enter on the pointed-at card (the keyboard): play it at once when there is only one
        way, else ask how. (A click only chooses the card: ``pick``.)"""
        if not self.can_act or code not in self.hand:
            return
        self.cursor = self.hand.index(code)
        mine = self.candidates_for(code)
        self.clear_choice()
        if self.rules.is_capture_game:
            caps = [a for a in mine if captured(a)]
            if len(mine) == 1:
                self.submit(mine[0])
            elif not mine:
                self.submit(play(code))
            else:
                self.selected, self.mode, self.cands, self.cand_i = code, "capture", caps or mine, 0
            return
        declare = [a for a in mine if self.declares(a)]
        plain = [a for a in mine if not self.declares(a)]
        if self.toggled:
            self.submit(declare[0] if declare else self.declaring(code))
        elif declare and plain:
            self._ask_toggle(code, declare[0], plain[0])
        elif mine:
            self.submit(mine[0])
        else:
            self.submit(play(code))

    def pick(self, code: str) -> None:
        """A click on a hand card: choose it and show how it would be played, play nothing
        (a second click, or Enter, plays it: ``confirm``). A card the rules would not let
        be played now is refused at once, with the rule's reason."""
        if not self.can_act or code not in self.hand:
            return
        self.cursor = self.hand.index(code)
        mine = self.candidates_for(code)
        self.clear_choice()
        if not mine:
            self.submit(self.declaring(code) if self.toggled else play(code))  # refused: says why
            return
        if self.rules.is_capture_game:
            caps = [a for a in mine if captured(a)]
            self.selected, self.cands = code, (caps or mine) if len(mine) > 1 else mine
            self.mode = "capture" if len(mine) > 1 else None
            return
        declare = [a for a in mine if self.declares(a)]
        plain = [a for a in mine if not self.declares(a)]
        if self.toggled:
            self.selected, self.cands = code, [declare[0] if declare else self.declaring(code)]
        elif declare and plain:
            self._ask_toggle(code, declare[0], plain[0])
        else:
            self.selected, self.cands = code, [mine[0]]

    def choose(self, i: int) -> None:
        """The toggle's question: 0 declares it (the marriage), 1 just plays the card."""
        if self.mode == TOGGLE_MODE and 0 <= i < len(self.cands):
            self.submit(self.cands[i])

    def confirm(self) -> None:
        """Enter (or a second click on the chosen card): take the highlighted / built set;
        a decision waiting for its confirmation is taken."""
        if self.chooser is not None:
            action = self.chooser.action
            self.chooser = None
            if action is not None:
                self.submit(action)
            return
        if self.confirming is not None:
            kind = self.kinds.get(self.confirming)
            self.confirming = None
            if kind is not None:
                self.submit(self.action_of(kind))
            return
        if self.selected is None:
            if 0 <= self.cursor < len(self.hand):
                self.select(self.hand[self.cursor])
            return
        if self.built:
            self.submit(play(self.selected, self.built))
        elif self.cands:
            self.submit(self.cands[self.cand_i % len(self.cands)])

    def cycle(self, step: int = 1) -> None:
        if self.cands:
            self.built = []
            self.cand_i = (self.cand_i + step) % len(self.cands)

    def move_cursor(self, step: int) -> None:
        if self.can_act and self.hand:
            self.clear_choice()
            self.cursor = (self.cursor + step) % len(self.hand)

    def point_at(self, i: int) -> None:
        if self.can_act and 0 <= i < len(self.hand):
            self.clear_choice()
            self.cursor = i

    def place_only(self) -> None:
        """P / the "Place only" button / a click on the felt: put the card down, take nothing."""
        if not self.can_act:
            return
        code = self.selected or (self.hand[self.cursor] if 0 <= self.cursor < len(self.hand) else None)
        if code is not None:
            self.submit(play(code))

    def toggle(self) -> None:
        """The toggle's key or button (R: the marriage): declare with the next card led
        (again: do not). With nothing to declare now, the rules' reason is shown instead, as
        for the other decisions."""
        if self.toggle_kind is None:
            return
        if self.mode == TOGGLE_MODE:
            self.choose(0)
            return
        if not self.toggled and self.can_act and not any(self.declares(a) for a in self.legal()):
            self.explain_no_toggle()
            return
        self.toggled = not self.toggled

    def explain_no_toggle(self) -> None:
        """Why nothing can be declared now, in the rules' words: the refusal of declaring
        with each hand card, the most telling one (not leading; a King or Queen without its
        partner, the pointed-at card first; else the pointed-at card's)."""
        m = self.session.match
        if m.over or getattr(m, "state", None) is None or not self.hand:  # (online: no state here)
            return
        legal = set(self.legal())
        order = self.hand[self.cursor :] + self.hand[: self.cursor] if 0 <= self.cursor < len(self.hand) else self.hand
        refusals: list[IllegalAction] = []
        for code in order:
            action = self.declaring(code)
            if action not in legal:
                refusals.append(self.rules.explain_refusal(m.state, action))
        if not refusals:
            return
        best = next((e for e in refusals if "partner" in (e.params or {})), refusals[0])
        self.host.refused(self.refusal_text(best))

    # ================================================================== decisions beyond a card
    def action_of(self, kind: DecisionKind) -> Action:
        """The decision ``kind`` as the rules offer it now, else as asked (refused: says why)."""
        return next((a for a in self.legal() if a.kind == kind.name), Action.make(kind.name))

    def is_legal(self, kind: DecisionKind) -> bool:
        """The decision may be taken now (its button is enabled)."""
        if kind.toggle:
            return any(self.declares(a) for a in self.legal())
        return any(a.kind == kind.name for a in self.legal())

    def decide(self, name: str) -> None:
        """A decision's key or button: the toggle switched, any other asked (``ask_decision``)."""
        kind = self.kinds.get(name)
        if kind is not None and kind.toggle:
            self.toggle()
        elif kind is not None:
            self.ask_decision(name)

    def ask_decision(self, name: str) -> None:
        """A decision's key or button, such as closing the stock. One declared ``confirm``
        (it cannot be taken back) is asked first and taken on the second request (the key or
        the button again, or Enter); Esc cancels. One the rules refuse says why."""
        kind = self.kinds.get(name)
        if kind is None or kind.toggle or not self.can_act:
            return
        legal = self.legal()
        if Chooser.needed(kind, legal):
            # Its values first (a bid's rank, its points): only the legal actions' values.
            if self.chooser is not None and self.chooser.kind.name == name:
                return
            self.clear_choice()
            self.chooser = Chooser(kind, legal)
            self.app.say(self.chooser.opening_text(self.app.t, self.rules.deck, self.app.language), interrupt=True)
            return
        if kind.confirm and self.is_legal(kind):
            if self.confirming == name:
                self.confirm()
            else:
                self.clear_choice()
                self.confirming = name
            return
        self.submit(self.action_of(kind))

    def cancel(self) -> bool:
        """Esc / a right click: drop the question or the choice; False when there was none."""
        asked = (self.confirming, self.mode, self.selected, self.chooser)
        if any(x is not None for x in asked):
            self.clear_choice()
            return True
        return False

    # ================================================================== suggest a move
    def _decision_key(self) -> tuple[int, int]:
        return (len(self.session.match.decisions), self.session.rewinds)

    @property
    def suggesting(self) -> bool:
        """A suggestion is being worked out for this decision."""
        return self._hint is not None and self._hint.key == self._decision_key()

    def current_suggestion(self) -> Suggestion | None:
        """The suggestion for the decision now to be made, None when none was asked."""
        sg = self.suggestion
        if sg is None or not self.can_act or self._suggestion_key != self._decision_key():
            return None
        return sg

    def suggest(self) -> None:
        """G / the Suggest button: the normal level's choice for this decision, shown on the
        card (and chosen, so Enter or a click plays it), with its reason. Worked out in a
        worker thread when the session is threaded; counted in the statistics."""
        if not self.can_act or self.spectator or not self.caps.suggest:
            return
        key = self._decision_key()
        shown = self.current_suggestion()
        if shown is not None:
            self._show(shown)
            return
        if self.suggesting:
            return
        self._drop_hint()
        hint = _Hint(key)
        s = self.session
        # The position is read here, on the main thread; the worker only searches it.
        args = (s.rules, s.view(self.human), s.legal_actions(), self.human, s.seed, key[0])
        if not s.threaded:
            self._work(hint, args)
            self._accept(hint)
            return
        hint.thread = threading.Thread(target=self._work, args=(hint, args), name="cardavia-suggest", daemon=True)
        self._hint = hint
        hint.thread.start()

    def _work(self, hint: _Hint, args: tuple[GameRules, object, list[Action], int, int, int]) -> None:
        """Search ``suggest``'s arguments (rules, view, legal actions, seat, seed, decision)."""
        from game.ai.suggest import suggest

        try:
            hint.result = suggest(*args, should_stop=hint.stop.is_set)
        except Exception as e:  # noqa: BLE001 - surfaced on the main thread as a toast
            hint.result = e

    def _collect_hint(self) -> None:
        hint = self._hint
        if hint is None or (hint.thread is not None and hint.thread.is_alive()):
            return
        self._hint = None
        self._accept(hint)

    def _accept(self, hint: _Hint) -> None:
        result = hint.result
        if hint.key != self._decision_key() or not self.can_act:
            return  # the position moved on (a decision, an undo): the answer is stale
        if isinstance(result, BaseException):
            self.app.toast(self.app.t("suggest.failed", reason=str(result)))
            return
        if result is None or result.stopped:
            return
        self.suggestion, self._suggestion_key = result, hint.key
        if hint.key not in self._suggested_at:  # asked again at the same decision: counted once
            self._suggested_at.add(hint.key)
            self.session.suggestions += 1
            self.save()
        self._show(result)

    def _drop_hint(self) -> None:
        hint, self._hint = self._hint, None
        if hint is not None:
            hint.stop.set()

    def _show(self, suggestion: Suggestion) -> None:
        """Choose the suggested move, so that Enter (or a click on the card) plays it."""
        action = suggestion.action
        self.clear_choice()
        if action.card is None or not self._plays(action):
            # A decision of its own (closing the stock): its button is outlined, its key takes
            # it; one with values (a bid) opens its chooser on them, so Enter takes it.
            kind = self.kinds.get(action.kind)
            legal = self.legal()
            if kind is not None and Chooser.needed(kind, legal) and action in legal:
                self.chooser = Chooser(kind, legal, action)
            return
        self.toggled = False
        code = action.card.code
        self.pick(code)
        if self.selected != code:
            return
        if action in self.cands:
            self.cand_i = self.cands.index(action)
        else:
            self.mode, self.cands, self.cand_i = None, [action], 0

    # ================================================================== take back
    def can_take_back(self) -> bool:
        return (
            not self.spectator
            and not self.final_panel
            and not self.host.motion.awaiting_results
            and self.session.can_undo
        )

    def take_back(self) -> bool:
        """Ctrl+Z / the Undo button: the human's last decision and the computer's plays after
        it are taken back, until the deal is scored; the table shows the position again. The
        match then counts as practice. Refused (with the reason) when nothing can be."""
        if self.spectator or not self.caps.undo or self.final_panel or self.host.motion.awaiting_results:
            return False
        if not self.session.can_undo:
            scored = self.session.match.deal_start > 0 and not self.session.over
            self.host.refused(self.app.t("undo.scored" if scored else "undo.nothing"))
            return False
        first = self.session.undos == 0
        self._drop_hint()
        self.clear_choice()
        self.toggled = False
        if not self.session.undo():
            return False
        self.host.redraw()
        self.save()
        self.app.toast(self.app.t("undo.practice" if first else "undo.done"))
        return True

    def click_table_card(self, code: str) -> None:
        """Build a capture set by clicking table cards; a complete, unambiguous set is taken."""
        if self.selected is None or not self.rules.is_capture_game:
            return
        if code in self.built:
            self.built.remove(code)
        else:
            self.built.append(code)
        want = set(self.built)
        sets = [set(c.code for c in captured(a)) for a in self.cands]
        exact = [i for i, s in enumerate(sets) if s == want]
        bigger = [i for i, s in enumerate(sets) if s > want]
        if exact and not bigger:
            self.submit(self.cands[exact[0]])
            return
        containing = exact or bigger
        if containing:
            self.cand_i = containing[0]

    def submit(self, action: Action) -> bool:
        if not self.can_act:
            return False
        self.submitted.append(action)
        try:
            self.session.submit(action)
        except IllegalAction as e:
            self.built = []
            self.host.refused(self.refusal_text(e))
            return False
        self.clear_choice()
        self.toggled = False
        self.host.accepted()
        self.pull()
        return True

    def refusal_text(self, e: IllegalAction) -> str:
        """The rules' refusal in the player's language, card codes turned into card names."""
        return refusal_words(self.app.t, self.app.i18n.has, self.rules.deck, self.app.language, e)

    def preselect(self) -> None:
        """Screenshots: choose the card with the most captures (or the first), as a player would."""
        playable = [c for c in self.hand if self.candidates_for(c)]  # never a card the rules refuse
        if not self.can_act or not playable:
            return
        best = max(playable, key=lambda c: len([a for a in self.candidates_for(c) if captured(a)]))
        self.cursor = self.hand.index(best)
        caps = [a for a in self.candidates_for(best) if captured(a)]
        if self.rules.is_capture_game and caps:
            self.selected, self.mode, self.cands, self.cand_i = best, "capture", caps, 0
        else:
            self.selected = best


__all__ = ["TableController"]
