"""What happened at the table, in words: the captions over the felt, the lines of the play
log, the last trick or capture and the piles, all told from the record events alone.

Pure functions of the events, the rules' facts and the message lookup: no pygame, no
scene, no session. The table's animation feeds each event to a :class:`Narrator` as it
shows it (the caption); the play log, the review and the score sheet build one from the
record (``session.match.events``), so they survive a resume, an undo and a replay viewer
alike. Only what the viewer may know is told: another seat's private draw is "a card".

Every game is told the same way, from its events and the rules' facts (``family``,
``draws_public``, ``bonus_callouts``, ``hud_scores``, ``points_text``), never from a game's
name or its events' names: an event is told by the table effect its game declares for it
(a deal, a card played, a trick collected, a draw, an exchange, an announcement …: the rich
sentences of :data:`TELL`), else by its declared narration (``narrate.<event>`` when it
declares none), formatted with its fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scenes import names
from scenes.table.model import Event, EventKindLike, declarations, declared_events, event_effects
from scenes.table.phrases import and_list, parse_articles, plate_words

if TYPE_CHECKING:
    from game.rules.base import GameRules

Translate = Callable[..., str]
Teller = Callable[["Narrator", Event], "Line | None"]
#: The narration's own sentences for a table effect (a Narrator method per effect).
TELL: dict[str, Teller] = {}


def _tells(*effects: str) -> Callable[[Teller], Teller]:
    def register(fn: Teller) -> Teller:
        for effect in effects:
            TELL[effect] = fn
        return fn

    return register


@dataclass
class Line:
    """One line of the play log."""

    kind: str  # the event it tells ("play", "trick", "draw", …)
    text: str  # the log's sentence (card names in full)
    seat: int | None = None  # who acted, when a seat did
    score: str | None = None  # the running score after it, when it changed the count
    caption: str | None = None  # the table's caption for it (None: shown without words)


@dataclass
class Trick:
    """A finished trick: the cards as played, who took it and its points."""

    #: (seat, card) as played; the seat None where the plays were not told, only the trick line.
    cards: list[tuple[int | None, str]]
    winner: int
    points: int


@dataclass
class Capture:
    """A capture: the card played, the table cards it took and the bonuses it scored."""

    seat: int
    card: str
    taken: list[str]
    bonuses: list[str]


@dataclass
class DealStory:
    """One deal as the viewer has followed it."""

    number: int = 0
    dealer: int | None = None
    trump: str | None = None
    trump_suit: str | None = None
    lines: list[Line] = field(default_factory=list)
    #: Per team: the cards won, in the order they were taken (the pile, face down).
    piles: list[list[str]] = field(default_factory=list)
    #: Per team: the bonuses scored in play, by name.
    bonuses: list[list[str]] = field(default_factory=list)
    #: Per team: the tricks won, oldest first (trick games).
    tricks: list[list[Trick]] = field(default_factory=list)
    captures: list[Capture] = field(default_factory=list)
    last_trick: Trick | None = None
    trick: list[tuple[int, str]] = field(default_factory=list)  # the trick being played
    stock: int = 0  # cards left in the stock
    points: list[int] = field(default_factory=list)  # trick points per team
    seat_points: list[int] = field(default_factory=list)  # trick points per seat
    declared_points: list[int] = field(default_factory=list)  # credited declarations (a marriage), per seat
    pending: list[int] = field(default_factory=list)  # marriages waiting for a first trick
    last_capturer: int | None = None
    deal_end: dict | None = None
    #: The team that took the last take (trick or capture): a pile's "last" (review).
    last_to: dict[int, Trick | Capture] = field(default_factory=dict)
    #: The deal's lines as told, its ``deal`` line first: what the rules read the viewer's
    #: knowledge from (``seen_teams``, ``table_facts``).
    events: list[Event] = field(default_factory=list)
    #: Each seat's team as the viewer knows it after these lines (None: not known yet).
    seen: tuple[int | None, ...] = ()

    @property
    def last_take(self) -> Trick | Capture | None:
        """The last trick or capture of the deal (what T reviews)."""
        if self.last_trick is not None:
            return self.last_trick
        return self.captures[-1] if self.captures else None


#: The match's end in words; a match of one deal (a daily deal, a duplicate half) ends as a deal.
MATCH_END = {
    "draw": "narrate.match_draw",
    "won": "narrate.match_won",
    "won_team": "narrate.match_won_team",
    "lost_team": "narrate.match_lost_team",
    "won_you": "narrate.match_won_you",
}
ONE_DEAL_END = {
    "draw": "one_deal.log_draw",
    "won": "one_deal.log_won",
    "won_team": "one_deal.log_won_team",
    "lost_team": "one_deal.log_lost_team",
    "won_you": "one_deal.log_won_you",
}


class Narrator:
    """Tells the events of one match, one at a time (:meth:`feed`), seen from ``viewer``.

    ``t`` looks messages up (``app.t``); ``lang`` picks the deck's card names."""

    def __init__(self, rules: GameRules, t: Translate, lang: str, viewer: int | None):
        self.rules = rules
        self.t = t
        self.lang = lang
        self.viewer = viewer
        self.players = rules.players
        self.teams = rules.teams
        self.team_of = rules.team_of
        #: Some seats play together (the game's teams rule): a team is named as a team.
        self.partnered = names.partnered(self.players, self.team_of)
        self.capture = rules.family == "capture"
        #: Each record event's table effect and declaration, by the event's name.
        self.effects = event_effects(rules)
        self.kinds: dict[str, EventKindLike] = {k.name: k for k in declared_events(rules)}
        self.scoring = declarations(rules)
        self.deals: list[DealStory] = []
        self.match_end: dict | None = None
        self.totals: list[int] = list(rules.initial_totals())
        self._articles = parse_articles(t("narrate.articles"))
        #: Names that replace the table's words for some seats (friends online), by seat.
        self.given: dict[int, str] = {}
        self.deal = self._new_deal(0, None)

    # ------------------------------------------------------------------ words
    def name(self, seat: int, subject: bool = True) -> str:
        if seat != self.viewer and seat in self.given:
            return self.given[seat]  # a friend at an online table, by the name they chose
        return names.seat_name(self.t, seat, self.viewer, self.players, subject, self.team_of)

    def team(self, team: int) -> str:
        if not self.partnered:  # a team is a seat (see name)
            return self.name(team, subject=False)
        return names.team_name(self.t, team, self.viewer, self.players, team_of=self.team_of)

    def card(self, code: str) -> str:
        """The card's full name with the article the language puts before it ("the 7 of
        Coins", "l'Asso di Coppe", "Münzen-7")."""
        full = names.card_name(self.t, self.rules.deck, self.lang, code)
        word = self.rank(code)
        template = self._articles.get(word, self._articles.get("", "{card}"))
        return template.replace("{card}", full)

    def rank(self, code: str) -> str:
        """The rank alone, as the deck names it: "7", "Ace", "Knave"."""
        r = code[:-1]
        if r == "A":
            return self.t("table.rank.A")
        if r in ("J", "Q", "K"):
            try:
                return self.rules.deck.court_name(r, self.lang)
            except (KeyError, TypeError, AttributeError):
                return r
        return r

    def suit(self, suit: str | None) -> str:
        if suit is None:
            return str(suit)
        try:
            return self.rules.deck.suit_name(suit, self.lang)
        except (KeyError, TypeError, AttributeError):
            return str(suit)

    def taken(self, codes: list[str], short: bool) -> str:
        """What a capture took: one card by its name, several as "3 + 4" (short) or in full."""
        if len(codes) == 1:
            return self.card(codes[0])
        parts = [self.rank(c) if short else names.card_name(self.t, self.rules.deck, self.lang, c) for c in codes]
        return " + ".join(parts)

    def points(self, points: int) -> str:
        """ "11 points", "1 point", "1 ⅔ points", "no points" (the game's own way of counting:
        the plural follows the number, a fraction reads as "points")."""
        if not points:
            return self.t("narrate.no_points")
        return self.t("narrate.points", count=self.rules.points_text(points))

    def say(self, key: str, seat: int | None, by: object = None, **params: object) -> str:
        """A sentence whose subject is ``seat``: the viewer's own verb form (``key_you``).
        ``by`` "computer" (the record's mark): the computer made this person's decision —
        "The computer for you plays …", never "You play …"."""
        if by == "computer" and seat is not None:
            return self.t(key, name=self.for_computer(seat), **params)
        if seat is not None and seat == self.viewer:
            return self.t(f"{key}_you", **params)
        return self.t(key, name=self.name(seat) if seat is not None else "", **params)

    def for_computer(self, seat: int) -> str:
        """ "The computer for you", "… for your partner", "… for Anna": who made a person's
        decision for them (silent or gone at an online table)."""
        if seat == self.viewer:
            return self.t("narrate.computer_for_you")
        if (
            self.partnered
            and self.viewer is not None
            and seat not in self.given
            and self.team_of(seat) == self.team_of(self.viewer)
        ):
            return self.t("narrate.computer_for_partner")
        return self.t("narrate.computer_for", name=self.name(seat, subject=False))

    def bonus_words(self, bonuses: Iterable[str]) -> str:
        words = self.rules.bonus_callouts
        return " ".join(words.get(b, b) for b in bonuses)

    # ------------------------------------------------------------------ the running score
    def score(self) -> str:
        """The deal's count so far, as the HUD would keep it: cards taken (and bonuses) per
        team in capture games, trick points per team in trick games; a game whose players
        keep their own count in their head (``hud_scores`` "bummerl") shows only yours."""
        d = self.deal
        if self.capture:
            parts = []
            for team in range(self.teams):
                s = f"{self.team(team)} {len(d.piles[team])}"
                counted = [b for b in d.bonuses[team] if b in self.rules.counted_bonuses]
                if counted:
                    s += f" ({self.bonus_count(len(counted))})"
                parts.append(s)
            return "  ·  ".join(parts)
        if self.rules.hud_scores == "bummerl" and self.viewer is not None:
            mine = self.viewer
            return f"{self.name(mine, subject=False)} {d.seat_points[mine] + d.declared_points[mine]}"
        return "  ·  ".join(f"{self.team(team)} {self.rules.points_text(d.points[team])}" for team in range(self.teams))

    def bonus_count(self, n: int) -> str:
        """ "2 scope", else "2 bonuses" (the game's own word when the locale has one)."""
        key = f"table.bonuses_{self.rules.game_id}"
        text = self.t(key, count=n)
        return self.t("table.bonuses", count=n) if text == key else text

    def score_heading(self) -> str:
        if self.capture:
            return self.t("log.score_cards")
        if self.rules.hud_scores == "bummerl":
            return self.t("log.score_yours")
        return self.t("log.score_points")

    # ------------------------------------------------------------------ events
    def _new_deal(self, number: int, dealer: int | None) -> DealStory:
        n, t = self.players, self.teams
        return DealStory(
            number=number,
            dealer=dealer,
            piles=[[] for _ in range(t)],
            bonuses=[[] for _ in range(t)],
            tricks=[[] for _ in range(t)],
            points=[0] * t,
            seat_points=[0] * n,
            declared_points=[0] * n,
            pending=[0] * n,
        )

    def feed(self, ev: Event) -> Line | None:
        """Tell one event: the deal's story changes, and the line it adds (or extends) comes
        back (None: nothing to tell)."""
        name = ev.get("event")
        if not isinstance(name, str) or name not in self.effects:
            return None
        fn = TELL.get(self.effects[name], Narrator._told)
        line = fn(self, ev)
        d = self.deal
        d.events.append(ev)
        before = d.seen or self.rules.seen_teams(d.events[:1], self.viewer)
        d.seen = self.rules.seen_teams(d.events, self.viewer)
        if line is not None and line.seat is not None and d.seen != before:
            revealed = self.revealed(line.seat, before, d.seen)
            if revealed:
                line.text = _joined(line.text, revealed)
                line.caption = _joined(line.caption, revealed) if line.caption else line.caption
        return line

    def revealed(self, seat: int, before: tuple[int | None, ...], after: tuple[int | None, ...]) -> str:
        """The words for hidden teams that ``seat``'s act made known to the viewer ("East is
        South's partner", "South plays alone", "North is your partner"); "" unless this act
        completed what the viewer knows of the teams (the viewer's own act tells it nothing)."""
        if seat == self.viewer or None not in before or None in after or not 0 <= seat < len(after):
            return ""
        mates = [s for s, t in enumerate(after) if t == after[seat] and s != seat]
        if not mates:
            return self.t("narrate.team_alone", name=self.name(seat))
        if self.viewer in mates:
            return self.t("narrate.team_with_you", name=self.name(seat))
        words = and_list(self.t, [self.name(s, subject=False) for s in mates])
        return self.t("narrate.team_with", name=self.name(seat), mates=words)

    def fields(self, ev: Event) -> dict[str, object]:
        """An event's fields in words: cards by their names, a suit by its name."""
        kind = self.kinds.get(str(ev.get("event")))
        types = {f.name: f.type for f in getattr(kind, "fields", ())}
        ranks = set(self.rules.deck.ranks())
        # A text field whose values are all ranks names a rank (a bid): its name in words.
        rank_fields = {f.name for f in getattr(kind, "fields", ()) if f.choices and set(f.choices) <= ranks}
        out: dict[str, object] = {}
        for k, v in ev.items():
            if k in ("event", "seat", "by"):
                continue
            if types.get(k) == "card" and isinstance(v, str):
                out[f"{k}_suit"] = self.suit(v[-1:])  # "… Cups are trumps"
                out[f"{k}_rank"] = self.rank(v)
                v = self.card(v)
            elif k in rank_fields and isinstance(v, str):
                v = names.rank_name(self.t, self.rules.deck, self.lang, v)
            elif types.get(k) == "cards" and isinstance(v, list):
                v = ", ".join(self.card(str(c)) for c in v)
            elif k == "suit":
                v = self.suit(v)
            out[k] = v
        return out

    def narration(self, ev: Event) -> str:
        """The locale key an event is told by: its declared one, else ``narrate.<event>``."""
        name = str(ev.get("event"))
        kind = self.kinds.get(name)
        key = (kind.narration if kind is not None else "") or f"narrate.{name}"
        # An optional field given picks the words made for it where the language has them
        # ("North bids 2 at 75 points" beside "North bids a King").
        for f in getattr(kind, "fields", ()):
            if f.optional and ev.get(f.name) is not None and self.t(f"{key}_{f.name}") != f"{key}_{f.name}":
                return f"{key}_{f.name}"
        return key

    def _told(self, ev: Event) -> Line | None:
        """An event the table tells by its declared words alone (a void deal, the stock
        closed, a bid): "{name} closes the stock.", the acting seat's own verb form for
        the viewer; nothing when the language has no words for it."""
        key = self.narration(ev)
        seat = ev.get("seat")
        seat = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
        if self.t(key) == key and self.t(f"{key}_you") == f"{key}_you":
            return None
        text = self.say(key, seat, ev.get("by"), **self.fields(ev))
        return self._add(Line(str(ev.get("event")), text, seat, caption=text))

    def _add(self, line: Line) -> Line:
        self.deal.lines.append(line)
        return line

    @_tells("match_start")
    def _on_match(self, ev: Event) -> Line | None:
        #: A record of one deal (a daily deal, a duplicate half): its end is the deal's.
        self.one_deal = ev.get("deals") == 1
        self.deals = []
        self.match_end = None
        self.totals = list(self.rules.initial_totals())
        self.deal = self._new_deal(0, None)
        return None

    @_tells("deal")
    def _on_deal(self, ev: Event) -> Line:
        dealer = ev.get("dealer")
        number = int(ev.get("number") or len(self.deals) + 1)
        void = self.deals.pop() if self.deals and self.deals[-1].number == number else None
        self.deal = d = self._new_deal(number, dealer)
        if void is not None:  # a redeal: the void deal's words stay, its cards do not
            d.lines = void.lines
        self.deals.append(d)
        d.stock = len(ev.get("stock") or [])
        d.trump = ev.get("trump")
        d.trump_suit = d.trump[-1] if d.trump else None
        text = self.say("narrate.deal", dealer, number=number)
        caption = text
        if d.trump:
            trump = self.t("narrate.trump", suit=self.suit(d.trump_suit), card=self.card(d.trump))
            text = f"{text} {trump}"
            caption = text
        table = list(ev.get("table") or [])
        if table:
            text = f"{text} {self.t('narrate.table', cards=', '.join(self.card(c) for c in table))}"
        return self._add(Line("deal", text, dealer, caption=caption))

    @_tells("new_hands")
    def _on_hands(self, ev: Event) -> Line:
        d = self.deal
        d.stock = max(0, d.stock - sum(len(h) for h in ev.get("hands") or []))
        text = self.t("narrate.hands_left", count=d.stock) if d.stock else self.t("narrate.hands_last")
        return self._add(Line("hands", text))

    @_tells("play_card")
    def _on_play(self, ev: Event) -> Line:
        d = self.deal
        seat, code = int(ev["seat"]), str(ev["card"])
        by = ev.get("by")  # "computer": made for a person who was silent or gone (online)
        capture = list(ev.get("capture") or [])
        bonuses = list(ev.get("bonuses") or [])
        if self.capture:
            team = self.team_of(seat)
            if capture:
                d.piles[team].extend([code, *capture])
                d.bonuses[team].extend(bonuses)
                d.last_capturer = seat
                take = Capture(seat, code, capture, bonuses)
                d.captures.append(take)
                d.last_to[team] = take
                text = self.say("narrate.capture", seat, by, card=self.card(code), taken=self.taken(capture, False))
                caption = self.say("narrate.capture", seat, by, card=self.card(code), taken=self.taken(capture, True))
                if bonuses:
                    words = self.bonus_words(bonuses)
                    text, caption = _with(text, words), _with(caption, words)
                return self._add(Line("capture", text, seat, self.score(), caption))
            text = self.say("narrate.place", seat, by, card=self.card(code))
            return self._add(Line("place", text, seat, caption=text))
        key = "narrate.lead" if not d.trick else "narrate.follow"
        d.trick.append((seat, code))
        text = self.say(key, seat, by, card=self.card(code))
        return self._add(Line("play", text, seat, caption=text))

    @_tells("collect_trick")
    def _on_trick(self, ev: Event) -> Line:
        d = self.deal
        winner, pts = int(ev["winner"]), int(ev.get("points") or 0)
        cards: list[tuple[int | None, str]] = list(d.trick) or [(None, c) for c in ev.get("cards") or []]
        trick = Trick(cards, winner, pts)
        d.trick = []
        team = self.team_of(winner)
        d.piles[team].extend(c for _, c in trick.cards)
        d.tricks[team].append(trick)
        d.last_trick = trick
        d.last_to[team] = trick
        d.points[team] += pts
        d.seat_points[winner] += pts
        if d.pending[winner]:
            d.declared_points[winner] += d.pending[winner]
            d.pending[winner] = 0
        best = next((c for s, c in trick.cards if s == winner), None)
        if best is not None:
            text = self.say("narrate.trick", winner, card=self.card(best), points=self.points(pts))
        else:
            text = self.say("narrate.trick_plain", winner, points=self.points(pts))
        return self._add(Line("trick", text, winner, self.score(), caption=text))

    @_tells("draw")
    def _on_draw(self, ev: Event) -> Line:
        d = self.deal
        seat, code = int(ev["seat"]), str(ev["card"])
        d.stock = max(0, d.stock - 1)
        caption = None
        if seat == self.viewer:
            text = self.t("narrate.draw_you", card=self.card(code))
        elif code == d.trump:
            # The turned card: everyone has seen it lying under the stock.
            text = caption = self.say("narrate.draw_trump", seat, card=self.card(code))
        elif self.rules.draws_public:
            text = caption = self.say("narrate.draw_public", seat, card=self.card(code))
        else:
            text = self.say("narrate.draw", seat)
        if code == d.trump:
            d.trump = None
        last = d.lines[-1] if d.lines else None
        if last is not None and last.kind == "draw":
            # One line for the draws after a trick: "You draw … · North draws a card."
            last.text = f"{last.text}  ·  {text}"
            return Line("draw", text, seat, caption=caption)
        return self._add(Line("draw", text, seat, caption=caption))

    @_tells("swap_face_up")
    def _on_exchange(self, ev: Event) -> Line:
        d = self.deal
        seat, gave, took = int(ev["seat"]), str(ev["gave"]), str(ev["took"])
        d.trump = gave
        text = self.say("narrate.exchange", seat, ev.get("by"), gave=self.card(gave), took=self.card(took))
        return self._add(Line(str(ev.get("event")), text, seat, caption=text))

    @_tells("announce")
    def _on_announce(self, ev: Event) -> Line | None:
        """An announcement in its declared words; the points a declaration scores (a
        marriage) count once its seat has won a trick, and the running score follows."""
        d = self.deal
        seat = ev.get("seat")
        if ev.get("event") not in self.scoring or not isinstance(seat, int):
            return self._told(ev)
        pts = int(ev.get("points") or 0)
        if any(tr.winner == seat for team_tricks in d.tricks for tr in team_tricks):
            d.declared_points[seat] += pts
        else:
            d.pending[seat] += pts
        text = self.say(self.narration(ev), seat, ev.get("by"), **{**self.fields(ev), "points": pts})
        return self._add(Line(str(ev.get("event")), text, seat, self.score(), caption=text))

    @_tells("deal_end")
    def _on_deal_end(self, ev: Event) -> Line:
        d = self.deal
        d.deal_end = dict(ev)
        line: Line | None = None
        left = ev.get("leftover") or None
        if left and self.capture and left.get("cards"):
            cards = list(left["cards"])
            team = int(left.get("team", 0))
            d.piles[team].extend(cards)
            seat = d.last_capturer if d.last_capturer is not None and self.team_of(d.last_capturer) == team else team
            text = self.say("narrate.leftover", seat, count=len(cards))
            line = self._add(Line("leftover", text, seat, self.score(), caption=text))
        self.totals = list(ev.get("totals") or self.totals)
        pts = "  ·  ".join(f"{self.team(t)} {p}" for t, p in enumerate(ev.get("points") or []))
        totals = "  ·  ".join(f"{self.team(t)} {p}" for t, p in enumerate(self.totals))
        single = self.rules.match_goal()[0] == "single" or getattr(self, "one_deal", False)
        number = ev.get("number", d.number)
        if single:
            text = self.t("narrate.deal_end_single", points=pts)
        else:
            text = self.t("narrate.deal_end", number=number, points=pts, totals=totals)
        end = self._add(Line("deal_end", text))
        return line or end

    @_tells("match_end")
    def _on_match_end(self, ev: Event) -> Line:
        self.match_end = dict(ev)
        w = ev.get("winner")
        mine = self.team_of(self.viewer) if self.viewer is not None else None
        one = self.rules.match_goal()[0] == "single" or getattr(self, "one_deal", False)
        k = ONE_DEAL_END if one else MATCH_END  # one deal: said as the deal's end
        if w is None:
            text = self.t(k["draw"])
        elif mine is None:  # nobody's chair (a computer-only record): the winners by name
            text = self.t(k["won"], name=self.team(int(w)) if self.rules.partnerships else self.name(int(w)))
        elif self.rules.partnerships:
            text = self.t(k["won_team"] if w == mine else k["lost_team"])
        elif w == mine:
            text = self.t(k["won_you"])
        else:
            text = self.t(k["won"], name=self.name(int(w)))
        return self._add(Line("match_end", text))


def _joined(sentence: str, more: str) -> str:
    """ "East plays the 3 of Cups: East is South's partner." — one sentence told, then another."""
    return f"{sentence} {more}"


def _with(sentence: str, words: str) -> str:
    """ "West plays … and takes 3 + 4 — Scopa!": the sentence's full stop gives way."""
    return f"{sentence.rstrip('.')} — {words}"


def narrate(events: Iterable[Event], rules: GameRules, t: Translate, lang: str, viewer: int) -> Narrator:
    """A narrator that has told ``events`` (a match's record, or its first part)."""
    n = Narrator(rules, t, lang, viewer)
    for ev in events:
        n.feed(ev)
    return n


__all__ = ["TELL", "Narrator", "Line", "Trick", "Capture", "DealStory", "narrate", "plate_words"]
