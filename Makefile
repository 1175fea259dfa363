# Two commands: `make run` (the app) and `make test` (the whole suite). Both build .venv when needed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
OFFLINE := HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1
# These machines set PYTHONDONTWRITEBYTECODE=1; without .pyc files every process (each test worker, the app's
# server) would compile pandas, torch and co. again at import (about 13 CPU s each). Python writes them on first
# import instead of the install compiling every module.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test test-fast test-slow lint bench-app install install-dev clean-cache

$(VENV)/.runtime-installed: requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# No byte-compiling at install: pip compiles every module of torch, transformers and co. one after another
	# (97 s of a 2-core install; compileall on both cores 54 s), yet a process imports a tenth of them. The first
	# import writes the .pyc of what is used (13 CPU s for the app's and the suite's imports), as
	# PYTHONDONTWRITEBYTECODE is unexported above.
	$(PY) -m pip install -q --no-compile -r requirements.txt
	$(PY) -m pip install -q --no-deps -e .
	$(PY) -m coreb_core.evaluation.compile  # numba kernels, cached beside the sources (~7 s once)
	touch $@

$(VENV)/.dev-installed: requirements-dev.txt requirements-api.txt requirements-ray.txt $(VENV)/.runtime-installed
	$(PY) -m pip install -q --no-compile -r requirements-dev.txt
	touch $@

install: $(VENV)/.runtime-installed
install-dev: $(VENV)/.dev-installed

run: $(VENV)/.runtime-installed
	$(PY) -m streamlit run app.py --server.address 127.0.0.1 --browser.gatherUsageStats false

# The suite includes tests/test_browser.py, which serves the app and opens every page in Debian's chromium
# (never `playwright install`); it is installed here when missing. Screenshots: tests/artifacts/.
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || command -v sudo >/dev/null && [ "$$(id -u)" != 0 ] && echo sudo)

$(CHROMIUM):
	$(SUDO) apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

# Two passes over the same tests: the fast loop's on both cores, then the slow ones (browser, real release,
# MiniLM) as two processes side by side, one per session-fixture family, so that each family's fixtures are built
# once: the real release (`real_cache`, tests marked `real`) and the rest (the MiniLM first launch). Each has its
# own temporary folder, its own default cache and its own range of server ports (tests/browser.free_port); their
# output is printed one after the other once both are done, with the slowest tests of each (the suite must stay
# under 12 min).
test: lint $(CHROMIUM)
	$(OFFLINE) $(PY) -m pytest -q -m "not slow" -n 2 --dist worksteal tests
	@$(MAKE) --no-print-directory test-slow

# One torch thread per pass: two passes of two spinning OpenMP threads each on 2 cores made a reranker
# training 12x slower (449 s against 37.5 s) than one thread each.
SLOW_PASS = $(OFFLINE) $(PY) -m pytest -q -p no:cacheprovider --durations=15 tests
test-slow: $(VENV)/.dev-installed $(CHROMIUM)
	@tmp=$$(mktemp -d); \
	( OMP_NUM_THREADS=1 COREB_TEST_PORTS=20000-20999 COREB_CACHE=$$tmp/real-default-cache $(SLOW_PASS) -m "slow and real" \
	  --basetemp=$$tmp/real > $$tmp/real.log 2>&1; echo $$? > $$tmp/real.rc ) & \
	( OMP_NUM_THREADS=1 COREB_TEST_PORTS=21000-21999 COREB_CACHE=$$tmp/other-default-cache $(SLOW_PASS) -m "slow and not real" \
	  --basetemp=$$tmp/other > $$tmp/other.log 2>&1; echo $$? > $$tmp/other.rc ) & \
	wait; \
	status=0; for pass in real other; do \
	  echo "=== slow pass, $$pass: pytest -m \"slow and $$([ $$pass = real ] || echo 'not ')real\" (exit $$(cat $$tmp/$$pass.rc)) ==="; \
	  cat $$tmp/$$pass.log; [ "$$(cat $$tmp/$$pass.rc)" = 0 ] || status=1; \
	done; rm -rf $$tmp; exit $$status

# ruff (pyflakes, bugbear, isort) on the tree and mypy on coreb_core, ui, pages and app.py (pyproject.toml configures both); part of `make test`.
lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# The fast loop while editing: everything but the browser, real-release and MiniLM tests (markers set in
# tests/conftest.py), on CoREB-mini built in seconds. `make test` stays the suite CI runs.
test-fast: $(VENV)/.dev-installed
	$(OFFLINE) $(PY) -m pytest -q -m "not slow" -n 2 --dist worksteal tests  # both cores (pytest-xdist): its session fixtures take seconds

# Median warm render time of every page on a 6x CoREB-mini with 11 runs (target: under 1 s).
bench-app: $(VENV)/.dev-installed
	$(OFFLINE) $(PY) bench/app_bench.py

clean-cache:
	rm -rf data_cache/coreb data_cache/runs data_cache/embeddings data_cache/results data_cache/joins data_cache/onnx
