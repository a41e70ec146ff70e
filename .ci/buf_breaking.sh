#!/usr/bin/env bash
# buf breaking for CI: proto/ at HEAD against the contract as main last landed it.
#
# Which commits are compared with:
# - GAMEAI_BUF_AGAINST=COMMIT: that commit (the last landed main, when CI is told it).
# - On a branch (a ref origin/main or main exists and HEAD is not on its tip's line):
#   the merge base with it, the main this branch will land on.
# - On main itself (CI's fresh clone of the submitted main, where origin/main IS HEAD
#   and the merge base with it would be HEAD): every commit of HEAD's first-parent line
#   that changed proto/, i.e. the contract as each landed main had it; the last landed
#   main is one of them, whichever it was, so no record of it is needed.
# A shallow clone is deepened first (git fetch --unshallow); if that fails, or no base
# commit can be found, this fails: it never skips.
set -euo pipefail
cd "$(dirname "$0")/.."
BUF=${BUF:-.venv/bin/buf}

fail() { echo "buf_breaking: FAIL: $*" >&2; exit 1; }

if [ "$(git rev-parse --is-shallow-repository)" = "true" ]; then
  echo "buf_breaking: shallow clone, fetching the full history"
  git fetch --quiet --unshallow || fail "shallow clone and 'git fetch --unshallow' failed"
fi

head=$(git rev-parse HEAD)
bases=()
if [ -n "${GAMEAI_BUF_AGAINST:-}" ]; then
  base=$(git rev-parse --verify --quiet "${GAMEAI_BUF_AGAINST}^{commit}") ||
    fail "GAMEAI_BUF_AGAINST=$GAMEAI_BUF_AGAINST is no commit of this clone"
  bases=("$base")
  echo "buf_breaking: against GAMEAI_BUF_AGAINST ($base)"
else
  for ref in origin/main main; do
    tip=$(git rev-parse --verify --quiet "$ref^{commit}") || continue
    base=$(git merge-base HEAD "$tip") || continue
    if [ "$base" != "$head" ]; then
      bases=("$base")
      echo "buf_breaking: against the merge base with $ref ($base)"
    fi
    break
  done
  if [ ${#bases[@]} -eq 0 ]; then
    mapfile -t bases < <(git log --first-parent --format=%H HEAD -- proto/)
    echo "buf_breaking: HEAD is main's tip: against the ${#bases[@]} contracts of its first-parent line"
  fi
fi
[ ${#bases[@]} -gt 0 ] || fail "no commit to compare proto/ with"

for base in "${bases[@]}"; do
  git cat-file -e "$base^{commit}" 2>/dev/null || fail "commit $base is not in this clone"
  if ! git ls-tree -d --name-only "$base" proto | grep -qx proto; then
    echo "buf_breaking: $base has no proto/ (the contract begins later)"
    continue
  fi
  config=()
  if ! git show "$base:proto/gameai/v1/common.proto" 2>/dev/null | grep -q '^option go_package'; then
    # The base predates the language options (go_package, java_*, csharp_namespace;
    # issue 34). Setting them where none were is the one change the FILE_SAME_* option
    # rules would flag; against such a base only those rules are left out.
    config=(--config '{"version":"v2","modules":[{"path":"proto"}],"breaking":{"use":["FILE"],"except":["FILE_SAME_CSHARP_NAMESPACE","FILE_SAME_GO_PACKAGE","FILE_SAME_JAVA_MULTIPLE_FILES","FILE_SAME_JAVA_OUTER_CLASSNAME","FILE_SAME_JAVA_PACKAGE"]}}')
  fi
  "$BUF" breaking --against ".git#ref=$base,subdir=proto" ${config[@]+"${config[@]}"} ||
    fail "proto/ breaks the contract of $base ($(git log -1 --format='%h %s' "$base" | cut -c1-80))"
done
echo "buf_breaking: OK against ${#bases[@]} commit(s)"
