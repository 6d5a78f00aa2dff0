"""``--smoke``: open the window, pass through every scene for a few frames, play one deal
AI-vs-AI at top speed, exit 0. Packaging and CI use it to prove the whole program starts."""

from __future__ import annotations

import os
import sys
import time

FRAMES_PER_SCENE = 5
DEAL_TIMEOUT = 120.0  # seconds of wall time for the AI-vs-AI deal


def run_smoke() -> int:
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from scenes.launch import exit_on_sigterm

    exit_on_sigterm()  # before SDL starts: a stuck smoke run ends at once on SIGTERM
    import pygame

    from game.config import ConfigError, get_config
    from game.services.i18n import I18n
    from game.services.settings import load_settings
    from scenes.app import App
    from scenes.registry import available_scenes

    try:
        config = get_config()
    except ConfigError as e:
        print(f"cardavia: {e}", file=sys.stderr)
        return 2
    settings = load_settings(default_language="en").settings
    settings.animation_speed = "instant"
    try:
        app = App(config, settings, I18n(settings.language), window=True, persist=False, render=settings.render)
    except pygame.error as e:
        print(f"cardavia: cannot open a window ({e})", file=sys.stderr)
        return 1
    deck = next(iter(config.decks))
    game = config.decks[deck].games[0]
    seen = []
    for name in available_scenes():
        if name in ("table", "results", "pause"):
            continue  # the deal below goes through them (pause needs a table beneath)
        params = {"deck": deck}
        if name in ("games", "rules"):
            params["game"] = game
        if app.open_scene(name, **params):
            app.run(max_frames=FRAMES_PER_SCENE)
            seen.append(name)
    played = _play_one_deal(app, deck, game)
    pygame.quit()
    gl = app.window.gl
    picture = f"GPU ({gl.renderer})" if gl is not None else "CPU"
    print(
        f"smoke: scenes {', '.join(seen)}; one {game} deal played AI-vs-AI ({played}); "
        f"post-processing on the {picture}; OK"
    )
    return 0


def _play_one_deal(app, deck: str, game: str) -> str:
    """Through the table scene when it exists (all seats AI), else through the match driver."""
    from scenes.registry import available_scenes

    if "table" in available_scenes() and app.open_scene(
        "table", deck=deck, game=game, players=2, options=None, ai_level="greedy", human_seat=None
    ):
        table = app.stack.top
        deadline = time.monotonic() + DEAL_TIMEOUT
        while time.monotonic() < deadline:
            app.run(max_frames=10)
            session = getattr(table, "session", None)
            if session is not None and any(e["event"] == "deal_end" for e in session.match.events):
                return "in the table scene"
        raise SystemExit("smoke: the AI-vs-AI deal did not finish in time")
    from game.services.session import Session

    s = Session.new(game, deck, 2, None, seed=1, human_seat=None, threaded=False)
    s.start()
    while not any(e["event"] == "deal_end" for e in s.match.events):
        s.poll()
    return "headless"


def run_first_frame() -> int:
    """``--first-frame``: start as a player would, show the menu's first frame, exit.
    bench/startup.py times this from launch to exit."""
    import pygame

    from game.config import ConfigError, get_config
    from game.services.i18n import I18n
    from game.services.settings import load_settings
    from scenes.app import App

    try:
        config = get_config()
    except ConfigError as e:
        print(f"cardavia: {e}", file=sys.stderr)
        return 2
    settings = load_settings().settings
    app = App(config, settings, I18n(settings.language), window=True, persist=False, render=settings.render)
    app.open_path("menu", deck=next(iter(config.decks)))
    app.run(max_frames=1)
    pygame.quit()
    return 0
