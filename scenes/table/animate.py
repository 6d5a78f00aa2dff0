"""Each record event, animated by the table effect its game declares for it (the
mechanisms of scenes.table.model: a deal, a card played, a trick collected, a draw, an
exchange, an announcement, the stock closed …), registered by effect in :data:`ANIMATE`; an
event of no effect the table knows is shown by :func:`shown`: its sound, its call-out.

A handler queues a few *steps* on the table's :class:`~scenes.table.motion.TableMotion` (cards
fly, a trick is shown, then gathered); each step changes the table model through its
functions while the card sprites travel to where the model now puts them, and returns how
long to hold before the next one.
"""

from __future__ import annotations

from collections.abc import Callable

from scenes.table import model as M
from scenes.table.model import Event
from scenes.table.motion import (
    DEAL_GAP,
    FLY,
    HOLD_CAPTURE,
    HOLD_DEAL_END,
    HOLD_OWN_CAPTURE,
    HOLD_PLAY,
    Animation,
    Step,
    TableMotion,
)
from sprites import table_layout as TL
from sprites import tween
from sprites.table_draw import CardSprite
from sprites.table_layout import Place

#: The animation of each table effect.
ANIMATE: dict[str, Animation] = {}


def _on(*effects: str) -> Callable[[Animation], Animation]:
    def register(fn: Animation) -> Animation:
        for effect in effects:
            ANIMATE[effect] = fn
        return fn

    return register


def animation(effect: str) -> Animation:
    """The animation of ``effect``: its own, or :func:`shown` for one the table only tells."""
    return ANIMATE.get(effect, shown)


@_on("match_start")
def _match(mo: TableMotion, ev: Event, cues: list[str]) -> None:
    M.start_match(mo.model, ev)


@_on("deal")
def _deal(mo: TableMotion, ev: Event, cues: list[str]) -> None:
    def step() -> float:
        mo.play_cues(cues[:1])
        for s in list(mo.sprites.values()):  # anything left (a void deal) goes back
            s.move(mo.deck_place(), FLY)
            s.turn(None)
            s.vanish = True
        mo.backs = {s: [] for s in range(mo.model.players)}
        M.start_deal(mo.model, ev)
        mo.host.new_deal()
        return 0.15

    def deal_cards() -> float:
        hands = ev.get("hands") or []
        _deal_hands(mo, hands, start=mo.model.first_seat())
        _deal_table(mo, ev.get("table") or [], delay0=DEAL_GAP * sum(len(h) for h in hands))
        trump = mo.model.trump
        if trump:
            key = trump
            sp = CardSprite(key, None, mo.deck_place(), z=0)
            mo.sprites[key] = sp
            n = sum(len(h) for h in hands)
            sp.move(mo.layout.trump() or mo.deck_place(), FLY, DEAL_GAP * n + 0.1)
            sp.turn(trump, DEAL_GAP * n + 0.1 + FLY)
        return 0.2

    mo.steps.extend([step, deal_cards])


def _deal_hands(mo: TableMotion, hands: list[list[str]], start: int, delay0: float = 0.0) -> None:
    """Cards fly from the stock one by one, round the table, and turn face up for the viewer."""
    deck = mo.deck_place()
    n = mo.model.players
    order: list[tuple[int, str]] = []
    longest = max((len(h) for h in hands), default=0)
    for i in range(longest):
        for k in range(n):
            seat = (start + k) % n
            if seat < len(hands) and i < len(hands[seat]):
                order.append((seat, hands[seat][i]))
    M.deal_hands(mo.model, hands)
    keys: list[str] = []
    for seat, code in order:
        if seat == mo.viewer:
            keys.append(code)
        else:
            key = mo.new_key(f"b{seat}:")
            mo.backs[seat].append(key)
            keys.append(key)
    targets = mo.targets()
    hand = set(mo.model.hand)
    for j, key in enumerate(keys):
        sp = CardSprite(key, None, deck, z=50 + j)
        mo.sprites[key] = sp
        d = delay0 + DEAL_GAP * j
        sp.move(targets[key], FLY, d)
        if key in hand:
            sp.turn(key, d + FLY * 0.6)
    mo.play_deal_sounds(len(order))
    mo.relayout()


