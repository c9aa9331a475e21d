# Quick start: `make run` and `make test`. Both create .venv when it is missing.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
# llama-cpp-python compiles from source (about 6 minutes on 2 cores); the built wheel is kept
# here so later installs, new venvs and CI runs on this machine reuse it.
WHEELS ?= $(HOME)/.cache/freightsim/wheels
LLAMA_VERSION := 0.3.36
SCENARIO ?= scenarios/default.toml

.PHONY: run test lint bench clean

$(VENV)/.installed: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev]"
	@touch $@

$(VENV)/.llm-installed: $(VENV)/.installed
	@mkdir -p $(WHEELS)
	@ls $(WHEELS)/llama_cpp_python-$(LLAMA_VERSION)-*.whl >/dev/null 2>&1 || { \
	  echo "building llama-cpp-python $(LLAMA_VERSION) once (about 6 minutes), cached in $(WHEELS)"; \
	  $(BIN)/python -m pip wheel -q --no-deps -w $(WHEELS) "llama-cpp-python==$(LLAMA_VERSION)"; }
	$(BIN)/python -m pip install -q --find-links $(WHEELS) -e ".[dev,llm-server]"
	@touch $@

run: $(VENV)/.installed
	$(BIN)/freightsim run $(SCENARIO) --out runs/default

test: $(VENV)/.llm-installed
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lint: $(VENV)/.installed
	$(BIN)/ruff check .

clean:
	rm -rf runs .pytest_cache .ruff_cache
