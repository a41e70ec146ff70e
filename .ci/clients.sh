#!/usr/bin/env bash
# The client examples in Go, TypeScript (Node, @grpc/grpc-js) and Java, generated from
# proto/ with buf and run against target/release/gameai: toolchains from Debian's
# packages and the npm registry (no Go module proxy, no Maven Central: Go builds in
# GOPATH mode from Debian's packaged sources, Java against Debian's jars), code generated
# with `buf generate --template examples/LANG/buf.gen.yaml`, each example built, the
# server started on free loopback ports, each client run and its output checked (one
# answer per game with a known move where the position forces one, and the decoded
# google.rpc.BadRequest of a bad request), then the server stopped with SIGTERM.
# Needs .venv/bin/buf and .venv/bin/grpcurl (.ci/run's first step) and the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUF=.venv/bin/buf
GRPCURL=.venv/bin/grpcurl
BIN=target/release/gameai
WORK=$ROOT/target/clients
began=$SECONDS
say() { printf 'clients [%4ds]: %s\n' "$((SECONDS - began))" "$*"; }

# --- toolchains ----------------------------------------------------------------------
# Debian 12's Go 1.19 with the gRPC, protobuf and genproto sources it packages, the two
# Go plugins, protoc (buf runs its built-in java generator), grpc-java 1.41's jars and
# plugin with the jars they need (netty, perfmark, guava, googleapis' common protos) and
# javax.annotation.Generated, which the grpc-java 1.41 plugin writes on its stubs.
APT_PACKAGES=(
  golang-go golang-google-grpc-dev golang-google-protobuf-dev golang-google-genproto-dev
  golang-github-golang-protobuf-1-5-dev protoc-gen-go protoc-gen-go-grpc
  protobuf-compiler libprotobuf-java libgrpc-java protobuf-compiler-grpc-java-plugin
  libgoogle-common-protos-java libnetty-java libperfmark-java libguava-java
  libgeronimo-annotation-1.3-spec-java
)
command -v javac >/dev/null || APT_PACKAGES+=(default-jdk-headless)
command -v npm >/dev/null || APT_PACKAGES+=(nodejs npm)
if dpkg -s "${APT_PACKAGES[@]}" >/dev/null 2>&1; then
  say "Debian packages already installed"
else
  say "apt-get install ${APT_PACKAGES[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${APT_PACKAGES[@]}" >/dev/null
fi
go version
protoc --version
javac -version
node --version

# --- code generation -------------------------------------------------------------------
say "npm ci (examples/node: @grpc/grpc-js, ts-proto, typescript, google-proto-files)"
(cd examples/node && npm ci --no-audit --no-fund --loglevel=error)
for lang in go node java; do
  say "buf generate --template examples/$lang/buf.gen.yaml"
  "$BUF" generate --template "examples/$lang/buf.gen.yaml"
done

# --- builds ----------------------------------------------------------------------------
rm -rf "$WORK"
mkdir -p "$WORK/gopath/src"
# GOPATH mode over Debian's /usr/share/gocode: the example's module path `gameai` is
# linked into a GOPATH of its own (go.mod is ignored in this mode; with a module proxy,
# `go mod tidy && go run .` builds the same code).
ln -s "$ROOT/examples/go" "$WORK/gopath/src/gameai"
say "go build (GO111MODULE=off, GOPATH=target/clients/gopath:/usr/share/gocode)"
(cd "$WORK/gopath/src/gameai" && GO111MODULE=off GOFLAGS= GOPATH="$WORK/gopath:/usr/share/gocode" \
  go build -o "$WORK/go-example" .)

say "tsc (examples/node)"
(cd examples/node && npx --no-install tsc -p .)

# The jars grpc-java 1.41 and its example need, all from Debian's /usr/share/java.
JAVA_JARS=(
  grpc-api grpc-context grpc-core grpc-netty grpc-protobuf grpc-protobuf-lite grpc-stub
  protobuf proto-google-common-protos guava perfmark-api error_prone_annotations
  animal-sniffer-annotations jsr305 netty-buffer netty-codec netty-codec-http
  netty-codec-http2 netty-codec-socks netty-common netty-handler netty-handler-proxy
  netty-resolver netty-transport netty-transport-native-unix-common
)
CLASSPATH_JARS=$(printf '/usr/share/java/%s.jar:' "${JAVA_JARS[@]}")
say "javac (examples/java against Debian's grpc-java jars)"
mapfile -t java_sources < <(find examples/java/gen examples/java/src -name '*.java')
javac -nowarn -d "$WORK/java-classes" \
  -cp "${CLASSPATH_JARS}/usr/share/java/geronimo-annotation-1.3-spec.jar" "${java_sources[@]}"

# --- the server ------------------------------------------------------------------------
# shellcheck source=.ci/lib.sh
source .ci/lib.sh
PYTHON=.venv/bin/python
ADDR=127.0.0.1:$(free_port)
LOG=$WORK/server.log
"$BIN" --grpc-addr "$ADDR" --metrics-addr "127.0.0.1:$(free_port)" >"$LOG" 2>&1 &
PID=$!
cleanup() { if kill -0 "$PID" 2>/dev/null; then kill -KILL "$PID" 2>/dev/null || true; fi; }
trap cleanup EXIT
fail() { echo "clients: FAIL: $*" >&2; echo "--- server log ---" >&2; tail -50 "$LOG" >&2; exit 1; }

say "waiting for SERVING on $ADDR"
server_alive() { kill -0 "$PID" 2>/dev/null; }
wait_serving "$GRPCURL" "$ADDR" 300 server_alive || fail "$WAIT_FAILURE"

# --- run and check each client -----------------------------------------------------------
# Every client prints the same lines. Checked: one answer of each game (the mahjong hand
# 123m456p789s11225z throws its lone 5z to stand tenpai; the gomoku position must block
# white's four at e7), and the bad request's google.rpc.BadRequest naming `hand`.
EXPECTED=(
  '^SuggestDouDizhuBid: bid=[0-3] reason="'
  '^SuggestDouDizhuPlay: play=[^ ]+ kind=PLAY_KIND_[A-Z_]+ mode=SEARCH_MODE_[A-Z]+ reason="'
  '^SuggestMahjongDiscard: discard=5z is_winning=false draws_left=10$'
  '^SuggestGomokuMove: point=e7 score=-?[0-9]+ reason="'
  '^BadRequest: code=INVALID_ARGUMENT field=hand description=".+"$'
)
passed=0
failed=0
run_client() {
  local name=$1
  shift
  say "$name client: ${*//$CLASSPATH_JARS/DEBIAN_JARS}"
  local output status=0
  output=$("$@" --addr "$ADDR" 2>&1) || status=$?
  echo "$output" | sed 's/^/  | /'
  local missing=()
  for pattern in "${EXPECTED[@]}"; do
    grep -Eq "$pattern" <<<"$output" || missing+=("$pattern")
  done
  if [ "$status" -eq 0 ] && [ "${#missing[@]}" -eq 0 ]; then
    passed=$((passed + 1))
  else
    echo "clients: $name client FAILED (exit $status); lines missing: ${missing[*]:-none}" >&2
    failed=$((failed + 1))
  fi
}
run_client go "$WORK/go-example"
run_client node node examples/node/dist/example.js
run_client java java -cp "$WORK/java-classes:$CLASSPATH_JARS" gameai.example.Example

say "SIGTERM to the server"
kill -TERM "$PID"
code=0
wait "$PID" || code=$?
[ "$code" -eq 0 ] || fail "server exited $code after SIGTERM"
trap - EXIT

echo "clients: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
