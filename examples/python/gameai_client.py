"""Python client for the gameai gRPC service, generated from the repository's proto/.

The stubs are generated with grpcio-tools into ``examples/python/generated/`` (git-ignored)
the first time they are needed, and again whenever a file in ``proto/`` is newer than the
generated code. Nothing generated is committed: ``proto/gameai/v1/*.proto`` is the contract.

Usage as a library (this is what ``example.py`` and ``tools/arena/arena.py`` do)::

    import gameai_client
    pb, rpc = gameai_client.load()          # generates if needed, then imports
    channel = grpc.insecure_channel("127.0.0.1:50051")
    stub = rpc.DouDizhuServiceStub(channel)
    reply = stub.ListDouDizhuPlays(pb.ListDouDizhuPlaysRequest(hand="3345"), timeout=5)

Channels: ``gameai_client.channel(addr)`` opens one with the gRPC service config of
``examples/service_config.json``, which retries a call that failed UNAVAILABLE (the
connection closed under it: a pod going away, a connection aged out by the server's
``--max-connection-age-secs``) up to 3 attempts with backoff. Every gameai RPC is a pure
function of its request, so a retry is always safe. Open one channel per process and
keep it: it reconnects by itself.

Usage as a script: ``python examples/python/gameai_client.py`` (re)generates the stubs and
prints where they went.

Requires the packages in ``tools/arena/requirements.txt`` (grpcio, grpcio-tools, protobuf).
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
PROTO_ROOT = REPO / "proto"
GENERATED = HERE / "generated"
SERVICE_CONFIG = HERE.parent / "service_config.json"


def channel(addr: str, retries: bool = True, options=()):
    """An insecure channel to ``addr`` (``host:port``) with the retry policy of
    ``examples/service_config.json`` (``retries=False``: none, every failure is seen).

    ``options`` are further grpcio channel options, e.g. ``("grpc.lb_policy_name",
    "round_robin")`` with a ``dns:///`` target listing every replica.
    """
    import grpc  # imported here: generating the stubs does not need it

    if retries:
        config = json.dumps(json.loads(SERVICE_CONFIG.read_text()))
        opts = [("grpc.service_config", config), ("grpc.enable_retries", 1)]
    else:
        opts = [("grpc.enable_retries", 0)]
    return grpc.insecure_channel(addr, options=opts + list(options))


def _proto_files() -> list[pathlib.Path]:
    files = sorted((PROTO_ROOT / "gameai" / "v1").glob("*.proto"))
    if not files:
        raise FileNotFoundError(f"no .proto files under {PROTO_ROOT / 'gameai' / 'v1'}")
    return files


def _stale() -> bool:
    """True when some generated module is missing or older than its .proto file."""
    for proto in _proto_files():
        stem = proto.stem
        for suffix in ("_pb2.py", "_pb2_grpc.py"):
            out = GENERATED / "gameai" / "v1" / f"{stem}{suffix}"
            if not out.exists() or out.stat().st_mtime < proto.stat().st_mtime:
                return True
    return False


def generate(force: bool = False) -> pathlib.Path:
    """Runs grpc_tools.protoc over proto/gameai/v1/*.proto into GENERATED.

    Returns the directory that must be on sys.path to import ``gameai.v1.*_pb2``.
    Raises RuntimeError with protoc's exit code when generation fails.
    """
    if not force and not _stale():
        return GENERATED
    from grpc_tools import protoc  # imported here: only needed to generate

    include = pathlib.Path(protoc.__file__).resolve().parent / "_proto"
    GENERATED.mkdir(parents=True, exist_ok=True)
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
        f"-I{include}",
        f"--python_out={GENERATED}",
        f"--grpc_python_out={GENERATED}",
        *[str(p) for p in _proto_files()],
    ]
    code = protoc.main(args)
    if code != 0:
        raise RuntimeError(f"grpc_tools.protoc failed with exit code {code}")
    return GENERATED


def load(service: str = "doudizhu"):
    """Generates the stubs if needed and returns ``(messages, grpc_stubs)`` for a service.

    ``service`` is the proto file's stem: ``doudizhu``, ``mahjong``, ``gomoku`` or
    ``common``. The messages module holds the request/response classes and enums
    (e.g. ``messages.SEAT_LANDLORD``); the stubs module holds ``DouDizhuServiceStub`` etc.
    """
    path = str(generate())
    if path not in sys.path:
        sys.path.insert(0, path)
    messages = importlib.import_module(f"gameai.v1.{service}_pb2")
    stubs = importlib.import_module(f"gameai.v1.{service}_pb2_grpc")
    return messages, stubs


if __name__ == "__main__":
    out = generate(force=True)
    print(f"generated Python stubs for {len(_proto_files())} proto files into {out}")
