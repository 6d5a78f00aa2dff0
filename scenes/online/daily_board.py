"""The day's leaderboard on the online daily screen (scenes.online.daily): rank, name, score,
par, points over par and time, your own line lit (and shown below the board when it is not
among the lines drawn); a sample board for screenshots and the text-fit checks."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pygame

from game.card_names import Translate
from sprites import theme

ROWS = 8
ROW_H = 25
#: The board's columns: (key under daily_online., share of the width, anchor).
COLUMNS = (
    ("col_rank", 0.07, "midleft"),
    ("col_name", 0.33, "midleft"),
    ("col_score", 0.12, "center"),
    ("col_par", 0.12, "center"),
    ("col_over", 0.16, "center"),
    ("col_time", 0.2, "center"),
)
UP, DOWN = (150, 205, 140), (226, 136, 112)


def clock(seconds: float) -> str:
    """A play's time as m:ss (h:mm:ss past an hour)."""
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def sample_board(day: dt.date, game: str, preset: str) -> dict[str, object]:
    """A board as a server sends it, for screenshots and the text-fit checks."""
    names = [
        "Giulia",
        "Wwwwwwwwwwwwwwwwwwww",
        "Anna",
        "Matthias",
        "Luca",
        "Sofie",
        "Jan",
        "Greta",
        "Marco",
        "Elena",
        "Pieter",
        "Chiara",
    ]
    lines = [
        {
            "name": n,
            "score": 9 - i // 2,
            "par": 5.333,
            "over_par": round(9 - i // 2 - 5.333, 3),
            "seconds": 95.0 + 37 * i,
        }
        for i, n in enumerate(names)
    ]
    closed = day < dt.date.today()
    return {
        "info": {
            "date": day.isoformat(),
            "game": game,
            "preset": preset,
            "hash": "3f" * 32,
            "seed": 2718281828459045 if closed else None,
            "nonce": "a1" * 16 if closed else None,
        },
        "lines": lines,
        "mine": dict(lines[-1], name="Chiara"),
    }


def board_rows(board: dict[str, Any] | None) -> list[tuple[str, dict[str, Any], bool]]:
    """(rank, line, mine) for each line drawn: the first ROWS, then your own line when it
    is further down."""
    b = board or {}
    lines = b.get("lines") or []
    mine = b.get("mine")
    me = mine["name"].casefold() if mine else None
    out = [(str(i + 1), ln, ln["name"].casefold() == me) for i, ln in enumerate(lines[:ROWS])]
    if mine is not None and not any(m for _, _, m in out):
        rank = next((str(i + 1) for i, ln in enumerate(lines) if ln["name"].casefold() == me), "—")
        out.append((rank, mine, True))
    return out


def draw_board(
    surface: pygame.Surface, t: Translate, board: dict[str, object] | None, left: int, y: int, width: int
) -> None:
    """The board at (left, y), ``width`` wide: a header of the columns, then ``board_rows``
    (your own line lit), or a line saying there is nothing (yet) to show. ``t`` is the
    message lookup."""
    xs, x = [], left
    for _key, share, _anchor in COLUMNS:
        xs.append((x, int(width * share)))
        x += int(width * share)
    for (key, _share, anchor), (cx, cw) in zip(COLUMNS, xs):
        text = t(f"daily_online.{key}")
        pos = (cx + 8, y + 4) if anchor == "midleft" else (cx + cw // 2, y + 4)
        theme.small_caps(
            surface,
            text,
            pos,
            theme.fit(text, "cond_bold", 12, cw - 12, 8, 0.16, True),
            theme.BRASS,
            anchor="topleft" if anchor == "midleft" else "midtop",
        )
    y += 22
    pygame.draw.line(surface, theme.BRASS_DARK, (left, y), (left + width, y))
    y += 4
    rows = board_rows(board)
    if not rows:
        empty = t("daily_online.empty" if board is not None else "daily_online.no_board")
        for i, wrapped in enumerate(theme.wrap(empty, "serif", 16, width - 40, max_lines=3)):
            theme.blit_text(
                surface, wrapped, (left + width // 2, y + 40 + 22 * i), "serif", 16, theme.CREAM_DIM, anchor="midtop"
            )
        return
    for k, (rank, ln, mine) in enumerate(rows):
        band = pygame.Rect(left, y, width, ROW_H)
        fill = (255, 230, 170, 40) if mine else (255, 255, 255, 11 if k % 2 == 0 else 0)
        if fill[3]:
            surface.blit(theme.rounded(band.size, 6, fill), band)
        over = ln["over_par"]
        texts = (rank, ln["name"], f"{ln['score']:g}", f"{ln['par']:.1f}", _signed(over), clock(ln["seconds"]))
        for i, (text, (cx, cw)) in enumerate(zip(texts, xs)):
            face = "sans_bold" if mine or i == 4 else "sans"
            color = (
                (UP if over > 0 else DOWN if over < 0 else theme.CREAM)
                if i == 4
                else (theme.BRASS_LIGHT if mine else theme.CREAM)
            )
            size = theme.fit(text, face, 15, cw - 16, 9)
            if COLUMNS[i][2] == "midleft":
                theme.blit_text(surface, text, (cx + 8, band.centery), face, size, color, anchor="midleft")
            else:
                theme.blit_text(surface, text, (cx + cw // 2, band.centery), face, size, color, anchor="center")
        y += ROW_H + 1


def _signed(v: float) -> str:
    from game.services.par import over_par

    return over_par(v, 0)


__all__ = ["COLUMNS", "ROWS", "board_rows", "clock", "draw_board", "sample_board"]
