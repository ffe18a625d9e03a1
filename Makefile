# Two commands do all set-up: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/scorekeeper serve $(ARGS)

test: $(STAMP)
	$(BIN)/ruff check scorekeeper tests benchmarks
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/scorekeeper bench rules
	$(BIN)/python benchmarks/bench_events.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
