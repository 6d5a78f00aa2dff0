"""The Debian package, made from the folder build (``make deb``; dpkg-deb, no root needed).

    python packaging/linux/deb.py build [--from dist/cardavia-onedir] [--out dist] [--fast]
    python packaging/linux/deb.py metainfo FILE      (the AppStream file alone: `make lint`)
    python packaging/linux/deb.py desktop FILE       (the desktop entry alone)

The package installs

- the folder build under ``/opt/cardavia`` and ``/usr/bin/cardavia``, a link to its program
  (PyInstaller's program finds its ``_internal/`` through the link);
- ``/usr/share/applications/APP_ID.desktop``, the menu entry;
- ``/usr/share/icons/hicolor/NxN/apps/APP_ID.png`` at the usual sizes, drawn from the game's own
  card art (packaging/icons.py);
- ``/usr/share/metainfo/APP_ID.metainfo.xml``, the AppStream file software centres read, its
  releases taken from CHANGELOG.md;
- ``/usr/share/doc/cardavia/changelog.gz``.

The words of the menu entry and of the AppStream file come from the game's own locales (en,
nl, de, it). The player's settings, saves and records live in their home folder, which a
package never touches: removing or purging it leaves them. The desktop's menu and icon caches
are refreshed by dpkg's triggers (desktop-file-utils, hicolor-icon-theme), so the package
needs no maintainer scripts.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "packaging")]

import icons  # noqa: E402 - packaging/icons.py, beside this folder
import release  # noqa: E402 - packaging/release.py

APP_ID = "io.github.cardavia.Cardavia"
PACKAGE = "cardavia"
LANGS = ("en", "nl", "de", "it")
MAINTAINER = "The Cardavia developers <maintainers@users.noreply.github.com>"
#: Wanted but not needed to start: the GPU picture (else the CPU's), an X11 window (else Wayland).
RECOMMENDS = "libgl1, libegl1, libx11-6"


def texts() -> dict[str, dict[str, str]]:
    """Per language: the summary, the generic name, the keywords and the description's two
    paragraphs, from the locales."""
    from game.services.i18n import load_locale

    out = {}
    for lang in LANGS:
        table = load_locale(lang)[0]
        out[lang] = {
            "summary": str(table["app.subtitle"]).rstrip(". "),  # AppStream: a summary ends without a full stop
            "generic_name": str(table["package.generic_name"]),
            "keywords": str(table["package.keywords"]),
            "description": str(table["package.description"]),
            "description_more": str(table["package.description_more"]),
        }
    return out


def desktop_entry() -> str:
    """The freedesktop menu entry, in the four languages."""
    t = texts()
    lines = ["[Desktop Entry]", "Type=Application", "Name=Cardavia"]
    for key, field in (("GenericName", "generic_name"), ("Comment", "summary"), ("Keywords", "keywords")):
        for lang in LANGS:
            lines.append(f"{key}{'' if lang == 'en' else f'[{lang}]'}={t[lang][field]}")
    lines += ["Exec=cardavia", f"Icon={APP_ID}", "Terminal=false", "Categories=Game;CardGame;", "StartupNotify=true"]
    return "\n".join(lines) + "\n"


def _release_xml(ver: str, date: str | None, body: str) -> list[str]:
    """A changelog section as an AppStream release: its list items as a list."""
    items = [
        re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", line[2:].strip()).replace("`", "")
        for line in body.splitlines()
        if line.startswith("- ")
    ]
    out = [f"    <release version={quoteattr(ver)} date={quoteattr(date or '')}>"]
    if items:
        out += ["      <description>", "        <ul>"]
        out += [f"          <li>{escape(item)}</li>" for item in items]
        out += ["        </ul>", "      </description>"]
    out.append("    </release>")
    return out


def metainfo() -> str:
    """The AppStream file: what software centres show (`appstreamcli validate` passes it)."""
    t = texts()
    x = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<component type="desktop-application">',
        f"  <id>{APP_ID}</id>",
        "  <metadata_license>CC0-1.0</metadata_license>",
        "  <project_license>LicenseRef-proprietary</project_license>",
        "  <name>Cardavia</name>",
    ]
    for lang in LANGS:
        attr = "" if lang == "en" else f' xml:lang="{lang}"'
        x.append(f"  <summary{attr}>{escape(t[lang]['summary'])}</summary>")
    x.append("  <description>")
    for field in ("description", "description_more"):
        for lang in LANGS:
            attr = "" if lang == "en" else f' xml:lang="{lang}"'
            x.append(f"    <p{attr}>{escape(t[lang][field])}</p>")
    x.append("  </description>")
    x += [
        f'  <launchable type="desktop-id">{APP_ID}.desktop</launchable>',
        "  <provides>",
        "    <binary>cardavia</binary>",
        "  </provides>",
        "  <categories>",
        "    <category>Game</category>",
        "    <category>CardGame</category>",
        "  </categories>",
        "  <supports>",
        "    <control>pointing</control>",
        "    <control>keyboard</control>",
        "  </supports>",
        '  <content_rating type="oars-1.1">',
        '    <content_attribute id="social-chat">intense</content_attribute>',  # online tables' free-text chat
        "  </content_rating>",
        "  <languages>" + "".join(f"<lang>{lang}</lang>" for lang in LANGS) + "</languages>",
        "  <releases>",
    ]
    for ver, date, body in release.sections():
        if ver.lower() != "unreleased":
            x += _release_xml(ver, date, body)
    x += ["  </releases>", "</component>"]
    return "\n".join(x) + "\n"


def deb_arch() -> str:
    try:
        return subprocess.run(
            ["dpkg", "--print-architecture"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        import platform

        return {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())


def glibc_needed(folder: Path) -> str | None:
    """The newest glibc symbol version any program or library of the build asks for (read from
    the ELF files' version needs, which name it as ``GLIBC_2.NN``): the package's libc6 floor."""
    best: tuple[int, ...] = ()
    for path in folder.rglob("*"):
        if not path.is_file() or path.is_symlink():
            continue
        with open(path, "rb") as f:
            if f.read(4) != b"\x7fELF":
                continue
            data = f.read()
        for m in re.finditer(rb"GLIBC_(\d+)\.(\d+)(?:\.(\d+))?\x00", data):
            best = max(best, tuple(int(g) for g in m.groups() if g is not None))
    return ".".join(map(str, best)) if best else None


def control(ver: str, arch: str, installed_kib: int, glibc: str | None) -> str:
    t = texts()["en"]
    depends = f"libc6 (>= {glibc})" if glibc else "libc6"
    description = "\n".join(" " + line for line in _wrap(t["description"] + " " + t["description_more"]))
    return (
        f"Package: {PACKAGE}\nVersion: {ver}\nArchitecture: {arch}\nMaintainer: {MAINTAINER}\n"
        f"Installed-Size: {installed_kib}\nDepends: {depends}\nRecommends: {RECOMMENDS}\n"
        f"Section: games\nPriority: optional\n"
        f"Description: {t['summary'].lower()[:1] + t['summary'][1:]}\n{description}\n"
    )


def _wrap(text: str, width: int = 78) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width)


def build(source: Path, out_dir: Path, fast: bool = False) -> Path:
    """Stage the package's files and pack them with dpkg-deb (its files owned by root without
    being root: --root-owner-group)."""
    program = source / "cardavia"
    if not program.is_file():
        raise FileNotFoundError(f"{source} holds no program: build it first (make exe)")
    ver, arch = release.version(), deb_arch()
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cardavia-deb-", dir=out_dir) as tmp:
        stage = Path(tmp) / "root"
        shutil.copytree(source, stage / "opt" / "cardavia", symlinks=True)
        (stage / "usr" / "bin").mkdir(parents=True)
        os.symlink("/opt/cardavia/cardavia", stage / "usr" / "bin" / "cardavia")
        share = stage / "usr" / "share"
        (share / "applications").mkdir(parents=True)
        (share / "applications" / f"{APP_ID}.desktop").write_text(desktop_entry(), encoding="utf-8")
        (share / "metainfo").mkdir(parents=True)
        (share / "metainfo" / f"{APP_ID}.metainfo.xml").write_text(metainfo(), encoding="utf-8")
        drawn = icons.pngs(Path(tmp) / "icons")
        for size, png in drawn.items():
            folder = share / "icons" / "hicolor" / f"{size}x{size}" / "apps"
            folder.mkdir(parents=True)
            shutil.copyfile(png, folder / f"{APP_ID}.png")
        doc = share / "doc" / PACKAGE
        doc.mkdir(parents=True)
        (doc / "changelog.gz").write_bytes(gzip.compress(release.CHANGELOG.read_bytes(), 9, mtime=0))
        for path in stage.rglob("*"):  # what a package installs is readable by all, written by root
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
        size = sum(p.stat().st_size for p in stage.rglob("*") if p.is_file() and not p.is_symlink())
        debian = stage / "DEBIAN"
        debian.mkdir()
        (debian / "control").write_text(
            control(ver, arch, (size + 1023) // 1024, glibc_needed(source)), encoding="utf-8"
        )
        out = out_dir / f"{PACKAGE}_{ver}_{arch}.deb"
        # The release is xz-compressed (every dpkg reads it); --fast is for the tests' own build.
        compress = ["-Zgzip", "-z1"] if fast else ["-Zxz"]
        subprocess.run(
            ["dpkg-deb", "--root-owner-group", *compress, "--build", str(stage), str(out)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="deb.py", description="the Debian package of the folder build")
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build dist/cardavia_VERSION_ARCH.deb from the folder build")
    b.add_argument("--from", dest="source", default=str(release.DIST / release.FOLDER))
    b.add_argument("--out", default=str(release.DIST))
    b.add_argument("--fast", action="store_true", help="gzip -1 instead of xz (a test's throw-away package)")
    for name in ("metainfo", "desktop"):
        sub.add_parser(name, help=f"write the {name} file alone").add_argument("file")
    args = ap.parse_args(argv)
    if args.command == "build":
        try:
            print(build(Path(args.source), Path(args.out), args.fast))
        except (FileNotFoundError, subprocess.CalledProcessError) as e:
            print(f"deb.py: {e}", file=sys.stderr)
            return 1
        return 0
    text = metainfo() if args.command == "metainfo" else desktop_entry()
    path = Path(args.file)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
