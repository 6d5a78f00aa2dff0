"""Par and duplicate play: scoring a deal against what the cards allowed, not against luck.

A *deal* is a game, deck, player count, options and a seed: the first deal of the match that
seed starts (``Match(rules, seed, …, deals=1)``), so the same deal on every machine.

*Par* for a deal and a seat is what the hard computer player scores with that seat's cards
against the same seeded opponents (the *house* bots, every other seat, ``PAR_OPPONENT``),
averaged over ``PAR_RUNS`` runs that differ only in the hard player's own seed. Every bot
here searches a fixed number of iterations and no time cap, so par is the same on a busy
machine as on an idle one (a time cap would cut the search wherever the machine is slow):
``PAR_ITERATIONS`` keeps one deal's par within a few seconds. A seat's *score* in a deal is
its team's ``points`` of that deal (Scopa points, Briscola card points, Schnapsen game
points, Tressette points); a deal played by a person is scored as points over par.

A *duplicate* match is one seed played twice: the second time every seat's player moves one
seat on (two players swap; in four, the teams swap), so the second half's deals are the first
half's seat for seat, and each side holds the cards the other held. The match is scored by
the difference (:func:`duplicate_margin`): what the cards gave cancels out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

from game.ai.bots import make_bot
from game.match import Bot, Match
from game.rules.base import Event, GameRules
from game.rulesets import make_rules

if TYPE_CHECKING:
    from game.ai.base import BaseBot

_Seat = TypeVar("_Seat")


@runtime_checkable
class SearchBudget(Protocol):
    """A bot that searches: its iterations per decision and its clock (None: iterations only,
    the same result on every machine)."""

    iterations: int
    time_cap: float | None


#: The hard player's search budget for par: iterations per decision, no time cap.
PAR_ITERATIONS = 150
#: Seeded runs averaged into par.
PAR_RUNS = 3
#: The level of the house bots: the opponents (and partner) of the seat being scored.
PAR_OPPONENT = "normal"
#: The house bots' budget at most (their level's own when smaller): par plays the deal
#: PAR_RUNS times, and they make most of its decisions.
HOUSE_ITERATIONS = 150


@dataclass(frozen=True)
class Deal:
    game: str
    deck: str
    players: int
    options: Mapping[str, object]
    seed: int

    def rules(self) -> GameRules:
        return make_rules(self.game, self.deck, self.players, dict(self.options))


@dataclass
class Par:
    """Par of one deal and seat: the mean of the hard player's scores over the runs."""

    value: float
    scores: list[int] = field(default_factory=list)


def sub_seed(*parts: object) -> int:
    """A 31-bit seed from ``parts`` (SHA-256 of their text joined by '|': the same everywhere)."""
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def fixed_bot(level: str, rules: GameRules, seat: int, seed: int, iterations: int | None = None) -> BaseBot:
    """A bot of ``level`` that plays the same on every machine: no time cap (its own level's
    iteration budget, or ``iterations``)."""
    bot = make_bot(level, rules, seat, seed)
    if isinstance(bot, SearchBudget):
        bot.time_cap = None
        if iterations is not None:
            bot.iterations = iterations
    return bot


def house_bot(
    rules: GameRules, seed: int, seat: int, level: str = PAR_OPPONENT, iterations: int | None = None
) -> BaseBot:
    """The house bot of ``seat`` in the deal of ``seed``: seeded from the deal's seed and its
    own seat, at most ``iterations`` (HOUSE_ITERATIONS) per decision and no clock. The
    window's daily deal, par and the club server's daily tables (game.online.server.worker) all
    seat this bot, so a person and par meet the same opponents on every machine and load."""
    iterations = HOUSE_ITERATIONS if iterations is None else iterations  # read now: tests set it
    bot = fixed_bot(level, rules, seat, sub_seed("house", seed, seat))
    if isinstance(bot, SearchBudget):
        bot.iterations = min(bot.iterations, iterations)
    return bot


def house_bots(
    rules: GameRules, seed: int, seat: int, level: str = PAR_OPPONENT, iterations: int | None = None
) -> list[Bot | None]:
    """The house bots for a deal: every seat but ``seat`` (None there)."""
    return [None if s == seat else house_bot(rules, seed, s, level, iterations) for s in range(rules.players)]


def seat_score(rules: GameRules, points: list[int], seat: int) -> int:
    """The seat's score in a deal: its team's points."""
    return points[rules.team_of(seat)]


def deal_points(events: list[Event]) -> list[int]:
    """The first ``deal_end``'s points of a record."""
    for ev in events:
        if ev.get("event") == "deal_end":
            return list(ev["points"])
    raise ValueError("the record has no finished deal")


