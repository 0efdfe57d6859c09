# The two commands: `make run` and `make test`. Each sets up everything it needs first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# `make run` installs what the server needs; `make test` adds the test tools, the research extras, Ray (with RLlib's
# parts) and torch.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint typecheck pytest bench clean

$(RUN_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(DEV_STAMP): $(RUN_STAMP)
# the dev extra holds research, spiel, ray and rllib: tests/distributed start their own Ray cluster on loopback
	$(PY) -m pip install --quiet -e '.[dev]'
# torch pinned here, not in the extra: 2.13.0 is the CPU wheel on this machine's disk; plain torch fetches a CUDA build of GBs
	$(PY) -m pip install --quiet 'torch==2.13.0'
	touch $(DEV_STAMP)

run: $(RUN_STAMP)
	@echo "Starting the table server at http://localhost:8000/ (terminal Geister: $(VENV)/bin/ghostgames play geister)"
	$(VENV)/bin/ghostgames serve

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check src tests benchmarks examples

typecheck: $(DEV_STAMP)
	$(VENV)/bin/mypy

pytest: $(DEV_STAMP)
	sh scripts/ensure-chromium.sh
	sh scripts/ensure-services.sh
	@echo "Compiling the fast Geister core and search once (numba caches them; later runs load them in about a second)"
	$(PY) -c 'from ghostgames.bots.geister.fast_search import warm_up; warm_up()'
	$(VENV)/bin/pytest

test: lint typecheck pytest

bench: $(RUN_STAMP)
	$(VENV)/bin/ghostgames bench engine --game geister --seconds 5

clean:
	rm -rf $(VENV) build *.egg-info
