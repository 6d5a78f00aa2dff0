"""The table's controller: the session (bots thinking, the human's decisions), the save after
every batch, the statistics at the end, and the human's choice as a small state machine.

The choice: point at a hand card (``point_at``, the keyboard) and play it (``confirm``:
Enter), or click it once to choose it (``pick``, the mouse) and again to play it (``confirm``
again) — one click never plays. When the card can be played in several ways the controller
asks how — ``mode`` "capture" (several captures: ``cycle`` through them, or
``click_table_card`` to build the set, ``confirm`` to take it, ``place_only`` to take
nothing) or "marriage" (declare it or just play: ``choose``). Every decision goes to the
session; a refusal comes back as the rule's message and changes nothing.

Safe decisions (issue 17): a decision in ``CONFIRM_DECISIONS`` (closing the stock) is asked
first (``ask_decision``; ``confirming`` names it) and taken only on a second request or
``confirm``; R without a marriage to declare says why (``toggle_marriage``).

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
from typing import TYPE_CHECKING, Any

from game.rules.base import CLOSE, EXCHANGE, Action, IllegalAction, play
from scenes.names import card_name, cards_list
from scenes.table.keeping import MatchKeeping

if TYPE_CHECKING:
    from game.rules.base import GameRules
    from game.services.table_session import TableSession
    from scenes.table.view import ControllerHost

#: Decisions asked twice before they are taken: closing the stock cannot be taken back.
CONFIRM_DECISIONS = ("close",)
#: The decision kinds with their own action (beyond playing a card).
DECISION_ACTIONS = {"close": CLOSE, "exchange": EXCHANGE}


class _Hint:
    """A suggestion being worked out in a worker thread, for the decision ``key``."""

    def __init__(self, key: tuple[int, int]):
        self.key = key
        self.stop = threading.Event()
        self.result: Any = None  # a Suggestion, or the exception the search raised
        self.thread: threading.Thread | None = None


class TableController(MatchKeeping):
    """The table's session and the human's choice; the match's save, statistics and replay
    are its base's (scenes.table.keeping)."""

    def __init__(self, host: ControllerHost, app: Any, session: TableSession):
        super().__init__(app, session)
        self.host = host
        #: The match-over panel is up (once the last deal's results were seen).
        self.final_panel = False
        # ---- the human's choice
        self.cursor = 0
        self.selected: str | None = None
        self.mode: str | None = None  # None, "capture" or "marriage"
        self.cands: list[Action] = []
        self.cand_i = 0
        self.built: list[str] = []
        self.marriage_toggle = False
        #: The decision asked to be confirmed ("close"), None when none is.
        self.confirming: str | None = None
        self.submitted: list[Action] = []  # every action handed to the session (tests)
        # ---- help: the suggestion shown (game.ai.suggest.Suggestion) and the one being worked out
        self.suggestion: Any = None
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

    def candidates_for(self, code: str) -> list[Action]:
        """The legal plays of one hand card, in the order Tab cycles them."""
        mine = [a for a in self.legal() if a.kind == "play" and a.card is not None and a.card.code == code]
        if self.rules.is_capture_game:
            caps = [a for a in mine if a.capture]
            place = [a for a in mine if not a.capture]
            return caps + place
        return sorted(mine, key=lambda a: not a.marriage)

    def select(self, code: str) -> None:
        """Enter on the pointed-at card (the keyboard): play it at once when there is only one
        way, else ask how. (A click only chooses the card: ``pick``.)"""
        if not self.can_act or code not in self.hand:
            return
        self.cursor = self.hand.index(code)
        mine = self.candidates_for(code)
        self.clear_choice()
        if self.rules.is_capture_game:
            caps = [a for a in mine if a.capture]
            if len(mine) == 1:
                self.submit(mine[0])
            elif not mine:
                self.submit(play(code))
            else:
                self.selected, self.mode, self.cands, self.cand_i = code, "capture", caps or mine, 0
            return
        marry = [a for a in mine if a.marriage]
        plain = [a for a in mine if not a.marriage]
        if self.marriage_toggle:
            self.submit(marry[0] if marry else play(code, marriage=True))
        elif marry and plain:
            self.selected, self.mode, self.cands, self.cand_i = code, "marriage", [marry[0], plain[0]], 0
            self.host.asked_marriage()
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
            self.submit(play(code, marriage=self.marriage_toggle))  # refused: says why
            return
        if self.rules.is_capture_game:
            caps = [a for a in mine if a.capture]
            self.selected, self.cands = code, (caps or mine) if len(mine) > 1 else mine
            self.mode = "capture" if len(mine) > 1 else None
            return
        marry = [a for a in mine if a.marriage]
        plain = [a for a in mine if not a.marriage]
        if self.marriage_toggle:
            self.selected, self.cands = code, [marry[0] if marry else play(code, marriage=True)]
        elif marry and plain:
            self.selected, self.mode, self.cands, self.cand_i = code, "marriage", [marry[0], plain[0]], 0
            self.host.asked_marriage()
        else:
            self.selected, self.cands = code, [mine[0]]

    def choose(self, i: int) -> None:
        """The marriage question: 0 declares it, 1 just plays the card."""
        if self.mode == "marriage" and 0 <= i < len(self.cands):
            self.submit(self.cands[i])

    def confirm(self) -> None:
        """Enter (or a second click on the chosen card): take the highlighted / built set;
        a decision waiting for its confirmation is taken."""
        if self.confirming is not None:
            action = DECISION_ACTIONS.get(self.confirming)
            self.confirming = None
            if action is not None:
                self.submit(action)
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

    def toggle_marriage(self) -> None:
        """R / the Marriage button: declare with the next card led (again: do not). With no
        marriage to declare now, the rules' reason is shown instead, as for X and C."""
        if "marriage" not in self.rules.decisions:
            return
        if self.mode == "marriage":
            self.choose(0)
            return
        if not self.marriage_toggle and self.can_act and not any(a.marriage for a in self.legal()):
            self.explain_no_marriage()
            return
        self.marriage_toggle = not self.marriage_toggle

    def explain_no_marriage(self) -> None:
        """Why no marriage can be declared now, in the rules' words: the refusal of declaring
        with each hand card, the most telling one (not leading; a King or Queen without its
        partner, the pointed-at card first; else the pointed-at card's)."""
        m = self.session.match
        if m.over or getattr(m, "state", None) is None or not self.hand:  # (online: no state here)
            return
        legal = set(self.legal())
        order = self.hand[self.cursor :] + self.hand[: self.cursor] if 0 <= self.cursor < len(self.hand) else self.hand
        refusals: list[IllegalAction] = []
        for code in order:
            action = play(code, marriage=True)
            if action not in legal:
                refusals.append(self.rules.explain_refusal(m.state, action))
        if not refusals:
            return
        best = next((e for e in refusals if "partner" in (e.params or {})), refusals[0])
        self.host.refused(self.refusal_text(best))

    # ================================================================== decisions beyond a card
    def ask_decision(self, name: str) -> None:
        """C / X or their buttons: a decision such as closing the stock. One that cannot be
        taken back (CONFIRM_DECISIONS) is asked first and taken on the second request (the
        key or the button again, or Enter); Esc cancels. One the rules refuse says why."""
        action = DECISION_ACTIONS.get(name)
        if action is None or name not in self.rules.decisions or not self.can_act:
            return
        if name in CONFIRM_DECISIONS and action in self.legal():
            if self.confirming == name:
                self.confirm()
            else:
                self.clear_choice()
                self.confirming = name
            return
        self.submit(action)

    def cancel(self) -> bool:
        """Esc / a right click: drop the question or the choice; False when there was none."""
        if self.confirming is not None or self.mode is not None or self.selected is not None:
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

    def current_suggestion(self) -> Any:
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
        if self.current_suggestion() is not None:
            self._show(self.suggestion)
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

    def _work(self, hint: _Hint, args: tuple[GameRules, Any, list[Action], int, int, int]) -> None:
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

    def _show(self, suggestion: Any) -> None:
        """Choose the suggested move, so that Enter (or a click on the card) plays it."""
        action = suggestion.action
        self.clear_choice()
        if action.kind != "play" or action.card is None:
            return  # a decision (close, exchange): its button is outlined, its key takes it
        self.marriage_toggle = False
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
        self.marriage_toggle = False
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
        sets = [set(c.code for c in a.capture) for a in self.cands]
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
        self.marriage_toggle = False
        self.host.accepted()
        self.pull()
        return True

    def refusal_text(self, e: IllegalAction) -> str:
        """The rules' refusal in the player's language, card codes turned into card names."""
        deck, lang = self.rules.deck, self.app.language
        t = self.app.t

        def name(code: str) -> str:
            return card_name(t, deck, lang, code)

        # The deck's court names, for messages like "declared with a {K} or a {Q}".
        params: dict[str, Any] = {r: deck.court_name(r, lang) for r in ("J", "Q", "K")}
        for k, v in (e.params or {}).items():
            if k in ("card", "match", "target", "led", "partner") and isinstance(v, str):
                params[k] = name(v)
            elif k == "options" and isinstance(v, str):
                params[k] = cards_list(self.app.t, deck, lang, [c.strip() for c in v.split(",")])
            elif k == "suit" and v in ("D", "C", "S", "B"):
                params[k] = deck.suit_name(v, lang)  # "you must follow Coins"
            else:
                params[k] = v
        key = f"refusals.{e.rule}"
        if not self.app.i18n.has(key) and not self.app.i18n.has(key, "en"):
            key = "refusals.illegal"
        return self.app.t(key, **params)

    def preselect(self) -> None:
        """Screenshots: choose the card with the most captures (or the first), as a player would."""
        playable = [c for c in self.hand if self.candidates_for(c)]  # never a card the rules refuse
        if not self.can_act or not playable:
            return
        best = max(playable, key=lambda c: len([a for a in self.candidates_for(c) if a.capture]))
        self.cursor = self.hand.index(best)
        caps = [a for a in self.candidates_for(best) if a.capture]
        if self.rules.is_capture_game and caps:
            self.selected, self.mode, self.cands, self.cand_i = best, "capture", caps, 0
        else:
            self.selected = best


__all__ = ["TableController"]
