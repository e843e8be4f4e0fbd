VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench lint

$(STAMP): pyproject.toml
	test -d $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/somna demo

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/ruff format --check src tests bench
	$(VENV)/bin/mypy

test: lint
	$(VENV)/bin/pytest

bench: $(STAMP)
	$(PY) bench/store_bench.py
	$(PY) bench/recall_bench.py
	$(PY) bench/consolidation_bench.py
	$(PY) bench/http_bench.py
	$(PY) bench/pg_vector_bench.py
