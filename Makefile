# `make run` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench chromium clean

$(BIN)/tilegames: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[web,test]'
	touch $@

run: $(BIN)/tilegames
	$(BIN)/tilegames serve

chromium:
	@command -v chromium >/dev/null || bash scripts/install-chromium

lint: $(BIN)/tilegames
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: $(BIN)/tilegames chromium lint
	$(BIN)/pytest -n 2 --dist loadfile

bench: $(BIN)/tilegames
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache
