"""The online sub-commands: ``serve`` (engineer A) and ``online host`` / ``online join`` (B).

  python main.py serve [--host 127.0.0.1] [--port 7420] [--data DIR] [--workers N]
                       [--certfile F --keyfile F] [--redis URL --database URL [--public-url URL]]

Bad arguments: one line on stderr, exit code 2 (as game/services/cli.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error and exit code 2 (no usage dump)."""

    def error(self, message: str):  # noqa: D401
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


# ---------------------------------------------------------------------------------- serve
def _add_serve(sub: argparse._SubParsersAction) -> None:
    from game.online.wire.protocol import DEFAULT_PORT

    s = sub.add_parser("serve", help="run a table server (players join with 'Play online')")
    s.add_argument(
        "--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1; 0.0.0.0 for every interface)"
    )
    s.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free one)"
    )
    s.add_argument("--data", help="folder for the tables' records (default: the game's data folder)")
    s.add_argument("--workers", type=int, default=1, help="processes the computer seats think in (default 1)")
    s.add_argument("--certfile", help="TLS certificate chain (PEM): serve wss://")
    s.add_argument("--keyfile", help="TLS private key (PEM), with --certfile")
    from game.online.server.limits import ServerLimits

    d = ServerLimits()
    s.add_argument(
        "--max-connections",
        type=int,
        default=d.max_connections,
        help=f"connections at once (default {d.max_connections}; lowered to fit the open-files limit)",
    )
    s.add_argument(
        "--tables-per-address",
        type=int,
        default=d.tables_per_address,
        help=f"open tables one address may make (default {d.tables_per_address})",
    )
    s.add_argument(
        "--tables-per-player",
        type=int,
        default=d.tables_per_player,
        help=f"open tables one player may make (default {d.tables_per_player})",
    )
    s.add_argument(
        "--idle-close",
        type=float,
        default=d.idle_close_seconds,
        metavar="SECONDS",
        help=f"close a lobby nobody is in after this long (default {d.idle_close_seconds:g} s)",
    )
    s.add_argument(
        "--bot-after",
        type=float,
        default=d.bot_after,
        metavar="SECONDS",
        help=f"the computer plays a silent or gone player's seat after this long (default {d.bot_after:g} s)",
    )
    s.add_argument(
        "--quick-wait",
        type=float,
        default=d.quick_wait,
        metavar="SECONDS",
        help=f"quick match: the computer fills after this long with no person (default {d.quick_wait:g} s)",
    )
    s.add_argument(
        "--fill-levels",
        default=",".join(d.fill_levels),
        metavar="LEVELS",
        help=f"computer levels a quick match is filled with, nearest the player's rating "
        f"(default {','.join(d.fill_levels)})",
    )
    s.add_argument(
        "--redis",
        metavar="URL",
        help="a cluster: share the tables through Redis (redis://host:port/db), with --database",
    )
    s.add_argument(
        "--database",
        metavar="URL",
        help="the club's players and ratings in PostgreSQL (postgresql://user@host:port/db)",
    )
    s.add_argument(
        "--public-url",
        metavar="URL",
        help="with --redis: the address other processes send this one's players to (default: where it listens)",
    )
    s.add_argument(
        "--chat", action="store_true", help="allow free-text chat at the tables (default: quick phrases only)"
    )
    s.add_argument("--events", metavar="FILE", help="the club's arenas and Swiss tournaments (a small YAML schedule)")
    s.add_argument(
        "--tournament-deals",
        type=int,
        default=d.tournament_deals,
        metavar="N",
        help=f"deals of a tournament of the day (default {d.tournament_deals})",
    )
    s.add_argument(
        "--event-no-show",
        type=float,
        default=d.event_no_show,
        metavar="SECONDS",
        help=f"an arena or Swiss player whose seat stays empty this long forfeits (default {d.event_no_show:g})",
    )
    s.add_argument(
        "--event-loop",
        default="auto",
        metavar="NAME",
        help="the event loop: auto (uvloop where installed), uvloop or asyncio (the standard library's)",
    )
    s.add_argument(
        "--par-iterations",
        type=int,
        default=None,
        metavar="N",
        help="the search budget of the hard player whose average is a deal's par (default: par's own)",
    )


def serve(args: argparse.Namespace) -> int:
    from game.online.server.server import MAX_WORKERS, ServerError
    from game.online.server.serving import run_forever
    from game.online.server.store import default_data_dir

    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port {args.port} is not a TCP port (0-65535)")
    if not 1 <= args.workers <= MAX_WORKERS:
        raise ValueError(f"--workers must be 1 to {MAX_WORKERS}, not {args.workers}")
    if (args.certfile is None) != (args.keyfile is None):
        raise ValueError("--certfile and --keyfile go together")
    data = Path(args.data) if args.data else default_data_dir()
    limits = server_limits(args)
    cluster = cluster_config(args)
    try:
        return run_forever(
            args.host,
            args.port,
            data,
            workers=args.workers,
            certfile=args.certfile,
            keyfile=args.keyfile,
            limits=limits,
            cluster=cluster,
            event_loop=args.event_loop,
        )
    except ServerError as e:
        raise ValueError(str(e)) from None


