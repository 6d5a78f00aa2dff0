"""One conformance suite for every registered game.

Each test runs over every game the registry lists (``game.rulesets.game_ids()``), every player
count rules.yaml allows, a spread of option combinations covering each option value, and
the game's decks in turn (tests/conformance_cases.py builds the cases). No game is named
here: registering a game is enough for it to be held to all of this.

1. random legal play conserves the cards (by the record events, against each seat's hand);
2. every legal action validates, every other candidate is refused with a translated rule;
3. ``clone`` is independent of the original, both ways;
4. a seat's view shows no card that seat may not have seen, and all it needs to play;
5. the AI hooks' fast playouts (and rollouts) take legal actions that replay through
   ``apply`` to the same scores;
6. simulated records pass the referee, and one mutated decision fails it at that line.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
import string
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from game.ai.bots import make_bot
from game.ai.hooks import LEVEL_NAMES, check_hooks, hooks_module, load_hooks
from game.ai.search import solve_exact
from game.cards import RANKS, SUITS, Card, build_deck
from game.config import get_config
from game.match import Match
from game.record import read_record, write_record
from game.rules.base import Action, GameRules, IllegalAction, play
from game.rules.capture import captured
from game.rulesets import game_ids
from game.services import cli
from game.services.i18n import I18n, load_locale
from game.verify import verify_events, verify_file
from tests.conformance_cases import (
    Case,
    Ledger,
    all_game_ids,
    cards_by_field,
    cards_in,
    cases,
    containers_in,
    installed,
    offered,
    pick,
    random_deal,
    sublocations,
)

CASES = cases()
IDS = [c.id for c in CASES]
GAME_IDS = all_game_ids()


@pytest.fixture(autouse=True)
def _game_installed(request: pytest.FixtureRequest) -> Any:
    """The template game is registered while one of its tests runs (and only then)."""
    params = getattr(getattr(request.node, "callspec", None), "params", {})
    case, gid = params.get("case"), params.get("gid")
    with installed(case.game if isinstance(case, Case) else str(gid)):
        yield


ALL_CARDS: list[Card] = build_deck(RANKS, SUITS)


def cases_param(fn: Callable) -> Callable:
    return pytest.mark.parametrize("case", CASES, ids=IDS)(fn)


def test_the_suite_covers_every_game_player_count_option_value_and_several_decks():
    # The case builder is the suite's reach: it must not silently drop a game, a player
    # count or an option value.
    config = get_config()
    assert {c.game for c in CASES} == set(GAME_IDS)
    for gid in game_ids():
        game = config.game(gid)
        mine = [c for c in CASES if c.game == gid]
        assert {c.players for c in mine} == set(game.players)
        for name, spec in game.options.items():
            for p in game.players:
                if offered(spec, p):
                    got = {repr(dict(c.options).get(name)) for c in mine if c.players == p}
                    assert got == {repr(v) for v in spec.allowed}, (gid, p, name)
        assert len({c.deck for c in mine}) >= min(2, len(config.decks_for(gid)))


# --------------------------------------------------------------------------- 1. conservation


def _hand_of(view: Any) -> list[Card]:
    assert hasattr(view, "hand"), f"{type(view).__name__} has no 'hand' field: a view shows its seat's hand"
    return list(view.hand)


def _held(subs: dict[str, list[Card]], counted: list[Counter], cs: list[Card], ordered: bool) -> bool:
    """``cs`` is one field of the state (``subs``), or (unordered) the sum of up to three;
    ``counted`` is ``subs``' non-empty values as Counters, made once per position."""
    if ordered:
        return any(sub == cs for sub in subs.values())
    want = Counter(cs)
    parts = [c for c in counted if all(want[card] >= n for card, n in c.items())]  # each within cs
    return any(sum(combo, Counter()) == want for k in (1, 2, 3) for combo in itertools.combinations(parts, k))


