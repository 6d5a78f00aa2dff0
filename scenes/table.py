"""The card table: every game played with mouse and keyboard against the computer.

The scene never decides what is legal or what scores: it asks the session (and through it
the rules). It animates the record events the session produces, one after another: each
event becomes a few *steps* (cards fly, a trick is shown, then gathered) and the display
model — hands, table, trick, stock, piles, totals — is built from those events alone, never
by peeking at the session's state. Bots think in a worker thread while frames keep coming.

Keys: ←/→ or 1–9 pick a card, Enter plays it; with several captures Tab cycles them and
Enter takes the highlighted one (or click table cards to build the set); P places only
(Cìcera); C closes the stock, X exchanges the trump Jack, R toggles "declare the marriage"
(Schnapsen); H toggles hints; Esc opens the pause menu.
"""
from __future__ import annotations

import random
import sys
from collections import deque
from collections.abc import Callable
from typing import Any

import pygame

from game.rules.base import CLOSE, EXCHANGE, Action, IllegalAction, play
from scenes import pause as _pause
from scenes.scene import Scene, register_scene
from sprites import table_layout as TL
from sprites import theme, tween
from sprites.table_draw import (
    CANDIDATE,
    OUTLINE,
    TEAM_COLORS,
    WARN,
    Callout,
    CardPainter,
    CardSprite,
    badge,
    banner,
    outline,
    plate,
    stack,
)
from sprites.table_layout import Place, TableLayout
from sprites.tween import Smooth, Tween
from sprites.widgets import UI, Button, card_art

register_scene("pause", _pause.create)  # the overlay lives beside the table

#: The bonus call-outs are the games' own words (Lombard and Italian), the same in every language.
BONUS_WORDS = {"scopa": "Scopa!", "scua": "Scùa!", "picada": "Picada!", "simili": "Simili!", "quadriglia": "Quadriglia!"}

SUIT_ORDER = {"D": 0, "C": 1, "S": 2, "B": 3}
NUMBER_KEYS = {getattr(pygame, f"K_{i}"): i for i in range(1, 10)}
NUMBER_KEYS.update({getattr(pygame, f"K_KP{i}"): i for i in range(1, 10)})
ENTER_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)

# Normal-speed timings (seconds); the animation-speed setting scales them all.
FLY = 0.30
DEAL_GAP = 0.07
HOLD_PLAY = 0.45     # after an opponent's card lands: time to see it
HOLD_CAPTURE = 0.40  # the played card rests on what it takes
HOLD_TRICK = 0.75    # a complete trick stays in view
HOLD_DEAL_END = 0.6


def _rank_key(rules: Any) -> Callable[[str], tuple]:
    """Hand order: by suit, then by the deck's rank order (A, 2, … K, or A 10 K Q J)."""
    ranks = list(rules.deck.ranks())

    def key(code: str) -> tuple:
        r, s = code[:-1], code[-1]
        return (SUIT_ORDER.get(s, 9), ranks.index(r) if r in ranks else 99)
    return key


