"""The table read aloud: keys that read what the eyes would see, the lines a
screen reader is given as the table opens, and the focus in words.

Reading keys (none of them plays, and none gathers a finished trick):

- A your hand · D the table (the cards on the felt, or the trick being played) · F each
  pile's count · V the scores · W the trump and the stock · E the last play · I whose turn
  it is · Up/Down the play log, line by line (from the newest) · O repeat · Ctrl silence ·
  F1 this list.

Everything is said through ``app.say`` (:class:`game.services.speech.Speech`: logged, queued,
never blocking). The words come from the model and the narrator the table already keeps —
what the table shows, never the session's hidden state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from game.rules.capture import captured
from scenes.names import cards_list
from scenes.table.controller import TOGGLE_MODE

if TYPE_CHECKING:
    from game.config_types import DeckConfig
    from game.rules.base import GameRules
    from game.services.table_session import TableSession
    from scenes.scene import AppServices
    from scenes.table.controller import TableController
    from scenes.table.model import TableModel
    from scenes.table.motion import TableMotion
    from scenes.table.narrate import Line
    from scenes.table.view import TableNames, TableView


class ReadTable(Protocol):
    """What the reader reads of the table (scenes.table.scene.TableScene)."""

    @property
    def app(self) -> AppServices: ...
    @property
    def rules(self) -> GameRules: ...
    @property
    def session(self) -> TableSession: ...
    @property
    def controller(self) -> TableController: ...
    @property
    def model(self) -> TableModel: ...
    @property
    def motion(self) -> TableMotion: ...
    @property
    def names(self) -> TableNames: ...
    @property
    def deck(self) -> DeckConfig: ...

    def view(self) -> TableView: ...


KEYS = {
    pygame.K_a: "hand",
    pygame.K_d: "table",
    pygame.K_f: "piles",
    pygame.K_v: "scores",
    pygame.K_w: "trump",
    pygame.K_e: "last",
    pygame.K_i: "turn",
    pygame.K_o: "repeat",
    pygame.K_UP: "log_back",
    pygame.K_DOWN: "log_on",
    pygame.K_F1: "help",
}
STOP_KEYS = (pygame.K_LCTRL, pygame.K_RCTRL)


class TableReader:
    """The table's reading keys and its words for a screen reader; ``scene`` is the
    :class:`scenes.table.scene.TableScene` it reads."""

    def __init__(self, scene: ReadTable):
        self.scene = scene
        self.log_at: int | None = None  # the play-log line read last (None: past the newest)
        self.could_act = False
        #: The table opened before its first deal was shown: the hand and the rest are said
        #: once the cards have landed (:meth:`update`), not "Your hand is empty" first.
        self.deferred = False

    # ------------------------------------------------------------------ words
    def t(self, key: str, **params: object) -> str:
        return self.scene.app.t(key, **params)

    def cards(self, codes: list[str]) -> str:
        s = self.scene
        return cards_list(self.t, s.deck, s.app.language, [c for c in codes if c])

    def hand(self) -> str:
        m = self.scene.model
        if not m.hand:
            return self.t("access.hand_empty")
        return self.t("access.hand", count=len(m.hand), cards=self.cards_in_order(m.hand))

    def cards_in_order(self, codes: list[str]) -> str:
        """Cards one by one in the order given (the hand's order: the number keys pick them)."""
        names = self.scene.names
        words = [names.card_name(c) if c else self.t("access.hidden_card") for c in codes]
        return ", ".join(words)

    def table(self) -> str:
        s, m = self.scene, self.scene.model
        if m.capture:
            return (
                self.t("access.table", cards=self.cards_in_order(m.table)) if m.table else self.t("access.table_empty")
            )
        if not m.trick:
            return self.t("access.trick_empty")
        played = [
            self.t("access.played_by", name=s.names.seat_name(seat, subject=True), card=s.names.card_name(code))
            for seat, code in m.trick
        ]
        return self.t("access.trick", plays="; ".join(played))

    def piles(self) -> str:
        s, m = self.scene, self.scene.model
        parts = [self.t("access.pile", name=s.names.team_name(team), count=m.piles[team]) for team in range(m.teams)]
        hands = [
            self.t("access.hand_count", name=s.names.seat_name(seat), count=len(m.hands[seat]))
            for seat in range(m.players)
            if seat != m.viewer
        ]
        return "; ".join(parts + hands)

    def scores(self) -> str:
        from scenes.table import hud

        v = self.scene.view()
        rows = [f"{name} {value}" + (f" ({note})" if note else "") for _, name, value, note in hud.score_rows(v)]
        return f"{hud.score_caption(v)}: " + "; ".join(rows)

    def trump(self) -> str | None:
        """The trump and the stock, for the games that have them (None: nothing to say)."""
        return " ".join(self.trump_and_stock()) or None

    def trump_and_stock(self) -> list[str]:
        """The trump's line and the stock's line, each where the game has it."""
        s, m = self.scene, self.scene.model
        parts = []
        if s.rules.has_trump and m.trump_suit:
            suit = s.deck.suit_name(m.trump_suit, s.app.language)
            if m.trump and not m.closed:
                parts.append(self.t("access.trump_card", suit=suit, card=s.names.card_name(m.trump)))
            else:
                parts.append(self.t("access.trump", suit=suit))
        from scenes.table import hud

        v = s.view()
        for f in hud.facts(v):  # what the rules keep in sight: a contract, a called card, the partner
            if f.seat is not None:
                parts.append(f"{self.t(f.label)}: {s.names.seat_name(f.seat)}.")
            else:
                parts.append(f"{self.t(f.label)}: {hud.fact_words(v, f.value, f.params) if f.value else ''}.")
        if s.rules.has_stock:
            if m.closed:
                parts.append(self.t("access.stock_closed", count=m.stock_count))
            else:
                parts.append(self.t("access.stock", count=m.stock_count))
        return parts

    def lines(self) -> list[Line]:
        narrator = self.scene.motion.narrator
        return list(narrator.deal.lines) if narrator is not None else []

    def last(self) -> str:
        told = [ln for ln in self.lines() if ln.seat is not None]
        return (told[-1].caption or told[-1].text) if told else self.t("access.nothing_yet")

    def turn(self) -> str:
        s = self.scene
        if s.session.over or s.controller.final_panel:
            return self.t("access.match_over")
        if s.controller.can_act:
            return self.t("access.your_turn")
        if getattr(s.session, "covered", False):
            return self.t("online.covered")
        seat = s.session.to_act
        if seat is None:
            return self.t("access.nothing_yet")
        return self.t("table.to_play", name=s.names.seat_name(seat, subject=True))

    def log_step(self, step: int) -> str:
        lines = self.lines()
        if not lines:
            return self.t("access.nothing_yet")
        at = len(lines) if self.log_at is None else self.log_at
        at += step
        if at < 0:
            self.log_at = 0
            return self.t("access.log_start", line=lines[0].text)
        if at >= len(lines):
            self.log_at = None
            return self.t("access.log_end")
        self.log_at = at
        return lines[at].text

    def help(self) -> str:
        return self.t("access.keys_table")

    # ------------------------------------------------------------------ what a screen reader gets
    def awaiting_deal(self) -> bool:
        """The first deal is still on its way (being dealt, or not arrived from the server):
        there is no hand to tell yet."""
        s = self.scene
        m = s.model
        return not m.hand and not s.session.over and (not s.motion.idle or m.deal_number == 0)

    def position(self) -> list[str]:
        """Your hand, the table cards, the trump and the stock where the game has them,
        whose turn it is."""
        return [x for x in (self.hand(), self.table(), *self.trump_and_stock(), self.turn()) if x]

    def opening(self) -> list[str]:
        """The lines given as the table opens: :meth:`position` — or, while the cards are
        still being dealt, only the deal's own words (the rest follows once they land)."""
        if self.awaiting_deal():
            self.deferred = True
            caption = self.scene.motion.caption
            return [caption] if caption else []
        return self.position()

    def focus(self) -> str:
        """What the keyboard has at the table, in words ("" when the table is not yours to act)."""
        s = self.scene
        c = s.controller
        if c.final_panel:
            return self.t("access.final_focus")
        if not c.can_act:
            return ""
        if c.chooser is not None:  # a bid's rank and points, a called card: the row in focus
            return c.chooser.focus_text(self.t, s.deck, s.app.language)
        if c.confirming is not None:
            return self.t(f"confirm.{c.confirming}")
        sg = c.current_suggestion()
        if sg is not None:
            from scenes.table import assist

            return assist.suggestion_line(s.view(), sg)
        if c.mode == "capture" and c.cands:
            a = c.cands[c.cand_i % len(c.cands)]
            card = s.names.card_name(a.played.code)
            n, total = c.cand_i % len(c.cands) + 1, len(c.cands)
            if captured(a):
                taken = self.cards([x.code for x in captured(a)])
                return self.t("access.capture_option", card=card, taken=taken, n=n, total=total)
            return self.t("access.place_option", card=card, n=n, total=total)
        if c.mode == TOGGLE_MODE and c.cands and c.toggle_kind is not None:
            return self.t(f"table.choose_{c.toggle_kind.toggle}")
        hand = s.model.hand
        if not hand or not 0 <= c.cursor < len(hand):
            return ""
        code = hand[c.cursor]
        text = self.t("access.card_focus", n=c.cursor + 1, total=len(hand), card=s.names.card_name(code))
        if code == c.selected:
            text = self.t("access.chosen", what=text)
        if not c.candidates_for(code):
            text = self.t("access.not_playable", what=text)
        return text

    # ------------------------------------------------------------------ the loop and the keys
    def update(self) -> None:
        """Says the position once the first deal has landed (when the table opened before
        it), and "your turn" as the table becomes yours to act (the focus card follows)."""
        can = bool(self.scene.controller.can_act)
        if self.deferred and self.scene.motion.idle and not self.awaiting_deal():
            self.deferred = False
            for line in self.position():
                self.scene.app.say(line)
            self.could_act = can  # "your turn" was just said
        if can and not self.could_act:
            self.scene.app.say(self.t("access.your_turn"))
        self.could_act = can

    def handle(self, event: pygame.event.Event) -> bool:
        """A reading key: say its words and take the key (True); anything else is not ours."""
        if event.type != pygame.KEYDOWN:
            return False
        app = self.scene.app
        if event.key in STOP_KEYS:
            app.speech.stop()
            return False  # Ctrl is also held for Ctrl+Z
        mod = getattr(event, "mod", 0)
        if mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            return False
        what = KEYS.get(event.key)
        if what is None:
            return False
        if what == "repeat":
            app.speech.repeat()
            return True
        if what in ("log_back", "log_on"):
            text = self.log_step(-1 if what == "log_back" else 1)
        else:
            text = getattr(self, what)() or self.t("access.no_trump")
        if what == "help":
            app.toast(text)  # seen too; the toast is said as well
            return True
        app.say(text, interrupt=True)
        return True


__all__ = ["TableReader", "KEYS", "STOP_KEYS"]
