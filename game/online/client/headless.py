"""Headless online play, for tests and bots: ``online host`` makes a table, ``online join``
plays a friend's seat with a bot until the match ends.

  python main.py online host --server URL --game G --players N [--deck D] [--option K=V …]
                             --seats friend,ai:hard,friend,ai:normal [--pause-seconds S]
                             [--no-ai-takeover] [--name N]
      prints ``code: <CODE>``, ``link: cardavia://…``, ``host: <host token>`` and one
      ``seat <i>: <token>`` line per friend's seat; exit 0.
  python main.py online join --server URL [--code C] [--token T] [--name N] --bot B
                             [--seed S] [--timeout S] [--retry-seconds S]
      takes the next free friend's seat (or the token's), prints ``seat <i>: <token>``,
      plays it with bot B until the match ends — reconnecting by itself, with its token,
      when the server goes away and comes back — and prints ``final score: totals […],
      winner team W (your side)`` and ``record: <path>``; exit 0.

``--server`` takes ws:// and wss:// URLs, ``host:port`` and ``cardavia://host:port/CODE``
links (then ``--code`` may be left out). Exit codes: 0 done, 1 the server could not be
reached or the match did not end in time, 2 a bad command line (one line on stderr; a
table code the server does not know, a full table and a refused configuration count as
bad arguments too).

The bot sees only what the seat received: game.online.wire.seatview rebuilds the seat's view
from its redacted events (a determinized deal agreeing with everything the seat saw gives
exactly the rules' own view), and the bot chooses among the legal actions the server sent.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
import time
from typing import TextIO

from game.online.client.client import RETRY_FOR, RemoteSession, create_table
from game.online.wire import protocol as P
from game.online.wire.links import check_code, make_link, parse_address
from game.online.wire.seatview import SeatReplay, Undeterminable
from game.rules.base import Action, Event, GameRules

#: Seconds a headless bot waits for its match to end before giving up (exit 1).
JOIN_TIMEOUT = 1800.0
#: Refusals of the bot's choices tolerated before giving up (a refusal means the server and
#: this client disagree about the position: it should never happen).
MAX_REFUSALS = 20
#: Server error codes that mean the command line was wrong (exit 2).
ARGUMENT_ERRORS = frozenset({"no_table", "full", "bad_token", "config", "schema", "version"})


# ------------------------------------------------------------------------------ the bot
class BotPlayer:
    """A bot playing one seat from the seat's redacted stream."""

    def __init__(self, name: str, rules: GameRules, seat: int, seed: int):
        from game.ai.bots import make_bot

        self.rules = rules
        self.seat = seat
        self.seed = seed
        self.bot = make_bot(name, rules, seat, seed)
        self.replay = SeatReplay(rules, seat)
        #: Decisions taken without a view (no determinization found): chosen at random.
        self.fallbacks = 0

    def choose(self, events: list[Event], legal: list[Action], decision: int) -> Action:
        if not legal:
            raise RuntimeError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        try:
            view = self.replay.view(events)
        except Undeterminable:
            self.fallbacks += 1
            return random.Random(f"{self.seed}:{self.seat}:{decision}").choice(legal)
        self.bot.begin_decision(decision)
        action = self.bot.choose(view, list(legal))
        if action not in legal:  # the bot and the server disagree: the server's list wins
            self.fallbacks += 1
            return random.Random(f"{self.seed}:{self.seat}:{decision}").choice(legal)
        return action


