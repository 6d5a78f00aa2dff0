"""Releases: one version everywhere it is named, the changelog and the notes taken from it, the
archives' names and layout per platform, the icons, the Debian package's desktop entry and
AppStream file (validated by the desktop's own tools), and the GitHub workflows (actionlint,
and the Makefile's own targets). The builds themselves are tests/test_exe.py and
tests/test_deb.py; Windows and macOS are built by the release workflow on GitHub's runners."""

from __future__ import annotations

import importlib.util
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
import yaml

from game.version import version

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent


def _module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


release = _module("cardavia_release", ROOT / "packaging" / "release.py")


# ---------------------------------------------------------------------- one version
def test_the_version_is_pyproject_s_and_every_place_names_it(capsys):
    with open(ROOT / "pyproject.toml", "rb") as f:
        ver = tomllib.load(f)["project"]["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", ver)
    assert version() == ver == release.version()
    import game
    import main
    from game.online.wire.protocol import SERVER_NAME

    assert game.__version__ == ver and SERVER_NAME == f"cardavia {ver}"
    assert main.main(["--version"]) == 0 and capsys.readouterr().out == f"cardavia {ver}\n"
    # The built programs carry pyproject.toml, so they name it too (tests/test_deb.py runs one).
    assert '("pyproject.toml", ".")' in (ROOT / "build.spec").read_text(encoding="utf-8")


def test_every_record_names_the_version_and_a_save_of_another_version_resumes_as_written():
    from game.online.server.play import PlayLoop
    from game.rulesets import make_rules
    from game.services.session import Session

    s = Session.new("scopa", None, 2, None, seed=9, threaded=False)
    s.start()
    for _ in range(40):  # a few decisions, the human's and the computer's
        if len(s.match.events) >= 12:
            break
        if s.human_to_act:
            s.submit(s.legal_actions()[0])
        else:
            s.poll()
    head = s.match.events[0]
    assert head["event"] == "match" and head["version"] == version()
    for other in ("0.0.9", None):
        save = s.to_save()
        events = [dict(ev) for ev in save["events"]]
        if other is None:
            del events[0]["version"]  # a save written before records named their version
        else:
            events[0]["version"] = other
        resumed = Session.from_save({**save, "events": events}, threaded=False)
        assert resumed.match.events == events
        assert resumed.match.events[0].get("version") == other
        # An online table begun by another version of the server resumes the same way.
        assert PlayLoop.replay(make_rules("scopa", None, 2), events).events == events


def test_the_menu_shows_the_version_at_its_foot_in_every_language():
    from game.config import get_config
    from game.services.i18n import I18n
    from game.services.settings import Settings
    from scenes.app import App
    from scenes.menu import BAR

    for lang in ("en", "nl", "de", "it"):
        app = App(
            get_config(), Settings(language=lang, animation_speed="instant"), I18n(lang), window=False, persist=False
        )
        app.open_path("menu")
        app.settle(5)
        app.render()
        menu = app.stack.top
        said = app.t("menu.version", version=version())
        assert version() in said and said != "menu.version"
        rect = menu.version_rect
        assert rect is not None and rect.top >= BAR.bottom and rect.bottom <= 720 - 14 and rect.right <= BAR.right


# ---------------------------------------------------------------------- the changelog
def test_the_changelog_keeps_a_changelog_and_has_this_version_s_section():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    sections = release.sections(text)
    assert sections[0][0] == "Unreleased"
    versions = [v for v, _, _ in sections[1:]]
    assert versions[0] == version(), "the newest released section is this version's"
    for v, date, body in sections[1:]:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", date or ""), v
        assert re.search(r"^### (Added|Changed|Deprecated|Removed|Fixed|Security)$", body, re.M), v
        assert f"[{v}]: " in text, f"the link reference of {v}"
    notes = release.notes(version(), text)
    assert notes.startswith("The first release") or notes.startswith("###")
    assert "## [" not in notes and "]: https://" not in notes


def test_release_notes_and_the_tag_check_on_the_command_line(tmp_path):
    py = [sys.executable, str(ROOT / "packaging" / "release.py")]
    out = tmp_path / "notes.md"
    assert subprocess.run([*py, "notes", "--out", str(out)], check=True).returncode == 0
    assert out.read_text(encoding="utf-8") == release.notes(version())
    assert subprocess.run([*py, "check-tag", f"v{version()}"]).returncode == 0
    bad = subprocess.run([*py, "check-tag", "v99.0.0"], capture_output=True, text=True)
    assert bad.returncode == 1 and "does not name version" in bad.stderr
    missing = subprocess.run([*py, "notes", "99.0.0"], capture_output=True, text=True)
    assert missing.returncode == 1 and "no section for 99.0.0" in missing.stderr


