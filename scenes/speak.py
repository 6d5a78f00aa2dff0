"""What a screen reader is told about the screens: each scene's name as it comes up, and
the control under the keyboard focus (its words and its state) whenever either changes.

The app calls :meth:`ScreenSpeech.tick` once per fixed update; it looks at the top scene
and says what changed through ``app.speech`` (:class:`game.services.speech.Speech`, which logs and
queues, never blocks). A scene can tell more than its controls:

- ``speech_title() -> str | None``: its name (default: ``access.scene_<registry name>``);
- ``speech_opening() -> list[str]``: the lines it gives on opening (the table: your hand,
  the table cards, the trump and the stock, whose turn it is; ``--speech-log`` of a
  ``--screenshot`` run);
- ``speech_focus() -> str | None``: what has its focus when that is not a control (the
  table's card under the cursor).

A control says its ``spoken`` words when it has them (the settings rows, whose labels the
panel draws), else its caption or label; a chooser adds its value, a slider its number.
"""

from __future__ import annotations

from game.card_names import Translate
from scenes.scene import AppServices, Scene
from sprites.widget_base import label_text


def widget_words(widget: object, t: Translate) -> str:
    """One control in words: what it is, then its state ("Speech: screen reader only")."""
    name = label_text(getattr(widget, "spoken", None)) or label_text(getattr(widget, "caption", None))
    if hasattr(widget, "options") and hasattr(widget, "index"):  # a chooser or a switch
        opts = widget.options
        value = label_text(opts[widget.index][1]) if opts else ""
        text = f"{name}: {value}" if name else value
    elif hasattr(widget, "fmt") and hasattr(widget, "get"):  # a slider
        value = widget.fmt(widget.get())
        text = f"{name}: {value}" if name else value
    else:
        text = label_text(getattr(widget, "label", None)) or name or getattr(widget, "name", "")
    if not getattr(widget, "enabled", True):
        text = t("access.unavailable", what=text)
    return text


def scene_title(app: AppServices, scene: Scene) -> str | None:
    """The scene's name in words, or None when it has none to say."""
    fn = getattr(scene, "speech_title", None)
    if callable(fn):
        return fn()
    key = f"access.scene_{getattr(scene, 'name', '')}"
    return app.t(key) if app.i18n.has(key) or app.i18n.has(key, "en") else None


def opening_lines(app: AppServices, scene: Scene) -> list[str]:
    """What a screen reader gets as ``scene`` opens: its name, its own lines, its focus."""
    lines: list[str] = []
    title = scene_title(app, scene)
    if title:
        lines.append(title)
    fn = getattr(scene, "speech_opening", None)
    if callable(fn):
        lines.extend(x for x in fn() if x)
    focus = focus_words(app, scene)
    if focus and focus not in lines:
        lines.append(focus)
    return lines


def focus_words(app: AppServices, scene: Scene) -> str | None:
    """What has the keyboard focus in ``scene``: its own answer first, else the control."""
    fn = getattr(scene, "speech_focus", None)
    if callable(fn):
        said = fn()
        if said is not None:
            return said or None
    ui = getattr(scene, "ui", None)
    w = getattr(ui, "focused", None) if ui is not None else None
    return widget_words(w, app.t) if w is not None else None


class ScreenSpeech:
    """Says a new top scene (its opening lines, interrupting) and each focus change."""

    def __init__(self, app: AppServices):
        self.app = app
        self.top: Scene | None = None
        self.focus: str | None = None
        self.said: str | None = None

    def tick(self) -> None:
        app = self.app
        speech = app.speech
        if speech is None:
            return
        top = app.stack.top
        if top is not self.top:
            self.top = top
            if top is None:
                return
            lines = opening_lines(app, top)
            for i, line in enumerate(lines):
                speech.say(line, interrupt=(i == 0))
            self.focus = focus_words(app, top)
            self.said = lines[-1] if lines else None
            return
        if top is None:
            return
        now = focus_words(app, top)
        if now != self.focus:
            self.focus = now
            if now:
                # A focus line cuts the focus line before it (arrowing along), never the
                # table's story (a computer's play being told).
                speech.say(now, interrupt=speech.last == self.said)
                self.said = now


__all__ = ["ScreenSpeech", "widget_words", "scene_title", "opening_lines", "focus_words"]
