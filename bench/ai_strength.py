"""Bot-vs-bot strength on duplicate deals: margin per deal, win rate, decision times.

    .venv/bin/python bench/ai_strength.py --game scopa --players 2 --a hard --b greedy --deals 200 --seed 1

Every deal is played once per seating with the same cards (same seed): with two teams A takes
team 0's seats, then team 1's; with three players A takes each seat in turn (B the others).
That cancels most of the luck of the cards. ``--unit match`` plays whole matches instead of
single deals (same duplicate scheme; the margin is then the match totals' difference).

A bot is a name from game.ai.bots.BOTS, optionally with SearchBot settings:
``hard:iterations=2000`` or ``search:iterations=800,tree_depth=1``.

The search levels play **at their budget**: their time cap is lifted (``time_cap=None``), so
the iterations, not the machine's load, decide every move and the same command gives the same
games on a busy machine as on a quiet one. The shipped cap (the game's safety net) is still
counted: the report says how many decisions took longer than it, i.e. how often the game
would have cut the search short here. ``--capped`` plays with the shipped caps instead (the
game as it runs, load-dependent), and a spec's own ``time_cap=0.5`` is always kept.

``--jobs N`` spreads the deals over N processes (decision times are then inflated by sharing
the CPU). ``--hook
briscola.CARD_READING=false`` sets a constant of the game's AI (game/games/<game>/ai, its
tuning module when it has one: game.ai.hooks.tuning_module) for the run, for tuning experiments (it applies to both bots).

``--margins FILE`` writes each seed's margin (JSON lines, ``{"seed": ..., "margin": ...}``):
two runs on the same ``--seed`` and ``--deals`` (two settings of A against the same B) are
then compared seed by seed with ``bench/paired_margins.py``, whose paired difference is far
sharper than the two runs' separate errors.

``--partner SPEC`` (four players) measures a partner's worth: A's team is A plus SPEC, B plays
both other seats, and A sits in each of the four seats in turn (its partner opposite), so
``--a hard --partner greedy --b greedy`` is (hard + greedy) against (greedy + greedy) on the
same cards, and the margin is what one hard seat adds to a greedy team.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.ai.bots import BOTS, make_bot  # noqa: E402
from game.ai.hooks import tuning_module  # noqa: E402
from game.config import get_config  # noqa: E402
from game.match import Match  # noqa: E402
from game.rulesets import make_rules  # noqa: E402


def _value(text: str):
    low = text.lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict]:
    """``name[:key=value,...]`` → (name, keyword settings)."""
    name, _, rest = spec.partition(":")
    kw = {}
    for part in filter(None, rest.split(",")):
        if "=" not in part:
            raise ValueError(f"bot setting {part!r} must look like key=value")
        k, v = part.split("=", 1)
        kw[k.strip()] = _value(v.strip())
    if name != "search" and name not in BOTS:
        raise ValueError(f"unknown bot {name!r} (bots: search, {', '.join(BOTS)})")
    return name, kw


def parse_hooks(settings: list[str]) -> list[tuple[str, str, object]]:
    """``game.NAME=VALUE`` settings → (game, constant, value), checked against the hook module."""
    out = []
    for item in settings:
        target, sep, text = item.partition("=")
        game, dot, name = target.partition(".")
        if not sep or not dot:
            raise ValueError(f"--hook {item!r} must look like game.NAME=value")
        try:
            module = tuning_module(game)
        except ValueError:
            raise ValueError(f"--hook {item!r}: no hook module for {game!r}") from None
        if not hasattr(module, name):
            raise ValueError(f"--hook {item!r}: {module.__name__} has no {name}")
        out.append((game, name, _value(text)))
    return out


def apply_hooks(hooks: list[tuple[str, str, object]]) -> None:
    for game, name, value in hooks:
        setattr(tuning_module(game), name, value)


def build_bot(spec: str, rules, seat: int, seed: int, capped: bool = False):
    """The bot of ``spec``; a search bot plays at its budget (no time cap) unless ``capped``
    or the spec sets ``time_cap``. Its shipped cap is kept as ``bot.shipped_cap`` (None: none)."""
    name, kw = parse_spec(spec)
    if name == "search":
        from game.ai.search import SearchBot

        bot = SearchBot(rules, seat, seed, **kw)
    else:
        bot = make_bot(name, rules, seat, seed)
        for k, v in kw.items():
            if not hasattr(bot, k):
                raise ValueError(f"bot {name!r} has no setting {k!r}")
            setattr(bot, k, v)
    return at_budget(bot, capped or "time_cap" in kw)


def at_budget(bot, keep_cap: bool = False):
    """Lift ``bot``'s time cap (unless ``keep_cap``), remembering it as ``bot.shipped_cap``."""
    cap = getattr(bot, "time_cap", None)
    try:
        bot.shipped_cap = cap
    except AttributeError:
        pass
    if cap is not None and not keep_cap:
        bot.time_cap = None
    return bot


