"""The club's database kept off the event loop (the base of game.online.server.cluster.pgclub's
:class:`~game.online.server.cluster.pgclub.PgClubStore`): a stopped or frozen PostgreSQL once held
every player's ping for seconds, and the lease renewal with it.

- every call made on the event loop runs in a thread (:func:`guarded`); the loop waits for
  its answer at most ``LOOP_WAIT``, then answers "try again" (StoreError) and marks the
  database away: until a probe in a thread reaches it again, calls fail at once;
- a finished match goes to an *outbox*: a thread stores it, retrying with backoff until the
  database takes it (the match's code is its key: rated once, whoever stores it); the
  cluster notes it in Redis too (game.online.server.cluster.node, ``cv:unrated``), so that a match
  whose process dies first is rated by another.

Called from a thread (the outbox, the tests, tools) the methods simply run. Nothing here
speaks SQL: the store gives :class:`GuardedStore` its driver's ``errors`` and ``_reach``,
``_rate_match`` and ``_remember_rating``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from game.online.server.accounts import Rating
from game.online.server.store import StoreError
from game.rules.vocabulary import JsonObject

log = logging.getLogger("cardavia.server")

#: The longest the event loop waits for the database (seconds): a seated player's ping
#: waits behind it, so it is short; a query on a healthy database takes a few ms.
LOOP_WAIT = 0.3
#: The outbox's waits between tries: from the first, doubling up to the last (seconds).
RETRY_FIRST, RETRY_LAST = 0.25, 15.0

#: What the store's transaction at a match's end is handed, and what it gives back.
Settle = Callable[[dict[str, Rating | None]], tuple[JsonObject, list, dict[str, Rating]]]
Settled = tuple[JsonObject, list, dict[str, Rating]]


class DatabaseAway(StoreError):
    """The club's database cannot be reached or did not answer in time: try again later."""


def on_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


_P = ParamSpec("_P")
_R = TypeVar("_R")
#: What an undo takes: the call's result when it is not None.
_U = TypeVar("_U")
_S = TypeVar("_S", bound="GuardedStore")


class Journal(Protocol):
    """Told of each match that enters and leaves the outbox (game.online.server.cluster.node)."""

    def queued(self, code: str) -> None: ...

    def stored(self, code: str) -> None: ...


