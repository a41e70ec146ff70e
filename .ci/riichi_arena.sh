#!/usr/bin/env bash
# Short four-player riichi arena for CI (issue 32): the service with the table, and
# without it, seated on riichienv (PyPI, Tenhou rules with red fives) against the greedy
# baseline; fails on any illegal action, RPC error or a server that does not exit 0
# after SIGTERM. Also runs the unit tests of tools/mahjong in the arena's venv.
# Builds nothing.
#
# Usage: .ci/riichi_arena.sh --binary PATH [--wall-sets N] [--seed S] [--budget-ms MS]
#   defaults: --wall-sets 1 (4 hanchan per pairing) --seed 7 --budget-ms 50
# Env: RIICHI_VENV (default tools/mahjong/.venv), PYTHON (default python3).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${RIICHI_VENV:-$repo/tools/mahjong/.venv}
binary="" wall_sets=1 seed=7 budget=50
while (($#)); do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    --wall-sets) wall_sets=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --budget-ms) budget=$2; shift 2 ;;
    *) echo "riichi_arena.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ -n $binary ]] || { echo "riichi_arena.sh: --binary PATH is required" >&2; exit 2; }

# shellcheck source=.ci/lib.sh
source "$repo/.ci/lib.sh"
venv_for_requirements "$venv" "$repo/tools/mahjong/requirements.txt" riichi_arena.sh
py=$venv/bin/python
"$py" -m unittest discover -s "$repo/tools/mahjong"

status=0
for challenger in service+table service; do
  echo "riichi_arena.sh: $challenger vs three greedy, $wall_sets wall set(s) x 4 seats"
  "$py" "$repo/tools/mahjong/riichi_arena.py" --binary "$binary" --challenger "$challenger" \
    --field greedy --wall-sets "$wall_sets" --seed "$seed" --budget-ms "$budget" \
    --max-illegal 0 --max-errors 0 || status=1
done
exit "$status"
