"""The club's client side, headless: the player's account on each server (its secret kept in
the settings, like the seat tokens), ``online quick`` and ``online leaderboard``.

  python main.py online quick --server URL --game G [--preset P] --bot LEVEL [--name NAME]
      makes (or takes) the player's account on the server, waits for a quick match, plays it
      with the bot and prints ``opponents: …``, ``rated: yes|no``, the final score, ``record:
      PATH`` and ``rating: OLD -> NEW``; a new account's recovery code is printed once.
  python main.py online leaderboard --server URL --game G
      prints the game's leaderboard, one line a player, and the computers' published ratings.

Exit codes as ``online join``: 0 done, 1 the server unreachable or no match in time, 2 a bad
command line (including the server's refusals of it: unknown game, a taken name).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any, TextIO

from game.online.client.client import RemoteSession
from game.online.wire import protocol as P
from game.online.wire.links import parse_address
from game.online.wire.messages import Handler, as_int, declared
from game.rules.vocabulary import JsonObject

_SETTINGS_LOCK = threading.Lock()
#: How many accounts (server and name) the settings keep.
MAX_ACCOUNTS = 40
#: Seconds to wait for a quick match on top of the server's own wait.
QUICK_MARGIN = 60.0


# ------------------------------------------------------------------------------ accounts kept
def account_key(url: str, name: str) -> str:
    """Where an account is kept: one per server and name (``ws://host:port#anna``)."""
    return f"{url}#{name.casefold()}"


def account_secret(extra: Mapping[str, object], url: str, name: str) -> str | None:
    """The kept secret of ``name`` on the server at ``url``, or None."""
    kept = kept_accounts(extra).get(account_key(url, name))
    return kept["secret"] if kept is not None and kept["name"].casefold() == name.casefold() else None


def kept_accounts(extra: Mapping[str, object]) -> dict[str, dict[str, str]]:
    """The accounts in the settings' ``online`` block: account_key(url, name) → {"name",
    "secret"}, checked."""
    online = extra.get("online") if isinstance(extra, dict) else None
    accounts = online.get("accounts") if isinstance(online, dict) else None
    out: dict[str, dict[str, str]] = {}
    if isinstance(accounts, dict):
        for url, a in list(accounts.items())[-MAX_ACCOUNTS:]:
            if (
                isinstance(url, str)
                and len(url) <= 300
                and isinstance(a, dict)
                and isinstance(a.get("name"), str)
                and isinstance(a.get("secret"), str)
                and len(a["secret"]) == P.TOKEN_BYTES * 2
            ):
                out[url] = {"name": a["name"][: P.NAME_MAX], "secret": a["secret"]}
    return out


#: Club servers the window lists (name, address).
MAX_SERVERS = 20


def kept_servers(extra: Mapping[str, object]) -> list[dict[str, str]]:
    """The club servers of the window's list: [{"name", "address"}], checked."""
    online = extra.get("online") if isinstance(extra, dict) else None
    servers = online.get("servers") if isinstance(online, dict) else None
    out = []
    for s in servers if isinstance(servers, list) else []:
        if (
            isinstance(s, dict)
            and isinstance(s.get("name"), str)
            and isinstance(s.get("address"), str)
            and 0 < len(s["address"]) <= 300
        ):
            out.append({"name": s["name"][:40], "address": s["address"]})
    return out[:MAX_SERVERS]


def keep_account(extra: dict[str, object], url: str, name: str, secret: str) -> None:
    """Keep the account ``name`` of ``url`` in the settings' ``online`` block (the latest last)."""
    kept = extra.get("online")
    online = kept if isinstance(kept, dict) else {}
    accounts = kept_accounts(extra)
    key = account_key(url, name)
    accounts.pop(key, None)
    accounts[key] = {"name": name, "secret": secret}
    extra["online"] = {**online, "accounts": dict(list(accounts.items())[-MAX_ACCOUNTS:])}


class ClubSession(RemoteSession):
    """A seat of a club table: the greeting names the player's account before joining, so
    the server can rate the match; keeps the ``rated`` message."""

    def __init__(
        self,
        url: str,
        code: str,
        name: str,
        token: str | None,
        secret: str,
        plates: list[dict] | None = None,
        **kw: Any,
    ):
        self.secret = secret
        self.rated: JsonObject | None = None
        self.watchers = 0
        #: Names (case-folded) this seat's connection mutes, as the server confirmed.
        self.muted: set[str] = set()
        #: The server's answers to mute / block / report, (kind, name), not yet shown.
        self.answers: list[tuple[str, str]] = []
        #: The server's refusals of a manners message (error codes), not yet shown.
        self.refusals: list[str] = []
        #: Chat lines received and not yet shown: (seat, text).
        self.chats: list[tuple[int, str]] = []
        #: Per seat, the name and rating the quick match announced (the plates show the rating).
        self.plates = plates or []
        super().__init__(url, code, name, token, **kw)

    @staticmethod
    def _rating(p: dict) -> str:
        return f"{p['rating']}{'?' if p.get('provisional') else ''}"

    def seat_ratings(self) -> dict[int, str]:
        """The rating each seat's plate shows, by seat (``1000?``, a computer's published
        ``1760``): beside the name, never in it — the names go into sentences."""
        return {
            i: self._rating(p)
            for i, p in enumerate(self.plates)
            if isinstance(p, dict) and isinstance(p.get("rating"), int)
        }

    @property
    def own_rating(self) -> str | None:
        """This player's rating as the plate shows it, when the server announced it."""
        seat = self.human_seat
        return self.seat_ratings().get(seat) if seat is not None else None

    def _greeting(self) -> list[dict]:
        out = super()._greeting()
        out.insert(1, {"type": "account", "name": self.name, "secret": self.secret})
        return out

    def _handlers(self) -> dict[str, Handler]:
        return {
            **super()._handlers(),
            "rated": self._on_rated,
            "watchers": self._on_watchers,
            "account": self._on_account,
            "muted": self._on_muted,
            "blocked": self._on_blocked,
            "reported": self._on_reported,
            "chat": self._on_chat,
        }

    def _on_rated(self, m: JsonObject) -> None:
        self.rated = m

    def _on_watchers(self, m: JsonObject) -> None:
        self.watchers = as_int(m["count"])

    # ---- manners (docs/ONLINE.md, "Manners"): the answers land in ``answers``, latest last
    #: Whether the server takes free-text chat (``serve --chat``; its ``account`` reply says).
    chat_allowed = False

    def _on_account(self, m: JsonObject) -> None:
        self.chat_allowed = m.get("chat") is True

    def mute(self, name: str, muted: bool = True) -> bool:
        return self.conn.send({"type": "mute", "name": name, "muted": muted})

    def block(self, name: str) -> bool:
        return self.conn.send({"type": "block", "name": name})

    def report(self, name: str, reason: str) -> bool:
        return self.conn.send({"type": "report", "name": name, "table": self.code, "reason": reason})

    def chat(self, text: str) -> bool:
        return self.conn.send({"type": "chat", "text": text})

    #: The server's refusals the Players panel says in words (the table shows the others).
    MANNERS_REFUSALS = frozenset({"chat_off", "rate", "schema", "no_player", "account", "config", "not_seated"})

    def _on_error(self, m: JsonObject) -> None:
        super()._on_error(m)
        code = str(m.get("code"))
        if code in self.MANNERS_REFUSALS:
            self.refusals.append(code)
            del self.refusals[:-10]
            if code == "chat_off":
                self.chat_allowed = False

    def _on_muted(self, m: JsonObject) -> None:
        name = str(m["name"])[: P.NAME_MAX]
        (self.muted.add if m.get("muted") else self.muted.discard)(name.casefold())
        self.answers.append(("muted" if m.get("muted") else "unmuted", name))

    def _on_blocked(self, m: JsonObject) -> None:
        name = str(m["name"])[: P.NAME_MAX]
        self.muted.add(name.casefold())
        self.answers.append(("blocked", name))

    def _on_reported(self, m: JsonObject) -> None:
        self.answers.append(("reported", str(m["name"])[: P.NAME_MAX]))

    def _on_chat(self, m: JsonObject) -> None:
        seat, text = m["seat"], m["text"]
        if isinstance(seat, int) and isinstance(text, str) and text.strip():
            self.chats.append((seat, " ".join(text.split())[: P.CHAT_MAX]))
            del self.chats[:-20]


# ------------------------------------------------------------------------------ a connection
class Talk:
    """A short synchronous exchange with a server (account, quick, leaderboard)."""

    def __init__(self, url: str, name: str, timeout: float = 10.0):
        from websockets.sync.client import connect

        self.ws = connect(
            url, open_timeout=timeout, close_timeout=1, max_size=2**22, compression=None, proxy=None, legacy=True
        )
        self.timeout = timeout
        self.send({"type": "hello", "version": P.PROTOCOL_VERSION, "name": name})
        self.expect("welcome")

    def send(self, message: dict) -> None:
        self.ws.send(P.encode(message))

    def expect(self, *kinds: str, timeout: float | None = None) -> dict:
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {'/'.join(kinds)} from the server in time")
            m = json.loads(self.ws.recv(timeout=left))
            kind = declared(m).type  # MessageError: a type the protocol does not have
            if kind in kinds:
                return m
            if kind == "error":
                raise ServerRefusal(m.get("code", ""), m.get("message", ""))

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001 - closing is best-effort
            pass


class ServerRefusal(Exception):
    def __init__(self, code: str, message: str):
        self.code = code
        super().__init__(message)


def sign_in(talk: Talk, url: str, name: str, out: TextIO) -> tuple[str, str]:
    """The player's (name, secret) on ``url``: the kept one, or a new account (its recovery
    code printed once) kept in the settings."""
    from game.services.settings import load_settings, save_settings, settings_path
    from game.services.storage import locked

    # Several players at once (bots in one process or in several) read and write in turn: a
    # lock of its own around the read and the write (save_settings takes the settings' lock).
    with _SETTINGS_LOCK, locked(settings_path().with_name("online-accounts")):
        settings = load_settings(default_language="en").settings
        secret = account_secret(settings.extra, url, name)
        if secret is not None:
            talk.send({"type": "account", "name": name, "secret": secret})
            m = talk.expect("account")
            return m["name"], secret
        talk.send({"type": "account", "name": name, "secret": None})
        m = talk.expect("account")
        keep_account(settings.extra, url, m["name"], m["secret"])
        save_settings(settings)
    print(f"account: {m['name']} (new; recovery code, shown once: {m['recovery']})", file=out, flush=True)
    return m["name"], m["secret"]


def _plate(p: dict) -> str:
    mark = "?" if p.get("provisional") else ""
    if p.get("level"):
        return f"computer {p['level']} ({p['rating']})"
    return f"{p.get('name')} ({p.get('rating')}{mark})"


# ------------------------------------------------------------------------------ the commands
def quick(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    from game.online.client.headless import _checked_name, play_seat

    out, err = out or sys.stdout, err or sys.stderr
    url, _ = parse_address(args.server)
    name = _checked_name(args.name if args.name is not None else f"{args.bot} bot")
    if not 0 < args.timeout <= 86400:
        raise ValueError("--timeout must be more than 0 and at most 86400 seconds")
    try:
        talk = Talk(url, name)
    except Exception as e:  # noqa: BLE001 - OSError, InvalidHandshake, TimeoutError
        print(f"cardavia online quick: cannot reach {url}: {e}", file=err)
        return 1
    try:
        try:
            name, secret = sign_in(talk, url, name, out)
            talk.send({"type": "quick", "game": args.game, "preset": args.preset})
            waiting = talk.expect("quick_waiting")
            found = talk.expect("quick_found", timeout=float(waiting.get("wait") or 30) + QUICK_MARGIN)
        except ServerRefusal as e:
            print(f"cardavia online quick: {e}", file=err)
            return 2 if e.code in ("config", "schema", "name_taken", "bad_secret", "account") else 1
        except (TimeoutError, OSError) as e:
            print(f"cardavia online quick: {e}", file=err)
            return 1
    finally:
        talk.close()
    mine = found["seat"]
    others = [_plate(p) for i, p in enumerate(found["seats"]) if i != mine]
    print(
        f"opponents: {', '.join(others)}" + (" (the computer filled the wait)" if found.get("filled") else ""), file=out
    )
    print(f"rated: {'yes' if found.get('rated') else 'no'}", file=out, flush=True)
    session = ClubSession(url, found["code"], name, found["token"], secret)
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    code = play_seat(session, args.bot, seed, timeout=args.timeout, out=out, err=err)
    rated = session.rated
    if code == 0 and rated is not None and rated.get("rated"):
        mark = "?" if rated.get("provisional") else ""
        print(f"rating: {rated['old']} -> {rated['new']}{mark} ({rated['result']})", file=out, flush=True)
    elif code == 0:
        print("rating: unchanged (not rated)", file=out, flush=True)
    return code


def leaderboard(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    url, _ = parse_address(args.server)
    try:
        talk = Talk(url, "leaderboard")
    except Exception as e:  # noqa: BLE001
        print(f"cardavia online leaderboard: cannot reach {url}: {e}", file=err)
        return 1
    try:
        talk.send({"type": "leaderboard", "game": args.game})
        board = talk.expect("leaderboard")
    except ServerRefusal as e:
        print(f"cardavia online leaderboard: {e}", file=err)
        return 2
    except (TimeoutError, OSError) as e:
        print(f"cardavia online leaderboard: {e}", file=err)
        return 1
    finally:
        talk.close()
    print(f"leaderboard: {board['game']} ({len(board['lines'])} players; ? = provisional)", file=out)
    for line in board["lines"]:
        mark = "?" if line["provisional"] else ""
        matches = f"{line['matches']} match{'es' if line['matches'] != 1 else ''}"
        print(f"{line['rank']:>4}. {line['name']:<20} {line['rating']:>5}{mark:1} {matches:>12}", file=out)
    computers = ", ".join(f"{lvl} {r}" for lvl, r in board["computers"].items())
    print(f"computers: {computers}", file=out, flush=True)
    return 0


def add_parsers(osub: argparse._SubParsersAction) -> None:
    from game.ai.bots import bot_names

    q = osub.add_parser("quick", help="play one quick match on a club server with a bot in your seat")
    q.add_argument("--server", required=True, help="ws://host:port, wss://… or host:port")
    q.add_argument("--game", required=True)
    q.add_argument("--preset", help="the house rules (default: the game's first)")
    q.add_argument("--bot", required=True, choices=bot_names(), help="who plays your seat")
    q.add_argument("--name", help="your name on the server (default: the bot's)")
    q.add_argument("--seed", type=int, help="the bot's seed (default: random)")
    q.add_argument("--timeout", type=float, default=1800.0, help="give up after this many seconds (default 1800)")
    b = osub.add_parser("leaderboard", help="print a game's leaderboard on a club server")
    b.add_argument("--server", required=True, help="ws://host:port, wss://… or host:port")
    b.add_argument("--game", required=True)


__all__ = [
    "ClubSession",
    "account_key",
    "account_secret",
    "add_parsers",
    "keep_account",
    "kept_accounts",
    "kept_servers",
    "leaderboard",
    "quick",
]
