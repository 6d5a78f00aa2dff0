"""The widget kit in one import: the controls (:mod:`sprites.controls`) on their base
(:mod:`sprites.widget_base`), the focus manager (:mod:`sprites.focus`), toasts
(:mod:`sprites.toasts`) and card fans (:mod:`sprites.fans`). Scenes import from here.
"""

from __future__ import annotations

from sprites.controls import Button, Choice, Slider, same_caption_size, same_label_size, toggle
from sprites.fans import FallbackCardArt, card_art, card_fan, card_fan_fit, sample_codes
from sprites.focus import UI
from sprites.toasts import Toasts
from sprites.widget_base import CONFIRM_KEYS, DIRECTIONS, Label, Widget, set_feedback

__all__ = [
    "card_fan_fit",
    "Widget",
    "Button",
    "Slider",
    "Choice",
    "toggle",
    "same_label_size",
    "same_caption_size",
    "UI",
    "Toasts",
    "card_art",
    "card_fan",
    "sample_codes",
    "FallbackCardArt",
    "set_feedback",
    "CONFIRM_KEYS",
    "DIRECTIONS",
    "Label",
]
