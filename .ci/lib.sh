# Shared by the CI scripts that start a server: source it, do not run it.

# A free loopback TCP port (the kernel's choice), printed. $PYTHON: the interpreter.
free_port() {
  "${PYTHON:-python3}" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_serving GRPCURL ADDR TRIES ALIVE_COMMAND...
# Polls grpc.health.v1 on ADDR every 0.2 s, at most TRIES times, until the overall
# status is SERVING (returns 0). Between polls it runs ALIVE_COMMAND: when that fails the
# server is gone and it returns 2 at once; after TRIES polls it returns 1. WAIT_FAILURE
# holds the reason in words.
wait_serving() {
  local grpcurl=$1 addr=$2 tries=$3 out
  shift 3
  for _ in $(seq 1 "$tries"); do
    if out=$("$grpcurl" -plaintext -max-time 2 -d '{"service":""}' "$addr" grpc.health.v1.Health/Check 2>/dev/null) \
       && grep -q '"SERVING"' <<<"$out"; then
      return 0
    fi
    if ! "$@"; then
      WAIT_FAILURE="the server exited before SERVING"
      return 2
    fi
    sleep 0.2
  done
  WAIT_FAILURE="not SERVING after $tries polls (0.2 s apart)"
  return 1
}

# venv_for_requirements VENV REQUIREMENTS LABEL
# (Re)builds the venv VENV from the pinned REQUIREMENTS (pip --no-deps) only when the file
# changed since the venv was last built (its sha256 kept in VENV/.requirements.sha256).
# $PYTHON: the interpreter that makes the venv.
venv_for_requirements() {
  local venv=$1 req=$2 label=$3 want
  want=$(sha256sum "$req" | cut -d' ' -f1)
  if [[ ! -x $venv/bin/python || $(cat "$venv/.requirements.sha256" 2>/dev/null) != "$want" ]]; then
    echo "$label: setting up $venv"
    "${PYTHON:-python3}" -m venv --clear "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$req"
    echo "$want" >"$venv/.requirements.sha256"
  fi
}
