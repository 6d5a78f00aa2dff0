"""Everything drawn: theme (palette, fonts, felt), widgets, tweens, post-processing, and the
procedural card art (sprites/cards.py, sprites/suits.py)."""

import os as _os

# pygame prints a greeting on import; a game should not.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
