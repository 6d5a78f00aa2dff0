"""Replays and watching: the record of a match shown on the table, line by line.

- :mod:`~scenes.replay.timeline` — a record read and judged (game.record, game.verify) and
  the table model and captions after any number of its lines; no pygame.
- :mod:`~scenes.replay.scene` and :mod:`~scenes.replay.view` — the viewer ("replay"): every
  hand face up or only one seat's, ← / → a line, Page Up / Page Down a deal, Home / End,
  Space play / pause, a speed, the table's log, captions and scores as they were.
- :mod:`~scenes.replay.library` — the Replays list ("replays"): the kept matches
  (game.services.replays), newest first.
- :mod:`~scenes.replay.watch` — "Watch a match" ("watch"): computers at any levels, any game
  and house rules, in the viewer.
- :mod:`~scenes.replay.prompt` — "Save the record as…" ("save_record"): a typed path; an
  existing file is replaced only when the player says so.

:func:`create` is what the registry calls for "replay": a record file (``record``, e.g.
``python main.py replay FILE`` or a file dropped on the window), a match in memory
(``events``), a record's text (``text``), a watched match (``live``), or — with none of
these, for screenshots and checks — a demo match the computer plays at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scenes.replay import timeline as T
from scenes.replay.scene import ReplayScene, Watched
from scenes.scene import AppServices

if TYPE_CHECKING:
    from game.services.session import Session

DEMO_SEED = 21


def demo_events(
    app: AppServices, game: str | None = None, players: int | None = None, seed: int = DEMO_SEED
) -> list[dict]:
    """A whole match played by the greedy computer (screenshots, checks, a missing record)."""
    from game.ai.bots import make_bot
    from game.match import Match
    from game.rulesets import game_ids, make_rules

    gid = game if game is not None and game in app.config.games else game_ids()[0]
    rules = make_rules(gid, None, players if players in app.config.games[gid].players else None)
    bots = [make_bot("greedy", rules, s, seed) for s in range(rules.players)]
    return Match(rules, seed, bots).run()


def seats_info(head: dict | None) -> tuple[int | None, list[str | None] | None]:
    """(the player's seat, each seat's computer level) from a kept match's ``seats`` field."""
    seats = head.get("seats") if isinstance(head, dict) else None
    players = head.get("players") if isinstance(head, dict) else None
    if not isinstance(seats, list) or len(seats) != players or not all(isinstance(s, str) for s in seats):
        return None, None
    human = next((i for i, s in enumerate(seats) if s == "human"), None)
    return human, [None if s == "human" else s for s in seats]


def create(
    app: AppServices,
    record: str | None = None,
    events: list[dict] | None = None,
    text: str | None = None,
    step: int | None = None,
    seat: int | None = None,
    hands: str | None = None,
    live: Watched | None = None,
    levels: list[str | None] | None = None,
    game: str | None = None,
    players: int | None = None,
    name: str | None = None,
    session: Session | None = None,
    **params: object,
) -> ReplayScene:
    """The viewer for one record (see the module), or for ``session``'s match (the results
    screen's); ``step`` the position to show, ``seat`` the seat at the bottom, ``hands``
    "all" (default) or "one" (that seat's only)."""
    player = None
    if session is not None:  # the results screen's match: its record, seen from the player's chair
        from game.services.replays import session_seats

        player = session.human_seat
        events = list(session.match.events)
        seat = session.human_seat if seat is None else seat
        levels = levels if levels is not None else [None if s == "human" else s for s in session_seats(session)]
    if record is not None:
        tl = T.from_file(record)
    elif text is not None:
        tl = T.from_text(text, name or "")
    elif live is not None:
        tl = T.from_events(live.pull(), name or "", live=True)
    else:
        tl = T.from_events(events if events is not None else demo_events(app, game, players), name or "")
    human, kept_levels = seats_info(tl.events[0] if tl.events else None)
    return ReplayScene(
        app,
        tl,
        seat=seat if seat is not None else human,
        step=step,
        open_hands=hands != "one",
        levels=levels if levels is not None else kept_levels,
        live=live,
        player=player if session is not None else human,
    )


__all__ = ["ReplayScene", "create", "demo_events", "seats_info"]
