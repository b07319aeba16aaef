#!/usr/bin/env bash
# make demo: registers the built-in baselines and default benchmarks, starts the host's call service
# and both kinds of Celery worker as the README's "Workers" section does (a thread pool on the LLM
# queue, a prefork pool with the lease reaper on the CPU queue) and the web server, submits a demo batch of baselines on all three
# families, waits for it, and keeps serving until Ctrl-C.
set -euo pipefail
PORT="${1:-8000}"
cd "$(dirname "$0")/.."
PY=.venv/bin/python
export PYTHONPATH="$PWD:$PWD/platform"
export DJANGO_SETTINGS_MODULE=podium.settings
mkdir -p var/log

pids=()
service_pid=""
cleanup() {
  for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done
  # the workers finish their items (SIGTERM is a warm shutdown) through the call service; then
  # the service drains whatever is still in flight
  for p in "${pids[@]}"; do while kill -0 "$p" 2>/dev/null; do sleep 0.2; done; done
  if [ -n "$service_pid" ]; then kill "$service_pid" 2>/dev/null || true; wait "$service_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT INT TERM

# Hashed, gzip-compressed static files (plotly.js 4.8 MB -> 1.4 MB on the wire), served by WhiteNoise.
export PODIUM_STATIC_COLLECTED=true
$PY manage.py collectstatic --noinput -v 0
$PY manage.py seed_catalog
# The HiPhO authors' reported scores (shown apart as "reported" rows), so the medal table is real
# from the first visit; skipped with a note when the shared data is not next to the checkout.
REPORTED="${PODIUM_SHARED_DATA:-../shared/data}/published/hipho_reported_scores.csv"
if [ -f "$REPORTED" ]; then $PY manage.py import_reported --path "$REPORTED"; else echo "no $REPORTED: reported HiPhO scores not imported"; fi
$PY manage.py demo_admin

QUEUE="${PODIUM_QUEUE:-podium}"
# The host's call service first: the workers hand it their model calls, and it stores every
# reply before answering (README, Workers). Stopped last, after the workers have drained.
mkdir -p var/run
export PODIUM_CALL_SERVICE="${PODIUM_CALL_SERVICE:-unix:$PWD/var/run/callservice.sock}"
setsid $PY manage.py podium_callservice >var/log/callservice.log 2>&1 &
service_pid=$!
for _ in $(seq 1 200); do
  grep -q "listening on" var/log/callservice.log 2>/dev/null && break
  kill -0 "$service_pid" 2>/dev/null || { cat var/log/callservice.log; exit 1; }
  sleep 0.3
done
# CPU-bound items (built-in players, engine analysis) and the engine's own tasks: one process per core.
PODIUM_DB_POOL_SIZE=2 setsid .venv/bin/celery -A podium worker -B -l INFO -P prefork \
  -c "${DEMO_CPU_WORKERS:-$(nproc)}" -Q "$QUEUE" -n "cpu@%h" \
  -s var/celerybeat-schedule >var/log/worker-cpu.log 2>&1 &
pids+=($!)
# Items that wait on a language model: one process, many threads.
setsid .venv/bin/celery -A podium worker -l INFO -P threads -c "${DEMO_LLM_THREADS:-64}" \
  -Q "$QUEUE-llm" -n "llm@%h" >var/log/worker-llm.log 2>&1 &
pids+=($!)
setsid .venv/bin/gunicorn podium.wsgi:application --bind "127.0.0.1:$PORT" --workers 2 --threads 4 \
  --access-logfile var/log/access.log >var/log/web.log 2>&1 &
pids+=($!)

for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$PORT/api/health" >/dev/null 2>&1 && break
  sleep 0.3
done
echo "site: http://127.0.0.1:$PORT  (logs: var/log/worker-cpu.log, var/log/worker-llm.log, var/log/callservice.log)"

$PY manage.py demo_batch --timeout "${DEMO_TIMEOUT:-1800}"

echo
echo "Demo batch finished. Podium is serving at http://127.0.0.1:$PORT  (Ctrl-C to stop)"
echo "Admin: http://127.0.0.1:$PORT/admin/  user 'admin', password in var/admin-password"
wait "${pids[2]}"
