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

# In parallel (pytest-xdist), twice as many workers as the machine has cores (at most four
# more): the tests wait on sockets, subprocesses, servers killed and taken over, and the
# executable's build (tests/exe_build.py, beside the tests) often enough that two workers per
# core fill the idle time (on 2 cores, 7 Dec: 167-175 s with four workers, 175-193 s with three).
# Bytecode is cached even where the environment turns that off: every worker and every
# `main.py` the tests start would otherwise compile the whole program again.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); echo $$(( n * 2 < n + 4 ? n * 2 : n + 4 )))
# The executable's build (`make exe`, which tests/test_exe.py and tests/test_deb.py check) starts
# first, in the background, and runs while the test environment is made (one core: pip installs
# one package at a time), instead of beside the tests; tests/exe_build.py waits for it through
# CARDAVIA_EXE_BUILD (the folder its output and exit code go to). The recipe ends with pytest's
# exit code once the build has ended too.
test: system
	@build=$$(mktemp -d "$${TMPDIR:-/tmp}/cardavia-exe-build-XXXXXX") || exit 1; \
	( $(MAKE) --no-print-directory exe > "$$build/output.txt" 2>&1; echo $$? > "$$build/exit.tmp"; \
	  mv "$$build/exit.tmp" "$$build/exit" ) & \
	$(MAKE) --no-print-directory $(STAMP) && \
	env -u PYTHONDONTWRITEBYTECODE CARDAVIA_EXE_BUILD="$$build" SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
		$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup; \
	code=$$?; wait; rm -rf "$$build"; exit $$code

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

# Made without a pip of its own: the test environment's pip installs into it (`--python`); where
# there is no such pip (`make exe` alone), the environment gets its own. Nothing is compiled at
# install: PyInstaller compiles what it bundles itself, and Python caches what PyInstaller imports.
# On a fresh clone's `make test`, which makes this environment beside the tests, that is about 3 s
# of CPU instead of 7. The same pinned packages, and still nothing else (no numpy, no test tools).
BUILD_PIP_OPTIONS := install --quiet --disable-pip-version-check --no-compile -r requirements-build.txt
$(BUILD_STAMP): requirements-build.txt
	test -x $(BUILD_VENV)/bin/python || $(PYTHON) -m venv --without-pip $(BUILD_VENV)
	if $(BUILD_VENV)/bin/python -m pip --version >/dev/null 2>&1; then \
		$(BUILD_VENV)/bin/python -m pip $(BUILD_PIP_OPTIONS); \
	elif $(PY) -m pip --python $(BUILD_VENV)/bin/python --version >/dev/null 2>&1; then \
		$(PY) -m pip --python $(BUILD_VENV)/bin/python $(BUILD_PIP_OPTIONS); \
	else $(BUILD_VENV)/bin/python -m ensurepip --default-pip >/dev/null && \
		$(BUILD_VENV)/bin/python -m pip $(BUILD_PIP_OPTIONS); fi
	touch $(BUILD_STAMP)

# One-file executable in dist/ (built from a clean environment without numpy), and from the
# same PyInstaller run the folder build dist/cardavia-onedir/ (build.spec); first the icons,
# drawn from the game's card art (packaging/icons.py).
# The one-file program's archive is compressed at zlib's default level, 6, rather than
# PyInstaller's 9: 0.6 % larger (24.57 MB against 24.43), a quarter less CPU for the build, which
# every test run makes (tests/exe_build.py). The program inside is the same.
exe: $(BUILD_STAMP)
	$(BUILD_VENV)/bin/python packaging/icons.py build/icons
	PYINSTALLER_ZLIB_COMPRESSION_LEVEL=6 $(BUILD_VENV)/bin/pyinstaller --noconfirm --clean --log-level WARN build.spec

# The folder build packed for this platform: dist/cardavia-VERSION-linux-x86_64.tar.gz (on
# macOS dist/cardavia-VERSION-macos.zip, the .app). packaging/release.py.
dist: exe
	$(BUILD_VENV)/bin/python packaging/release.py archive

# The Debian package dist/cardavia_VERSION_ARCH.deb, from the folder build (packaging/linux/deb.py).
deb: exe
	$(BUILD_VENV)/bin/python packaging/linux/deb.py build

clean:
	rm -rf $(VENV) $(BUILD_VENV) build dist .pytest_cache .hypothesis
