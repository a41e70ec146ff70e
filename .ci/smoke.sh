#!/usr/bin/env bash
# Smoke test of the release binary as README.md shows it: start it on free ports,
# wait for SERVING, list / describe / health / one call with grpcurl (reflection
# v1alpha: grpcurl 1.8.6), /metrics with curl, then SIGTERM and exit code 0.
set -euo pipefail
cd "$(dirname "$0")/.."

GRPCURL=.venv/bin/grpcurl
BIN=target/release/gameai
free_port() { .venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
GRPC_PORT=$(free_port)
METRICS_PORT=$(free_port)
ADDR=127.0.0.1:$GRPC_PORT
LOG=$(mktemp)

"$BIN" --grpc-addr "$ADDR" --metrics-addr "127.0.0.1:$METRICS_PORT" --log-format json \
  --shutdown-grace-secs 10 >"$LOG" 2>&1 &
PID=$!
cleanup() {
  if kill -0 "$PID" 2>/dev/null; then kill -KILL "$PID" 2>/dev/null || true; fi
  rm -f "$LOG"
}
trap cleanup EXIT
fail() { echo "smoke: FAIL: $*" >&2; echo "--- server log ---" >&2; cat "$LOG" >&2; exit 1; }

echo "smoke: waiting for SERVING on $ADDR"
for _ in $(seq 1 150); do
  if out=$("$GRPCURL" -plaintext -max-time 2 -d '{"service":""}' "$ADDR" grpc.health.v1.Health/Check 2>/dev/null) \
     && grep -q '"SERVING"' <<<"$out"; then
    break
  fi
  kill -0 "$PID" 2>/dev/null || fail "server exited early"
  sleep 0.2
done
grep -q '"SERVING"' <<<"${out:-}" || fail "not SERVING after 30 s"

echo "smoke: grpcurl list"
list=$("$GRPCURL" -plaintext "$ADDR" list) || fail "list"
echo "$list"
for s in gameai.v1.DouDizhuService gameai.v1.MahjongService gameai.v1.GomokuService grpc.health.v1.Health; do
  grep -qx "$s" <<<"$list" || fail "list lacks $s"
done

echo "smoke: grpcurl describe"
desc=$("$GRPCURL" -plaintext "$ADDR" describe gameai.v1.MahjongService) || fail "describe"
grep -q 'rpc SuggestMahjongDiscard' <<<"$desc" || fail "describe lacks SuggestMahjongDiscard"
"$GRPCURL" -plaintext "$ADDR" describe gameai.v1.ListDouDizhuPlaysRequest >/dev/null || fail "describe message"

echo "smoke: health of each service"
for s in gameai.v1.DouDizhuService gameai.v1.MahjongService gameai.v1.GomokuService; do
  out=$("$GRPCURL" -plaintext -d "{\"service\":\"$s\"}" "$ADDR" grpc.health.v1.Health/Check) || fail "health $s"
  grep -q '"SERVING"' <<<"$out" || fail "$s not SERVING: $out"
done

echo "smoke: one call (ListDouDizhuPlays)"
if out=$("$GRPCURL" -plaintext -d '{"hand":"334455"}' "$ADDR" gameai.v1.DouDizhuService/ListDouDizhuPlays 2>&1); then
  grep -q '"plays"' <<<"$out" || fail "ListDouDizhuPlays answered without plays: $out"
  echo "smoke: ListDouDizhuPlays answered $(grep -c '"cards"' <<<"$out") plays"
else
  # Until the Dou Dizhu engine is wired in, the method answers UNIMPLEMENTED.
  grep -q 'Code: Unimplemented' <<<"$out" || fail "ListDouDizhuPlays: $out"
  echo "smoke: ListDouDizhuPlays is UNIMPLEMENTED (engine not wired in yet)"
fi
# Bad input never kills the server: an unknown health service is NOT_FOUND.
out=$("$GRPCURL" -plaintext -d '{"service":"nope"}' "$ADDR" grpc.health.v1.Health/Check 2>&1) && fail "unknown service answered OK"
grep -q 'Code: NotFound' <<<"$out" || fail "unknown service: $out"

echo "smoke: curl /metrics"
metrics=$(curl -fsS "http://127.0.0.1:$METRICS_PORT/metrics") || fail "GET /metrics"
grep -q 'grpc_server_handled_total{grpc_type="unary",grpc_service="grpc.health.v1.Health",grpc_method="Check",grpc_code="OK"}' <<<"$metrics" \
  || fail "/metrics lacks the OK Health/Check series"
grep -q 'grpc_code="NotFound"' <<<"$metrics" || fail "/metrics lacks the NotFound series"
grep -q '^grpc_server_handling_seconds_bucket' <<<"$metrics" || fail "/metrics lacks the latency histogram"
grep -q '^gameai_requests_shed_total' <<<"$metrics" || fail "/metrics lacks gameai_requests_shed_total"

echo "smoke: SIGTERM"
kill -TERM "$PID"
rc=0
for _ in $(seq 1 150); do
  kill -0 "$PID" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$PID" 2>/dev/null && fail "still running 15 s after SIGTERM"
wait "$PID" || rc=$?
[ "$rc" -eq 0 ] || fail "exit code $rc after SIGTERM"
grep -q 'SIGTERM received' "$LOG" || fail "no SIGTERM line in the log"
echo "smoke: OK (exit code 0 after SIGTERM)"
