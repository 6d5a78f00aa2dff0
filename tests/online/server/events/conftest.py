"""The events' tests work out par with small budgets (as the daily deal's do): par is shown
beside a deal and never scores it, and at full budget it is most of these tests' CPU."""

from __future__ import annotations

import pytest

import game.services.par


@pytest.fixture(autouse=True)
def small_par(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game.services.par, "PAR_ITERATIONS", 8)
    monkeypatch.setattr(game.services.par, "PAR_RUNS", 2)
