"""The club server's read-only web pages, plain HTTP on the server's own port (docs/ONLINE.md,
"Web pages"): a request without ``Upgrade: websocket`` is answered here instead of by the
protocol.

  /                         the lobby: open public tables, players waiting for a quick match
  /leaderboard/<game>       a game's leaderboard (and the computers' published ratings)
  /player/<name>            a player's recent finished matches, with links to their records
  /record/<CODE>.jsonl      the record of a finished club match (never of one being played)

Server-rendered HTML with no script, every text escaped (``html.escape``), every link's part
quoted; the language from ``?lang=`` or the browser's ``Accept-Language`` (en, nl, de, it).
"""

from __future__ import annotations

import html
import re
import urllib.parse
from collections.abc import Callable, Mapping
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from game.online.server.accounts import Player
from game.services.i18n import FALLBACK, LANGUAGES, I18n

#: The longest request path looked at (anything longer is a 404).
MAX_PATH = 300
_RECORD_RE = re.compile(r"/record/([A-Z2-9]{10})\.jsonl")
RESULT_KEYS = {
    "won": "club.web.result_won",
    "lost": "club.web.result_lost",
    "draw": "club.web.result_draw",
    "left": "club.web.result_left",
}
STYLE = (
    "body{font-family:sans-serif;margin:2em auto;max-width:52em;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ccc;padding:.3em .5em;"
    "text-align:left}nav a{margin-right:1em}.num{text-align:right}"
)


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def language(query: dict[str, list[str]], accept: str | None) -> str:
    asked = (query.get("lang") or [""])[0][:5]
    if asked in LANGUAGES:
        return asked
    for part in (accept or "").split(",")[:10]:
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return FALLBACK


