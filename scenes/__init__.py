"""Scenes: one module (or package) per screen, registered by name in ``registry.py``; the
Scene base and the SceneStack (``scene.py``), the app and its loop (``app.py``), the window
(``window.py``) and the command line (``launch.py``)."""

import os as _os

# pygame prints a greeting on import; a game should not.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
