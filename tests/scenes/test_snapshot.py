"""scenes/snapshot.py's own PNG encoder: what it writes decodes to the surface's pixels, the
same ones pygame's encoder keeps, with and without per-pixel alpha."""

from __future__ import annotations

import io
import random

import pygame
import pytest

from scenes.snapshot import PNG_SIGNATURE, encode_png, save_png


def _noisy(size: tuple[int, int], alpha: bool) -> pygame.Surface:
    surf = pygame.Surface(size, pygame.SRCALPHA if alpha else 0)
    rng = random.Random(5)
    for x in range(size[0]):
        for y in range(size[1]):
            surf.set_at(
                (x, y),
                (rng.randrange(256), rng.randrange(256), rng.randrange(256), rng.randrange(256) if alpha else 255),
            )
    return surf


@pytest.mark.parametrize("alpha", [False, True], ids=["rgb", "rgba"])
@pytest.mark.parametrize("size", [(1, 1), (97, 41)])
def test_the_png_decodes_to_the_surfaces_pixels(size, alpha):
    surf = _noisy(size, alpha)
    data = encode_png(surf)
    assert data.startswith(PNG_SIGNATURE)
    back = pygame.image.load(io.BytesIO(data), "shot.png")
    mode = "RGBA" if alpha else "RGB"
    assert back.get_size() == size
    assert pygame.image.tobytes(back, mode) == pygame.image.tobytes(surf, mode)
    theirs = io.BytesIO()
    pygame.image.save(surf, theirs, "shot.png")  # pygame's own encoder keeps the same pixels
    assert pygame.image.tobytes(
        pygame.image.load(io.BytesIO(theirs.getvalue()), "shot.png"), mode
    ) == pygame.image.tobytes(back, mode)


def test_save_png_writes_the_file_and_never_replaces_one_without_overwrite(tmp_path):
    surf = _noisy((30, 20), False)
    target = tmp_path / "shot.png"
    assert save_png(surf, target) is None
    assert target.read_bytes() == encode_png(surf)
    assert save_png(surf, target) is not None  # exists
    assert save_png(surf, target, overwrite=True) is None
