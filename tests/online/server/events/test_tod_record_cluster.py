"""``tod_record`` on the cluster: a tournament deal played on one process is served by the
other (its record is in the shared store, not only in the data folder of the process that
played it), byte for byte the record the player was given; a record of no deal of the
tournament is still ``unknown``."""

from __future__ import annotations

import argparse
import io

import pytest

from game.online.client.clubclient import account_secret
from game.online.client.events import tournament
from game.online.server.cluster import ClusterConfig
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from game.services.settings import load_settings
from tests.online.server.cluster.conftest import fresh, services  # noqa: F401 - the cluster's fixtures
from tests.online.server.events.helpers import signed_in

pytestmark = pytest.mark.xdist_group("cluster")

GAME = "briscola"


def test_a_record_played_on_one_process_is_served_by_the_other(tmp_path, fresh):  # noqa: F811
    r, pg = fresh
    a, b = (
        start_server_in_thread(
            data_dir=tmp_path / name,
            cluster=ClusterConfig(r.url, pg.url, process_id=name),
            limits=ServerLimits(tournament_deals=1),
        )
        for name in ("a", "b")
    )
    try:
        folder = tmp_path / "records"
        args = argparse.Namespace(
            server=a.url, game=GAME, preset=None, bot="random", name="Anna", records=str(folder), seed=5, timeout=60.0
        )
        out, err = io.StringIO(), io.StringIO()
        assert tournament(args, out, err) == 0, out.getvalue() + err.getvalue()
        (path,) = folder.glob("*.jsonl")
        code = path.stem
        assert (tmp_path / "a" / f"{code}.jsonl").exists() and not list((tmp_path / "b").rglob(f"{code}.jsonl"))
        secret = account_secret(load_settings(default_language="en").settings.extra, a.url, "Anna")
        anna, _ = signed_in(b.url, "Anna", secret)
        ask = {"type": "tod_record", "game": GAME, "preset": None, "date": None}
        got = anna.request({**ask, "code": code}, "tod_record")
        assert got["code"] == code and got["deal"] == 0
        assert got["record"] == path.read_text("utf-8")
        other = code[:-1] + ("B" if code[-1] != "B" else "C")  # a code of no deal of it
        assert anna.request({**ask, "code": other}, "error")["code"] == "unknown"
        anna.close()
    finally:
        for h in (a, b):
            h.stop()