class WebPages:
    """Renders the pages from the server's club (tables, quick queue, database)."""

    def __init__(self, server: Any):
        self.server = server
        self.i18n = I18n(FALLBACK)

    # ---- the HTTP side
    def respond(self, connection: ServerConnection, request: Request) -> Response:
        path = request.path if isinstance(request.path, str) else "/"
        parsed = urllib.parse.urlsplit(path[: MAX_PATH * 2])
        query = urllib.parse.parse_qs(parsed.query[:200])
        lang = language(query, request.headers.get("Accept-Language"))
        try:
            status, content_type, body = self.page(urllib.parse.unquote(parsed.path)[:MAX_PATH], lang)
        except Exception:  # noqa: BLE001 - a page's bug is a 500, never the server's end
            import logging

            logging.getLogger("cardavia.server").exception("a web page failed")
            status, content_type, body = 500, "text/plain; charset=utf-8", "500"
        response = connection.respond(status, "")
        data = body.encode("utf-8")
        response.body = data
        for key, value in (
            ("Content-Length", str(len(data))),
            ("Content-Type", content_type),
            ("X-Content-Type-Options", "nosniff"),
            ("Cache-Control", "no-store"),
            ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'"),
        ):
            if key in response.headers:  # websockets' Headers keep every value given: replace, not add
                del response.headers[key]
            response.headers[key] = value
        return response

    def health(self) -> tuple[int, str, str]:
        """For a load balancer: 200 while this process takes players, 503 while it drains or
        cannot reach its Redis; the body is its status (no secret, no card)."""
        import json

        node = getattr(self.server, "node", None)
        if node is None:
            status = {
                "process": None,
                "tables": sum(1 for t in self.server.tables.values() if not t.finished),
                "connections": len(self.server.conns),
                "leases": None,
            }
            ok = True
        else:
            status = node.status()
            ok = not node.draining and node.redis_ok
        return (200 if ok else 503), "application/json", json.dumps({"ok": ok, **status})

    def page(self, path: str, lang: str) -> tuple[int, str, str]:
        """(status, content type, body) for ``path``."""
        if path == "/health":
            return self.health()
        t = self._t(lang)
        if path in ("/", "/index.html"):
            return 200, "text/html; charset=utf-8", self.lobby_page(lang)
        if path.startswith("/leaderboard/"):
            game = path[len("/leaderboard/") :]
            from game.rulesets import game_ids

            if game in game_ids():
                return 200, "text/html; charset=utf-8", self.board_page(game, lang)
        if path.startswith("/player/"):
            name = path[len("/player/") :]
            player = self.server.db.player_by_name(name) if 0 < len(name) <= 40 else None
            if player is not None:
                return 200, "text/html; charset=utf-8", self.player_page(player, lang)
        events = getattr(self.server, "events", None)  # the club's events' pages (game.online.server.events.web)
        shown = events.web_page(self, path, lang) if events is not None else None
        if shown is not None:
            return shown
        found = _RECORD_RE.fullmatch(path)
        if found and self.server.db.finished_match(found.group(1)):
            path_ = self.server.store.record_path(found.group(1))
            try:
                return 200, "application/x-ndjson; charset=utf-8", path_.read_text("utf-8")
            except OSError:
                pass
        return (
            404,
            "text/html; charset=utf-8",
            self._frame(t("club.web.not_found"), f"<p>{esc(t('club.web.not_found_body'))}</p>", lang),
        )

    # ---- pages
    def _t(self, lang: str) -> Callable[..., str]:
        return lambda key, **kw: self.i18n.t(key, lang, **kw)

    def _game_name(self, game: str, lang: str) -> str:
        from game.config import get_config

        try:
            names = get_config().game(game).name
        except (KeyError, ValueError):
            return game
        if isinstance(names, Mapping):
            return str(names.get(lang) or names.get("en") or game)
        return str(names)

    def _frame(self, title: str, body: str, lang: str) -> str:
        from game.rulesets import game_ids

        t = self._t(lang)
        links = [
            f'<a href="/?lang={lang}">{esc(t("club.web.lobby"))}</a>',
            f'<a href="/events?lang={lang}">{esc(t("club_events.web.title"))}</a>',
        ] + [
            f'<a href="/leaderboard/{urllib.parse.quote(g)}?lang={lang}">{esc(self._game_name(g, lang))}</a>'
            for g in game_ids()
        ]
        return (
            f'<!doctype html><html lang="{esc(lang)}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)} · Cardavia</title><style>{STYLE}</style></head><body>"
            f"<nav>{' '.join(links)}</nav><h1>{esc(title)}</h1>{body}</body></html>"
        )

    def _plate(self, p: dict[str, Any], lang: str) -> str:
        t = self._t(lang)
        if p.get("level"):
            return esc(
                t(
                    "club.web.computer",
                    level=t(f"ai.{p['level']}") if p["level"] != "greedy" else p["level"],
                    rating=p["rating"],
                )
            )
        if p.get("name") is None:
            return esc(t("club.web.free_seat"))
        mark = "?" if p.get("provisional") else ""
        link = f"/player/{urllib.parse.quote(p['name'], safe='')}?lang={lang}"
        away = f" ({esc(t('club.web.by_computer'))})" if p.get("by_ai") else ""
        rating = f" {esc(p['rating'])}{mark}" if p.get("rating") is not None else ""
        return f'<a href="{esc(link)}">{esc(p["name"])}</a>{rating}{away}'

    def lobby_page(self, lang: str) -> str:
        t = self._t(lang)
        listing = self.server.club.table_list()
        rows = []
        for r in listing["tables"]:
            plates = ", ".join(self._plate(p, lang) for p in r["plates"])
            state = t("club.web.playing") if r["started"] else t("club.web.seats_free", count=r["free"])
            rows.append(
                f"<tr><td>{esc(self._game_name(r['game'], lang))}</td><td><code>{esc(r['code'])}</code></td>"
                f"<td>{plates}</td><td>{esc(state)}</td><td class=num>{esc(r['watchers'])}</td></tr>"
            )
        head = (
            f"<tr><th>{esc(t('club.web.game'))}</th><th>{esc(t('club.web.code'))}</th>"
            f"<th>{esc(t('club.web.players'))}</th><th>{esc(t('club.web.state'))}</th>"
            f"<th class=num>{esc(t('club.web.watchers'))}</th></tr>"
        )
        table = f"<table>{head}{''.join(rows)}</table>" if rows else f"<p>{esc(t('club.web.no_tables'))}</p>"
        waiting = f"<p>{esc(t('club.web.waiting', count=listing['waiting']))}</p>"
        return self._frame(t("club.web.lobby_title"), waiting + table, lang)

    def board_page(self, game: str, lang: str) -> str:
        t = self._t(lang)
        club = self.server.club
        rows = []
        for line in club.leaderboard(game):
            mark = "?" if line["provisional"] else ""
            link = f"/player/{urllib.parse.quote(line['name'], safe='')}?lang={lang}"
            rows.append(
                f'<tr><td class=num>{line["rank"]}</td><td><a href="{esc(link)}">{esc(line["name"])}</a></td>'
                f"<td class=num>{esc(line['rating'])}{mark}</td><td class=num>{esc(line['matches'])}</td></tr>"
            )
        head = (
            f"<tr><th class=num>#</th><th>{esc(t('club.web.player'))}</th><th class=num>{esc(t('club.web.rating'))}</th>"
            f"<th class=num>{esc(t('club.web.matches'))}</th></tr>"
        )
        table = f"<table>{head}{''.join(rows)}</table>" if rows else f"<p>{esc(t('club.web.no_players'))}</p>"
        from game.online.server.ratings import computer_display

        computers = ", ".join(f"{t(f'ai.{lvl}')} {computer_display(lvl)}" for lvl in ("easy", "normal", "hard"))
        note = f"<p>{esc(t('club.web.computers', list=computers))}</p><p>{esc(t('club.web.provisional'))}</p>"
        return self._frame(t("club.web.board_title", game=self._game_name(game, lang)), table + note, lang)

    def player_page(self, player: Player, lang: str) -> str:
        t = self._t(lang)
        rows = []
        for m in self.server.db.recent_matches(player.id):
            others = ", ".join(
                self._plate(p, lang) for p in m["summary"].get("players", []) if p.get("seat") != m["seat"]
            )
            change = f"{m['old']} → {m['new']}" if m["rated"] and m["old"] is not None else t("club.web.unrated")
            record = f'<a href="/record/{esc(m["code"])}.jsonl">{esc(t("club.web.record"))}</a>'
            rows.append(
                f"<tr><td>{esc(self._game_name(m['game'], lang))}</td><td>{esc(t(RESULT_KEYS.get(m['result'], 'club.web.result_lost')))}</td>"
                f"<td>{others}</td><td>{esc(change)}</td><td>{record}</td></tr>"
            )
        head = (
            f"<tr><th>{esc(t('club.web.game'))}</th><th>{esc(t('club.web.result'))}</th>"
            f"<th>{esc(t('club.web.opponents'))}</th><th>{esc(t('club.web.rating'))}</th><th></th></tr>"
        )
        table = f"<table>{head}{''.join(rows)}</table>" if rows else f"<p>{esc(t('club.web.no_matches'))}</p>"
        return self._frame(t("club.web.player_title", name=player.name), table, lang)


__all__ = ["WebPages", "esc", "language"]
