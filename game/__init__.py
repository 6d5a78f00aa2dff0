"""Cardavia rules core: pure Python, never imports pygame."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # ``from game import __version__``: read from pyproject.toml (game.version) on first use,
    # so importing the package reads no file.
    if name == "__version__":
        from game.version import version

        return version()
    raise AttributeError(f"module 'game' has no attribute {name!r}")
