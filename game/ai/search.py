"""The search AI: information-set Monte Carlo tree search over determinized deals.

A :class:`SearchBot` is given only ``view(state, seat)`` and the legal actions. Each
iteration it

1. *determinizes*: deals the cards it has not seen at random into the other hands and the
   stock, consistently with everything the view shows (the game's hook does this);
2. walks one shared tree keyed by actions (single-observer ISMCTS: a child's UCB uses how
   often it was *available*, because an opponent's card exists only in some deals);
3. plays the deal out with the hook's cheap playout policy and
4. backs up the final deal margin of each acting seat's team.

``opponent_policy`` (0 to 1) lets the opponents' nodes take that share of their replies from
the hook's rollout policy, played with the hand the determinization gives them, where the
shared tree would pick one reply by statistics fused over every hand they may hold; the
hook's ``reply_options`` may keep moves the policy never plays in view (Schnapsen's close),
and UCB then chooses among those and the policy's reply (an experiment for Schnapsen;
no level ships it).

``split_own_draws`` keeps the searching seat's own decisions below the root apart by what
it will have seen there (the hook's ``observation``: its hand, so the cards it drew), where
the shared tree keyed by moves alone would make one choice for every card it may draw.

``perfect_leaves`` ends the tree where the hook ``perfect_information`` says every seat knows
every card from there on (Schnapsen's exhausted stock): the playout's exact finish values that
leaf, where the shared tree would fuse the seats' choices there over every deal it samples,
though at the table each of them will know the other's hand.

``tree_depth=1`` turns this into flat determinized Monte Carlo (PIMC-style: UCB over the root
actions only, the rest is playout). Strength is set by ``iterations`` (determinizations ×
simulations — the same on every machine); ``time_cap`` (seconds) and ``should_stop`` bound
the wall time so a window can abandon a search at once.

Per game, its part ``ai`` (``game/games/<game_id>/ai.py`` or ``ai/``) provides what
:mod:`game.ai.hooks` declares (the ``GameHooks`` interface: ``determinize``, ``utilities``,
``LEVELS``; optionally ``playout`` / ``rollout``, ``prior``, ``complete``, ``solve``, ``ROOT_TOP_K``); the bot reads it through
:func:`game.ai.hooks.load_hooks`, every member present. A bot's ``playout_kw`` dict is passed
to the playout (or the rollout) as keywords, when set.

Thread safety: a bot keeps all its search data in locals; hooks are pure functions. The
only shared object is the rules instance, which search uses read-only.
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Hashable
from typing import Any

from game.ai.base import BaseBot
from game.ai.hooks import OBVIOUS, State, View, load_hooks
from game.rules.base import Action, GameRules

__all__ = ["OBVIOUS", "SearchBot", "SearchStopped", "load_hooks", "play_to_end", "solve_exact"]


class _Node:
    """One action's statistics in the shared tree; ``total`` is from the actor's team's view."""

    __slots__ = ("children", "visits", "total", "avail", "seen")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        #: With ``split_own_draws``: below this node, the searching seat's next decision, one
        #: node per thing it may have seen by then (the hook's ``observation``: its hand).
        self.seen: dict[Hashable, _Node] | None = None


class SearchStopped(Exception):
    """Raised inside the solver when ``should_stop`` fires."""


def play_to_end(
    rules: GameRules,
    state: State,
    rng: random.Random,
    playout: Callable[..., None] | None = None,
    rollout: Callable[..., Action] | None = None,
) -> None:
    """Play the deal to its end in place: the game's playout hook if it has one, then its
    rollout policy (or a random legal action) at every decision left; one move is played
    as it is. The search's playouts and the coach's (game.coach.flat) are this one loop."""
    if playout is not None and not rules.is_over(state):
        playout(rules, state, rng)
    is_over, legal_actions, apply = rules.is_over, rules.legal_actions, rules.apply
    while not is_over(state):
        acts = legal_actions(state)
        if len(acts) == 1:
            a = acts[0]
        elif rollout is not None:
            a = rollout(rules, state, acts, rng)
        else:
            a = acts[rng.randrange(len(acts))]
        apply(state, a, check=False)


