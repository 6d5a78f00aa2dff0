"""The shipped puzzles, the position of a puzzle, and the judge of a move.

The shipped set is ``game/puzzles/data/<game>.jsonl.gz`` (one puzzle per line, gzip: the
record prefixes compress about eightfold), read once and kept. A damaged file never ends
the program: its puzzles are left out and :func:`problems` says why in one line per file
(``main.py puzzles check`` prints them and fails).

A puzzle's position is its match rebuilt from the prefix's decisions (``Match.rebuild``), so
the window's table, the judge and the referee all stand on the same rules. :func:`judge`
says whether a move is the puzzle's, with the line that refutes a wrong one (the solver's
best replies where every card is known; otherwise the other seats' plain rule-of-thumb
replies up to the seat's next turn) and the coach's words for why.
"""

from __future__ import annotations

import gzip
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path

from game.coach.analysis import decisions_of, explain
from game.coach.hooks import Reason, load_coach
from game.config_types import data_dir
from game.match import Match
from game.puzzles import exact
from game.puzzles.model import Puzzle, PuzzleError
from game.rules.base import Action, GameRules
from game.rulesets import game_ids, make_rules

#: Where the shipped puzzles live, under the data folder (source tree or frozen build).
DATA_DIR = ("game", "puzzles", "data")
SUFFIX = ".jsonl.gz"
#: A data file larger than this (unpacked) is refused as damaged: the shipped ones are ~1 MB.
MAX_BYTES = 64 * 1024 * 1024
#: Moves a refutation shows at most.
REFUTATION_MOVES = 8
#: Why a right move with no rule of thumb of the coach's is right: the exact values (known),
#: or the coach's valuation; and why a wrong one is worse when the values alone speak.
RIGHT_EXACT = "puzzles.reason.right_exact"
RIGHT_VALUED = "puzzles.reason.right_valued"
WRONG_EXACT = "puzzles.reason.wrong_exact"

_lock = threading.Lock()
_cache: dict[str, list[Puzzle]] = {}
_problems: dict[str, str] = {}
_by_id: dict[str, Puzzle] = {}


class PuzzleDataError(ValueError):
    """A data file that cannot be read (one line naming the file and the line)."""


def data_path(game: str) -> Path:
    return data_dir().joinpath(*DATA_DIR, game + SUFFIX)


def read_file(path: Path) -> list[Puzzle]:
    """Every puzzle in one data file; PuzzleDataError (one line) for the first bad line."""
    try:
        if path.name.endswith(".gz"):
            with gzip.open(path, "rb") as f:
                raw = f.read(MAX_BYTES + 1)
        else:
            with open(path, "rb") as f:
                raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return []
    except (OSError, EOFError) as e:
        raise PuzzleDataError(f"{path.name}: not a puzzle file ({e})") from None
    if len(raw) > MAX_BYTES:
        raise PuzzleDataError(f"{path.name}: larger than {MAX_BYTES // 2**20} MB unpacked")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise PuzzleDataError(f"{path.name}: not UTF-8") from None
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(Puzzle.from_json(json.loads(line)))
        except (ValueError, RecursionError) as e:  # JSONDecodeError and PuzzleError are ValueErrors
            raise PuzzleDataError(f"{path.name} line {n}: {str(e).splitlines()[0]}") from None
    return out


def dumps(puzzles: list[Puzzle]) -> bytes:
    """The data file's text: one compact JSON object per line."""
    return "".join(json.dumps(p.to_json(), separators=(",", ":"), ensure_ascii=False) + "\n" for p in puzzles).encode(
        "utf-8"
    )


def write_file(path: Path, puzzles: list[Puzzle], overwrite: bool = False) -> str | None:
    """Write ``puzzles`` to ``path`` atomically (game.services.storage), gzip-compressed when the name
    ends in ``.gz`` (with no time stamp: the same puzzles give the same bytes). None, or a
    one-line problem."""
    from game.services.storage import write_bytes

    data = dumps(puzzles)
    if path.name.endswith(".gz"):
        data = gzip.compress(data, compresslevel=9, mtime=0)
    return write_bytes(path, data, overwrite=overwrite)


