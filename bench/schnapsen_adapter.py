"""Our Schnapsen AI inside an outside engine: the ``schnapsen`` 0.0.5 package (a university
course's bot platform), against its RdeepBot and RandBot.

A benchmark-only dependency, never shipped with the game. Set up once:

    python3 -m venv .venv-bench
    .venv-bench/bin/pip install -r requirements.txt -r bench/requirements-bench.txt

then, from the repo root:

    .venv-bench/bin/python bench/schnapsen_adapter.py --a hard --b rdeep --games 300 --jobs 2

``--games N`` deal seeds, each played twice with the seats swapped (the same shuffled deck,
A leading first once and B once): 2N games. Bots: hard / normal / easy (our levels), greedy,
random (ours), policy (the search's playout policy as a player, a diagnostic), rdeep
(RdeepBot, 16 samples, depth 4), rand (RandBot); ``hard:iterations=2000``
style settings are passed to our search bots. Our levels play at their budget (no time cap:
the same games on a busy machine), as in bench/ai_strength.py, which also says how the
decisions over the shipped cap are counted; ``--capped`` keeps the shipped caps. Prints A's win rate with a 95 % Wilson
interval, A's game-point margin per game and the decision times, as bench/ai_strength.py does.

``--tell hand`` (or ``all``) is a diagnostic: A's search is told the opponent's true hand (or
his hand and the stock's order) in every determinization, read from the engine's state. It
measures what card reading could at best be worth (hand), and how much of a deal is the
luck of the unseen stock (all); a bot that plays for real never sees these cards.

How the engines differ, and what the adapter does about it: the package has no closing, a
marriage is declared with both cards and led with the King, its points stay pending until
the declarer's next trick and 66 counts only after a trick. Our bot thinks with
:class:`EngineRules`, our Schnapsen rules shaped like that engine, and sees a
:class:`~game.games.schnapsen.rules.SchnapsenView` built from the package's PlayerPerspective (its
hand, the trick history, the scores, the face-up trump, the known cards of the opponent);
our choice is mapped back to one of the package's valid moves.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

try:
    from schnapsen.bots import RandBot, RdeepBot
    from schnapsen.deck import Card as PCard
    from schnapsen.deck import Rank, Suit
    from schnapsen.game import Bot, Move, PlayerPerspective, SchnapsenGamePlayEngine
except ImportError:  # a clear message instead of a traceback
    print(
        "schnapsen_adapter: the 'schnapsen' package is missing; see the module docstring for the .venv-bench setup",
        file=sys.stderr,
    )
    raise SystemExit(2) from None

from ai_strength import (  # noqa: E402  (the same statistics as our own tournaments)
    apply_hooks,
    at_budget,
    cap_marks,
    load_average,
    over_line,
    p95,
    parse_hooks,
    wilson,
)

from game.ai.bots import make_bot  # noqa: E402
from game.cards import Card, card  # noqa: E402
from game.games.schnapsen.rules import SchnapsenRules, SchnapsenState, SchnapsenView  # noqa: E402
from game.games.schnapsen.vocabulary import CLOSE, EXCHANGE  # noqa: E402
from game.rules.base import Action, Event  # noqa: E402
from game.rulesets import make_rules  # noqa: E402

SUIT = {Suit.HEARTS: "B", Suit.DIAMONDS: "D", Suit.CLUBS: "C", Suit.SPADES: "S"}
RANK = {Rank.ACE: "A", Rank.TEN: "10", Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J"}


def ours(c: PCard) -> Card:
    return card(RANK[c.rank] + SUIT[c.suit])


class EngineRules(SchnapsenRules):
    """Our Schnapsen rules as the package's engine plays them: no closing, a marriage led with
    the King only and always pending until the declarer's next trick (so 66 counts after a
    trick only). The exact solver reads the two ``ai_`` flags."""

    ai_marriage_counts_at_once = False
    ai_marriage_king_only = True

    def legal_actions(self, state: SchnapsenState) -> list[Action]:
        return [
            a
            for a in super().legal_actions(state)
            if a is not CLOSE and a.kind != "close" and not (a.arg("marriage") and a.played.rank != "K")
        ]

    def apply(self, state: SchnapsenState, action: Action, check: bool = True) -> list[Event]:
        if not action.arg("marriage"):
            return super().apply(state, action, check)
        s = state.to_act
        c = action.card
        pts = self.trump_marriage_value if c.suit == state.trump else self.marriage_value
        state.marriages.append((s, c.suit, pts))
        state.pending[s] += pts  # redeemed by the declarer's next trick, as in the engine
        kn = state.known[s]
        p = self.partner[c]
        if p not in kn:
            kn.append(p)
        ev: list[Event] = [{"event": "marriage", "seat": s, "suit": c.suit, "points": pts}]
        return ev + super().apply(state, self._play[c], check=False)


def engine_rules() -> EngineRules:
    base = make_rules("schnapsen", "schnapsen-french")
    return EngineRules(base.game, base.deck, 2, base.options)


def perspective_view(rules: EngineRules, persp: PlayerPerspective, leader_move: Move | None) -> SchnapsenView:
    """Our view (we are seat 0) of the package's PlayerPerspective."""
    trump = SUIT[persp.get_trump_suit()]
    history: list[tuple[int, Card]] = []
    marriages: list[tuple[int, str, int]] = []

    def marriage_value(suit: str) -> int:
        return rules.trump_marriage_value if suit == trump else rules.marriage_value

    past = persp.get_game_history()
    dealer = 1 if past[0][0].am_i_leader() else 0
    for p, trick in past:
        if trick is None or trick.is_trump_exchange():
            continue
        lead_seat = 0 if p.am_i_leader() else 1
        lm = trick.leader_move
        if lm.is_marriage():
            k = ours(lm.as_marriage().king_card)
            marriages.append((lead_seat, k.suit, marriage_value(k.suit)))
            history.append((lead_seat, k))
        else:
            history.append((lead_seat, ours(lm.as_regular_move().card)))
        history.append((1 - lead_seat, ours(trick.follower_move.as_regular_move().card)))
    hand = tuple(ours(c) for c in persp.get_hand().get_cards())
    led = None
    known_extra: list[Card] = []
    if leader_move is not None:
        if leader_move.is_marriage():
            m = leader_move.as_marriage()
            led = ours(m.king_card)
            marriages.append((1, led.suit, marriage_value(led.suit)))
            known_extra.append(ours(m.queen_card))
        else:
            led = ours(leader_move.as_regular_move().card)
        history.append((1, led))
    won_me = tuple(ours(c) for c in persp.get_won_cards().get_cards())
    won_op = tuple(ours(c) for c in persp.get_opponent_won_cards().get_cards())
    known = [ours(c) for c in persp.get_known_cards_of_opponent_hand().get_cards()]
    known = [c for c in dict.fromkeys(known + known_extra) if c is not led]
    # Credited marriages = direct points minus trick points; the rest of the declared is pending.
    pts = rules.points
    direct = [persp.get_my_score().direct_points, persp.get_opponent_score().direct_points]
    card_pts = [sum(pts[c] for c in won_me), sum(pts[c] for c in won_op)]
    declared = [sum(p for s, _, p in marriages if s == seat) for seat in (0, 1)]
    pending = tuple(declared[s] - (direct[s] - card_pts[s]) for s in (0, 1))
    tc = persp.get_trump_card()
    return SchnapsenView(
        seat=0,
        dealer=dealer,
        leader=0 if leader_move is None else 1,
        to_act=0,
        hand=hand,
        trump=trump,
        indicator=ours(tc) if tc is not None else None,
        led=led,
        stock_count=persp.get_talon_size(),
        opponent_count=len(hand) - (1 if leader_move is not None else 0),
        closed_by=None,
        closure=None,
        won=(won_me, won_op),
        points=direct[0],
        pending=pending,
        marriages=tuple(marriages),
        known_opponent=tuple(known),
        history=tuple(history),
        deck=rules.deck_cards,
    )


