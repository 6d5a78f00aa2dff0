"""Cìcera: its rules, AI and results sentences (see game/games/__init__.py)."""