def play_deal(
    deal: Deal, seat: int, player: Bot, opponent: str = PAR_OPPONENT, house_iterations: int | None = None
) -> Match:
    """The deal played once: ``player`` in ``seat``, the house bots elsewhere."""
    rules = deal.rules()
    bots = house_bots(rules, deal.seed, seat, opponent, house_iterations)
    bots[seat] = player
    m = Match(rules, deal.seed, bots, deals=1)
    m.run()
    return m


def par(
    deal: Deal,
    seat: int,
    runs: int | None = None,
    iterations: int | None = None,
    opponent: str = PAR_OPPONENT,
    house_iterations: int | None = None,
) -> Par:
    """Par of ``deal`` for ``seat`` (see the module); None: the module's budgets (read now)."""
    runs = PAR_RUNS if runs is None else runs
    iterations = PAR_ITERATIONS if iterations is None else iterations
    if runs < 1 or iterations < 1:
        raise ValueError("par needs at least one run of at least one iteration")
    scores = []
    for run in range(runs):
        rules = deal.rules()
        hard = fixed_bot("hard", rules, seat, sub_seed("par", deal.seed, seat, run), iterations)
        m = play_deal(deal, seat, hard, opponent, house_iterations)
        scores.append(seat_score(m.rules, m.deal_points, seat))
    return Par(sum(scores) / len(scores), scores)


def over_par(score: float, par_value: float) -> str:
    """A difference as a person reads it: +1.4, −0.6, ±0."""
    d = round(score - par_value, 1)
    if d == 0:
        return "±0"
    return f"+{d:.1f}" if d > 0 else f"−{-d:.1f}"


def par_words(t: Callable[..., str], score: float, par_value: float) -> str:
    """The difference in words, ``t`` the message lookup: "1.4 over par", "20.3 under par",
    "at par" — a sentence never says "−20.3 over par"."""
    d = round(score - par_value, 1)
    if d == 0:
        return t("daily.at_par")
    return t("daily.over_par" if d > 0 else "daily.under_par", diff=f"{abs(d):.1f}")


# ---------------------------------------------------------------------- duplicate
def swapped(seats: list[_Seat]) -> list[_Seat]:
    """The second half's seating: the player of seat s+1 (mod n) now sits at seat s, i.e.
    everyone moves one seat on. Two players swap; in four the teams swap."""
    n = len(seats)
    return [seats[(s + 1) % n] for s in range(n)]


def first_side_team(rules: GameRules, half: int) -> int:
    """The team of the side that sits at seat 0 in the first half, in ``half`` (1 or 2)."""
    return rules.team_of(0 if half == 1 else rules.players - 1)


def margin(rules: GameRules, points: list[int], team: int) -> float:
    """``team``'s points minus the mean of the other teams'."""
    others = [p for t, p in enumerate(points) if t != team]
    return points[team] - sum(others) / len(others)


def duplicate_margin(rules: GameRules, first: list[int], second: list[int]) -> float:
    """The duplicate score of the side at seat 0 in the first half: its margin in the first
    half plus its margin in the second (from each half's summed deal points)."""
    return margin(rules, first, first_side_team(rules, 1)) + margin(rules, second, first_side_team(rules, 2))


@dataclass
class DuplicateMatch:
    halves: tuple[Match, Match]
    seats: tuple[list[str], list[str]]

    @property
    def margin(self) -> float:
        a, b = self.halves
        return duplicate_margin(a.rules, a.deal_points, b.deal_points)

    def records(self) -> tuple[list[Event], list[Event]]:
        """Each half's record, an ordinary record with ``seats`` (who played each seat) and
        ``duplicate`` ({"half": 1 or 2, "seed": the shared seed}) on its match line."""
        out = []
        for half, (m, seats) in enumerate(zip(self.halves, self.seats), start=1):
            head = dict(m.events[0])
            head["seats"] = list(seats)
            head["duplicate"] = {"half": half, "seed": m.seed}
            out.append([head, *m.events[1:]])
        return out[0], out[1]


def play_duplicate(
    game: str,
    deck: str | None,
    players: int | None,
    options: Mapping[str, object],
    seed: int,
    names: list[str],
    deals: int | None = None,
) -> DuplicateMatch:
    """One duplicate match of bots ``names`` (one per seat): seed ``seed`` played with that
    seating, then with :func:`swapped` seating. Each bot's seed comes from the match seed, its
    half and its seat, so the two halves never share a random stream."""
    halves = []
    seatings = (list(names), swapped(list(names)))
    for half, seating in enumerate(seatings, start=1):
        rules = make_rules(game, deck, players, dict(options))
        bots = [make_bot(n, rules, s, sub_seed("duplicate", seed, half, s)) for s, n in enumerate(seating)]
        m = Match(rules, seed, bots, deals=deals)
        m.run()
        halves.append(m)
    return DuplicateMatch((halves[0], halves[1]), seatings)
