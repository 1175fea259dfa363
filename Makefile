# Two commands: `make run` (the app) and `make test` (the whole suite). Both build .venv when needed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
OFFLINE := HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1

.PHONY: run test install install-dev clean-cache

$(VENV)/.runtime-installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements-dev.txt $(VENV)/.runtime-installed
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

install: $(VENV)/.runtime-installed
install-dev: $(VENV)/.dev-installed

run: $(VENV)/.runtime-installed
	$(PY) -m streamlit run app.py --server.address 127.0.0.1 --browser.gatherUsageStats false

test: $(VENV)/.dev-installed
	$(OFFLINE) $(PY) -m pytest -q tests

clean-cache:
	rm -rf data_cache/coreb data_cache/runs data_cache/embeddings
