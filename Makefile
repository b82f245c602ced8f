# reefbench: `make run` runs the built-in benchmark; `make test` runs every check.
# Both do the whole set-up first (Debian packages, .venv, editable install) and are
# idempotent: a second call only re-installs what changed.
SHELL := /bin/bash
PYTHON ?= /usr/bin/python3
VENV := .venv
BIN := $(VENV)/bin
EXTRAS := all,test
PYTEST_ARGS ?=

# The validation gates play reef-v1 on real environments (oracle, alternatives, near misses,
# null agent, SR@k starts of long chains). `make test` plays a sample that covers every
# template and handmade task; `make gates` plays all 230 tasks (about 25 minutes on 2 cores),
# as `reef suite check --suite v1 --record` does when it rewrites the committed gate record.
GATES := tests/validation/test_gates.py

.PHONY: run test setup system lint typecheck pytest gates bench clean

run: setup
	$(BIN)/reef run

test: setup lint typecheck pytest

setup: system $(VENV)/.installed

system:
	@scripts/setup-system.sh

$(VENV)/.installed: pyproject.toml system-packages.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "error: $(PYTHON) is older than 3.11; set PYTHON=/path/to/python3.11+"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	touch $@

lint:
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck:
	$(BIN)/mypy

# pytest exits 5 when it collected no test: that must fail, not pass silently.
pytest:
	@$(BIN)/python -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "error: pytest collected no tests"; exit 1; fi; exit $$rc

gates: setup
	REEF_FULL_GATES=1 $(BIN)/python -m pytest $(GATES) -v

bench: setup
	for script in bench/*.py; do $(BIN)/python $$script; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache runs