def play_seat(
    session: RemoteSession,
    bot: str,
    seed: int,
    timeout: float = JOIN_TIMEOUT,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Play ``session``'s seat with ``bot`` until the match is over and the server has said
    where its record is. Returns the exit code (0 done, 1 gave up, 2 refused by the server
    for a reason the caller's arguments caused)."""
    out = out or sys.stdout
    err = err or sys.stderr
    deadline = time.monotonic() + timeout
    player: BotPlayer | None = None
    announced = False
    refusals = 0
    try:
        while True:
            if time.monotonic() > deadline:
                print(f"cardavia online join: the match did not end within {timeout:g} s", file=err)
                return 1
            session.wait(0.25)
            if session.failed_code == "no_show":  # an event's table closed for a no-show: this match is over
                print(f"no-show: {session.failed}", file=out, flush=True)
                return 0
            if session.failed is not None:
                print(f"cardavia online join: {session.failed}", file=err)
                return 2 if session.failed_code in ARGUMENT_ERRORS else 1
            if not announced and session.human_seat is not None and session.token:
                print(f"seat {session.human_seat}: {session.token}", file=out, flush=True)
                announced = True
            if session.over:
                if session.record_path:
                    print(final_score(session), file=out)
                    print(f"record: {session.record_path}", file=out, flush=True)
                    return 0
                continue
            refusal = session.take_refusal()
            if refusal is not None:
                refusals += 1
                print(f"cardavia online join: refused ({refusal.rule}): {refusal}", file=err, flush=True)
                if refusals > MAX_REFUSALS:
                    print("cardavia online join: too many refusals, giving up", file=err)
                    return 1
            if getattr(session, "covered", False):
                session.take_over()  # a program at the seat is never away: it plays on itself
            seat = session.human_seat
            if session.human_to_act and session.rules is not None and seat is not None:
                if player is None or player.seat != seat or player.rules is not session.rules:
                    player = BotPlayer(bot, session.rules, seat, seed)
                decision = session.decision or 0
                action = player.choose(session.match.events, session.legal_actions(), decision)
                try:
                    session.submit(action)
                except Exception:  # noqa: BLE001 - the connection dropped meanwhile: asked again after the rejoin
                    continue
    finally:
        session.close()


def final_score(session: RemoteSession) -> str:
    """The match's end as the record says it: "final score: totals [11, 7], winner team 0
    (your side)" — or "a draw"."""
    end = next((e for e in reversed(session.match.events) if e.get("event") == "match_end"), None)
    if end is None:
        return "final score: unknown (the record has no match_end)"
    totals, winner = end.get("totals"), end.get("winner")
    if winner is None:
        return f"final score: totals {totals}, a draw"
    rules, seat = session.rules, session.human_seat
    mine = rules is not None and seat is not None and rules.team_of(seat) == winner
    return f"final score: totals {totals}, winner team {winner} ({'your side' if mine else 'the other side'})"


# ------------------------------------------------------------------------------ the command line
def add_parser(sub: argparse._SubParsersAction, parser_class: type) -> argparse._SubParsersAction:
    """``online host`` and ``online join`` under ``sub`` (game/online/cli.py's sub-commands)."""
    from game.ai.bots import bot_names

    o = sub.add_parser("online", help="host or join a table on a server, headless")
    osub = o.add_subparsers(dest="online_command", required=True, parser_class=parser_class)
    h = osub.add_parser("host", help="make a table on a server; print its code and the seats' tokens")
    h.add_argument("--server", required=True, help="ws://host:port, wss://…, host:port or a cardavia:// link")
    h.add_argument("--game", required=True)
    h.add_argument("--players", type=int, required=True)
    h.add_argument("--deck")
    h.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option, e.g. target=11 (repeatable)"
    )
    h.add_argument(
        "--seats", required=True, help=f"one per seat, comma-separated: friend or ai:<{'|'.join(P.AI_LEVELS)}>"
    )
    h.add_argument(
        "--pause-seconds", type=int, default=60, help="how long a dropped friend's seat holds the table up (default 60)"
    )
    h.add_argument(
        "--no-ai-takeover",
        action="store_true",
        help="after the pause, wait for the friend instead of letting a computer play",
    )
    h.add_argument("--name", default="host", help="the host's name (default host)")
    h.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for the server (default 10)")
    j = osub.add_parser("join", help="play a friend's seat with a bot until the match ends")
    j.add_argument("--server", required=True, help="ws://host:port, wss://…, host:port or a cardavia:// link")
    j.add_argument("--code", help="the table code (or give a cardavia:// link as --server)")
    j.add_argument("--token", help="a seat token: (re)take that seat")
    j.add_argument("--name", help="the player's name (default: the bot's)")
    j.add_argument("--bot", required=True, choices=bot_names(), help="who plays the seat")
    j.add_argument("--seed", type=int, help="the bot's seed (default: random)")
    j.add_argument(
        "--timeout",
        type=float,
        default=JOIN_TIMEOUT,
        help=f"give up when the match has not ended after this many seconds (default {JOIN_TIMEOUT:g})",
    )
    j.add_argument(
        "--retry-seconds",
        type=float,
        default=RETRY_FOR,
        help=f"how long to keep reconnecting after the server goes away (default {RETRY_FOR:g})",
    )
    return osub


def _parse_option(text: str) -> tuple[str, str]:
    if "=" not in text:
        raise ValueError(f"--option {text!r} must look like NAME=VALUE")
    k, v = text.split("=", 1)
    return k.strip(), v.strip()


def _checked_name(text: str) -> str:
    try:
        return str(P.check_message({"type": "hello", "version": P.PROTOCOL_VERSION, "name": text})["name"])
    except P.ProtocolError:
        raise ValueError(f"--name must be 1 to {P.NAME_MAX} printable characters") from None


def host(args: argparse.Namespace) -> int:
    from game.config import get_config
    from game.rulesets import make_rules

    url, _ = parse_address(args.server)
    name = _checked_name(args.name)
    config = get_config()
    if args.game not in config.games:
        raise ValueError(f"unknown game {args.game!r} (games: {', '.join(config.games)})")
    options = config.game(args.game).options_from_text(dict(_parse_option(o) for o in args.option))
    rules = make_rules(args.game, args.deck, args.players, options, config=config)
    seats = [s.strip() for s in args.seats.split(",")]
    if len(seats) != rules.players:
        raise ValueError(f"--seats names {len(seats)} seats for {rules.players} players")
    kinds = [P.parse_seat(s)[0] for s in seats]
    if "friend" not in kinds:
        raise ValueError("--seats needs at least one friend's seat")
    if not 0 <= args.pause_seconds <= P.MAX_PAUSE_SECONDS:
        raise ValueError(f"--pause-seconds must be 0 to {P.MAX_PAUSE_SECONDS}")
    if not 0 < args.timeout <= 600:
        raise ValueError("--timeout must be more than 0 and at most 600 seconds")
    try:
        created = create_table(
            url,
            name,
            args.game,
            rules.players,
            seats,
            deck=args.deck,
            options=options,
            pause_seconds=args.pause_seconds,
            ai_takes_over=not args.no_ai_takeover,
            timeout=args.timeout,
        )
    except ConnectionError as e:
        print(f"cardavia online host: {e}", file=sys.stderr)
        return 1
    code = created["code"]
    parts = url.split("://", 1)[1].split("/", 1)[0]
    host_part, _, port = parts.rpartition(":")
    print(f"code: {code}")
    print(f"link: {make_link(host_part.strip('[]'), int(port), code, tls=url.startswith('wss:'))}")
    print(f"host: {created['host_token']}")
    for seat, token in sorted(created.get("tokens", {}).items(), key=lambda kv: int(kv[0])):
        print(f"seat {seat}: {token}")
    sys.stdout.flush()
    return 0


def join(args: argparse.Namespace) -> int:
    url, link_code = parse_address(args.server)
    if args.code is None and link_code is None:
        raise ValueError("--code is needed (or a cardavia://host:port/CODE link as --server)")
    code = check_code(args.code) if args.code is not None else link_code
    name = _checked_name(args.name if args.name is not None else f"{args.bot} bot")
    token = args.token
    if token is not None:
        try:
            P.check_message({"type": "join", "code": code, "name": name, "token": token})
        except P.ProtocolError:
            raise ValueError(f"--token must be {P.TOKEN_BYTES * 2} hex digits") from None
    if not 0 < args.timeout <= 86400:
        raise ValueError("--timeout must be more than 0 and at most 86400 seconds")
    if not 0 <= args.retry_seconds <= 86400:
        raise ValueError("--retry-seconds must be 0 to 86400")
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    session = RemoteSession(url, code, name, token, retry_for=args.retry_seconds, first_connect_for=args.retry_seconds)
    return play_seat(session, args.bot, seed, timeout=args.timeout)


def run(args: argparse.Namespace) -> int:
    """``online host`` / ``online join``; ValueError (one line) for a bad argument."""
    if args.online_command == "host":
        return host(args)
    return join(args)


__all__ = ["BotPlayer", "add_parser", "host", "join", "play_seat", "run"]
