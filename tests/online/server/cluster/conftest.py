"""Real Redis and PostgreSQL servers on 127.0.0.1 for the cluster tests (never a mock),
started once per test worker in a temporary folder and stopped at the end. ``make test``
installs them when missing (the Makefile's ``system`` step); every cluster test runs in one
xdist group, so one worker starts them."""

from __future__ import annotations

import io
import shutil
import tempfile
from pathlib import Path

import pytest

from game.online.server.cluster.local import LocalPostgres, LocalRedis


@pytest.fixture(scope="session")
def services():
    folder = Path(tempfile.mkdtemp(prefix="cardavia-cluster-"))
    redis = LocalRedis(folder / "redis")
    try:
        pg = LocalPostgres()
    except BaseException:
        redis.stop()
        raise
    try:
        yield redis, pg
    finally:
        redis.stop()
        pg.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def fresh(services):
    """The servers, emptied: no key in Redis, no table in PostgreSQL."""
    import psycopg
    import redis as redis_py

    r, pg = services
    redis_py.Redis.from_url(r.url).flushall()
    with psycopg.connect(pg.url, autocommit=True) as db:
        db.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    return r, pg


class Sink(io.StringIO):
    """Where a headless player's printing goes."""
