# lessonkit: the two commands a reader or author needs are `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
NODE_READY := node_modules/.package-lock.json
# Lighthouse, for `make bench` only: pinned in its own folder, so `make test` never installs it.
LIGHTHOUSE_READY := bench/lighthouse/node_modules/.package-lock.json
# The next Pyodide, for `make bench` only (bench/pyodide_next.py): its bare boot beside the course's.
PYODIDE_NEXT_READY := bench/pyodide-next/node_modules/.package-lock.json
HOST ?= 127.0.0.1
PORT ?= 8000
export NO_MKDOCS_2_WARNING := 1
# The suite in two workers, a test file to each at a time (a page's samples run in order, in one
# namespace): the browser tests spend much of their time waiting on the page, and the machine the
# course is built for has two cores. Files are handed out in the order collected, browser tests
# last (--no-loadscope-reorder): once a worker has driven a browser, Playwright's event loop runs
# in it, and a sample that calls asyncio.run() (ADK's Runner) could not. WORKERS=0: one process.
WORKERS ?= 2
PYTEST := $(BIN)/pytest -n $(WORKERS) --dist loadfile --no-loadscope-reorder

.PHONY: serve site lint typecheck test test-js test-fast bench clean tools browser

serve: $(INSTALLED) $(NODE_READY)
	$(BIN)/mkdocs serve --strict --dev-addr $(HOST):$(PORT)

site: $(INSTALLED) $(NODE_READY)
	$(BIN)/mkdocs build --strict

# Everything: a Chromium first (so a machine without one stops at once, not after the build), lint,
# the shell's types and pure modules, engine tests, every claim and sample in docs/, and the browser tests.
test: browser site lint typecheck test-js
	$(PYTEST)

# What everything else needs, said plainly when it is missing or too old: Python 3.11+ and Node 20+.
tools:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "lessonkit needs Python 3.11 or later, and $(PYTHON) is not installed: install Python 3.11+ (Debian: apt-get install python3 python3-venv), or run make PYTHON=/path/to/python3.11"; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "lessonkit needs Python 3.11 or later, and $(PYTHON) is $$($(PYTHON) --version 2>&1): install Python 3.11+, or run make PYTHON=/path/to/python3.11"; exit 1; }
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || { echo "lessonkit needs Python's venv module, which $(PYTHON) lacks: install it (Debian: apt-get install python3-venv)"; exit 1; }
	@command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || { echo "lessonkit needs Node 20 or later with npm (the build makes the engine's snapshot with it), and it is not installed: install Node 20+ (Debian: apt-get install nodejs npm)"; exit 1; }
	@node -e 'process.exit(Number(process.versions.node.split(".")[0]) < 20 ? 1 : 0)' || { echo "lessonkit needs Node 20 or later, and node is $$(node --version): install Node 20+"; exit 1; }

# A Chromium for the browser tests: the one LESSONKIT_CHROMIUM names, Debian's, or Playwright's own.
# Installs one when none is there (apt as root, Playwright's download for a user), or stops at once
# with the one command to run.
browser: $(INSTALLED)
	$(BIN)/python -m lessonkit.authoring.browser_setup

# ruff's checks and its format over the engines, build tools, tests and benchmarks, and ruff over the
# samples in the pages.
lint: $(INSTALLED)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/python -m lessonkit.authoring.lint_samples docs

# The browser shell's JSDoc types, checked by the TypeScript pinned in package.json, nothing emitted:
# the page's modules and scripts (tsconfig.json), then the worker, in a worker's global scope.
typecheck: $(NODE_READY)
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tsconfig.worker.json

# The browser shell's pure modules (clock, parameters and links, storage) and the engine client (its
# view cache, boot, waiting requests, failures and restart) with a fake Worker, under node's own runner;
# and the shell's words, read with the pinned TypeScript's parser, so it needs the node modules.
test-js: $(NODE_READY)
	node --test tests/js/

# Everything but the browser: quick feedback while writing a lesson.
test-fast: $(INSTALLED) lint typecheck test-js
	$(PYTEST) -m "not browser"

# Performance is shown by measurement, never by timing assertions in tests: the site in Chromium,
# served by a host that compresses as static hosts do, on loopback and two emulated networks, each
# against a reference measured on the same network in the same run (Pyodide booted, the wheel
# installed, lessonkit imported); Lighthouse over every page; the engines in CPython, and the build,
# which bench/run.py times itself. Prints the tables and writes bench/results.json;
# `make bench BENCH_ARGS=--readme` also updates the README, and
# `make bench BENCH_ARGS="--networks loopback --runs 2 --no-lighthouse"` is a quick look.
bench: $(INSTALLED) $(NODE_READY) $(LIGHTHOUSE_READY) $(PYODIDE_NEXT_READY)
	$(BIN)/python -m bench.run $(BENCH_ARGS)

$(LIGHTHOUSE_READY): bench/lighthouse/package.json bench/lighthouse/package-lock.json | tools
	cd bench/lighthouse && npm ci --no-audit --no-fund
	touch $@

$(PYODIDE_NEXT_READY): bench/pyodide-next/package.json bench/pyodide-next/package-lock.json | tools
	cd bench/pyodide-next && npm ci --no-audit --no-fund
	touch $@

$(INSTALLED): pyproject.toml | tools
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet "hatchling==1.33.0"
	$(BIN)/pip install --quiet --no-build-isolation -e ".[site,test]"
	touch $@

$(NODE_READY): package.json package-lock.json | tools
	npm ci --no-audit --no-fund
	touch $@

clean:
	rm -rf site .venv node_modules .cache bench/lighthouse/node_modules bench/pyodide-next/node_modules
