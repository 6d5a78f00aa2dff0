"""Release chores, the same on every platform (Python's standard library only).

    python packaging/release.py version            the version (pyproject.toml)
    python packaging/release.py check-tag v0.1.0   exit 1 unless the tag names that version
    python packaging/release.py notes [--out FILE] the changelog's section of this version
    python packaging/release.py archive            pack the folder build for this platform

``archive`` packs what build.spec made: ``dist/cardavia-onedir/`` as
``dist/cardavia-VERSION-linux-x86_64.tar.gz`` or ``dist/cardavia-VERSION-windows-x64.zip``
(one folder ``cardavia-VERSION/`` inside), and on macOS ``dist/Cardavia.app`` as
``dist/cardavia-VERSION-macos.zip`` (made by ``ditto``, which keeps the bundle's links and
signature as Finder's own "Compress" does). ``make dist`` runs it after the build; the release
workflow runs it on each platform.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
FOLDER = "cardavia-onedir"  # build.spec's COLLECT
APP = "Cardavia.app"  # build.spec's BUNDLE (macOS)
CHANGELOG = ROOT / "CHANGELOG.md"
#: A changelog section's heading: ``## [0.1.0] - 2026-12-07`` (or ``## [Unreleased]``).
HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<date>\d{4}-\d{2}-\d{2}))?\s*$")


def version() -> str:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["version"]


def platform_label(system: str | None = None, machine: str | None = None) -> str:
    """The platform part of an archive's name: ``linux-x86_64``, ``windows-x64``, ``macos``."""
    system = system or sys.platform
    machine = (machine or platform.machine()).lower()
    if system.startswith("win"):
        return "windows-x64" if machine in ("amd64", "x86_64") else f"windows-{machine}"
    if system == "darwin":
        return "macos"
    return f"linux-{'x86_64' if machine in ('amd64', 'x86_64') else machine}"


def archive_name(ver: str, label: str) -> str:
    return f"cardavia-{ver}-{label}.{'tar.gz' if label.startswith('linux') else 'zip'}"


# ---------------------------------------------------------------------- the changelog
def sections(text: str | None = None) -> list[tuple[str, str | None, str]]:
    """The changelog's sections, newest first: (version, date or None, body in Markdown)."""
    text = CHANGELOG.read_text(encoding="utf-8") if text is None else text
    out: list[tuple[str, str | None, list[str]]] = []
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            out.append((m["version"], m["date"], []))
        elif line.startswith("[") and "]: " in line:  # the link references at the end
            continue
        elif out:
            out[-1][2].append(line)
    return [(v, d, "\n".join(body).strip()) for v, d, body in out]


def notes(ver: str, text: str | None = None) -> str:
    """The release notes of ``ver``: its changelog section (ValueError when there is none, or
    it is empty: a release is not made without saying what changed)."""
    for v, date, body in sections(text):
        if v == ver:
            if not body or date is None:
                raise ValueError(f"CHANGELOG.md: the section of {ver} needs a date and its changes")
            return body + "\n"
    raise ValueError(f"CHANGELOG.md has no section for {ver}")


# ---------------------------------------------------------------------- the archives
def archive(dist: Path = DIST, label: str | None = None) -> Path:
    """Pack this platform's folder build (FileNotFoundError when it was not built)."""
    label = label or platform_label()
    ver = version()
    out = dist / archive_name(ver, label)
    top = f"cardavia-{ver}"
    if label == "macos":
        app = dist / APP
        if not app.is_dir():
            raise FileNotFoundError(f"{app} was not built (build.spec makes it on macOS)")
        out.unlink(missing_ok=True)
        subprocess.run(["ditto", "-c", "-k", "--sequesterRsrc", "--keepParent", str(app), str(out)], check=True)
        return out
    folder = dist / FOLDER
    if not (folder / ("cardavia.exe" if label.startswith("windows") else "cardavia")).is_file():
        raise FileNotFoundError(f"{folder} holds no program: build it first (make exe, or pyinstaller build.spec)")
    tmp = out.with_name(out.name + ".part")
    if label.startswith("linux"):
        with tarfile.open(tmp, "w:gz", compresslevel=9) as tar:
            tar.add(folder, arcname=top, filter=_owned_by_root)
    else:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            for path in sorted(folder.rglob("*")):
                if path.is_file():
                    z.write(path, f"{top}/{path.relative_to(folder).as_posix()}")
    os.replace(tmp, out)
    return out


def _owned_by_root(info: tarfile.TarInfo) -> tarfile.TarInfo:
    # Unpacked by a player, the files are theirs; the builder's name means nothing there.
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="release.py", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("version", help="print the version")
    tag = sub.add_parser("check-tag", help="exit 1 unless TAG is v + the version")
    tag.add_argument("tag")
    note = sub.add_parser("notes", help="the changelog section of a version (default: this one)")
    note.add_argument("version", nargs="?")
    note.add_argument("--out", help="write it to this file instead of stdout")
    sub.add_parser("archive", help="pack the folder build for this platform into dist/")
    args = ap.parse_args(argv)
    if args.command == "version":
        print(version())
    elif args.command == "check-tag":
        if args.tag.removeprefix("refs/tags/") != f"v{version()}":
            print(
                f"release.py: the tag {args.tag} does not name version {version()} of pyproject.toml", file=sys.stderr
            )
            return 1
    elif args.command == "notes":
        try:
            text = notes(args.version or version())
        except (ValueError, OSError) as e:
            print(f"release.py: {e}", file=sys.stderr)
            return 1
        if args.out:
            Path(args.out).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
    elif args.command == "archive":
        try:
            print(archive())
        except (FileNotFoundError, subprocess.CalledProcessError) as e:
            print(f"release.py: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
