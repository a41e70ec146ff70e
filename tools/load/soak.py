#!/usr/bin/env python3
"""Soak: a mix of every RPC at 70% of its capacity for 10 minutes; RSS must not drift.

1. Capacity of the mix (every request file, each method an equal share of calls):
   closed loop, 16 workers over 2 connections, 20 s.
2. Open loop at --share of it for --seconds, RSS sampled every second.
3. Passes when every call answered OK and the RSS grew by at most --max-drift:
   median RSS over the last minute against the median over the second minute (the
   first is warm-up: allocator pools and caches fill).

  nice -n 10 python3 tools/load/soak.py --seconds 600
"""

import argparse
import os
import statistics
import sys

import gameai_proc as g


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=os.path.join(g.ROOT, "target/release/gameai"))
    ap.add_argument("--loadgen", default=os.path.join(g.ROOT, "target/release/loadgen"))
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--share", type=float, default=0.7)
    ap.add_argument("--max-drift", type=float, default=0.05)
    ap.add_argument("--json-out")
    a = ap.parse_args()
    files = g.requests()
    mix = ["--requests", *files, "--balance-methods", "--shuffle-seed", "7",
           "--connections", "2", "--timeout", "15s"]
    with g.Server(a.binary) as server:
        g.wait_serving(a.loadgen, server.addr)
        load_before = g.load_average()
        cap = g.loadgen(a.loadgen, server.addr, *mix, "--concurrency", "16",
                        "--warmup", "5s", "--duration", "20s")
        capacity = cap["total"]["ok_throughput"]
        rate = capacity * a.share
        idle = server.rss()
        with g.RssSampler(server.proc.pid, every=1.0) as rss:
            report = g.loadgen(a.loadgen, server.addr, *mix, "--rate", f"{rate:.2f}",
                               "--concurrency", "512", "--duration", f"{a.seconds}s",
                               "--probe-health", "1s")
        alive = server.alive()
    samples = rss.samples
    minute = min(60.0, a.seconds / 5)
    second = [b for t, b in samples if minute <= t < 2 * minute]
    last = [b for t, b in samples if t >= samples[-1][0] - minute]
    base, end = statistics.median(second), statistics.median(last)
    drift = (end - base) / base
    total = report["total"]
    summary = {
        "seconds": a.seconds, "mix_capacity": capacity, "rate": rate,
        "load_average_before": load_before, "load_average_after": g.load_average(),
        "codes": total["codes"], "latency_ms": total["latency_ms"],
        "per_method": {x["name"]: {"calls": x["calls"], "codes": x["codes"],
                                   "p50": x["latency_ms"]["p50"], "p99": x["latency_ms"]["p99"]}
                       for x in report["groups"]},
        "health_probe": report["health_probe"], "rss_idle_mb": idle / 2**20,
        "rss_second_minute_mb": base / 2**20, "rss_last_minute_mb": end / 2**20,
        "rss_peak_mb": max(b for _, b in samples) / 2**20, "rss_drift": drift, "alive": alive,
    }
    failures = []
    if set(total["codes"]) - {"OK"}:
        failures.append(f"calls not OK: {total['codes']} {total['first_error_message']}")
    # Growth is the leak this looks for; RSS that falls (memory given back after the
    # warm-up's peak) passes.
    if drift > a.max_drift:
        failures.append(f"RSS grew {drift:+.1%}, beyond {a.max_drift:.0%}")
    if not alive:
        failures.append("the server died")
    return g.finish("soak", summary, failures, a.json_out)


if __name__ == "__main__":
    sys.exit(main())
