# `make run` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench chromium postgresql clean

$(BIN)/tilegames: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[web,test]'
	touch $@

run: $(BIN)/tilegames
	$(BIN)/tilegames serve

chromium:
	@command -v chromium >/dev/null || bash scripts/install-chromium

postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || bash scripts/install-postgresql

lint: $(BIN)/tilegames
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: $(BIN)/tilegames chromium postgresql lint
	$(BIN)/pytest -n 2 --dist loadfile --durations=10

bench: $(BIN)/tilegames
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache
