# The two commands a player or contributor needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench exe clean browser gl

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

run: $(STAMP)
	$(PY) main.py

# In parallel on every core (pytest-xdist); the executable's build runs beside the tests
# (tests/exe_build.py). Bytecode is cached even where the environment turns that off: every
# worker and every `main.py` the tests start would otherwise compile the whole program again.
TEST_WORKERS ?= auto
test: $(STAMP) browser gl
	env -u PYTHONDONTWRITEBYTECODE SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
		$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup

# The club server's web pages are tested in a real headless Chromium
# (tests/online/test_web.py): installed here when it is missing (Debian/Ubuntu, as root).
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) || \
		echo "make: install Chromium (the web pages' test needs it): apt-get install chromium"

# The GPU post-processing is compared with the CPU pass in a real OpenGL context under Xvfb
# with Mesa's software OpenGL (tests/scenes/test_postfx_gl.py): installed here when missing
# (Debian/Ubuntu, as root). A machine that cannot have it sets CARDAVIA_NO_GL=1.
gl:
	@(command -v Xvfb >/dev/null 2>&1 && ldconfig -p | grep -q 'libGL\.so\.1 ' && \
		ls /usr/lib/*/dri/swrast_dri.so /usr/lib/dri/swrast_dri.so 2>/dev/null | grep -q .) || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb libgl1 libegl1 libgl1-mesa-dri) || \
		echo "make: install Xvfb and Mesa's OpenGL (the GPU picture's test needs them): apt-get install xvfb libgl1 libgl1-mesa-dri"

lint: $(STAMP)
	$(PY) -m ruff check .

bench: $(STAMP)
	$(PY) bench/engine.py

BUILD_VENV := .venv-build
BUILD_STAMP := $(BUILD_VENV)/.installed

$(BUILD_STAMP): requirements-build.txt
	test -x $(BUILD_VENV)/bin/python || $(PYTHON) -m venv $(BUILD_VENV)
	$(BUILD_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-build.txt
	touch $(BUILD_STAMP)

# One-file executable in dist/ (built from a clean environment without numpy).
exe: $(BUILD_STAMP)
	$(BUILD_VENV)/bin/pyinstaller --noconfirm --clean --log-level WARN build.spec

clean:
	rm -rf $(VENV) $(BUILD_VENV) build dist .pytest_cache .hypothesis
