# The two commands of the README: `make run` (server with embedded defaults) and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: install run test bench
install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt
	touch $@

# SQLite, no Redis, console email, a demo match: http://$(HOST):$(PORT)
# (make run PORT=8100 HOST=127.0.0.1; HOST=0.0.0.0 opens it to the network)
HOST ?= 127.0.0.1
PORT ?= 8000
run: install
	$(PY) manage.py run --addr $(HOST):$(PORT)

# Real PostgreSQL and Redis on localhost (.ci/run starts them when they are down).
test: install
	$(PY) -m pytest

bench: install
	$(PY) bench/run_all.py
