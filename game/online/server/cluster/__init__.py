"""The club server beyond one machine (docs/ONLINE.md, "The cluster"): several ``serve``
processes share their tables through Redis (a directory with leases, a stream per record,
the quick-match queue, pub/sub between processes) and their players through PostgreSQL.
Without ``--redis`` / ``--database`` none of this is imported: one process, files and SQLite.
Pure Python: no pygame.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ClusterConfig:
    """``serve --redis URL --database URL [--public-url URL]``: where the shared tables and
    the club's database are, and the address other processes send this one's clients to
    (default: the address it listens on)."""

    redis_url: str | None = None
    database_url: str | None = None
    public_url: str | None = None
    process_id: str | None = None


__all__ = ["ClusterConfig"]
