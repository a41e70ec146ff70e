#!/usr/bin/env python3
"""Overload: 3x the sustainable concurrency against a gameai server, with assertions.

The server runs with `--max-inflight M` (the sustainable concurrency: the calls it
admits at once; by default the server's own default, 8 per core: 4 computing per core
and as many waiting for an engine thread) and `--engine-memory-mb E`. loadgen keeps 3M calls in flight for the duration,
over a mix of every RPC weighted to the hard ones (`--balance-methods`: each method an
equal share, among them mahjong discards up to 6-shanten and Dou Dizhu SEARCH), and
probes health on a connection of its own every 250 ms. Passes when:

- the process is still up at the end;
- every health probe answered SERVING;
- calls end only OK or RESOURCE_EXHAUSTED, and some were RESOURCE_EXHAUSTED (the
  excess was shed), with p99 of the shed calls under --shed-p99-ms (they end at once);
- the p99 of the accepted calls stays under --ok-p99-ms (their work budget is the
  server's default, 1 s, so they end by it plus scheduling);
- the peak RSS stays within 2x the idle RSS + E MiB.

  python3 tools/load/overload.py --seconds 60                         # the full run
  python3 tools/load/overload.py --seconds 12 --engine-memory-mb 256  # CI
"""

import argparse
import os
import sys
import time

import gameai_proc as g


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=os.path.join(g.ROOT, "target/release/gameai"))
    ap.add_argument("--loadgen", default=os.path.join(g.ROOT, "target/release/loadgen"))
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--max-inflight", type=int, default=8 * (os.cpu_count() or 1),
                    help="default: the server's, 2 x its engine threads (4 per core)")
    ap.add_argument("--factor", type=int, default=3)
    ap.add_argument("--engine-memory-mb", type=int, default=512)
    ap.add_argument("--shed-p99-ms", type=float, default=100.0)
    ap.add_argument("--ok-p99-ms", type=float, default=3000.0)
    ap.add_argument("--json-out")
    a = ap.parse_args()

    files = g.requests()
    concurrency = a.factor * a.max_inflight
    with g.Server(a.binary, ["--max-inflight", str(a.max_inflight),
                             "--engine-memory-mb", str(a.engine_memory_mb)]) as server:
        g.wait_serving(a.loadgen, server.addr)
        g.loadgen(a.loadgen, server.addr, "--health", "--count", "500")
        time.sleep(0.5)
        idle = server.rss()
        load_before = g.load_average()
        with g.RssSampler(server.proc.pid) as rss:
            report = g.loadgen(
                a.loadgen, server.addr, "--requests", *files, "--balance-methods",
                "--shuffle-seed", "1", "--connections", "4",
                "--concurrency", concurrency, "--duration", f"{a.seconds}s",
                "--timeout", "15s", "--probe-health", "250ms")
        alive = server.alive()
        peak = rss.peak()
    total = report["total"]
    codes = total["codes"]
    by_code = total["latency_ms_by_code"]
    probe = report["health_probe"]
    limit = 2 * idle + (a.engine_memory_mb << 20)
    summary = {
        "seconds": a.seconds, "max_inflight": a.max_inflight, "concurrency": concurrency,
        "engine_memory_mb": a.engine_memory_mb, "load_average_before": load_before,
        "load_average_after": g.load_average(), "codes": codes,
        "ok_per_s": total["ok_throughput"], "calls_per_s": total["throughput"],
        "ok_latency_ms": by_code.get("OK"), "shed_latency_ms": by_code.get("RESOURCE_EXHAUSTED"),
        "health_probe": probe, "idle_rss_mb": idle / 2**20, "peak_rss_mb": peak / 2**20,
        "rss_limit_mb": limit / 2**20, "alive": alive,
        "per_method": {x["name"]: {"codes": x["codes"], "ok_latency_ms": x["latency_ms_by_code"].get("OK")}
                       for x in report["groups"]},
    }
    failures = []
    if not alive:
        failures.append("the server died")
    if probe["probes"] == 0 or probe["serving"] != probe["probes"]:
        failures.append(f"health not SERVING throughout: {probe}")
    unexpected = set(codes) - {"OK", "RESOURCE_EXHAUSTED"}
    if unexpected:
        failures.append(f"codes other than OK / RESOURCE_EXHAUSTED: {codes}; "
                        f"{total['first_error_message']}")
    if codes.get("RESOURCE_EXHAUSTED", 0) == 0:
        failures.append("nothing was shed: the load did not exceed --max-inflight")
    elif by_code["RESOURCE_EXHAUSTED"]["p99"] > a.shed_p99_ms:
        failures.append(f"shed calls p99 {by_code['RESOURCE_EXHAUSTED']['p99']} ms > {a.shed_p99_ms}")
    if codes.get("OK", 0) == 0:
        failures.append("no call was accepted")
    elif by_code["OK"]["p99"] > a.ok_p99_ms:
        failures.append(f"accepted calls p99 {by_code['OK']['p99']} ms > {a.ok_p99_ms}")
    if peak > limit:
        failures.append(f"peak RSS {peak / 2**20:.0f} MiB > 2 x idle + budget = {limit / 2**20:.0f} MiB")
    return g.finish("overload", summary, failures, a.json_out)


if __name__ == "__main__":
    sys.exit(main())
