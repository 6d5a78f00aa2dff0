"""The club's events, client side (docs/ONLINE.md, "Events"): the messages' answers checked,
and the headless commands.

  python main.py online tournament --server URL --game G [--preset P] --bot LEVEL [--name NAME]
                                   [--records DIR] [--seed S]
      signs in (the account kept in the settings, or a new one), enters the day's tournament
      and plays each deal left with the bot in the player's seat, keeps each deal's record
      (the server's copy) in DIR, and prints one ``deal I: SCORE`` line per deal, then
      ``result: PCT% (rank R of N)`` and ``records: DIR``.
  python main.py online standings --server URL --game G [--preset P] [--date D] [--name NAME]
      prints the tournament's standings, one line a player, ``R. NAME PCT%`` (two decimals;
      ``-.`` for a player who has not ended every deal). The standings are shown to an account
      that has ended every deal (``--name``: one kept in the settings), and to anyone once the
      day's seed is revealed.

Exit codes as ``online quick``: 0 done, 1 the server unreachable or too slow, 2 a bad command
line or a refusal of it (unknown game, the standings still hidden).
"""

from __future__ import annotations

import argparse
import io
import secrets
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypedDict

from game.online.client.client import RemoteSession
from game.online.wire import protocol as P
from game.online.wire.links import parse_address
from game.online.wire.messages import Handler, as_int
from game.rules.vocabulary import JsonObject

if TYPE_CHECKING:
    from game.online.client.clubclient import Talk

#: Seconds a finished deal's table waits for the server's ``tod_result`` before giving up.
RESULT_WAIT = 15.0
#: Seconds ``online swiss --partner`` waits for the partner to register naming this player.
PARTNER_WAIT = 600.0
#: Refusals that mean the command line was wrong (exit 2).
ARGUMENT_CODES = frozenset({"config", "schema", "name_taken", "bad_secret", "account", "hidden", "unknown", "closed"})


def _number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and abs(v) < 1e9


class Line(TypedDict):
    """A standings line, checked."""

    rank: int | None
    name: str
    percent: float
    played: int
    ended: int


def standing_line(v: object) -> Line | None:
    """A standings line as the server sends it, checked (an odd line is left out)."""
    if not isinstance(v, dict):
        return None
    name, rank = v.get("name"), v.get("rank")
    if not isinstance(name, str) or not 0 < len(name) <= 40 or not name.isprintable():
        return None
    if rank is not None and (not isinstance(rank, int) or isinstance(rank, bool) or rank < 1):
        return None
    if not all(_number(v.get(k)) for k in ("percent", "played", "ended")):
        return None
    return Line(rank=rank, name=name, percent=float(v["percent"]), played=int(v["played"]), ended=int(v["ended"]))


def standings_text(lines: list[Line]) -> list[str]:
    """``R. NAME PCT%`` per line (``-.`` unranked)."""
    out = []
    for ln in lines:
        rank = f"{ln['rank']}." if ln["rank"] is not None else "-."
        out.append(f"{rank} {ln['name']} {ln['percent']:.2f}%")
    return out


class TourSession(RemoteSession):
    """The seat of a tournament deal's table: keeps the server's ``tod_result`` (or its
    refusal of the record), and on closing waits a little for it when the deal is over."""

    #: Seconds :meth:`close` waits for the result of a deal that is over (the window: none).
    result_wait = RESULT_WAIT

    #: What the server said of the deal once over (set by the handlers below).
    tod_result: JsonObject | None = None
    tod_refusal: tuple[str, str] | None = None

    def _handlers(self) -> dict[str, Handler]:
        return {**super()._handlers(), "tod_result": self._on_tod_result}

    def _on_tod_result(self, m: JsonObject) -> None:
        if _number(m.get("score")) and isinstance(m.get("deal"), int):
            self.tod_result = m

    def _on_error(self, m: JsonObject) -> None:
        super()._on_error(m)
        if self.match.over and self.tod_result is None and m.get("code") in ("record", "played", "closed"):
            self.tod_refusal = (str(m.get("code")), str(m.get("message", ""))[:300])

    def close(self) -> None:
        deadline = time.monotonic() + self.result_wait
        while self.match.over and self.tod_result is None and self.tod_refusal is None:
            if time.monotonic() > deadline:
                break
            self.wait(0.1)
        super().close()


def _talk(url: str, name: str, err: TextIO, what: str) -> Talk | None:
    from game.online.client.clubclient import Talk

    try:
        return Talk(url, name)
    except Exception as e:  # noqa: BLE001 - OSError, InvalidHandshake, TimeoutError
        print(f"cardavia online {what}: cannot reach {url}: {e}", file=err)
        return None


