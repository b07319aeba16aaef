#!/usr/bin/env bash
# make compose-smoke: proves docker-compose.yml the way an operator runs it.
#
#  1. engine     Docker with compose if a daemon answers, else podman + podman-compose
#  2. base       base images: the public ones (PODIUM_SMOKE_BASE=registry), or, by default,
#                stand-ins built from Debian's packages on a debootstrapped base (no registry)
#  3. wheelhouse Python wheels built on the host (offline image build), for the Debian base
#  4. build      the compose build of the Podium image
#  5. up         Redis + PostgreSQL + the fake model endpoint, then web, two LLM-bound
#                workers, one CPU worker and beat, in production mode with generated secrets;
#                waits for every health check
#  6. submit     a staff token, a model pointing at the fake endpoint, one job covering
#                HiPhO, Hanabi and chess through the API
#  7. scale      mid-job: workers scaled up, then down (graceful stop), while items run
#  8. complete   the job finishes with every item stored exactly once and none failed
#  9. pages      every main page (and the static files they load) answers 200 over HTTP
# 10. down       everything removed: containers, network, volumes
# and prints how long each stage took.
#
# Knobs: PODIUM_SMOKE_BASE=debian|registry, PODIUM_BUILD_CACHE (default ~/.cache/podium-deploy),
# SMOKE_LATENCY (fake model seconds per reply), SMOKE_TIMEOUT (job), SMOKE_KEEP=1 (leave the
# stack up for inspection; tear it down with the command it prints).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE="${PODIUM_BUILD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/podium-deploy}"
BASE="${PODIUM_SMOKE_BASE:-debian}"
PROJECT="podium-smoke-$$"
export SMOKE_LATENCY="${SMOKE_LATENCY:-2.0}"
SMOKE_TIMEOUT="${SMOKE_TIMEOUT:-1200}"
BENCHMARKS=(hipho/podiumdemo-2025 hanabi/watson-2p chess/best-move-demo)
mkdir -p "$CACHE"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/podium-smoke.XXXXXX")"
chmod 700 "$WORK"
LOG="$WORK/compose.log"
PY=python3

# --- timing and reporting -----------------------------------------------------------------
STAGES=()
stage_name="" stage_t0=0 all_t0=$(date +%s)
stage() {
  [ -n "$stage_name" ] && STAGES+=("$stage_name $(( $(date +%s) - stage_t0 ))")
  stage_name="$1" stage_t0=$(date +%s)
  echo "== $1: $2"
}
report() {
  [ -n "$stage_name" ] && STAGES+=("$stage_name $(( $(date +%s) - stage_t0 ))") && stage_name=""
  echo "-- stage times (s) --"
  for s in "${STAGES[@]}"; do printf '  %-11s %5s\n' ${s}; done
  printf '  %-11s %5s\n' total $(( $(date +%s) - all_t0 ))
}
fail() { echo "compose smoke FAILED: $*" >&2; exit 1; }

# --- 1. engine ----------------------------------------------------------------------------
stage engine "container engine and compose tool"
if command -v docker >/dev/null && docker info >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
  ENGINE=docker
  COMPOSE=(docker compose)