def solve_exact(
    rules: GameRules, state: State, seat: int, node_limit: int = 50_000, should_stop: Callable[[], bool] | None = None
) -> dict[Action, float] | None:
    """Exact value of every legal action for ``seat``'s team on a fully known state.

    Max-n over teams (with two teams this is minimax): each seat maximises its own team's
    utility. Returns None when the tree exceeds ``node_limit`` nodes (the caller samples).
    """
    utilities = load_hooks(rules.game_id).utilities
    team_of = rules.team_of
    count = [0]

    def value(s: State) -> list[float]:
        count[0] += 1
        if count[0] > node_limit:
            raise SearchStopped
        if count[0] % 256 == 0 and should_stop is not None and should_stop():
            raise SearchStopped
        if rules.is_over(s):
            return utilities(rules, s)
        actor_team = team_of(rules.to_act(s))
        best: list[float] | None = None
        for a in rules.legal_actions(s):
            c = rules.clone(s)
            rules.apply(c, a, check=False)
            v = value(c)
            if best is None or v[actor_team] > best[actor_team]:
                best = v
        if best is None:
            raise ValueError("a deal that is not over offers no action")
        return best

    out: dict[Action, float] = {}
    my_team = team_of(seat)
    try:
        for a in rules.legal_actions(state):
            c = rules.clone(state)
            rules.apply(c, a, check=False)
            out[a] = value(c)[my_team]
    except SearchStopped:
        return None
    return out


