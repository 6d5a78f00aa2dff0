"""A lesson's data, read from ``game/lessons/data/<name>.yaml`` and checked against the rules.

A lesson file holds (see any shipped one):

- ``game``, ``players`` (and optionally ``deck``, ``options``, ``human``: the player's seat, 0);
- ``deal``: the hand-built deal, as a record's ``deal`` line (``dealer``, ``hands``, ``table``,
  ``stock``, ``trump``): the game's own ``state_from_deal`` checks it (every card once);
- ``script``: per other seat, its moves in order (the lesson is the same every time);
- ``title``, ``intro``, ``outro``: locale keys (a key without a dot is under
  ``lessons.<name>.``);
- ``steps``: one per decision of the player: ``text`` (what to look at, the rule), ``look``
  (cards to highlight), ``good`` (the move or moves the lesson teaches), ``why`` (why it is
  good), ``wrong`` (a move → the key explaining why it is not) and ``otherwise`` (for any
  other legal move).

A move is written ``7D`` (that card, whatever it takes), ``7D:7C`` or ``7D:3C+4S`` (that
capture), ``7D:-`` (placed, taking nothing), ``KH!`` (played with its declaration: the
game's play toggle, e.g. a marriage), or the name of a decision the game declares that plays
no card (closing the stock: ``close``), followed by the values of its payload in the order
the decision declares its fields, each after a space (a bid of a rank, ``bid A``; a card
named, ``call KC``); payload values left unwritten are any.

:func:`load_lesson` walks every path of good moves through the real rules: every scripted
move must be legal where it is played, every good move must be legal, and every other legal
move at a step must have its explanation. A broken file is a :class:`LessonError` whose
message names the file, the step and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from game.cards import Card
from game.config_types import data_dir
from game.rules.base import PLAY_KIND, Action, DealState, Event, GameRules, RecordError
from game.rules.capture import captured
from game.rules.vocabulary import DecisionKind, Vocabulary

#: Where the shipped lessons are.
LESSONS_DIR = ("game", "lessons", "data")
MAX_STEPS = 12


class LessonError(ValueError):
    """A lesson file that cannot be played as written; ``str()`` is one line naming the file."""


def lessons_dir() -> Path:
    return data_dir().joinpath(*LESSONS_DIR)


# ---------------------------------------------------------------------- moves
@dataclass(frozen=True)
class Move:
    """A move as a lesson writes it (see the module); :meth:`matches` an Action."""

    text: str
    kind: str
    card: str | None = None
    capture: frozenset[str] | None = None  # None: whatever it takes
    #: The play's toggle (its payload field, "" where the game has none) and whether the move
    #: gives it (written ``!``).
    toggle: str = ""
    declared: bool = False
    #: For a decision that plays no card: its payload values as written, (field, text) in the
    #: order it declares its fields (the fields not written take any value).
    values: tuple[tuple[str, str], ...] = ()

    def matches(self, action: Action) -> bool:
        if action.kind != self.kind:
            return False
        if self.kind != PLAY_KIND:
            return all(_written(action.arg(name)) == text for name, text in self.values)
        given = action.arg(self.toggle, False) if self.toggle else False
        if action.card is None or action.card.code != self.card or given != self.declared:
            return False
        return self.capture is None or frozenset(c.code for c in captured(action)) == self.capture


def _written(value: object) -> str | None:
    """A payload value as a lesson writes it (a card by its code); None for no value."""
    if value is None:
        return None
    if isinstance(value, Card):
        return value.code
    return str(value)


def _payload(decision: DecisionKind, words: list[str], codes: set[str], text: str) -> tuple[tuple[str, str], ...]:
    """The payload values written after a decision's name, checked against its fields."""
    fields = decision.fields
    if len(words) > len(fields):
        names = " ".join(f.name for f in fields) or "no value"
        raise ValueError(f"{text!r}: {decision.name} takes {names}")
    out: list[tuple[str, str]] = []
    for f, w in zip(fields, words):
        if f.type == "card":
            ok = w in codes
        elif f.type == "str":
            ok = not f.choices or w in f.choices
        elif f.type in ("int", "seat"):
            ok = w.lstrip("-").isdigit() and (f.low is None or int(w) >= f.low) and (f.high is None or int(w) <= f.high)
        else:
            raise ValueError(f"{text!r}: the {f.name} of a {decision.name} cannot be written in a lesson")
        if not ok:
            raise ValueError(f"{text!r}: {w!r} is not a {f.name} of a {decision.name}")
        out.append((f.name, w))
    return tuple(out)


