"""Puzzles in the window (Learn → Puzzles): positions from real deals with one right move.

- :mod:`~scenes.puzzles.choose` — the puzzles screen ("puzzles"): by game, by theme or mixed;
  the puzzle of the day of each game; "Your mistakes"; the dashboard (rating now and over
  time, themes strong and weak, streaks).
- :mod:`~scenes.puzzles.table` — a puzzle ("puzzle"): the ordinary table (scenes.table) on a
  :class:`~scenes.puzzles.session.PuzzleSession`, with the panel (:mod:`~scenes.puzzles.panel`).
- :mod:`~scenes.puzzles.words` — the panel's and the screen reader's words (no pygame);
  :mod:`~scenes.puzzles.common` — the player's progress, the next puzzle, the day's.

The puzzles themselves (the positions, the judge, the ratings, the progress file) are
game.puzzles: pygame-free.
"""
