"""The puzzle generator: seeded deals between search bots, and the positions where one move is
clearly best.

A run with seed ``S`` plays the one-deal matches seeded ``S``, ``S + 1``, ``S + 2`` … (the match
line's ``deals: 1``; the shipped set: seed 1, so every match seed is below 10 000, the
project's tuning range, as bench/coach.py's), played by the normal level with a fixed budget and no time cap
(``BOT_ITERATIONS``: the same deals and moves on any machine). At each decision with two
legal moves or more:

- **every card known from the seat** (game.puzzles.exact.known: no stock left, at most one
  other hand holding cards), the game's exact solver values every move; the position is kept
  when the best move is worth at least the game's ``margin`` (rules.yaml ``puzzles:``, in the
  coach's points) more than every other. The line goes on with the solver's replies while
  each later move of the seat is the only best one (several equally good, or a forced move:
  the outcome no longer hangs on the player, and the line ends after the seat's last move);
- **cards hidden**, at a sample of decisions (``hidden_rate``), the coach's flat valuation on
  the seat's view alone (game.coach.flat, the coach's own playouts): a quick screen at a
  small budget, then two full valuations on independent seeds; the position is kept when
  both name the same best move and both put it ``hidden_margin`` or more above every other
  (the margin kept is the smaller of the two). Such a puzzle asks for one move.

At most one puzzle per seat and deal (puzzles of one deal would share their cards), and
known-card positions whose seat holds more than ``max_hand`` cards are left (a known-card
endgame of ten cards is no puzzle for a person; a single move valued with hidden cards is).

**Starting rating** (Glicko-2's scale, deviation PUZZLE_RD): ``1450`` + ``150`` per answer
move after the first + ``35`` per legal move beyond two (more to choose from) + ``250`` when
the hard level's searched move at the position is not the answer (the solver-free search
misses it) − ``200`` when the greedy bot's one-ply rule of thumb finds it (it is the
obvious move) + up to ``150`` for a small margin (``150 · (1 − margin / (4 · threshold))``,
none from four thresholds up), clamped to 800–2300. The attempts move it from there
(game.puzzles.rating).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.action_codec import action_to_json
from game.ai.bots import make_bot
from game.ai.hooks import State, View
from game.ai.levels import HardBot, NormalBot
from game.coach.flat import flat_values
from game.coach.hooks import load_coach
from game.config import get_config
from game.match import Match
from game.puzzles import exact, themes
from game.puzzles.model import PUZZLE_RD, Puzzle
from game.rules.base import Action, GameRules
from game.rulesets import make_rules

#: The bots' budget per decision (the normal level's search, no time cap).
BOT_ITERATIONS = 300
#: The hard level's budget for the rating's "does the search find it" test.
HARD_ITERATIONS = 1500
#: The coach's budget fraction for the quick screen of a hidden-card position.
SCREEN_FRACTION = 8
#: The starting rating's base (see the module): the shipped set's median comes near 1500,
#: where a new player starts.
BASE = 1450.0
#: Most moves of the seat a known-card puzzle asks for.
MAX_ANSWERS = 4


@dataclass
class Figures:
    """What a run did: the numbers the command prints."""

    game: str
    deals: int = 0
    #: Decisions with two legal moves or more, examined (known: by the solver; hidden: screened).
    known_examined: int = 0
    hidden_examined: int = 0
    known_kept: int = 0
    hidden_kept: int = 0
    seconds: float = 0.0
    themes: dict[str, int] = field(default_factory=dict)

    @property
    def examined(self) -> int:
        return self.known_examined + self.hidden_examined

    @property
    def kept(self) -> int:
        return self.known_kept + self.hidden_kept

    def line(self) -> str:
        ts = ", ".join(f"{k} {v}" for k, v in sorted(self.themes.items(), key=lambda kv: -kv[1]))
        return (
            f"puzzles make: {self.game}: {self.deals} deals, {self.examined} positions examined "
            f"({self.known_examined} every card known, {self.hidden_examined} hidden), {self.kept} kept "
            f"({self.known_kept} known, {self.hidden_kept} hidden), {self.seconds:.1f} s; themes: {ts or 'none'}"
        )


@dataclass(frozen=True)
class Settings:
    """One game's generator settings (rules.yaml ``puzzles:`` and the run's own)."""

    margin: float
    hidden_margin: float
    max_hand: int
    players: int
    hidden_rate: float = 0.15
    budget: int = 0  # the coach's full budget for a hidden-card valuation (0: the game's own)


def settings_of(
    game: str, players: int | None = None, hidden_rate: float | None = None, budget: int | None = None
) -> Settings:
    """The game's settings: rules.yaml's ``puzzles:`` entry (ValueError when it has none)."""
    g = get_config().game(game)
    conf = dict(getattr(g, "puzzles", {}) or {})
    if not conf:
        raise ValueError(f"rules.yaml gives {game} no puzzles: entry (its margins)")
    n = players or int(conf.get("players", g.players[0]))
    if n not in g.players:
        raise ValueError(f"{game} is not played by {n} players (players: {', '.join(map(str, g.players))})")
    return Settings(
        float(conf["margin"]),
        float(conf["hidden_margin"]),
        int(conf.get("max_hand", 12)),
        n,
        float(conf.get("hidden_rate", 0.15)) if hidden_rate is None else hidden_rate,
        budget or load_coach(game).budget,
    )


# ---------------------------------------------------------------------- known cards
def _end(rules: GameRules, state: State) -> tuple[dict, int | None]:
    """(breakdown, seat that took the last trick) of the deal played on by the solver."""
    s = rules.clone(state)
    last = None
    while not rules.is_over(s):
        a = exact.best(rules, s)
        if a is None:
            return {}, None
        for e in rules.apply(s, a, check=False):
            if e.get("event") == "trick":
                last = e.get("winner")
    return rules.deal_result(s).detail, last


def known_line(rules: GameRules, state: State, seat: int, first: Action) -> tuple[list[tuple[int, Action]], int]:
    """(line, answer moves): the seat's ``first`` move, then the solver's replies and the
    seat's only-best moves (see the module), ending with the seat's last such move."""
    s = rules.clone(state)
    rules.apply(s, first, check=False)
    line = [(seat, first)]
    answers, last_answer = 1, 1
    while not rules.is_over(s) and answers < MAX_ANSWERS:
        actor = rules.to_act(s)
        r = exact.ranked(rules, s)
        if not r:
            break
        if actor == seat:
            if len(r) < 2 or r[0][1] - r[1][1] <= exact.EPS:
                break
            answers += 1
        line.append((actor, r[0][0]))
        if actor == seat:
            last_answer = len(line)
        rules.apply(s, r[0][0], check=False)
    return line[:last_answer], answers


def examine_known(rules: GameRules, state: State, seat: int, conf: Settings) -> dict[str, Any] | None:
    """A known-card puzzle's facts at this position, or None when no move is clearly best."""
    r = exact.ranked(rules, state)
    if not r or len(r) < 2:
        return None
    (best, top), (second, next_value) = r[0], r[1]
    margin = top - next_value
    if margin < conf.margin - exact.EPS:
        return None
    line, answers = known_line(rules, state, seat, best)
    after_best = rules.clone(state)
    rules.apply(after_best, best, check=False)
    after_other = rules.clone(state)
    rules.apply(after_other, second, check=False)
    theme = themes.known_theme(rules, state, seat, best, _end(rules, after_best), _end(rules, after_other))
    if top > exact.EPS and next_value <= exact.EPS:
        question = "win_deal"
    elif top >= -exact.EPS and next_value < -exact.EPS:
        question = "save_deal"
    else:
        question = "most_points"
    return {
        "line": line,
        "answers": answers,
        "margin": margin,
        "theme": theme,
        "question": question,
        "values": r,
        "known": True,
    }


