#!/usr/bin/env python3
"""The floor and capacity of every RPC, measured in one run against one server.

For each workload (the health check first: the floor, the cost of the RPC machinery
alone), loadgen measures:

1. capacity: OK calls per second, closed loop, --concurrency workers over 2
   connections, after a warm-up;
2. p50 / p99 at 50% and at 90% of that capacity, open loop (latency from each call's
   intended send time, so queueing is not hidden).

Prints a Markdown table (capacity as a ratio to the floor measured in the same run)
and, with --json-out, everything. The load average is printed before and after: the
machine is shared, so only ratios from one run compare.

  python3 tools/load/floor.py --seconds 10
"""

import argparse
import json
import os
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
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--only", nargs="*", help="workload names to run (substring)")
    ap.add_argument("--json-out")
    a = ap.parse_args()

    results = []
    print(f"load average before: {g.load_average()}", file=sys.stderr)
    with g.Server(a.binary, ["--max-inflight", "256"]) as server:
        g.wait_serving(a.loadgen, server.addr)
        for name, args in WORKLOADS:
            if a.only and not any(o in name for o in a.only):
                continue
            args = expand(args)
            if args is None:
                continue
            common = [*args, "--connections", "2", "--warmup", f"{a.warmup}s",
                      "--duration", f"{a.seconds}s", "--timeout", "15s"]
            cap = g.loadgen(a.loadgen, server.addr, *common, "--concurrency", a.concurrency)
            capacity = cap["total"]["ok_throughput"]
            row = {"name": name, "capacity": capacity, "closed": cap["total"],
                   "load_average": g.load_average()}
            for share in (0.5, 0.9):
                rate = max(capacity * share, 0.5)
                r = g.loadgen(a.loadgen, server.addr, *common, "--rate", f"{rate:.3f}",
                              "--concurrency", "512")
                row[f"open_{int(share * 100)}"] = {"rate": rate, "total": r["total"],
                                                    "send_lag_ms": r["send_lag_ms"]}
            results.append(row)
            print(f"{name}: {capacity:.1f} calls/s (load {row['load_average']})", file=sys.stderr)
    print(f"load average after: {g.load_average()}", file=sys.stderr)

    floor = results[0]["capacity"] if results and "floor" in results[0]["name"] else None
    print("| RPC (request file) | capacity calls/s | ratio to floor | p50 / p99 ms at 50% | "
          "p50 / p99 ms at 90% | codes |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for r in results:
        ratio = f"{r['capacity'] / floor:.3f}" if floor else "-"
        cells = []
        for k in ("open_50", "open_90"):
            lat = r[k]["total"]["latency_ms"] or {}
            cells.append(f"{lat.get('p50', 0):.2f} / {lat.get('p99', 0):.2f}")
        codes = dict(r["closed"]["codes"])
        for k in ("open_50", "open_90"):
            for c, n in r[k]["total"]["codes"].items():
                codes[c] = codes.get(c, 0) + n
        print(f"| {r['name']} | {r['capacity']:,.1f} | {ratio} | {cells[0]} | {cells[1]} | "
              f"{' '.join(f'{c} {n}' for c, n in sorted(codes.items()))} |")
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(results, f, indent=1)
    bad = [r["name"] for r in results
           if any(set(x["codes"]) - {"OK"} for x in
                  (r["closed"], r["open_50"]["total"], r["open_90"]["total"]))]
    if bad:
        print(f"calls other than OK in: {bad}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
