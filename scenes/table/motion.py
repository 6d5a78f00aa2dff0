"""The record events, animated: each event becomes a few *steps* (cards fly, a trick is
shown, then gathered), and each step changes the table model through its functions while
the card sprites travel to where the model now puts them.

A step returns how long to hold before the next one. Nothing here decides anything: the
events say what happened, the model what it means for the picture, the layout where it goes.
"""
from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable
from typing import Any

from scenes.table import model as M
from scenes.table.board import card_places
from scenes.table.narrate import Narrator
from sprites import table_layout as TL
from sprites import tween
from sprites.table_draw import Callout, CardSprite
from sprites.table_layout import Place
from sprites.tween import Smooth, Tween

# Normal-speed timings (seconds); the animation-speed setting scales them all.
FLY = 0.30
DEAL_GAP = 0.07
# Another seat's play can be followed: from its card leaving the hand until the table changes
# again at least 0.8 s pass at Normal speed (it flies in, then rests where it lands).
HOLD_PLAY = 0.85
HOLD_CAPTURE = 0.90      # it flies onto what it takes and rests there; the viewer's own: 0.45
HOLD_OWN_CAPTURE = 0.45
HOLD_TRICK = 0.75        # a complete trick stays ("briefly"), or 1.5 s, or until a click
HOLD_TRICK_TIMED = 1.5
HOLD_DEAL_END = 0.6
CAPTION_FRESH = 6.0      # then a caption dims (it stays until the next one)

Step = Callable[[], float]


