# Two commands: `make run` (the app) and `make test` (the whole suite). Both build .venv when needed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
OFFLINE := HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1
# These machines set PYTHONDONTWRITEBYTECODE=1; without .pyc files every process (each test worker, the app's
# server) would compile pandas, torch and co. again at import (about 13 CPU s each). Python writes them on first
# import instead of the install compiling every module.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: check-port run test test-fast test-slow lint bench-app install install-dev clean-cache

$(VENV)/.runtime-installed: requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# No byte-compiling at install: pip compiles every module of torch, transformers and co. one after another
	# (97 s of a 2-core install; compileall on both cores 54 s), yet a process imports a tenth of them. The first
	# import writes the .pyc of what is used (13 CPU s for the app's and the suite's imports), as
	# PYTHONDONTWRITEBYTECODE is unexported above.
	$(PY) -m pip install -q --no-compile -r requirements.txt
	$(PY) -m pip install -q --no-deps -e .
	touch $@

# The numba kernels of the evaluation and the hits builder, cached beside their sources (about 16 s once, one core).
$(VENV)/.kernels-compiled: $(VENV)/.runtime-installed
	$(PY) -m coreb_core.evaluation.compile
	touch $@

# The dev requirements install (mostly one core, unpacking wheels) while the kernels compile on the other.
$(VENV)/.dev-installed: requirements-dev.txt requirements-api.txt requirements-ray.txt $(VENV)/.runtime-installed
	$(PY) -m coreb_core.evaluation.compile & compiling=$$!; \
	  $(PY) -m pip install -q --no-compile -r requirements-dev.txt && wait $$compiling
	touch $(VENV)/.kernels-compiled $@

install: $(VENV)/.kernels-compiled
install-dev: $(VENV)/.dev-installed

# `PORT=8765 make run` (or `make run PORT=8765`) serves on another port. Make never expands it (it is neither
# referenced nor exported here): the shell reads it from the environment, quoted, and it must be a whole number from
# 1 to 65535 (`check-port`, tests/hostile/test_make_port.py).
check-port:
	@p="$${PORT-8501}"; case "$$p" in ''|*[!0-9]*|0*) ok=;; *) [ "$${#p}" -le 5 ] && [ "$$p" -le 65535 ] && ok=1;; esac; \
	  [ -n "$$ok" ] || { printf "make run: PORT=%s is not a port: give a whole number from 1 to 65535\n" \
	    "$$(printf %s "$$p" | tr -c '[:print:]' '?')" >&2; exit 2; }

run: check-port $(VENV)/.kernels-compiled
	$(PY) -m streamlit run app.py --server.address 127.0.0.1 --server.port "$${PORT-8501}" --browser.gatherUsageStats false

# The suite includes tests/test_browser.py, which serves the app and opens every page in Debian's chromium
# (never `playwright install`); it is installed here when missing. Screenshots: tests/artifacts/.
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || command -v sudo >/dev/null && [ "$$(id -u)" != 0 ] && echo sudo)

$(CHROMIUM):
	$(SUDO) apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

# Three passes side by side (tests/passes.sh): the real release's tests and the MiniLM first launch's (with the
# browser tests) as two one-thread processes, each building its session fixtures once, and everything else on
# both cores at a lower priority, which takes what CPU the slow passes leave. Output one pass after the other once
# all are done, with the slowest tests of each (the suite must stay under 12 min). ruff and mypy run beside them
# (the `lint` pass): on their own, before the tests, mypy left one core idle for about 18 s.
test: $(VENV)/.dev-installed $(CHROMIUM)
	$(OFFLINE) bash tests/passes.sh $(PY) lint real dense fast

test-slow: $(VENV)/.dev-installed $(CHROMIUM)
	$(OFFLINE) bash tests/passes.sh $(PY) real dense

# ruff (pyflakes, bugbear, isort) on the tree and mypy on coreb_core, ui, pages and app.py (pyproject.toml configures both); part of `make test`.
lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# The fast loop while editing (under two minutes): the tests on hand-made data, on both cores; it leaves out the
# browser, real-release and MiniLM tests and those on CoREB-mini (markers set in tests/conftest.py). `make test`
# stays the suite CI runs. One torch thread per worker: two workers of two threads each on 2 cores only spin.
test-fast: $(VENV)/.dev-installed
	$(OFFLINE) OMP_NUM_THREADS=1 $(PY) -m pytest -q -m "not slow and not mini" -n 2 --dist worksteal tests

# Median warm render time of every page on a 6x CoREB-mini with 11 runs (target: under 1 s).
bench-app: $(VENV)/.dev-installed
	$(OFFLINE) $(PY) bench/app_bench.py

clean-cache:
	rm -rf data_cache/coreb data_cache/runs data_cache/embeddings data_cache/results data_cache/joins data_cache/onnx
