# The two commands of the README. Both create the virtual environment when it is missing.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: run test fuzz bench clean

$(BIN)/corbeille: setup.py
	$(PYTHON) -c 'import sys; sys.exit("Python 3.11 or newer is needed, found " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(BIN)/corbeille
	$(BIN)/corbeille sim

test: $(BIN)/corbeille
	$(BIN)/python -m pytest

# Property tests with fresh random seeds and FUZZ_SCALE times the examples of `make test`
# (tests/props.py); it prints the games and actions played. Pin what it finds as @example.
FUZZ_SCALE ?= 50
fuzz: $(BIN)/corbeille
	HYPOTHESIS_PROFILE=fuzz FUZZ_SCALE=$(FUZZ_SCALE) $(BIN)/python -m pytest -p no:cacheprovider \
		tests/test_mb_properties.py tests/test_dividends_properties.py tests/test_protocol.py tests/test_journal_cuts.py

bench: $(BIN)/corbeille
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
