"""The club server's daily deal (``main.py serve``): one secret deal per date, game and preset.

Unlike the offline daily deal (game.services.daily, derived from the date so anyone can compute it),
the server's deal comes from a secret: a 62-bit seed and a 128-bit nonce drawn with
:mod:`secrets` when the day is first asked for, kept in the data folder
(``daily/<YYYY-MM-DD>.json``) and never sent before the day closes. What is published while
the day is open is the commitment, SHA-256 of ``cardavia-online-daily|DATE|GAME|PRESET|SEED|NONCE``
(hex); once the date is past, the seed and the nonce are published too, so anyone can check
the commitment and verify every record of the day (``verify``, and that its first deal is
the one the seed deals). A 62-bit seed cannot be searched from the cards a player sees; the
nonce keeps the commitment from being searched at all.

Each account (by its player id, never by a display name) is dealt a day's deal once. The
server alone sets up the day's table — the player at seat 0, the house bots of game.services.par
elsewhere, the day's options, no host who could change them — and takes the finished record
through :meth:`DailyBoard.accept`, which refuses a second play, a table the server did not
make for that day (its code is not among the day's), a record that does not verify against
the day's seed or was played with other settings, and any result after the day's deadline.
Par is game.services.par's, worked out once per day and deal. The leaderboard orders by points over
par (higher first), then by time (quicker first).

The seed is revealed only once it can no longer help anyone: the date is past *and* every
table dealt from it has ended — or the deadline (``GRACE`` after midnight) has passed, when
the tables still open are closed and their results refused. A table begun at 23:59 so never
plays on with its cards computable from a published seed.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import threading
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

from game.match import Match
from game.online.wire import protocol as P
from game.rules.vocabulary import JsonObject
from game.services.daily import PLAYER_SEAT, STANDARD, daily_deal
from game.services.par import Deal, par, seat_score
from game.services.storage import read_json, write_json
from game.verify import verify_events

SEED_BITS = P.SEED_BITS
NONCE_BYTES = 16
PREFIX = "cardavia-online-daily"
#: How long after midnight a day's tables may still be finished: then the day closes, the
#: tables still open are closed and the seed is published.
GRACE = dt.timedelta(hours=2)


def deadline(day: str) -> dt.datetime:
    """When ``day``'s deal closes for good (local time, as the date itself)."""
    return dt.datetime.combine(dt.date.fromisoformat(day) + dt.timedelta(days=1), dt.time()) + GRACE


class DailyRefusal(ValueError):
    """A play the leaderboard does not take: ``code`` ``played`` or ``record``; one line."""

    def __init__(self, code: str, message: str):
        self.code = code
        super().__init__(message)


def commitment(day: str, game: str, preset: str, seed: int, nonce: str) -> str:
    text = f"{PREFIX}|{day}|{game}|{preset}|{seed}|{nonce}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def key_of(game: str, preset: str) -> str:
    return f"{game}/{preset}"


