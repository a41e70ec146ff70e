#!/usr/bin/env python3
"""Calling the gameai Dou Dizhu service from Python: a small, complete example.

Run a server (``cargo run --release -- --grpc-addr 127.0.0.1:50051``), then::

    python3 -m venv .venv && .venv/bin/pip install --no-deps -r tools/arena/requirements.txt
    .venv/bin/python examples/python/example.py --addr 127.0.0.1:50051

The stubs are generated from proto/ on first use (see gameai_client.py). Cards are
strings, one character per card: 3 4 5 6 7 8 9 T J Q K A 2, X (small joker), D (big
joker); the service answers in canonical ascending order. Each RPC gets a deadline
(``timeout=``): always set one when calling a service. A failing call raises
``grpc.RpcError``, whose ``code()`` and ``details()`` say what is wrong (INVALID_ARGUMENT
names the request field).
"""

from __future__ import annotations

import argparse
import sys

import grpc

import gameai_client

pb, rpc = gameai_client.load("doudizhu")


def list_plays(stub) -> None:
    """Legal plays: the landlord_down farmer holds 3334455 and must beat a pair of 4s."""
    reply = stub.ListDouDizhuPlays(
        pb.ListDouDizhuPlaysRequest(hand="3334455", last_play="44"), timeout=5)
    print(f"ListDouDizhuPlays: last play read as "
          f"{pb.PlayKind.Name(reply.last_play.kind)}, pass allowed: {reply.pass_allowed}")
    for play in reply.plays:
        print(f"  {play.cards:<8} {pb.PlayKind.Name(play.kind)}")


def suggest_play(stub) -> None:
    """The landlord led a single 3; the farmer after him (landlord_down) is to move.

    The request carries the whole public state: the hand now, the seat, the three bottom
    cards everybody saw go to the landlord, and every play so far in turn order starting
    with the landlord's first lead ("" would be a pass). The service is stateless.
    """
    request = pb.SuggestDouDizhuPlayRequest(
        hand="44567899TJQKKA22X",
        seat=pb.SEAT_LANDLORD_DOWN,
        landlord_cards="3QD",
        history=["3"],
        mode=pb.SEARCH_MODE_HEURISTIC,
        alternatives=3,
    )
    reply = stub.SuggestDouDizhuPlay(request, timeout=5)
    shown = reply.play.cards or "pass"
    print(f"SuggestDouDizhuPlay: play {shown} ({pb.PlayKind.Name(reply.play.kind)}): "
          f"{reply.reason}")
    for alt in reply.alternatives:
        print(f"  alternative {alt.play.cards or 'pass':<8} score {alt.score:.2f}")
    ev = reply.evaluation
    groups = " ".join(g.cards for g in ev.groups)
    print(f"  hand value {ev.value} = sum {ev.sum_value} - 7 x {ev.need_rounds} rounds: "
          f"{groups}")
    print(f"  computed in {reply.stats.elapsed_ms:.3f} ms")


def suggest_bid(stub) -> None:
    """Bidding: the first player bid 1; we hold the rocket and a bomb of 2s."""
    reply = stub.SuggestDouDizhuBid(
        pb.SuggestDouDizhuBidRequest(hand="3456789TJQK2222XD", bids=[1]),
        timeout=5)
    print(f"SuggestDouDizhuBid: bid {reply.bid} ({'pass' if reply.bid == 0 else 'points'}):"
          f" {reply.reason}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--addr", default="127.0.0.1:50051", help="gameai gRPC address")
    args = parser.parse_args()
    failed = 0
    with gameai_client.channel(args.addr) as channel:
        stub = rpc.DouDizhuServiceStub(channel)
        for call in (list_plays, suggest_play, suggest_bid):
            try:
                call(stub)
            except grpc.RpcError as err:
                failed += 1
                print(f"{call.__name__}: {err.code().name}: {err.details()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