@cases_param
def test_random_play_conserves_the_cards(case: Case):
    rules = case.rules()
    deck = set(rules.cards)
    for seed in case.seeds(3):
        for step in random_deal(rules, seed):
            led, state = step.ledger, step.state
            # By the events: every card of the deck in exactly one place.
            led.check_conserved()
            where = f"seed {seed}, step {step.number}"
            # The state agrees with the events: each seat holds what the events gave it,
            # and every card of the deck (and no other) is somewhere in the state.
            for s in range(rules.players):
                hand = _hand_of(rules.view(state, s))
                assert sorted(hand) == sorted(led.hands[s]), (
                    f"{where}: seat {s} holds {hand}, the events say {led.hands[s]}"
                )
            held = set(cards_in(state))
            assert held == deck, f"{where}: state lacks {sorted(deck - held)}, holds foreign {sorted(held - deck)}"
            # Every place the events define (a hand, the table, the stock in its order, the
            # trick, a pile) is kept, card for card, in the state: in one field (or an item of
            # one), or split over up to three (a trick's lead and the cards that followed it).
            subs = sublocations(state)
            counted = [Counter(sub) for sub in subs.values() if sub]
            for place, cs in led.places().items():
                if cs:
                    assert _held(subs, counted, cs, ordered=place == "stock"), (
                        f"{where}: no field of the state holds {place} {cs} (fields: {subs})"
                    )
            stock_count = getattr(rules.view(state, 0), "stock_count", 0)
            assert stock_count == len(led.stock), (
                f"{where}: view counts {stock_count} stock cards, the events {len(led.stock)}"
            )
        assert rules.is_over(state)
        # The deal's end gives the cards left on the table, all of them, to one team.
        leftover = rules.deal_result(state).leftover
        if leftover:
            assert sorted(leftover["cards"]) == sorted(c.code for c in led.table), f"seed {seed}: leftover {leftover}"
            led.leftover(leftover)
            led.check_conserved()


# --------------------------------------------------------------------------- 2. legality and refusals

_LOCALES: dict[str, dict[str, Any]] = {}
_I18N: dict[str, I18n] = {}


def _locale(lang: str) -> dict[str, Any]:
    if lang not in _LOCALES:
        table, problem = load_locale(lang)
        assert problem is None, problem
        _LOCALES[lang] = table
        _I18N[lang] = I18n(lang)
    return _LOCALES[lang]


def _placeholders(template: str) -> set[str]:
    names = set()
    for _, name, _, _ in string.Formatter().parse(template):
        if name:
            names.add(re.split(r"[.\[]", name)[0])
    return names


def check_refusal(rules: GameRules, e: IllegalAction, what: str, done: set) -> None:
    """The rule has a text in every language, and the table's parameters (the refusal's own
    plus the deck's court names, as scenes/table.py passes them) fill all its placeholders."""
    key = f"refusals.{e.rule}"
    sig = (e.rule, frozenset(e.params))
    if sig in done:
        return
    done.add(sig)
    for lang in get_config().languages:
        table = _locale(lang)
        assert key in table, f"{what}: refused with rule {e.rule!r}, which has no text {key} in {lang}"
        params: dict[str, Any] = {r: rules.deck.court_name(r, lang) for r in ("J", "Q", "K")}
        params.update(e.params)
        templates = table[key].values() if isinstance(table[key], dict) else [table[key]]
        for template in templates:
            missing = _placeholders(template) - set(params)
            assert not missing, (
                f"{what}: {lang} {key} needs {sorted(missing)}, the refusal gives {sorted(e.params)}: {template!r}"
            )
        text = _I18N[lang].t(key, lang, **params)
        assert text and not any("{" + p + "}" in text for p in _placeholders(str(table[key]))), (lang, key, text)


