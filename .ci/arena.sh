#!/usr/bin/env bash
# Short Dou Dizhu arena for CI: plays the service against DouZero's RLCard and random
# agents and fails on any illegal suggestion (tools/arena/README.md). Builds nothing.
#
# Usage: .ci/arena.sh (--binary PATH | --addr HOST:PORT) [--deals N] [--seed S]
#                     [--opponent rlcard|random]... [-- extra tools/arena/arena.py options]
#   --binary PATH  start this gameai binary on free loopback ports, stop it with SIGTERM
#   --addr  ADDR   use a server that is already running
#   --opponent     run against this agent only (repeatable; default: rlcard and random)
#   defaults: --deals 50 --seed 0; every run asserts 0 illegal suggestions
# Env: ARENA_VENV (default tools/arena/.venv), PYTHON (default python3).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${ARENA_VENV:-$repo/tools/arena/.venv}
binary="" addr="" deals=50 seed=0 opponents=() extra=()
while (($#)); do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    --addr) addr=$2; shift 2 ;;
    --deals) deals=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --opponent) opponents+=("$2"); shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "arena.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [[ -z $binary && -z $addr ]] || [[ -n $binary && -n $addr ]]; then
  echo "arena.sh: give exactly one of --binary PATH or --addr HOST:PORT" >&2; exit 2
fi

# shellcheck source=.ci/lib.sh
source "$repo/.ci/lib.sh"
venv_for_requirements "$venv" "$repo/tools/arena/requirements.txt" arena.sh
py=$venv/bin/python
"$py" -m unittest discover -s "$repo/tools/arena"
"$py" -m unittest discover -s "$repo/tools/mahjong"

server_pid="" server_log=""
# Stops the server started here with SIGTERM; fails (returns 1) unless it exits with
# status 0: a crash, a hang past 30 s or a non-zero exit fails the run.
stop_server() {
  [[ -n $server_pid ]] || return 0
  local pid=$server_pid rc=0
  server_pid=""
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "arena.sh: FAIL: server still running 30 s after SIGTERM, killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    return 1
  fi
  wait "$pid" || rc=$?
  if ((rc)); then
    echo "arena.sh: FAIL: server exited with status $rc" >&2
    return 1
  fi
  echo "arena.sh: server stopped (exit 0)"
}
trap 'stop_server; [[ -n $server_log ]] && rm -f "$server_log"' EXIT

if [[ -n $binary ]]; then
  addr=127.0.0.1:$(free_port)
  server_log=$(mktemp)
  "$binary" --grpc-addr "$addr" --metrics-addr "127.0.0.1:$(free_port)" >"$server_log" 2>&1 &
  server_pid=$!
  echo "arena.sh: started $binary on $addr (pid $server_pid)"
fi

status=0
((${#opponents[@]})) || opponents=(rlcard random)
for opponent in "${opponents[@]}"; do
  "$py" "$repo/tools/arena/arena.py" --addr "$addr" --opponent "$opponent" \
    --deals "$deals" --seed "$seed" --wait-ready 60 --max-illegal 0 ${extra[@]+"${extra[@]}"} ||
    status=1
done
stop_server || status=1
if ((status)) && [[ -n $server_log ]]; then
  echo "arena.sh: last server log lines:" >&2; tail -n 20 "$server_log" >&2
fi
exit "$status"
