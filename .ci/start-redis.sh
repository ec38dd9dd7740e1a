#!/usr/bin/env bash
# Starts a throwaway redis-server for tests and local runs: loopback only, no persistence (no RDB, no AOF),
# daemonized, with its pidfile, log and working folder in a fresh temp folder. The Debian package does
# not start a server by itself in containers, so CI starts its own.
#
#   eval "$(.ci/start-redis.sh [PORT])"    # PORT default: a free port chosen by the OS
#   ... REDIS_URL=redis://127.0.0.1:PORT is now set ...
#   kill "$(cat "$REDIS_PIDFILE")"         # stop it
#
# Prints two lines: REDIS_URL=redis://127.0.0.1:PORT and REDIS_PIDFILE=<path>.
set -euo pipefail

if ! command -v redis-server >/dev/null 2>&1; then
  echo "start-redis: redis-server not found; install it with: apt-get install -y redis-server" >&2
  exit 1
fi

port="${1:-}"
if [ -z "$port" ]; then
  port="$(node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });")"
fi
case "$port" in
  '' | *[!0-9]*) echo "start-redis: PORT must be a number, got '$port'" >&2; exit 1 ;;
esac

dir="$(mktemp -d "${TMPDIR:-/tmp}/distil-redis.XXXXXX")"
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
  --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --dir "$dir"

# Wait (up to 5 s) until the server answers and has written its pidfile.
for _ in $(seq 1 50); do
  if [ -s "$dir/redis.pid" ] && redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then
    echo "REDIS_URL=redis://127.0.0.1:$port"
    echo "REDIS_PIDFILE=$dir/redis.pid"
    exit 0
  fi
  sleep 0.1
done
echo "start-redis: redis-server did not answer on 127.0.0.1:$port; its log:" >&2
cat "$dir/redis.log" >&2 || true
[ -s "$dir/redis.pid" ] && kill "$(cat "$dir/redis.pid")" 2>/dev/null || true
exit 1