else
  ENGINE=podman
  if ! command -v podman >/dev/null; then
    [ "$(id -u)" = 0 ] || fail "podman is not installed: apt-get install podman runc"
    echo "installing podman and runc (apt)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q podman runc >>"$LOG" 2>&1
  fi
  # Containers inherit the host's hard limits (podman would ask for more than a sandboxed
  # host allows), and runc where installed: crun cannot set rlimits in some sandboxes.
  if [ -z "${CONTAINERS_CONF:-}" ]; then
    nofile=$(ulimit -Hn); nproc=$(ulimit -Hu)
    [ "$nofile" = unlimited ] && nofile=1048576
    { [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; } && nproc=32768
    {
      echo "[containers]"
      echo "default_ulimits = [\"nofile=$nofile:$nofile\", \"nproc=$nproc:$nproc\"]"
      if [ -x /usr/sbin/runc ]; then echo "[engine]"; echo 'runtime = "runc"'; fi
    } > "$CACHE/containers.conf"
    export CONTAINERS_CONF="$CACHE/containers.conf"
  fi
  # podman-compose 1.1+ understands --scale, profiles and health-check conditions; Debian
  # bookworm ships 1.0.3, so take it from PyPI into the cache when the one on PATH is older.
  pc_ok() { "$1" version 2>/dev/null | grep -Eq 'podman-compose version (1\.([1-9]|[1-9][0-9])|[2-9])'; }
  if command -v podman-compose >/dev/null && pc_ok podman-compose; then
    COMPOSE=(podman-compose)
  else
    if ! pc_ok "$CACHE/podman-compose/bin/podman-compose"; then
      echo "installing podman-compose from PyPI into $CACHE/podman-compose"
      python3 -m venv "$CACHE/podman-compose"
      "$CACHE/podman-compose/bin/pip" install -q --disable-pip-version-check podman-compose >>"$LOG" 2>&1
    fi
    COMPOSE=("$CACHE/podman-compose/bin/podman-compose")
  fi
fi
echo "$ENGINE; compose: ${COMPOSE[*]}"

ENVFILE="$WORK/env"
compose() { "${COMPOSE[@]}" --env-file "$ENVFILE" -p "$PROJECT" -f docker-compose.yml -f deploy/compose.smoke.yml "$@"; }
# Containers of this project (docker compose and podman-compose both set these labels).
containers() {
  local filter=(--filter "label=com.docker.compose.project=$PROJECT")
  [ -n "${1:-}" ] && filter+=(--filter "label=com.docker.compose.service=$1")
  $ENGINE ps -a "${filter[@]}" --format '{{.Names}}' | sort -V
}
teardown() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  if [ "${SMOKE_KEEP:-0}" = 1 ]; then
    echo "stack kept: cd $ROOT && ${COMPOSE[*]} --env-file $ENVFILE -p $PROJECT -f docker-compose.yml -f deploy/compose.smoke.yml down -v"
    exit $rc
  fi
  if [ $rc != 0 ] && [ -n "${ENGINE:-}" ]; then
    echo "-- last log lines of each container ($WORK/logs) --" >&2
    mkdir -p "$WORK/logs"
    for c in $(containers); do
      $ENGINE logs "$c" >"$WORK/logs/$c.log" 2>&1 || true
      echo "[$c]" >&2; tail -n 8 "$WORK/logs/$c.log" >&2
    done
  fi
  [ -n "$stage_name" ] && [ "$stage_name" != down ] && stage down "removing containers, network and volumes"
  if [ -f "$ENVFILE" ]; then
    compose down -v -t 30 >>"$LOG" 2>&1 || true
    # replicas added with --scale that the compose tool does not track, then what they held
    local left; left=$(containers)
    [ -n "$left" ] && $ENGINE rm -f -t 10 $left >>"$LOG" 2>&1 || true
    $ENGINE network rm "${PROJECT}_default" >>"$LOG" 2>&1 || true
    for _ in $(seq 1 15); do  # volumes go once their containers are fully removed
      left=$($ENGINE volume ls -q | grep "^${PROJECT}_" || true)
      [ -z "$left" ] && break
      for v in $left; do $ENGINE volume rm "$v" >>"$LOG" 2>&1 || true; done
      sleep 2
    done
    [ -z "$(containers)" ] || { echo "containers left: $(containers)" >&2; rc=1; }
    [ -z "$left" ] || { echo "volumes left: $left" >&2; rc=1; }
  fi
  [ "${WHEELHOUSE_COPIED:-0}" = 1 ] && rm -rf "$ROOT/wheelhouse"
  report
  if [ $rc = 0 ]; then echo "compose smoke PASSED"; rm -rf "$WORK"; else echo "compose smoke FAILED (logs in $WORK)" >&2; fi
  exit $rc
}
trap teardown EXIT
trap 'exit 130' INT TERM

