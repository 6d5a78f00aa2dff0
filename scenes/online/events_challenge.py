"""Challenges played from the window (scenes.online.events): a challenge accepted, with deals
left to the player, offers Play, which asks the server for the player's next deal of it
(``challenge_deal``) and opens its table, the house bots in the other seats, as a tournament
deal's. Back on the list the deal's score is said (with the outcome once both players have
played every deal), and the right side shows the challenge deal by deal: the player's score,
the opponent's once both have played it, and the difference."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules.vocabulary import JsonObject
from scenes.online.events_data import Item, num_of, obj_of, text_of
from scenes.scene import AppServices

#: The most deals a challenge shows, deal by deal.
ROWS_SHOWN = 12


class Challenging:
    """The events screen's challenges (a mixin of scenes.online.events.EventsScene)."""

    app: AppServices
    status: str | None
    #: The challenge deals played before the one at the table (its result is the new one).
    played_before: frozenset[str] = frozenset()

    if TYPE_CHECKING:  # the scene's own, for the type checker (a stub here would shadow them)

        def t(self, key: str, **params: object) -> str: ...

        def selected_item(self) -> Item | None: ...

        def _ask(self, what: str, message: dict, wants: tuple[str, ...]) -> None: ...

        @property
        def idle(self) -> bool: ...

    def challenge_played(self, item: Item | None = None) -> int | None:
        """How many deals of the chosen (or given) challenge the player has played, while it
        is accepted and has deals left for them; None otherwise."""
        item = item or self.selected_item()
        if item is None or item.kind != "challenge" or item.event.get("status") != "accepted":
            return None
        played = len(obj_of(item.event.get("mine")))
        return played if played < int(num_of(item.event.get("deals"))) else None

    def challenge_detail(self, e: JsonObject) -> str:
        """A challenge's line in the player's words: the outcome, the answer awaited, or the
        deals played."""
        outcome, status = e.get("outcome"), e.get("status")
        if outcome in ("won", "lost"):
            return self.t(f"club_events.challenge_{outcome}", difference=f"{abs(num_of(e.get('difference'))):g}")
        if outcome == "draw":
            return self.t("club_events.challenge_draw")
        if status == "pending":
            return self.t("club_events.challenge_waiting" if e.get("sent") else "club_events.challenge_asked")
        if status in ("declined", "expired", "withdrawn"):
            return self.t(f"club_events.challenge_{status}")
        return self.t("club_events.challenge_line", mine=len(obj_of(e.get("mine"))), deals=e.get("deals", 0))

    def challenge_rows(self, item: Item) -> list[tuple[str, str, str]]:
        """A challenge deal by deal: (the deal's number, your score and your opponent's, the
        difference once both are known); an unplayed score is a dash."""
        e = item.event
        mine, theirs = obj_of(e.get("mine")), obj_of(e.get("theirs"))
        opponent = text_of(e.get("opponent"), 20)
        rows = []
        for i in range(min(int(num_of(e.get("deals"))), ROWS_SHOWN)):
            a, b = mine.get(str(i)), theirs.get(str(i))
            shown = [f"{num_of(v):g}" if isinstance(v, (int, float)) else "–" for v in (a, b)]
            both = isinstance(a, (int, float)) and isinstance(b, (int, float))
            words = self.t("club_events.challenge_row", mine=shown[0], opponent=opponent, theirs=shown[1])
            rows.append((f"{i + 1}.", words, f"{num_of(a) - num_of(b):+g}" if both else ""))
        return rows

    def play_challenge(self, item: Item) -> None:
        """Ask the server for the player's next deal of the challenge (its table then opens)."""
        if not self.idle:
            return
        self.played_before = frozenset(obj_of(item.event.get("mine")))
        self.status = self.t("club_events.dealing")
        cid = text_of(item.event.get("id"), 80)
        self._ask("challenge_deal", {"type": "challenge_deal", "id": cid}, ("created", "challenge"))

    def challenge_dealt(self, c: JsonObject | None) -> None:
        """Back from a challenge's deal: its score said (and shown a while), with the outcome
        once both players have played every deal."""
        if c is None:
            return
        mine = obj_of(c.get("mine"))
        new = sorted(set(mine) - self.played_before, key=lambda k: int(k) if k.isdigit() else 0)
        if not new:
            return
        text = self.t("club_events.challenge_result", n=int(new[-1]) + 1, score=f"{num_of(mine[new[-1]]):g}")
        if c.get("outcome") is not None:
            text += " " + self.challenge_detail(c) + "."
        self.app.toast(text)
        self.app.say(text)


__all__ = ["Challenging"]
