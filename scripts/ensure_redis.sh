#!/usr/bin/env bash
# Starts a local redis-server when nothing answers at the given URL (a fresh machine has none).
set -euo pipefail
url="${1:-redis://127.0.0.1:6379/0}"
hostport="${url#*://}"; hostport="${hostport#*@}"; hostport="${hostport%%/*}"
host="${hostport%%:*}"; port="${hostport##*:}"; [ "$port" = "$host" ] && port=6379
if redis-cli -h "$host" -p "$port" ping >/dev/null 2>&1; then exit 0; fi
case "$host" in
  127.0.0.1|localhost) ;;
  *) echo "error: no Redis answers at $url and it is not local, so it cannot be started here" >&2; exit 1;;
esac
mkdir -p var/redis
echo "starting redis-server on $host:$port"
redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --save "" --appendonly no \
  --dir "$PWD/var/redis" --logfile "$PWD/var/redis/redis.log"
for _ in $(seq 1 50); do
  redis-cli -h "$host" -p "$port" ping >/dev/null 2>&1 && exit 0
  sleep 0.1
done
echo "error: redis-server did not start; see var/redis/redis.log" >&2; exit 1