def _load(game: str) -> list[Puzzle]:
    with _lock:
        if game not in _cache:
            try:
                puzzles = read_file(data_path(game))
                _problems.pop(game, None)
            except PuzzleDataError as e:
                puzzles = []
                _problems[game] = str(e)
            _cache[game] = [p for p in puzzles if p.game == game]
            for p in _cache[game]:
                _by_id[p.id] = p
        return _cache[game]


def shipped(game: str | None = None) -> list[Puzzle]:
    """The shipped puzzles of ``game`` (every game's when None), in the file's order. A
    damaged file gives none (see :func:`problems`), never an exception."""
    games = [game] if game is not None else game_ids()
    out: list[Puzzle] = []
    for g in games:
        out += _load(g)
    return out


def problems() -> list[str]:
    """One line per data file that could not be read (after :func:`shipped` read it)."""
    shipped()
    return [_problems[g] for g in sorted(_problems)]


def forget() -> None:
    """Read the files again on next use (tests, the generator writing a new set)."""
    with _lock:
        _cache.clear()
        _problems.clear()
        _by_id.clear()


def by_id(pid: str) -> Puzzle | None:
    """The shipped puzzle with that id, or None."""
    game = pid.split("-", 1)[0] if isinstance(pid, str) else ""
    if game in game_ids():
        _load(game)
    else:
        shipped()
    return _by_id.get(pid)


# ---------------------------------------------------------------------- the position
def rules_of(p: Puzzle) -> GameRules:
    return make_rules(p.game, p.deck, p.players, dict(p.options))


def position(p: Puzzle) -> Match:
    """The puzzle's match rebuilt at its position (every seat a human seat: None), its seat to
    act. PuzzleError when the prefix does not lead there (a damaged puzzle)."""
    rules = rules_of(p)
    prefix = list(p.prefix)
    try:
        decisions = decisions_of(rules, prefix)
        try:
            m = Match.rebuild(rules, p.seed, decisions, deals=prefix[0].get("deals"))
            m.keep_version(prefix[0])
        except ValueError:  # IllegalAction too: the seed deals other cards than the record's
            m = None
        if m is None or m.events != prefix:
            m = _from_deal_line(rules, p)
    except (ValueError, KeyError, TypeError) as e:
        raise PuzzleError(f"puzzle {p.id}: its record does not replay ({e})") from None
    if m.events != prefix:
        raise PuzzleError(f"puzzle {p.id}: its record does not replay to the same lines")
    if m.to_act != p.seat:
        raise PuzzleError(f"puzzle {p.id}: seat {p.seat} is not to act at its position")
    return m


def _from_deal_line(rules: GameRules, p: Puzzle) -> Match:
    """The match at the puzzle's position from the prefix's last deal line, where the seed does
    not deal the recorded cards (a mistake puzzle cut from a later deal of the player's match,
    a record whose seed is not this program's): the deal's decisions replayed on it."""
    prefix = list(p.prefix)
    j = max(i for i, e in enumerate(prefix) if e.get("event") == "deal")
    deal = prefix[j]
    m = Match(rules, p.seed, None, deals=prefix[0].get("deals"))
    m.events = [dict(e) for e in prefix[: j + 1]]
    m.deal_number = deal["number"]
    m.dealer = deal["dealer"]
    m.state = rules.state_from_deal(deal)
    ends = [e for e in prefix[:j] if e.get("event") == "deal_end"]
    if ends:
        m.totals = list(ends[-1]["totals"])
    for seat, action in decisions_of(rules, [prefix[0], *prefix[j:]]):
        if seat != m.to_act:
            raise ValueError(f"seat {seat} acts, but seat {m.to_act} is to act")
        m.play(action)
    return m


