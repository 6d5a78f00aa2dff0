"""A puzzle's theme: what its right move is about, read from the position and the move.

In order:
- the move itself says it: the theme its decision declares (game.rules.vocabulary: a
  decision's or a payload field's ``theme``, e.g. closing the stock), a sweep (a bonus of the
  game's ``sweep_bonuses``) or another counted bonus;
- in a partnership trick game, the partner winning the trick and a trump among the moves
  weighed (the right move or the next best): trumping (or not) a partner's trick;
- where the deal is played to its end on both moves (every card known, the solver's play),
  the deal result's breakdown that moves most for the seat's side between the right move
  and the next best — a scoring line (settebello, primiera, the most coins …), or in a trick
  game who takes the last trick (where it decides the deal) — else counting the points;
- where cards are hidden, the cards the right move takes (the settebello, a 7 where the game
  scores the primiera), a trump played, or simply the lead or the take.
"""

from __future__ import annotations

from game.ai.hooks import State, View
from game.rules.base import Action, GameRules
from game.rules.capture import captured

#: Result breakdown keys (a deal_end's ``detail``) and the theme each stands for; keys not
#: listed (counts, values shown beside the points) name none.
DETAIL_THEMES: dict[str, str] = {
    "scope": "sweep",
    "scua": "sweep",
    "settebello": "settebello",
    "primiera": "primiera",
    "coins": "coins",
    "swords": "coins",
    "cards": "cards",
    "napula": "napula",
    "picada": "bonus",
    "simili": "bonus",
    "quadriglia": "bonus",
    "last_trick": "last_trick",
}


def detail_themes(rules: GameRules) -> dict[str, str]:
    """The breakdown keys and their themes: the shared ones, then the game's own (a
    declaration's score line, e.g. the points of the marriages declared)."""
    shared = {k: v for k, v in DETAIL_THEMES.items() if k != "last_trick"}
    return {**shared, **rules.detail_themes, "last_trick": DETAIL_THEMES["last_trick"]}


def move_theme(rules: GameRules, state: State, action: Action) -> str | None:
    """The theme the move names by itself (see the module), or None."""
    decision = rules.vocabulary.decision(action.kind)
    declared = decision.theme_of(action) if decision is not None else None
    if declared is not None:
        return declared
    if rules.family == "capture" and captured(action):
        c = rules.clone(state)
        events = rules.apply(c, action, check=False)
        bonuses = {b for e in events if e.get("event") == "play" for b in e.get("bonuses") or ()}
        if bonuses & set(rules.sweep_bonuses):
            return "sweep"
        if bonuses & set(rules.counted_bonuses):
            return "bonus"
    return None


def _trump_suit(view: View) -> str | None:
    for name in ("trump_suit", "trump"):
        v = getattr(view, name, None)
        if isinstance(v, str):
            return v
    return None


def partner_trick(rules: GameRules, view: View, seat: int) -> bool:
    """A partnership trick game where the seat's partner is winning the trick on the table."""
    trick = tuple(getattr(view, "trick", ()) or ())
    if rules.family != "trick" or not rules.partnerships or not trick:
        return False
    history = tuple(getattr(view, "history", ()))
    seats = [s for s, _ in history[-len(trick) :]]
    if len(seats) != len(trick):
        return False
    trick_winner = getattr(rules, "trick_winner", None)  # the trick family's (game.rules.trick)
    if trick_winner is None:
        return False
    winner_index = trick_winner(list(trick), 0, _trump_suit(view))  # index in the trick, leader first
    winner = seats[winner_index] if 0 <= winner_index < len(seats) else None
    if winner is None or winner == seat:
        return False
    team = rules.seen_team_of(view, seat)  # as the seat knows the teams: a hidden partner is no partner yet
    return team is not None and rules.seen_team_of(view, winner) == team


def _swing(rules: GameRules, seat: int, best: dict, other: dict) -> str | None:
    """The breakdown line that moves most for the seat's side between two finished deals."""
    team = rules.team_of(seat)
    gains: list[tuple[float, str]] = []
    for key, theme in detail_themes(rules).items():
        a, b = best.get(key), other.get(key)
        if key == "last_trick":
            continue  # a seat, not a list of points: see last_trick below
        if not (isinstance(a, list) and isinstance(b, list) and len(a) == len(b) > team):
            continue
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in a + b):
            continue
        gain = (a[team] - (sum(a) - a[team])) - (b[team] - (sum(b) - b[team]))
        if gain > 0:
            gains.append((gain, theme))
    if not gains:
        return None
    return max(gains)[1]


def _last_trick_decides(
    rules: GameRules, seat: int, best_end: tuple[dict, int | None], other_end: tuple[dict, int | None]
) -> bool:
    """The last trick changes sides between the two lines and that is what scores: the deal
    was decided by it (a breakdown ``reason`` "last_trick"), or the game's last-trick point
    moved while the card points in whole points did not (a ``last_trick`` seat beside
    ``thirds``)."""
    (a, last_a), (b, last_b) = best_end, other_end
    if last_a is None or last_b is None or rules.team_of(last_a) == rules.team_of(last_b):
        return False
    if "last_trick" in (a.get("reason"), b.get("reason")):
        return True
    if "last_trick" in a and isinstance(a.get("thirds"), list) and isinstance(b.get("thirds"), list):
        team = rules.team_of(seat)
        whole = [[t // 3 for t in d["thirds"]] for d in (a, b)]
        return whole[0][team] == whole[1][team] and sum(whole[0]) == sum(whole[1])
    return False


def known_theme(
    rules: GameRules,
    state: State,
    seat: int,
    best: Action,
    best_end: tuple[dict, int | None],
    other_end: tuple[dict, int | None] | None,
) -> str:
    """The theme of a known-card puzzle: ``best_end`` and ``other_end`` are (breakdown, seat
    that took the last trick or None) of the deal played to its end by the solver after the
    right move and after the next best."""
    view = rules.view(state, seat)
    own = move_theme(rules, state, best)
    if own is not None:
        return own
    if other_end is None:
        return "count" if rules.family == "trick" else "take"
    if rules.family == "trick":
        if partner_trick(rules, view, seat):
            return "trump_partner"
        return "last_trick" if _last_trick_decides(rules, seat, best_end, other_end) else "count"
    return _swing(rules, seat, best_end[0], other_end[0]) or "take"


def hidden_theme(rules: GameRules, state: State, seat: int, best: Action, other: Action | None) -> str:
    """The theme of a puzzle valued with hidden cards (see the module)."""
    own = move_theme(rules, state, best)
    if own is not None:
        return own
    view = rules.view(state, seat)
    if rules.family == "capture":
        taken = set(captured(best))
        sette = getattr(rules, "settebello", None)  # a card only where the game scores it
        if sette is not None and sette in taken | {best.card}:
            return "settebello"
        if "primiera" in rules.scoring and any(c.rank == "7" for c in taken):
            return "primiera"
        return "take"
    trump = _trump_suit(view)
    cards = [a.card for a in (best, other) if a is not None and a.card is not None]
    if partner_trick(rules, view, seat) and trump is not None and any(c.suit == trump for c in cards):
        return "trump_partner"
    if best.card is not None and trump is not None and best.card.suit == trump:
        return "trump"
    if not tuple(getattr(view, "trick", ()) or ()) and getattr(view, "led", None) is None:
        return "lead"
    return "take"


__all__ = ["DETAIL_THEMES", "detail_themes", "hidden_theme", "known_theme", "move_theme", "partner_trick"]