def tournament(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``online tournament``: the day's tournament played with a bot (see the module)."""
    from game.online.client.clubclient import ServerRefusal, sign_in
    from game.online.client.headless import _checked_name, play_seat

    out, err = out or sys.stdout, err or sys.stderr
    url, _ = parse_address(args.server)
    name = _checked_name(args.name if args.name is not None else f"{args.bot} bot")
    records = Path(args.records) if args.records else Path(tempfile.mkdtemp(prefix="cardavia-tournament-"))
    records.mkdir(parents=True, exist_ok=True)
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    talk = _talk(url, name, err, "tournament")
    if talk is None:
        return 1
    where = {"game": args.game, "preset": args.preset}
    try:
        try:
            name, secret = sign_in(talk, url, name, out)
            talk.send({"type": "tod_enter", **where})
            entered = talk.expect("tod")
            day = str(entered["info"]["date"])
            played = 0
            while True:
                talk.send({"type": "tod_deal", **where})
                try:
                    created = talk.expect("created")
                except ServerRefusal as e:
                    if e.code == "done":
                        break
                    raise
                talk.expect("tod")
                index = played
                played += 1
                code = str(created["code"])
                session = TourSession(url, code, name, created["tokens"]["0"])
                quiet = io.StringIO()  # play_seat's own lines (seat token, final score) are not this command's
                result = play_seat(session, args.bot, seed + index, timeout=args.timeout, out=quiet, err=err)
                if result != 0:
                    return result
                if session.tod_result is None:
                    why = session.tod_refusal[1] if session.tod_refusal else "no result from the server"
                    print(f"cardavia online tournament: deal {index + 1}: {why}", file=err)
                    return 1
                talk.send({"type": "tod_record", **where, "date": day, "code": code})
                rec = talk.expect("tod_record")
                (records / f"{code}.jsonl").write_text(str(rec["record"]), encoding="utf-8")
                print(
                    f"deal {as_int(session.tod_result['deal']) + 1}: {session.tod_result['score']:g}",
                    file=out,
                    flush=True,
                )
            talk.send({"type": "tod_standings", **where, "date": day})
            board = talk.expect("tod_standings")
        except ServerRefusal as e:
            print(f"cardavia online tournament: {e}", file=err)
            return 2 if e.code in ARGUMENT_CODES else 1
        except (TimeoutError, OSError, KeyError, TypeError, ValueError) as e:
            print(f"cardavia online tournament: {e}", file=err)
            return 1
    finally:
        talk.close()
    lines = [ln for ln in (standing_line(v) for v in board.get("lines", [])) if ln is not None]
    ranked = [ln for ln in lines if ln["rank"] is not None]
    mine = next((ln for ln in lines if ln["name"].casefold() == name.casefold()), None)
    if mine is None or mine["rank"] is None:
        print("result: not ranked (not every deal ended)", file=out)
    else:
        print(f"result: {mine['percent']:.2f}% (rank {mine['rank']} of {len(ranked)})", file=out)
    print(f"records: {records}", file=out, flush=True)
    return 0


def standings(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``online standings``: a tournament's standings (see the module)."""
    from game.online.client.clubclient import ServerRefusal, sign_in
    from game.online.client.headless import _checked_name

    out, err = out or sys.stdout, err or sys.stderr
    url, _ = parse_address(args.server)
    name = _checked_name(args.name) if args.name else "standings"
    talk = _talk(url, name, err, "standings")
    if talk is None:
        return 1
    try:
        if args.name:
            sign_in(talk, url, name, out)
        talk.send({"type": "tod_standings", "game": args.game, "preset": args.preset, "date": args.date})
        board = talk.expect("tod_standings")
    except ServerRefusal as e:
        print(f"cardavia online standings: {e}", file=err)
        return 2 if e.code in ARGUMENT_CODES else 1
    except (TimeoutError, OSError) as e:
        print(f"cardavia online standings: {e}", file=err)
        return 1
    finally:
        talk.close()
    lines = [ln for ln in (standing_line(v) for v in board.get("lines", [])) if ln is not None]
    for text in standings_text(lines):
        print(text, file=out)
    out.flush()
    return 0


def challenge_text(c: JsonObject) -> str:
    """One line of a challenge as the server shows it to this player."""
    opponent = str(c.get("opponent", "?"))[: P.NAME_MAX]
    mine = c.get("mine")
    played = len(mine) if isinstance(mine, dict) else 0
    line = f"{c.get('id')} {c.get('game')} {'to' if c.get('sent') else 'from'} {opponent}: {c.get('status')}"
    line += f", {played} of {c.get('deals')} deals played"
    diff = c.get("difference")
    if c.get("outcome") is not None and isinstance(diff, (int, float)):
        line += f", {c['outcome']} ({float(diff):+g}{', forfeit' if c.get('forfeit') else ''})"
    return line


def signed_in(
    what: str,
    server: str,
    name: str,
    body: Callable[[Talk, str, str, TextIO, TextIO], int],
    out: TextIO | None = None,
    err: TextIO | None = None,
    codes: frozenset[str] = frozenset(),
) -> int:
    """The headless event commands' common part: connect to ``server``, sign in as ``name``
    (the account kept in the settings, or a new one), run ``body(talk, url, name, out, err)``
    and close. Its exit code, or 1 when the server cannot be reached or breaks off, 2 for a
    refusal of the command line (:data:`ARGUMENT_CODES` and ``codes``); each said in one line
    on ``err`` as ``cardavia online WHAT: …``."""
    from websockets.exceptions import ConnectionClosed

    from game.online.client.clubclient import ServerRefusal, sign_in

    out, err = out or sys.stdout, err or sys.stderr
    url, _ = parse_address(server)
    talk = _talk(url, name, err, what)
    if talk is None:
        return 1
    try:
        name, _secret = sign_in(talk, url, name, out)
        return body(talk, url, name, out, err)
    except ServerRefusal as e:
        print(f"cardavia online {what}: {e}", file=err)
        return 2 if e.code in ARGUMENT_CODES | codes else 1
    except ConnectionClosed:
        print(f"cardavia online {what}: the server closed the connection", file=err)
        return 1
    except (TimeoutError, OSError, KeyError, TypeError, ValueError) as e:
        print(f"cardavia online {what}: {e}", file=err)
        return 1
    finally:
        talk.close()


def challenge(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``online challenge``: send, answer, play or list challenges (see the module)."""
    from game.online.client.clubclient import ServerRefusal
    from game.online.client.headless import _checked_name, play_seat

    def body(talk: Talk, url: str, name: str, out: TextIO, err: TextIO) -> int:
        if args.send is not None:
            talk.send({"type": "challenge", "name": _checked_name(args.send), "game": args.game, "preset": args.preset})
            print(f"challenge: {talk.expect('challenge')['challenge']['id']}", file=out, flush=True)
            return 0
        if args.accept is not None or args.decline is not None:
            cid = args.accept if args.accept is not None else args.decline
            talk.send({"type": "challenge_answer", "id": cid, "accept": args.accept is not None})
            print(f"challenge: {challenge_text(talk.expect('challenge')['challenge'])}", file=out, flush=True)
            return 0
        if args.play is not None:
            seed = args.seed if args.seed is not None else secrets.randbits(31)
            last: JsonObject | None = None
            k = 0
            while True:
                talk.send({"type": "challenge_deal", "id": args.play})
                try:
                    created = talk.expect("created")
                except ServerRefusal as e:
                    if e.code == "done":
                        break
                    raise
                talk.expect("challenge")
                session = ChallengeSession(url, str(created["code"]), name, created["tokens"]["0"])
                result = play_seat(session, args.bot, seed + k, timeout=args.timeout, out=io.StringIO(), err=err)
                k += 1
                if result != 0:
                    return result
                if session.challenge is None:
                    print(f"cardavia online challenge: no result from the server ({session.refusal})", file=err)
                    return 1
                last = session.challenge
                print(f"deal {k}: record {session.record_path}", file=out, flush=True)
            if last is None:
                talk.send({"type": "event_list"})
                listing = talk.expect("event_list")
                last = next((c for c in listing["challenges"] if c.get("id") == args.play), None)
            if last is not None:
                print(f"challenge: {challenge_text(last)}", file=out, flush=True)
            return 0
        talk.send({"type": "event_list"})
        for c in talk.expect("event_list")["challenges"]:
            if isinstance(c, dict):
                print(challenge_text(c), file=out)
        out.flush()
        return 0

    codes = frozenset({"no_player", "self", "not_yours", "quota"})
    return signed_in("challenge", args.server, _checked_name(args.name), body, out, err, codes)


def _next(talk: Talk, kinds: tuple[str, ...], timeout: float) -> JsonObject | None:
    """The next message of ``kinds`` within ``timeout`` seconds (others passed over), or None;
    ServerRefusal for an ``error`` — but ``no_show`` (a match of the event lost for not taking
    the seat in time, told on this connection) comes back as ``{"type": "no_show", …}``."""
    from game.online.client.clubclient import ServerRefusal

    try:
        return talk.expect(*kinds, timeout=max(0.01, timeout))
    except TimeoutError:
        return None
    except ServerRefusal as e:
        if e.code != "no_show":
            raise
        return {"type": "no_show", "message": str(e)}


def _forfeited(session: RemoteSession) -> bool:
    """Whether the event closed ``session``'s table for a no-show (the match is over: the
    server gave it to this side, the one at the table)."""
    return session.failed_code == "no_show"


def arena(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``online arena``: join an arena and play ``--games`` matches in it with a bot."""
    from game.online.client.headless import _checked_name, play_seat

    seed = args.seed if args.seed is not None else secrets.randbits(31)
    deadline = time.monotonic() + args.timeout

    def body(talk: Talk, url: str, name: str, out: TextIO, err: TextIO) -> int:
        talk.send({"type": "arena_join", "id": args.id})
        talk.expect("arena")
        for k in range(args.games):
            found = _next(talk, ("arena_found",), deadline - time.monotonic())
            if found is None:
                print(f"cardavia online arena: no match within {args.timeout:g} s", file=err)
                return 1
            if found["type"] == "no_show":  # a seat not taken in time: the server paused us
                print(f"match {k + 1}: lost, the seat was not taken in time (paused)", file=out, flush=True)
                break
            if k == args.games - 1:  # the last one: out of the pairing (this match is played out)
                talk.send({"type": "arena_pause", "id": args.id})
            session = RemoteSession(url, str(found["code"]), name, str(found["token"]))
            rc = play_seat(session, args.bot, seed + k, timeout=args.timeout, out=io.StringIO(), err=err)
            if rc != 0:
                return rc
            if _forfeited(session):
                print(f"match {k + 1}: won, the opponent did not come", file=out, flush=True)
                continue
            filled = f" (the computer filled {found['computers']} seat(s))" if found.get("computers") else ""
            print(f"match {k + 1}: record {session.record_path}{filled}", file=out, flush=True)
        # every update the server sent meanwhile is passed over: the last answer is now's
        time.sleep(0.3)
        talk.send({"type": "arena_standings", "id": args.id})
        board = talk.expect("arena")
        while True:
            later = _next(talk, ("arena",), 0.3)
            if later is None:
                break
            board = later
        lines = [ln for ln in board.get("standings", []) if isinstance(ln, dict)]
        for ln in lines:
            fire = " (on fire)" if ln.get("fire") else ""
            print(
                f"{ln.get('rank')}. {ln.get('name')} {ln.get('points')} points, {ln.get('games')} games{fire}",
                file=out,
            )
        me = board.get("me")
        if isinstance(me, dict):
            print(f"result: {me.get('points')} points (rank {me.get('rank')} of {len(lines)})", file=out)
        out.flush()
        return 0

    codes = frozenset({"not_joined", "over"})
    return signed_in("arena", args.server, _checked_name(args.name), body, out, err, codes)


def swiss(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``online swiss``: register for a Swiss tournament and play its rounds with a bot. With
    ``--partner`` (a partnership game) the team is entered once the partner registers naming
    this player: until then it prints ``waiting for NAME to confirm`` and waits (at most
    ``--partner-wait`` seconds, then withdraws and exits 1)."""
    from game.online.client.headless import _checked_name, play_seat

    partner = _checked_name(args.partner) if args.partner else None
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    deadline = time.monotonic() + args.timeout

    def body(talk: Talk, url: str, name: str, out: TextIO, err: TextIO) -> int:
        talk.send({"type": "swiss_register", "id": args.id, "partner": partner})
        board = talk.expect("swiss")
        if board.get("waiting") is not None:
            # the team is entered once the partner registers naming this player
            print(f"waiting for {board['waiting']} to confirm", file=out, flush=True)
            until = min(deadline, time.monotonic() + args.partner_wait)
            while board.get("me") is None:
                m = _next(talk, ("swiss",), until - time.monotonic())
                if m is None:
                    print(f"cardavia online swiss: {partner} did not confirm within the wait", file=err)
                    talk.send({"type": "swiss_leave", "id": args.id})  # the offer withdrawn
                    return 1
                if m["type"] == "swiss":
                    board = m
        print(f"registered: {args.id} ({board['rounds']} rounds)", file=out, flush=True)
        while not board.get("finished"):
            m = _next(talk, ("swiss_round", "swiss"), deadline - time.monotonic())
            if m is None:
                print(f"cardavia online swiss: the tournament did not end within {args.timeout:g} s", file=err)
                return 1
            if m["type"] == "swiss":
                board = m
                continue
            if m["type"] == "no_show":  # the seat not taken in time: a loss, the next round follows
                print("a round lost: the seat was not taken in time", file=out, flush=True)
                continue
            if m.get("code") is None:
                print(f"round {m['round']}: a bye", file=out, flush=True)
                continue
            session = RemoteSession(url, str(m["code"]), name, str(m["token"]))
            rc = play_seat(
                session, args.bot, seed + as_int(m["round"]), timeout=args.timeout, out=io.StringIO(), err=err
            )
            if rc != 0:
                return rc
            if _forfeited(session):
                print(f"round {m['round']}: won, {m['opponent']} did not come", file=out, flush=True)
                continue
            print(f"round {m['round']}: against {m['opponent']}, record {session.record_path}", file=out, flush=True)
        lines = [ln for ln in board.get("standings", []) if isinstance(ln, dict)]
        for ln in lines:
            dropped = " (withdrew)" if ln.get("dropped") else ""
            print(
                f"{ln.get('rank')}. {ln.get('name')} {ln.get('score'):g} "
                f"(Buchholz {ln.get('buchholz'):g}, Sonneborn-Berger {ln.get('sonneborn_berger'):g}){dropped}",
                file=out,
            )
        me = board.get("me")
        if isinstance(me, dict):
            print(f"result: {me.get('score'):g} points (rank {me.get('rank')} of {len(lines)})", file=out)
        out.flush()
        return 0

    codes = frozenset({"started", "registered", "team", "no_player", "offer"})
    return signed_in("swiss", args.server, _checked_name(args.name), body, out, err, codes)


class ChallengeSession(RemoteSession):
    """The seat of a challenge deal's table: keeps the ``challenge`` the server sends at its
    end (the challenge as this player sees it now), waiting a little for it on closing."""

    result_wait = RESULT_WAIT

    #: The challenge as the server sent it at the deal's end, or its refusal (the handlers set them).
    challenge: JsonObject | None = None
    refusal: str | None = None

    def _handlers(self) -> dict[str, Handler]:
        return {**super()._handlers(), "challenge": self._on_challenge}

    def _on_challenge(self, m: JsonObject) -> None:
        c = m.get("challenge")
        if isinstance(c, dict):
            self.challenge = c

    def _on_error(self, m: JsonObject) -> None:
        super()._on_error(m)
        if self.match.over and self.challenge is None:
            self.refusal = str(m.get("message", ""))[:300]

    def close(self) -> None:
        deadline = time.monotonic() + self.result_wait
        while self.match.over and self.challenge is None and self.refusal is None:
            if time.monotonic() > deadline:
                break
            self.wait(0.1)
        super().close()


def add_parsers(osub: argparse._SubParsersAction) -> None:
    """``online tournament`` and ``online standings``."""
    from game.ai.bots import bot_names

    t = osub.add_parser("tournament", help="play the day's tournament on a club server with a bot in your seat")
    t.add_argument("--server", required=True, help="ws://host:port, wss://… or host:port")
    t.add_argument("--game", required=True)
    t.add_argument("--preset", help="the house rules (default: the game's first)")
    t.add_argument("--bot", required=True, choices=bot_names(), help="who plays your seat")
    t.add_argument("--name", help="your name on the server (default: the bot's)")
    t.add_argument("--records", metavar="DIR", help="where the deals' records go (default: a new folder)")
    t.add_argument("--seed", type=int, help="the bot's seed (default: random)")
    t.add_argument("--timeout", type=float, default=1800.0, help="give up on a deal after this many seconds")
    s = osub.add_parser("standings", help="print a tournament of the day's standings")
    s.add_argument("--server", required=True, help="ws://host:port, wss://… or host:port")
    s.add_argument("--game", required=True)
    s.add_argument("--preset", help="the house rules (default: the game's first)")
    s.add_argument("--date", help="the day, YYYY-MM-DD (default: today)")
    s.add_argument("--name", help="sign in as this account (kept in the settings) to see today's standings")
    c = osub.add_parser("challenge", help="challenge a player to a duplicate match, answer, play or list challenges")
    c.add_argument("--server", required=True, help="ws://host:port, wss://… or host:port")
    c.add_argument("--name", required=True, help="your name on the server")
    what = c.add_mutually_exclusive_group()
    what.add_argument("--send", metavar="PLAYER", help="challenge this player (with --game)")
    what.add_argument("--accept", metavar="ID", help="accept the challenge ID")
    what.add_argument("--decline", metavar="ID", help="decline (or withdraw) the challenge ID")
    what.add_argument("--play", metavar="ID", help="play the deals of the challenge ID left to you (with --bot)")
    c.add_argument("--game", help="the game of a challenge sent")
    c.add_argument("--preset", help="the house rules (default: the game's first)")
    c.add_argument("--bot", choices=bot_names(), help="who plays your seat (with --play)")
    c.add_argument("--seed", type=int, help="the bot's seed (default: random)")
    c.add_argument("--timeout", type=float, default=1800.0, help="give up on a deal after this many seconds")
    w = osub.add_parser("swiss", help="register for a Swiss tournament on a club server and play it with a bot")
    w.add_argument("--server", required=True, help="ws://host:port, wss://… or host:port")
    w.add_argument("--name", required=True, help="your name on the server")
    w.add_argument("--id", required=True, help="the tournament's id, such as swiss:december-club")
    w.add_argument("--partner", help="your partner's name, in a partnership game (they register naming you)")
    w.add_argument(
        "--partner-wait",
        type=float,
        default=PARTNER_WAIT,
        help=f"with --partner: give up when the partner has not confirmed within this many seconds "
        f"(default {PARTNER_WAIT:g})",
    )
    w.add_argument("--bot", required=True, choices=bot_names(), help="who plays your seat")
    w.add_argument("--seed", type=int, help="the bot's seed (default: random)")
    w.add_argument("--timeout", type=float, default=86400.0, help="give up after this many seconds in all")
    a = osub.add_parser("arena", help="join an arena on a club server and play matches in it with a bot")
    a.add_argument("--server", required=True, help="ws://host:port, wss://… or host:port")
    a.add_argument("--name", required=True, help="your name on the server")
    a.add_argument("--id", required=True, help="the arena's id, such as arena:evening-blitz")
    a.add_argument("--bot", required=True, choices=bot_names(), help="who plays your seat")
    a.add_argument("--games", type=int, default=3, help="matches to play, then pause in the arena (default 3)")
    a.add_argument("--seed", type=int, help="the bot's seed (default: random)")
    a.add_argument("--timeout", type=float, default=1800.0, help="give up after this many seconds in all")


def run(args: argparse.Namespace) -> int:
    """``online tournament`` / ``online standings``; ValueError (one line) for a bad argument."""
    if args.online_command == "standings" and args.date is not None:
        try:
            P.check_message({"type": "tod_standings", "game": args.game, "preset": None, "date": args.date})
        except P.ProtocolError:
            raise ValueError(f"--date must be a day such as 2026-12-07, not {args.date!r}") from None
    if not 0 < getattr(args, "timeout", 1.0) <= 86400:
        raise ValueError("--timeout must be more than 0 and at most 86400 seconds")
    if args.online_command == "tournament":
        return tournament(args)
    if args.online_command == "swiss":
        if not args.id.startswith("swiss:"):
            raise ValueError("--id takes a Swiss tournament's id such as swiss:december-club")
        if not 0 < args.partner_wait <= 86400:
            raise ValueError("--partner-wait must be more than 0 and at most 86400 seconds")
        return swiss(args)
    if args.online_command == "arena":
        if not args.id.startswith("arena:") or not 1 <= args.games <= 100:
            raise ValueError("--id takes an arena's id such as arena:evening-blitz; --games is 1 to 100")
        return arena(args)
    if args.online_command == "challenge":
        if args.send is not None and args.game is None:
            raise ValueError("--send needs --game")
        if args.play is not None and args.bot is None:
            raise ValueError("--play needs --bot")
        for flag in ("accept", "decline", "play"):
            cid = getattr(args, flag)
            if cid is not None and not (cid.startswith("challenge:") and len(cid) == 26):
                raise ValueError(f"--{flag} takes a challenge's id such as challenge:0123456789abcdef")
        return challenge(args)
    return standings(args)


#: The sub-commands this module runs.
COMMANDS = ("tournament", "standings", "challenge", "arena", "swiss")

__all__ = [
    "COMMANDS",
    "ChallengeSession",
    "TourSession",
    "add_parsers",
    "run",
    "signed_in",
    "standing_line",
    "standings",
    "standings_text",
    "tournament",
]
