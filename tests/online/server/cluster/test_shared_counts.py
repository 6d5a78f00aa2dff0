"""What the processes of a cluster count together, in Redis (game.online.server.cluster.shared):
the quotas of open tables, the daily deal's seed and its once-per-account list."""

from __future__ import annotations

import pytest

from game.online.server.cluster import ClusterConfig
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from tests.online.wshelp import Client

pytestmark = pytest.mark.xdist_group("cluster")


def test_quotas_and_the_daily_deal_are_counted_once_for_the_whole_cluster(tmp_path, fresh):
    import datetime as dt

    r, pg = fresh
    a, b = (
        start_server_in_thread(
            data_dir=tmp_path / n,
            limits=ServerLimits(tables_per_player=2),
            cluster=ClusterConfig(r.url, pg.url, process_id=n),
        )
        for n in ("a", "b")
    )
    clients = []
    try:

        def signed_in(url: str, name: str, secret: str | None) -> tuple[Client, str]:
            c = Client(url, name)
            clients.append(c)
            reply = c.request({"type": "account", "name": name, "secret": secret}, "account")
            return c, reply["secret"] or secret

        spec = {
            "type": "create",
            "game": "briscola",
            "deck": None,
            "players": 2,
            "options": {},
            "seats": ["friend", "ai:easy"],
            "pause_seconds": 60,
            "ai_takes_over": True,
        }
        quin, secret = signed_in(a.url, "Quin", None)
        quin.request(spec, "created")
        quin.request(spec, "created")
        again, _ = signed_in(b.url, "Quin", secret)  # the same account through the other process
        assert again.request(spec, "error")["code"] == "limit", "one quota for the cluster"
        rui, secret = signed_in(a.url, "Rui", None)
        rui.request({"type": "daily", "game": "briscola", "preset": None}, "created")
        twice, _ = signed_in(b.url, "Rui", secret)
        assert twice.request({"type": "daily", "game": "briscola", "preset": None}, "error")["code"] == "played"
        day = dt.date.today().isoformat()
        seeds = {s.server.play.daily_board.rules_deal(day, "briscola", None)[0].seed for s in (a, b)}
        assert len(seeds) == 1, "one seed of the day for every process"
    finally:
        for c in clients:
            c.close()
        for s in (a, b):
            s.stop()