def move_mapping(rules: EngineRules, perspective: PlayerPerspective) -> dict[Action, Move]:
    """The package's valid moves, keyed by our actions."""
    mapping: dict[Action, Move] = {}
    for m in perspective.valid_moves():
        if m.is_trump_exchange():
            mapping[EXCHANGE] = m
        elif m.is_marriage():
            mapping[rules._marry[ours(m.as_marriage().king_card)]] = m
        else:
            mapping[rules._play[ours(m.as_regular_move().card)]] = m
    return mapping


class PolicyBot:
    """The search's playout policy as a player (a diagnostic of the policy itself): one
    determinization, the policy's move without random ones; once the stock is gone the view
    fixes the state and the exact solver plays. The open-stock policy reads only its own hand,
    the table and the unseen cards taken together, so the determinization does not help it."""

    def __init__(self, rules: EngineRules, seed: int):
        self.rules = rules
        self.rng = random.Random(seed)

    def choose(self, view: SchnapsenView, legal: list[Action]) -> Action:
        from game.games.schnapsen import ai as schnapsen_ai

        if len(legal) == 1:
            return legal[0]
        state = schnapsen_ai.determinize(self.rules, view, self.rng)
        return schnapsen_ai.rollout(self.rules, state, legal, self.rng, solved=True, epsilon=0.0)