class TableScene(Scene):
    def __init__(self, app: Any, session: Any, *, fresh: bool = True, preselect: bool = False):
        super().__init__(app)
        self.session = session
        self.rules = session.rules
        self.game = self.rules.game_id
        self.deck = self.rules.deck
        self.players = self.rules.players
        #: All seats AI (the smoke test, demos): watch from seat 0, record no statistics.
        self.spectator = session.human_seat is None
        self.human = session.human_seat if session.human_seat is not None else 0
        self.human_team = self.rules.team_of(self.human)
        self.teams = self.rules.teams
        self.layout = TableLayout(self.players, self.deck.aspect, self.game, self.human)
        self.capture_game = not self.layout.trick_game
        self.sort_key = _rank_key(self.rules)
        self.time = 0.0
        self.painter: CardPainter | None = None
        # ---- display model (built from events only)
        self.sprites: dict[str, CardSprite] = {}
        self.hand: list[str] = []
        self.backs: dict[int, list[str]] = {s: [] for s in range(self.players)}
        self.table: list[str] = []
        self.trick: list[tuple[int, str]] = []
        self.stock_count = 0
        self.trump: str | None = None     # the turned card's code while it lies under the stock
        self.trump_suit: str | None = None
        self.closed = False
        self.piles = [0] * self.teams
        self.bonus_count = [0] * self.teams
        self.card_points = [0] * self.players
        self.won_cards = [0] * self.players
        self.marriage_points = [0] * self.players
        self.pending = [0] * self.players
        self.totals: list[int] = list(self.rules.initial_totals())
        self.deals_won = [0] * self.players
        self.dealer: int | None = None
        self.deal_number = 0
        self._serial = 0
        # ---- flow
        self.queue: deque[dict] = deque()
        self.cues: deque[list[str]] = deque()
        self.steps: deque[Callable[[], float]] = deque()
        self.hold = 0.0
        self.awaiting_results = False
        self.match_over = False
        self.finished = False        # stats recorded, save cleared
        self.final_panel = False
        self.summary: tuple[str, float] | None = None
        self.callouts: list[Callout] = []
        self.refusal: tuple[str, Tween] | None = None
        self.problem: str | None = None
        # ---- the human's choice
        self.cursor = 0
        self.selected: str | None = None
        self.mode: str | None = None   # None, "capture" or "marriage"
        self.cands: list[Action] = []
        self.cand_i = 0
        self.built: list[str] = []
        self.marriage_toggle = False
        self.hover_code: str | None = None
        self.lifts: dict[str, Smooth] = {}
        self.submitted: list[Action] = []  # every action the scene handed to the session (tests)
        self.active_glow = {s: Smooth(0.0, 8) for s in range(self.players)}
        self.ui = UI()
        self._build_buttons()
        self._load(fresh, preselect)

    # ================================================================== set-up
    def _load(self, fresh: bool, preselect: bool) -> None:
        """Show the match as it stands: a new one animates its deal; a resumed one (or a
        screenshot's fast-forward) is rebuilt from its record instantly."""
        if fresh and not self.session.match.events:
            self.session.start()
            self._pull()
            return
        self.session.take_events()  # already in the record, which is replayed below
        self._fast_forward(list(self.session.match.events))
        if preselect:
            self._preselect()

    def _fast_forward(self, events: list[dict]) -> None:
        """Apply events with every animation finished at once (resume, screenshots)."""
        tween.set_animation_speed("instant")
        try:
            self.queue.extend(events)
            self.cues.extend([[] for _ in events])
            self._ff = True
            self._advance(0.0, limit=100000)
        finally:
            self._ff = False
            tween.set_animation_speed(getattr(self.app.settings, "animation_speed", "normal"))
        for key, sp in list(self.sprites.items()):
            if sp.vanish:
                del self.sprites[key]
                continue
            end = sp.tween.end
            sp.tween = Tween(end, end, 0.0)  # settled for good, whatever the speed is now
            sp.flip = None
        self.callouts.clear()

    _ff = False

    def _build_buttons(self) -> None:
        L = self.layout
        specs: list[tuple[str, Callable[[], str], Callable[[], None], Callable[[], bool]]] = []
        if self.game == "cicera":
            specs.append(("place", lambda: self.t("table.place_only"), self.place_only, lambda: True))
        if self.game == "schnapsen":
            specs.append(("marriage", lambda: self.t("table.marriage_on" if self.marriage_toggle else "table.marriage"),
                          self.toggle_marriage, lambda: any(a.marriage for a in self._legal())))
            specs.append(("exchange", lambda: self.t("table.exchange"), lambda: self._submit(EXCHANGE),
                          lambda: EXCHANGE in self._legal()))
            specs.append(("close", lambda: self.t("table.close"), lambda: self._submit(CLOSE),
                          lambda: CLOSE in self._legal()))
        rects = L.buttons(len(specs))
        self.buttons: dict[str, Button] = {}
        for (name, label, fn, legal), rect in zip(specs, rects):
            b = Button(rect, label, fn, size=14, name=name,
                       enabled=(lambda legal=legal: self.can_act and legal()))
            self.buttons[name] = self.ui.add(b)
        self.menu_button = self.ui.add(Button(TL.MENU_RECT, lambda: self.t("table.menu"), self.open_pause,
                                              style="secondary", size=14, icon="≡", name="menu"))
        # The marriage question: two buttons over the hand, shown only while it is asked.
        ask = lambda: self.mode == "marriage"  # noqa: E731
        self.ask_buttons = [
            self.ui.add(Button((0, 0, 170, 40), lambda: self._declare_label(), lambda: self._choose(0), style="primary",
                               size=14, visible=ask, name="declare")),
            self.ui.add(Button((0, 0, 170, 40), lambda: self.t("table.just_play"), lambda: self._choose(1),
                               size=14, visible=ask, name="just_play")),
        ]
        self.ui.focus_index = -1  # the hand, not a button, has the keyboard

    def _declare_label(self) -> str:
        pts = 40 if self.cands and self.cands[0].card.suit == self.trump_suit else 20
        return self.t("table.declare", points=pts)

    # ================================================================== helpers
    def t(self, key: str, **params: Any) -> str:
        return self.app.t(key, **params)

    @property
    def lang(self) -> str:
        return self.app.language

    def _painter(self) -> CardPainter:
        if self.painter is None or self.painter.lang != self.lang:
            self.painter = CardPainter(card_art(self.deck), self.deck.aspect, self.lang)
        return self.painter

    def seat_name(self, seat: int, subject: bool = False) -> str:
        """The seat's label; ``subject``: as a sentence's subject ("Il compagno sta pensando…")."""
        if seat == self.human:
            return self.t("table.you")
        if self.players == 4 and self.rules.team_of(seat) == self.human_team:
            return self.t("table.subject.partner" if subject else "table.partner")
        return self.t({"left": "table.west", "top": "table.north", "right": "table.east"}[self.layout.side(seat)])

    def team_name(self, team: int) -> str:
        if self.players == 4:
            return self.t("table.us" if team == self.human_team else "table.them")
        return self.seat_name(team)

    def card_name(self, code: str) -> str:
        """"7 of Coins", "Herz-König": the deck's own names in the player's language."""
        try:
            r, s = code[:-1], code[-1]
            suit = self.deck.suit_name(s, self.lang)
        except (KeyError, IndexError, TypeError, AttributeError):
            return str(code)
        if r in ("J", "Q", "K"):
            rank = self.deck.court_name(r, self.lang)
        elif r == "A":
            rank = self.t("table.rank.A")
        else:
            rank = r
        return self.t("table.card", rank=rank, suit=suit)

    def _new_key(self, prefix: str) -> str:
        self._serial += 1
        return f"{prefix}{self._serial}"

    def _legal(self) -> list[Action]:
        return self.session.legal_actions() if self.can_act else []

    @property
    def idle(self) -> bool:
        """Nothing left to animate: the table shows the session's position."""
        return (not self.queue and not self.steps and self.hold <= 0 and not self.awaiting_results
                and not any(s.moving for s in self.sprites.values()))

    @property
    def can_act(self) -> bool:
        return self.idle and not self.session.over and self.session.human_to_act and not self.final_panel

    def hand_codes(self) -> list[str]:
        return list(self.hand)

    # ================================================================== the flow
    def _pull(self) -> None:
        """Take the session's new events into the animation queue; save; settle the end."""
        events = self.session.take_events()
        if not events:
            return
        try:
            from audio.cues import sounds_for_batch

            cues = sounds_for_batch(events, self.game, None if self.spectator else self.human_team,
                                    self.rules.team_of)
        except Exception:  # noqa: BLE001 - sound is never worth a crash
            cues = [[] for _ in events]
        self.queue.extend(events)
        self.cues.extend(cues)
        self._save()

    def _save(self) -> None:
        from game import saves

        if self.session.over:
            if not self.finished:
                self._finish_match()
            return
        if self.spectator:
            return
        problem = saves.save_match(self.session.to_save())
        if problem and problem != self.problem:
            self.problem = problem
            self.app.toast(self.t("table.save_failed", reason=problem))

    def _finish_match(self) -> None:
        """Once, when the match ends: statistics, and the save is cleared."""
        from game import saves, stats

        self.finished = True
        if self.spectator:
            return
        saves.clear_match()
        m = self.session.match
        winner = m.winner
        outcome = "drawn" if winner is None else ("won" if winner == self.human_team else "lost")
        totals = list(m.totals)
        mine = totals[self.human_team]
        others = [v for t, v in enumerate(totals) if t != self.human_team]
        margin = mine - max(others) if others else 0
        if self.game == "schnapsen":
            margin = -margin  # Bummerl counts down: fewer left is better
        try:
            mode = self.rules.game.mode_for(self.players).id
            problem = stats.record_result(self.game, mode, outcome, abs(margin))
        except (ValueError, OSError) as e:
            problem = str(e)
        if problem:
            self.app.toast(problem)

    def update(self, dt: float) -> None:
        self.time += dt
        self.ui.update(dt)
        self._advance(dt)
        for s in range(self.players):
            g = self.active_glow[s]
            g.target = 1.0 if self._active_seat() == s else 0.0
            g.update(dt)
        for code, sm in self.lifts.items():
            sm.target = self._lift_target(code)
            sm.update(dt)
        if self.refusal is not None:
            self.refusal[1].update(dt)
            if self.refusal[1].done:
                self.refusal = None
        if self.summary is not None:
            text, left = self.summary
            left -= dt
            self.summary = None if left <= 0 else (text, left)
        if self.idle and not self.final_panel:
            if self.session.over:
                if self.match_over and not self.awaiting_results:
                    self.final_panel = True
            elif not self.session.human_to_act:
                self.session.poll()
                self._pull()
            elif self.cursor >= len(self.hand):
                self.cursor = max(0, len(self.hand) - 1)

    def _advance(self, dt: float, limit: int = 400) -> None:
        """Move the animation on: sprites and call-outs tick; when all is still, the next step."""
        for s in list(self.sprites.values()):
            s.update(dt)
            if s.vanish and not s.moving:
                del self.sprites[s.key]
        for c in self.callouts:
            c.update(dt)
        self.callouts = [c for c in self.callouts if not c.done]
        if self.hold > 0:
            self.hold -= dt
        for _ in range(limit):
            if self.awaiting_results or self.hold > 0 or any(s.moving for s in self.sprites.values()):
                return
            if self.steps:
                self.hold = tween.scaled(self.steps.popleft()())
                # Instant speed: tweens are done on creation; drop arrived pile cards now.
                for s in list(self.sprites.values()):
                    if s.vanish and not s.moving:
                        del self.sprites[s.key]
                continue
            if not self.queue:
                return
            ev = self.queue.popleft()
            cues = self.cues.popleft() if self.cues else []
            self._expand(ev, cues)

    def _play_cues(self, cues: list[str]) -> None:
        if cues and not self._ff and self.app.audio is not None:
            self.app.audio.play_all(cues, gap=0.12)

    def _callout(self, key: str, sub: str = "", **params: Any) -> None:
        if self._ff or tween.speed_factor() <= 0:
            return
        if key in BONUS_WORDS:
            text = BONUS_WORDS[key]
        elif key == "marriage":
            text = f"{params.get('points', '')}!"
        else:
            text = self.t(f"callouts.{key}", **params)
        self.callouts = [Callout(text, sub, 1.5)]

    # ================================================================== events → steps
    def _expand(self, ev: dict, cues: list[str]) -> None:
        kind = ev.get("event")
        fn = getattr(self, f"_ev_{kind}", None)
        if fn is None:
            return
        self._clear_choice()
        fn(ev, cues)

    def _ev_match(self, ev: dict, cues: list[str]) -> None:
        self.totals = list(self.rules.initial_totals())

    def _deck_place(self) -> Place:
        st = self.layout.stock()
        if st is not None:
            return st
        a = TL.TABLE_AREA
        return Place(a.centerx, a.centery, TL.TABLE_HEIGHT)

    def _ev_deal(self, ev: dict, cues: list[str]) -> None:
        def step() -> float:
            self._play_cues(cues[:1])
            for s in list(self.sprites.values()):  # anything left (a void deal) goes back
                s.move(self._deck_place(), FLY)
                s.turn(None)
                s.vanish = True
            self.hand, self.table, self.trick = [], [], []
            self.backs = {s: [] for s in range(self.players)}
            self.piles = [0] * self.teams
            self.bonus_count = [0] * self.teams
            self.card_points = [0] * self.players
            self.won_cards = [0] * self.players
            self.marriage_points = [0] * self.players
            self.pending = [0] * self.players
            self.closed = False
            self.dealer = ev.get("dealer")
            self.deal_number = ev.get("number", self.deal_number + 1)
            self.trump = ev.get("trump")
            self.trump_suit = self.trump[-1] if self.trump else None
            self.stock_count = len(ev.get("stock") or [])
            self.cursor = 0
            return 0.15

        def deal_cards() -> float:
            hands = ev.get("hands") or []
            self._deal_hands(hands, start=self._first_seat())
            self._deal_table(ev.get("table") or [], delay0=DEAL_GAP * sum(len(h) for h in hands))
            if self.trump:
                deck = self._deck_place()
                key = self.trump
                sp = CardSprite(key, None, deck, z=0)
                self.sprites[key] = sp
                n = sum(len(h) for h in hands)
                sp.move(self.layout.trump(), FLY, DEAL_GAP * n + 0.1)
                sp.turn(self.trump, DEAL_GAP * n + 0.1 + FLY)
                self.stock_count -= 0  # the trump is the stock's last card: still counted there
            return 0.2
        self.steps.extend([step, deal_cards])

    def _first_seat(self) -> int:
        return ((self.dealer if self.dealer is not None else 0) + 1) % self.players

    def _deal_hands(self, hands: list[list[str]], start: int, delay0: float = 0.0) -> None:
        """Cards fly from the stock one by one, round the table, and turn face up for the human."""
        deck = self._deck_place()
        n = self.players
        order: list[tuple[int, str]] = []
        longest = max((len(h) for h in hands), default=0)
        for i in range(longest):
            for k in range(n):
                seat = (start + k) % n
                if seat < len(hands) and i < len(hands[seat]):
                    order.append((seat, hands[seat][i]))
        keys: list[str] = []
        for seat, code in order:
            if seat == self.human:
                self.hand.append(code)
                keys.append(code)
            else:
                key = self._new_key(f"b{seat}:")
                self.backs[seat].append(key)
                keys.append(key)
        self.hand.sort(key=self.sort_key)
        targets = self._targets()
        for j, key in enumerate(keys):
            sp = CardSprite(key, None, deck, z=50 + j)
            self.sprites[key] = sp
            d = delay0 + DEAL_GAP * j
            sp.move(targets[key], FLY, d)
            if key in self.hand:
                sp.turn(key, d + FLY * 0.6)
        self._play_deal_sounds(len(order))
        self._relayout()

    def _play_deal_sounds(self, n: int) -> None:
        if not self._ff and self.app.audio is not None and n:
            self.app.audio.play_all(["deal"] * min(n, 12), gap=DEAL_GAP * tween.speed_factor() or 0.05)

    def _deal_table(self, codes: list[str], delay0: float) -> None:
        deck = self._deck_place()
        self.table.extend(codes)
        targets = self._targets()
        for i, code in enumerate(codes):
            sp = CardSprite(code, None, deck, z=10)
            self.sprites[code] = sp
            d = delay0 + DEAL_GAP * i
            sp.move(targets[code], FLY, d)
            sp.turn(code, d + FLY * 0.5)

    def _ev_redeal(self, ev: dict, cues: list[str]) -> None:
        def step() -> float:
            self._play_cues(cues)
            self._callout("redeal", self.t("callouts.redeal_sub"))
            return 1.2
        self.steps.append(step)

    def _ev_hands(self, ev: dict, cues: list[str]) -> None:
        def step() -> float:
            self._play_cues(cues)
            hands = ev.get("hands") or []
            self.stock_count = max(0, self.stock_count - sum(len(h) for h in hands))
            self._deal_hands(hands, start=self._first_seat())
            return 0.15
        self.steps.append(step)

    def _take_from_hand(self, seat: int, code: str) -> CardSprite:
        """The sprite of a card leaving ``seat``'s hand (an opponent's back turns into it)."""
        if seat == self.human and code in self.hand:
            self.hand.remove(code)
            sp = self.sprites.get(code)
            if sp is not None:
                return sp
        backs = self.backs.get(seat) or []
        if backs:
            key = backs.pop(len(backs) // 2)
            old = self.sprites.pop(key, None)
            place = old.end_place if old is not None else self.layout.seat_origin(seat)
        else:
            place = self.layout.seat_origin(seat)
        sp = CardSprite(code, None, place, z=80)
        sp.turn(code, 0.0, 0.2)
        self.sprites[code] = sp
        return sp

    def _ev_play(self, ev: dict, cues: list[str]) -> None:
        seat, code = ev.get("seat"), ev.get("card")
        capture = list(ev.get("capture") or [])
        bonuses = list(ev.get("bonuses") or [])
        if not self.capture_game:
            def trick_play() -> float:
                self._play_cues(cues)
                sp = self._take_from_hand(seat, code)
                sp.z = 60 + len(self.trick)
                self.trick.append((seat, code))
                self._relayout()
                return HOLD_PLAY if seat != self.human else 0.05
            self.steps.append(trick_play)
            return

        def place_or_approach() -> float:
            self._play_cues(cues[:1])
            sp = self._take_from_hand(seat, code)
            sp.z = 90
            if not capture:
                self.table.append(code)
                self._relayout()
                return HOLD_PLAY if seat != self.human else 0.1
            # The played card comes to rest on the first card it takes.
            first = self.sprites.get(capture[0])
            target = first.end_place if first is not None else self._deck_place()
            sp.move(Place(target.x + 14, target.y + 12, target.h, 4.0), FLY)
            for c in capture:
                if c in self.sprites:
                    self.sprites[c].glow = 1.0
            self._relayout(skip={code})
            return HOLD_CAPTURE

        def gather() -> float:
            team = self.rules.team_of(seat)
            self._to_pile([code, *capture], team)
            for b in bonuses:
                if b in ("scopa", "scua", "picada", "simili", "quadriglia"):
                    self.bonus_count[team] += 1
            if bonuses:
                self._callout(bonuses[0], " · ".join(BONUS_WORDS.get(b, b).rstrip("!") for b in bonuses[1:]))
                self._play_cues(cues[1:])
            self._relayout()
            return 0.9 if bonuses else 0.15
        self.steps.append(place_or_approach)
        if capture:
            self.steps.append(gather)

    def _to_pile(self, codes: list[str], team: int) -> None:
        dest = self.layout.pile(team)
        for i, c in enumerate(codes):
            if c in self.table:
                self.table.remove(c)
            sp = self.sprites.get(c)
            if sp is None:
                continue
            sp.glow = 0.0
            sp.z = 95
            sp.move(dest, FLY + 0.04 * i, 0.03 * i)
            sp.turn(None, 0.03 * i + FLY * 0.5)
            sp.vanish = True
        self.piles[team] += len(codes)

    def _ev_trick(self, ev: dict, cues: list[str]) -> None:
        winner = ev.get("winner")
        pts = int(ev.get("points") or 0)

        def show() -> float:
            return HOLD_TRICK

        def gather() -> float:
            self._play_cues(cues)
            codes = [c for _, c in self.trick]
            self.trick = []
            self._to_pile(codes, self.rules.team_of(winner))
            self.card_points[winner] += pts
            self.won_cards[winner] += len(codes)
            if self.pending[winner]:
                self.marriage_points[winner] += self.pending[winner]
                self.pending[winner] = 0
            if not self.hand and not any(self.backs.values()):
                self._callout("last_trick")
                return 0.8
            return 0.2
        self.steps.extend([show, gather])

    def _ev_draw(self, ev: dict, cues: list[str]) -> None:
        seat, code = ev.get("seat"), ev.get("card")

        def step() -> float:
            self._play_cues(cues)
            self.stock_count = max(0, self.stock_count - 1)
            from_trump = code == self.trump and self.trump in self.sprites
            if from_trump:
                sp = self.sprites[code]
                self.trump = None
                sp.z = 70
            else:
                sp = CardSprite("", None, self._deck_place(), z=70)
            if seat == self.human:
                sp.key = code
                self.sprites.pop(code, None)
                self.sprites[code] = sp
                self.hand.append(code)
                self.hand.sort(key=self.sort_key)
                sp.turn(code, FLY * 0.5)
            else:
                if from_trump:
                    del self.sprites[code]
                key = self._new_key(f"b{seat}:")
                sp.key = key
                self.sprites[key] = sp
                self.backs[seat].append(key)
                sp.turn(None, FLY * 0.6)
            self._relayout()
            return 0.08
        self.steps.append(step)

    def _ev_exchange(self, ev: dict, cues: list[str]) -> None:
        seat, gave, took = ev.get("seat"), ev.get("gave"), ev.get("took")

        def step() -> float:
            self._play_cues(cues)
            old = self.sprites.pop(took, None)
            new = self._take_from_hand(seat, gave)
            new.z = 5
            self.trump = gave
            if seat == self.human:
                sp = old or CardSprite(took, took, self.layout.trump())
                sp.key = took
                self.sprites[took] = sp
                self.hand.append(took)
                self.hand.sort(key=self.sort_key)
            else:
                key = self._new_key(f"b{seat}:")
                sp = old or CardSprite(key, None, self.layout.trump())
                sp.key = key
                sp.turn(None, FLY * 0.6)
                self.sprites[key] = sp
                self.backs[seat].append(key)
            self._callout("exchange", self.card_name(gave))
            self._relayout()
            return 0.7
        self.steps.append(step)

    def _ev_marriage(self, ev: dict, cues: list[str]) -> None:
        seat, suit, pts = ev.get("seat"), ev.get("suit"), int(ev.get("points") or 0)

        def step() -> float:
            self._play_cues(cues)
            if self.won_cards[seat]:
                self.marriage_points[seat] += pts
            else:
                self.pending[seat] += pts
            try:
                suit_name = self.deck.suit_name(suit, self.lang)
            except (KeyError, TypeError):
                suit_name = str(suit)
            self._callout("marriage", self.t("callouts.marriage_sub", name=self.seat_name(seat), suit=suit_name),
                          points=pts)
            return 1.0
        self.steps.append(step)

    def _ev_close(self, ev: dict, cues: list[str]) -> None:
        seat = ev.get("seat")

        def step() -> float:
            self._play_cues(cues)
            self.closed = True
            # "You close" needs its own verb form in nl/de/it.
            sub = "callouts.close_sub_you" if seat == self.human else "callouts.close_sub"
            self._callout("close", self.t(sub, name=self.seat_name(seat, subject=True)))
            self._relayout()
            return 1.0
        self.steps.append(step)

    def _ev_deal_end(self, ev: dict, cues: list[str]) -> None:
        match_end = self.queue[0] if self.queue and self.queue[0].get("event") == "match_end" else None
        # The match's own sound (won / lost) is heard as its result appears, with the deal's.
        match_cues = list(self.cues[0]) if match_end is not None and self.cues else []
        left = ev.get("leftover") or None

        def leftovers() -> float:
            if left and self.capture_game and self.table:
                self._callout("leftover", self.t("callouts.leftover_sub", name=self.team_name(left.get("team", 0))))
                self._to_pile([c for c in left.get("cards", []) if c in self.table], left.get("team", 0))
                self._relayout()
                return 0.9
            return 0.0

        def results() -> float:
            self._play_cues(cues + match_cues)
            self.totals = list(ev.get("totals") or self.totals)
            if match_end is not None:
                self.match_over = True
            if self._ff:
                return 0.0
            self.awaiting_results = True
            opened = False
            try:
                opened = self.app.open_scene("results", session=self.session, deal_end=ev, match_end=match_end)
            except Exception as e:  # noqa: BLE001 - a broken results screen must not end the match
                print(f"cardavia: the results screen failed: {e!r}", file=sys.stderr)
            finally:
                if not opened:
                    # No results screen yet: a short summary on the felt, then play on.
                    self.awaiting_results = False
                    pts = "  ·  ".join(f"{self.team_name(t)} {p}" for t, p in enumerate(ev.get("points") or []))
                    self.summary = (self.t("table.deal_summary", number=ev.get("number", self.deal_number),
                                           points=pts), max(0.5, tween.scaled(2.4)))
            return 0.0 if opened else 2.0
        self.steps.extend([leftovers, lambda: HOLD_DEAL_END, results])

    def _ev_match_end(self, ev: dict, cues: list[str]) -> None:
        self.match_over = True
        self.totals = list(ev.get("totals") or self.totals)

    def enter(self) -> None:
        # Back from the results screen (or the pause menu): the table carries on.
        if self.awaiting_results:
            self.awaiting_results = False

    def leave(self) -> None:
        if self not in self.app.stack.scenes:
            self.close()

    def close(self) -> None:
        """Leaving the table for good: keep the match, stop any thinking bot, hush."""
        if not self.session.over and not self.spectator:
            self._save()
        self.session.close()
        if self.app.audio is not None:
            self.app.audio.stop()

    # ================================================================== layout of the model
    def _targets(self) -> dict[str, Place]:
        L = self.layout
        out: dict[str, Place] = {}
        for code, p in zip(self.hand, L.hand(len(self.hand))):
            out[code] = p
        for seat, keys in self.backs.items():
            if seat == self.human:
                continue
            for k, p in zip(keys, L.backs(seat, len(keys))):
                out[k] = p
        for code, p in zip(self.table, L.table(len(self.table))):
            out[code] = p
        for seat, code in self.trick:
            out[code] = L.trick(seat)
        if self.trump is not None and L.trump() is not None:
            tp = L.trump()
            if self.closed:
                st = L.stock()
                tp = Place(st.x, st.y, st.h, -90.0)  # turned face down across the closed stock
            out[self.trump] = tp
        return out

    def _relayout(self, skip: set[str] | frozenset[str] = frozenset()) -> None:
        targets = self._targets()
        for key, place in targets.items():
            if key in skip:
                continue
            sp = self.sprites.get(key)
            if sp is None:
                sp = self.sprites[key] = CardSprite(key, None, self._deck_place(), z=20)
            sp.move(place, FLY)
            if key == self.trump:
                sp.turn(None if self.closed else key)
                sp.z = 1
            elif key in self.table:
                sp.z = 10 + self.table.index(key)
            elif key in self.hand:
                sp.z = 200 + self.hand.index(key)
            if key in self.hand or key in self.table or any(c == key for _, c in self.trick):
                if sp.code != key:
                    sp.turn(key)
        for code in self.hand:
            self.lifts.setdefault(code, Smooth(0.0, 18))

    # ================================================================== the human's choice
    def _lift_target(self, code: str) -> float:
        if not self.can_act or code not in self.hand:
            return 0.0
        if code == self.selected:
            return TL.LIFT
        i = self.hand.index(code)
        if self.selected is None and (i == self.cursor or code == self.hover_code):
            return TL.LIFT * 0.55
        return 0.0

    def _clear_choice(self) -> None:
        self.selected = None
        self.mode = None
        self.cands = []
        self.cand_i = 0
        self.built = []

    def candidates_for(self, code: str) -> list[Action]:
        """The legal plays of one hand card, in the order Tab cycles them."""
        mine = [a for a in self._legal() if a.kind == "play" and a.card is not None and a.card.code == code]
        if self.capture_game:
            caps = [a for a in mine if a.capture]
            place = [a for a in mine if not a.capture]
            return caps + place
        return sorted(mine, key=lambda a: not a.marriage)

    def select(self, code: str) -> None:
        """Choose a hand card: play it at once when there is only one way, else ask how."""
        if not self.can_act or code not in self.hand:
            return
        self.cursor = self.hand.index(code)
        mine = self.candidates_for(code)
        self._clear_choice()
        if self.capture_game:
            caps = [a for a in mine if a.capture]
            if len(mine) == 1:
                self._submit(mine[0])
            elif not mine:
                self._submit(play(code))
            else:
                self.selected, self.mode, self.cands, self.cand_i = code, "capture", caps or mine, 0
            return
        marry = [a for a in mine if a.marriage]
        plain = [a for a in mine if not a.marriage]
        if self.marriage_toggle:
            self._submit(marry[0] if marry else play(code, marriage=True))
        elif marry and plain:
            self.selected, self.mode, self.cands, self.cand_i = code, "marriage", [marry[0], plain[0]], 0
            self._place_ask_buttons()
        elif mine:
            self._submit(mine[0])
        else:
            self._submit(play(code))

    def _place_ask_buttons(self) -> None:
        i = self.hand.index(self.selected) if self.selected in self.hand else 0
        p = self.layout.hand(len(self.hand))[i]
        y = round(p.y - p.h / 2 - TL.LIFT - 58)
        x = max(220, min(1060 - 350, round(p.x) - 175))
        self.ask_buttons[0].rect.topleft = (x, y)
        self.ask_buttons[1].rect.topleft = (x + 180, y)

    def _choose(self, i: int) -> None:
        if self.mode == "marriage" and 0 <= i < len(self.cands):
            self._submit(self.cands[i])

    def confirm(self) -> None:
        """Enter (or a second click on the chosen card): take the highlighted / built set."""
        if self.selected is None:
            if 0 <= self.cursor < len(self.hand):
                self.select(self.hand[self.cursor])
            return
        if self.built:
            self._submit(play(self.selected, self.built))
        elif self.cands:
            self._submit(self.cands[self.cand_i % len(self.cands)])

    def cycle(self, step: int = 1) -> None:
        if self.cands:
            self.built = []
            self.cand_i = (self.cand_i + step) % len(self.cands)

    def place_only(self) -> None:
        """P / the "Place only" button / a click on the felt: put the card down, take nothing."""
        if not self.can_act:
            return
        code = self.selected or (self.hand[self.cursor] if 0 <= self.cursor < len(self.hand) else None)
        if code is not None:
            self._submit(play(code))

    def toggle_marriage(self) -> None:
        if self.game != "schnapsen":
            return
        if self.mode == "marriage":
            self._choose(0)
            return
        self.marriage_toggle = not self.marriage_toggle

    def click_table_card(self, code: str) -> None:
        """Build a capture set by clicking table cards; a complete, unambiguous set is taken."""
        if self.selected is None or not self.capture_game:
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
            self._submit(self.cands[exact[0]])
            return
        containing = exact or bigger
        if containing:
            self.cand_i = containing[0]

    def _submit(self, action: Action) -> bool:
        if not self.can_act:
            return False
        self.submitted.append(action)
        try:
            self.session.submit(action)
        except IllegalAction as e:
            self._refuse(e)
            return False
        self._clear_choice()
        self.refusal = None
        self.marriage_toggle = False
        self._pull()
        return True

    def refusal_text(self, e: IllegalAction) -> str:
        """The rules' refusal in the player's language, card codes turned into card names."""
        # The deck's court names, for messages like "declared with a {K} or a {Q}".
        params: dict[str, Any] = {r: self.deck.court_name(r, self.lang) for r in ("J", "Q", "K")}
        for k, v in (e.params or {}).items():
            if k in ("card", "match", "target", "led", "partner") and isinstance(v, str):
                params[k] = self.card_name(v)
            elif k == "options" and isinstance(v, str):
                params[k] = ", ".join(self.card_name(c.strip()) for c in v.split(",") if c.strip())
            else:
                params[k] = v
        key = f"refusals.{e.rule}"
        if not self.app.i18n.has(key) and not self.app.i18n.has(key, "en"):
            key = "refusals.illegal"
        return self.t(key, **params)

    def _refuse(self, e: IllegalAction) -> None:
        self.built = []
        self.refusal = (self.refusal_text(e), tween.Tween(0.0, 1.0, 3.2, lambda x: x))
        self.app.sound("click")

    def _preselect(self) -> None:
        """Screenshots: choose the card with the most captures (or the first), as a player would."""
        if not self.can_act or not self.hand:
            return
        best = max(self.hand, key=lambda c: len([a for a in self.candidates_for(c) if a.capture]))
        self.cursor = self.hand.index(best)
        caps = [a for a in self.candidates_for(best) if a.capture]
        if self.capture_game and caps:
            self.selected, self.mode, self.cands, self.cand_i = best, "capture", caps, 0
        else:
            self.selected = best
        for code in self.hand:
            self.lifts.setdefault(code, Smooth(0.0, 18)).snap(self._lift_target(code))

    # ================================================================== input
    def open_pause(self) -> None:
        self.app.open_scene("pause", table=self)

    def handle(self, event: pygame.event.Event) -> None:
        if self.final_panel:
            self._handle_final(event)
            return
        if event.type == pygame.KEYDOWN:
            self._key(event.key, getattr(event, "mod", 0))
            return
        if event.type == pygame.MOUSEMOTION:
            self.ui.handle(event)
            self.hover_code = self._hand_card_at(event.pos) if self.can_act else None
            if self.hover_code is not None and self.selected is None:
                self.cursor = self.hand.index(self.hover_code)
            return
        if event.type == pygame.MOUSEBUTTONDOWN:
            if event.button == 8:
                self.open_pause()
                return
            if self.ui.handle(event):
                return
            if event.button == 1:
                self._click(event.pos)
            elif event.button == 3:
                self._clear_choice()
            return
        if event.type == pygame.MOUSEBUTTONUP:
            self.ui.handle(event)

    def _key(self, key: int, mod: int) -> None:
        if key == pygame.K_ESCAPE:
            if self.mode is not None or self.selected is not None:
                self._clear_choice()
            else:
                self.open_pause()
            return
        if key == pygame.K_h:
            self.app.set_setting("hints", not self.app.settings.hints)
            self.app.toast(self.t("table.hints_on" if self.app.settings.hints else "table.hints_off"))
            return
        if not self.can_act:
            return
        n = len(self.hand)
        if key in (pygame.K_LEFT, pygame.K_RIGHT) and n:
            self._clear_choice()
            self.cursor = (self.cursor + (1 if key == pygame.K_RIGHT else -1)) % n
        elif key in NUMBER_KEYS:
            i = NUMBER_KEYS[key] - 1
            if i < n:
                self._clear_choice()
                self.cursor = i
        elif key == pygame.K_TAB:
            if self.mode is not None:
                self.cycle(-1 if mod & pygame.KMOD_SHIFT else 1)
        elif key in ENTER_KEYS:
            self.confirm()
        elif key == pygame.K_p and self.capture_game:
            self.place_only()
        elif key == pygame.K_c and self.game == "schnapsen":
            self._submit(CLOSE)
        elif key == pygame.K_x and self.game == "schnapsen":
            self._submit(EXCHANGE)
        elif key == pygame.K_r and self.game == "schnapsen":
            self.toggle_marriage()

    def _hand_card_at(self, pos: tuple[int, int]) -> str | None:
        for code in reversed(self.hand):
            r = self.card_rect(code)
            if r is not None and r.collidepoint(pos):
                return code
        return None

    def card_rect(self, code: str) -> pygame.Rect | None:
        """Where a card is drawn now (lift included): the mouse's target."""
        sp = self.sprites.get(code)
        if sp is None:
            return None
        x, y, a, h = sp.value()
        r = Place(x, y, round(h), a).bounds(self.deck.aspect)
        lift = self.lifts[code].value if code in self.lifts and code in self.hand else 0.0
        return r.move(0, -round(lift))

    def _click(self, pos: tuple[int, int]) -> None:
        if not self.can_act:
            return
        code = self._hand_card_at(pos)
        if code is not None:
            if code == self.selected:
                self.confirm()
            else:
                self.select(code)
            return
        for tc in reversed(self.table):
            r = self.card_rect(tc)
            if r is not None and r.collidepoint(pos):
                self.click_table_card(tc)
                return
        if self.selected is not None and self.capture_game and self.layout.table_area().collidepoint(pos):
            self._submit(play(self.selected))  # put it down on the felt
            return
        self._clear_choice()

    def _handle_final(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in ENTER_KEYS + (pygame.K_n,):
            self.play_again()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_m):
            self.to_menu()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            a, b = self._final_buttons()
            if a.collidepoint(event.pos):
                self.play_again()
            elif b.collidepoint(event.pos):
                self.to_menu()

    def play_again(self) -> None:
        s = self.session
        new = create(self.app, deck=self.deck.id, game=self.game, players=self.players,
                     options=dict(self.rules.options), ai_level=s.bot_name, seed=random.randrange(1, 2 ** 31),
                     threaded=s.threaded)
        self.app.stack.replace(new)

    def to_menu(self) -> None:
        """Leave for the menu (the match is saved unless it is over)."""
        stack = self.app.stack
        self.close()
        while stack.scenes and stack.top.name != "menu":
            stack.pop()
        if not stack.scenes:
            self.app.open_path("menu")

    # ================================================================== drawing
    def _active_seat(self) -> int | None:
        if not self.idle or self.session.over or self.final_panel:
            return None
        return self.session.to_act

    def draw(self, surface: pygame.Surface) -> None:
        P = self._painter()
        L = self.layout
        surface.blit(theme.table_background(), (0, 0))
        self._draw_hud(surface)
        # The trump under the stock, then the stock, then everything else by depth.
        sprites = sorted(self.sprites.values(), key=lambda s: (s.moving, s.z))
        trump_sp = self.sprites.get(self.trump) if self.trump else None
        if trump_sp is not None and not trump_sp.moving and not self.closed:
            self._draw_sprite(surface, P, trump_sp)
        st = L.stock()
        if st is not None:
            label = self.t("table.stock_closed") if self.closed else str(self.stock_count)
            count = self.stock_count - (1 if (self.trump and not self.closed and trump_sp is not None) else 0)
            if count > 0 or self.stock_count == 0:
                stack(P, surface, st, count, label if self.stock_count or self.closed else None)
            elif self.trump:
                badge(surface, label, (round(st.x), round(st.y + st.h / 2 + 2)))
        if trump_sp is not None and not trump_sp.moving and self.closed:
            self._draw_sprite(surface, P, trump_sp)
        for t in range(self.teams):
            pl = L.pile(t)
            stack(P, surface, pl, self.piles[t], str(self.piles[t]) if self.piles[t] else None)
        highlights = self._highlights()
        hand_set = set(self.hand)
        for sp in sprites:
            if sp is trump_sp and not sp.moving:
                continue
            if sp.key in hand_set and not sp.moving:
                continue
            self._draw_sprite(surface, P, sp, highlight=highlights.get(sp.key))
        # The hand last, left to right, lifted where the player points.
        dim = self._dimmed()
        for code in self.hand:
            sp = self.sprites.get(code)
            if sp is None or sp.moving:
                continue
            lift = self.lifts[code].value_at(self.alpha) if code in self.lifts else 0.0
            self._draw_sprite(surface, P, sp, lift=lift, highlight=highlights.get(code), dim=code in dim)
        for sp in sprites:
            if sp.key in hand_set and sp.moving:
                self._draw_sprite(surface, P, sp)
        self._draw_status(surface)
        self.ui.draw(surface)
        for c in self.callouts:
            c.draw(surface, (TL.TABLE_AREA.centerx, TL.TABLE_AREA.centery - 10))
        if self.refusal is not None:
            text, tw = self.refusal
            p = float(tw.value)
            a = min(1.0, p / 0.06) * min(1.0, (1 - p) / 0.2)
            banner(surface, text, (640, 478 - round((1 - min(1.0, p / 0.06)) * 10)), WARN, a)
        if self.summary is not None:
            banner(surface, self.summary[0], (640, 300), theme.BRASS, 1.0)
        if self.final_panel:
            self._draw_final(surface)

    def _draw_sprite(self, surface: pygame.Surface, P: CardPainter, sp: CardSprite, lift: float = 0.0,
                     highlight: Any = None, dim: bool = False) -> None:
        x, y, a, h = sp.value(self.alpha)
        code = sp.code
        squash = 1.0
        if sp.flip is not None and not sp.flip.done:
            f = float(sp.flip.value)
            code = sp.old_code if f < 0.5 else sp.code
            squash = max(0.04, abs(1 - 2 * f))
        shadow = 60 if h < 80 else 110
        rect = P.draw(surface, code, x, y, a, h, lift, squash, shadow)
        if dim:
            veil = theme.rounded(rect.size, max(4, rect.w // 10), (8, 20, 14, 120))
            surface.blit(veil, rect)
        if sp.glow > 0:
            outline(surface, rect, OUTLINE, sp.glow)
        if highlight is not None:
            color, strength = highlight
            outline(surface, rect, color, strength)

    def _highlights(self) -> dict[str, tuple[tuple[int, int, int], float]]:
        """The chosen card glows; the capture it would take is outlined; hints show the rest."""
        out: dict[str, tuple[tuple[int, int, int], float]] = {}
        if not self.can_act:
            return out
        hints = bool(getattr(self.app.settings, "hints", True))
        if self.selected is not None:
            out[self.selected] = (OUTLINE, 1.0)
            if hints:
                for a in self.cands:
                    for c in a.capture:
                        out[c.code] = (CANDIDATE, 0.45)
            if self.built:
                for c in self.built:
                    out[c] = (OUTLINE, 1.0)
            elif self.cands and self.mode == "capture":
                for c in self.cands[self.cand_i % len(self.cands)].capture:
                    out[c.code] = (OUTLINE, 1.0)
        elif hints and self.capture_game and 0 <= self.cursor < len(self.hand):
            for a in self.candidates_for(self.hand[self.cursor]):
                for c in a.capture:
                    out[c.code] = (CANDIDATE, 0.55)
        return out

    def _dimmed(self) -> set[str]:
        """Hints in trick games: cards the rules would refuse now are veiled."""
        if not self.can_act or self.capture_game or not getattr(self.app.settings, "hints", True):
            return set()
        playable = {a.card.code for a in self._legal() if a.kind == "play" and a.card is not None}
        return {c for c in self.hand if c not in playable}

    # ---- HUD
    def _draw_hud(self, surface: pygame.Surface) -> None:
        L = self.layout
        lang = self.lang
        # Name plates.
        for seat in range(self.players):
            r = L.plate(seat)
            n = len(self.hand) if seat == self.human else len(self.backs.get(seat, []))
            team = self.rules.team_of(seat)
            color = TEAM_COLORS[0] if team == self.human_team else TEAM_COLORS[1 + (team % 2 if self.players == 3 else 0)]
            thinking = 1.0 if (self.session.thinking and self.session.to_act == seat and self.idle) else 0.0
            count = self.t("table.cards_left", count=n) if seat != self.human else ""
            plate(surface, r, self.seat_name(seat), count, color, self.active_glow[seat].value, self.dealer == seat,
                  thinking, self.time)
        # The score panel.
        R = TL.SCORE_RECT
        rows = self._score_rows()
        h = 34 + 22 * len(rows) + 8
        rect = pygame.Rect(R.x, R.y, R.w, h)
        surface.blit(theme.shadow(rect.size, 12, 6, 110), (rect.x - 6, rect.y - 6 + 3))
        surface.blit(theme.panel(rect.size, 12), rect)
        name = self.rules.game.name.get(lang) or self.rules.game.name.get("en", self.game)
        nr = theme.blit_text(surface, name, (rect.x + 14, rect.y + 9), "serif_bold", 16, theme.CREAM, tracking=1.5,
                             caps=True)
        caption = self._score_caption()
        room = rect.right - 12 - (nr.right + 14)
        size = theme.fit(caption, "cond_bold", 11, room, 8, tracking_ratio=0.16, caps=True)
        if theme.text_width(caption, "cond_bold", size, size * 0.16, True) <= room:
            theme.small_caps(surface, caption, (rect.right - 12, rect.y + 12), size, theme.BRASS, anchor="topright")
        y = rect.y + 34
        for color, label, value, note in rows:
            pygame.draw.rect(surface, color, (rect.x + 14, y + 4, 3, 13), border_radius=1)
            lr = theme.blit_text(surface, label, (rect.x + 24, y), "sans_bold", 14, theme.CREAM)
            if note:
                nr = theme.blit_text(surface, note, (rect.right - 58, y + 2), "sans", 12, theme.CREAM_DIM,
                                     anchor="topright")
                theme.note_box(f"{label} | {note}", lr.w + 8 + nr.w, rect.right - 58 - lr.x)  # no overlap
            theme.blit_text(surface, value, (rect.right - 14, y - 1), "sans_bold", 16, theme.BRASS_LIGHT,
                            anchor="topright")
            y += 22

    def _score_caption(self) -> str:
        opts = self.rules.options
        deal = self.t("table.deal_number", number=max(1, self.deal_number))
        if self.game in ("scopa",) or (self.game == "cicera" and opts.get("format") == "match"):
            return f"{deal} · {self.t('table.target', target=opts.get('target'))}"
        if self.game == "schnapsen":
            return self.t("table.bummerl")
        if opts.get("format") == "single":
            return self.t("table.single_deal")
        return deal

    def _score_rows(self) -> list[tuple[Any, str, str, str]]:
        rows = []
        color = lambda t: TEAM_COLORS[0] if t == self.human_team else TEAM_COLORS[1 + (t % 2 if self.players == 3 else 0)]  # noqa: E731
        if self.capture_game:
            key = "table.scope" if self.game == "scopa" else "table.bonuses"
            for t in range(self.teams):
                note = self.t(key, count=self.bonus_count[t]) if self.bonus_count[t] else ""
                total = self.totals[t] if t < len(self.totals) else 0
                if self.game == "cicera" and self.rules.options.get("format") != "match":
                    total = self.totals[t] if self.deal_number > 1 or self.match_over else 0
                rows.append((color(t), self.team_name(t), str(total), note))
            return rows
        if self.game == "briscola":
            match = self.rules.options.get("format") == "match"
            for s in range(self.players):
                note = self.t("table.card_points")
                value = str(self.card_points[s])
                if match:
                    note = f"{self.t('table.deals_won')} {self.totals[s]}"
                rows.append((color(s), self.seat_name(s), value, note))
            return rows
        # Schnapsen: Bummerl counts, your own points as you would keep them, their won cards.
        for s in range(self.players):
            if s == self.human:
                pts = self.card_points[s] + self.marriage_points[s]
                note = f"{self.t('table.your_points')} {pts}"
                if self.pending[s]:
                    note += "  " + self.t("table.pending", points=self.pending[s])
            else:
                note = self.t("table.won_cards", count=self.won_cards[s])
            rows.append((color(s), self.seat_name(s), str(self.totals[s] if s < len(self.totals) else 7), note))
        return rows

    def _draw_status(self, surface: pygame.Surface) -> None:
        s = None
        sub = None
        if self.can_act:
            if self.mode == "capture":
                s = self.t("table.choose_capture_cicera" if self.game == "cicera" else "table.choose_capture")
            elif self.mode == "marriage":
                s = self.t("table.choose_marriage")
            else:
                s = self.t("table.your_turn_choose")
                sub = self.t(f"table.keys_{'capture' if self.game == 'scopa' else self.game}")
        elif self.idle and not self.session.over and self.session.to_act is not None:
            seat = self.session.to_act
            s = self.t("table.thinking" if self.session.thinking else "table.to_play",
                       name=self.seat_name(seat, subject=True))
        if s:
            img = theme.text(s, "sans_bold", 15, theme.CREAM, shadow=1)
            w = img.get_width() + 36
            r = pygame.Rect(0, 0, w, 28)
            r.center = TL.STATUS_POS
            surface.blit(theme.rounded(r.size, 14, (8, 24, 16, 170), 1, (*theme.BRASS_DARK, 200)), r)
            surface.blit(img, img.get_rect(center=(r.centerx, r.centery + 1)))
        if sub and self.selected is None:
            theme.blit_text(surface, sub, (640, TL.STATUS_POS[1] - 17), "sans", 12, theme.CREAM_FAINT,
                            anchor="midbottom")

    def _final_buttons(self) -> tuple[pygame.Rect, pygame.Rect]:
        return pygame.Rect(640 - 230, 400, 220, 48), pygame.Rect(640 + 10, 400, 220, 48)

    def _draw_final(self, surface: pygame.Surface) -> None:
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((0, 0, 0, 120))
        surface.blit(veil, (0, 0))
        box = pygame.Rect(0, 0, 560, 250)
        box.center = (640, 360)
        surface.blit(theme.shadow(box.size, 16, 10, 140), (box.x - 10, box.y - 4))
        surface.blit(theme.panel(box.size, 16, (10, 30, 20, 240), theme.BRASS), box)
        w = self.session.match.winner
        msg = "table.drawn" if w is None else ("table.you_won" if w == self.human_team else "table.you_lost")
        theme.heading(surface, self.t("table.match_over"), (640, box.y + 28), 26, anchor="midtop")
        theme.blit_text(surface, self.t(msg), (640, box.y + 84), "serif", 20, theme.CREAM, anchor="midtop")
        a, b = self._final_buttons()
        for r, key, primary in ((a, "table.play_again", True), (b, "table.to_menu", False)):
            body = theme.rounded(r.size, 12, (*theme.BRASS, 255) if primary else (12, 34, 24, 220), 1,
                                 (*theme.BRASS_DARK, 255))
            surface.blit(body, r)
            theme.blit_text(surface, self.t(key), r.center, "sans_bold", 15, (40, 28, 12) if primary else theme.CREAM,
                            anchor="center")


# ====================================================================== factory
def _bot_name(level: str | None) -> str:
    from game.ai import BOTS

    return level if level in BOTS else "greedy"


def create(app: Any, deck: str | None = None, game: str | None = None, players: int | None = None,
           options: dict | None = None, ai_level: str | None = None, seed: int | None = None,
           session: Any = None, threaded: bool | None = None, autoplay_moves: int | None = None,
           preselect: bool | None = None,
           close_stock: bool = False, human_seat: int | None = 0, **params: Any) -> TableScene:
    """A table for a new match (or the given ``session``, e.g. a resumed one).

    Screenshots and tests: ``seed`` fixes the cards, ``autoplay_moves`` plays that many
    decisions first (the human's by the greedy bot; ``close_stock`` makes the human close a
    Schnapsen stock when allowed) and stops at the human's turn, with a card chosen
    (``preselect``, on by default when fast-forwarding).
    """
    from game.session import Session

    headless = not getattr(app, "has_window", True)
    if threaded is None:
        threaded = not headless
    if autoplay_moves is None:
        # A seeded table without a window is a screenshot: show it mid-deal, a card chosen.
        autoplay_moves = (players or 2) + 1 if (headless and seed is not None and session is None) else 0
    if session is None:
        cfg = app.config
        gid = game if game in cfg.games else "scopa"
        gcfg = cfg.games[gid]
        if deck not in cfg.decks or gid not in cfg.decks[deck].games:
            deck = next(d.id for d in cfg.decks_for(gid))
        n = players if players in gcfg.players else min(gcfg.players)
        opts = gcfg.default_options()
        for k, v in (options or {}).items():
            if k in gcfg.options and v in gcfg.options[k].allowed:
                opts[k] = v
        level = ai_level or getattr(app.settings, "ai_level", "normal")
        s = random.randrange(1, 2 ** 31) if seed is None else int(seed)
        session = Session.new(gid, deck, n, opts, s, human_seat=human_seat, bot_name=_bot_name(level),
                              threaded=threaded and autoplay_moves <= 0)
        if autoplay_moves > 0:
            _autoplay(session, autoplay_moves, close_stock)
            session.threaded = threaded
            return TableScene(app, session, fresh=False, preselect=True if preselect is None else preselect)
        return TableScene(app, session, fresh=True, preselect=bool(preselect))
    return TableScene(app, session, fresh=False, preselect=bool(preselect))


def _autoplay(session: Any, moves: int, close_stock: bool = False) -> None:
    """Play ``moves`` decisions headlessly (the human's seat by a greedy bot), then go on
    until the human is to act in an unfinished deal."""
    from game.ai import make_bot

    session.start()
    helper = make_bot("greedy", session.rules, session.human_seat, session.seed)
    done = 0
    for _ in range(10000):
        if session.over:
            break
        if session.human_to_act:
            if done >= moves:
                break
            legal = session.legal_actions()
            if close_stock and CLOSE in legal:
                action = CLOSE
            else:
                action = helper.choose(session.view(), legal)
            session.submit(action)
            done += 1
        else:
            session.poll()
            done += 1
    session.take_events()


__all__ = ["TableScene", "create"]
