#!/usr/bin/env python3
"""The floor and capacity of every RPC, measured in one run against one server.

For each workload (the health check first: the floor, the cost of the RPC machinery
alone), loadgen measures:

1. capacity: OK calls per second, closed loop, --concurrency workers over 2
   connections, after a warm-up, in --rounds chunks of --chunk seconds, each right
   after a chunk of the health check; the ratio to the floor is the median over the
   rounds of (RPC chunk / the floor chunk before it), so that the machine's drifting
   free CPU cancels out;
2. p50 / p99 at 50% and at 90% of that capacity, open loop (latency from each call's
   intended send time, so queueing is not hidden).

Prints a Markdown table and, with --json-out, everything. Calls other than OK are
counted in the table (the open loop can overrun --max-inflight 256 when the machine
stalls).

  python3 tools/load/floor.py --seconds 10
"""

import argparse
import json
import os
import statistics
import sys

import gameai_proc as g

# (name, loadgen arguments). Mahjong discards and calls are split at 3 shanten: below
# it the exact computation ends well within the 1 s default budget; from it on many
# calls run to the budget and answer the estimate (exact: false), so their capacity
# at a given concurrency is set by the budget (wall clock), not by the CPU.
WORKLOADS = [
    ("Health/Check (floor)", ["--health"]),
    ("ListDouDizhuPlays", ["--requests", "doudizhu_list"]),
    ("SuggestDouDizhuBid", ["--requests", "doudizhu_bid"]),
    ("SuggestDouDizhuPlay, heuristic", ["--requests", "doudizhu_play"]),
    ("SuggestDouDizhuPlay, SEARCH 100 ms", ["--requests", "doudizhu_play_search"]),
    ("AnalyzeMahjongHand", ["--requests", "mahjong_analyze"]),
    ("SuggestMahjongCall, 0-2 shanten",
     ["--requests", "mahjong_call", "--tag", "shanten-1", "shanten0", "shanten1", "shanten2"]),
    ("SuggestMahjongCall, 3-6 shanten",
     ["--requests", "mahjong_call", "--tag", "shanten3", "shanten4", "shanten5", "shanten6"]),
    ("SuggestMahjongDiscard, 0-2 shanten",
     ["--requests", "mahjong_discard", "--tag", "shanten-1", "shanten0", "shanten1", "shanten2"]),
    ("SuggestMahjongDiscard, 3-6 shanten",
     ["--requests", "mahjong_discard", "--tag", "shanten3", "shanten4", "shanten5", "shanten6"]),
    ("SuggestMahjongDiscard, self-play states", ["--requests", "mahjong_game_states",
                                                  "--method", "SuggestMahjongDiscard"]),
    ("SuggestGomokuMove", ["--requests", "gomoku_move"]),
    ("AnalyzeGomokuPosition", ["--requests", "gomoku_position"]),
]


def expand(args):
    """Request file names -> paths; None when a file does not exist (yet)."""
    out, i = [], 0
    while i < len(args):
        out.append(args[i])
        if args[i] == "--requests":
            paths = g.requests(args[i + 1])
            if not paths:
                return None
            out.append(paths[0])
            i += 1
        i += 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=os.path.join(g.ROOT, "target/release/gameai"))
    ap.add_argument("--loadgen", default=os.path.join(g.ROOT, "target/release/loadgen"))
    ap.add_argument("--seconds", type=int, default=10, help="each open-loop run")
    ap.add_argument("--chunk", type=int, default=4, help="each closed-loop chunk")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--only", nargs="*", help="workload names to run (substring)")
    ap.add_argument("--json-out")
    a = ap.parse_args()

    results = []
    print(f"load average before: {g.load_average()}", file=sys.stderr)
    health = expand(WORKLOADS[0][1])
    with g.Server(a.binary, ["--max-inflight", "256"]) as server:
        g.wait_serving(a.loadgen, server.addr)

        def closed(args, seconds):
            r = g.loadgen(a.loadgen, server.addr, *args, "--connections", "2",
                          "--warmup", f"{a.warmup}s", "--duration", f"{seconds}s",
                          "--timeout", "15s", "--concurrency", a.concurrency)
            return r["total"]["ok_throughput"], r["total"]

        for name, args in WORKLOADS:
            if a.only and not any(o in name for o in a.only):
                continue
            args = expand(args)
            if args is None:
                continue
            # The machine's free CPU drifts from minute to minute: alternate short
            # chunks of the floor and of the RPC, and take each RPC chunk's ratio to
            # the floor chunk just before it; the median of the rounds is the figure.
            rounds = []
            for _ in range(a.rounds):
                floor_rate, _ = closed(health, a.chunk)
                rate, total = closed(args, a.chunk)
                rounds.append({"floor": floor_rate, "capacity": rate, "ratio": rate / floor_rate,
                               "codes": total["codes"]})
            capacity = statistics.median(r["capacity"] for r in rounds)
            row = {"name": name, "capacity": capacity, "rounds": rounds,
                   "ratio": statistics.median(r["ratio"] for r in rounds),
                   "floor": statistics.median(r["floor"] for r in rounds),
                   "load_average": g.load_average()}
            for share in (0.5, 0.9):
                rate = max(capacity * share, 0.5)
                r = g.loadgen(a.loadgen, server.addr, *args, "--connections", "2",
                              "--warmup", f"{a.warmup}s", "--duration", f"{a.seconds}s",
                              "--timeout", "15s", "--rate", f"{rate:.3f}", "--concurrency", "512")
                row[f"open_{int(share * 100)}"] = {"rate": rate, "total": r["total"],
                                                    "send_lag_ms": r["send_lag_ms"]}
            results.append(row)
            print(f"{name}: {capacity:.1f} calls/s, {row['ratio']:.4f} of the floor "
                  f"(load {row['load_average']})", file=sys.stderr)
    print(f"load average after: {g.load_average()}", file=sys.stderr)

    print("| RPC (request file) | capacity calls/s | floor calls/s | ratio to floor | "
          "p50 / p99 ms at 50% | p50 / p99 ms at 90% | send lag p99 at 90% ms | load avg | not OK |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for r in results:
        cells = []
        for k in ("open_50", "open_90"):
            lat = r[k]["total"]["latency_ms"] or {}
            cells.append(f"{lat.get('p50', 0):.2f} / {lat.get('p99', 0):.1f}")
        bad = {}
        for codes in [x["codes"] for x in r["rounds"]] + [r[k]["total"]["codes"] for k in ("open_50", "open_90")]:
            for c, n in codes.items():
                if c != "OK":
                    bad[c] = bad.get(c, 0) + n
        lag = (r["open_90"]["send_lag_ms"] or {}).get("p99", 0)
        print(f"| {r['name']} | {r['capacity']:,.1f} | {r['floor']:,.0f} | {r['ratio']:.4f} | "
              f"{cells[0]} | {cells[1]} | {lag:.1f} | {r['load_average'].split()[0]} | "
              f"{' '.join(f'{c} {n}' for c, n in sorted(bad.items())) or '-'} |")
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(results, f, indent=1)
    return 0

if __name__ == "__main__":
    sys.exit(main())
