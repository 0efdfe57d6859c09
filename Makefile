# The two commands: `make run` and `make test`. Each sets up everything it needs first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	@echo "Starting the table server at http://localhost:8000/ (terminal Geister: $(VENV)/bin/ghostgames play geister)"
	$(VENV)/bin/ghostgames serve

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(VENV)/bin/mypy

pytest: $(STAMP)
	sh scripts/ensure-chromium.sh
	sh scripts/ensure-services.sh
	@echo "Compiling the fast Geister core and search once (numba caches them; later runs load them in about a second)"
	$(PY) -c 'from ghostgames.bots.geister.fast_search import warm_up; warm_up()'
	$(VENV)/bin/pytest

test: lint typecheck pytest

bench: $(STAMP)
	$(VENV)/bin/ghostgames bench engine --game geister --seconds 5

clean:
	rm -rf $(VENV) build *.egg-info
