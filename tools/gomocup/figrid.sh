#!/usr/bin/env bash
# Match of pbrain-gameai against figrid, a Gomocup 2026 entrant built from crates.io
# (figrid-board 1.2.0: alpha-beta with VCF/VCT and a learned evaluator; its 20x20 build,
# the board of Gomocup's freestyle). Freestyle 20x20, equal time per move, both colours
# per opening. figrid is installed under target/external/ (never committed) on first use.
#
# Usage: tools/gomocup/figrid.sh [--turn-ms 200] [--openings 50] [--seed 1] [-- more match.py options]
# Writes target/gomocup/figrid-<turn>ms.jsonl and .json (summary); --resume is passed, so
# an interrupted match continues.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
turn_ms=200 openings=50 seed=1 extra=()
while (($#)); do
  case $1 in
    --turn-ms) turn_ms=$2; shift 2 ;;
    --openings) openings=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "figrid.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

figrid=$repo/target/external/figrid20/bin/pbrain-figrid
if [[ ! -x $figrid ]]; then
  echo "figrid.sh: building figrid-board 1.2.0 (20x20) from crates.io into target/external/figrid20"
  CARGO_TARGET_DIR=$repo/target/external/build nice -n 10 cargo install figrid-board@1.2.0 \
    --locked --features embed-weights,codebook-eval,board20 --root "$repo/target/external/figrid20"
fi
gameai=$repo/target/release/pbrain-gameai
[[ -x $gameai ]] || { echo "figrid.sh: build $gameai first (cargo build --release)" >&2; exit 2; }

out=$repo/target/gomocup/figrid-${turn_ms}ms
mkdir -p "$(dirname "$out")"
echo "figrid.sh: load before the match: $(uptime)"
nice -n 10 python3 "$repo/tools/gomocup/match.py" \
  --a "$gameai" --a-name gameai --b "$figrid" --b-name figrid \
  --rule freestyle --size 20 --turn-ms "$turn_ms" --openings "$openings" --seed "$seed" \
  --out "$out.jsonl" --summary "$out.json" --resume "${extra[@]}"
echo "figrid.sh: load after the match: $(uptime)"