def position_at(p: Puzzle, step: int) -> Match:
    """The position after the line's first ``step`` moves."""
    if not 0 <= step <= len(p.line):
        raise PuzzleError(f"puzzle {p.id}: no step {step} (the line has {len(p.line)} moves)")
    m = position(p)
    for i in range(step):
        m.play(p.action(i))
    return m


# ---------------------------------------------------------------------- judging
@dataclass(frozen=True)
class Judgement:
    #: The move is the puzzle's.
    ok: bool
    #: The puzzle's move at this step.
    right: Action
    #: A wrong move: the move and the moves that refute it, as (seat, Action), the wrong move
    #: first; empty for a right one.
    refutation: list[tuple[int, Action]] = field(default_factory=list)
    #: (locale key, params) — the coach's words (game.coach.words.Words.reason reads them).
    reason: Reason | None = None
    #: The puzzle is solved after this (right) move.
    done: bool = False
    #: The line's index of the seat's next move to judge (after the replies), or len(line).
    next_step: int = 0
    #: What the move loses against the right one, in the game's points (0 for a right one;
    #: None when it is not known).
    loss: float | None = 0.0
    #: The game's points' locale key (coach.units.*).
    units: str = ""


def _wrong_line(rules: GameRules, m: Match, seat: int, action: Action, known: bool) -> list[tuple[int, Action]]:
    """The wrong move and what follows: with every card known, every seat's solver-best play
    until the deal ends (at most REFUTATION_MOVES); otherwise the other seats' greedy replies
    until the seat is to act again."""
    from game.ai.bots import make_bot

    state = rules.clone(m.state)
    rules.apply(state, action, check=False)
    out = [(seat, action)]
    if known:
        return out + exact.play_line(rules, state, REFUTATION_MOVES)
    while not rules.is_over(state) and rules.to_act(state) != seat and len(out) < REFUTATION_MOVES:
        actor = rules.to_act(state)
        bot = make_bot("greedy", rules, actor, 0)
        a = bot.choose(rules.view(state, actor), rules.legal_actions(state))
        rules.apply(state, a, check=False)
        out.append((actor, a))
    return out


def judge(p: Puzzle, step: int, action: Action) -> Judgement:
    """Is ``action`` the puzzle's move at ``step`` (an index into ``p.line`` where the seat is
    to move)? PuzzleError when ``step`` is not one of the seat's answer steps, or the action is
    not legal there (the table refuses an illegal move before it is judged)."""
    steps = p.seat_steps()
    if step not in steps:
        raise PuzzleError(f"puzzle {p.id}: step {step} is not one of the seat's moves {steps}")
    m = position_at(p, step)
    rules = m.rules
    legal = m.legal_actions()
    if action not in legal:
        raise PuzzleError(f"puzzle {p.id}: {action} is not legal here")
    right = p.action(step)
    view = m.view(p.seat)
    coach = load_coach(rules.game_id)
    last = step == steps[-1]
    nxt = next((i for i in steps if i > step), len(p.line))
    if action == right or _tied(p, step, action, coach.tie):
        reason = explain(rules, view, legal, action, action, 0.0, "best", coach)
        if reason is None:
            margin = p.margin if step == 0 else _margin_here(rules, m)
            reason = (
                RIGHT_EXACT if p.known else RIGHT_VALUED,
                {"move": action, "points": round(margin or 0.0, 1), "units": coach.units},
            )
        return Judgement(True, right, [], reason, last, nxt, 0.0, coach.units)
    loss = _loss(p, rules, m, step, action)
    reason = explain(rules, view, legal, action, right, loss or 0.0, "blunder", coach)
    if p.known and reason is not None and reason[0] == "coach.reason.kept_more":
        reason = (WRONG_EXACT, reason[1])  # exact values: no "on average"
    return Judgement(
        False,
        right,
        _wrong_line(rules, m, p.seat, action, p.known),
        reason,
        False,
        step,
        None if loss is None else round(loss, 4),
        coach.units,
    )


