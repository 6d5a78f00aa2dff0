"""The record events, animated: the sprites, the queue of events still to show and the steps
they became. Each event's declared table effect has its animation in scenes.table.animate
(``ANIMATE``), which queues a few *steps* (cards fly, a trick is shown, then gathered); each step changes the table
model through its functions while the card sprites travel to where the model now puts them.

A step returns how long to hold before the next one. Nothing here decides anything: the
events say what happened, the model what it means for the picture, the layout where it goes.
The animation asks its ``host`` (scenes.table.view.MotionHost: the controller) only to drop a
half-made choice as an event is shown, to reset the cursor for a deal, and to open the
results screen at a deal's end.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from scenes.table import model as M
from scenes.table.board import card_places
from scenes.table.narrate import Line, Narrator
from scenes.table.view import MotionHost, TableNames
from sprites import table_layout as TL
from sprites import tween
from sprites.table_draw import Callout, CardSprite
from sprites.table_layout import Place, TableLayout
from sprites.tween import Smooth, Tween

# Normal-speed timings (seconds); the animation-speed setting scales them all.
FLY = 0.30
DEAL_GAP = 0.07
# Another seat's play can be followed: from its card leaving the hand until the table changes
# again at least 0.8 s pass at Normal speed (it flies in, then rests where it lands).
HOLD_PLAY = 0.85
HOLD_CAPTURE = 0.90  # it flies onto what it takes and rests there; the viewer's own: 0.45
HOLD_OWN_CAPTURE = 0.45
HOLD_TRICK = 0.75  # a complete trick stays ("briefly"), or 1.5 s, or until a click
HOLD_TRICK_TIMED = 1.5
HOLD_DEAL_END = 0.6
VOICE_WAIT = 6.0  # the longest an event waits for the voice to finish the last lines
CAPTION_FRESH = 6.0  # then a caption dims (it stays until the next one)

if TYPE_CHECKING:
    from game.rules.base import GameRules
    from scenes.scene import AppServices

Step = Callable[[], float]
#: One effect's animation: (the motion, the event, its sound cues) -> steps queued.
Animation = Callable[["TableMotion", M.Event, list[str]], None]


class TableMotion:
    """The sprites and the queue of events still to show, for one table: its ``model``
    (changed step by step), ``layout``, ``rules``, the words for seats and cards
    (``names``), the ``app`` (the audio, the settings), the ``host`` (see the module) and the
    ``animations`` that turn each table effect into steps (scenes.table.animate)."""

    def __init__(
        self,
        model: M.TableModel,
        layout: TableLayout,
        rules: GameRules,
        names: TableNames,
        app: AppServices,
        host: MotionHost,
        animations: Callable[[str], Animation],
    ):
        self.host = host
        #: The animation of each table effect (scenes.table.animate.animation).
        self.animations = animations
        self.app = app
        self.rules = rules
        self.names = names
        self.model = model
        self.layout = layout
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
        self.narrator = self._new_narrator()
        #: The events told so far and the line each gave (None: nothing to tell), so that a
        #: change of language tells them again (:meth:`retell`).
        self.told: list[dict] = []
        self.told_lines: list[Line | None] = []
        #: The told event whose caption is shown (its index in ``told``), None for none.
        self.caption_event: int | None = None
        self.caption: str | None = None
        self.caption_age = 0.0
        self.acting: int | None = None
        self.trick_shown = self.waiting = False
        self.voice_wait = 0.0

    @property
    def viewer(self) -> int:
        return self.model.viewer

    def _new_narrator(self) -> Narrator:
        narrator = Narrator(self.rules, self.names.t, self.names.lang, self.model.viewer)
        narrator.given = self.names.given()
        return narrator

    def retell(self) -> bool:
        """The language changed (Settings, mid-match): tell the events shown so far again in
        the new one, so the caption, the play log and the reading keys follow it. True when
        they were told again."""
        if self.narrator.lang == self.names.lang:
            return False
        self.narrator = self._new_narrator()
        self.told_lines = [self.narrator.feed(ev) for ev in self.told]
        i = self.caption_event
        line = self.told_lines[i] if i is not None and i < len(self.told_lines) else None
        if line is not None and line.caption:
            self.caption = line.caption
        return True

    @property
    def idle(self) -> bool:
        """Nothing left to animate: the table shows the session's position."""
        return (
            not self.queue
            and not self.steps
            and self.hold <= 0
            and not self.awaiting_results
            and not self.waiting
            and not any(s.moving for s in self.sprites.values())
        )

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
        self.caption_event = next(
            (
                i
                for i in range(len(self.told_lines) - 1, -1, -1)
                if self.caption and getattr(self.told_lines[i], "caption", None) == self.caption
            ),
            None,
        )

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
            if self.waiting_for_voice(dt):
                return
            ev = self.queue.popleft()
            cues = self.cues.popleft() if self.cues else []
            self.expand(ev, cues)

    def waiting_for_voice(self, dt: float) -> bool:
        """The next event waits while the voice is still telling the last ones (a player who
        listens would otherwise hear the table minutes behind), at most VOICE_WAIT seconds."""
        speech = getattr(self.app, "speech", None)
        if self.ff or speech is None or not speech.busy():
            self.voice_wait = 0.0
            return False
        self.voice_wait += dt
        if self.voice_wait > VOICE_WAIT:
            self.voice_wait = 0.0
            return False
        return True

    # ------------------------------------------------------------------ sound and call-outs
    def play_cues(self, cues: list[str]) -> None:
        audio = self.app.audio
        if cues and not self.ff and audio is not None:
            audio.play_all(cues, gap=0.12)

    def play_deal_sounds(self, n: int) -> None:
        audio = self.app.audio
        if not self.ff and audio is not None and n:
            audio.play_all(["deal"] * min(n, 12), gap=DEAL_GAP * tween.speed_factor() or 0.05)

    def callout(self, key: str, sub: str = "", **params: object) -> None:
        """The call-out ``key``: a bonus by the game's word for it ("Scopa!"), else the
        language's ``callouts.<key>``."""
        words = self.rules.bonus_callouts
        self.show_callout(words[key] if key in words else self.names.t(f"callouts.{key}", **params), sub)

    def show_callout(self, text: str, sub: str = "") -> None:
        """A call-out over the felt (none while fast-forwarding or at instant speed)."""
        if self.ff or tween.speed_factor() <= 0:
            return
        self.callouts = [Callout(text, sub, 1.5)]

    def words(self, key: str, **params: object) -> str | None:
        """The language's words for ``key``, None when it has none."""
        text = self.names.t(key, **params)
        return None if text == key else text

    # ------------------------------------------------------------------ events → steps
    def expand(self, ev: dict, cues: list[str]) -> None:
        """One event into steps: its words (the narrator's caption), then its animation
        (the handler its kind has in ``handlers``)."""
        name = ev.get("event")
        if not isinstance(name, str) or name not in self.model.effects:
            return  # a line the game does not declare: nothing to show
        fn = self.animations(M.effect_of(self.model, ev))
        self.host.clear_choice()
        line = self.narrator.feed(ev)
        self.told.append(ev)
        self.told_lines.append(line)
        index = len(self.told) - 1
        if line is not None and not self.ff:
            # The words come up as the event's first step starts (its card leaves the hand).
            def announce(first: Line = line) -> float:
                # Read now, not when queued: the language may have changed in between.
                line = self.told_lines[index] or first
                say = getattr(self.app, "say", None)
                # The screen reader hears what the felt shows, and your own draws; another
                # seat's hidden draw ("North draws a card") only costs the listener time.
                hidden_draw = line.kind == "draw" and line.seat != self.viewer and not line.caption
                if say is not None and not hidden_draw:
                    say(line.caption or line.text)
                if line.caption:
                    self.caption, self.caption_age = line.caption, 0.0
                    self.caption_event = index
                    self.acting = line.seat
                return 0.0

            self.steps.append(announce)
        fn(self, ev, cues)

    # ------------------------------------------------------------------ a finished trick
    def trick_hold(self) -> float:
        """How long a finished trick stays (Settings); "until I click" waits for :meth:`release`."""
        mode = getattr(self.app.settings, "trick_hold", "timed")
        if self.ff or (mode == "click" and not self.host.spectator):
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

    def deck_place(self) -> Place:
        st = self.layout.stock()
        if st is not None:
            return st
        a = TL.TABLE_AREA
        return Place(a.centerx, a.centery, TL.TABLE_HEIGHT)

    def new_key(self, prefix: str) -> str:
        """A fresh sprite key (another seat's back)."""
        self._serial += 1
        return f"{prefix}{self._serial}"

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


__all__ = [
    "TableMotion",
    "FLY",
    "DEAL_GAP",
    "HOLD_PLAY",
    "HOLD_CAPTURE",
    "HOLD_OWN_CAPTURE",
    "HOLD_TRICK",
    "HOLD_TRICK_TIMED",
    "HOLD_DEAL_END",
    "CAPTION_FRESH",
]
