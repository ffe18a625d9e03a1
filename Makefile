# Two commands do all set-up: `make run` and `make test`. `make model` retrains the card model,
# `make eval` measures it (both the lab's: lab/README.md).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
NODE_STAMP := node_modules/.installed

# The torch pair ultralytics trains with: a bare `torch` pulls a build that breaks here.
ifeq ($(shell uname -m),aarch64)
TORCH := torch==2.9.1 torchvision==0.24.1
else
TORCH := torch==2.14.1 torchvision==0.29.1
endif

.PHONY: run test model eval bench lint clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# The server needs only the runtime (FastAPI, OpenCV, ONNX Runtime).
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

# Tests also cover the lab (lab/: training, evaluation) and train a tiny model (smoke test),
# so they need the training stack; a Pi installs the runtime alone.
$(TEST_STAMP): pyproject.toml lab/pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q $(TORCH)
	$(BIN)/python -m pip install -q -e '.[dev]' -e ./lab
	touch $@ $(RUN_STAMP)

# The phone page's lint (Biome) and the axe-core the browser tests load: pinned by the lock.
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

run: $(RUN_STAMP)
	$(BIN)/scorekeeper serve $(ARGS)

test: $(TEST_STAMP)
test: $(NODE_STAMP)
	$(BIN)/ruff check scorekeeper lab tests benchmarks
	$(BIN)/mypy
	npx --no-install biome ci --error-on-warnings
	node --test tests/js/*.test.mjs
	$(BIN)/python -m pytest $(PYTEST_ARGS)

model: $(TEST_STAMP)
	$(BIN)/python -m scorekeeper_lab.training.train $(ARGS)

# The shipped model's accuracy (models/metrics.json's sets); ARGS as `scorekeeper-lab eval`'s.
eval: $(TEST_STAMP)
	$(BIN)/scorekeeper-lab eval $(ARGS)

bench: $(TEST_STAMP)
	$(BIN)/scorekeeper bench rules
	$(BIN)/scorekeeper bench vision
	$(BIN)/python benchmarks/bench_events.py
	$(BIN)/python benchmarks/bench_stats.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
