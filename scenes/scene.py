"""Scenes, the scene stack (a pushdown automaton) and the registry of scene factories.

Only the top scene gets input and updates; drawing starts at the topmost non-overlay
scene so an overlay (settings, pause) is drawn over the scene beneath it.

Scenes are made by name through factories ``factory(app, **params) -> Scene``. The window
shell's own scenes are registered by module; scenes built later (table, results, rules)
need no edit here: a module ``scenes/<name>.py`` that defines ``create(app, **params)``
(or calls :func:`register_scene` on import) is found by :func:`scene_factory`.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

if TYPE_CHECKING:  # pragma: no cover
    from scenes.app import App

SceneFactory = Callable[..., "Scene"]


class Scene:
    """One screen. Override ``handle``, ``update`` and ``draw``; ``app`` holds the services."""

    #: True for scenes drawn over the one beneath (settings, pause): that one stays visible.
    is_overlay: bool = False
    #: Registry name (set by the factory lookup; used for screenshots and tests).
    name: str = ""

    def __init__(self, app: App):
        self.app = app
        #: Render interpolation between the last two fixed updates (0…1), set before draw.
        self.alpha = 1.0

    def enter(self) -> None:
        """Became the top scene (pushed, or the scene above it was popped)."""

    def leave(self) -> None:
        """Stopped being the top scene (popped, replaced, or covered)."""

    def handle(self, event: pygame.event.Event) -> None:
        """Input; only the top scene receives it."""

    def update(self, dt: float) -> None:
        """One fixed tick of ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw onto the 1280×720 logical canvas."""


class SceneStack:
    """push / pop / replace / top; input and updates go to the top scene only."""

    def __init__(self) -> None:
        self.scenes: list[Scene] = []
        #: Called with (old_top, new_top) after every change (the app uses it for fades).
        self.on_change: Callable[[Scene | None, Scene | None], None] | None = None

    def __len__(self) -> int:
        return len(self.scenes)

    def __bool__(self) -> bool:
        return bool(self.scenes)

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def _changed(self, old: Scene | None) -> None:
        new = self.top
        if old is not new:
            if old is not None and old in self.scenes:
                old.leave()
            if new is not None:
                new.enter()
            if self.on_change:
                self.on_change(old, new)

    def push(self, scene: Scene) -> Scene:
        old = self.top
        self.scenes.append(scene)
        self._changed(old)
        return scene

    def pop(self) -> Scene | None:
        if not self.scenes:
            return None
        old = self.scenes.pop()
        old.leave()
        new = self.top
        if new is not None:
            new.enter()
        if self.on_change:
            self.on_change(old, new)
        return old

    def replace(self, scene: Scene) -> Scene:
        old = self.scenes.pop() if self.scenes else None
        if old is not None:
            old.leave()
        self.scenes.append(scene)
        scene.enter()
        if self.on_change:
            self.on_change(old, scene)
        return scene

    def pop_to(self, scene_type: type) -> None:
        """Pop until the top is an instance of ``scene_type`` (or the stack is empty)."""
        while self.scenes and not isinstance(self.top, scene_type):
            self.pop()

    def handle(self, event: pygame.event.Event) -> None:
        if self.top is not None:
            self.top.handle(event)

    def update(self, dt: float) -> None:
        if self.top is not None:
            self.top.update(dt)

    def visible(self) -> list[Scene]:
        """The scenes to draw, bottom first: the topmost opaque scene and the overlays above it."""
        start = 0
        for i in range(len(self.scenes) - 1, -1, -1):
            if not self.scenes[i].is_overlay:
                start = i
                break
        return self.scenes[start:]

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        for scene in self.visible():
            scene.alpha = alpha
            scene.draw(surface)


class UIScene(Scene):
    """A scene made of widgets: ``self.ui`` routes input, Esc goes back, ``time`` counts up.

    Subclasses add widgets in ``build()``; labels are looked up at draw time so a language
    switch needs no rebuild.
    """

    def __init__(self, app: App):
        super().__init__(app)
        from sprites.widgets import UI

        self.ui = UI()
        self.time = 0.0
        self.build()
        self.ui.ensure_focus()

    def build(self) -> None:
        """Create the widgets (called once from __init__)."""

    def t(self, key: str, **params: Any) -> str:
        return self.app.i18n.t(key, **params)

    def label(self, key: str, **params: Any) -> Callable[[], str]:
        """A label that re-reads its message on every draw (follows language switches)."""
        return lambda: self.app.i18n.t(key, **params)

    def handle(self, event: pygame.event.Event) -> None:
        if self.ui.handle(event):
            return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self.back()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 8:  # the mouse's "back" button
            self.back()

    def back(self) -> None:
        self.app.stack.pop()

    def update(self, dt: float) -> None:
        self.time += dt
        self.ui.update(dt)


# ---------------------------------------------------------------------- registry
_FACTORIES: dict[str, SceneFactory] = {}

#: Where each scene name lives. Names whose module does not exist yet are simply unavailable.
SCENE_MODULES: dict[str, str] = {
    "menu": "scenes.menu",
    "decks": "scenes.deck_select",
    "games": "scenes.game_select",
    "settings": "scenes.settings",
    "table": "scenes.table",
    "results": "scenes.results",
    "rules": "scenes.rules",
    "pause": "scenes.pause",
    "stats": "scenes.stats",
}

#: The scenes beneath each one when it is opened directly (``--scene`` / screenshots).
SCENE_PARENTS: dict[str, tuple[str, ...]] = {
    "menu": (),
    "decks": ("menu",),
    "games": ("menu", "decks"),
    "settings": ("menu",),
    "table": ("menu", "decks", "games"),
    "results": ("menu", "decks", "games"),
    "rules": ("menu",),
    "pause": ("menu", "decks", "games", "table"),
    "stats": ("menu",),
}


def register_scene(name: str, factory: SceneFactory) -> None:
    """Make ``name`` openable: ``factory(app, **params)`` returns the scene."""
    _FACTORIES[name] = factory


def unregister_scene(name: str) -> None:
    _FACTORIES.pop(name, None)


def scene_factory(name: str) -> SceneFactory | None:
    """The factory for ``name``, importing its module on first use; None if there is none."""
    if name in _FACTORIES:
        return _FACTORIES[name]
    module_name = SCENE_MODULES.get(name)
    if module_name is None:
        return None
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name == module_name:  # the scene is not built yet; a missing dependency is a real error
            return None
        raise
    if name not in _FACTORIES and callable(getattr(module, "create", None)):
        _FACTORIES[name] = module.create
    return _FACTORIES.get(name)


def available_scenes() -> list[str]:
    """Every scene name that can be opened now."""
    names = list(dict.fromkeys([*SCENE_MODULES, *_FACTORIES]))
    return [n for n in names if scene_factory(n) is not None]


def make_scene(app: App, name: str, **params: Any) -> Scene | None:
    factory = scene_factory(name)
    if factory is None:
        return None
    scene = factory(app, **params)
    scene.name = scene.name or name
    return scene


__all__ = [
    "Scene", "SceneStack", "UIScene", "register_scene", "unregister_scene", "scene_factory", "available_scenes",
    "make_scene", "SCENE_MODULES", "SCENE_PARENTS",
]
