"""The coach in the window: the results screen's line and the coach view.

- :mod:`~scenes.coach.common` — the window's budget and the jobs' keep-alive;
- :mod:`~scenes.coach.banner` — "Your deal: 1 blunder, 2 mistakes — see why" on the results
  screen: the deal is analysed in a background thread (game.coach.job) while the results are
  shown, with a progress bar; it never blocks input.
- :mod:`~scenes.coach.scene` — the coach view ("coach"), over the replay viewer: from mistake
  to mistake, the table as the player saw it (only the player's hand face up), the move
  played and the better one outlined, the reason and the value of every legal move; "Try it
  again from here" rebuilds the match at that decision (practice in the statistics).

The analysis itself is game.coach's (no pygame); these modules only draw it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scenes.coach.scene import CoachScene
    from scenes.scene import AppServices


def create(app: AppServices, **params: object) -> CoachScene:
    """The coach view (the registry's "coach"): see :func:`scenes.coach.scene.create`."""
    from scenes.coach.scene import create as create_view

    return create_view(app, **params)  # type: ignore[arg-type]  # the registry's parameters, checked there


__all__ = ["create"]