def _tied(p: Puzzle, step: int, action: Action, tie: float) -> bool:
    """A player's own mistake: a first move the coach valued within its resolution (the game's
    ``TIE``) of the best is as right as the best (the coach could not tell them apart)."""
    if p.origin != "mistake" or step != 0 or not p.values:
        return False
    mine = p.value_of(action)
    return mine is not None and mine >= p.values[0][1] - max(exact.EPS, tie)


def _margin_here(rules: GameRules, m: Match) -> float | None:
    r = exact.ranked(rules, m.state)
    if not r or len(r) < 2:
        return None
    return r[0][1] - r[1][1]


def _loss(p: Puzzle, rules: GameRules, m: Match, step: int, action: Action) -> float | None:
    """What ``action`` loses against the right move: the stored values (the first move), else
    the solver's (every card known), else at least the margin."""
    if step == 0 and p.values:
        mine, top = p.value_of(action), p.values[0][1]
        if mine is not None:
            return max(0.0, top - mine)
    if p.known:
        vals = exact.values(rules, m.state)
        if vals is not None and action in vals:
            return max(0.0, vals[p.action(step)] - vals[action])
    return p.margin if step == 0 else None


def reply(p: Puzzle, step: int) -> tuple[int, Action] | None:
    """The other seats' move at ``step`` of the line (a reply), or None where the seat is to
    move or the line has ended."""
    if not 0 <= step < len(p.line):
        return None
    seat, _ = p.line[step]
    if seat == p.seat:
        return None
    return seat, p.action(step)


def check(p: Puzzle, margin_check: bool = True) -> str | None:
    """None when the puzzle is sound: its prefix verifies with the referee, its match rebuilds
    at the position with its seat to act, every move of its line is legal where it comes and,
    for a known-card puzzle, the solver's margin holds (the first move is worth at least the
    margin more than every other) and each later move of the seat is the only best one.
    Otherwise one line saying what is wrong."""
    from game.verify import verify_prefix

    verdict = verify_prefix(list(p.prefix))
    if not verdict.ok:
        return f"{p.id}: its record prefix does not verify ({verdict})"
    try:
        m = position(p)
    except PuzzleError as e:
        return str(e)
    rules = m.rules
    steps = set(p.seat_steps())
    for i, (seat, _) in enumerate(p.line):
        a = p.action(i)
        if m.over or m.to_act != seat:
            return f"{p.id}: move {i + 1} of its line is seat {seat}'s, but seat {m.to_act} is to act"
        if a not in m.legal_actions():
            return f"{p.id}: move {i + 1} of its line ({a}) is not legal"
        if p.known and margin_check and i in steps:
            if not exact.known(rules, m.view(p.seat)):
                return f"{p.id}: marked known, but the seat does not see every card"
            r = exact.ranked(rules, m.state)
            if r is None:
                return f"{p.id}: the solver gives up at move {i + 1}"
            if r[0][0] != a:
                return f"{p.id}: move {i + 1} ({a}) is not the solver's best ({r[0][0]})"
            need = p.margin if i == 0 else exact.EPS
            if len(r) > 1 and r[0][1] - r[1][1] < need - exact.EPS:
                return f"{p.id}: move {i + 1} is better by {r[0][1] - r[1][1]:.4f}, not by its margin {need:.4f}"
        m.play(a)
    return None


def units_of(p: Puzzle) -> str:
    """The locale key of the puzzle's points (coach.units.*)."""
    return load_coach(p.game).units


__all__ = [
    "Judgement",
    "PuzzleDataError",
    "by_id",
    "check",
    "data_path",
    "forget",
    "judge",
    "position",
    "position_at",
    "problems",
    "read_file",
    "reply",
    "write_file",
    "dumps",
    "rules_of",
    "shipped",
    "units_of",
]
