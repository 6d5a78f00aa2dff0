"""The one scene registry: every scene the app can open, by name.

Each entry says where the scene comes from — a module path (``"scenes.menu"``, imported on
first use; its ``create(app, **params)`` builds the scene) or a factory callable — and which
scenes lie beneath it when it is opened directly (``--scene``, screenshots, tests). Nothing
else registers scenes: no module registers itself on import, and the scene modules never
import one another to reach a scene; they ask the stack by name (``app.stack.push("rules")``).

Modules are imported lazily by name, so this module imports no scene and no scene imports
it at load time: there is no import cycle through the registry.

A test (or a later feature) registers a stand-in with :func:`register_scene`;
:func:`unregister_scene` undoes that registration and the earlier entry is back.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from scenes.scene import AppServices, Scene

SceneFactory = Callable[..., Scene]

#: Beneath a scene registered without ``parents``: the menu.
DEFAULT_PARENTS: tuple[str, ...] = ("menu",)


@dataclass(frozen=True)
class SceneSpec:
    """One registration: ``source`` is a module path or a factory ``(app, **params) -> Scene``."""

    name: str
    source: str | SceneFactory
    parents: tuple[str, ...] = DEFAULT_PARENTS
    previous: SceneSpec | None = None  # the entry this one shadows (restored by unregister_scene)


#: name → its registration. Read through the functions below.
SCENES: dict[str, SceneSpec] = {}


def register_scene(name: str, source: str | SceneFactory, parents: tuple[str, ...] | None = None) -> None:
    """Make ``name`` openable. ``source``: a module path whose ``create(app, **params)`` builds
    the scene, or the factory itself. ``parents`` default to those of the entry it shadows,
    else ``("menu",)``."""
    old = SCENES.get(name)
    if parents is None:
        parents = old.parents if old is not None else DEFAULT_PARENTS
    SCENES[name] = SceneSpec(name, source, tuple(parents), old)


def unregister_scene(name: str) -> None:
    """Undo the latest :func:`register_scene` of ``name`` (the entry it shadowed comes back)."""
    spec = SCENES.pop(name, None)
    if spec is not None and spec.previous is not None:
        SCENES[name] = spec.previous


def scene_factory(name: str) -> SceneFactory | None:
    """The factory for ``name``, importing its module on first use; None if there is none
    (not registered, or its module is not there)."""
    spec = SCENES.get(name)
    if spec is None:
        return None
    if callable(spec.source):
        return spec.source
    try:
        module = importlib.import_module(spec.source)
    except ModuleNotFoundError as e:
        if e.name == spec.source:  # the scene is not built; a missing dependency is a real error
            return None
        raise
    create = getattr(module, "create", None)
    return create if callable(create) else None


def scene_parents(name: str) -> tuple[str, ...]:
    """The scenes beneath ``name`` when it is opened directly, bottom first."""
    spec = SCENES.get(name)
    return spec.parents if spec is not None else DEFAULT_PARENTS


def scene_names() -> list[str]:
    """Every registered name, in registration order (available or not)."""
    return list(SCENES)


def available_scenes() -> list[str]:
    """Every scene name that can be opened now."""
    return [n for n in SCENES if scene_factory(n) is not None]


def make_scene(app: AppServices, name: str, **params: object) -> Scene | None:
    """A new scene ``name`` built with ``params``; None when there is no such scene."""
    factory = scene_factory(name)
    if factory is None:
        return None
    scene = factory(app, **params)
    scene.name = scene.name or name
    return scene


# ---------------------------------------------------------------------- the app's scenes
for _name, _module, _parents in (
    ("menu", "scenes.menu", ()),
    ("decks", "scenes.deck_select", ("menu",)),
    ("games", "scenes.game_select", ("menu", "decks")),
    ("settings", "scenes.settings", ("menu",)),
    ("accessibility", "scenes.access_settings", ("menu", "settings")),
    ("table", "scenes.table", ("menu", "decks", "games")),
    ("results", "scenes.results.scene", ("menu", "decks", "games")),
    ("rules", "scenes.rules", ("menu",)),
    ("pause", "scenes.pause", ("menu", "decks", "games", "table")),
    ("stats", "scenes.stats", ("menu",)),
    # The daily deal and duplicate deals, opened from a game's block on the games screen.
    ("daily", "scenes.daily", ("menu",)),
    ("scoresheet", "scenes.table.sheet", ("menu", "decks", "games", "table")),
    # Replays and watching: the viewer, the kept matches, a computer match, saving a record.
    ("replay", "scenes.replay", ("menu",)),
    ("replays", "scenes.replay.library", ("menu",)),
    ("watch", "scenes.replay.watch", ("menu",)),
    ("save_record", "scenes.replay.prompt", ("menu",)),
    # The coach: one seat's decisions analysed, over the replay viewer.
    ("coach", "scenes.coach", ("menu",)),
    # Online tables: host or join, the two forms, the lobby (the table is "table").
    ("online", "scenes.online.choice", ("menu",)),
    ("online_host", "scenes.online.host", ("menu", "online")),
    ("online_join", "scenes.online.join", ("menu", "online")),
    ("online_lobby", "scenes.online.lobby", ("menu", "online")),
    # The club servers: the list of servers, a server's lobby with quick match.
    ("online_club", "scenes.online.club", ("menu", "online")),
    ("online_club_lobby", "scenes.online.clublobby", ("menu", "online")),
    # A club's events: today's tournaments, arenas, Swiss tournaments, challenges.
    ("online_events", "scenes.online.events", ("menu", "online")),
    # Watching a club table, and the Players panel over a club table (mute, block, report, chat).
    ("online_watch", "scenes.online.spectator", ("menu", "online")),
    ("online_manners", "scenes.online.manners", ("menu", "online")),
    # A club server's daily deal and its leaderboard, from the daily deals screen.
    ("online_daily", "scenes.online.daily", ("menu", "daily")),
    # Lessons: the Learn screen and a lesson at the table.
    ("learn", "scenes.learn.choose", ("menu",)),
    ("lesson", "scenes.learn.table", ("menu", "learn")),
    # Puzzles: the chooser with the dashboard (Learn → Puzzles) and a puzzle at the table.
    ("puzzles", "scenes.puzzles.choose", ("menu", "learn")),
    ("puzzle", "scenes.puzzles.table", ("menu", "learn", "puzzles")),
    # The start after a crash: the report's folder offered (scenes.crash).
    ("crash_notice", "scenes.crash_notice", ("menu",)),
):
    register_scene(_name, _module, _parents)

__all__ = [
    "SceneSpec",
    "SceneFactory",
    "SCENES",
    "register_scene",
    "unregister_scene",
    "scene_factory",
    "scene_parents",
    "scene_names",
    "available_scenes",
    "make_scene",
]
