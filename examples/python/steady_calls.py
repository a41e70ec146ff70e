#!/usr/bin/env python3
"""Steady calls on one long-lived channel, as a game backend makes them.

Calls ``SuggestMahjongDiscard`` (a 5-shanten opening hand with a ``--budget-ms`` work
budget, about that many milliseconds each) back to back on one channel for
``--seconds``, then prints how many calls ended with each gRPC status code, and exits 1
if any call failed. Against a server started with a short ``--max-connection-age-secs``
it shows what a client sees while the server ages its connections out::

    target/release/gameai --grpc-addr 127.0.0.1:50051 --max-connection-age-secs 3 &
    .venv/bin/python examples/python/steady_calls.py --addr 127.0.0.1:50051 --seconds 60

``--no-retries`` turns the channel's retry policy off (``examples/service_config.json``),
so that every failure reaches the caller; ``tests/connection_age.rs`` runs both ways.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time

import grpc

import gameai_client

pb, rpc = gameai_client.load("mahjong")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--addr", default="127.0.0.1:50051", help="gameai gRPC address")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long to call")
    parser.add_argument("--budget-ms", type=int, default=100, help="work budget per call")
    parser.add_argument("--no-retries", action="store_true", help="no retry policy")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    request = pb.SuggestMahjongDiscardRequest(
        hand="49m12359p359s1237z", ruleset=pb.RULESET_RIICHI, budget_ms=args.budget_ms)
    codes: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    # Runs of consecutive failures: a call refused by a GOAWAY returns at once, and the
    # next one may pick the same closing connection until the channel has moved on, so
    # one GOAWAY can refuse several calls in a row, but starts only one run.
    bursts = 0
    failing = False
    with gameai_client.channel(args.addr, retries=not args.no_retries) as channel:
        stub = rpc.MahjongServiceStub(channel)
        grpc.channel_ready_future(channel).result(timeout=10)
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            try:
                stub.SuggestMahjongDiscard(request, timeout=args.budget_ms / 1000 + 5)
                codes["OK"] += 1
                failing = False
            except grpc.RpcError as err:
                codes[err.code().name] += 1
                failures.append(f"{err.code().name}: {err.details()}")
                bursts += not failing
                failing = True
    calls = sum(codes.values())
    if args.json:
        print(json.dumps({"calls": calls, "codes": codes, "bursts": bursts,
                          "failures": failures[:10]}))
    else:
        print(f"{calls} calls: " + ", ".join(f"{c} {n}" for c, n in sorted(codes.items())))
        for failure in failures[:10]:
            print(f"  {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