class CardaviaBot(Bot):
    """One of our bots playing in the package's engine. ``times`` collects decision seconds."""

    def __init__(
        self,
        spec: str,
        seed: int,
        times: list[float],
        over: list | None = None,
        capped: bool = False,
        tell: str | None = None,
    ):
        super().__init__("cardavia:" + spec)
        self.rules = engine_rules()
        name, _, rest = spec.partition(":")
        if name == "policy":
            self.bot = PolicyBot(self.rules, seed)
        elif name in ("random", "greedy"):
            self.bot = make_bot(name, self.rules, 0, seed)
        else:
            self.bot = _level(name, self.rules, seed)
        for part in filter(None, rest.split(",")):
            k, v = part.split("=", 1)
            if not hasattr(self.bot, k):
                raise ValueError(f"bot {name!r} has no setting {k!r}")
            setattr(self.bot, k, _value(v))
        at_budget(self.bot, capped or "time_cap=" in rest)
        self.times = times
        self.over = over
        self.tell = tell
        self._truth: tuple[list[Card], list[Card]] | None = None
        if tell is not None:
            hooks = getattr(self.bot, "hooks", None)
            if hooks is None:
                raise ValueError(f"--tell needs a search bot, not {name!r}")
            hooks.determinize = self._told(hooks.determinize)

    def _told(self, determinize):
        """The hook's determinize with the opponent's true hand (and, for ``all``, the stock's
        true order) put in: the rest of the unseen cards stay shuffled in the stock."""

        def told(rules: EngineRules, view: SchnapsenView, rng: random.Random) -> SchnapsenState:
            state = determinize(rules, view, rng)
            if self._truth is None:
                return state
            hand, talon = self._truth
            opp = 1 - view.seat
            hand = [c for c in hand if c is not view.led]
            if self.tell == "all":
                state.stock = list(talon)
            else:
                face_up = state.stock[-1:] if view.indicator is not None else []
                pool = state.hands[opp] + state.stock[: len(state.stock) - len(face_up)]
                his = set(hand)
                rest = [c for c in pool if c not in his]
                rng.shuffle(rest)
                state.stock = rest + face_up
            state.hands[opp] = hand
            return state

        return told

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        view = perspective_view(self.rules, perspective, leader_move)
        mapping = move_mapping(self.rules, perspective)
        legal = list(mapping)
        if self.tell is not None:
            game = perspective._PlayerPerspective__game_state  # the engine's own state: a diagnostic
            opp = game.follower if perspective.am_i_leader() else game.leader
            self._truth = ([ours(c) for c in opp.hand.get_cards()], [ours(c) for c in game.talon._cards])
        t = time.perf_counter()
        a = self.bot.choose(view, legal)
        if len(legal) > 1:
            self.times.append(time.perf_counter() - t)
            marks = cap_marks(self.bot) if self.over is not None else None
            if marks is not None:  # a bot without a time cap has none to count
                self.over.append(marks)
        return mapping[a]


def _value(text: str):
    """A setting's value: none, true/false, an int, a float or the text."""
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


def _level(name: str, rules, seed: int):
    from game.ai import levels

    cls = {"hard": levels.HardBot, "normal": levels.NormalBot, "easy": levels.EasyBot}.get(name)
    if cls is None:
        raise ValueError(f"unknown bot {name!r} (hard, normal, easy, greedy, random, policy, rdeep, rand)")
    return cls(rules, 0, seed)


