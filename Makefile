# Quick start: `make run` and `make test`. Both create .venv when it is missing.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
# llama-cpp-python compiles from source (about 6 minutes on 2 cores); the built wheel is kept
# here so later installs, new venvs and CI runs on this machine reuse it. It is built portable
# (AVX2, no AVX-512/AMX): a native build crashes in the AMX kernels on VMs that advertise AMX
# without enabling it, and a portable wheel also survives a move to another machine.
FREIGHTSIM_CACHE ?= $(HOME)/.cache/freightsim
WHEELS ?= $(FREIGHTSIM_CACHE)/wheels-portable
LLAMA_VERSION := 0.3.36
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
	-DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF
SCENARIO ?= scenarios/default.toml
# pytest-xdist workers for `make test`, one test file per work unit, longest first
# (tests/conftest.py); TEST_WORKERS=0 runs in one process
TEST_WORKERS ?= 2

.PHONY: run test lint bench clean

$(VENV)/.installed: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev]"
	@touch $@

# what `make test` needs, in one resolve: the base install and the llm-server extra together
# (an install of `.[dev]` first and then `.[dev,llm-server]` resolved and built everything twice)
$(VENV)/.llm-installed: pyproject.toml Makefile
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	@mkdir -p $(WHEELS)
	@ls $(WHEELS)/llama_cpp_python-$(LLAMA_VERSION)-*.whl >/dev/null 2>&1 || { \
	  echo "building llama-cpp-python $(LLAMA_VERSION) once (about 6 minutes), cached in $(WHEELS)"; \
	  CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/python -m pip wheel -q --no-cache-dir --no-deps \
	    -w $(WHEELS) "llama-cpp-python==$(LLAMA_VERSION)"; }
	$(BIN)/python -m pip install -q --no-compile --find-links $(WHEELS) -e ".[dev,llm-server]"
	@# the cached portable wheel wins over any llama-cpp-python a venv got elsewhere
	$(BIN)/python -m pip install -q --no-compile --force-reinstall --no-deps \
	  $(WHEELS)/llama_cpp_python-$(LLAMA_VERSION)-*.whl
	@touch $(VENV)/.installed $@

run: $(VENV)/.installed
	$(BIN)/freightsim run $(SCENARIO) --out runs/default

# pytest's exit code 5 (no test collected) fails like any other: a suite that finds nothing
# proves nothing
# PYTHONDONTWRITEBYTECODE is emptied for the tests: where a machine sets it, every one of the
# suite's few hundred CLI subprocesses compiled the package again (the fuzz file: 104 s -> 76 s)
test: $(VENV)/.llm-installed
	bash scripts/install-browser.sh
	$(BIN)/ruff check .
	@rc=0; PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder \
	  || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; fi; exit $$rc

lint: $(VENV)/.installed
	$(BIN)/ruff check .

clean:
	rm -rf runs .pytest_cache .ruff_cache
