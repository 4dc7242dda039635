# lessonkit: the two commands a reader or author needs are `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
NODE_READY := node_modules/.package-lock.json
HOST ?= 127.0.0.1
PORT ?= 8000
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve site lint test test-js test-fast bench clean

serve: $(INSTALLED) $(NODE_READY)
	$(BIN)/mkdocs serve --strict --dev-addr $(HOST):$(PORT)

site: $(INSTALLED) $(NODE_READY)
	$(BIN)/mkdocs build --strict

# Everything: lint, the shell's pure modules, engine tests, every claim and sample in docs/, and
# the browser tests on the built site.
test: site lint test-js
	$(BIN)/pytest

# ruff over the engines, build tools, tests and benchmarks, and over the samples in the pages.
lint: $(INSTALLED)
	$(BIN)/ruff check src tests bench
	$(BIN)/python -m lessonkit.authoring.lint_samples docs

# The browser shell's pure modules (clock, parameters and links, storage) under node's own runner.
test-js:
	node --test tests/js/

# Everything but the browser: quick feedback while writing a lesson.
test-fast: $(INSTALLED) lint test-js
	$(BIN)/pytest -m "not browser"

# Performance is shown by measurement, never by timing assertions in tests: the site in Chromium
# against a reference measured in the same run (Pyodide booted, the wheel installed, lessonkit
# imported), the engines in CPython, and the build, which bench/run.py times itself. Prints the
# table and writes bench/results.json; `make bench BENCH_ARGS=--readme` also updates the README.
bench: $(INSTALLED) $(NODE_READY)
	$(BIN)/python bench/run.py $(BENCH_ARGS)

$(INSTALLED): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet "hatchling==1.33.0"
	$(BIN)/pip install --quiet --no-build-isolation -e ".[site,test]"
	touch $@

$(NODE_READY): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

clean:
	rm -rf site .venv node_modules .cache
