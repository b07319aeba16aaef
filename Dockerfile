# One image for web, workers, beat and flower.
#
#   docker build -t podium .                                   # public python:3.11-slim-bookworm, PyPI
#   docker build --build-arg PYTHON_IMAGE=localhost/podium-python:3.11-bookworm -t podium .
#
# plotly.js comes from npm (the assets stage below; package.json, as `make install`).
# Python packages come from ./wheelhouse when it holds wheels (an offline build: fill it on a
# host that reaches the package index with `pip wheel -w wheelhouse ...`, as
# scripts/compose_smoke.sh does), from the package index otherwise. The wheelhouse only
# feeds the build stage: the final image holds the installed packages, not the wheels.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
RUN python3 -m venv /opt/venv
WORKDIR /deps
# The globs match nothing when there is no lock file or no wheelhouse; pyproject.toml always
# matches, so the COPY never fails. A directory matched by a glob is copied by content, so
# the wheels land in /deps itself.
COPY pyproject.toml requirements*.lock wheelhouse* ./
# Install exactly the lock file's pins when there is one, else the ranges in pyproject.toml.
# The project itself is not installed as a package (it runs from /app on PYTHONPATH).
RUN set -eu; \
    if ls /deps/*.whl >/dev/null 2>&1; then src="--no-index --find-links /deps"; else src=""; fi; \
    if [ -f requirements.lock ]; then req=requirements.lock; else \
      python3 -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))' > requirements.in; \
      req=requirements.in; fi; \
    /opt/venv/bin/pip install --no-cache-dir --disable-pip-version-check $src -r "$req"
COPY . /src
RUN rm -rf /src/wheelhouse /src/requirements.in

# Browser assets, as `make install` does (Makefile, node_modules/.installed): `npm ci` installs
# package.json's plotly.js cartesian bundle (1.5 MB, against the plotly wheel's full 4.8 MB) into
# node_modules/, where platform/podium/asset_finders.py prefers it. Like the Makefile, a build
# without npm or without the registry (an offline build from ./wheelhouse) warns and leaves
# node_modules/ empty: the image then serves the full bundle from the plotly wheel.
FROM ${PYTHON_IMAGE} AS assets
WORKDIR /assets
COPY package.json package-lock.json ./
RUN set -u; \
    if { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends npm; } >/dev/null 2>&1 \
       && npm ci --no-audit --no-fund --omit=dev; then \
      echo "assets: plotly.js cartesian bundle installed from npm"; \
    else \
      rm -rf node_modules && mkdir node_modules; \
      echo "warning: npm ci failed; the image serves the full plotly bundle from the plotly wheel"; \
    fi

FROM ${PYTHON_IMAGE}
# Stockfish scores chess moves; Debian's package puts it at /usr/games/stockfish.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends stockfish \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --create-home --home-dir /home/podium podium
COPY --from=build /opt/venv /opt/venv
COPY --from=build /src /app
COPY --from=assets /assets/node_modules /app/node_modules
WORKDIR /app
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONPATH=/app:/app/platform \
    DJANGO_SETTINGS_MODULE=podium.settings \
    LITELLM_LOCAL_MODEL_COST_MAP=True \
    PODIUM_STOCKFISH=/usr/games/stockfish \
    STATIC_ROOT=/app/var/static
# Collect static files at build time: production settings serve them from the manifest that
# collectstatic writes (without it every HTML page is a 500). The key below exists only for
# this one command; the image holds no secret, and production refuses to start without one.
RUN PODIUM_PRODUCTION=true SECRET_KEY=collectstatic-only-not-a-secret \
    python manage.py collectstatic --noinput -v 0 \
 && mkdir -p /app/var/run && chown podium:podium /app/var/run
USER podium
EXPOSE 8000
CMD ["gunicorn", "podium.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--threads", "4"]
