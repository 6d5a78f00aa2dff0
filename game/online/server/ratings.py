"""Ratings of the club server (OpenSkill, PyPI ``openskill``; docs/ONLINE.md, "Ratings").

The model is OpenSkill's **Plackett-Luce** (Weng and Lin 2011): it rates any number of teams
of any size from one ranking, so one model covers the two-player games, Scopone's and
Tressette's partnerships (a team's strength is the sum of its players') and three-player
Cìcera (three teams of one), with the cost linear in the number of teams. It is the
library's default and best tested model; Bradley-Terry's full-pair variant says the same for
two teams at a quadratic cost for more, Thurstone-Mosteller's sharper updates suit draws-heavy
games better than these.

- Ratings are **per game**; for a partnership of two people also **per team** (subject
  ``t:<a>+<b>``, the pair rated as one player against the other side), beside each player's own
  (``p:<id>``).
- **Computer seats** have fixed, published ratings per level (:data:`COMPUTER_RATINGS`), with a
  small sigma, and are never changed by a match.
- **Which matches are rated**: quick matches (the server sets them up: nobody chooses the
  opponents), including those the computer filled after the wait — against the computer's
  fixed rating. So a lone player at night still plays for their rating, and beating an easy
  computer again and again earns less each time (the model's expectation rises). Tables a
  host set up (friends, chosen computer levels) are never rated.
- **Provisional** until :data:`PROVISIONAL_MATCHES` rated matches (shown with a "?", listed
  after the established ones).
- **A leaver loses**: a player whose seat the computer had to take over (gone or silent for
  ``--bot-after`` seconds) and who did not come back is ranked last, as if beaten, whatever
  the score (in a partnership the leaver's side loses).
- **A match mostly played by the computer** for a person (it made more than
  :data:`COMPUTER_SHARE` of their decisions: gone, silent, or back too late) is a loss for
  that person ("left") and gains nothing for anyone else at the table: a sock puppet that
  joins and leaves feeds nobody.
- **Farming is unrewarding** (:func:`guarded`): a rating never rises on a loss (the model's
  uncertainty shrinking would otherwise lift the shown number); against the same people
  again within :data:`REPEAT_WINDOW` a win gains half, then nothing; against a person with
  fewer than :data:`FEW_MATCHES` rated matches (a fresh account) a win gains at most
  :data:`NEW_OPPONENT_GAIN` points.
- Shown as ``display(mu, sigma) = round(1000 + 40 × (mu − 3 sigma))``: a new player shows 1000 and
  grows as the server grows sure of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.online.server.accounts import Rating

#: The published ratings of the computer seats per level: (mu, sigma). A seat's level is
#: shown with its rating on the plates and in the lobby.
COMPUTER_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (15.0, 1.0),
    "greedy": (20.0, 1.0),
    "normal": (22.0, 1.0),
    "hard": (28.0, 1.0),
}
#: Rated matches before a rating stops being provisional.
PROVISIONAL_MATCHES = 10
NEW_MU, NEW_SIGMA = 25.0, 25.0 / 3


#: A person whose decisions the computer made more than this share of is rated a leaver.
COMPUTER_SHARE = 0.5
#: Meetings of the same people within this many seconds gain less: the factor per earlier
#: meeting (the first again: half; after that nothing).
REPEAT_WINDOW = 24 * 3600.0
REPEAT_FACTORS = (1.0, 0.5, 0.0)
#: A win over a person with fewer rated matches than this gains at most NEW_OPPONENT_GAIN
#: shown points.
FEW_MATCHES = 3
NEW_OPPONENT_GAIN = 10.0


def shown(r: Rating) -> float:
    """The shown number before rounding."""
    return 1000 + 40 * (r.mu - 3 * r.sigma)


def capped(old: Rating, new: Rating, max_gain: float) -> Rating:
    """``new``, with mu lowered so that the shown number rises by at most ``max_gain`` from
    ``old`` (the model's sigma kept)."""
    gain = shown(new) - shown(old)
    if gain <= max_gain:
        return new
    return Rating(new.mu - (gain - max(0.0, max_gain)) / 40, new.sigma, new.matches)


def repeat_factor(meetings: int) -> float:
    """How much of a gain counts after ``meetings`` earlier meetings within the window."""
    return REPEAT_FACTORS[min(meetings, len(REPEAT_FACTORS) - 1)]


def guarded(old: Rating, new: Rating, result: str, *, anyone_left: bool, meetings: int, fresh_opponent: bool) -> Rating:
    """A person's new rating after a rated match, with the anti-farming rules (module doc):
    ``result`` theirs ("won", "lost", "draw", "left"); ``anyone_left`` whether another person
    at the table was rated a leaver; ``meetings`` earlier meetings with these opponents within
    the window; ``fresh_opponent`` whether an opponent person has fewer than FEW_MATCHES."""
    if result in ("lost", "left") or (anyone_left and result != "left"):
        return capped(old, new, 0.0)
    gain = shown(new) - shown(old)
    limit = gain * repeat_factor(meetings)
    if fresh_opponent:
        limit = min(limit, NEW_OPPONENT_GAIN)
    return capped(old, new, limit)


def display(mu: float, sigma: float) -> int:
    """The number a player sees: 1000 + 40 × (mu − 3 sigma), rounded."""
    return round(1000 + 40 * (mu - 3 * sigma))


def computer_display(level: str) -> int:
    mu, sigma = COMPUTER_RATINGS[level]
    return display(mu, sigma)


def new_rating() -> Rating:
    return Rating(NEW_MU, NEW_SIGMA, 0)


@dataclass(frozen=True)
class SeatOutcome:
    """Who sat at a seat of a rated match: a player (``player`` id) or a computer (``level``)."""

    team: int
    player: int | None = None
    level: str | None = None
    left: bool = False  # the computer took the seat over and the player never came back


def ranks_for(
    teams: list[int], winner: int | None, leavers: set[int], totals: dict[int, int] | None = None
) -> dict[int, int]:
    """Rank per team (1 best): the winner first, the others after, a draw all first; a team
    with a leaver after everyone (a leaver loses as if beaten). With ``totals`` (per team,
    higher better) every team ranks by its total instead, equal totals sharing a rank."""
    if totals is None:
        ranks = {t: (1 if winner is None or t == winner else 2) for t in teams}
        last = 3
    else:
        ranks = {t: 1 + sum(totals[u] > totals[t] for u in teams) for t in teams}
        last = len(teams) + 1
    for t in leavers:
        ranks[t] = last
    if leavers and all(r == last for r in ranks.values()):
        ranks = {t: 1 for t in teams}  # everyone left: nobody beat anyone
    return ranks


def rate(
    current: dict[str, Rating], seats: list[SeatOutcome], winner: int | None, totals: dict[int, int] | None = None
) -> dict[str, Rating]:
    """The new ratings of the people of a finished rated match (``current``: their ratings
    now, by subject ``p:<id>``, and of their pairs ``t:<a>+<b>``); computers keep theirs.
    ``totals``: rank by them (:func:`ranks_for`)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = sorted({s.team for s in seats})
    leavers = {s.team for s in seats if s.left}
    ranks = ranks_for(teams, winner, leavers, totals)
    out: dict[str, Rating] = {}

    def rating_of(s: SeatOutcome):  # noqa: ANN202 - openskill's rating type
        if s.player is None:
            mu, sigma = COMPUTER_RATINGS.get(s.level or "normal", COMPUTER_RATINGS["normal"])
            return model.rating(mu=mu, sigma=sigma)
        r = current.get(f"p:{s.player}") or new_rating()
        return model.rating(mu=r.mu, sigma=r.sigma)

    members = [[s for s in seats if s.team == t] for t in teams]
    new = model.rate([[rating_of(s) for s in m] for m in members], ranks=[ranks[t] for t in teams])
    for m, rated in zip(members, new):
        for s, r in zip(m, rated):
            if s.player is not None:
                old = current.get(f"p:{s.player}") or new_rating()
                out[f"p:{s.player}"] = Rating(r.mu, r.sigma, old.matches + 1)
    # Partnerships of people: the pair as one player against the other sides.
    pair_subjects = [pair_subject(m) for m in members]
    if any(p is not None for p in pair_subjects):
        units = []
        for m, subject in zip(members, pair_subjects):
            if subject is not None:
                held = current.get(subject) or new_rating()
                units.append([model.rating(mu=held.mu, sigma=held.sigma)])
            else:  # computers, or one person with a computer: their mean as the unit
                rs = [rating_of(s) for s in m]
                units.append([model.rating(mu=sum(x.mu for x in rs) / len(rs), sigma=max(x.sigma for x in rs))])
        new_units = model.rate(units, ranks=[ranks[t] for t in teams])
        for subject, (r,) in zip(pair_subjects, new_units):
            if subject is not None:
                old = current.get(subject) or new_rating()
                out[subject] = Rating(r.mu, r.sigma, old.matches + 1)
    return out


def pair_subject(members: list[SeatOutcome]) -> str | None:
    """``t:<a>+<b>`` for a team of two or more people (ids in order), else None."""
    ids = [s.player for s in members]
    people = [i for i in ids if i is not None]
    if len(ids) < 2 or len(people) != len(ids):
        return None
    return "t:" + "+".join(str(i) for i in sorted(people))


__all__ = [
    "COMPUTER_RATINGS",
    "COMPUTER_SHARE",
    "FEW_MATCHES",
    "NEW_OPPONENT_GAIN",
    "PROVISIONAL_MATCHES",
    "REPEAT_FACTORS",
    "REPEAT_WINDOW",
    "SeatOutcome",
    "capped",
    "computer_display",
    "display",
    "guarded",
    "new_rating",
    "pair_subject",
    "ranks_for",
    "rate",
    "repeat_factor",
    "shown",
]
