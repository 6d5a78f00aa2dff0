"""Back to an online table left in the middle of its match: what the menu offers.

The window keeps the table it last sat at (its code, the address, and for a table this
window hosts, the port of its own server) beside the seat's secret. The menu then offers
"Rejoin" — after "Quit to menu", after a dropped connection, after the window was closed —
until the match is over at this table, the player leaves its lobby, or the server says the
table is gone. A hosted table's server keeps running while its match does
(:func:`scenes.online.hosting.stop_unless_playing`); after a restart Rejoin starts it again,
and the server resumes the table from its files. No pygame.
"""

from __future__ import annotations

from collections.abc import Mapping

from scenes.online import hosting
from scenes.online.host import LastTable, remember, remembered
from scenes.scene import AppServices


def keep(app: AppServices, code: str, address: str, hosted_port: int | None = None) -> None:
    """This window sits at table ``code`` on ``address`` (its own server on ``hosted_port``)."""
    remember(app, last={"code": code, "address": address, "port": hosted_port})


def last_table(app: AppServices) -> LastTable | None:
    """The table to offer again: its code, address and hosted port (None: a friend's table),
    only while its seat's secret is kept."""
    saved = remembered(app)
    last = saved.get("last")
    if not last or last["code"] not in saved.get("tokens", {}):
        return None
    return last


def forget(app: AppServices, code: str | None = None) -> None:
    """Offer that table no more (``code`` None: whichever it is)."""
    last = remembered(app).get("last")
    if last and (code is None or last["code"] == code):
        remember(app, last=None)


def still_open(last: Mapping[str, object]) -> bool:
    """Whether a hosted table's match still runs on this window's own server."""
    return last.get("port") is not None and last["code"] in hosting.live_tables()


def menu_line(app: AppServices, last: Mapping[str, object]) -> str:
    """What the menu says of the table: open here, paused here, or a friend's."""
    if last.get("port") is None:
        return app.t("online.rejoin_left", code=last["code"])
    return app.t("online.rejoin_open" if still_open(last) else "online.rejoin_paused", code=last["code"])


__all__ = ["keep", "last_table", "forget", "still_open", "menu_line"]