def candidates(rules: GameRules, led: Ledger, seat: int, legal: list[Action], rng: random.Random) -> list[Action]:
    """Decisions a player (or a damaged record) might submit now: every hand card alone, with
    capture sets from the table and from elsewhere, as a marriage; cards not in the hand
    (other seats', the stock's, the piles', cards outside the game's deck); the kinds a game
    may lack; legal captures made wrong."""
    hand = led.hands[seat]
    table = led.table
    elsewhere = [c for s, h in enumerate(led.hands) if s != seat for c in h] + led.stock + led.trick
    elsewhere += [c for p in led.piles for c in p]
    foreign = [c for c in ALL_CARDS if c not in set(rules.cards)]
    out: list[Action] = [Action("close"), Action("exchange"), Action("pass")]
    for c in hand:
        out += [play(c), play(c, marriage=True)]
        subsets = [s for k in (1, 2) for s in itertools.combinations(table, k)]
        subsets += [tuple(pick(table, k, rng)) for k in (3, 4, 5) if len(table) >= k]
        out += [play(c, s) for s in pick(subsets, 25, rng)]
        out += [play(c, [x]) for x in pick(elsewhere + foreign, 3, rng)]
        if table:
            t = rng.choice(table)
            out.append(Action("play", c, (("capture", (t, t)),)))  # one table card taken twice
            out += [play(c, [t, x]) for x in pick(elsewhere, 1, rng)]
        if led.trick:
            out.append(play(c, led.trick[:1]))
    out += [play(x) for x in pick(elsewhere, 6, rng) + pick(foreign, 2, rng)]
    for a in pick([a for a in legal if a.kind == "play"], 12, rng):
        rest = [t for t in table if t not in captured(a)]
        if captured(a):
            out.append(play(a.card, captured(a)[1:]))  # a card left out
        if rest:
            out.append(play(a.card, captured(a) + (rng.choice(rest),)))  # a card too many
        if captured(a) and rest:
            out.append(play(a.card, captured(a)[:-1] + (rng.choice(rest),)))  # a card swapped
    return out


def _refusal(method: Callable, state: Any, action: Action, what: str) -> IllegalAction:
    """The IllegalAction ``method(state, action)`` raises; the test fails if it raises none.
    (pytest.raises, without its cost: this runs for some 300,000 candidates.)"""
    try:
        method(state, action)
    except IllegalAction as e:
        return e
    pytest.fail(f"{what}: {method.__name__} did not refuse it")


@cases_param
def test_legal_actions_validate_and_everything_else_is_refused_with_a_translated_rule(case: Case):
    rules = case.rules()
    done: set = set()
    refused = 0
    for seed in case.seeds(2):
        rng = random.Random(seed)
        for step in random_deal(rules, seed):
            state, led = step.state, step.ledger
            where = f"seed {seed}, step {step.number}"
            legal = rules.legal_actions(state)
            if rules.is_over(state):
                assert legal == []
            legal_set = set(legal)
            assert len(legal_set) == len(legal), f"{where}: legal_actions lists an action twice"
            for a in legal:
                rules.validate(state, a)  # raises if the two disagree
            seat = rules.to_act(state) if not rules.is_over(state) else 0
            probe = rules.clone(state)
            before = (rules.legal_actions(probe), [rules.view(probe, s) for s in range(rules.players)])
            for a in candidates(rules, led, seat, legal, rng):
                if a in legal_set:
                    continue
                what = f"{where}: {a!r}"
                check_refusal(rules, _refusal(rules.validate, state, a, what), what, done)
                # apply (which checks by default) refuses it too, and the refusal changes nothing.
                _refusal(rules.apply, probe, a, what)
                refused += 1
            after = (rules.legal_actions(probe), [rules.view(probe, s) for s in range(rules.players)])
            assert after == before, f"{where}: a refused action changed the state"
    assert refused > 0


# --------------------------------------------------------------------------- 3. clone


def snapshot(rules: GameRules, state: Any, seed: int) -> tuple:
    """What the rest of the program can observe of a state: whose turn, the legal actions,
    every seat's view, and the deal result — now if the deal is over, else after a fixed
    random finish of a copy."""
    over = rules.is_over(state)
    views = [rules.view(state, s) for s in range(rules.players)]
    legal = rules.legal_actions(state)
    end = state if over else rules.clone(state)
    rng = random.Random(seed)
    while not rules.is_over(end):
        rules.apply(end, rng.choice(rules.legal_actions(end)))
    res = rules.deal_result(end)
    return (over, None if over else rules.to_act(state), legal, views, res.points, res.leftover, res.detail)


