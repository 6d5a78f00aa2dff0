"""Scenes: one module per screen (menu, deck_select, game_select, settings; table, results and
rules come later) plus the Scene base, the SceneStack and the app loop."""

import os as _os

# pygame prints a greeting on import; a game should not.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