# ---------------------------------------------------------------------- hidden cards
def _valued(rules: GameRules, view: View, legal: list[Action], seat: int, key: str, budget: int) -> dict[Action, float]:
    """The coach's flat valuation of every legal move, in the game's points."""
    coach = load_coach(rules.game_id)
    playout_kw = {**(HardBot(rules, seat).playout_kw or {}), **coach.playout_kw}
    raw = flat_values(rules, view, legal, seat, key, budget, playout_kw, None, coach.max_worlds, coach.apply)
    scale = coach.points_per_utility(rules)
    return {a: raw[a][0] * scale for a in legal}


def _gap(vals: dict[Action, float], legal: list[Action]) -> tuple[Action, float]:
    order = sorted(legal, key=lambda a: (-vals[a], legal.index(a)))
    return order[0], vals[order[0]] - vals[order[1]]


def examine_hidden(rules: GameRules, state: State, seat: int, conf: Settings, key: str) -> dict[str, Any] | None:
    """A hidden-card puzzle's facts at this position (see the module), or None."""
    view = rules.view(state, seat)
    legal = rules.legal_actions(state)
    screen = _valued(rules, view, legal, seat, f"puzzle:{key}:screen", max(200, conf.budget // SCREEN_FRACTION))
    best, gap = _gap(screen, legal)
    if gap < conf.hidden_margin:
        return None
    first = _valued(rules, view, legal, seat, f"puzzle:{key}:a", conf.budget)
    best_a, gap_a = _gap(first, legal)
    if best_a != best or gap_a < conf.hidden_margin:
        return None
    second = _valued(rules, view, legal, seat, f"puzzle:{key}:b", conf.budget)
    best_b, gap_b = _gap(second, legal)
    if best_b != best or gap_b < conf.hidden_margin:
        return None
    ranked = sorted(((a, first[a]) for a in legal), key=lambda av: (-av[1], legal.index(av[0])))
    theme = themes.hidden_theme(rules, state, seat, best, ranked[1][0])
    return {
        "line": [(seat, best)],
        "answers": 1,
        "margin": min(gap_a, gap_b),
        "theme": theme,
        "question": "best_move",
        "values": ranked,
        "known": False,
    }


# ---------------------------------------------------------------------- rating
def starting_rating(
    rules: GameRules, state: State, seat: int, found: dict[str, Any], conf: Settings, seed: int
) -> float:
    """The puzzle's first rating (see the module)."""
    view = rules.view(state, seat)
    legal = rules.legal_actions(state)
    answer = found["line"][0][1]
    rating = BASE + 150.0 * (found["answers"] - 1) + 35.0 * max(0, len(legal) - 2)
    threshold = conf.margin if found["known"] else conf.hidden_margin
    rating += 150.0 * max(0.0, 1.0 - found["margin"] / (4.0 * threshold))
    greedy = make_bot("greedy", rules, seat, seed)
    if greedy.choose(view, list(legal)) == answer:
        rating -= 200.0
    if found["known"]:
        # The hard level solves known positions exactly: ask the plain search instead.
        hard = HardBot(rules, seat, seed, iterations=HARD_ITERATIONS, time_cap=None, exact=False)
    else:
        hard = HardBot(rules, seat, seed, iterations=HARD_ITERATIONS, time_cap=None)
    hard.begin_decision(0)
    if hard.choose(view, list(legal)) != answer:
        rating += 250.0
    return round(min(2300.0, max(800.0, rating)), 1)


# ---------------------------------------------------------------------- a run
def _strip(events: list[dict]) -> list[dict]:
    """The record prefix as shipped: the match line without the program's version (an extra
    field RECORD.md allows; a shipped puzzle does not change when the version does)."""
    out = [dict(e) for e in events]
    out[0].pop("version", None)
    return out


def make(
    game: str,
    count: int,
    seed: int,
    *,
    players: int | None = None,
    hidden_rate: float | None = None,
    budget: int | None = None,
    progress: Callable[[Figures], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    max_deals: int | None = None,
) -> tuple[list[Puzzle], Figures]:
    """Up to ``count`` puzzles of ``game`` from the one-deal matches seeded ``seed``, ``seed + 1``
    … (see the module), and the run's figures. ``max_deals`` bounds the deals played."""
    conf = settings_of(game, players, hidden_rate, budget)
    rules = make_rules(game, None, conf.players, {})
    figures = Figures(game)
    t0 = time.perf_counter()
    out: list[Puzzle] = []
    d = 0
    while len(out) < count and (max_deals is None or figures.deals < max_deals):
        if should_stop is not None and should_stop():
            break
        match_seed = seed + d
        out += _deal(rules, conf, match_seed, figures, count - len(out))
        figures.deals += 1
        d += 1
        figures.seconds = time.perf_counter() - t0
        if progress is not None:
            progress(figures)
    figures.seconds = time.perf_counter() - t0
    return out, figures


def _deal(rules: GameRules, conf: Settings, match_seed: int, figures: Figures, room: int) -> list[Puzzle]:
    bots = [NormalBot(rules, s, match_seed, iterations=BOT_ITERATIONS, time_cap=None) for s in range(rules.players)]
    m = Match(rules, match_seed, bots, deals=1)
    m.start()
    pick = random.Random(f"cardavia-puzzles|{match_seed}")
    done: set[int] = set()
    out: list[Puzzle] = []
    while not m.over and len(out) < room:
        seat = m.to_act
        assert seat is not None  # the match is not over
        legal = m.legal_actions()
        view = m.view(seat)
        found = None
        if len(legal) >= 2 and seat not in done:
            known = exact.known(rules, view)
            if known and len(getattr(view, "hand", ())) <= conf.max_hand:
                figures.known_examined += 1
                found = examine_known(rules, m.state, seat, conf)
                figures.known_kept += found is not None
            elif not known and conf.hidden_rate > 0 and pick.random() < conf.hidden_rate:
                figures.hidden_examined += 1
                found = examine_hidden(rules, m.state, seat, conf, f"{match_seed}:{len(m.decisions)}")
                figures.hidden_kept += found is not None
        if found is not None:
            done.add(seat)
            out.append(_puzzle(rules, m, seat, found, conf, match_seed))
            figures.themes[found["theme"]] = figures.themes.get(found["theme"], 0) + 1
        m.step_bot()
    return out


def _puzzle(rules: GameRules, m: Match, seat: int, found: dict[str, Any], conf: Settings, match_seed: int) -> Puzzle:
    n = len(m.decisions)
    prefix = _strip(m.events)
    return Puzzle(
        id=f"{rules.game_id}-{match_seed}-{n}",
        game=rules.game_id,
        deck=rules.deck.id,
        players=rules.players,
        options=dict(rules.options),
        seed=match_seed,
        prefix=tuple(prefix),
        seat=seat,
        line=tuple((s, action_to_json(a)) for s, a in found["line"]),
        answer_moves=found["answers"],
        margin=round(found["margin"], 4),
        theme=found["theme"],
        question=found["question"],
        known=found["known"],
        rating=starting_rating(rules, m.state, seat, found, conf, match_seed),
        rd=PUZZLE_RD,
        values=tuple((action_to_json(a), round(v, 4)) for a, v in found["values"]),
    )


__all__ = [
    "BOT_ITERATIONS",
    "Figures",
    "Settings",
    "examine_hidden",
    "examine_known",
    "known_line",
    "make",
    "settings_of",
    "starting_rating",
]