def cluster_config(args: argparse.Namespace):  # -> ClusterConfig | None
    """``--redis`` / ``--database`` / ``--public-url`` checked (ValueError: one line)."""
    redis_url, db_url, public = args.redis, args.database, args.public_url
    if redis_url is None and db_url is None:
        if public is not None:
            raise ValueError("--public-url goes with --redis")
        return None
    if redis_url is not None and db_url is None:
        raise ValueError("--redis needs --database: the processes must share their players too")
    if redis_url is not None and not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"--redis takes redis://host:port/db, not {redis_url[:40]!r}")
    if not db_url.startswith(("postgresql://", "postgres://")):
        raise ValueError("--database takes postgresql://user@host:port/db")
    if public is not None and (not public.startswith(("ws://", "wss://")) or len(public) > 200):
        raise ValueError("--public-url takes ws://host:port or wss://host:port")
    from game.online.server.cluster import ClusterConfig

    return ClusterConfig(redis_url, db_url, public)


def server_limits(args: argparse.Namespace):  # -> ServerLimits
    """The ``serve`` flags as game.online.server.limits.ServerLimits; ValueError (one line) for a bad one."""
    from game.online.server.limits import ServerLimits

    checks = [
        ("--max-connections", args.max_connections, 1, 100000),
        ("--tables-per-address", args.tables_per_address, 1, 10000),
        ("--tables-per-player", args.tables_per_player, 1, 10000),
        ("--idle-close", args.idle_close, 1, 7 * 86400),
        ("--bot-after", args.bot_after, 1, 3600),
        ("--quick-wait", args.quick_wait, 1, 3600),
        ("--tournament-deals", args.tournament_deals, 1, 16),
        ("--event-no-show", args.event_no_show, 5, 3600),
        *([("--par-iterations", args.par_iterations, 1, 5000)] if args.par_iterations is not None else []),
    ]
    for flag, value, lo, hi in checks:
        if not lo <= value <= hi:
            raise ValueError(f"{flag} must be {lo} to {hi}, not {value:g}")
    from game.online.wire.protocol import AI_LEVELS

    levels = tuple(x.strip() for x in args.fill_levels.split(",") if x.strip())
    if not levels or any(x not in AI_LEVELS for x in levels):
        raise ValueError(f"--fill-levels takes levels of {', '.join(AI_LEVELS)}, comma-separated")
    return ServerLimits(
        fill_levels=levels,
        max_connections=args.max_connections,
        tables_per_address=args.tables_per_address,
        tables_per_player=args.tables_per_player,
        idle_close_seconds=args.idle_close,
        bot_after=args.bot_after,
        quick_wait=args.quick_wait,
        chat=args.chat,
        events_file=_events_file(args.events),
        tournament_deals=args.tournament_deals,
        event_no_show=args.event_no_show,
        par_iterations=args.par_iterations,
    )


def _events_file(path: str | None) -> str | None:
    """``--events FILE`` checked before the server starts (ValueError: one line)."""
    if path is None:
        return None
    from game.online.server.events.schedule import parse

    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ValueError(f"--events: cannot read {path} ({e.strerror or e})") from None
    parse(text, Path(path).name)  # ScheduleError (a ValueError): one line naming the entry
    return path


# ---------------------------------------------------------------------------------- online
def _add_online(sub: argparse._SubParsersAction) -> None:
    """``online host`` / ``online join`` (engineer B): game/online/client/headless.py."""
    from game.online.client.clubclient import add_parsers
    from game.online.client.events import add_parsers as add_event_parsers
    from game.online.client.headless import add_parser

    osub = add_parser(sub, _Parser)
    add_parsers(osub)
    add_event_parsers(osub)


def online(args: argparse.Namespace) -> int:
    from game.config import ConfigError
    from game.online.client import clubclient
    from game.online.client.headless import run

    try:
        if args.online_command == "quick":
            return clubclient.quick(args)
        if args.online_command == "leaderboard":
            return clubclient.leaderboard(args)
        from game.online.client import events

        if args.online_command in events.COMMANDS:
            return events.run(args)
        return run(args)
    except ConfigError as e:
        raise ValueError(str(e)) from None


# ---------------------------------------------------------------------------------- entry
def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cardavia", description="Cardavia online commands")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add_serve(sub)
    _add_online(sub)
    return p


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "serve":
            return serve(args)
        return online(args)
    except ValueError as e:
        print(f"cardavia {args.command}: {e}", file=sys.stderr)
        return 2