def _deal_table(mo: TableMotion, codes: list[str], delay0: float) -> None:
    deck = mo.deck_place()
    M.deal_table(mo.model, codes)
    targets = mo.targets()
    for i, code in enumerate(codes):
        sp = CardSprite(code, None, deck, z=10)
        mo.sprites[code] = sp
        d = delay0 + DEAL_GAP * i
        sp.move(targets[code], FLY, d)
        sp.turn(code, d + FLY * 0.5)


def shown(mo: TableMotion, ev: Event, cues: list[str]) -> None:
    """An event that changes nothing on the felt (a void deal): its sound, and its call-out
    when the language has one (``callouts.<event>`` over ``callouts.<event>_sub``)."""
    name = str(ev.get("event"))
    text = mo.words(f"callouts.{name}")

    def step() -> float:
        mo.play_cues(cues)
        if text is None:
            return 0.0
        mo.show_callout(text, mo.words(f"callouts.{name}_sub") or "")
        return 1.2

    mo.steps.append(step)


@_on("new_hands")
def _hands(mo: TableMotion, ev: Event, cues: list[str]) -> None:
    def step() -> float:
        mo.play_cues(cues)
        hands = ev.get("hands") or []
        m = mo.model
        m.stock_count = max(0, m.stock_count - sum(len(h) for h in hands))
        _deal_hands(mo, hands, start=m.first_seat())
        return 0.15

    mo.steps.append(step)


