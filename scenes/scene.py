"""Scenes and the scene stack (a pushdown automaton).

Only the top scene gets input and updates; drawing starts at the topmost non-overlay
scene so an overlay (settings, pause) is drawn over the scene beneath it.

Scenes are known by name: the stack opens, finds and unwinds them by name
(``push("rules", deck=…)``, ``pop_to("menu")``, ``replace("table", …)``, ``find("table")``)
through the one registry in :mod:`scenes.registry`, so no scene imports another scene or
tests ``isinstance`` to find its way back. The app hands the registry to its stack: this
module imports no registry, since every registered scene imports this module.

Life cycle: ``enter`` when a scene becomes the top, ``leave`` when it stops being the top
(covered, popped or replaced), and ``close`` once, when the app shuts down with the scene
still on the stack (``App.shutdown`` calls it on every scene, top first).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import pygame

from game.rules.vocabulary import JsonObject
from sprites.focus import UI

if TYPE_CHECKING:  # the services' types only (none of them imports a scene)
    from audio import Audio
    from game.config_types import Config
    from game.services.i18n import I18n
    from game.services.settings import Settings
    from game.services.speech import Speech
    from scenes.window import GameWindow
    from sprites.toasts import Toasts


class ScreenSpeaking(Protocol):
    """What the screen's speech keeps (:class:`scenes.speak.ScreenSpeech`): the scene it has
    said last, so a scene speaks up only while it is the one on the screen."""

    top: Scene | None

    def tick(self) -> None: ...


class AppServices(Protocol):
    """The application a scene is given (:class:`scenes.app.App` is the one): its settings,
    words, speech and sound, the scene stack and the window. Scenes name these members and
    nothing else of the app; a stand-in for tests needs only those its scene reaches."""

    @property
    def config(self) -> Config: ...
    @property
    def settings(self) -> Settings: ...
    @property
    def i18n(self) -> I18n: ...
    @property
    def stack(self) -> SceneStack: ...
    @property
    def toasts(self) -> Toasts: ...
    #: Sound where there is a device and a window; None keeps the game silent.
    @property
    def audio(self) -> Audio | None: ...
    @property
    def speech(self) -> Speech: ...
    @property
    def screen_speech(self) -> ScreenSpeaking: ...
    @property
    def window(self) -> GameWindow: ...
    #: False for screenshots and tests: no window, no sound, speech only logged.
    @property
    def has_window(self) -> bool: ...
    @property
    def persist(self) -> bool: ...
    @property
    def canvas(self) -> pygame.Surface: ...
    #: Seconds since the app started (the fixed ticks').
    @property
    def time(self) -> float: ...

    @property
    def language(self) -> str: ...

    def t(self, key: str, **params: object) -> str: ...

    def sound(self, name: str) -> None: ...

    def say(self, text: str | None, interrupt: bool = False) -> None: ...

    def toast(self, message: str) -> None: ...

    def set_setting(self, name: str, value: object, commit: bool = True) -> None: ...

    def save_settings(self) -> None: ...

    def apply_settings(self) -> None: ...

    def open_scene(self, name: str, **params: object) -> bool: ...

    def open_path(self, name: str, **params: object) -> None: ...

    def quit(self) -> None: ...

    def update(self, dt: float = ...) -> None: ...

    def render(self, alpha: float = 1.0) -> pygame.Surface: ...

    def present(self) -> None: ...

    def settle(self, ticks: int = ...) -> None: ...


class SceneCatalogue(Protocol):
    """What the stack asks of the scene registry (:mod:`scenes.registry` is one)."""

    def make_scene(self, app: AppServices, name: str, **params: object) -> Scene | None: ...

    def scene_parents(self, name: str) -> tuple[str, ...]: ...


class Scene:
    """One screen. Override ``handle``, ``update`` and ``draw``; ``app`` holds the services."""

    #: True for scenes drawn over the one beneath (settings, pause): that one stays visible.
    is_overlay: bool = False
    #: Registry name (set when the scene is made by name; used by the stack, screenshots, tests).
    name: str = ""

    def __init__(self, app: AppServices):
        self.app = app
        #: Render interpolation between the last two fixed updates (0…1), set before draw.
        self.alpha = 1.0

    def enter(self) -> None:
        """Became the top scene (pushed, or the scene above it was popped)."""

    def leave(self) -> None:
        """Stopped being the top scene (popped, replaced, or covered)."""

    def close(self) -> None:
        """The app is shutting down with this scene on the stack (window closed, Quit,
        SIGTERM): keep what must be kept, stop threads. Called once, after the last frame."""

    def handle(self, event: pygame.event.Event) -> None:
        """Input; only the top scene receives it."""

    def update(self, dt: float) -> None:
        """One fixed tick of ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw onto the 1280×720 logical canvas."""


class SceneStack:
    """push / pop / replace / pop_to / find, by scene or by registered name; input and
    updates go to the top scene only.

    ``app`` is what by-name operations build scenes for, through ``catalogue`` (the registry:
    ``catalogue.make_scene(app, name, **params)``); a stack without them handles scene objects only.
    """

    def __init__(self, app: AppServices | None = None, catalogue: SceneCatalogue | None = None) -> None:
        self.app = app
        self.catalogue = catalogue
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

    def names(self) -> list[str]:
        """The scenes' names, bottom first."""
        return [s.name for s in self.scenes]

    def find(self, name: str) -> Scene | None:
        """The topmost scene called ``name``, or None."""
        for scene in reversed(self.scenes):
            if scene.name == name:
                return scene
        return None

    def make(self, name: str, **params: object) -> Scene:
        """A new scene ``name`` from the registry; LookupError when there is none."""
        scene = None
        if self.app is not None and self.catalogue is not None:
            scene = self.catalogue.make_scene(self.app, name, **params)
        if scene is None:
            raise LookupError(f"scene {name!r} is not available")
        return scene

    def _scene(self, scene: Scene | str, params: JsonObject) -> Scene:
        return self.make(scene, **params) if isinstance(scene, str) else scene

    def _notify(self, old: Scene | None, new: Scene | None) -> None:
        if self.on_change:
            self.on_change(old, new)

    # ------------------------------------------------------------------ changes
    def push(self, scene: Scene | str, **params: object) -> Scene:
        """Put ``scene`` (or a new scene of that name, built with ``params``) on top."""
        scene = self._scene(scene, params)
        old = self.top
        self.scenes.append(scene)
        if old is not None:
            old.leave()
        scene.enter()
        self._notify(old, scene)
        return scene

    def pop(self) -> Scene | None:
        """Remove the top scene; the one beneath becomes the top."""
        if not self.scenes:
            return None
        old = self.scenes.pop()
        old.leave()
        new = self.top
        if new is not None:
            new.enter()
        self._notify(old, new)
        return old

    def replace(self, scene: Scene | str, **params: object) -> Scene:
        """Swap the top scene for ``scene`` (or a new scene of that name)."""
        scene = self._scene(scene, params)
        old = self.scenes.pop() if self.scenes else None
        if old is not None:
            old.leave()
        self.scenes.append(scene)
        scene.enter()
        self._notify(old, scene)
        return scene

    def pop_to(self, name: str) -> Scene:
        """Unwind to the topmost scene called ``name`` (one transition, however many scenes
        go). When there is none, the stack starts over with a new ``name`` and the scenes
        registered beneath it — so ``pop_to("menu")`` gets back to the menu from anywhere."""
        target = self.find(name)
        if target is None:
            return self.reset(name)
        old = self.top
        while self.scenes and self.scenes[-1] is not target:
            self.scenes.pop().leave()  # leave() after removal: the scene knows it is gone
        if old is not target:
            target.enter()
            self._notify(old, target)
        return target

    def clear(self) -> None:
        """Remove every scene, top first (each gets ``leave``)."""
        while self.scenes:
            self.scenes.pop().leave()

    def reset(self, name: str, **params: object) -> Scene:
        """Start over: clear the stack, then open ``name`` above its registered parents
        (each built with ``params``). No transition is animated."""
        old = self.top
        self.clear()
        on_change, self.on_change = self.on_change, None  # one change, not one per scene
        try:
            parents = self.catalogue.scene_parents(name) if self.catalogue is not None else ()
            for n in (*parents, name):
                self.push(n, **params)
        finally:
            self.on_change = on_change
        top = self.top
        assert top is not None
        if old is not None:
            self._notify(None, top)
        return top

    # ------------------------------------------------------------------ the loop
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

    def __init__(self, app: AppServices):
        super().__init__(app)
        self.ui = UI()
        self.time = 0.0
        self.build()
        self.ui.ensure_focus()

    def build(self) -> None:
        """Create the widgets (called once from __init__)."""

    def t(self, key: str, **params: object) -> str:
        return self.app.i18n.t(key, None, **params)

    def label(self, key: str, **params: object) -> Callable[[], str]:
        """A label that re-reads its message on every draw (follows language switches)."""
        return lambda: self.app.i18n.t(key, None, **params)

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


__all__ = ["AppServices", "ScreenSpeaking", "Scene", "SceneCatalogue", "SceneStack", "UIScene"]