class Timed:
    """Wraps a bot: records the seconds of every decision that had a real choice, and in
    ``over`` its cap marks (:func:`cap_marks`)."""

    def __init__(self, bot, times: list[float], over: list[tuple[int, int]] | None = None):
        self.bot = bot
        self.times = times
        self.over = over

    def begin_decision(self, number: int) -> None:
        """Passed on: in ``--unit match`` the match reseeds the bots per decision, as in the game."""
        begin = getattr(self.bot, "begin_decision", None)
        if begin is not None:
            begin(number)

    def choose(self, view, legal):
        t = time.perf_counter()
        a = self.bot.choose(view, legal)
        if len(legal) > 1:
            self.times.append(time.perf_counter() - t)
            marks = cap_marks(self.bot)
            if self.over is not None and marks is not None:
                self.over.append(marks)
        return a


def cap_marks(bot) -> tuple[int, int] | None:
    """(wall, cpu) for the last decision of ``bot``: wall is 1 when the clock cut it short or,
    played at its budget, its wall time went over the shipped cap (the game here would have
    cut it); cpu is 1 when its CPU time did (closer to what a quiet machine would see: the
    other processes' share of the cores is not counted). None for a bot without a time cap
    (``bot.shipped_cap``, set by :func:`at_budget`)."""
    cap = getattr(bot, "shipped_cap", None)
    if cap is None:
        return None
    stats = getattr(bot, "last_stats", None) or {}
    if stats.get("capped"):
        return 1, int(stats.get("cpu", 0.0) > cap)
    if stats.get("method") in (None, "forced"):
        return 0, 0
    return int(stats.get("seconds", 0.0) > cap), int(stats.get("cpu", 0.0) > cap)


def over_line(label: str, over: list[tuple[int, int]]) -> str:
    """The report's line on the cap: how many decisions the clock decided (or would have)."""
    n = max(1, len(over))
    wall = sum(w for w, _ in over)
    cpu = sum(c for _, c in over)
    return (
        f"  {label} over its shipped time cap: {wall} of {len(over)} decisions by the clock here "
        f"({100.0 * wall / n:.1f} %), {cpu} by CPU time ({100.0 * cpu / n:.1f} %)"
    )


def seatings(players: int, teams: int, partner: bool = False) -> list[list[bool]]:
    """Per seating, which seats A's side plays. With ``partner`` there are four seatings, and
    in seating k A itself sits at seat k (its partner at the other seat of the team)."""
    if partner:
        return [[s % 2 == k % 2 for s in range(players)] for k in range(players)]
    if teams == 2 and players in (2, 4):
        first = [s % 2 == 0 for s in range(players)]
        return [first, [not x for x in first]]
    return [[s == k for s in range(players)] for k in range(players)]


