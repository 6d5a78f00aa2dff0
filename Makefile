# The two commands a player or contributor needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench exe dist deb clean system

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

run: $(STAMP)
	$(PY) main.py

# In parallel (pytest-xdist), one worker more than the machine has cores: the tests wait on
# sockets, subprocesses and the executable's build (tests/exe_build.py, beside the tests) often
# enough that a third worker on two cores fills the idle time (146-169 s -> 131 s measured here).
# Bytecode is cached even where the environment turns that off: every worker and every
# `main.py` the tests start would otherwise compile the whole program again.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
test: $(STAMP) system
	env -u PYTHONDONTWRITEBYTECODE SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
		$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup

# Programs the tests use for real, installed here when missing (Debian/Ubuntu, as root), in
# one apt-get call: Chromium for the club server's web pages (tests/online/server/test_web.py),
# espeak-ng for the speech voice (tests/scenes/test_speech.py), Xvfb and Mesa's software
# OpenGL for the GPU picture compared with the CPU pass (tests/scenes/test_postfx_gl.py; a
# machine that cannot have OpenGL sets CARDAVIA_NO_GL=1), Weston's headless compositor for the
# high-DPI window at a scale of 2 (tests/scenes/test_hidpi_window.py), Redis and PostgreSQL for the cluster
# (tests/online/server/cluster: the tests start their own servers on 127.0.0.1 in a temporary folder and stop
# them; none is started here), AppStream's and the desktop entry's validators for the Debian
# package's files (`make lint`, tests/test_deb.py), ShellCheck for the workflows' scripts
# (actionlint runs it when it is there, as on GitHub's runners). command:package pairs.
SYSTEM_TOOLS := chromium:chromium espeak-ng:espeak-ng Xvfb:xvfb redis-server:redis-server weston:weston \
	appstreamcli:appstream desktop-file-validate:desktop-file-utils shellcheck:shellcheck
GL_PACKAGES := libgl1 libegl1 libgl1-mesa-dri
system:
	@missing=""; for pair in $(SYSTEM_TOOLS); do cmd=$${pair%%:*}; pkg=$${pair#*:}; \
		command -v $$cmd >/dev/null 2>&1 || { [ $$cmd = chromium ] && command -v chromium-browser >/dev/null 2>&1; } || \
		missing="$$missing $$pkg"; done; \
	{ ldconfig -p | grep -q 'libGL\.so\.1 ' && ls /usr/lib/*/dri/swrast_dri.so /usr/lib/dri/swrast_dri.so 2>/dev/null | \
		grep -q .; } || missing="$$missing $(GL_PACKAGES)"; \
	{ command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } || \
		missing="$$missing postgresql"; \
	if [ -n "$$missing" ]; then echo "make: installing$$missing for the tests"; \
		{ DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null 2>&1 || \
		  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; }; } || \
		echo "make: the tests need$$missing: apt-get install$$missing"; fi

# ruff; mypy (pinned in requirements.txt, its settings and the checked folders in
# pyproject.toml's [tool.mypy]); the AppStream file the Debian package installs, as software
# centres read it; the GitHub workflows (actionlint, pinned in requirements.txt).
METAINFO := build/lint/io.github.cardavia.Cardavia.metainfo.xml
lint: $(STAMP) system
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) packaging/linux/deb.py metainfo $(METAINFO)
	appstreamcli validate --no-net $(METAINFO)
	$(VENV)/bin/actionlint .github/workflows/*.yml

bench: $(STAMP)
	$(PY) bench/engine.py

BUILD_VENV := .venv-build
BUILD_STAMP := $(BUILD_VENV)/.installed

$(BUILD_STAMP): requirements-build.txt
	test -x $(BUILD_VENV)/bin/python || $(PYTHON) -m venv $(BUILD_VENV)
	$(BUILD_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-build.txt
	touch $(BUILD_STAMP)

# One-file executable in dist/ (built from a clean environment without numpy), and from the
# same PyInstaller run the folder build dist/cardavia-onedir/ (build.spec); first the icons,
# drawn from the game's card art (packaging/icons.py).
exe: $(BUILD_STAMP)
	$(BUILD_VENV)/bin/python packaging/icons.py build/icons
	$(BUILD_VENV)/bin/pyinstaller --noconfirm --clean --log-level WARN build.spec

# The folder build packed for this platform: dist/cardavia-VERSION-linux-x86_64.tar.gz (on
# macOS dist/cardavia-VERSION-macos.zip, the .app). packaging/release.py.
dist: exe
	$(BUILD_VENV)/bin/python packaging/release.py archive

# The Debian package dist/cardavia_VERSION_ARCH.deb, from the folder build (packaging/linux/deb.py).
deb: exe
	$(BUILD_VENV)/bin/python packaging/linux/deb.py build

clean:
	rm -rf $(VENV) $(BUILD_VENV) build dist .pytest_cache .hypothesis
