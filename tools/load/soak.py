#!/usr/bin/env python3
"""Soak: a mix of every RPC at 70% of its capacity for 10 minutes; RSS must not drift.

1. Capacity of the mix (every request file, each method an equal share of calls): the
   highest open-loop rate that the server sustains, i.e. that sheds nothing, fails
   nothing and keeps the p99 within --p99-ms (the 1 s default work budget plus 10%).
   The saturated throughput of a closed loop (16 workers over 2 connections, 20 s) is
   only the upper bound to start from: a rate near it overflows the in-flight limit
   whenever arrivals bunch. From it the rate steps down by --step for --probe-seconds
   each until one passes; that rate is the capacity.
2. Open loop at --share of it for --seconds, RSS sampled every second.
3. Passes when every call answered OK and the RSS grew by at most --max-drift:
   median RSS over the last minute against the median over the second minute (the
   first is warm-up: allocator pools and caches fill).

  nice -n 10 python3 tools/load/soak.py --seconds 600
  python3 tools/load/soak.py --capacity-only --max-inflight 8    # the search alone
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
    ap.add_argument("--p99-ms", type=float, default=1100.0,
                    help="the capacity's p99 bound (default: the 1 s work budget + 10%%)")
    ap.add_argument("--probe-seconds", type=int, default=30)
    ap.add_argument("--step", type=float, default=0.85, help="rate factor per failed probe")
    ap.add_argument("--max-inflight", type=int, help="server flag (default: the server's)")
    ap.add_argument("--engine-threads", type=int, help="server flag (default: the server's)")
    ap.add_argument("--capacity-only", action="store_true", help="stop after the search")
    ap.add_argument("--json-out")
    a = ap.parse_args()
    files = g.requests()
    mix = ["--requests", *files, "--balance-methods", "--shuffle-seed", "7",
           "--connections", "2", "--timeout", "15s"]
    flags = []
    if a.max_inflight is not None:
        flags += ["--max-inflight", str(a.max_inflight)]
    if a.engine_threads is not None:
        flags += ["--engine-threads", str(a.engine_threads)]
    with g.Server(a.binary, flags) as server:
        g.wait_serving(a.loadgen, server.addr)
        load_before = g.load_average()
        cap = g.loadgen(a.loadgen, server.addr, *mix, "--concurrency", "16",
                        "--warmup", "5s", "--duration", "20s")
        saturated = cap["total"]["ok_throughput"]
        probes, capacity, r = [], None, saturated
        while capacity is None and r >= saturated * 0.2:
            probe = g.loadgen(a.loadgen, server.addr, *mix, "--rate", f"{r:.2f}",
                              "--concurrency", "512", "--duration", f"{a.probe_seconds}s")
            total = probe["total"]
            p99 = (total["latency_ms"] or {}).get("p99", 0.0)
            ok = set(total["codes"]) == {"OK"} and p99 <= a.p99_ms
            probes.append({"rate": r, "codes": total["codes"], "p99_ms": p99,
                           "slowest": max(probe["groups"], key=lambda x: x["latency_ms"]["p99"])["name"],
                           "load_average": g.load_average(), "pass": ok})
            print(f"probe {r:.1f} calls/s: {total['codes']} p99 {p99:.0f} ms "
                  f"({'pass' if ok else 'fail'}, load {probes[-1]['load_average']})", file=sys.stderr)
            if ok:
                capacity = r
            r *= a.step
        if capacity is None:
            return g.finish("soak", {"saturated": saturated, "probes": probes},
                            ["no probed rate was sustained"], a.json_out)
        if a.capacity_only:
            return g.finish("capacity", {"saturated": saturated, "probes": probes,
                                         "capacity": capacity}, [], a.json_out)
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
        "seconds": a.seconds, "server_flags": flags, "saturated_throughput": saturated,
        "capacity_probes": probes, "mix_capacity": capacity, "rate": rate,
        "load_average_before": load_before, "load_average_after": g.load_average(),
        "codes": total["codes"], "latency_ms": total["latency_ms"],
        "transparent_retries": total.get("transparent_retries", 0),
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
