# The two commands of the README. Both create the virtual environment when it is missing.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: run test fuzz bench clean test-arm64 test-deps

# Stamps say what was installed: `make run` needs only the app (no test tools, no pygame),
# `make test` the test extras. $(BIN)/corbeille stands for "ready to test".
define make_venv
	$(PYTHON) -c 'import sys; sys.exit("Python 3.11 or newer is needed, found " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
endef

$(VENV)/.test-extras: setup.py
	$(make_venv)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

$(BIN)/corbeille: $(VENV)/.test-extras
	touch $@

$(VENV)/.app: setup.py
	$(make_venv)
	$(BIN)/python -m pip install --quiet -e .
	touch $@

run: $(VENV)/.app
	$(BIN)/corbeille sim

# What the tests run beside Python, from Debian: the web view's browser tests drive Debian's
# Chromium through Debian's chromedriver (no browser downloaded) and read QR codes with
# zbar; the venue's tests start their own Mosquitto (its mosquitto_passwd makes the
# accounts). Installed here when missing, as root; otherwise the command to run is printed
# and make stops.
TEST_PACKAGES := chromium chromium-driver zbar-tools mosquitto
test-deps:
	@missing=$$(for p in $(TEST_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing $$missing (the web view's browser tests, the venue's broker)"; \
			DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
		else \
			echo "The tests need: $$missing. Run: sudo apt-get install -y $$missing"; exit 1; \
		fi; \
	fi

# On every CPU (pytest-xdist): a test draws from its own seed, whichever worker runs it
# (tests/conftest.py, README's dependency notes). One worker more than the CPUs: many tests
# wait on a child process, a browser, the broker or an fsync rather than compute, and the
# extra worker keeps every CPU busy meanwhile. Tests are handed out a whole module at a
# time (--dist loadscope), the modules in the order of their first test, and the tests
# marked `long` are collected first (tests/conftest.py): the modules holding them go out
# first, one to each worker, and the others fill in after. By default xdist hands a worker
# a quarter of its share of consecutive tests at once, so one worker got every long test
# and finished alone; one test at a time spreads each module over every worker, which then
# each pays for what the module's tests share in a process (caches, a browser).
# `make test TEST_WORKERS=1` runs them in one worker.
# Bytecode is written even where PYTHONDONTWRITEBYTECODE is set: the run starts many Python
# processes (the workers, the commands and games the tests start), and without it each one
# compiles again every module it imports, pytest's rewritten test modules and plugins included.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
test: $(BIN)/corbeille test-deps
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder

# Property tests with fresh random seeds and FUZZ_SCALE times the examples of `make test`
# (tests/props.py); it prints the games and actions played. Pin what it finds as @example.
FUZZ_SCALE ?= 50
fuzz: $(BIN)/corbeille
	HYPOTHESIS_PROFILE=fuzz FUZZ_SCALE=$(FUZZ_SCALE) $(BIN)/python -m pytest -p no:cacheprovider \
		tests/engines/maxibourse/test_maxibourse_properties.py tests/engines/dividends/test_dividends_properties.py tests/engines/avendre/test_avendre_properties.py \
		tests/engines/shark/test_shark_properties.py tests/engines/richesses/test_richesses_properties.py tests/core/test_protocol.py \
		tests/firmware/test_inputs_fuzz.py tests/journal/test_journal_cuts.py tests/journal/test_journal_bitrot.py tests/firmware/test_box_play.py

# The box's own install (pip, systemd/install.sh) compiles every module; an editable .venv,
# or PYTHONDONTWRITEBYTECODE, would leave start figures paying for compilation instead.
bench: $(BIN)/corbeille
	$(BIN)/python -m compileall -q engines firmware drivers bench
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache

# The installer for real on Debian 12 arm64 under qemu-user (docs/service.md). Needs root,
# binfmt_misc and the Debian archive; says plainly and exits 0 when it cannot run here.
test-arm64:
	bash systemd/test-arm64.sh
