"""The window's command line: ``python main.py [--screenshot FILE --scene NAME] [options]``.

Parses and checks the options (a bad one is one line on stderr and exit code 2, never a
traceback), loads config and settings, then either renders one scene to a PNG off-screen
(``--screenshot``) or opens the window and runs the app. ``main.py`` dispatches here; the
headless sub-commands (``simulate``, ``verify``) are in :mod:`game.services.cli`, ``--smoke`` and
``--first-frame`` in :mod:`scenes.smoke`.

Nothing lost: ``--screenshot`` never replaces a file without ``--force`` nor writes through a
link (scenes.snapshot); SIGTERM ends a headless run at once (:func:`exit_on_sigterm`). The
window takes its home folder's lock (game.services.storage.claim_home): a second window on the same
folder says so and leaves the first one's match alone (game.services.saves.read_only), while both
write only the settings they changed and add their matches to the statistics under a lock.
Temporary files a killed run left behind are removed at start. An error nothing else catches
ends the window with a crash report and a short message, the match saved first (scenes.crash).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from game.config_types import Config
from game.rules.vocabulary import JsonObject
from game.services.settings import Settings
from scenes.app import SCREENSHOT_TICKS, App
from scenes.registry import available_scenes

if TYPE_CHECKING:
    from game.services.crash import LogTail
    from game.services.storage import HomeLock


class ArgError(Exception):
    """A bad command line; the message is one line for the player."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ArgError(_friendly(message))


def _friendly(message: str) -> str:
    if message.startswith("unrecognized arguments:"):
        args = message.split(":", 1)[1].strip()
        return f"unknown option {args}"
    if message.startswith("argument "):
        opt, _, rest = message[len("argument ") :].partition(": ")
        opt = opt.split("/")[-1]
        if rest.startswith("expected one argument"):
            return f"{opt} needs a value"
        if rest.startswith("invalid choice:"):
            return f"{opt}: {rest[len('invalid choice: ') :]}"
        return f"{opt}: {rest}"
    return message


