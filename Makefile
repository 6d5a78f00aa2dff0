# The two commands a player or contributor needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

run: $(STAMP)
	$(PY) main.py

test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m pytest -q

lint: $(STAMP)
	$(PY) -m ruff check .

bench: $(STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .hypothesis
