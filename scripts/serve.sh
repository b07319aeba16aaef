#!/usr/bin/env bash
# The production start of the web process (README "Production start"; the image runs it too).
# With PODIUM_PRODUCTION=true static files are served from a hashed manifest, so collectstatic
# must run before the first request: without it every page that links a stylesheet is a 500
# ("Missing staticfiles manifest entry"). Then the schema is migrated and gunicorn serves.
#   BIND (0.0.0.0:8000), WEB_WORKERS (3), WEB_THREADS (4), PYTHON (.venv/bin/python or python)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PYTHON:-}" ]; then
  if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; else PYTHON=python; fi
fi
export PYTHONPATH="$PWD:$PWD/platform${PYTHONPATH:+:$PYTHONPATH}"
export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-podium.settings}"

"$PYTHON" manage.py collectstatic --noinput -v 0
"$PYTHON" manage.py migrate --noinput -v 0
"$PYTHON" manage.py check --deploy --fail-level ERROR
exec "$PYTHON" -m gunicorn podium.wsgi:application --bind "${BIND:-0.0.0.0:8000}" \
  --workers "${WEB_WORKERS:-3}" --threads "${WEB_THREADS:-4}" --access-logfile -