class SearchBot(BaseBot):
    """ISMCTS / determinized Monte Carlo bot. See the module docstring.

    iterations: determinizations × simulations per decision (the strength knob).
    time_cap:   seconds per decision at most (None: iterations only — reproducible).
    tree_depth: None for a full tree, 1 for flat Monte Carlo at the root.
    c:          UCB exploration constant (utilities are scaled to about [-1, 1]).
    exact:      run the exact solver when the hook says the view fixes the state.
    playout_kw: keyword settings for the hook's playout policy (None: its defaults).
    root_min_visits: visits every root action gets before UCB decides (-1: automatic).
    """

    name = "search"

    def __init__(
        self,
        rules: GameRules,
        seat: int,
        seed: int = 0,
        *,
        iterations: int = 2000,
        time_cap: float | None = 1.0,
        tree_depth: int | None = None,
        c: float = 0.5,
        exact: bool = True,
        prior_weight: float = 0.0,
        root_top_k: int | None = -1,
        playout_kw: dict[str, Any] | None = None,
        root_min_visits: int = -1,
        opponent_policy: float = 0.0,
        split_own_draws: bool = False,
        perfect_leaves: bool = False,
    ):
        super().__init__(rules, seat, seed)
        self.hooks = load_hooks(rules.game_id)
        self.iterations = iterations
        self.time_cap = time_cap
        self.tree_depth = tree_depth
        self.c = c
        self.exact = exact
        self.prior_weight = prior_weight
        #: Search only the k root actions the hook's prior likes best (plus obvious ones):
        #: with many legal actions (Cìcera) the budget then buys precise values for the
        #: sensible moves. -1: the hook module's ROOT_TOP_K (None = all actions).
        self.root_top_k = self.hooks.root_top_k if root_top_k == -1 else root_top_k
        #: Keyword settings passed to the hook's ``playout`` (or ``rollout``), e.g. Scopa's
        #: ``{"smart": False}``: lets a level use a weaker playout policy. None: the hook's defaults.
        self.playout_kw = playout_kw
        #: Every searched root action gets at least this many visits before UCB chooses
        #: (-1: iterations // (4 × actions), at most 40). Why: with a small c, one unlucky
        #: early playout can bury the best move for the rest of the search.
        self.root_min_visits = root_min_visits
        #: Chance that an opponent's node in the tree takes his reply from the hook's playout
        #: policy on the determinized deal (his real hand there) instead of UCB over the
        #: statistics the tree fuses over every hand he may hold. 0: plain ISMCTS.
        self.opponent_policy = opponent_policy
        #: Keep the searching seat's own decisions below the root apart by what it will have
        #: seen there (the hook's ``observation``: the cards it drew), where the shared tree
        #: keyed by moves alone would make one choice for every card it may draw. False: plain
        #: single-observer ISMCTS.
        self.split_own_draws = split_own_draws
        #: End the tree where the hook's ``perfect_information`` says every card is known to
        #: every seat: the playout finishes from there (exactly, where the level's playout
        #: solves that phase). False: the tree grows on into that phase.
        self.perfect_leaves = perfect_leaves
        #: Set by the owner (e.g. the table scene) to abandon a search: checked every iteration.
        self.should_stop: Callable[[], bool] | None = None
        #: Figures about the last decision: iterations run, seconds (wall), "cpu" (this thread's
        #: CPU seconds: what a quiet machine's wall time would be), how it was decided, and
        #: whether the clock cut the budget short ("capped").
        self.last_stats: dict[str, Any] = {}

    # ------------------------------------------------------------------ public
    def choose(
        self,
        view: View,
        legal: list[Action],
        should_stop: Callable[[], bool] | None = None,
        deadline: float | None = None,
    ) -> Action:
        """The action to play. ``should_stop`` / ``deadline`` (a time.perf_counter() value)
        end the search early; the best action found so far is returned."""
        if len(legal) == 1:
            self.last_stats = {"iterations": 0, "seconds": 0.0, "method": "forced", "cpu": 0.0, "capped": False}
            return legal[0]
        values = self.analyse(view, legal, should_stop=should_stop, deadline=deadline)
        return self.pick(view, legal, values)

    def pick(self, view: View, legal: list[Action], values: dict[Action, tuple[float, int]]) -> Action:
        """Turn the analysis into a move: the most visited action (ties: higher mean, then
        the first legal). Levels override this to make human-like choices."""
        best = legal[0]
        key = None
        for a in legal:
            mean, n = values.get(a, (-math.inf, 0))
            k = (n, mean)
            if key is None or k > key:
                best, key = a, k
        return best

    def analyse(
        self,
        view: View,
        legal: list[Action],
        should_stop: Callable[[], bool] | None = None,
        deadline: float | None = None,
    ) -> dict[Action, tuple[float, int]]:
        """(mean utility for this seat's team, visits) per legal action. The exact solver's
        values come with a visit count of ``iterations`` so they rank as certain."""
        start = time.perf_counter()
        start_cpu = time.thread_time()
        stop = should_stop or self.should_stop
        if self.time_cap is not None:
            cap = start + self.time_cap
            deadline = cap if deadline is None else min(deadline, cap)
        complete = self.hooks.complete
        if self.exact and complete is not None and complete(self.rules, view):
            state = self.hooks.determinize(self.rules, view, self.rng)
            solver = self.hooks.solve
            if solver is not None:
                exact = solver(self.rules, state, self.seat)
            else:

                def halt() -> bool:
                    return (deadline is not None and time.perf_counter() >= deadline) or (stop is not None and stop())

                exact = solve_exact(self.rules, state, self.seat, should_stop=halt)
            if exact is not None:
                self.last_stats = {
                    "iterations": 0,
                    "seconds": time.perf_counter() - start,
                    "method": "exact",
                    "cpu": time.thread_time() - start_cpu,
                    "capped": False,
                }
                return {a: (exact.get(a, -math.inf), self.iterations) for a in legal}
        scope = self.hooks.search_scope
        if scope is None:
            root, done = self._ismcts(view, legal, stop, deadline)
        else:
            with scope(self.rules, view):
                root, done = self._ismcts(view, legal, stop, deadline)
        # "capped": the clock (time cap or deadline), not the budget, ended the search — what
        # the benchmarks count (a level's strength is its budget's only while this stays rare).
        capped = done < self.iterations and deadline is not None and time.perf_counter() >= deadline
        self.last_stats = {
            "iterations": done,
            "seconds": time.perf_counter() - start,
            "method": "ismcts",
            "cpu": time.thread_time() - start_cpu,
            "capped": capped,
        }
        out: dict[Action, tuple[float, int]] = {}
        for a in legal:
            ch = root.children.get(a)
            out[a] = (ch.total / ch.visits, ch.visits) if ch is not None and ch.visits else (0.0, 0)
        return out

    # ------------------------------------------------------------------ the search
    def _ismcts(
        self, view: View, legal: list[Action], stop: Callable[[], bool] | None, deadline: float | None
    ) -> tuple[_Node, int]:
        rules = self.rules
        hooks = self.hooks
        rng = self.rng
        determinize = hooks.determinize
        utilities = hooks.utilities
        rollout = hooks.rollout
        playout = hooks.playout
        if self.playout_kw:
            if playout is not None:
                playout = functools.partial(playout, **self.playout_kw)
            elif rollout is not None:
                rollout = functools.partial(rollout, **self.playout_kw)
        legal_actions = rules.legal_actions
        apply = rules.apply
        is_over = rules.is_over
        to_act = rules.to_act
        team_of = rules.team_of
        c = self.c
        max_depth = self.tree_depth if self.tree_depth is not None else 10_000
        root = _Node()
        legal_set = set(legal)
        # Root move ordering and progressive bias from the hook's prior (computed once).
        prior_fn = hooks.prior
        priors: dict[Action, float] = {}
        if prior_fn is not None:
            priors = {a: prior_fn(rules, view, a) for a in legal}
        root_order = sorted(legal, key=lambda a: -priors.get(a, 0.0))
        k = self.root_top_k
        if k is not None and priors and len(root_order) > k:
            root_order = [a for i, a in enumerate(root_order) if i < k or priors[a] >= OBVIOUS]
        pw = self.prior_weight
        root_min = self.root_min_visits
        if root_min < 0:
            root_min = min(40, self.iterations // (4 * max(1, len(root_order))))
        perf = time.perf_counter
        opp_policy = self.opponent_policy
        my_team = team_of(self.seat)
        if opp_policy and rollout is None:
            raise ValueError(f"{rules.game_id}: opponent_policy needs the hook's rollout policy")
        reply_options = hooks.reply_options
        observation = hooks.observation if self.split_own_draws else None
        if self.split_own_draws and observation is None:
            raise ValueError(f"{rules.game_id}: split_own_draws needs the hook's observation")
        perfect = hooks.perfect_information if self.perfect_leaves else None
        if self.perfect_leaves and perfect is None:
            raise ValueError(f"{rules.game_id}: perfect_leaves needs the hook's perfect_information")
        me = self.seat
        done = 0
        for done in range(1, self.iterations + 1):
            if (deadline is not None and perf() >= deadline) or (stop is not None and stop()):
                done -= 1
                break
            state = determinize(rules, view, rng)
            node = root
            path: list[tuple[_Node, int]] = []
            depth = 0
            while not is_over(state) and depth < max_depth:
                if perfect is not None and node is not root and perfect(rules, state):
                    break  # every card is known from here: the playout's value is the leaf's
                if node is root:
                    acts = root_order
                else:
                    acts = legal_actions(state)
                actor = to_act(state)
                if observation is not None and actor == me and node is not root:
                    # My own later decision: in this deal I hold what I drew by then.
                    seen = node.seen
                    if seen is None:
                        seen = node.seen = {}
                    key = observation(rules, state, me)
                    sub = seen.get(key)
                    if sub is None:
                        sub = seen[key] = _Node()
                    node = sub
                children = node.children
                reply = None
                if (
                    opp_policy
                    and rollout is not None
                    and node is not root
                    and team_of(actor) != my_team
                    and len(acts) > 1
                    and rng.random() < opp_policy
                ):
                    # His reply as the policy plays it with the hand this deal gives him; where
                    # the game keeps other replies in view (moves the policy never makes, such
                    # as Schnapsen's close), UCB chooses among those and the policy's.
                    reply = rollout(rules, state, acts, rng)
                    if reply_options is not None:
                        opts = reply_options(rules, state, acts, reply)
                        if len(opts) > 1:
                            acts, reply = opts, None
                untried = None
                for a in acts:
                    ch = children.get(a)
                    if ch is None:
                        if untried is None:
                            untried = a
                    else:
                        ch.avail += 1
                if reply is not None:
                    a = reply
                    ch = children.get(a)
                    expanded = ch is None
                    if ch is None:
                        ch = children[a] = _Node()
                        ch.avail = 1
                    apply(state, a, check=False)
                    path.append((ch, team_of(actor)))
                    if expanded:
                        break  # a new node: the playout takes over from here, as below
                    node = ch
                    depth += 1
                    continue
                if untried is not None:
                    if node is not root:
                        # Off the root, expand a random untried action (no ordering bias).
                        cands = [a for a in acts if a not in children]
                        untried = cands[rng.randrange(len(cands))] if len(cands) > 1 else cands[0]
                    ch = _Node()
                    ch.avail = 1
                    children[untried] = ch
                    apply(state, untried, check=False)
                    path.append((ch, team_of(actor)))
                    break
                best_a = None
                best_v = -math.inf
                if root_min and node is root:
                    low = root_min
                    for a in acts:
                        n_a = children[a].visits
                        if n_a < low:
                            low, best_a = n_a, a
                for a in acts if best_a is None else ():
                    ch = children[a]
                    v = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if pw and node is root:
                        v += pw * priors.get(a, 0.0) / (ch.visits + 1)
                    if v > best_v:
                        best_v, best_a = v, a
                if best_a is None:
                    raise ValueError("no action to descend to (a value that is not a number)")
                ch = children[best_a]
                apply(state, best_a, check=False)
                path.append((ch, team_of(actor)))
                node = ch
                depth += 1
            play_to_end(rules, state, rng, playout, rollout)
            u = utilities(rules, state)
            for ch, t in path:
                ch.visits += 1
                ch.total += u[t]
        # Only root actions from the legal list count (a determinization cannot add others).
        root.children = {a: ch for a, ch in root.children.items() if a in legal_set}
        return root, done
