#!/usr/bin/env bash
# Installs the Debian packages Podium needs when they are missing: redis-server, stockfish,
# chromium (for the browser tests). Needs root or sudo; says clearly what is missing otherwise.
set -euo pipefail
need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
{ command -v stockfish >/dev/null 2>&1 || [ -x /usr/games/stockfish ]; } || need+=(stockfish)
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
[ ${#need[@]} -eq 0 ] && exit 0
echo "installing missing system packages: ${need[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "error: need root or sudo to apt-get install ${need[*]}" >&2; exit 1; fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: apt-get not found; install ${need[*]} with your package manager" >&2; exit 1
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
