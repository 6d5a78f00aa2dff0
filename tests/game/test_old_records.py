"""Records written by `simulate` before the games became registered facts (commit ed0c76e)
still verify: the rules, the record format and the referee kept their behaviour."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.record import read_record
from game.verify import verify_file

FOLDER = Path(__file__).resolve().parent.parent / "records_before_registry"
RECORDS = sorted(FOLDER.glob("*.jsonl"))


def test_the_old_records_cover_every_game_of_then():
    games = {read_record(p)[0]["game"] for p in RECORDS}
    assert len(games) == 4 and len(RECORDS) >= 16


@pytest.mark.parametrize("path", RECORDS, ids=[p.name for p in RECORDS])
def test_an_old_record_still_verifies(path):
    verdict = verify_file(str(path))
    assert verdict.ok, str(verdict)