class TableMotion:
    """The sprites and the queue of events still to show, for one table scene (``host``:
    the app, the model, the layout, the names; see :class:`scenes.table.scene.TableScene`)."""

    def __init__(self, host: Any):
        self.host = host
        self.model: M.TableModel = host.model
        self.layout = host.layout
        self.sprites: dict[str, CardSprite] = {}
        #: The sprite keys of the face-down cards in front of each other seat.
        self.backs: dict[int, list[str]] = {s: [] for s in range(self.model.players)}
        self.lifts: dict[str, Smooth] = {}
        self.queue: deque[dict] = deque()
        self.cues: deque[list[str]] = deque()
        self.steps: deque[Step] = deque()
        self.hold = 0.0
        self.awaiting_results = False
        self.callouts: list[Callout] = []
        self.summary: tuple[str, float] | None = None
        self.ff = False  # fast-forwarding: no sound, no call-outs, no results screen
        self._serial = 0
        #: What happened, in words (the caption over the felt; the log tells the same); the
        #: seat whose play is shown (its plate lights); a finished trick in view / waiting.
        self.narrator = Narrator(host.rules, host.t, host.lang, self.model.viewer)
        self.narrator.given = host.given_names()
        self.caption: str | None = None
        self.caption_age = 0.0
        self.acting: int | None = None
        self.trick_shown = self.waiting = False

    @property
    def viewer(self) -> int:
        return self.model.viewer

    @property
    def idle(self) -> bool:
        """Nothing left to animate: the table shows the session's position."""
        return (not self.queue and not self.steps and self.hold <= 0 and not self.awaiting_results
                and not self.waiting and not any(s.moving for s in self.sprites.values()))

    def feed(self, events: list[dict], cues: list[list[str]]) -> None:
        self.queue.extend(events)
        self.cues.extend(cues)

    def fast_forward(self, events: list[dict], speed: str) -> None:
        """Apply events with every animation finished at once (resume, screenshots)."""
        tween.set_animation_speed("instant")
        try:
            self.feed(events, [[] for _ in events])
            self.ff = True
            self.advance(0.0, limit=100000)
        finally:
            self.ff = False
            tween.set_animation_speed(speed)
        for key, sp in list(self.sprites.items()):
            if sp.vanish:
                del self.sprites[key]
                continue
            end = sp.tween.end
            sp.tween = Tween(end, end, 0.0)  # settled for good, whatever the speed is now
            sp.flip = None
        self.callouts.clear()
        said = [ln.caption for ln in self.narrator.deal.lines if ln.caption]
        self.caption, self.caption_age = (said[-1] if said else None), CAPTION_FRESH  # shown dimmed

    def advance(self, dt: float, limit: int = 400) -> None:
        """Move the animation on: sprites and call-outs tick; when all is still, the next step."""
        for s in list(self.sprites.values()):
            s.update(dt)
            if s.vanish and not s.moving:
                del self.sprites[s.key]
        for c in self.callouts:
            c.update(dt)
        self.callouts = [c for c in self.callouts if not c.done]
        self.caption_age += dt
        if self.hold > 0:
            self.hold -= dt
        for _ in range(limit):
            if self.awaiting_results or self.waiting or self.hold > 0 or any(s.moving for s in self.sprites.values()):
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
            self.expand(ev, cues)

    # ------------------------------------------------------------------ sound and call-outs
    def play_cues(self, cues: list[str]) -> None:
        audio = self.host.app.audio
        if cues and not self.ff and audio is not None:
            audio.play_all(cues, gap=0.12)

    def _play_deal_sounds(self, n: int) -> None:
        audio = self.host.app.audio
        if not self.ff and audio is not None and n:
            audio.play_all(["deal"] * min(n, 12), gap=DEAL_GAP * tween.speed_factor() or 0.05)

    def callout(self, key: str, sub: str = "", **params: Any) -> None:
        if self.ff or tween.speed_factor() <= 0:
            return
        words = self.host.rules.bonus_callouts
        if key in words:
            text = words[key]
        elif key == "marriage":
            text = f"{params.get('points', '')}!"
        else:
            text = self.host.t(f"callouts.{key}", **params)
        self.callouts = [Callout(text, sub, 1.5)]

    # ------------------------------------------------------------------ events → steps
    def expand(self, ev: dict, cues: list[str]) -> None:
        fn = getattr(self, f"_ev_{ev.get('event')}", None)
        if fn is None:
            return
        self.host.controller.clear_choice()
        line = self.narrator.feed(ev)
        if line is not None and not self.ff:
            # The words come up as the event's first step starts (its card leaves the hand).
            def announce() -> float:
                if line.caption:
                    self.caption, self.caption_age = line.caption, 0.0
                    self.acting = line.seat
                return 0.0
            self.steps.append(announce)
        fn(ev, cues)

    # ------------------------------------------------------------------ a finished trick
    def trick_hold(self) -> float:
        """How long a finished trick stays (Settings); "until I click" waits for :meth:`release`."""
        mode = getattr(self.host.app.settings, "trick_hold", "timed")
        if self.ff or (mode == "click" and not self.host.controller.spectator):
            self.waiting = not self.ff
            return 0.0
        return HOLD_TRICK if mode == "brief" else HOLD_TRICK_TIMED

    @property
    def holding_trick(self) -> bool:
        """A finished trick is in view, waiting or timed: a click or a key gathers it."""
        return self.waiting or (self.trick_shown and self.hold > 0)

    def release(self) -> bool:
        """Gather the finished trick now (a click or a key); False when none is shown."""
        if not self.holding_trick:
            return False
        self.waiting, self.hold = False, 0.0
        return True

    def _ev_match(self, ev: dict, cues: list[str]) -> None:
        M.start_match(self.model, ev)

    def deck_place(self) -> Place:
        st = self.layout.stock()
        if st is not None:
            return st
        a = TL.TABLE_AREA
        return Place(a.centerx, a.centery, TL.TABLE_HEIGHT)

    def _new_key(self, prefix: str) -> str:
        self._serial += 1
        return f"{prefix}{self._serial}"

    def _ev_deal(self, ev: dict, cues: list[str]) -> None:
        def step() -> float:
            self.play_cues(cues[:1])
            for s in list(self.sprites.values()):  # anything left (a void deal) goes back
                s.move(self.deck_place(), FLY)
                s.turn(None)
                s.vanish = True
            self.backs = {s: [] for s in range(self.model.players)}
            M.start_deal(self.model, ev)
            self.host.controller.cursor = 0
            return 0.15

        def deal_cards() -> float:
            hands = ev.get("hands") or []
            self._deal_hands(hands, start=self.model.first_seat())
            self._deal_table(ev.get("table") or [], delay0=DEAL_GAP * sum(len(h) for h in hands))
            trump = self.model.trump
            if trump:
                key = trump
                sp = CardSprite(key, None, self.deck_place(), z=0)
                self.sprites[key] = sp
                n = sum(len(h) for h in hands)
                sp.move(self.layout.trump(), FLY, DEAL_GAP * n + 0.1)
                sp.turn(trump, DEAL_GAP * n + 0.1 + FLY)
            return 0.2
        self.steps.extend([step, deal_cards])

    def _deal_hands(self, hands: list[list[str]], start: int, delay0: float = 0.0) -> None:
        """Cards fly from the stock one by one, round the table, and turn face up for the viewer."""
        deck = self.deck_place()
        n = self.model.players
        order: list[tuple[int, str]] = []
        longest = max((len(h) for h in hands), default=0)
        for i in range(longest):
            for k in range(n):
                seat = (start + k) % n
                if seat < len(hands) and i < len(hands[seat]):
                    order.append((seat, hands[seat][i]))
        M.deal_hands(self.model, hands)
        keys: list[str] = []
        for seat, code in order:
            if seat == self.viewer:
                keys.append(code)
            else:
                key = self._new_key(f"b{seat}:")
                self.backs[seat].append(key)
                keys.append(key)
        targets = self.targets()
        hand = set(self.model.hand)
        for j, key in enumerate(keys):
            sp = CardSprite(key, None, deck, z=50 + j)
            self.sprites[key] = sp
            d = delay0 + DEAL_GAP * j
            sp.move(targets[key], FLY, d)
            if key in hand:
                sp.turn(key, d + FLY * 0.6)
        self._play_deal_sounds(len(order))
        self.relayout()

    def _deal_table(self, codes: list[str], delay0: float) -> None:
        deck = self.deck_place()
        M.deal_table(self.model, codes)
        targets = self.targets()
        for i, code in enumerate(codes):
            sp = CardSprite(code, None, deck, z=10)
            self.sprites[code] = sp
            d = delay0 + DEAL_GAP * i
            sp.move(targets[code], FLY, d)
            sp.turn(code, d + FLY * 0.5)

    def _ev_redeal(self, ev: dict, cues: list[str]) -> None:
        def step() -> float:
            self.play_cues(cues)
            self.callout("redeal", self.host.t("callouts.redeal_sub"))
            return 1.2
        self.steps.append(step)

    def _ev_hands(self, ev: dict, cues: list[str]) -> None:
        def step() -> float:
            self.play_cues(cues)
            hands = ev.get("hands") or []
            m = self.model
            m.stock_count = max(0, m.stock_count - sum(len(h) for h in hands))
            self._deal_hands(hands, start=m.first_seat())
            return 0.15
        self.steps.append(step)

    def _leaving_sprite(self, seat: int, code: str) -> CardSprite:
        """The sprite of a card leaving ``seat``'s hand (another seat's back turns into it).
        Call before the model takes the card from the hand."""
        if seat == self.viewer and code in self.model.hand:
            sp = self.sprites.get(code)
            if sp is not None:
                return sp
        backs = self.backs.get(seat) or []
        if seat != self.viewer and code in backs:  # a known card, face up in that hand
            backs.remove(code)
            sp = self.sprites.get(code)
            if sp is not None:
                sp.z = 80
                return sp
        hidden = [k for k in backs if k not in self.model.known[seat]]
        if seat != self.viewer and hidden:
            key = hidden[len(hidden) // 2]
            backs.remove(key)
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
        m = self.model
        if not m.capture:
            def trick_play() -> float:
                self.play_cues(cues)
                sp = self._leaving_sprite(seat, code)
                sp.z = 60 + len(m.trick)
                M.play_card(m, seat, code)
                self.relayout()
                return HOLD_PLAY if seat != self.viewer else 0.05
            self.steps.append(trick_play)
            return

        def place_or_approach() -> float:
            self.play_cues(cues[:1])
            sp = self._leaving_sprite(seat, code)
            sp.z = 90
            M.play_card(m, seat, code, captures=bool(capture))
            if not capture:
                self.relayout()
                return HOLD_PLAY if seat != self.viewer else 0.1
            # The played card comes to rest on the first card it takes.
            first = self.sprites.get(capture[0])
            target = first.end_place if first is not None else self.deck_place()
            sp.move(Place(target.x + 14, target.y + 12, target.h, 4.0), FLY)
            for c in capture:
                if c in self.sprites:
                    self.sprites[c].glow = 1.0
            self.relayout(skip={code})
            return HOLD_CAPTURE if seat != self.viewer else HOLD_OWN_CAPTURE

        def gather() -> float:
            team = m.team_of(seat)
            self._fly_to_pile([code, *capture], team)
            M.take(m, seat, [code, *capture], bonuses)
            if bonuses:
                # The banner names who scored: "Scopa!" over "West", "Scùa!" over "You · Simili".
                words = self.host.rules.bonus_callouts
                self.callout(bonuses[0], " · ".join([self.host.seat_name(seat)]
                                                    + [words.get(b, b).rstrip("!") for b in bonuses[1:]]))
                self.play_cues(cues[1:])
            self.relayout()
            return 0.9 if bonuses else 0.15
        self.steps.append(place_or_approach)
        if capture:
            self.steps.append(gather)

    def _fly_to_pile(self, codes: list[str], team: int) -> None:
        dest = self.layout.pile(team)
        for i, c in enumerate(codes):
            sp = self.sprites.get(c)
            if sp is None:
                continue
            sp.glow = 0.0
            sp.z = 95
            sp.move(dest, FLY + 0.04 * i, 0.03 * i)
            sp.turn(None, 0.03 * i + FLY * 0.5)
            sp.vanish = True

    def _ev_trick(self, ev: dict, cues: list[str]) -> None:
        winner = ev.get("winner")
        pts = int(ev.get("points") or 0)
        m = self.model

        def show() -> float:
            self.trick_shown = True
            return self.trick_hold()

        def gather() -> float:
            self.trick_shown = self.waiting = False
            self.play_cues(cues)
            self._fly_to_pile([c for _, c in m.trick], m.team_of(winner))
            M.gather_trick(m, winner, pts)
            if not m.hand and not any(self.backs.values()):
                self.callout("last_trick", self.host.seat_name(winner))
                return 0.8
            return 0.2
        self.steps.extend([show, gather])

    def _ev_draw(self, ev: dict, cues: list[str]) -> None:
        seat, code = ev.get("seat"), ev.get("card")
        m = self.model

        def step() -> float:
            self.play_cues(cues)
            from_trump = code == m.trump and m.trump in self.sprites
            if from_trump:
                sp = self.sprites[code]
                sp.z = 70
            else:
                sp = CardSprite("", None, self.deck_place(), z=70)
            M.draw(m, seat, code)
            if seat == self.viewer:
                sp.key = code
                self.sprites.pop(code, None)
                self.sprites[code] = sp
                sp.turn(code, FLY * 0.5)
            elif code in m.known[seat]:
                # Drawn face up (Tressette for two): it stays so, keyed by its code, until played.
                sp.key = code
                self.sprites[code] = sp
                self.backs[seat].append(code)
                sp.turn(code, FLY * 0.5)
            else:
                if from_trump:
                    del self.sprites[code]
                key = self._new_key(f"b{seat}:")
                sp.key = key
                self.sprites[key] = sp
                self.backs[seat].append(key)
                sp.turn(None, FLY * 0.6)
            self.relayout()
            return 0.08
        self.steps.append(step)

    def _ev_exchange(self, ev: dict, cues: list[str]) -> None:
        seat, gave, took = ev.get("seat"), ev.get("gave"), ev.get("took")

        def step() -> float:
            self.play_cues(cues)
            old = self.sprites.pop(took, None)
            new = self._leaving_sprite(seat, gave)
            new.z = 5
            M.exchange(self.model, seat, gave, took)
            if seat == self.viewer:
                sp = old or CardSprite(took, took, self.layout.trump())
                sp.key = took
                self.sprites[took] = sp
            else:
                key = self._new_key(f"b{seat}:")
                sp = old or CardSprite(key, None, self.layout.trump())
                sp.key = key
                sp.turn(None, FLY * 0.6)
                self.sprites[key] = sp
                self.backs[seat].append(key)
            self.callout("exchange", f"{self.host.seat_name(seat)} · {self.host.card_name(gave)}")
            self.relayout()
            return 0.7
        self.steps.append(step)

    def _ev_marriage(self, ev: dict, cues: list[str]) -> None:
        seat, suit, pts = ev.get("seat"), ev.get("suit"), int(ev.get("points") or 0)

        def step() -> float:
            self.play_cues(cues)
            M.marriage(self.model, seat, pts)
            try:
                suit_name = self.host.deck.suit_name(suit, self.host.lang)
            except (KeyError, TypeError):
                suit_name = str(suit)
            self.callout("marriage", self.host.t("callouts.marriage_sub", name=self.host.seat_name(seat),
                                                 suit=suit_name), points=pts)
            return 1.0
        # The card led next declares it; its partner is shown face up meanwhile (issue 17).
        nxt = self.queue[0] if self.queue else {}
        reveal = self._partner_steps(seat, nxt.get("card")) if nxt.get("event") == "play" \
            and nxt.get("seat") == seat else []
        self.steps.extend([reveal[0], step, reveal[1]] if reveal else [step])

    def _partner_steps(self, seat: int, led: str | None) -> list[Step]:
        """[show, hide] for the declared marriage's partner card (the rules' ``partner`` of the
        card led): another seat's back turns face up and leans towards the table, the viewer's
        own glows, while the marriage is called out; then it goes back. Nothing when
        fast-forwarding; [] when the game names no partner."""
        from game.cards import card

        pairs = getattr(self.host.rules, "partner", None) or {}
        try:
            partner = pairs.get(card(led)) if led else None
        except (KeyError, ValueError):
            partner = None
        if partner is None:
            return []
        code = partner.code
        shown: list[CardSprite] = []

        def show() -> float:
            if self.ff:
                return 0.0
            if seat == self.viewer:
                sp = self.sprites.get(code)
                if sp is not None:
                    sp.glow = 1.0
                    shown.append(sp)
                return 0.0
            backs = self.backs.get(seat) or []
            if len(backs) < 2:
                return 0.0
            sp = self.sprites.get(backs[0])  # not the middle one: that one is about to be led
            if sp is None:
                return 0.0
            p, a = sp.end_place, TL.TABLE_AREA
            dx, dy = a.centerx - p.x, a.centery - p.y
            d = max(1.0, (dx * dx + dy * dy) ** 0.5)
            sp.move(Place(p.x + 40 * dx / d, p.y + 40 * dy / d, p.h, p.angle), FLY)
            sp.turn(code, 0.0, 0.25)
            sp.z = 150
            shown.append(sp)
            return 0.0

        def hide() -> float:
            for sp in shown:
                sp.glow = 0.0
                if sp.key != code:
                    sp.turn(None, 0.0, 0.2)
            self.relayout()
            return 0.05
        return [show, hide]

    def _ev_close(self, ev: dict, cues: list[str]) -> None:
        seat = ev.get("seat")

        def step() -> float:
            self.play_cues(cues)
            M.close(self.model)
            # "You close" needs its own verb form in nl/de/it.
            sub = "callouts.close_sub_you" if seat == self.viewer else "callouts.close_sub"
            self.callout("close", self.host.t(sub, name=self.host.seat_name(seat, subject=True)))
            self.relayout()
            return 1.0
        self.steps.append(step)

    def _ev_deal_end(self, ev: dict, cues: list[str]) -> None:
        match_end = self.queue[0] if self.queue and self.queue[0].get("event") == "match_end" else None
        # The match's own sound (won / lost) is heard as its result appears, with the deal's.
        match_cues = list(self.cues[0]) if match_end is not None and self.cues else []
        left = ev.get("leftover") or None
        m = self.model
        host = self.host

        def leftovers() -> float:
            if left and m.capture and m.table:
                self.callout("leftover", host.t("callouts.leftover_sub", name=host.team_name(left.get("team", 0))))
                team = left.get("team", 0)
                self._fly_to_pile([c for c in left.get("cards", []) if c in m.table], team)
                M.leftover(m, left)
                self.relayout()
                return 0.9
            return 0.0

        def results() -> float:
            self.play_cues(cues + match_cues)
            M.end_deal(m, ev)
            if match_end is not None:
                m.match_over = True
            if self.ff:
                return 0.0
            self.awaiting_results = True
            opened = False
            try:
                opened = host.app.open_scene("results", session=host.session, deal_end=ev, match_end=match_end)
            except Exception as e:  # noqa: BLE001 - a broken results screen must not end the match
                print(f"cardavia: the results screen failed: {e!r}", file=sys.stderr)
            finally:
                if not opened:
                    # No results screen: a short summary on the felt, then play on.
                    self.awaiting_results = False
                    pts = "  ·  ".join(f"{host.team_name(t)} {p}" for t, p in enumerate(ev.get("points") or []))
                    self.summary = (host.t("table.deal_summary", number=ev.get("number", m.deal_number),
                                           points=pts), max(0.5, tween.scaled(2.4)))
            return 0.0 if opened else 2.0
        self.steps.extend([leftovers, lambda: HOLD_DEAL_END, results])

    def _ev_match_end(self, ev: dict, cues: list[str]) -> None:
        M.end_match(self.model, ev)

    # ------------------------------------------------------------------ where the model's cards go
    def targets(self) -> dict[str, Place]:
        """Where every card the model shows goes now (sprite key -> place)."""
        return card_places(self.layout, self.model, self.backs)

    def relayout(self, skip: set[str] | frozenset[str] = frozenset()) -> None:
        m = self.model
        for key, place in self.targets().items():
            if key in skip:
                continue
            sp = self.sprites.get(key)
            if sp is None:
                sp = self.sprites[key] = CardSprite(key, None, self.deck_place(), z=20)
            sp.move(place, FLY)
            if key == m.trump:
                sp.turn(None if m.closed else key)
                sp.z = 1
            elif key in m.table:
                sp.z = 10 + m.table.index(key)
            elif key in m.hand:
                sp.z = 200 + m.hand.index(key)
            if key in m.hand or key in m.table or any(c == key for _, c in m.trick):
                if sp.code != key:
                    sp.turn(key)
        for code in m.hand:
            self.lifts.setdefault(code, Smooth(0.0, 18))


__all__ = ["TableMotion", "FLY", "DEAL_GAP", "HOLD_PLAY", "HOLD_CAPTURE", "HOLD_OWN_CAPTURE", "HOLD_TRICK",
           "HOLD_TRICK_TIMED", "HOLD_DEAL_END", "CAPTION_FRESH"]