def play_duplicate(args: tuple) -> tuple[list, list, list, list, list, list]:
    """One deal (or match) seed played in every seating → (A margins, A scores 1/0.5/0, A times,
    B times, A's and B's cap marks per decision)."""
    game, players, deck, options, a_spec, b_spec, seed, unit, hooks, partner_spec, capped = args
    apply_hooks(hooks)  # worker processes need them too
    margins, scores, ta, tb = [], [], [], []
    oa: list[tuple[int, int]] = []
    ob: list[tuple[int, int]] = []
    partner_times: list[float] = []
    for k, a_seats in enumerate(seatings(players, 2 if players == 4 else players, partner_spec is not None)):
        rules = make_rules(game, deck, players, options)
        bots = []
        for s in range(players):
            if partner_spec is not None and a_seats[s] and s != k:
                spec, times, over = partner_spec, partner_times, None  # A at seat k, its partner opposite
            else:
                spec, times, over = (a_spec, ta, oa) if a_seats[s] else (b_spec, tb, ob)
            # The bot seed depends on the seating too, so the two sides never share random streams.
            bots.append(Timed(build_bot(spec, rules, s, seed * 31 + k, capped), times, over))
        a_team = rules.team_of(a_seats.index(True))
        if unit == "match":
            m = Match(rules, seed, bots)
            m.run()
            pts = m.totals
            win = None if m.winner is None else m.winner == a_team
        else:
            rng = random.Random(seed)
            state = rules.new_deal(rng, rules.first_dealer(rng), 1)
            while not rules.is_over(state):
                seat = rules.to_act(state)
                rules.apply(state, bots[seat].choose(rules.view(state, seat), rules.legal_actions(state)))
            pts = rules.deal_result(state).points
            win = None
        others = [p for t, p in enumerate(pts) if t != a_team]
        margin = pts[a_team] - sum(others) / len(others)
        margins.append(margin)
        if win is None:
            win = True if margin > 0 else (None if margin == 0 else False)
        scores.append(0.5 if win is None else float(win))
    return margins, scores, ta, tb, oa, ob


def load_average() -> str:
    """The 1-minute load average (the machine is shared: say how busy it was), or "?"."""
    try:
        import os

        return f"{os.getloadavg()[0]:.1f}"
    except (AttributeError, OSError):
        return "?"


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def p95(xs: list[float]) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, int(math.ceil(0.95 * len(s))) - 1)]


