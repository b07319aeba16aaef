# Podium: the two commands are `make demo` and `make test`.
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
REDIS_URL ?= redis://127.0.0.1:6379/0
export REDIS_URL
export LITELLM_LOCAL_MODEL_COST_MAP := True
PORT ?= 8000

.PHONY: demo test install system-deps redis-up migrate lint bench clean lock compose-smoke

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# Exactly the locked versions (requirements.lock), then the project itself without re-resolving:
# a fresh machine gets the versions the suite was run with.
$(VENV)/.installed: pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/pip install -q -r requirements.lock
	$(BIN)/pip install -q --no-deps -e '.[test]'
	touch $@

# Re-resolve requirements.lock from pyproject.toml (newest versions its ranges allow) with uv.
lock: | $(BIN)/python
	$(BIN)/pip install -q uv
	$(BIN)/uv pip compile pyproject.toml --extra test --python-version 3.11 \
	  --python-platform x86_64-unknown-linux-gnu --annotation-style line --no-header --upgrade \
	  -o requirements.lock.new
	{ head -n 3 requirements.lock; cat requirements.lock.new; } > requirements.lock && rm requirements.lock.new

# Browser assets from npm (package.json: plotly.js's cartesian bundle) into the git-ignored
# node_modules/. Optional: without npm, or offline, the site serves the full plotly bundle that the
# plotly wheel ships, so this step warns instead of failing.
node_modules/.installed: package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --no-audit --no-fund --silent && touch $@ || echo "warning: npm ci failed; serving the full plotly bundle from the plotly wheel"; \
	else echo "note: npm not found; serving the full plotly bundle from the plotly wheel"; fi

install: system-deps $(VENV)/.installed node_modules/.installed

# apt packages the project needs: Redis, Stockfish, Chromium (browser tests). Skipped when present.
system-deps:
	@bash scripts/system_deps.sh

redis-up:
	@bash scripts/ensure_redis.sh "$(REDIS_URL)"

migrate: install
	$(BIN)/python manage.py migrate --noinput

test: install redis-up
	$(BIN)/python -m pytest $(PYTEST_ARGS)

demo: install redis-up migrate
	@bash scripts/demo.sh $(PORT)

lint: install
	$(BIN)/ruff check games rubrics evaluators platform tests bench
	$(BIN)/ruff format --check games rubrics evaluators platform tests bench
	$(BIN)/mypy

# Builds and runs docker-compose.yml in production mode (podman or Docker), runs a job on all
# three families against the fake model while scaling workers, checks every page, tears down.
compose-smoke:
	@bash scripts/compose_smoke.sh

clean:
	rm -rf $(VENV) var podium.sqlite3
