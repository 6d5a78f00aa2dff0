"""Shared by the events tests: a store in a temporary folder, a movable clock, a deal played
by seeded bots (a random bot in the player's seat, greedy bots elsewhere: fast, and scores
that differ from player to player)."""

from __future__ import annotations

import datetime as dt
import json

from game.ai.bots import make_bot
from game.match import Match
from game.services.par import Deal

GAME = "briscola"


class Clock:
    def __init__(self, now: dt.datetime):
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def move(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


def play(deal: Deal, player_seed: int) -> list[dict]:
    """The deal played once, seat 0 a random bot of ``player_seed``: its record's events."""
    rules = deal.rules()
    bots = [
        make_bot("random" if s == 0 else "greedy", rules, s, player_seed if s == 0 else s) for s in range(rules.players)
    ]
    m = Match(rules, deal.seed, bots, deals=1)
    m.run()
    return json.loads(json.dumps(m.events))


def jsonl(events: list[dict]) -> str:
    return "".join(json.dumps(ev) + "\n" for ev in events)


def signed_in(url: str, name: str, secret: str | None = None, tries: int = 20):
    """A wshelp.Client signed in with an account (a new one when ``secret`` is None):
    (client, secret). A loaded machine's database may answer "slow, try again"."""
    import time

    from tests.online.wshelp import Client

    c = Client(url, name)
    answer: dict = {}
    for _ in range(tries):
        c.send({"type": "account", "name": name, "secret": secret})
        answer = c.recv()
        if answer["type"] == "account":
            return c, secret or answer["secret"]
        time.sleep(0.25)
    raise AssertionError(f"{name} could not sign in: {answer}")


def wait_for(check, timeout: float = 10.0, every: float = 0.05):
    """``check()`` once it is truthy (AssertionError after ``timeout`` seconds)."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError("the condition was not met in time")
        time.sleep(every)