class DayFiles:
    """Where the days are kept on one process: ``data_dir/daily/<DATE>.json``. A cluster keeps
    them in its shared store instead (game.online.server.cluster.shared.RedisDays), so that every
    process deals one seed per day and knows every account's play."""

    def __init__(self, data_dir: Path):
        self.folder = Path(data_dir) / "daily"
        self._lock = threading.Lock()

    def locked(self, day: str) -> AbstractContextManager[object]:
        """Held around a read-change-write of ``day``."""
        return self._lock

    def load(self, day: str) -> dict[str, Any] | None:
        data, _ = read_json(self.folder / f"{day}.json", expect=dict, what="a daily deals file")
        return data if isinstance(data, dict) else None

    def save(self, day: str, data: dict[str, Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        problem = write_json(self.folder / f"{day}.json", data)
        if problem:
            raise OSError(problem)


class DayStore(Protocol):
    """Where the days' deals and boards are kept: the data folder's files (:class:`DayFiles`)
    or a cluster's shared store (game.online.server.cluster.shared)."""

    def locked(self, day: str) -> AbstractContextManager[object]: ...

    def load(self, day: str) -> dict[str, Any] | None: ...

    def save(self, day: str, data: dict[str, Any]) -> None: ...


class DailyBoard:
    """The server's daily deals and leaderboards, kept by ``days`` (the data folder's files
    unless a cluster's shared store is given)."""

    def __init__(self, data_dir: Path, days: DayStore | None = None, par_iterations: int | None = None):
        self.days = days or DayFiles(data_dir)
        self.par_iterations = par_iterations  # the par's budget (ServerLimits); None: par's own

    def _lock_of(self, day: str) -> AbstractContextManager[object]:
        return self.days.locked(day)

    def _load(self, day: str) -> dict[str, Any]:
        data = self.days.load(day) or {}
        data.setdefault("secrets", {})
        data.setdefault("plays", {})
        data.setdefault("par", {})
        data.setdefault("begun", {})
        data.setdefault("open", {})
        return data

    def _save(self, day: str, data: dict[str, Any]) -> None:
        self.days.save(day, data)

    # ---- the day's deal
    def rules_deal(self, day: str, game: str, preset: str | None) -> tuple[Deal, str]:
        """The day's deal (its secret seed) and the preset word; ValueError for a bad game or preset."""
        offline = daily_deal(game, preset, dt.date.fromisoformat(day))  # the rules, deck, players, options
        with self._lock_of(day):
            data = self._load(day)
            k = key_of(game, offline.preset)
            s = data["secrets"].get(k)
            if s is None:
                s = {"seed": P.new_seed(), "nonce": secrets.token_hex(NONCE_BYTES)}
                data["secrets"][k] = s
                self._save(day, data)
        d = offline.deal
        return Deal(d.game, d.deck, d.players, d.options, int(s["seed"])), offline.preset

    def public(self, day: str, game: str, preset: str | None, now: dt.datetime) -> JsonObject:
        """What anyone may know of the day's deal: the commitment; the seed and nonce once
        the day is closed (:meth:`revealed`)."""
        deal, word = self.rules_deal(day, game, preset)
        data = self._load(day)
        s = data["secrets"][key_of(game, word)]
        closed = self._revealed(day, data, key_of(game, word), now)
        return {
            "date": day,
            "game": game,
            "preset": word,
            "hash": commitment(day, game, word, int(s["seed"]), s["nonce"]),
            "seed": int(s["seed"]) if closed else None,
            "nonce": s["nonce"] if closed else None,
        }

    def revealed(self, day: str, game: str, preset: str, now: dt.datetime) -> bool:
        """Whether the day's seed may be published: the date is past and every table dealt
        from it has ended, or the day's deadline has passed."""
        return self._revealed(day, self._load(day), key_of(game, preset), now)

    @staticmethod
    def _revealed(day: str, data: dict[str, Any], key: str, now: dt.datetime) -> bool:
        if now >= deadline(day):
            return True
        return dt.date.fromisoformat(day) < now.date() and not data["open"].get(key)

    def played(self, day: str, game: str, preset: str, player: str) -> bool:
        """Whether account ``player`` (``p:<id>``) has been dealt or has played the day's deal."""
        data = self._load(day)
        k = key_of(game, preset)
        return player in data["plays"].get(k, {}) or player in data["begun"].get(k, [])

    def begin(self, day: str, game: str, preset: str, player: str, code: str, now: dt.datetime) -> None:
        """Note that account ``player`` has been dealt the day's cards at table ``code``, or
        raise DailyRefusal ``played`` when it has been dealt them already (a deal begun and
        left is the day's play, else a player could look at the cards, leave and be dealt them
        again) or ``closed`` after the day's deadline. The table counts as open (the seed
        stays secret) until :meth:`end`."""
        k = key_of(game, preset)
        with self._lock_of(day):
            data = self._load(day)
            if now >= deadline(day):
                raise DailyRefusal("closed", f"the {day} deal is closed")
            if player in data["plays"].get(k, {}) or player in data["begun"].get(k, []):
                raise DailyRefusal("played", f"this account has already been dealt the {day} deal")
            data["begun"].setdefault(k, []).append(player)
            data["open"].setdefault(k, []).append(code)
            self._save(day, data)

    def end(self, day: str, game: str, preset: str, code: str) -> None:
        """Table ``code`` of the day has ended (played out, closed, or left at the deadline)."""
        k = key_of(game, preset)
        with self._lock_of(day):
            data = self._load(day)
            codes = data["open"].get(k, [])
            if code in codes:
                codes.remove(code)
                self._save(day, data)

    def open_tables(self, day: str, game: str, preset: str) -> list[str]:
        return list(self._load(day)["open"].get(key_of(game, preset), []))

    def par_of(self, day: str, deal: Deal, preset: str) -> float:
        """The day's par (worked out once, then kept with the day)."""
        k = key_of(deal.game, preset)
        kept = self._load(day)["par"].get(k)
        if isinstance(kept, (int, float)) and not isinstance(kept, bool):
            return float(kept)
        value = par(deal, PLAYER_SEAT, iterations=self.par_iterations).value
        with self._lock_of(day):
            data = self._load(day)
            data["par"][k] = value
            self._save(day, data)
        return value

    # ---- plays
    def check_record(self, deal: Deal, events: list[dict]) -> None:
        """DailyRefusal ``record`` unless ``events`` verify and deal the day's seed's first
        deal with the day's deck, players and options."""
        v = verify_events(events)
        if not v.ok:
            raise DailyRefusal("record", f"the record does not verify ({v})")
        head = events[0]
        rules = deal.rules()
        if (
            head.get("seed") != deal.seed
            or head.get("game") != deal.game
            or head.get("deals") != 1
            or head.get("players") != deal.players
            or head.get("deck") != rules.deck.id
            or head.get("options") != dict(rules.options)
        ):
            raise DailyRefusal("record", "the record is not a play of the day's deal with the day's settings")
        mine = next(e for e in Match(rules, deal.seed).start() if e["event"] == "deal")
        theirs = next((e for e in events if e.get("event") == "deal"), None)
        if theirs is None or any(theirs.get(f) != mine[f] for f in ("dealer", "hands", "table", "stock", "trump")):
            raise DailyRefusal("record", "the record's deal is not the one the day's seed deals")

    def accept(
        self,
        day: str,
        game: str,
        preset: str,
        player: str,
        name: str,
        code: str,
        events: list[dict],
        seconds: float,
        now: dt.datetime,
    ) -> dict:
        """Take account ``player``'s play of the day (shown as ``name``) from the server's own
        table ``code``: refuse a second play, a table that is not one of the day's, a record
        that does not verify against the day's seed and settings, and a result after the
        deadline; return the player's line. The table has ended either way."""
        deal, word = self.rules_deal(day, game, preset)
        try:
            k = key_of(game, word)
            if now >= deadline(day):
                raise DailyRefusal("closed", f"the {day} deal closed before this play ended")
            data = self._load(day)
            if player in data["plays"].get(k, {}):
                raise DailyRefusal("played", f"{name} has already played the {day} deal")
            if code not in data["open"].get(k, []) or player not in data["begun"].get(k, []):
                raise DailyRefusal("record", "this table was not dealt the day's deal by this server")
            self.check_record(deal, events)
            points = next(e for e in events if e.get("event") == "deal_end")["points"]
            score = seat_score(deal.rules(), points, PLAYER_SEAT)
            p = self.par_of(day, deal, word)
            line = {
                "name": name,
                "score": score,
                "par": round(p, 3),
                "over_par": round(score - p, 3),
                "seconds": round(float(seconds), 1),
            }
            with self._lock_of(day):
                data = self._load(day)
                plays = data["plays"].setdefault(k, {})
                if player in plays:
                    raise DailyRefusal("played", f"{name} has already played the {day} deal")
                plays[player] = line
                self._save(day, data)
            return line
        finally:
            self.end(day, game, word, code)

    def leaderboard(self, day: str, game: str, preset: str | None = None) -> list[dict]:
        """The day's lines, best first: points over par, then time."""
        word = self.preset_word(day, game, preset)
        lines = list(self._load(day)["plays"].get(key_of(game, word), {}).values())
        return sorted(lines, key=lambda ln: (-ln["over_par"], ln["seconds"], ln["name"].casefold()))

    def line_of(self, day: str, game: str, preset: str | None, player: str) -> dict | None:
        """Account ``player``'s line of the day, or None."""
        word = self.preset_word(day, game, preset)
        return self._load(day)["plays"].get(key_of(game, word), {}).get(player)

    @staticmethod
    def preset_word(day: str, game: str, preset: str | None) -> str:
        try:
            return daily_deal(game, preset, dt.date.fromisoformat(day)).preset
        except ValueError:
            return preset or STANDARD