def test_a_section_without_changes_or_date_is_no_release():
    with pytest.raises(ValueError, match="needs a date"):
        release.notes("1.0.0", "# Changelog\n\n## [1.0.0]\n\n### Added\n- x\n")
    with pytest.raises(ValueError, match="needs a date"):
        release.notes("1.0.0", "# Changelog\n\n## [1.0.0] - 2026-01-01\n\n")


# ---------------------------------------------------------------------- the archives
def test_each_platform_s_archive_has_the_name_the_release_gives_it():
    ver = version()
    assert release.platform_label("linux", "x86_64") == "linux-x86_64"
    assert release.platform_label("win32", "AMD64") == "windows-x64"
    assert release.platform_label("darwin", "arm64") == "macos"
    names = [release.archive_name(ver, label) for label in ("linux-x86_64", "windows-x64", "macos")]
    assert names == [
        f"cardavia-{ver}-linux-x86_64.tar.gz",
        f"cardavia-{ver}-windows-x64.zip",
        f"cardavia-{ver}-macos.zip",
    ]


def test_the_folder_build_is_packed_under_one_folder_named_by_the_version(tmp_path):
    ver = version()
    folder = tmp_path / release.FOLDER
    (folder / "_internal").mkdir(parents=True)
    (folder / "cardavia").write_bytes(b"\x7fELF program")
    (folder / "cardavia").chmod(0o755)
    (folder / "cardavia.exe").write_bytes(b"MZ program")
    (folder / "_internal" / "rules.yaml").write_text("games: {}\n", encoding="utf-8")
    tar_path = release.archive(tmp_path, "linux-x86_64")
    assert tar_path.name == f"cardavia-{ver}-linux-x86_64.tar.gz"
    with tarfile.open(tar_path) as tar:
        members = {m.name: m for m in tar.getmembers()}
    assert set(members) == {
        f"cardavia-{ver}",
        f"cardavia-{ver}/cardavia",
        f"cardavia-{ver}/cardavia.exe",
        f"cardavia-{ver}/_internal",
        f"cardavia-{ver}/_internal/rules.yaml",
    }
    program = members[f"cardavia-{ver}/cardavia"]
    assert program.mode & 0o111 and program.uid == 0 and program.uname == ""
    zip_path = release.archive(tmp_path, "windows-x64")
    with zipfile.ZipFile(zip_path) as z:
        assert f"cardavia-{ver}/cardavia.exe" in z.namelist()
        assert z.read(f"cardavia-{ver}/_internal/rules.yaml") == b"games: {}\n"
    shutil.rmtree(folder)
    with pytest.raises(FileNotFoundError):
        release.archive(tmp_path, "linux-x86_64")


# ---------------------------------------------------------------------- icons, desktop entry, AppStream
def test_the_icons_are_drawn_at_every_size_and_packed_for_windows_and_macos(tmp_path):
    import pygame

    icons = _module("cardavia_icons", ROOT / "packaging" / "icons.py")
    assert icons.main([str(tmp_path)]) == 0
    for n in icons.SIZES:
        img = pygame.image.load(str(tmp_path / f"cardavia-{n}.png"))
        assert img.get_size() == (n, n)
    big = pygame.image.load(str(tmp_path / "cardavia-512.png"))
    assert big.get_at((0, 0)).a == 0 and big.get_at((256, 256)).a == 255  # rounded corners, a full middle
    colours = {tuple(big.get_at((x, y)))[:3] for x in range(0, 512, 8) for y in range(0, 512, 8)}
    assert len(colours) > 200, "card art, not a flat square"
    ico = (tmp_path / "cardavia.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind, count) == (0, 1, len(icons.ICO_SIZES))
    first_offset = struct.unpack("<I", ico[6 + 12 : 6 + 16])[0]
    assert ico[first_offset : first_offset + 8] == b"\x89PNG\r\n\x1a\n"
    icns = (tmp_path / "cardavia.icns").read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns) and b"ic09" in icns


