#!/usr/bin/env bash
# Runs the cargo-fuzz targets of fuzz/ on the machine's stable toolchain.
#
#   bash fuzz/run.sh --seconds 20            # every target for 20 s
#   bash fuzz/run.sh --runs 10000000 T...    # 10M executions of each target named
#   bash fuzz/run.sh --runs 10000000 --seconds 900   # whichever comes first
#   bash fuzz/run.sh --seconds 5 --opt-level 1       # the CI smoke: a quicker build
#
# cargo-fuzz's default sanitizer (AddressSanitizer) needs nightly's -Z flags, so the
# targets are built with `-s none`: libFuzzer's coverage instrumentation and the Rust
# panic / debug-assertion / overflow checks, without ASan (the code under test has
# one `unsafe` block, the SSE2 merge in src/mahjong/merge.rs). Seeds: every request of
# bench/requests/*.jsonl, encoded (loadgen --dump-corpus). A crash leaves its input in
# fuzz/artifacts/TARGET/ and makes this script exit non-zero; reproduce it with
# `cargo fuzz run -s none TARGET fuzz/artifacts/TARGET/crash-...` in fuzz/.
set -euo pipefail
cd "$(dirname "$0")"

CARGO_FUZZ_VERSION=0.13.2
seconds=20
runs=()
targets=()
opt=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    # The fuzz targets' opt-level only (cargo's env override, given to the cargo fuzz
    # commands alone: the seeds' loadgen build below keeps the release profile's).
    --opt-level) opt=(env "CARGO_PROFILE_RELEASE_OPT_LEVEL=$2"); shift 2 ;;
    --runs) runs=(-runs="$2"); [ "$seconds" = 20 ] && seconds=0; shift 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
# --runs alone: no time limit (libFuzzer's 0); both: whichever ends first.
mode=(-max_total_time="$seconds" "${runs[@]}")

if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <("${opt[@]}" cargo fuzz list)
fi

"${opt[@]}" cargo fuzz build -s none
if [ ! -d seeds ]; then
  (cd .. && cargo build --release -p gameai-tools --bin loadgen &&
    target/release/loadgen --requests bench/requests/*.jsonl --dump-corpus fuzz/seeds)
fi

for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  seeds=()
  [ -d "seeds/$t" ] && seeds=("seeds/$t")
  log=$(mktemp)
  # -timeout: one input running 10 s is a hang (every budget here is 3 ms, 6 ms for SuggestDouDizhuPlay).
  if ! "${opt[@]}" cargo fuzz run -s none "$t" "corpus/$t" "${seeds[@]}" -- \
      "${mode[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz target $t FAILED: input in fuzz/artifacts/$t/" >&2
    exit 1
  fi
  rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?')
  total=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  echo "$t: $total executions ($rate/s), 0 crashes"
  rm -f "$log"
done