def _percent(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to 100, not {value!r}") from None
    if not 0 <= n <= 100:
        raise argparse.ArgumentTypeError(f"must be from 0 to 100, not {n}")
    return n


def _ticks(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {value!r}") from None
    if not 0 <= n <= 6000:
        raise argparse.ArgumentTypeError(f"must be from 0 to 6000, not {n}")
    return n


def _size(value: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in value.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must look like 1280x720, not {value!r}") from None
    if not (320 <= w <= 8192 and 180 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"{w}x{h} is out of range (320x180 to 8192x8192)")
    return w, h


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="cardavia",
        description="Cardavia — the card games of Italy and Austria against the computer.",
        epilog="Headless commands: 'simulate', 'verify' and 'daily' (see 'main.py simulate --help'). "
        "'main.py replay FILE' opens a record in the replay viewer. "
        "In the window: F11 fullscreen, F12 screenshot.",
    )
    p.add_argument("--screenshot", metavar="FILE", help="render a scene to this PNG file and exit")
    p.add_argument("--force", action="store_true", help="let --screenshot replace an existing file")
    p.add_argument("--scene", metavar="NAME", help="scene to open: menu, decks, games, settings (default: menu)")
    p.add_argument("--deck", metavar="D", help="deck for the games scene (e.g. piacentine)")
    p.add_argument("--game", metavar="G", help="game to preselect (a game id of rules.yaml)")
    p.add_argument("--lang", choices=("en", "nl", "de", "it"), help="language for this run")
    p.add_argument("--players", type=int, metavar="N", help="players at the table (table scene; a count a game offers)")
    p.add_argument("--seed", type=int, metavar="S", help="fixed cards for the table scene (a mid-deal screenshot)")
    p.add_argument(
        "--overlay",
        metavar="NAME",
        help="table scene: show a panel or aid over the table: log (the play log), review (the last "
        "trick or capture), pile (your pile), sheet (the score sheet), suggest (the suggested move); "
        "daily scene: daily or duplicate (a deal played by bots, then its results); "
        "lesson scene: good, wrong (that move played at --step N) or done; "
        "puzzle scene: right, wrong, solution (after a wrong move) or solved",
    )
    p.add_argument(
        "--match-end",
        action="store_true",
        help="results scene: play the demo match to its end and show the match result",
    )
    p.add_argument("--contrast", type=_percent, metavar="N", help="picture contrast 0–100 (50 neutral)")
    p.add_argument("--grain", type=_percent, metavar="N", help="film grain 0–100 (50 neutral)")
    p.add_argument("--temperature", type=_percent, metavar="N", help="colour temperature 0–100 (50 neutral)")
    p.add_argument("--fullscreen", action="store_true", help="start in fullscreen")
    p.add_argument("--window", type=_size, metavar="WxH", help="window size (default 1280x720)")
    p.add_argument(
        "--render",
        choices=("auto", "cpu", "gpu"),
        help="where the picture is post-processed: the graphics card where there is one (auto, the "
        "default), always the CPU, or the GPU (the CPU, with a line, where OpenGL is missing)",
    )
    p.add_argument("--ticks", type=_ticks, default=SCREENSHOT_TICKS, help=argparse.SUPPRESS)
    # Accessibility.
    p.add_argument(
        "--speech-log",
        metavar="FILE",
        help="write every line the game speaks to FILE (with --screenshot: the lines a screen reader "
        "is given on opening that scene)",
    )
    p.add_argument("--speech", choices=("off", "on", "screen_reader"), help="speech for this run (Settings)")
    p.add_argument(
        "--clear-suits",
        action="store_true",
        help="four clearly different suit colours, a suit letter in each corner, a high-contrast table",
    )
    p.add_argument("--card-size", choices=("normal", "large", "xlarge"), help="card size for this run")
    p.add_argument("--text-size", choices=("normal", "large", "xlarge"), help="text size for this run")
    # Replays: 'main.py replay FILE' is '--scene replay --record FILE'.
    p.add_argument(
        "--record",
        metavar="FILE",
        help="replay scene: the .jsonl record to open (also: main.py replay FILE); "
        "coach scene: the record whose seat 0 the coach analyses",
    )
    p.add_argument(
        "--step",
        type=_ticks,
        metavar="N",
        help="replay scene: show the table after N lines of the record; lesson scene: stand at step N; "
        "puzzle scene: the game's N-th puzzle",
    )
    return p


def _validate(args: argparse.Namespace, config: Config) -> None:
    if args.scene is not None:
        names = available_scenes()
        if args.scene not in names:
            raise ArgError(f"unknown scene {args.scene!r} (scenes: {', '.join(names)})")
    if args.deck is not None and args.deck not in config.decks:
        raise ArgError(f"unknown deck {args.deck!r} (decks: {', '.join(config.decks)})")
    if args.game is not None:
        if args.game not in config.games:
            raise ArgError(f"unknown game {args.game!r} (games: {', '.join(config.games)})")
        if args.deck is not None and args.game not in config.decks[args.deck].games:
            raise ArgError(
                f"the {args.deck} deck does not offer {args.game} "
                f"(it offers: {', '.join(config.decks[args.deck].games)})"
            )
    if args.players is not None:
        # The counts the games offer, from their rules (rules.yaml's ``players``).
        offered = sorted({n for g in config.games.values() for n in g.players})
        if args.players not in offered:
            raise ArgError(f"--players {args.players}: not a count offered (offered: {', '.join(map(str, offered))})")
    if args.record is not None or args.step is not None:
        if args.scene is None and args.record is not None:
            args.scene = "replay"
        coach = args.scene == "coach" and args.step is None  # the coach view on a record's seat 0
        if args.scene != "replay" and not coach and not (args.scene in ("lesson", "puzzle") and args.record is None):
            raise ArgError(
                "--record is for the replay and coach scenes, --step for the replay, lesson and puzzle scenes"
            )
        if args.record is not None:
            rec = Path(args.record).expanduser()
            if not rec.exists():
                raise ArgError(f"--record {rec}: there is no such file")
            if rec.is_dir():
                raise ArgError(f"--record {rec} is a folder")
    if args.overlay is not None and args.scene == "daily":
        if args.overlay not in ("daily", "duplicate"):
            raise ArgError(f"unknown overlay {args.overlay!r} for the daily scene (overlays: daily, duplicate)")
    elif args.overlay is not None and args.scene == "lesson":
        if args.overlay not in ("good", "wrong", "done"):
            raise ArgError(f"unknown overlay {args.overlay!r} for the lesson scene (overlays: good, wrong, done)")
    elif args.overlay is not None and args.scene == "puzzle":
        if args.overlay not in ("right", "wrong", "solution", "solved"):
            raise ArgError(
                f"unknown overlay {args.overlay!r} for the puzzle scene (overlays: right, wrong, solution, solved)"
            )
    elif args.overlay is not None:
        from scenes.table.scene import OVERLAYS

        if args.scene != "table":
            raise ArgError("--overlay is for the table scene (--scene table)")
        if args.overlay not in OVERLAYS:
            raise ArgError(f"unknown overlay {args.overlay!r} (overlays: {', '.join(OVERLAYS)})")
    for opt, value in (("--speech-log", args.speech_log),):
        _check_output(opt, value, args.force)
    if args.screenshot is not None and not args.screenshot.strip():
        raise ArgError("--screenshot needs a file name")
    if args.screenshot is not None:
        path = Path(args.screenshot).expanduser()
        if os.path.islink(path):
            raise ArgError(f"--screenshot {path} is a symbolic link; it is not written through")
        if path.is_dir():
            raise ArgError(f"--screenshot {path} is a folder")
        from game.services.storage import not_regular

        kind = not_regular(path)
        if kind:  # a FIFO, a device, a socket: --force replaces only a file
            raise ArgError(f"--screenshot {path} is {kind}, not a file; it is not replaced")
        if path.exists() and not args.force:
            raise ArgError(f"--screenshot {path} already exists (add --force to replace it)")


def _check_output(opt: str, value: str | None, force: bool) -> None:
    """A file the run writes: never through a link, never a folder or a device, an existing
    file only with --force."""
    if value is None:
        return
    if not value.strip():
        raise ArgError(f"{opt} needs a file name")
    path = Path(value).expanduser()
    if os.path.islink(path):
        raise ArgError(f"{opt} {path} is a symbolic link; it is not written through")
    if path.is_dir():
        raise ArgError(f"{opt} {path} is a folder")
    from game.services.storage import not_regular

    kind = not_regular(path)
    if kind:
        raise ArgError(f"{opt} {path} is {kind}, not a file; it is not replaced")
    if path.exists() and not force:
        raise ArgError(f"{opt} {path} already exists (add --force to replace it)")
    if not path.parent.is_dir():
        raise ArgError(f"{opt} {path}: there is no folder {path.parent}")


def scene_params(args: argparse.Namespace, config: Config, settings: Settings) -> JsonObject:
    """Parameters for the opened scene: the deck (from --deck, --game, the last used, or the first)."""
    deck = args.deck
    if deck is None and args.game is not None:
        offering = [d.id for d in config.decks_for(args.game)]
        deck = settings.last_deck if settings.last_deck in offering else (offering[0] if offering else None)
    if deck is None:
        deck = settings.last_deck if settings.last_deck in config.decks else next(iter(config.decks))
    params: JsonObject = {"deck": deck}
    if args.game is not None:
        params["game"] = args.game
    if getattr(args, "match_end", False):
        params["match_end"] = True
    if getattr(args, "record", None) is not None:
        params["record"] = str(Path(args.record).expanduser())
    for k in ("players", "seed", "overlay", "step"):
        if getattr(args, k, None) is not None:
            params[k] = getattr(args, k)
    return params


def main(argv: Sequence[str] | None = None) -> int:
    """Open the window (no arguments) or render one scene to a PNG (--screenshot)."""
    from game.services.crash import LogTail

    # What the program writes from here on is kept (its last lines) for a crash report.
    tail = LogTail().install()
    try:
        return _main(argv, tail)
    finally:
        tail.uninstall()


def _main(argv: Sequence[str] | None, tail: LogTail) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "replay":  # main.py replay FILE [options]: the viewer on that record
        if len(argv) < 2 or argv[1].startswith("-"):
            print("cardavia: replay needs a record file: main.py replay FILE (see --help)", file=sys.stderr)
            return 2
        argv = ["--scene", "replay", "--record", argv[1], *argv[2:]]
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except ArgError as e:
        print(f"cardavia: {e} (see --help)", file=sys.stderr)
        return 2
    except SystemExit as e:  # --help
        return int(e.code or 0)

    from game.config import ConfigError, get_config

    try:
        config = get_config()
    except ConfigError as e:
        print(f"cardavia: {e}", file=sys.stderr)
        return 2
    try:
        _validate(args, config)
    except ArgError as e:
        print(f"cardavia: {e} (see --help)", file=sys.stderr)
        return 2

    from game.services.i18n import I18n
    from game.services.settings import load_settings

    home = None
    if args.screenshot is None:
        home = claim_home_folder()
    loaded = load_settings()
    settings = loaded.settings
    overrides = {k: getattr(args, k) for k in ("contrast", "grain", "temperature") if getattr(args, k) is not None}
    if args.lang:
        overrides["language"] = args.lang
    for k in ("speech", "card_size", "text_size"):
        if getattr(args, k) is not None:
            overrides[k] = getattr(args, k)
    if args.clear_suits:
        overrides["clear_suits"] = True
    for k, v in overrides.items():
        setattr(settings, k, v)
    i18n = I18n(settings.language)

    shot = args.screenshot
    if shot is not None:
        # Nothing is shown: render off-screen, so it works without a display too.
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        # A screenshot plays demo matches: their saves and statistics go to a throw-away
        # folder, never over the player's match in progress.
        import atexit
        import shutil
        import tempfile

        scratch = tempfile.mkdtemp(prefix="cardavia-shot-")
        atexit.register(shutil.rmtree, scratch, True)
        os.environ["CARDAVIA_HOME"] = scratch
        # Before SDL starts: SDL turns SIGTERM into a QUIT event nobody reads off-screen.
        exit_on_sigterm(lambda: shutil.rmtree(scratch, True))
    import pygame

    try:
        app = App(
            config,
            settings,
            i18n,
            window=shot is None,
            persist=shot is None,
            fullscreen=True if args.fullscreen else None,
            window_size=args.window,
            speech_log=args.speech_log if shot is None else None,
            render=args.render or settings.render,
        )  # the flag is for this run only
    except pygame.error as e:
        print(f"cardavia: cannot open a window ({e})", file=sys.stderr)
        if home is not None:
            home.release()
        return 1
    if shot is None:
        quit_on_sigterm(app)  # from here on a polite kill saves and exits like the close button
    if loaded.problem:
        app.toast(settings_toast(app, loaded.problem))
    if home is not None and not home.owner:
        app.toast(app.t("toast.second_window"))
    if loaded.first_start and shot is None:
        app.save_settings()
    scene = args.scene or "menu"
    params = scene_params(args, config, settings)
    if shot is not None and scene == "table" and "seed" not in params:
        # A table screenshot shows a deal under way (as with --seed), never the dealing itself.
        import random

        params["seed"] = random.randrange(1, 2**31)
    if shot is None:
        return _run_window(app, scene, params, home, tail)
    app.open_path(scene, **params)
    app.settle(args.ticks)
    app.render(1.0)
    path = Path(shot).expanduser()
    from scenes.snapshot import save_png

    problem = save_png(app.picture(), path, overwrite=args.force)  # at the --window size
    if problem:
        print(f"cardavia: cannot write {path}: {problem}", file=sys.stderr)
        return 1
    if args.speech_log is not None:
        return write_opening_speech(app, Path(args.speech_log).expanduser(), args.force)
    return 0


def _run_window(app: App, scene: str, params: JsonObject, home: HomeLock | None, tail: LogTail) -> int:
    """The window's life: its first screen (a crash report not yet offered on top), the loop;
    an error nothing else caught ends in a report and a message, not a traceback (scenes.crash)."""
    import pygame

    from scenes.crash import offer_report, run_guarded

    def window() -> int:
        app.open_path(scene, **params)
        offer_report(app)
        return app.run()

    try:
        return run_guarded(app, window, tail)
    finally:
        app.speech.close()
        app.save_settings()
        if app.audio is not None:
            app.audio.stop()
        pygame.quit()
        if home is not None:
            home.release()


def write_opening_speech(app: App, path: Path, force: bool) -> int:
    """``--screenshot … --speech-log FILE``: the lines a screen reader is given as the shown
    scene opens, one a line, in the run's language (written atomically)."""
    from game.services.storage import write_bytes
    from scenes.speak import opening_lines

    top = app.stack.top
    lines = opening_lines(app, top) if top is not None else []
    text = "".join(" ".join(line.split()) + "\n" for line in lines)
    problem = write_bytes(path, text.encode("utf-8"), overwrite=force)
    if problem:
        print(f"cardavia: cannot write {path}: {problem}", file=sys.stderr)
        return 1
    return 0


def claim_home_folder() -> HomeLock:
    """Take the home folder's lock and clean what killed runs left; a second window on the
    same folder leaves the first one's match save alone (game.services.saves.read_only)."""
    from game.services import replays, saves, settings, stats
    from game.services.settings import user_config_dir, user_data_dir
    from game.services.storage import claim_home, clean_temp_files

    home = claim_home(user_data_dir())
    # The owner cleans every leftover; a second window only those of a process that is gone
    # or an hour old (the first window may be writing one this very moment). The server's
    # data folder is cleaned by the server as it starts (game.online.server.store).
    age = 0.0 if home.owner else 3600.0
    clean_temp_files(
        [user_data_dir(), user_config_dir()], (saves.FILE_NAME, settings.FILE_NAME, stats.FILE_NAME), min_age=age
    )
    if not os.path.islink(replays.replays_dir()):  # a link there is set aside, never cleaned through
        clean_temp_files([replays.replays_dir()], (f"*{replays.SUFFIX}", replays.INDEX), min_age=age)
    clean_temp_files([user_data_dir() / "screenshots"], ("*.png",), min_age=age)
    saves.read_only = not home.owner
    return home


def settings_toast(app: App, problem: str) -> str:
    """The player's language for a settings file that could not be used."""
    bad = getattr(problem, "bad", None)
    return app.t("toast.settings_damaged", file=bad) if bad else app.t("toast.settings_unreadable")


def exit_on_sigterm(cleanup: Callable[[], object] | None = None) -> None:
    """A headless run (--screenshot, --smoke) ends at once on SIGTERM, exit code 143: no
    window is there to turn SDL's QUIT event into an exit. Installed before SDL starts, so
    SDL keeps its hands off the signal."""
    import signal

    def stop(signum: int, _frame: object) -> None:
        if cleanup is not None:
            try:
                cleanup()
            except Exception:  # noqa: BLE001 - leaving is all that matters now
                pass
        os.write(2, b"cardavia: stopped (SIGTERM)\n")
        os._exit(128 + signum)

    try:
        signal.signal(signal.SIGTERM, stop)
    except (ValueError, OSError, AttributeError):  # not the main thread, or no such signal
        pass


def quit_on_sigterm(app: App) -> None:
    """A polite kill (SIGTERM, logout) leaves like the close button: the loop ends and the
    match is saved. (A hard kill loses nothing either: every move is already saved.)"""
    import signal

    try:
        signal.signal(signal.SIGTERM, lambda *_: app.quit())
    except (ValueError, OSError, AttributeError):  # not the main thread, or no such signal
        pass


__all__ = [
    "main",
    "build_parser",
    "scene_params",
    "ArgError",
    "quit_on_sigterm",
    "exit_on_sigterm",
    "claim_home_folder",
    "settings_toast",
    "write_opening_speech",
]
