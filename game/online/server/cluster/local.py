"""Throwaway Redis and PostgreSQL servers on 127.0.0.1 in a folder, for the tests and the
benchmarks (``make test`` and ``bench/server_load.py --processes N``): real servers, never a
mock. Debian's ``redis-server`` and ``postgresql`` (``initdb``/``pg_ctl``); PostgreSQL refuses
to run as root, so as root it runs as the ``postgres`` user (Debian's package makes it).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path


class ServiceError(RuntimeError):
    """A server could not be started (one line: what is missing and how to get it)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, seconds: float, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise ServiceError(f"the server on port {port} exited at once (code {proc.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise ServiceError(f"nothing listens on 127.0.0.1:{port} after {seconds:g} s")


class LocalRedis:
    """``redis-server`` on 127.0.0.1 with its append-only file in ``folder``."""

    def __init__(self, folder: Path, port: int | None = None):
        exe = shutil.which("redis-server")
        if exe is None:
            raise ServiceError("redis-server is not installed (Debian: apt-get install redis-server)")
        self.exe, self.folder = exe, Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None
        self.start()

    def start(self, appendonly: str = "yes") -> None:
        args = [
            self.exe,
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--dir",
            str(self.folder),
            "--appendonly",
            appendonly,
            "--appendfsync",
            "everysec",
            "--save",
            "",
            "--protected-mode",
            "yes",
            "--daemonize",
            "no",
            "--logfile",
            str(self.folder / "redis.log"),
        ]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_port(self.port, 10.0, self.proc)

    def stop(self, kill: bool = False) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill() if kill else self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def restart(self, down_for: float = 0.0) -> None:
        """Stop (writing the append-only file), stay down ``down_for`` seconds, start again."""
        self.stop()
        time.sleep(down_for)
        self.start()

    def snapshot(self) -> Path:
        """Save the data set now (``SAVE``) and keep a copy: what :meth:`restore_behind` goes back to."""
        import redis

        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=10)
        try:
            client.save()
        finally:
            client.close()
        kept = self.folder / "behind.rdb"
        shutil.copyfile(self.folder / "dump.rdb", kept)
        return kept

    def restore_behind(self, snapshot: Path) -> None:
        """A Redis that comes back behind (a failover to a late replica, a crash that lost its
        last writes): killed, then started from an older ``snapshot`` with everything written
        since gone; then append-only again, as before."""
        import redis

        self.stop(kill=True)
        shutil.rmtree(self.folder / "appendonlydir", ignore_errors=True)
        shutil.copyfile(snapshot, self.folder / "dump.rdb")
        # With appendonly on and no append-only file Redis would start empty: the dump is
        # read with it off, and the append-only file made from what was read.
        self.start(appendonly="no")
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=10)
        try:
            client.config_set("appendonly", "yes")
        finally:
            client.close()


def _pg_bin(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    if found is None:
        raise ServiceError(f"PostgreSQL's {name} is not installed (Debian: apt-get install postgresql)")
    return found


class LocalPostgres:
    """A PostgreSQL cluster made with ``initdb`` in ``folder``, on 127.0.0.1 (trust for the
    local user ``cardavia`` only: it is a throwaway for tests)."""

    def __init__(self, folder: Path | None = None, port: int | None = None):
        self._made = folder is None or os.geteuid() == 0
        if folder is None or self._made:
            # As root the folder must be the postgres user's and reachable by it: a new one
            # in a world-traversable place (a test's own temporary folder is root's, 0700).
            import tempfile

            base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else "/tmp"
            folder = Path(tempfile.mkdtemp(prefix="cardavia-pg-", dir=base))
        self.folder = Path(folder)
        self.data = self.folder / "pgdata"
        self.port = port or free_port()
        self.url = f"postgresql://cardavia@127.0.0.1:{self.port}/cardavia"
        self._as: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL will not run as root: as its own user
            try:
                import pwd

                pwd.getpwnam("postgres")
            except KeyError:
                raise ServiceError(
                    "as root PostgreSQL needs the 'postgres' user (Debian's postgresql makes it)"
                ) from None
            self._as = [shutil.which("runuser") or "runuser", "-u", "postgres", "--"]
        self.folder.mkdir(parents=True, exist_ok=True)
        if self._as:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run(
            [
                _pg_bin("initdb"),
                "-D",
                str(self.data),
                "-U",
                "cardavia",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
                "--locale=C",
            ]
        )
        self.start()
        self._run([_pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "cardavia", "cardavia"])

    def _run(self, args: list[str]) -> None:
        try:
            subprocess.run([*self._as, *args], check=True, capture_output=True, timeout=60, cwd=self.folder)
        except subprocess.CalledProcessError as e:
            tail = (e.stderr or b"").decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
            raise ServiceError(f"{Path(args[0]).name} failed: {tail[0]}") from None

    def start(self) -> None:
        opts = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories='{self.folder}' "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            [
                _pg_bin("pg_ctl"),
                "-D",
                str(self.data),
                "-o",
                opts,
                "-l",
                str(self.folder / "postgres.log"),
                "-w",
                "-t",
                "30",
                "start",
            ]
        )

    def halt(self) -> None:
        """Stop the database (a crash or an upgrade as the clients see it); :meth:`start` again."""
        self._run([_pg_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "-t", "20", "stop"])

    def _pids(self) -> list[int]:
        """The postmaster and its children: every process of this database."""
        try:
            first = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return []
        pids = [first]
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                        parent = int(f.read().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
                if parent == first:
                    pids.append(int(entry))
        return pids

    def freeze(self) -> None:
        """SIGSTOP every process of the database: connections open, nothing answers (a hung
        server, a network that drops packets); :meth:`thaw` goes on."""
        import signal

        self._frozen = self._pids()
        for pid in self._frozen:
            os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        import signal

        for pid in getattr(self, "_frozen", []):
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self._frozen = []

    def stop(self) -> None:
        self.thaw()
        if self.data.exists():
            try:
                self._run([_pg_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "-t", "20", "stop"])
            except ServiceError:
                pass
        if self._made:
            shutil.rmtree(self.folder, ignore_errors=True)


__all__ = ["LocalPostgres", "LocalRedis", "ServiceError", "free_port"]
