"""The Debian package, for real: made from the folder build (built beside the one-file program by
the same PyInstaller run, which tests/exe_build.py starts when the session begins), its files
checked, then installed with dpkg as root, started from /usr/bin (``--version``, ``--smoke``),
removed and purged — and the player's settings, saves and records are all still there.

Installing needs root: CI runs the suite as root; elsewhere that part is skipped, said so.
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.services.save_format import SAVE_VERSION
from game.services.session import Session
from game.version import version
from tests import exe_build

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "dist" / "cardavia-onedir"
APP_ID = "io.github.cardavia.Cardavia"
LOCK = Path("/tmp/cardavia-deb-test.lock")  # one install at a time on this machine (other checkouts too)

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("dpkg-deb") is None,
    reason="a Debian package is built where dpkg-deb is",
)


def _deb_module():
    spec = importlib.util.spec_from_file_location("cardavia_deb", ROOT / "packaging" / "linux" / "deb.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _player_env(home: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("XDG_") and k not in ("CARDAVIA_HOME", "CARDAVIA_DATA", exe_build.ENV)
    }
    env.update(HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return env


def _dpkg(*args: str) -> subprocess.CompletedProcess:
    """dpkg, waiting (two minutes at most) while apt or another dpkg holds its lock."""
    deadline = time.monotonic() + 120
    while True:
        done = subprocess.run(
            ["dpkg", *args],
            capture_output=True,
            text=True,
            timeout=300,
            env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"),
        )
        if done.returncode == 0 or "lock" not in done.stderr or time.monotonic() > deadline:
            return done
        time.sleep(2)


def test_the_package_installs_starts_is_removed_and_leaves_the_players_files(tmp_path):
    code, output = exe_build.result()
    assert code == 0, output
    deb = _deb_module().build(FOLDER, tmp_path / "out", fast=True)
    ver = version()
    assert deb.name.startswith(f"cardavia_{ver}_") and deb.name.endswith(".deb")

    # What it installs, as make deb makes it.
    listing = subprocess.run(["dpkg-deb", "--contents", str(deb)], capture_output=True, text=True, check=True).stdout
    entries = {line.split()[5].lstrip("."): line for line in listing.splitlines()}
    assert entries["/opt/cardavia/cardavia"].startswith("-rwxr-xr-x root/root")
    assert "/usr/bin/cardavia -> /opt/cardavia/cardavia" in listing
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        assert f"/usr/share/icons/hicolor/{size}x{size}/apps/{APP_ID}.png" in entries
    info = subprocess.run(
        ["dpkg-deb", "--field", str(deb), "Package", "Version", "Depends"], capture_output=True, text=True, check=True
    ).stdout
    assert f"Version: {ver}" in info and "Depends: libc6 (>= 2." in info
    unpacked = tmp_path / "unpacked"
    subprocess.run(["dpkg-deb", "--extract", str(deb), str(unpacked)], check=True)
    desktop = unpacked / "usr/share/applications" / f"{APP_ID}.desktop"
    metainfo = unpacked / "usr/share/metainfo" / f"{APP_ID}.metainfo.xml"
    text = desktop.read_text(encoding="utf-8")
    assert "Exec=cardavia" in text and f"Icon={APP_ID}" in text
    assert all(f"Comment[{lang}]=" in text for lang in ("nl", "de", "it"))
    assert f'<release version="{ver}"' in metainfo.read_text(encoding="utf-8")
    if shutil.which("desktop-file-validate"):  # installed by `make system`
        check = subprocess.run(["desktop-file-validate", str(desktop)], capture_output=True, text=True)
        assert check.returncode == 0 and not check.stdout.strip(), check.stdout
    if shutil.which("appstreamcli"):
        check = subprocess.run(["appstreamcli", "validate", "--no-net", str(metainfo)], capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr

    if os.geteuid() != 0 or shutil.which("dpkg") is None:
        pytest.skip("installing the package needs root and dpkg (CI runs the suite as root)")
    player = tmp_path / "player"
    data = player / ".local/share/cardavia"
    config = player / ".config/cardavia"
    # A player's files: settings, a match in progress, and what the installed program writes itself.
    data.mkdir(parents=True)
    config.mkdir(parents=True)
    settings = '{"language": "de", "speech": "off"}'
    (config / "settings.json").write_text(settings, encoding="utf-8")
    session = Session.new("briscola", None, 2, None, seed=5, threaded=False)
    session.start()
    save = json.dumps({"version": SAVE_VERSION, **session.to_save()})
    (data / "match.json").write_text(save, encoding="utf-8")
    env = _player_env(player)
    with open(LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        installed = _dpkg("--install", str(deb))
        try:
            assert installed.returncode == 0, installed.stdout + installed.stderr
            assert Path("/usr/bin/cardavia").resolve() == Path("/opt/cardavia/cardavia")
            shown = subprocess.run(
                ["cardavia", "--version"], capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path
            )
            assert shown.returncode == 0 and shown.stdout.strip() == f"cardavia {ver}", shown.stderr
            smoke = subprocess.run(
                ["cardavia", "--smoke"], capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path
            )  # from elsewhere: its data comes from /opt/cardavia
            assert smoke.returncode == 0 and "OK" in smoke.stdout, smoke.stdout[-2000:] + smoke.stderr[-3000:]
            assert "Traceback" not in smoke.stderr
            daily = subprocess.run(
                ["cardavia", "daily", "--game", "scopa", "--date", "2026-12-01", "--bot", "greedy"],
                capture_output=True,
                text=True,
                timeout=300,
                env=env,
                cwd=tmp_path,
            )
            assert daily.returncode == 0, daily.stderr[-2000:]
        finally:
            removed = _dpkg("--purge", "cardavia")
        assert removed.returncode == 0, removed.stdout + removed.stderr
    assert not Path("/opt/cardavia").exists() and not Path("/usr/bin/cardavia").exists()
    assert not (Path("/usr/share/applications") / f"{APP_ID}.desktop").exists()
    # Removed and purged: every file of the player's is still there, unchanged.
    assert (config / "settings.json").read_text(encoding="utf-8") == settings
    assert (data / "match.json").read_text(encoding="utf-8") == save
    records = list((data / "replays").glob("*.jsonl"))
    assert len(records) == 1 and f'"version": "{ver}"' in records[0].read_text(encoding="utf-8").splitlines()[0]
