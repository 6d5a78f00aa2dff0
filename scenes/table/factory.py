"""Making a table: a new match from the chosen game and options, or a given session (a
resumed match); for screenshots and tests, a seeded match played ahead headlessly."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from game.rulesets import game_ids
from scenes.scene import AppServices
from scenes.table.scene import TableScene

if TYPE_CHECKING:
    from game.services.session import Session
    from game.services.table_session import TableSession


def _bot_name(level: str | None) -> str:
    from game.ai.bots import BOTS

    return level if level in BOTS else "greedy"


def create(
    app: AppServices,
    deck: str | None = None,
    game: str | None = None,
    players: int | None = None,
    options: dict | None = None,
    ai_level: str | None = None,
    seed: int | None = None,
    session: TableSession | None = None,
    threaded: bool | None = None,
    autoplay_moves: int | None = None,
    preselect: bool | None = None,
    close_stock: bool = False,
    human_seat: int | None = 0,
    overlay: str | None = None,
    **params: object,
) -> TableScene:
    """A table for a new match (or the given ``session``, e.g. a resumed one).

    An unknown ``game`` is the first registered one; a deck or player count the game does
    not offer, the game's first. Screenshots and tests: ``seed`` fixes the cards,
    ``autoplay_moves`` plays that many decisions first (the human's by the greedy bot;
    ``close_stock`` makes the human close the stock when allowed) and stops at the human's
    turn, with a card chosen (``preselect``, on by default when fast-forwarding).
    ``overlay`` (``--overlay``) shows one of the scene's OVERLAYS at once. ``fresh=True`` with
    a ``session`` that has not started: the table deals it (a daily or duplicate deal).
    """
    if session is not None and params.get("fresh"):  # a given session not started yet (a daily deal)
        scene = TableScene(app, session, fresh=True, preselect=False)
    else:
        scene = _create(
            app,
            deck,
            game,
            players,
            options,
            ai_level,
            seed,
            session,
            threaded,
            autoplay_moves,
            preselect,
            close_stock,
            human_seat,
        )
    scene.show_overlay(overlay)
    return scene


def _create(
    app: AppServices,
    deck: str | None,
    game: str | None,
    players: int | None,
    options: dict | None,
    ai_level: str | None,
    seed: int | None,
    session: TableSession | None,
    threaded: bool | None,
    autoplay_moves: int | None,
    preselect: bool | None,
    close_stock: bool,
    human_seat: int | None,
) -> TableScene:
    from game.services.session import Session

    headless = not app.has_window
    if threaded is None:
        threaded = not headless
    if autoplay_moves is None:
        # A seeded table without a window is a screenshot: show it mid-deal, a card chosen.
        autoplay_moves = (players or 2) + 1 if (headless and seed is not None and session is None) else 0
    if session is None:
        cfg = app.config
        gid = game if game is not None and game in cfg.games else game_ids()[0]
        gcfg = cfg.games[gid]
        if deck is None or deck not in cfg.decks or gid not in cfg.decks[deck].games:
            deck = next(d.id for d in cfg.decks_for(gid))
        n = players if players is not None and players in gcfg.players else min(gcfg.players)
        opts = gcfg.default_options()
        for k, v in (options or {}).items():
            if k in gcfg.options and v in gcfg.options[k].allowed:
                opts[k] = v
        level = ai_level or app.settings.ai_level
        s = random.randrange(1, 2**31) if seed is None else int(seed)
        session = Session.new(
            gid,
            deck,
            n,
            opts,
            s,
            human_seat=human_seat,
            bot_name=_bot_name(level),
            threaded=threaded and autoplay_moves <= 0,
        )
        if autoplay_moves > 0:
            _autoplay(session, autoplay_moves, close_stock)
            session.threaded = threaded
            return TableScene(app, session, fresh=False, preselect=True if preselect is None else preselect)
        return TableScene(app, session, fresh=True, preselect=bool(preselect))
    return TableScene(app, session, fresh=False, preselect=bool(preselect))


def _autoplay(session: Session, moves: int, close_stock: bool = False) -> None:
    """Play ``moves`` decisions headlessly (the human's seat by a greedy bot), then go on
    until the human is to act in an unfinished deal."""
    from game.ai.bots import make_bot

    session.start()
    seat = session.human_seat if session.human_seat is not None else 0  # no player: it never chooses
    helper = make_bot("greedy", session.rules, seat, session.seed)
    done = 0
    for _ in range(10000):
        if session.over:
            break
        if session.human_to_act:
            if done >= moves:
                break
            legal = session.legal_actions()
            # --close-stock: the decision asked to be confirmed (closing the stock), when legal.
            vocabulary = session.rules.vocabulary
            confirmed = [a for a in legal if close_stock and getattr(vocabulary.decision(a.kind), "confirm", False)]
            if confirmed:
                action = confirmed[0]
            else:
                action = helper.choose(session.view(), legal)
            session.submit(action)
            done += 1
        else:
            session.poll()
            done += 1
    session.take_events()


__all__ = ["create"]
