# Two entry points for a fresh machine: `make demo` and `make test`.
# Each creates .venv and installs the project into it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench clean system-packages

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

demo: $(BIN)/.installed
	$(BIN)/python -m controller.devkit.demo

lint: $(BIN)/.installed
	$(BIN)/ruff check controller drivers firmware_bridge tests bench
	$(BIN)/mypy

# Chromium, chromedriver, PostgreSQL and systemd-analyze for the tests (from Debian, when missing and root).
system-packages:
	sh tests/system_packages.sh

test: lint system-packages
	$(BIN)/pytest controller drivers firmware_bridge tests

bench: $(BIN)/.installed
	$(BIN)/python bench/link_bench.py
	$(BIN)/python bench/daemon_bench.py
	$(BIN)/python bench/startup_bench.py
	$(BIN)/python bench/table_bench.py
	$(BIN)/python bench/monitor_bench.py
	$(BIN)/python bench/screen_bench.py
	$(BIN)/python bench/bjx_math_bench.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
