"""Cardavia — card games of the regional packs at one table (rules.yaml lists the games).

No arguments open the window. Sub-commands run headless:
  python main.py simulate --game G [--players N] [--deck D] [--matches M] [--seed S] [--bots …] [--out DIR]
  python main.py verify FILE…
  python main.py analyse RECORD --seat N [--budget B] [--json]   (the coach)
  python main.py daily --game G [--preset P] [--date YYYY-MM-DD] --bot LEVEL [--out DIR]
  python main.py puzzles check [--game G] | make --game G --count N --seed S --out FILE | daily --game G
  python main.py serve [--host H] [--port P] [--data DIR] [--workers N] [--certfile F --keyfile F]
  python main.py online host|join …   (see docs/ONLINE.md)
Window options (see ``python main.py --help``) include --screenshot FILE --scene NAME.
``--version`` prints the version; ``--smoke`` passes through every scene and plays one deal.
"""

from __future__ import annotations

import sys

HEADLESS_COMMANDS = ("simulate", "verify", "daily", "analyse", "puzzles")
#: Sub-commands of game/online/cli.py: the table server and the headless online clients.
ONLINE_COMMANDS = ("serve", "online")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--version"]:
        from game import __version__

        print(f"cardavia {__version__}")
        return 0
    if argv == ["--smoke"]:
        from scenes.smoke import run_smoke

        return run_smoke()
    if argv == ["--first-frame"]:
        from scenes.smoke import run_first_frame

        return run_first_frame()
    if argv and argv[0] in HEADLESS_COMMANDS:
        from game.services.cli import main as cli_main

        return cli_main(argv)
    if argv and argv[0] in ONLINE_COMMANDS:
        from game.online.cli import main as online_main

        return online_main(argv)
    from scenes.launch import main as window_main

    return window_main(argv)


if __name__ == "__main__":
    if getattr(sys, "frozen", False):
        # A built executable: the online server's worker processes start as this program
        # again, and must become workers instead of opening a window.
        import multiprocessing

        multiprocessing.freeze_support()
    sys.exit(main())
