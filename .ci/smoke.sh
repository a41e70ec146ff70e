#!/usr/bin/env bash
# Smoke test of the release binary as README.md shows it: start it on free ports,
# wait for SERVING, list / describe / health / one call with grpcurl (reflection
# v1alpha: grpcurl 1.8.6), /metrics with curl, then SIGTERM and exit code 0.
set -euo pipefail
cd "$(dirname "$0")/.."

GRPCURL=.venv/bin/grpcurl
# GAMEAI_BIN: another build to smoke (a debug one, when trying the script itself).
BIN=${GAMEAI_BIN:-target/release/gameai}
# shellcheck source=.ci/lib.sh
source .ci/lib.sh
PYTHON=.venv/bin/python
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
server_alive() { kill -0 "$PID" 2>/dev/null; }
wait_serving "$GRPCURL" "$ADDR" 150 server_alive || fail "$WAIT_FAILURE"

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
# The lead plays of 334455, by the rules text: singles 3, 4, 5; pairs 33, 44, 55; the
# pair chain 334455 (three pairs); no chain of five singles, no trio: 7 plays.
out=$("$GRPCURL" -plaintext -d '{"hand":"334455"}' "$ADDR" gameai.v1.DouDizhuService/ListDouDizhuPlays 2>&1) ||
  fail "ListDouDizhuPlays: $out"
plays=$(grep -c '"cards"' <<<"$out" || true)
[ "$plays" -eq 7 ] || fail "ListDouDizhuPlays listed $plays plays of 334455, not 7: $out"
echo "smoke: ListDouDizhuPlays answered the 7 plays of 334455"
echo "smoke: gomoku (SuggestGomokuMove blocks a four, AnalyzeGomokuPosition lists renju forbidden points)"
out=$("$GRPCURL" -plaintext -d '{"position":{"moves":"h8h7i7g9h6g5g7i6g8f8f6e5f5j10i10i11k9h10j12l10"},"rule":"GOMOKU_RULE_FREESTYLE","budget_ms":300}' \
  "$ADDR" gameai.v1.GomokuService/SuggestGomokuMove) || fail "SuggestGomokuMove: $out"
grep -q '"point": "e7"' <<<"$out" || fail "SuggestGomokuMove did not block at e7: $out"
out=$("$GRPCURL" -plaintext -d '{"position":{"black":["f7","h2","h4","h5","h6","h9","i7","j5","j6","k5","l3","m6"],"white":["f2","h8","i2","j9","k3","k7","l7","l9","n3","n7","n8","n10"],"toMove":"STONE_BLACK"},"rule":"GOMOKU_RULE_RENJU"}' \
  "$ADDR" gameai.v1.GomokuService/AnalyzeGomokuPosition) || fail "AnalyzeGomokuPosition: $out"
[ "$(grep -c 'FORBIDDEN_KIND_DOUBLE_THREE' <<<"$out")" -eq 3 ] || fail "AnalyzeGomokuPosition forbidden points: $out"
out=$("$GRPCURL" -plaintext -d '{"position":{"moves":"h8h8"}}' "$ADDR" gameai.v1.GomokuService/SuggestGomokuMove 2>&1) && fail "h8h8 answered OK"
grep -q 'Code: InvalidArgument' <<<"$out" || fail "h8h8: $out"
echo "smoke: gomoku OK"

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
