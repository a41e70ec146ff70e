#!/usr/bin/env bash
# Gomocup protocol end to end for CI: the referee's unit tests, then full refereed games
# between the release brains (tools/gomocup/README.md). Every game must end by a five or
# a full board: no illegal, forbidden or late move, no ERROR. Builds nothing; run after
# `cargo build --release`.
#
# Usage: .ci/gomocup.sh [--brain PATH] [--bin-dir target/release] [--turn-ms 100]
#   --brain  the brain under test (default BIN_DIR/pbrain-gameai); it plays itself and
#            BIN_DIR/pbrain-oneply, seed 002's one-ply player
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin_dir=$repo/target/release turn_ms=100 brain=""
while (($#)); do
  case $1 in
    --brain) brain=$2; shift 2 ;;
    --bin-dir) bin_dir=$2; shift 2 ;;
    --turn-ms) turn_ms=$2; shift 2 ;;
    *) echo "gomocup.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
py=${PYTHON:-python3}
gameai=${brain:-$bin_dir/pbrain-gameai} oneply=$bin_dir/pbrain-oneply
for b in "$gameai" "$oneply"; do
  [[ -x $b ]] || { echo "gomocup.sh: $b is missing (cargo build --release first)" >&2; exit 2; }
done
out=$repo/target/gomocup-ci
rm -rf "$out" && mkdir -p "$out"

"$py" -m unittest discover -s "$repo/tools/gomocup"

game() {
  "$py" "$repo/tools/gomocup/referee.py" --turn-ms "$turn_ms" --tolerance-ms 150 \
    --out "$out/games.jsonl" --require-clean "$@"
}
# Self-play on Gomocup's freestyle board, from an empty board (BEGIN / TURN).
game --black "$gameai" --black-name gameai-1 --white "$gameai" --white-name gameai-2 \
  --rule freestyle --size 20
# Renju on 15x15 from a canonical opening (BOARD), against the one-ply player, both
# colours: black must never be offered a forbidden point.
game --black "$gameai" --black-name gameai --white "$oneply" --white-name oneply \
  --rule renju --size 15 --opening h8,h9,j10
game --black "$oneply" --black-name oneply --white "$gameai" --white-name gameai \
  --rule renju --size 15 --opening h8,i9,j8
# Exactly five, with a match clock running (INFO time_left before every move).
game --black "$gameai" --black-name gameai-1 --white "$gameai" --white-name gameai-2 \
  --rule standard --size 15 --match-ms 20000 --opening h8,i8,j9

echo "gomocup.sh: $(wc -l <"$out/games.jsonl") refereed games, all clean ($out/games.jsonl)"
