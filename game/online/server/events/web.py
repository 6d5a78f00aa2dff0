"""The club's events on the server's web pages (game.online.server.web mounts them):

  /events                          today's tournaments, the arenas running and coming, the Swiss
                                   tournaments not finished, the tournaments of the last days
  /tournament/<game>/<date>        a tournament of the day: its commitment, its entries; the
                                   standings once the day's seed is revealed (before, a visitor
                                   of the pages has played no deal: TourOfDay.may_see_standings)
  /arena/<id>, /swiss/<id>         an arena's live standings, a Swiss tournament's standings

Read-only, server-rendered, no script, every text escaped and every link's part quoted (the
pages' own rules: game.online.server.web). Names only, never an account id or a secret seed.
"""

from __future__ import annotations

import datetime as dt
import re
import urllib.parse
from typing import TYPE_CHECKING

from game.online.server.events.arena import Arena
from game.online.server.events.common import EventRefusal, items, obj, text
from game.online.server.events.swiss import Swiss
from game.online.server.events.tourday import tour_id

if TYPE_CHECKING:
    from game.online.server.events.host import EventsHost
    from game.online.server.web import WebPages

HTML = "text/html; charset=utf-8"
#: Past tournaments listed on /events.
PAST_SHOWN = 12
_TOUR_RE = re.compile(r"/tournament/([a-z0-9][a-z0-9_-]{0,39})/(\d{4}-\d{2}-\d{2})")
_ID_RE = re.compile(r"/(arena|swiss)/(.{1,120})")

Page = tuple[int, str, str]


def _q(value: str) -> str:
    return urllib.parse.quote(value, safe="")