@cases_param
def test_clone_is_independent_of_the_original(case: Case):
    rules = case.rules()
    for seed in case.seeds(2):
        rng = random.Random(seed)
        steps = random_deal(rules, seed)
        prev = None
        for step in steps:
            state = step.state
            where = f"seed {seed}, step {step.number}"
            if prev is not None:
                # The original moved on: the copy taken before the move still shows the old position.
                copy, snap = prev
                assert snapshot(rules, copy, seed) == snap, f"{where}: applying to the original changed its clone"
                prev = None
            if rng.random() > 0.3 and not rules.is_over(state):
                continue
            snap = snapshot(rules, state, seed)
            c = rules.clone(state)
            assert c is not state
            assert snapshot(rules, c, seed) == snap, f"{where}: the clone differs from the original"
            # Playing the clone to the end leaves the original as it was.
            while not rules.is_over(c):
                rules.apply(c, rng.choice(rules.legal_actions(c)))
            rules.deal_result(c)
            assert snapshot(rules, state, seed) == snap, f"{where}: playing the clone changed the original"
            # So does emptying every list, dict and set the clone holds.
            c = rules.clone(state)
            for box in containers_in(c):
                box.clear()
            assert snapshot(rules, state, seed) == snap, f"{where}: the clone shares a container with the original"
            prev = (rules.clone(state), snap)


# --------------------------------------------------------------------------- 4. views


def visible_cards(rules: GameRules, view: Any) -> dict[str, list[Card]]:
    """The cards a view shows, by field. A field listing the whole deck is the pack's
    composition, which every player knows, not a place of cards: it is left out."""
    deck = sorted(rules.cards)
    return {name: cs for name, cs in cards_by_field(view).items() if sorted(cs) != deck}


@cases_param
def test_a_view_shows_no_card_its_seat_may_not_see(case: Case):
    rules = case.rules()
    for seed in case.seeds(2):
        for step in random_deal(rules, seed):
            state, led = step.state, step.ledger
            for s in range(rules.players):
                view = rules.view(state, s)
                assert dataclasses.is_dataclass(view), f"{type(view).__name__}: a view is a dataclass"
                shown = visible_cards(rules, view)
                may = led.seen(s) | led.named
                where = f"seed {seed}, step {step.number}, seat {s}"
                for name, cs in shown.items():
                    leak = sorted(set(cs) - may)
                    assert not leak, (
                        f"{where}: view.{name} shows {leak}, which seat {s} has not seen "
                        f"(they are in {[led.where(c) for c in leak]})"
                    )
                # And it shows what the seat needs to play: its hand, the table, the trick.
                everything = {c for cs in shown.values() for c in cs}
                needed = set(led.hands[s]) | set(led.table) | set(led.trick)
                assert needed <= everything, f"{where}: the view lacks {sorted(needed - everything)}"


# --------------------------------------------------------------------------- 5. AI hooks


@pytest.mark.parametrize("gid", GAME_IDS)
def test_the_game_has_hooks_that_fit_the_interface(gid: str):
    # Every registered game is played by the search levels: its hooks module exists and
    # offers what game.ai.hooks.GameHooks asks, with call shapes the search can use.
    assert check_hooks(hooks_module(gid)) == []


class _Recorder:
    """The rules, recording every ``apply`` made on one state: a playout that runs through
    the engine (rather than inlined) and keeps no trace shows its actions this way; applies
    on other states (a solver's copies) are not the playout's moves."""

    def __init__(self, rules: GameRules, state: Any, into: list):
        self._rules, self._state, self._into = rules, state, into

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)

    def apply(self, state: Any, action: Action, check: bool = True) -> list:
        if state is self._state:
            self._into.append(action)
        return self._rules.apply(state, action, check)


def _as_action(item: Any) -> Action:
    """A trace entry as the Action it stands for (traces hold Actions, or bare cards played)."""
    if isinstance(item, Action):
        return item
    if isinstance(item, Card):
        return play(item)
    raise AssertionError(f"a playout trace holds {item!r}, neither an Action nor a Card")


def finish_exactly(rules: GameRules, state: Any) -> None:
    """Play the deal out by the search framework's exact solver (each seat best for its team)."""
    while not rules.is_over(state):
        values = solve_exact(rules, state, rules.to_act(state))
        assert values is not None, "the rest of the deal is too big to solve exactly"
        best = max(values.values())
        rules.apply(state, next(a for a in rules.legal_actions(state) if values[a] == best))


