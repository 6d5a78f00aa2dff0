"""The coach: every decision of one seat in a record valued by the hard search on
what that seat knew, classed, and explained in words.

- :mod:`game.coach.hooks` — what the coach asks of a game (its part ``coach``: the game's
  points per search utility, the shipped budget, the reasons for a worse move);
- :mod:`game.coach.analysis` — a record walked to the seat's decisions and each one valued;
- :mod:`game.coach.words` — a decision's reason and moves in the player's language;
- :mod:`game.coach.cli` — ``main.py analyse RECORD --seat N [--budget B] [--json]``.

No pygame here: the window's coach view (scenes/coach/) only draws what this computes.
"""