def test_the_desktop_entry_and_the_appstream_file_speak_four_languages_and_validate(tmp_path):
    deb = _module("cardavia_deb", ROOT / "packaging" / "linux" / "deb.py")
    desktop = tmp_path / f"{deb.APP_ID}.desktop"
    metainfo = tmp_path / f"{deb.APP_ID}.metainfo.xml"
    assert deb.main(["desktop", str(desktop)]) == 0 and deb.main(["metainfo", str(metainfo)]) == 0
    entry = desktop.read_text(encoding="utf-8")
    for key in ("GenericName", "Comment", "Keywords"):
        assert all(f"{key}[{lang}]=" in entry for lang in ("nl", "de", "it")), key
    assert "Comment[de]=Kartenspiele aus Italien und Österreich, gegen den Computer" in entry
    xml = metainfo.read_text(encoding="utf-8")
    released = [v for v, _, _ in release.sections() if v != "Unreleased"]
    assert re.findall(r'<release version="([^"]+)"', xml) == released
    assert all(f'<summary xml:lang="{lang}">' in xml for lang in ("nl", "de", "it"))
    assert f'<launchable type="desktop-id">{deb.APP_ID}.desktop</launchable>' in xml
    if shutil.which("appstreamcli") is None or shutil.which("desktop-file-validate") is None:
        pytest.skip("appstreamcli and desktop-file-validate come with `make system` (appstream, desktop-file-utils)")
    check = subprocess.run(["appstreamcli", "validate", "--no-net", str(metainfo)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    check = subprocess.run(["desktop-file-validate", str(desktop)], capture_output=True, text=True)
    assert check.returncode == 0 and not check.stdout.strip(), check.stdout


def test_the_package_needs_the_newest_glibc_its_programs_name(tmp_path):
    deb = _module("cardavia_deb", ROOT / "packaging" / "linux" / "deb.py")
    (tmp_path / "a.so").write_bytes(b"\x7fELF....GLIBC_2.17\x00GLIBC_2.34\x00")
    (tmp_path / "b").write_bytes(b"\x7fELF....GLIBC_2.28\x00GLIBC_2.4\x00")
    (tmp_path / "notes.txt").write_bytes(b"GLIBC_2.99\x00 (not a program)")
    assert deb.glibc_needed(tmp_path) == "2.34"
    control = deb.control("1.2.3", "amd64", 1000, "2.34")
    assert "Depends: libc6 (>= 2.34)" in control and "Version: 1.2.3" in control
    assert all(line.startswith(" ") for line in control.split("Description: ", 1)[1].splitlines()[1:])


# ---------------------------------------------------------------------- the workflows
def _workflow(name: str) -> dict:
    return yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8"))


def _runs(job: dict) -> str:
    return "\n".join(step.get("run", "") for step in job["steps"])


def test_the_workflows_run_the_makefile_s_own_targets():
    ci = _workflow("ci.yml")
    assert set(ci[True]) >= {"push", "pull_request"}  # YAML reads the key `on` as True
    runs = _runs(ci["jobs"]["test"])
    assert "make system" in runs and "make lint" in runs and "make test" in runs
    rel = _workflow("release.yml")
    assert rel[True]["push"]["tags"] == ["v*"]
    jobs = rel["jobs"]
    assert "make dist" in _runs(jobs["linux"]) and "make deb" in _runs(jobs["linux"])
    assert "make dist" in _runs(jobs["macos"])
    assert "build.spec" in _runs(jobs["windows"]) and "release.py archive" in _runs(jobs["windows"])
    assert set(jobs["release"]["needs"]) == {"linux", "windows", "macos"}
    publish = _runs(jobs["release"])
    assert "release.py notes --out notes.md" in publish and "--notes-file notes.md" in publish
    assert "check-tag" in _runs(jobs["check"])
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("lint:", "test:", "exe:", "dist:", "deb:", "system:"):
        assert re.search(rf"^{target}", makefile, re.M), target


def test_actionlint_passes_the_workflows():
    actionlint = VENV_BIN / "actionlint"
    if not actionlint.exists():
        pytest.skip("actionlint comes with requirements.txt (make's environment)")
    workflows = sorted(str(p) for p in (ROOT / ".github" / "workflows").glob("*.yml"))
    assert len(workflows) == 2
    check = subprocess.run([str(actionlint), *workflows], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr


def test_actionlint_catches_a_broken_workflow(tmp_path):
    actionlint = VENV_BIN / "actionlint"
    if not actionlint.exists():
        pytest.skip("actionlint comes with requirements.txt (make's environment)")
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: push\njobs:\n  x:\n    runs-on: ubuntu-24.04\n    steps:\n"
        "      - run: echo ${{ github.event.nonsense.value }\n",
        encoding="utf-8",
    )
    check = subprocess.run([str(actionlint), str(bad)], capture_output=True, text=True, timeout=60)
    assert check.returncode == 1 and "bad.yml" in check.stdout


def test_the_release_docs_say_how_to_sign_and_notarize():
    text = (ROOT / "docs" / "RELEASING.md").read_text(encoding="utf-8")
    for word in ("codesign", "notarytool", "stapler", "Developer ID", "CHANGELOG.md", "pyproject.toml"):
        assert word in text, word
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for word in ("SmartScreen", "Gatekeeper", ".deb", "windows-x64.zip", "macos.zip", "linux-x86_64.tar.gz"):
        assert word in readme, word