class EventPages:
    """The events' pages, drawn in ``pages``' frame and language."""

    def __init__(self, events: EventsHost, pages: WebPages):
        self.events, self.pages = events, pages

    def page(self, path: str, lang: str) -> Page | None:
        """(status, type, body) for an events path; None for any other path (or an unknown
        event: the pages' own 404)."""
        if path in ("/events", "/events/"):
            return 200, HTML, self.list_page(lang)
        found = _TOUR_RE.fullmatch(path)
        if found:
            return self.tournament_page(found.group(1), found.group(2), lang)
        found = _ID_RE.fullmatch(path)
        if found and found.group(2).startswith(f"{found.group(1)}:"):
            stored = self.events.store.load(found.group(2))
            if stored is not None and stored.kind == found.group(1):
                if stored.kind == "arena":
                    return 200, HTML, self.arena_page(stored.id, Arena(stored.state), lang)
                return 200, HTML, self.swiss_page(stored.id, Swiss(stored.state), lang)
        return None

    # ---- helpers
    def _t(self, lang: str):  # -> Callable[..., str]
        return self.pages._t(lang)

    def _game(self, game: object, lang: str) -> str:
        return self.pages._game_name(str(game), lang)

    def _entries(self, tid: str) -> int:
        return sum(1 for e in self.events.store.entries(tid) if e.item == "entry")

    @staticmethod
    def _table(head: list[str], rows: list[list[str]], empty: str) -> str:
        from game.online.server.web import esc

        if not rows:
            return f"<p>{esc(empty)}</p>"
        th = "".join(f"<th>{esc(h)}</th>" for h in head)
        body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
        return f"<table><tr>{th}</tr>{body}</table>"

    # ---- pages
    def list_page(self, lang: str) -> str:
        from game.online.server.web import esc

        t = self._t(lang)
        now = self.events.clock()
        listing = self.events.hub.listing(None)
        tours = []
        for line in map(obj, items(listing["tournaments"])):
            link = f"/tournament/{_q(str(line['game']))}/{_q(str(line['date']))}?lang={lang}"
            tours.append(
                [
                    f'<a href="{esc(link)}">{esc(self._game(line["game"], lang))}</a>',
                    esc(line["date"]),
                    esc(line["deals"]),
                    esc(self._entries(str(line["id"]))),
                    f"<code>{esc(str(line['hash'])[:16])}…</code>",
                ]
            )
        body = f"<h2>{esc(t('club_events.web.tournaments'))}</h2>"
        body += f"<p>{esc(t('club_events.web.tournament_note'))}</p>"
        body += self._table(
            [
                t("club.web.game"),
                t("club_events.web.date"),
                t("club_events.web.deals"),
                t("club_events.web.entries"),
                t("club_events.web.commitment"),
            ],
            tours,
            t("club_events.web.none"),
        )
        arenas = []
        for a in map(obj, items(listing["arenas"])):
            link = f"/arena/{_q(str(a['id']))}?lang={lang}"
            state = t("club_events.web.running") if a["running"] else t("club_events.web.coming")
            arenas.append(
                [
                    f'<a href="{esc(link)}">{esc(str(a["id"]).partition(":")[2])}</a>',
                    esc(self._game(a["game"], lang)),
                    esc(str(a["start"]).replace("T", " ")[:16]),
                    esc(str(a["end"]).replace("T", " ")[:16]),
                    esc(state),
                    esc(a["players"]),
                ]
            )
        body += f"<h2>{esc(t('club_events.web.arenas'))}</h2>"
        body += self._table(
            [
                t("club_events.web.name"),
                t("club.web.game"),
                t("club_events.web.start"),
                t("club_events.web.end"),
                t("club.web.state"),
                t("club.web.players"),
            ],
            arenas,
            t("club_events.web.none"),
        )
        swiss = []
        for s in map(obj, items(listing["swiss"])):
            link = f"/swiss/{_q(str(s['id']))}?lang={lang}"
            state = (
                t("club_events.web.open")
                if s["open"]
                else t("club_events.web.round", round=s["round"], rounds=s["rounds"])
            )
            swiss.append(
                [
                    f'<a href="{esc(link)}">{esc(str(s["id"]).partition(":")[2])}</a>',
                    esc(self._game(s["game"], lang)),
                    esc(str(s["start"]).replace("T", " ")[:16]),
                    esc(state),
                    esc(s["entrants"]),
                ]
            )
        body += f"<h2>{esc(t('club_events.web.swiss'))}</h2>"
        body += self._table(
            [
                t("club_events.web.name"),
                t("club.web.game"),
                t("club_events.web.start"),
                t("club.web.state"),
                t("club_events.web.entrants"),
            ],
            swiss,
            t("club_events.web.none"),
        )
        past = []
        today = now.date().isoformat()
        for stored in reversed(self.events.store.events("tod")):
            day, game = text(stored.state.get("day")), text(stored.state.get("game"))
            if day >= today:
                continue
            link = f"/tournament/{_q(game)}/{_q(day)}?lang={lang}"
            past.append(
                [f'<a href="{esc(link)}">{esc(self._game(game, lang))}</a>', esc(day), esc(self._entries(stored.id))]
            )
            if len(past) >= PAST_SHOWN:
                break
        if past:
            body += f"<h2>{esc(t('club_events.web.past'))}</h2>"
            body += self._table([t("club.web.game"), t("club_events.web.date"), t("club_events.web.entries")], past, "")
        return self.pages._frame(t("club_events.web.title"), body, lang)

    def tournament_page(self, game: str, day: str, lang: str) -> Page | None:
        from game.online.server.events.deals import settings_deal
        from game.online.server.web import esc

        try:
            _, word = settings_deal(game, None, dt.date.fromisoformat(day))
        except ValueError:
            return None
        tid = tour_id(day, game, word)
        if self.events.store.load(tid) is None:
            return None
        t = self._t(lang)
        now = self.events.clock()
        tod = self.events.tod
        info = tod.public(tid, now)
        facts = [
            t("club_events.web.deals_count", count=info["deals"]),
            t("club_events.web.entries_count", count=self._entries(tid)),
        ]
        body = "".join(f"<p>{esc(f)}</p>" for f in facts)
        body += f"<p>{esc(t('club_events.web.commitment'))}: <code>{esc(info['hash'])}</code></p>"
        if info["seed"] is not None:
            body += f"<p>{esc(t('club_events.web.seed'))}: <code>{esc(info['seed'])}</code> · "
            body += f"{esc(t('club_events.web.nonce'))}: <code>{esc(info['nonce'])}</code></p>"
        try:
            lines = tod.standings(tid, None, now)
        except EventRefusal:
            body += f"<p>{esc(t('club_events.web.hidden'))}</p>"
        else:
            rows = [
                [
                    esc(s.rank if s.rank is not None else "–"),
                    esc(s.name),
                    f"{s.percent:.2f} %",
                    esc(f"{s.ended}/{info['deals']}"),
                ]
                for s in lines
            ]
            body += self._table(
                ["#", t("club.web.player"), t("club_events.web.percent"), t("club_events.web.deals")],
                rows,
                t("club_events.web.nobody"),
            )
        title = t("club_events.web.tournament_title", game=self._game(game, lang), date=day)
        return 200, HTML, self.pages._frame(title, body, lang)

    def arena_page(self, aid: str, arena: Arena, lang: str) -> str:
        from game.online.server.web import esc

        t = self._t(lang)
        rows = [
            [
                esc(ln.rank),
                esc(ln.name) + (f" ({esc(t('club_events.web.fire'))})" if ln.fire else ""),
                esc(ln.points),
                esc(ln.games),
                esc(ln.wins),
                esc(t("club_events.web.paused") if ln.paused else t("club.web.playing") if ln.playing else ""),
            ]
            for ln in arena.standings()
        ]
        head = [
            "#",
            t("club.web.player"),
            t("club_events.web.points"),
            t("club.web.matches"),
            t("club_events.web.wins"),
            "",
        ]
        when = t("club_events.web.when", start=iso_text(arena.start), end=iso_text(arena.end))
        body = f"<p>{esc(self._game(arena.s['game'], lang))} · {esc(when)}</p>"
        body += self._table(head, rows, t("club_events.web.nobody"))
        return self.pages._frame(t("club_events.web.arena_title", name=aid.partition(":")[2]), body, lang)

    def swiss_page(self, sid: str, swiss: Swiss, lang: str) -> str:
        from game.online.server.web import esc

        t = self._t(lang)
        rows = [
            [
                esc(ln.rank),
                esc(ln.name) + (f" ({esc(t('club_events.web.dropped'))})" if ln.dropped else ""),
                esc(f"{ln.score:g}"),
                esc(f"{ln.buchholz:g}"),
                esc(f"{ln.sonneborn_berger:g}"),
            ]
            for ln in swiss.standings()
        ]
        head = ["#", t("club.web.player"), t("club_events.web.score"), "Buchholz", "Sonneborn-Berger"]
        state = t("club_events.web.round", round=len(swiss.rounds()), rounds=swiss.s["rounds"])
        body = f"<p>{esc(self._game(swiss.s['game'], lang))} · {esc(state)}</p>"
        body += self._table(head, rows, t("club_events.web.nobody"))
        return self.pages._frame(t("club_events.web.swiss_title", name=sid.partition(":")[2]), body, lang)


def iso_text(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


__all__ = ["EventPages"]
