"""The club server's daily deal (``main.py serve``): one secret deal per date, game and preset.

Unlike the offline daily deal (game.daily, derived from the date so anyone can compute it),
the server's deal comes from a secret: a 62-bit seed and a 128-bit nonce drawn with
:mod:`secrets` when the day is first asked for, kept in the data folder
(``daily/<YYYY-MM-DD>.json``) and never sent before the day closes. What is published while
the day is open is the commitment, SHA-256 of ``cardavia-online-daily|DATE|GAME|PRESET|SEED|NONCE``
(hex); once the date is past, the seed and the nonce are published too, so anyone can check
the commitment and verify every record of the day (``verify``, and that its first deal is
the one the seed deals). A 62-bit seed cannot be searched from the cards a player sees; the
nonce keeps the commitment from being searched at all.

Each player (by the name given in ``hello``, compared case-folded) plays a day's deal once.
The server plays it at a table of its own — the player at seat 0, the house bots of
game.par elsewhere — and takes the finished record through :meth:`DailyBoard.accept`, which
refuses a second play and a record that does not verify against the day's seed. Par is
game.par's, worked out once per day and deal. The leaderboard orders by points over par
(higher first), then by time (quicker first).
"""
from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import threading
from pathlib import Path
from typing import Any

from game.daily import PLAYER_SEAT, STANDARD, daily_deal
from game.match import Match
from game.par import Deal, par, seat_score
from game.storage import read_json, write_json
from game.verify import verify_events

SEED_BITS = 62
NONCE_BYTES = 16
PREFIX = "cardavia-online-daily"


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


class DailyBoard:
    """The server's daily deals and leaderboards, in ``data_dir/daily``."""

    def __init__(self, data_dir: Path):
        self.folder = Path(data_dir) / "daily"
        self._lock = threading.Lock()

    def _path(self, day: str) -> Path:
        return self.folder / f"{day}.json"

    def _load(self, day: str) -> dict[str, Any]:
        data, _ = read_json(self._path(day), expect=dict, what="a daily deals file")
        data = data if isinstance(data, dict) else {}
        data.setdefault("secrets", {})
        data.setdefault("plays", {})
        data.setdefault("par", {})
        data.setdefault("begun", {})
        return data

    def _save(self, day: str, data: dict[str, Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        problem = write_json(self._path(day), data)
        if problem:
            raise OSError(problem)

    # ---- the day's deal
    def rules_deal(self, day: str, game: str, preset: str | None) -> tuple[Deal, str]:
        """The day's deal (its secret seed) and the preset word; ValueError for a bad game or preset."""
        offline = daily_deal(game, preset, dt.date.fromisoformat(day))  # the rules, deck, players, options
        with self._lock:
            data = self._load(day)
            k = key_of(game, offline.preset)
            s = data["secrets"].get(k)
            if s is None:
                s = {"seed": secrets.randbits(SEED_BITS), "nonce": secrets.token_hex(NONCE_BYTES)}
                data["secrets"][k] = s
                self._save(day, data)
        d = offline.deal
        return Deal(d.game, d.deck, d.players, d.options, int(s["seed"])), offline.preset

    def public(self, day: str, game: str, preset: str | None, today: dt.date) -> dict[str, Any]:
        """What anyone may know of the day's deal: the commitment; the seed and nonce once
        the day is closed (``day`` before ``today``)."""
        deal, word = self.rules_deal(day, game, preset)
        s = self._load(day)["secrets"][key_of(game, word)]
        closed = dt.date.fromisoformat(day) < today
        return {"date": day, "game": game, "preset": word,
                "hash": commitment(day, game, word, int(s["seed"]), s["nonce"]),
                "seed": int(s["seed"]) if closed else None, "nonce": s["nonce"] if closed else None}

    def played(self, day: str, game: str, preset: str, name: str) -> bool:
        return name.casefold() in self._load(day)["plays"].get(key_of(game, preset), {})

    def begin(self, day: str, game: str, preset: str, name: str) -> None:
        """Note that ``name`` has been dealt the day's cards, or raise DailyRefusal
        ``played`` when that name has been dealt them already: a deal begun and left is the
        day's play, else a player could look at the cards, leave and be dealt them again."""
        k, who = key_of(game, preset), name.casefold()
        with self._lock:
            data = self._load(day)
            if who in data["plays"].get(k, {}) or who in data["begun"].get(k, []):
                raise DailyRefusal("played", f"{name} has already been dealt the {day} deal")
            data["begun"].setdefault(k, []).append(who)
            self._save(day, data)

    def par_of(self, day: str, deal: Deal, preset: str) -> float:
        """The day's par (worked out once, then kept with the day)."""
        k = key_of(deal.game, preset)
        kept = self._load(day)["par"].get(k)
        if isinstance(kept, (int, float)) and not isinstance(kept, bool):
            return float(kept)
        value = par(deal, PLAYER_SEAT).value
        with self._lock:
            data = self._load(day)
            data["par"][k] = value
            self._save(day, data)
        return value

    # ---- plays
    def check_record(self, deal: Deal, events: list[dict]) -> None:
        """DailyRefusal ``record`` unless ``events`` verify and deal the day's seed's first deal."""
        v = verify_events(events)
        if not v.ok:
            raise DailyRefusal("record", f"the record does not verify ({v})")
        head = events[0]
        if (head.get("seed") != deal.seed or head.get("game") != deal.game or head.get("deals") != 1
                or head.get("players") != deal.players):
            raise DailyRefusal("record", "the record is not a play of the day's deal")
        mine = next(e for e in Match(deal.rules(), deal.seed).start() if e["event"] == "deal")
        theirs = next((e for e in events if e.get("event") == "deal"), None)
        if theirs is None or any(theirs.get(f) != mine[f] for f in ("dealer", "hands", "table", "stock", "trump")):
            raise DailyRefusal("record", "the record's deal is not the one the day's seed deals")

    def accept(self, day: str, game: str, preset: str, name: str, events: list[dict], seconds: float) -> dict:
        """Take one player's play of the day: refuse a second one and a record that does
        not verify against the day's seed; return the player's line."""
        deal, word = self.rules_deal(day, game, preset)
        if self.played(day, game, word, name):
            raise DailyRefusal("played", f"{name} has already played the {day} deal")
        self.check_record(deal, events)
        points = next(e for e in events if e.get("event") == "deal_end")["points"]
        score = seat_score(deal.rules(), points, PLAYER_SEAT)
        p = self.par_of(day, deal, word)
        line = {"name": name, "score": score, "par": round(p, 3), "over_par": round(score - p, 3),
                "seconds": round(float(seconds), 1)}
        with self._lock:
            data = self._load(day)
            plays = data["plays"].setdefault(key_of(game, word), {})
            if name.casefold() in plays:
                raise DailyRefusal("played", f"{name} has already played the {day} deal")
            plays[name.casefold()] = line
            self._save(day, data)
        return line

    def leaderboard(self, day: str, game: str, preset: str | None = None) -> list[dict]:
        """The day's lines, best first: points over par, then time."""
        word = preset or STANDARD
        try:
            word = daily_deal(game, preset, dt.date.fromisoformat(day)).preset
        except ValueError:
            pass
        lines = list(self._load(day)["plays"].get(key_of(game, word), {}).values())
        return sorted(lines, key=lambda ln: (-ln["over_par"], ln["seconds"], ln["name"].casefold()))