def guarded(fn: Callable[Concatenate[_S, _P], _R]) -> Callable[Concatenate[_S, _P], _R]:
    """A database method: run as is from a thread; from the event loop, in a thread with a
    bounded wait (:meth:`GuardedStore._ask`)."""

    @functools.wraps(fn)
    def call(self: _S, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        if not on_loop():
            return fn(self, *args, **kwargs)
        return self._ask(lambda: fn(self, *args, **kwargs))

    call.__dict__["guarded"] = True  # the mark the outage test reads (a function attribute)
    return call


class _Threads:
    """A few daemon threads that run the database's calls. Not a ThreadPoolExecutor: its
    threads are joined when the process exits, and one stuck on a hung database would hold
    the exit of ``serve`` (SIGTERM) for as long as the database hangs."""

    def __init__(self, count: int, name: str):
        import queue

        self.count = count
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        for i in range(count):
            threading.Thread(target=self._run, name=f"{name}-{i}", daemon=True).start()

    def submit(self, fn: Callable[..., object], *args: object) -> Future:
        future: Future = Future()
        self.jobs.put((future, fn, args))
        return future

    def _run(self) -> None:
        while True:
            item = self.jobs.get()
            if item is None:
                return
            future, fn, args = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as e:  # noqa: BLE001 - handed to whoever waits
                future.set_exception(e)

    def shutdown(self) -> None:
        for _ in range(self.count):
            self.jobs.put(None)


class _Job:
    """A finished match on its way to the database (the outbox's entry)."""

    def __init__(self, args: tuple[str, str, str | None, bool, list[str]], settle: Settle):
        self.args, self.settle = args, settle
        self.future: Future = Future()


class GuardedStore:
    """The event loop's side of a club store: its threads, the database's away state and its
    probe, and the outbox of finished matches. A subclass sets ``errors`` (its driver's) and
    gives ``_reach``, ``_rate_match`` and ``_remember_rating``; it calls ``_start`` once the
    database is open and ``_stop`` to close."""

    #: Told of each match that enters and leaves the outbox (game.online.server.cluster.node):
    #: ``queued(code)`` on the event loop, ``stored(code)`` from the outbox's thread.
    journal: Journal | None = None
    #: The errors that say the database cannot be used just now.
    errors: tuple[type[Exception], ...] = (OSError,)

    def __init__(self, loop_wait: float = LOOP_WAIT):
        self.loop_wait = loop_wait
        #: The database did not answer the last call (until a probe reaches it again).
        self.down = False
        self.outbox: OrderedDict[str, _Job] = OrderedDict()
        self._closed = False
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._probing = False

    def _start(self, threads: int, name: str) -> None:
        """Start the calls' threads and the outbox's."""
        self.threads = _Threads(threads, name)
        self._outbox_thread = threading.Thread(target=self._outbox_run, name=f"{name}-outbox", daemon=True)
        self._outbox_thread.start()

    def _stop(self) -> None:
        """Stop the threads (a match still in the outbox stays noted in Redis)."""
        self._closed = True
        self._wake.set()
        self.threads.shutdown()

    # ---- the database's own (the subclass's)
    def _reach(self) -> None:
        """Return when the database answers now; raise when it does not."""
        raise NotImplementedError

    def _rate_match(
        self, code: str, game: str, preset: str | None, rated: bool, subjects: list[str], settle: Settle
    ) -> Settled | None:
        """One transaction: the match stored and its ratings settled; None when stored before."""
        raise NotImplementedError

    def _remember_rating(self, key: tuple[str, str], r: Rating | None) -> None:
        raise NotImplementedError

    # ---- the event loop's side
    def _ask(self, call: Callable[[], _R], undo: Callable[[_U], None] | None = None) -> _R:
        """``call()`` in a thread; the loop waits at most ``loop_wait``. DatabaseAway when the
        database is away (at once) or does not answer in time; ``undo(result)`` then runs in
        a thread if the call still succeeds later (nobody was told of it)."""
        if self.down:
            raise DatabaseAway("the club's database cannot be reached just now: try again in a moment")
        future = self.threads.submit(call)
        try:
            return future.result(self.loop_wait)
        except FutureTimeout:
            self._away(f"no answer within {self.loop_wait:g} s")
            if undo is not None:
                future.add_done_callback(lambda f: self.threads.submit(self._undo, f, undo))
            raise DatabaseAway("the club's database is slow to answer: try again in a moment") from None
        except self.errors as e:
            self._away(str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__)
            raise DatabaseAway("the club's database cannot be reached just now: try again in a moment") from None

    @staticmethod
    def _undo(future: Future, undo: Callable[[_U], None]) -> None:
        try:
            result = future.result()
            if result is not None:
                undo(result)
        except Exception as e:  # noqa: BLE001 - it failed after all: nothing to undo
            log.debug("nothing to undo: %s", e)

    def _away(self, why: str) -> None:
        """The database failed a call: fail fast until a probe reaches it again."""
        with self._lock:
            if not self.down:
                log.error("the club's database cannot be used (%s): accounts wait, results are kept to store", why)
            self.down = True
            if self._probing or self._closed:
                return
            self._probing = True
        threading.Thread(target=self._probe, name="cardavia-db-probe", daemon=True).start()

    def _probe(self) -> None:
        wait = RETRY_FIRST
        while not self._closed:
            time.sleep(wait)
            try:
                self._reach()
            except Exception:  # noqa: BLE001 - still away
                wait = min(RETRY_LAST / 3, wait * 2)
                continue
            with self._lock:  # both at once: a failure right after starts a new probe
                self.down = False
                self._probing = False
            log.warning("the club's database answers again")
            self._wake.set()
            return
        with self._lock:
            self._probing = False

    # ---- the outbox
    def rate_match(
        self,
        code: str,
        game: str,
        preset: str | None,
        rated: bool,
        subjects: list[str],
        settle: Callable[[dict[str, Rating | None]], tuple[JsonObject, list, dict[str, Rating]]],
    ) -> tuple[JsonObject, list, dict[str, Rating]] | None:
        """From a thread: one transaction, as the protocol says. From the event loop: the
        match goes to the outbox, and the loop waits at most ``loop_wait`` for it to be
        stored (then settle's result, as from a thread); None when it is stored later (or was
        rated before)."""
        if not on_loop():
            return self._rate_match(code, game, preset, rated, subjects, settle)
        job = _Job((code, game, preset, rated, subjects), settle)
        if self.journal is not None:
            self.journal.queued(code)
        with self._lock:
            self.outbox[code] = job
            waiting = len(self.outbox)
        self._wake.set()
        if self.down or waiting > 1:
            return None  # the outbox is busy or the database away: stored in its turn
        try:
            return job.future.result(self.loop_wait)
        except FutureTimeout:  # slow or away: the next calls do not wait until a probe says
            self._away(f"no answer within {self.loop_wait:g} s")
            return None
        except Exception:  # noqa: BLE001 - settle's own bug, logged by the outbox
            return None

    rate_match.__dict__["guarded"] = True

    def _outbox_run(self) -> None:
        """Store the outbox's matches in order, one transaction each; the database away, try
        again after a wait that doubles (or as soon as a probe reaches it)."""
        wait = RETRY_FIRST
        while not self._closed:
            self._wake.wait(wait if self.outbox else None)
            self._wake.clear()
            while self.outbox and not self._closed:
                with self._lock:
                    code, job = next(iter(self.outbox.items()))
                failed: Exception | None
                try:
                    settled = self._rate_match(code, *job.args[1:], job.settle)
                except self.errors as e:
                    self._away(str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__)
                    wait = min(RETRY_LAST, wait * 2)
                    break
                except Exception as e:  # noqa: BLE001 - settle's bug: this match cannot be rated
                    log.exception("table %s: the match could not be rated", code)
                    settled, failed = None, e
                else:
                    failed = None
                    wait = RETRY_FIRST
                if settled is not None:
                    game = job.args[1]
                    for subject, r in settled[2].items():
                        self._remember_rating((subject, game), r)
                if self.journal is not None:  # the note first: while in the outbox nobody rates it again
                    try:
                        self.journal.stored(code)
                    except Exception:  # noqa: BLE001 - the note stays: the database rates a code once
                        log.exception("table %s: its note in the journal could not be removed", code)
                with self._lock:
                    if self.outbox.get(code) is job:
                        del self.outbox[code]
                if failed is not None:
                    job.future.set_exception(failed)
                else:
                    job.future.set_result(settled)


__all__ = ["LOOP_WAIT", "DatabaseAway", "GuardedStore", "Settle", "Settled", "guarded", "on_loop"]
