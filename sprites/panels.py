"""Pieces the screens draw alike: a dialog over a veiled screen, a text fitted or cut to its room."""

from __future__ import annotations

import pygame

from sprites import hidpi, theme


def fit_or_cut(s: str, face: str, size: int, room: int, min_size: int) -> tuple[str, int]:
    """``s`` at the largest size that fits ``room``; still too wide at ``min_size``, cut word by
    word with an ellipsis (a long custom variant's name) rather than run over its neighbours."""
    while size > min_size and theme.text_width(s, face, size) > room:
        size -= 1
    while theme.text_width(s, face, size) > room and " " in s:
        s = s.rsplit(" ", 1)[0].rstrip(" ·:") + "…"
    theme.note_box(s, theme.text_width(s, face, size), room)
    return s, size


def modal(surface: pygame.Surface, box: pygame.Rect, appear: float, veil_alpha: int = 140) -> pygame.Rect:
    """A dialog over a veiled screen: the veil at ``veil_alpha`` × ``appear`` (0–1), then the panel
    at ``box`` sliding up 16 px as it appears. Returns where the panel was drawn."""
    veil = hidpi.surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((0, 0, 0, int(veil_alpha * appear)))
    surface.blit(veil, (0, 0))
    at = box.move(0, round((1 - appear) * 16))
    surface.blit(theme.shadow(at.size, 16, 10, 150), (at.x - 10, at.y - 4))
    surface.blit(theme.panel(at.size, 16, (10, 30, 20, 242), theme.BRASS), at)
    return at