def parse_move(text: object, codes: set[str], vocabulary: Vocabulary) -> Move:
    """A move from its written form in the game of ``vocabulary``; ValueError naming what is
    wrong."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"a move must be written as text, not {text!r}")
    s = text.strip()
    name, *words = s.split()
    decision = vocabulary.decision(name)
    if decision is not None and not decision.plays_card:
        return Move(s, name, values=_payload(decision, words, codes, s))
    if words:
        raise ValueError(f"{text!r}: {name!r} is not a decision that plays no card")
    play_decision = vocabulary.decision(PLAY_KIND)
    toggle = play_decision.toggle if play_decision is not None else ""
    declared = s.endswith("!")
    s = s.rstrip("!")
    head, _, taken = s.partition(":")
    if head not in codes:
        raise ValueError(f"{text!r}: {head!r} is not a card of this pack")
    capture: frozenset[str] | None = None
    if _:
        capture = frozenset() if taken == "-" else frozenset(taken.split("+"))
        bad = [c for c in capture if c not in codes]
        if bad:
            raise ValueError(f"{text!r}: {bad[0]!r} is not a card of this pack")
    return Move(text.strip(), PLAY_KIND, head, capture, toggle, declared)


# ---------------------------------------------------------------------- the data
@dataclass(frozen=True)
class Step:
    text: str
    good: tuple[Move, ...]
    why: str
    look: tuple[str, ...] = ()
    wrong: tuple[tuple[Move, str], ...] = ()
    otherwise: str | None = None

    @property
    def plays_card(self) -> bool:
        """Whether the step asks for a card played (a move naming a card), not a decision
        that plays none (a bid, a pass, a card called)."""
        return any(m.card is not None for m in self.good)

    def is_good(self, action: Action) -> bool:
        return any(m.matches(action) for m in self.good)

    def explanation(self, action: Action) -> str | None:
        """The key explaining why ``action`` is not this step's move (None: it is good, or
        nothing explains it)."""
        if self.is_good(action):
            return None
        for move, key in self.wrong:
            if move.matches(action):
                return key
        return self.otherwise


@dataclass(frozen=True)
class Lesson:
    name: str
    game: str
    players: int
    deck: str | None
    options: dict[str, object]
    human: int
    deal: Event  # the hand-built deal, as a record's deal line
    script: dict[int, tuple[Move, ...]]
    title: str
    intro: str
    outro: str
    steps: tuple[Step, ...]
    file: str = ""
    #: Every locale key the lesson shows (the tests look each up in the four languages).
    keys: tuple[str, ...] = field(default=())

    def make_rules(self) -> GameRules:
        from game.rulesets import make_rules

        return make_rules(self.game, self.deck, self.players, self.options)

    def new_state(self, rules: GameRules) -> DealState:
        """The lesson's deal as the rules' state, its ``opening_events`` the deal line."""
        state = rules.state_from_deal({"event": "deal", "number": 1, **self.deal})
        state.opening_events = [rules.deal_event(state)]
        return state

    def has_move(self, seat: int, k: int) -> bool:
        """Whether seat ``seat`` has a ``k``-th scripted move (counting from 0)."""
        return k < len(self.script.get(seat, ()))

    def scripted(self, seat: int, k: int, legal: list[Action]) -> Action:
        """Seat ``seat``'s ``k``-th scripted move among ``legal``; LessonError when the script
        has none or it is not legal here."""
        moves = self.script.get(seat, ())
        if k >= len(moves):
            raise LessonError(f"{self.file}: seat {seat} has no scripted move number {k + 1}")
        found = [a for a in legal if moves[k].matches(a)]
        if len(found) != 1:
            what = "is not legal here" if not found else "fits several legal moves: write the capture"
            raise LessonError(
                f"{self.file}: seat {seat}'s move {k + 1}, {moves[k].text}, {what} "
                f"(legal: {', '.join(map(str, legal))})"
            )
        return found[0]


# ---------------------------------------------------------------------- reading
def _key(name: str, value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where}: a locale key is required")
    return value if "." in value else f"lessons.{name}.{value}"


def _moves(value: object, codes: set[str], vocabulary: Vocabulary, where: str) -> tuple[Move, ...]:
    items = value if isinstance(value, list) else [value]
    try:
        return tuple(parse_move(v, codes, vocabulary) for v in items)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def parse_lesson(data: object, name: str, file: str) -> Lesson:
    """A lesson from its parsed YAML, checked (see the module); LessonError if broken."""
    try:
        lesson = _parse(data, name, file)
    except (ValueError, KeyError, TypeError) as e:
        if isinstance(e, LessonError):
            raise
        raise LessonError(f"{file}: {e.args[0] if e.args else e}") from None
    check_lesson(lesson)
    return lesson


def _parse(data: object, name: str, file: str) -> Lesson:
    from game.rulesets import game_ids, make_rules

    if not isinstance(data, dict):
        raise ValueError("a lesson is a mapping (game, players, deal, script, steps …)")
    game = data.get("game")
    if game not in game_ids():
        raise ValueError(f"game {game!r} is not one of {', '.join(game_ids())}")
    players = data.get("players")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ValueError("options: a mapping of house rules")
    rules = make_rules(game, data.get("deck"), players, options)  # ValueError in one line
    codes = {c.code for c in rules.cards}
    human = data.get("human", 0)
    if not isinstance(human, int) or isinstance(human, bool) or not 0 <= human < rules.players:
        raise ValueError(f"human: {human!r} is not a seat")
    deal = data.get("deal")
    if not isinstance(deal, dict):
        raise ValueError("deal: the hand-built deal (dealer, hands, table, stock, trump)")
    deal = {
        k: deal.get(k, [] if k in ("table", "stock") else None) for k in ("dealer", "hands", "table", "stock", "trump")
    }
    script_data = data.get("script") or {}
    if not isinstance(script_data, dict):
        raise ValueError("script: a mapping of seat → its moves")
    script: dict[int, tuple[Move, ...]] = {}
    for seat, moves in script_data.items():
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < rules.players or seat == human:
            raise ValueError(f"script: {seat!r} is not another seat")
        script[seat] = _moves(moves or [], codes, rules.vocabulary, f"script {seat}")
    steps_data = data.get("steps")
    if not isinstance(steps_data, list) or not 1 <= len(steps_data) <= MAX_STEPS:
        raise ValueError(f"steps: a list of 1 to {MAX_STEPS} steps")
    keys: list[str] = []
    steps = []
    for i, sd in enumerate(steps_data, 1):
        where = f"step {i}"
        if not isinstance(sd, dict):
            raise ValueError(f"{where}: a mapping (text, good, why …)")
        look = sd.get("look") or []
        if not isinstance(look, list) or any(c not in codes for c in look):
            raise ValueError(f"{where}: look: a list of cards of this pack")
        wrong_data = sd.get("wrong") or {}
        if not isinstance(wrong_data, dict):
            raise ValueError(f"{where}: wrong: a mapping of move → explanation key")
        wrong = tuple(
            (_moves(m, codes, rules.vocabulary, where)[0], _key(name, k, f"{where}: wrong {m}"))
            for m, k in wrong_data.items()
        )
        other = sd.get("otherwise")
        step = Step(
            _key(name, sd.get("text"), f"{where}: text"),
            _moves(sd.get("good"), codes, rules.vocabulary, f"{where}: good"),
            _key(name, sd.get("why"), f"{where}: why"),
            tuple(look),
            wrong,
            None if other is None else _key(name, other, f"{where}: otherwise"),
        )
        keys += [step.text, step.why] + [k for _, k in wrong] + ([step.otherwise] if step.otherwise else [])
        steps.append(step)
    heads = [_key(name, data.get(k), k) for k in ("title", "intro", "outro")]
    title, intro, outro = heads
    return Lesson(
        name,
        game,
        rules.players,
        rules.deck.id,
        dict(options),
        human,
        deal,
        script,
        title,
        intro,
        outro,
        tuple(steps),
        file,
        tuple(heads + keys),
    )


def check_lesson(lesson: Lesson) -> None:
    """Walk every path of good moves through the rules (see the module); LessonError if one fails."""
    rules = lesson.make_rules()
    try:
        state = lesson.new_state(rules)
    except RecordError as e:
        raise LessonError(f"{lesson.file}: the deal is not one the rules deal: {e}") from None
    used: dict[int, int] = {}
    _walk(lesson, rules, state, 0, {}, used)
    for seat, moves in lesson.script.items():
        if used.get(seat, 0) < len(moves):
            raise LessonError(
                f"{lesson.file}: seat {seat}'s script has {len(moves) - used.get(seat, 0)} "
                "move(s) the lesson never reaches"
            )


def _scripted_move(
    lesson: Lesson, rules: GameRules, state: DealState, made: dict[int, int], used: dict[int, int]
) -> dict[int, int]:
    """Play the scripted move of the seat to act; the new count of moves made per seat."""
    seat = rules.to_act(state)
    k = made.get(seat, 0)
    rules.apply(state, lesson.scripted(seat, k, rules.legal_actions(state)))
    used[seat] = max(used.get(seat, 0), k + 1)
    return {**made, seat: k + 1}


def _walk(
    lesson: Lesson, rules: GameRules, state: DealState, step: int, made: dict[int, int], used: dict[int, int]
) -> None:
    """Play from ``state`` (``step`` steps done, ``made[seat]`` scripted moves made) to the
    end of the steps along every good move."""
    f = lesson.file
    while step < len(lesson.steps):
        if rules.is_over(state):
            raise LessonError(f"{f}: the deal ends before step {step + 1}")
        if rules.to_act(state) != lesson.human:
            made = _scripted_move(lesson, rules, state, made, used)
            continue
        legal = rules.legal_actions(state)
        st = lesson.steps[step]
        where = f"{f}: step {step + 1}"
        for m in st.good + tuple(m for m, _ in st.wrong):
            if not any(m.matches(a) for a in legal):
                raise LessonError(f"{where}: {m.text} is not a legal move here (legal: {', '.join(map(str, legal))})")
        goods = [a for a in legal if st.is_good(a)]
        unexplained = [str(a) for a in legal if not st.is_good(a) and st.explanation(a) is None]
        if unexplained:
            raise LessonError(
                f"{where}: no explanation for {', '.join(unexplained)} (add it under wrong, or give otherwise)"
            )
        for a in goods[1:]:  # every good move must lead on too
            branch = rules.clone(state)
            rules.apply(branch, a)
            _walk(lesson, rules, branch, step + 1, made, used)
        rules.apply(state, goods[0])
        step += 1
    # After the last step the scripted seats still answer while their scripts last (a trick's end).
    while (
        not rules.is_over(state)
        and rules.to_act(state) != lesson.human
        and lesson.has_move(rules.to_act(state), made.get(rules.to_act(state), 0))
    ):
        made = _scripted_move(lesson, rules, state, made, used)


def load_lesson(path: Path) -> Lesson:
    """One lesson file, read with the hardened YAML reader and checked; LessonError if broken."""
    from game.safejson import JSONError, read_bytes
    from game.safeyaml import MAX_YAML_BYTES, ConfigError, load_yaml

    try:
        text = read_bytes(path, MAX_YAML_BYTES).decode("utf-8")
        data, _ = load_yaml(text, path.name, allow_aliases=False)
    except FileNotFoundError:
        raise LessonError(f"{path.name}: file not found") from None
    except (JSONError, OSError, UnicodeDecodeError, ConfigError) as e:
        raise LessonError(f"{path.name}: cannot be read: {e}") from None
    return parse_lesson(data, path.stem, path.name)


def lesson_names(folder: Path | None = None) -> list[str]:
    """The shipped lessons, in the registry's order of games (a lesson is named after its game)."""
    from game.rulesets import game_ids

    folder = folder or lessons_dir()
    found = {p.stem for p in folder.glob("*.yaml")} if folder.is_dir() else set()
    order = [g for g in game_ids() if g in found]
    return order + sorted(found - set(order))


_CACHE: dict[str, Lesson] = {}


def get_lesson(name: str) -> Lesson:
    """A shipped lesson by name, read and checked once; LessonError if missing or broken."""
    if name not in _CACHE:
        if name not in lesson_names():
            raise LessonError(f"no lesson named {name!r}")
        _CACHE[name] = load_lesson(lessons_dir() / f"{name}.yaml")
    return _CACHE[name]


__all__ = [
    "LessonError",
    "Move",
    "Step",
    "Lesson",
    "parse_move",
    "parse_lesson",
    "check_lesson",
    "load_lesson",
    "lesson_names",
    "get_lesson",
    "lessons_dir",
]
