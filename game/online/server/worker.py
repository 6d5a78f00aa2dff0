"""Computer seats think here, in worker processes, never on the server's event loop.

The server sends :func:`choose_action` everything a decision depends on — the table's
config, the match seed, the seat, the level and the decisions so far as JSON — and gets the
chosen action back as JSON. The worker rebuilds the match (``Match.rebuild``) and asks
``make_bot(level, rules, seat, seed)``. Bots draw their randomness per decision from the
seed, the seat and the decision's number, so the answer is the same whichever process
thinks, and whether or not the server was restarted in between.

A process keeps the last matches it rebuilt (:data:`CACHE_SIZE`): the next decision of the
same table then replays only the decisions made since, not the whole match.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from game.ai.bots import make_bot
from game.match import Match
from game.online.wire.protocol import action_from_json, action_to_json
from game.rules.base import Action
from game.rulesets import make_rules

#: Matches a worker process keeps rebuilt (one per table it thinks for).
CACHE_SIZE = 64

#: Per match kept: the match, its bots, and the decisions it was rebuilt through as the server
#: sent them (JSON): the next call compares that prefix as it comes, and decodes only the rest.
_cache: OrderedDict[tuple, tuple[Match, dict[tuple[int, str, bool], Any], list]] = OrderedDict()


def _key(game: str, deck: str | None, players: int, options: dict, seed: int) -> tuple:
    return (game, deck, players, tuple(sorted((str(k), repr(v)) for k, v in options.items())), seed)


def _decoded(decisions_as_json: list) -> list[tuple[int, Action]]:
    return [(int(s), action_from_json(a)) for s, a in decisions_as_json]


def _match_at(
    game: str, deck: str | None, players: int, options: dict, seed: int, decisions_as_json: list
) -> tuple[Match, dict]:
    key = _key(game, deck, players, options, seed)
    hit = _cache.get(key)
    if hit is not None:
        m, bots, seen = hit
        k = len(seen)
        if k <= len(decisions_as_json) and decisions_as_json[:k] == seen:
            new = decisions_as_json[k:]
            try:
                for seat, action in _decoded(new):
                    if seat != m.to_act:
                        raise ValueError(f"seat {seat} is not to act")
                    m.play(action)
            except (ValueError, KeyError, TypeError, IndexError, RuntimeError):
                del _cache[key]  # played part way: rebuilt below, which names what is wrong
            else:
                seen.extend(new)
                _cache.move_to_end(key)
                return m, bots
    rules = make_rules(game, deck, players, options)
    m = Match.rebuild(rules, seed, _decoded(decisions_as_json))
    bots = {}
    _cache[key] = (m, bots, list(decisions_as_json))
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return m, bots


def choose_action(
    game: str,
    deck: str | None,
    players: int,
    options: dict,
    seed: int,
    seat: int,
    level: str,
    decisions_as_json: list,
    house: bool = False,
) -> dict:
    """The action the ``level`` computer in ``seat`` chooses after ``decisions_as_json``
    (``[[seat, action_json], …]``), as JSON. ``house``: a daily deal's seat, the house bot of
    game.services.par (a fixed budget and no clock: the same play on any machine and load, the one par
    was worked out against). Raises ValueError when the decisions do not replay or it is not
    ``seat``'s turn."""
    m, bots = _match_at(game, deck, players, options, seed, decisions_as_json)
    if m.over or m.to_act != seat:
        raise ValueError(f"seat {seat} is not to act after {len(decisions_as_json)} decisions")
    bot = bots.get((seat, level, house))
    if bot is None:
        if house:
            from game.services.par import house_bot

            bot = house_bot(m.rules, seed, seat, level)
        else:
            bot = make_bot(level, m.rules, seat, seed)
        bots[(seat, level, house)] = bot
    m.bots[seat] = bot
    try:
        turn = m.bot_turn()  # begin_decision(len(decisions)), the view and the legal actions
    finally:
        m.bots[seat] = None
    assert turn is not None
    _, view, legal = turn
    return action_to_json(bot.choose(view, legal))


def warm_up() -> bool:
    """Import what thinking needs (run once per process at start, off the event loop)."""
    import game.ai.greedy  # noqa: F401
    import game.ai.levels  # noqa: F401

    return True


#: How often a worker checks that the server that started it is still there.
PARENT_CHECK_SECONDS = 0.5


def _watch_parent(parent: int) -> None:
    """Runs in each worker process: end it when the server is gone. A server killed with
    SIGKILL cannot stop its pool, and a worker waiting for work would wait for ever (it holds
    both ends of its queue, so it never sees the end of it)."""

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK_SECONDS)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="cardavia-parent-watch", daemon=True).start()


def make_pool(workers: int = 1) -> ProcessPoolExecutor:
    """The pool the computer seats think in. Processes are spawned, not forked: the server
    may run inside the window's process, whose threads (SDL, the event loop) a fork would
    copy in the middle of whatever they were doing."""
    return ProcessPoolExecutor(
        max_workers=max(1, workers),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_watch_parent,
        initargs=(os.getpid(),),
    )


def stop_pool(pool: ProcessPoolExecutor, timeout: float = 2.0) -> None:
    """Stop the pool without waiting for a search in progress: queued work is cancelled and
    the processes are ended (each waited for at most ``timeout`` seconds in all)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        try:
            p.terminate()
        except (OSError, AttributeError, ValueError):
            pass
    per = timeout / max(1, len(processes))
    for p in processes:
        try:
            p.join(per)
            if p.is_alive():
                p.kill()
                p.join(per)
        except (OSError, AttributeError, ValueError, AssertionError):
            pass


__all__ = ["CACHE_SIZE", "choose_action", "make_pool", "stop_pool", "warm_up"]
