"""Cardavia rules core: pure Python, never imports pygame."""

__version__ = "0.1.0"
