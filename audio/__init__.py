"""Sound for Cardavia: sounds synthesised in code (synth), a failure-proof player over
pygame.mixer (mixer) and the mapping from game events to sounds (cues). See docs/AUDIO.md.

Importing this package does not import pygame; the device opens on the first audible sound.
"""

from __future__ import annotations

from audio.cues import sounds_for, sounds_for_batch
from audio.mixer import IMPORTANT, SPEED_INTERVALS, Audio, Backend, PygameBackend
from audio.synth import SOUND_NAMES

__all__ = [
    "Audio",
    "Backend",
    "PygameBackend",
    "IMPORTANT",
    "SPEED_INTERVALS",
    "SOUND_NAMES",
    "sounds_for",
    "sounds_for_batch",
]
