"""An error the game does not foresee, in the window: nothing lost, a report, a short message.

:func:`run_guarded` runs the window's loop. When anything in it raises, it

1. closes every scene as the close button would (the table saves its match in progress),
2. writes a crash report to the user data folder (game.services.crash: version, platform, traceback,
   the log's last lines, the match's record so far); nothing is sent anywhere,
3. shows "Cardavia stopped because of an error. A report was saved: PATH" in the window's
   language (drawn, spoken to a screen reader, and one line on stderr — never a traceback),
   until a key, a click or the close button, and
4. ends with :data:`EXIT_CRASH`.

The next start offers to open the report's folder (scenes.crash_notice, :func:`offer_report`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from game.services import crash
from scenes.scene import AppServices

#: The window's exit code after such an error (README, "Exit codes").
EXIT_CRASH = 3
#: How long the message stays at most when nobody presses a key (seconds).
MESSAGE_SECONDS = 120.0
#: Drivers nobody looks at: the message is not waited on there.
UNSEEN_DRIVERS = ("dummy", "offscreen")


def run_guarded(
    app: AppServices, body: Callable[[], int], tail: crash.LogTail | None = None, wait: float | None = None
) -> int:
    """``body()`` (the loop), or after an error it did not handle: save, report, tell, exit 3."""
    try:
        return body()
    except Exception as error:  # noqa: BLE001 - this is the last line of defence: everything lands here
        return crashed(app, error, tail, wait)


def crashed(
    app: AppServices, error: BaseException, tail: crash.LogTail | None = None, wait: float | None = None
) -> int:
    """Everything after the error, each step guarded so that one failing leaves the others."""
    record = current_record(app)
    saved = save_everything(app)
    context = _context(app)
    path, problem = crash.write_report(
        error, log=tail.tail() if tail is not None else (), record=record, context=context
    )
    lines = message_lines(app, path, problem, saved)
    print(f"cardavia: {lines[0]}", file=sys.stderr)
    show_message(app, lines, wait)
    return EXIT_CRASH


def current_record(app: AppServices) -> list[dict] | None:
    """The record so far of the match on the stack (the topmost scene holding a session)."""
    try:
        for scene in reversed(list(app.stack.scenes)):
            match = getattr(getattr(scene, "session", None), "match", None)
            events = getattr(match, "events", None)
            if isinstance(events, list) and events:
                return [dict(ev) for ev in events if isinstance(ev, dict)]
    except Exception:  # noqa: BLE001 - a stack in a broken state: the report says no match
        pass
    return None


def save_everything(app: AppServices) -> bool:
    """Close every scene, top first, as the close button does (the table saves its match);
    True when a match in progress is now in the save."""
    for scene in reversed(list(app.stack.scenes)):
        try:
            scene.close()
        except Exception as e:  # noqa: BLE001 - one scene's failure must not cost the others' saves
            print(
                f"cardavia: could not close the {getattr(scene, 'name', None) or 'scene'} cleanly: {e}", file=sys.stderr
            )
    try:
        from game.services import saves

        data, _problem = saves.load_match()
        return bool(data) and not saves.read_only
    except Exception:  # noqa: BLE001 - an unreadable save is not a saved match
        return False


def _context(app: AppServices) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, get in (
        ("screens", lambda: " > ".join(s.name or "?" for s in app.stack.scenes) or "none"),
        ("language", lambda: app.language),
        ("picture", lambda: "GPU" if app.window.gpu else "CPU"),
        ("window", lambda: "x".join(map(str, app.window.window_size()))),
    ):
        try:
            out[key] = str(get())
        except Exception:  # noqa: BLE001 - a fact that cannot be read is left out
            pass
    return out


def message_lines(app: AppServices, path: object, problem: str | None, saved: bool) -> list[str]:
    """The message in the window's language: what happened, then what was kept."""

    def t(key: str, fallback: str, **params: object) -> str:
        try:
            return app.t(key, **params)
        except Exception:  # noqa: BLE001 - a broken locale must not hide the message
            return fallback.format(**params)

    if path is not None:
        first = t("crash.stopped", "Cardavia stopped because of an error. A report was saved: {path}", path=str(path))
    else:
        first = t(
            "crash.stopped_unsaved",
            "Cardavia stopped because of an error. The report could not be saved ({reason}).",
            reason=problem or "?",
        )
    lines = [first]
    if saved:
        lines.append(t("crash.match_saved", "Your match in progress was saved: the menu offers it next time."))
    lines.append(t("crash.close_hint", "Press a key or click to close."))
    return lines