def build(
    spec: str, seed: int, times: list[float], over: list | None = None, capped: bool = False, tell: str | None = None
) -> Bot:
    if tell is not None and spec in ("rdeep", "rand"):
        raise ValueError("--tell applies to our search bots only")
    if spec == "rdeep":
        return RdeepBot(num_samples=16, depth=4, rand=random.Random(seed))
    if spec == "rand":
        return RandBot(random.Random(seed))
    return CardaviaBot(spec, seed, times, over, capped, tell)


def play_pair(args: tuple) -> tuple[list[int], list[float], list[float], list, list]:
    """One deal seed, played with A leading first and then B: (A's signed game points per game,
    times, over-the-cap marks)."""
    a_spec, b_spec, seed, hooks, capped, tell = args
    apply_hooks(hooks)  # worker processes need them too
    engine = SchnapsenGamePlayEngine()
    out: list[int] = []
    ta: list[float] = []
    tb: list[float] = []
    oa: list[tuple[int, int]] = []
    ob: list[tuple[int, int]] = []
    for k in range(2):
        a = build(a_spec, seed * 2 + k, ta, oa, capped, tell)
        b = build(b_spec, seed * 2 + k + 1_000_003, tb, ob, capped)
        first, second = (a, b) if k == 0 else (b, a)
        winner, points, _score = engine.play_game(first, second, random.Random(seed))
        out.append(points if winner is a else -points)
    return out, ta, tb, oa, ob


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="hard")
    ap.add_argument("--b", default="rdeep")
    ap.add_argument("--games", type=int, default=100, help="deal seeds, each played twice (seats swapped)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--progress", action="store_true")
    ap.add_argument(
        "--hook",
        action="append",
        default=[],
        metavar="schnapsen.NAME=VALUE",
        help="set a hook module constant for this run (tuning; it applies to our bots)",
    )
    ap.add_argument(
        "--capped",
        action="store_true",
        help="our levels keep their shipped time caps (load-dependent) instead of playing at their budget",
    )
    ap.add_argument(
        "--tell",
        choices=("hand", "all"),
        help="a diagnostic: A's search is told the opponent's hand (or every hidden card)",
    )
    args = ap.parse_args(argv)
    if args.games < 1:
        print("schnapsen_adapter: --games must be at least 1", file=sys.stderr)
        return 2
    try:
        hooks = parse_hooks(args.hook)
    except ValueError as e:
        print(f"schnapsen_adapter: {e}", file=sys.stderr)
        return 2
    seeds = random.Random(args.seed)
    jobs = [(args.a, args.b, seeds.getrandbits(31), hooks, args.capped, args.tell) for _ in range(args.games)]
    results: list[int] = []
    ta: list[float] = []
    tb: list[float] = []
    oa: list[tuple[int, int]] = []
    ob: list[tuple[int, int]] = []
    start = time.perf_counter()

    def take(res) -> None:
        r, a, b, over_a, over_b = res
        results.extend(r)
        ta.extend(a)
        tb.extend(b)
        oa.extend(over_a)
        ob.extend(over_b)
        if args.progress and len(results) % 20 == 0:
            wr = sum(1 for x in results if x > 0) / len(results)
            print(f"  {len(results)} games: A wins {wr:.3f}", flush=True)

    try:
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                for res in pool.map(play_pair, jobs):
                    take(res)
        else:
            for j in jobs:
                take(play_pair(j))
    except ValueError as e:
        print(f"schnapsen_adapter: {e}", file=sys.stderr)
        return 2
    n = len(results)
    wins = sum(1 for x in results if x > 0)
    wr = wins / n
    lo, hi = wilson(wr, n)
    print(
        f"schnapsen 0.0.5 engine: A={args.a} vs B={args.b}, {args.games} deal seeds ({n} seat-swapped games), "
        f"seed {args.seed}, jobs {args.jobs}, "
        + ("shipped time caps" if args.capped else "at the budget (no time cap)")
        + "".join(f", {g}.{k}={v!r}" for g, k, v in hooks)
        + (f", A told {'his hand' if args.tell == 'hand' else 'every hidden card'}" if args.tell else "")
    )
    print(f"  A game-point margin per game: {statistics.fmean(results):+.3f}")
    print(f"  A win rate: {wr:.3f} (95% Wilson {lo:.3f}–{hi:.3f}; {wins} of {n})")
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