# --- 2. base images -----------------------------------------------------------------------
if [ "$BASE" = debian ]; then
  stage base "Debian bookworm base and the python, redis and postgres stand-ins"
  if ! $ENGINE image exists localhost/debian:bookworm 2>/dev/null \
     && ! $ENGINE image inspect localhost/debian:bookworm >/dev/null 2>&1; then
    command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >>"$LOG" 2>&1
    rootfs="$CACHE/rootfs.$$"
    echo "debootstrap --variant=minbase bookworm (a few minutes)"
    debootstrap --variant=minbase bookworm "$rootfs" >>"$LOG" 2>&1 || fail "debootstrap failed (see $LOG)"
    tar -C "$rootfs" -c . | $ENGINE import - localhost/debian:bookworm >>"$LOG"
    rm -rf "$rootfs"
  fi
  for pair in python:podium-python:3.11-bookworm redis:podium-redis:7-bookworm postgres:podium-postgres:15-bookworm; do
    file=${pair%%:*} tag=localhost/${pair#*:}
    $ENGINE build -q --build-arg DEBIAN_IMAGE=localhost/debian:bookworm -t "$tag" \
      -f "deploy/images/$file.Containerfile" deploy/images >>"$LOG" 2>&1 || fail "building $tag (see $LOG)"
  done
  PYTHON_IMAGE=localhost/podium-python:3.11-bookworm
  REDIS_IMAGE=localhost/podium-redis:7-bookworm
  POSTGRES_IMAGE=localhost/podium-postgres:15-bookworm
else
  stage base "public base images (pulled by the engine)"
  PYTHON_IMAGE=python:3.11-slim-bookworm REDIS_IMAGE=redis:7 POSTGRES_IMAGE=postgres:15
fi

# --- 3. wheelhouse --------------------------------------------------------------------------
# pip inside a container may not reach the package index (here it cannot verify its TLS
# certificate), so wheels are built on the host by the interpreter the image carries
# (Debian's python3 is the stand-in's: environment markers then match) and the image
# installs from them offline.
if [ "$BASE" = debian ] || [ -n "${WHEELHOUSE:-}" ]; then
  stage wheelhouse "Python wheels for an offline image build"
  if [ -f requirements.lock ]; then reqs="$ROOT/requirements.lock"; else
    reqs="$WORK/requirements.in"
    $PY -c 'import tomllib,sys; print("\n".join(tomllib.load(open("pyproject.toml","rb"))["project"]["dependencies"]))' > "$reqs"
  fi
  wheel_py="${WHEEL_PYTHON:-/usr/bin/python3}"
  stamp="$(cat "$reqs" | sha256sum | cut -c1-16)-$("$wheel_py" -c 'import platform; print(platform.python_version())')"
  if [ "$(cat "$CACHE/wheelhouse/.stamp" 2>/dev/null)" != "$stamp" ]; then
    [ -x "$CACHE/wheel-venv/bin/pip" ] || "$wheel_py" -m venv "$CACHE/wheel-venv"
    rm -rf "$CACHE/wheelhouse"; mkdir -p "$CACHE/wheelhouse"
    "$CACHE/wheel-venv/bin/pip" wheel -q --disable-pip-version-check -w "$CACHE/wheelhouse" -r "$reqs" >>"$LOG" 2>&1 \
      || fail "pip wheel failed (see $LOG)"
    echo "$stamp" > "$CACHE/wheelhouse/.stamp"
  fi
  [ -e wheelhouse ] && fail "./wheelhouse exists already; remove it or unset the Debian base"
  cp -al "$CACHE/wheelhouse" wheelhouse 2>/dev/null || cp -r "$CACHE/wheelhouse" wheelhouse
  WHEELHOUSE_COPIED=1
  echo "$(ls wheelhouse/*.whl | wc -l) wheels"
fi

# --- 4. build ---------------------------------------------------------------------------------
stage build "compose build of the Podium image"
PODIUM_IMAGE="localhost/podium-smoke:latest"
WEB_PORT=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Fresh secrets for this run only: the compose file has no default for any of them.
gen() { $PY -c 'import secrets; print(secrets.token_hex(32))'; }
cat > "$ENVFILE" <<EOF
SECRET_KEY=$(gen)
POSTGRES_PASSWORD=$(gen)
REDIS_PASSWORD=$(gen)
PYTHON_IMAGE=$PYTHON_IMAGE
REDIS_IMAGE=$REDIS_IMAGE
POSTGRES_IMAGE=$POSTGRES_IMAGE
PODIUM_IMAGE=$PODIUM_IMAGE
WEB_PORT=$WEB_PORT
SMOKE_LATENCY=$SMOKE_LATENCY
EOF
chmod 600 "$ENVFILE"
compose build web >>"$LOG" 2>&1 || { tail -n 30 "$LOG"; fail "image build"; }

# --- 5. up --------------------------------------------------------------------------------------
# Health: Docker runs the checks itself; podman without systemd does not schedule them, so
# here each check is run on demand (`podman healthcheck run`) until it passes.
healthy() {
  if [ "$ENGINE" = podman ]; then podman healthcheck run "$1" >/dev/null 2>&1
  else [ "$(docker inspect -f '{{.State.Health.Status}}' "$1" 2>/dev/null)" = healthy ]; fi
}
declare -A PASSED=()  # a container stays healthy once its check has passed (as in Docker,
                      # where only `retries` failures in a row make it unhealthy) while it runs
wait_healthy() {  # SECONDS SERVICE...
  local deadline=$(( $(date +%s) + $1 )) svc c pending; shift
  while :; do
    pending=""
    for svc in "$@"; do
      for c in $(containers "$svc"); do
        [ "$($ENGINE inspect -f '{{.State.Running}}' "$c" 2>/dev/null)" = true ] || { pending+=" $c(stopped)"; continue; }
        [ -n "${PASSED[$c]:-}" ] && continue
        if healthy "$c"; then PASSED[$c]=1; else pending+=" $c"; fi
      done
      [ -n "$(containers "$svc")" ] || pending+=" $svc(none)"
    done
    [ -z "$pending" ] && return 0
    [ "$(date +%s)" -gt "$deadline" ] && fail "not healthy:$pending"
    sleep 3
  done
}
stage up "Redis, PostgreSQL, the fake model, the call service; then web, 2 LLM workers, 1 CPU worker, beat"
compose up -d --no-build redis postgres fake-openai >>"$LOG" 2>&1 || fail "compose up (see $LOG)"
wait_healthy 180 redis postgres fake-openai
# the workers wait for the call service's health check, which podman without systemd only runs here
compose up -d --no-build callservice >>"$LOG" 2>&1 || fail "compose up (see $LOG)"
wait_healthy 240 callservice
compose up -d --no-build --scale worker-llm=2 >>"$LOG" 2>&1 || fail "compose up (see $LOG)"
wait_healthy 420 web worker-llm worker-cpu
[ "$($ENGINE inspect -f '{{.State.Running}}' "$(containers beat)")" = true ] || fail "beat is not running"
echo "all healthy: $(containers | tr '\n' ' ')"
BASE_URL="http://127.0.0.1:$WEB_PORT"

# --- 6. submit ------------------------------------------------------------------------------------
stage submit "staff token, model at the fake endpoint, one job on all three families"
WEB=$(containers web | head -n1)
manage() { $ENGINE exec "$WEB" python manage.py "$@"; }
$ENGINE exec -e DJANGO_SUPERUSER_PASSWORD="$(gen)" "$WEB" python manage.py createsuperuser \
  --noinput --username smoke --email smoke@localhost >>"$LOG" 2>&1 || fail "createsuperuser"
TOKEN=$(manage api_token smoke --name compose-smoke 2>>"$LOG" | tail -n1)
[ -n "$TOKEN" ] || fail "no API token"
manage add_model smoke-llm openai/smoke-model --api-base http://fake-openai.smoke.internal:8765/v1 \
  --key-env SMOKE_MODEL_KEY --name "Smoke model" >>"$LOG" 2>&1 || fail "add_model"
bench_args=(); for b in "${BENCHMARKS[@]}"; do bench_args+=(--benchmark "$b"); done
JOB=$($PY scripts/compose_smoke_check.py submit --base "$BASE_URL" --token "$TOKEN" --model smoke-llm "${bench_args[@]}")
echo "job $JOB: $BASE_URL/jobs/$JOB/"

# --- 7. scale up and down mid-job --------------------------------------------------------------------
progress() { $PY scripts/compose_smoke_check.py progress --base "$BASE_URL" --job "$JOB"; }
stage scale "workers scaled up (3 LLM, 2 CPU) and down (1 LLM, 1 CPU) while the job runs"
echo "before: $(progress)"
# one service per command: podman-compose keeps only the last of several --scale options
for svc_n in worker-llm=3 worker-cpu=2; do
  compose up -d --no-build --no-deps --no-recreate --scale "$svc_n" "${svc_n%=*}" >>"$LOG" 2>&1 \
    || fail "scale up $svc_n (see $LOG)"
done
wait_healthy 300 worker-llm worker-cpu
echo "scaled up: $(containers worker-llm | wc -l) LLM, $(containers worker-cpu | wc -l) CPU workers; $(progress)"
read -r ended total status <<<"$(progress)"
[ "$status" != done ] || fail "the job ended before the scale-down; raise SMOKE_LATENCY (now $SMOKE_LATENCY s)"
# Scale down by stopping the newest replicas as `docker compose --scale` would: SIGTERM, the
# worker's warm shutdown finishes the items it holds, then the container goes.
grace=$($PY -c 'import sys; print(sys.argv[1].rstrip("s"))' "${WORKER_STOP_GRACE:-660}")
for svc_keep in worker-llm:1 worker-cpu:1; do
  svc=${svc_keep%:*} keep=${svc_keep#*:}
  for c in $(containers "$svc" | tail -n +$(( keep + 1 ))); do
    t0=$(date +%s); $ENGINE stop -t "$grace" "$c" >>"$LOG" 2>&1; $ENGINE rm "$c" >>"$LOG" 2>&1
    echo "stopped $c in $(( $(date +%s) - t0 )) s"
  done
done
echo "scaled down: $(containers worker-llm | wc -l) LLM, $(containers worker-cpu | wc -l) CPU workers; $(progress)"

# --- 8. completion ------------------------------------------------------------------------------------
stage complete "the job finishes; every item stored once, none failed"
fam_args=(); for b in "${BENCHMARKS[@]}"; do fam_args+=(--family "${b%%/*}"); done
$PY scripts/compose_smoke_check.py wait --base "$BASE_URL" --job "$JOB" --timeout "$SMOKE_TIMEOUT" "${fam_args[@]}" \
  || fail "job $JOB did not complete cleanly"
$ENGINE exec "$WEB" python -c "import json, urllib.request as u; s = json.load(u.urlopen('http://fake-openai:8765/stats')); print(f\"the fake model served {s['requests']} requests, at most {s['max_in_flight']} at once\")" || true

# --- 9. pages -------------------------------------------------------------------------------------------
stage pages "every main page answers 200 (production settings, collected static files)"
$PY scripts/compose_smoke_check.py pages --base "$BASE_URL" --job "$JOB" || fail "pages"

stage down "removing containers, network and volumes"
# teardown (the EXIT trap) removes everything and prints the stage times