def show_message(app: AppServices, lines: list[str], wait: float | None = None) -> None:
    """Draw the message in the window and say it; wait for a key, a click or the close button
    (not under a driver nobody sees). Nothing here may raise."""
    try:
        app.say(" ".join(lines[:-1]), interrupt=True)
    except Exception:  # noqa: BLE001 - no speech: the picture and stderr still tell
        pass
    if not app.has_window:
        return
    try:
        draw_message(app, lines)
        app.present()
    except Exception:  # noqa: BLE001 - a display that cannot draw any more: stderr has said it
        return
    if wait is None:
        wait = 0.0 if os.environ.get("SDL_VIDEODRIVER", "") in UNSEEN_DRIVERS else MESSAGE_SECONDS
    import pygame as pg

    deadline = time.monotonic() + wait
    try:
        while time.monotonic() < deadline:
            for event in pg.event.get():
                if event.type in (pg.QUIT, pg.KEYDOWN, pg.MOUSEBUTTONDOWN, pg.WINDOWCLOSE):
                    return
            pg.time.wait(50)
    except Exception:  # noqa: BLE001 - the display went away: leave
        return


def draw_message(app: AppServices, lines: list[str]) -> None:
    """The message on a plain green ground: only the theme's text and panels, none of the
    scenes' code (which may be what failed)."""
    from sprites import theme

    canvas = app.canvas
    w, h = canvas.get_size()
    canvas.fill(theme.FELT_DEEP)
    box_w = min(900, w - 80)
    body: list[tuple[str, int, tuple[int, int, int]]] = []
    for i, line in enumerate(lines):
        size = 20 if i == 0 else 16
        color = theme.CREAM if i == 0 else (theme.CREAM_FAINT if i == len(lines) - 1 else theme.CREAM_DIM)
        for part in theme.wrap(line, "sans", size, box_w - 64, max_lines=4):
            body.append((part, size, color))
    box_h = 110 + sum(round(size * 1.5) for _, size, _ in body) + 12 * (len(lines) - 1)
    x, y = (w - box_w) // 2, max(20, (h - box_h) // 2)
    canvas.blit(theme.panel((box_w, box_h), 16, theme.PANEL_SOLID, theme.BRASS), (x, y))
    theme.heading(canvas, "Cardavia", (w // 2, y + 22), 30, anchor="midtop")
    ty = y + 84
    last_size = None
    for part, size, color in body:
        if last_size is not None and size != last_size:
            ty += 12
        theme.blit_text(canvas, part, (w // 2, ty), "sans", size, color, anchor="midtop")
        ty += round(size * 1.5)
        last_size = size


def offer_report(app: AppServices) -> bool:
    """At start: a report the player has not been offered yet opens the notice over the
    first screen (its folder one button away). True when it was offered."""
    try:
        if crash.pending_report() is None:
            return False
        return bool(app.open_scene("crash_notice"))
    except Exception:  # noqa: BLE001 - the offer is a courtesy; the game starts without it
        return False


__all__ = [
    "EXIT_CRASH",
    "run_guarded",
    "crashed",
    "current_record",
    "save_everything",
    "message_lines",
    "show_message",
    "draw_message",
    "offer_report",
]
