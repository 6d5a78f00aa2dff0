"""Briscola chiamata: its rules, vocabulary, greedy heuristics and results sentences (see game/games/__init__.py)."""
