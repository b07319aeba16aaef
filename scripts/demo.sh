#!/usr/bin/env bash
# make demo: registers the built-in baselines and default benchmarks, starts one Celery worker
# (with the lease reaper) and the web server, submits a demo batch of baselines on all three
# families, waits for it, and keeps serving until Ctrl-C.
set -euo pipefail
PORT="${1:-8000}"
cd "$(dirname "$0")/.."
PY=.venv/bin/python
export PYTHONPATH="$PWD:$PWD/platform"
export DJANGO_SETTINGS_MODULE=podium.settings
mkdir -p var/log

pids=()
cleanup() { for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT INT TERM

# Hashed, gzip-compressed static files (plotly.js 4.8 MB -> 1.4 MB on the wire), served by WhiteNoise.
export PODIUM_STATIC_COLLECTED=true
$PY manage.py collectstatic --noinput -v 0
$PY manage.py seed_catalog
$PY manage.py demo_admin

setsid .venv/bin/celery -A podium worker -B -l INFO -c "${DEMO_WORKERS:-2}" -Q "${PODIUM_QUEUE:-podium}" \
  -s var/celerybeat-schedule >var/log/worker.log 2>&1 &
pids+=($!)
setsid .venv/bin/gunicorn podium.wsgi:application --bind "127.0.0.1:$PORT" --workers 2 --threads 4 \
  --access-logfile var/log/access.log >var/log/web.log 2>&1 &
pids+=($!)

for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$PORT/api/health" >/dev/null 2>&1 && break
  sleep 0.3
done
echo "site: http://127.0.0.1:$PORT  (worker log: var/log/worker.log)"

$PY manage.py demo_batch --timeout "${DEMO_TIMEOUT:-1800}"

echo
echo "Demo batch finished. Podium is serving at http://127.0.0.1:$PORT  (Ctrl-C to stop)"
echo "Admin: http://127.0.0.1:$PORT/admin/  user 'admin', password in var/admin-password"
wait "${pids[1]}"