def playout_variants(hooks: Any) -> list[dict[str, Any]]:
    """The playout settings in use: the hook's defaults and each level's ``playout_kw``."""
    out: list[dict[str, Any]] = [{}]
    for level in LEVEL_NAMES:
        kw = dict(hooks.level_settings(level).get("playout_kw") or {})
        if kw not in out:
            out.append(kw)
    return out


def _scores(rules: GameRules, hooks: Any, state: Any) -> tuple:
    return list(rules.deal_result(state).points), [round(u, 9) for u in hooks.utilities(rules, state)]


def check_playout(rules: GameRules, hooks: Any, start: Any, kw: dict, seed: int) -> None:
    """The playout's moves (its ``trace``, or its applies on the state) are legal, and
    replayed through ``apply`` they end the deal with the playout's own scores."""
    fast = rules.clone(start)
    traced: list = []
    applied: list = []
    hooks.playout(_Recorder(rules, fast, applied), fast, random.Random(seed), trace=traced, **kw)
    assert rules.is_over(fast), f"playout({kw}) stopped before the end of the deal"
    # The trace is the playout's own account of its moves; a playout that leaves it empty
    # is seen through the applies it made on the state.
    taken = traced or applied
    ref = rules.clone(start)
    for i, item in enumerate(taken):
        a = _as_action(item)
        assert a in rules.legal_actions(ref), f"playout({kw}) move {i}, {a}, is not legal"
        rules.apply(ref, a)
    if not rules.is_over(ref):
        # The playout ended the deal without showing the last moves: what it may stand for
        # is an exact finish (perfect play on this deal), so that is what the replay does.
        finish_exactly(rules, ref)
    assert _scores(rules, hooks, ref) == _scores(rules, hooks, fast), (
        f"playout({kw}) ends with {_scores(rules, hooks, fast)}; its {len(taken)} moves replayed "
        f"through apply end with {_scores(rules, hooks, ref)}"
    )


def check_rollout(rules: GameRules, hooks: Any, start: Any, kw: dict, seed: int) -> None:
    """The search applies the rollout's choices unchecked: each must be among the legal ones."""
    state = rules.clone(start)
    rng = random.Random(seed)
    while not rules.is_over(state):
        legal = rules.legal_actions(state)
        a = hooks.rollout(rules, state, legal, rng, **kw)
        assert a in legal, f"rollout({kw}) chose {a}, not among {legal}"
        rules.apply(state, a)
    _scores(rules, hooks, state)


@cases_param
def test_ai_playouts_take_legal_actions_that_replay_through_apply(case: Case):
    rules = case.rules()
    hooks = load_hooks(rules.game_id)
    variants = playout_variants(hooks)
    assert hooks.playout is not None or hooks.rollout is not None or variants == [{}]
    for seed in case.seeds(2):
        rng = random.Random(seed)
        positions = [rules.clone(st.state) for st in random_deal(rules, seed) if not rules.is_over(st.state)]
        for state in pick(positions, 4, rng):
            seat = rules.to_act(state)
            view = rules.view(state, seat)
            det = hooks.determinize(rules, view, random.Random(seed))
            # A determinization is a deal this seat cannot tell from the real one.
            assert rules.view(det, seat) == view, "determinize gives a state whose view differs from the seat's"
            for start in (state, det):
                for kw in variants:
                    if hooks.playout is not None:
                        check_playout(rules, hooks, start, kw, seed)
                    elif hooks.rollout is not None:
                        check_rollout(rules, hooks, start, kw, seed)


# --------------------------------------------------------------------------- 6. records and the referee


def _sim_bot(case: Case) -> str:
    return ("random", "greedy")[case.index % 2]