def game_options(game_id: str, preset: str | None, given: list[str], players: int | None) -> tuple[dict, int | None]:
    """(the options, the player count) of ``--preset`` and ``--option NAME=VALUE`` (the config's
    own reading of each value); ValueError with one line for anything it does not know."""
    game = get_config().game(game_id)
    options: dict = {}
    if preset is not None:
        spec = next((p for p in game.presets if p.id == preset), None)
        if spec is None:
            known = ", ".join(p.id for p in game.presets) or "none"
            raise ValueError(f"{game_id} has no preset {preset!r} (presets: {known})")
        options.update(spec.options)
        if players is None:
            players = spec.players[0]
    texts = {}
    for item in given:
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise ValueError(f"--option {item!r} must look like NAME=VALUE")
        texts[name.strip()] = text.strip()
    options.update(game.options_from_text(texts))
    return options, players


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="scopa")
    ap.add_argument("--players", type=int)
    ap.add_argument("--deck")
    ap.add_argument("--a", default="hard", help="bot A (see the module docstring)")
    ap.add_argument("--b", default="greedy", help="bot B")
    ap.add_argument("--deals", type=int, default=100, help="duplicate deal seeds (each played in every seating)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--unit", choices=("deal", "match"), default="deal")
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a house rule / option of the game (repeatable; over the preset's)",
    )
    ap.add_argument("--preset", metavar="ID", help="one of the game's named option sets (rules.yaml presets)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (times get inflated)")
    ap.add_argument("--progress", action="store_true", help="print the running margin every 5 seeds")
    ap.add_argument(
        "--hook",
        action="append",
        default=[],
        metavar="GAME.NAME=VALUE",
        help="set a hook module constant for this run (tuning)",
    )
    ap.add_argument(
        "--partner", metavar="SPEC", help="four players: A's partner is this bot (A takes each seat in turn)"
    )
    ap.add_argument(
        "--margins", metavar="FILE", help="write each seed's margin to FILE (JSON lines) for bench/paired_margins.py"
    )
    ap.add_argument(
        "--capped",
        action="store_true",
        help="play with the levels' shipped time caps (load-dependent) instead of at their budget",
    )
    args = ap.parse_args(argv)
    try:
        options, players = game_options(args.game, args.preset, args.option, args.players)
        rules = make_rules(args.game, args.deck, players, options)
        parse_spec(args.a)
        parse_spec(args.b)
        if args.partner is not None:
            parse_spec(args.partner)
            if rules.players != 4:
                raise ValueError("--partner needs four players (two teams of two)")
        hooks = parse_hooks(args.hook)
        if args.deals < 1:
            raise ValueError("--deals must be at least 1")
    except ValueError as e:
        print(f"ai_strength: {e}", file=sys.stderr)
        return 2
    seeds = random.Random(args.seed)
    jobs = [
        (
            args.game,
            rules.players,
            rules.deck.id,
            options,
            args.a,
            args.b,
            seeds.getrandbits(31),
            args.unit,
            hooks,
            args.partner,
            args.capped,
        )
        for _ in range(args.deals)
    ]
    margins: list[float] = []  # per seed: A's mean margin over its seatings
    scores: list[float] = []
    ta: list[float] = []
    tb: list[float] = []
    oa: list[tuple[int, int]] = []
    ob: list[tuple[int, int]] = []
    start = time.perf_counter()

    out = None
    if args.margins:
        try:
            out = open(args.margins, "w", encoding="utf-8")
        except OSError as e:
            print(f"ai_strength: cannot write {args.margins}: {e.strerror}", file=sys.stderr)
            return 2

    def take(res) -> None:
        m, s, a, b, over_a, over_b = res
        if out is not None:
            out.write(json.dumps({"seed": jobs[len(margins)][6], "margin": sum(m) / len(m)}) + "\n")
            out.flush()
        margins.append(sum(m) / len(m))
        scores.extend(s)
        ta.extend(a)
        tb.extend(b)
        oa.extend(over_a)
        ob.extend(over_b)
        if args.progress and len(margins) % 5 == 0 and len(margins) > 1:
            se_now = statistics.stdev(margins) / math.sqrt(len(margins))
            print(f"  {len(margins)} seeds: margin {statistics.fmean(margins):+.3f} ± {se_now:.3f}", flush=True)

    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for res in pool.map(play_duplicate, jobs, chunksize=1):
                take(res)
    else:
        for j in jobs:
            take(play_duplicate(j))
    if out is not None:
        out.close()
    n = len(margins)
    mean = statistics.fmean(margins)
    se = statistics.stdev(margins) / math.sqrt(n) if n > 1 else float("nan")
    wr = statistics.fmean(scores)
    lo, hi = wilson(wr, len(scores))
    unit = "deal" if args.unit == "deal" else "match"
    house = ",".join(f"{k}={v}" for k, v in options.items())
    print(
        f"{args.game} {rules.players}p on {rules.deck.id}"
        + (f" (preset {args.preset})" if args.preset else "")
        + (f" [{house}]" if house else "")
        + f": A={args.a}"
        + (f" + partner {args.partner}" if args.partner else "")
        + f" vs B={args.b}, {n} duplicate {unit} seeds "
        f"({len(scores)} {unit}s), seed {args.seed}, jobs {args.jobs}, "
        + ("shipped time caps" if args.capped else "at the budget (no time cap)")
        + "".join(f", {g}.{k}={v!r}" for g, k, v in hooks)
    )
    print(f"  A margin per {unit}: {mean:+.3f} ± {se:.3f} (standard error over seeds)")
    print(f"  A win rate: {wr:.3f} (95% Wilson {lo:.3f}–{hi:.3f}; ties count half)")
    for label, t, over in (("A", ta, oa), ("B", tb, ob)):
        if t:
            print(
                f"  {label} decision time: mean {statistics.fmean(t) * 1000:.1f} ms, p95 {p95(t) * 1000:.1f} ms, "
                f"max {max(t) * 1000:.1f} ms over {len(t)} decisions"
            )
            if over:
                print(over_line(label, over))
    print(f"  wall time {time.perf_counter() - start:.1f} s, load average {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