def _leaving_sprite(mo: TableMotion, seat: int, code: str) -> CardSprite:
    """The sprite of a card leaving ``seat``'s hand (another seat's back turns into it).
    Call before the model takes the card from the hand."""
    if seat == mo.viewer and code in mo.model.hand:
        sp = mo.sprites.get(code)
        if sp is not None:
            return sp
    backs = mo.backs.get(seat) or []
    if seat != mo.viewer and code in backs:  # a known card, face up in that hand
        backs.remove(code)
        sp = mo.sprites.get(code)
        if sp is not None:
            sp.z = 80
            return sp
    hidden = [k for k in backs if k not in mo.model.known[seat]]
    if seat != mo.viewer and hidden:
        key = hidden[len(hidden) // 2]
        backs.remove(key)
        old = mo.sprites.pop(key, None)
        place = old.end_place if old is not None else mo.layout.seat_origin(seat)
    else:
        place = mo.layout.seat_origin(seat)
    sp = CardSprite(code, None, place, z=80)
    sp.turn(code, 0.0, 0.2)
    mo.sprites[code] = sp
    return sp


@_on("play_card")
def _play(mo: TableMotion, ev: Event, cues: list[str]) -> None:
    seat, code = ev["seat"], ev["card"]  # fields every play line has (RECORD.md)
    capture = list(ev.get("capture") or [])
    bonuses = list(ev.get("bonuses") or [])
    m = mo.model
    if not m.capture:

        def trick_play() -> float:
            mo.play_cues(cues)
            sp = _leaving_sprite(mo, seat, code)
            sp.z = 60 + len(m.trick)
            M.play_card(m, seat, code)
            mo.relayout()
            return HOLD_PLAY if seat != mo.viewer else 0.05

        mo.steps.append(trick_play)
        return

    def place_or_approach() -> float:
        mo.play_cues(cues[:1])
        sp = _leaving_sprite(mo, seat, code)
        sp.z = 90
        M.play_card(m, seat, code, captures=bool(capture))
        if not capture:
            mo.relayout()
            return HOLD_PLAY if seat != mo.viewer else 0.1
        # The played card comes to rest on the first card it takes.
        first = mo.sprites.get(capture[0])
        target = first.end_place if first is not None else mo.deck_place()
        sp.move(Place(target.x + 14, target.y + 12, target.h, 4.0), FLY)
        for c in capture:
            if c in mo.sprites:
                mo.sprites[c].glow = 1.0
        mo.relayout(skip={code})
        return HOLD_CAPTURE if seat != mo.viewer else HOLD_OWN_CAPTURE

    def gather() -> float:
        team = m.team_of(seat)
        _fly_to_pile(mo, [code, *capture], team)
        M.take(m, seat, [code, *capture], bonuses)
        if bonuses:
            # The banner names who scored: "Scopa!" over "West", "Scùa!" over "You · Simili".
            words = mo.rules.bonus_callouts
            mo.callout(
                bonuses[0], " · ".join([mo.names.seat_name(seat)] + [words.get(b, b).rstrip("!") for b in bonuses[1:]])
            )
            mo.play_cues(cues[1:])
        mo.relayout()
        return 0.9 if bonuses else 0.15

    mo.steps.append(place_or_approach)
    if capture:
        mo.steps.append(gather)


def _fly_to_pile(mo: TableMotion, codes: list[str], team: int) -> None:
    dest = mo.layout.pile(team)
    for i, c in enumerate(codes):
        sp = mo.sprites.get(c)
        if sp is None:
            continue
        sp.glow = 0.0
        sp.z = 95
        sp.move(dest, FLY + 0.04 * i, 0.03 * i)
        sp.turn(None, 0.03 * i + FLY * 0.5)
        sp.vanish = True


@_on("collect_trick")
def _trick(mo: TableMotion, ev: Event, cues: list[str]) -> None:
    winner = ev["winner"]
    pts = int(ev.get("points") or 0)
    m = mo.model

    def show() -> float:
        mo.trick_shown = True
        return mo.trick_hold()

    def gather() -> float:
        mo.trick_shown = mo.waiting = False
        mo.play_cues(cues)
        _fly_to_pile(mo, [c for _, c in m.trick], m.team_of(winner))
        M.gather_trick(m, winner, pts)
        if not m.hand and not any(mo.backs.values()):
            mo.callout("last_trick", mo.names.seat_name(winner))
            return 0.8
        return 0.2

    mo.steps.extend([show, gather])


@_on("draw")
def _draw(mo: TableMotion, ev: Event, cues: list[str]) -> None:
    seat, code = ev["seat"], ev["card"]  # required fields (RECORD.md); a hidden card is None
    m = mo.model

    def step() -> float:
        mo.play_cues(cues)
        from_trump = code == m.trump and m.trump in mo.sprites
        if from_trump:
            sp = mo.sprites[code]
            sp.z = 70
        else:
            sp = CardSprite("", None, mo.deck_place(), z=70)
        M.draw(m, seat, code)
        if seat == mo.viewer:
            sp.key = code
            mo.sprites.pop(code, None)
            mo.sprites[code] = sp
            sp.turn(code, FLY * 0.5)
        elif code in m.known[seat]:
            # Drawn face up (Tressette for two): it stays so, keyed by its code, until played.
            sp.key = code
            mo.sprites[code] = sp
            mo.backs[seat].append(code)
            sp.turn(code, FLY * 0.5)
        else:
            if from_trump:
                del mo.sprites[code]
            key = mo.new_key(f"b{seat}:")
            sp.key = key
            mo.sprites[key] = sp
            mo.backs[seat].append(key)
            sp.turn(None, FLY * 0.6)
        mo.relayout()
        return 0.08

    mo.steps.append(step)


@_on("swap_face_up")
def _exchange(mo: TableMotion, ev: Event, cues: list[str]) -> None:
    seat, gave, took = ev["seat"], ev["gave"], ev["took"]

    def step() -> float:
        mo.play_cues(cues)
        old = mo.sprites.pop(took, None)
        new = _leaving_sprite(mo, seat, gave)
        new.z = 5
        M.swap_face_up(mo.model, seat, gave, took)
        if seat == mo.viewer:
            sp = old or CardSprite(took, took, mo.layout.trump() or mo.deck_place())
            sp.key = took
            mo.sprites[took] = sp
        else:
            key = mo.new_key(f"b{seat}:")
            sp = old or CardSprite(key, None, mo.layout.trump() or mo.deck_place())
            sp.key = key
            sp.turn(None, FLY * 0.6)
            mo.sprites[key] = sp
            mo.backs[seat].append(key)
        mo.callout(str(ev.get("event")), f"{mo.names.seat_name(seat)} · {mo.names.card_name(gave)}")
        mo.relayout()
        return 0.7

    mo.steps.append(step)


@_on("announce")
def _announce(mo: TableMotion, ev: Event, cues: list[str]) -> None:
    """An announcement: a declaration's points called out over its words
    (``callouts.<event>_sub``: "South: marriage in Coins"), any other by its own call-out
    ("callouts.<event>", when the language has one); counted as the model says."""
    seat, name = ev.get("seat"), str(ev.get("event"))
    scores = name in mo.model.scoring
    pts = int(ev.get("points") or 0)

    def step() -> float:
        mo.play_cues(cues)
        M.announce(mo.model, ev)
        # Its fields in words (a suit, a card and its rank and suit by name), as the narration has them.
        params = mo.narrator.fields(ev)
        who = mo.names.seat_name(seat) if isinstance(seat, int) else ""
        sub = mo.words(f"callouts.{name}_sub", name=who, **params) or who
        text = f"{pts}!" if scores else mo.words(f"callouts.{name}", **params)
        if text is None:
            return 0.0
        mo.show_callout(text, sub)
        return 1.0

    # The card led next declares it; its partner is shown face up meanwhile.
    nxt = mo.queue[0] if mo.queue else {}
    led = scores and isinstance(seat, int) and M.effect_of(mo.model, nxt) == "play_card" and nxt.get("seat") == seat
    reveal = _partner_steps(mo, int(seat or 0), nxt.get("card")) if led else []
    mo.steps.extend([reveal[0], step, reveal[1]] if reveal else [step])


def _partner_steps(mo: TableMotion, seat: int, led: str | None) -> list[Step]:
    """[show, hide] for the declared marriage's partner card (the rules' ``partner`` of the
    card led): another seat's back turns face up and leans towards the table, the viewer's
    own glows, while the marriage is called out; then it goes back. Nothing when
    fast-forwarding; [] when the game names no partner."""
    from game.cards import card

    pairs = getattr(mo.rules, "partner", None) or {}
    try:
        partner = pairs.get(card(led)) if led else None
    except (KeyError, ValueError):
        partner = None
    if partner is None:
        return []
    code = partner.code
    shown: list[CardSprite] = []

    def show() -> float:
        if mo.ff:
            return 0.0
        if seat == mo.viewer:
            sp = mo.sprites.get(code)
            if sp is not None:
                sp.glow = 1.0
                shown.append(sp)
            return 0.0
        backs = mo.backs.get(seat) or []
        if len(backs) < 2:
            return 0.0
        sp = mo.sprites.get(backs[0])  # not the middle one: that one is about to be led
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
        mo.relayout()
        return 0.05

    return [show, hide]


@_on("close_stock")
def _close(mo: TableMotion, ev: Event, cues: list[str]) -> None:
    seat, name = ev["seat"], str(ev.get("event"))

    def step() -> float:
        mo.play_cues(cues)
        M.close_stock(mo.model)
        # "You close" needs its own verb form in nl/de/it.
        sub = f"callouts.{name}_sub_you" if seat == mo.viewer else f"callouts.{name}_sub"
        mo.callout(name, mo.names.t(sub, name=mo.names.seat_name(seat, subject=True)))
        mo.relayout()
        return 1.0

    mo.steps.append(step)


@_on("deal_end")
def _deal_end(mo: TableMotion, ev: Event, cues: list[str]) -> None:
    match_end = mo.queue[0] if mo.queue and M.effect_of(mo.model, mo.queue[0]) == "match_end" else None
    # The match's own sound (won / lost) is heard as its result appears, with the deal's.
    match_cues = list(mo.cues[0]) if match_end is not None and mo.cues else []
    left = ev.get("leftover") or None
    m = mo.model
    words = mo.names

    def leftovers() -> float:
        if left and m.capture and m.table:
            mo.callout("leftover", words.t("callouts.leftover_sub", name=words.team_name(left.get("team", 0))))
            team = left.get("team", 0)
            _fly_to_pile(mo, [c for c in left.get("cards", []) if c in m.table], team)
            M.leftover(m, left)
            mo.relayout()
            return 0.9
        return 0.0

    def results() -> float:
        mo.play_cues(cues + match_cues)
        M.end_deal(m, ev)
        if match_end is not None:
            m.match_over = True
        if mo.ff:
            return 0.0
        mo.awaiting_results = True  # until the table is shown again (TableScene.enter)
        opened = mo.host.show_results(dict(ev), match_end)
        if not opened:
            # No results screen: a short summary on the felt, then play on.
            mo.awaiting_results = False
            pts = "  ·  ".join(f"{words.team_name(t)} {p}" for t, p in enumerate(ev.get("points") or []))
            mo.summary = (
                words.t("table.deal_summary", number=ev.get("number", m.deal_number), points=pts),
                max(0.5, tween.scaled(2.4)),
            )
        return 0.0 if opened else 2.0

    mo.steps.extend([leftovers, lambda: HOLD_DEAL_END, results])


@_on("match_end")
def _match_end(mo: TableMotion, ev: Event, cues: list[str]) -> None:
    M.end_match(mo.model, ev)


__all__ = ["ANIMATE", "Animation", "animation", "shown"]