def _option_text(value: Any) -> str:
    """An option value as a command line writes it (rules.yaml's spelling: ``true``, ``21``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


@cases_param
def test_simulated_records_pass_verify(case: Case, tmp_path):
    rules = case.rules()
    for seed in case.seeds(2):
        bots = [make_bot(_sim_bot(case), rules, s, seed) for s in range(rules.players)]
        m = Match(rules, seed, bots)
        path = tmp_path / f"{seed}.jsonl"
        write_record(path, m.run())
        verdict = verify_file(str(path))
        assert verdict.ok, f"seed {seed}: {verdict}"


@cases_param
def test_cli_simulate_writes_records_that_verify(case: Case, tmp_path, capsys):
    args = [
        "simulate",
        "--game",
        case.game,
        "--players",
        str(case.players),
        "--deck",
        case.deck,
        "--matches",
        "2",
        "--seed",
        str(case.index + 1),
        "--bots",
        _sim_bot(case),
        "--out",
        str(tmp_path),
        "--quiet",
    ]
    for k, v in case.options:
        args += ["--option", f"{k}={_option_text(v)}"]
    assert cli.main(args) == 0, capsys.readouterr().err
    files = sorted(tmp_path.glob("*.jsonl"))
    assert len(files) == 2
    for f in files:
        assert read_record(f)[0]["options"] == case.rules().options, "the record's options are not the case's"
        assert verify_file(str(f)).ok, f"{f.name}: {verify_file(str(f))}"


def _decisions(rules: GameRules, seed: int, bot: str) -> tuple[list, list]:
    """A bot match's events, and for each decision of its first deal: (line index of the
    decision's first event, a copy of the state before it, the ledger before it)."""
    m = Match(rules, seed, [make_bot(bot, rules, s, seed) for s in range(rules.players)])
    m.start()
    led = Ledger(rules)
    led.feed(m.events)
    out = []
    while not m.over:
        first = m.deal_number == 1
        before = (len(m.events), rules.clone(m.state), _copy_ledger(led)) if first else None
        new = m.step_bot()
        led.feed(new)
        if before is not None:
            out.append(before)
    return m.events, out


def _copy_ledger(led: Ledger) -> Ledger:
    c = Ledger(led.rules)
    c.hands = [list(h) for h in led.hands]
    c.table, c.stock, c.trick = list(led.table), list(led.stock), list(led.trick)
    c.piles = [list(p) for p in led.piles]
    return c


def _refused(rules: GameRules, state: Any, action: Action) -> bool:
    try:
        rules.validate(state, action)
    except IllegalAction:
        return True
    return False


@cases_param
def test_a_mutated_decision_fails_verify_at_its_line(case: Case, tmp_path):
    rules = case.rules()
    seed = case.index + 7
    events, decisions = _decisions(rules, seed, _sim_bot(case))
    path = tmp_path / "match.jsonl"
    write_record(path, events)
    assert verify_file(str(path)).ok
    rng = random.Random(seed)
    plays = [(i, st, led) for i, st, led in decisions if events[i]["event"] == "play"]
    assert plays, "no play decision in the first deal"
    swapped = wrong_captures = 0

    # The played card swapped for one another seat holds or the stock's (it looks fine, it is
    # not in the hand).
    def elsewhere(i: int, led: Ledger) -> list[Card]:
        return [c for s, h in enumerate(led.hands) if s != events[i]["seat"] for c in h] + led.stock

    swappable = [(i, st, led) for i, st, led in plays if elsewhere(i, led)]
    for i, _state, led in rng.sample(swappable, min(2, len(swappable))):
        others = elsewhere(i, led)
        bad = [dict(e) for e in events]
        bad[i]["card"] = rng.choice(others).code
        v = verify_events(bad)
        assert not v.ok and v.line == i + 1 and "illegal" in v.message, (i + 1, str(v))
        swapped += 1
    # Capture games: the capture swapped for a set of table cards the rules refuse.
    for i, state, led in plays:
        if "capture" not in events[i] or not led.table:
            continue
        c = rules.action_from_record(events, i).card
        wrong = [s for k in (1, 2) for s in itertools.combinations(led.table, k) if _refused(rules, state, play(c, s))]
        if not wrong:
            continue
        bad = [dict(e) for e in events]
        bad[i]["capture"] = [t.code for t in rng.choice(wrong)]
        v = verify_events(bad)
        assert not v.ok and v.line == i + 1 and "illegal" in v.message, (i + 1, str(v))
        wrong_captures += 1
        break
    assert swapped > 0
    assert wrong_captures == (1 if rules.is_capture_game else 0), "no capture could be made wrong in the first deal"
