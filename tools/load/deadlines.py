#!/usr/bin/env python3
"""Deadlines under load: how many Suggest* calls with a short gRPC deadline and a large
`budget_ms` end DEADLINE_EXCEEDED on a machine kept busy by other processes.

Starts a gameai server (free loopback ports) and `--busy` CPU-burning processes
(`yes > /dev/null` under `timeout`, so each ends by itself even if this script dies),
then for each method sends `--calls` calls one after another, each with the gRPC
deadline `--deadline-ms` and `budget_ms` = `--budget-ms` (so only the deadline bounds
the work), cycling through the realistic states of bench/requests/. Reports per method
the gRPC codes, the client's latency (p50 / p99 / max) and the server's own
`stats.elapsed_ms` where the reply has one. Exits 1 when a method's DEADLINE_EXCEEDED
share is above `--max-exceeded` (0.001 = 0.1 %).

`--cheap METHOD` switches to the priority measurement: `--heavy` threads keep
SuggestDouDizhuPlay searches with `--heavy-budget-ms` running while `--calls` cheap
calls are timed (docs/experiments/2026-12-06-deadlines.md).

Requires grpcio, grpcio-tools and protobuf (tools/arena/requirements.txt); the stubs
come from examples/python/gameai_client.py.

  python3 tools/load/deadlines.py --calls 1000 --json-out /tmp/deadlines.json
  python3 tools/load/deadlines.py --calls 100 --methods SuggestDouDizhuBid --busy 0
  python3 tools/load/deadlines.py --cheap ListDouDizhuPlays --heavy 8 --busy 0
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time

import gameai_proc as g

sys.path.insert(0, os.path.join(g.ROOT, "examples", "python"))
import gameai_client  # noqa: E402
import grpc  # noqa: E402
from google.protobuf import json_format  # noqa: E402

# Method -> (proto stem, service stub, request file, request message).
METHODS = {
    "SuggestDouDizhuPlay": ("doudizhu", "DouDizhuServiceStub", "doudizhu_play_search",
                            "SuggestDouDizhuPlayRequest"),
    "SuggestDouDizhuBid": ("doudizhu", "DouDizhuServiceStub", "doudizhu_bid",
                           "SuggestDouDizhuBidRequest"),
    "SuggestMahjongDiscard": ("mahjong", "MahjongServiceStub", "mahjong_discard",
                              "SuggestMahjongDiscardRequest"),
    "SuggestMahjongCall": ("mahjong", "MahjongServiceStub", "mahjong_call",
                           "SuggestMahjongCallRequest"),
    "SuggestGomokuMove": ("gomoku", "GomokuServiceStub", "gomoku_move",
                          "SuggestGomokuMoveRequest"),
    "ListDouDizhuPlays": ("doudizhu", "DouDizhuServiceStub", "doudizhu_list",
                          "ListDouDizhuPlaysRequest"),
    "AnalyzeMahjongHand": ("mahjong", "MahjongServiceStub", "mahjong_analyze",
                           "AnalyzeMahjongHandRequest"),
}


def load_requests(method, budget_ms):
    """The request messages of the method's bench file, with `budget_ms` set where the
    message has one (and the Dou Dizhu play searching)."""
    stem, _, file, message = METHODS[method]
    pb, _ = gameai_client.load(stem)
    cls = getattr(pb, message)
    out = []
    with open(os.path.join(g.REQUESTS, file + ".jsonl")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("//"):
                continue
            env = json.loads(line)
            if env["method"].split("/")[-1] != method:
                continue
            req = json_format.ParseDict(env["request"], cls())
            if "budget_ms" in cls.DESCRIPTOR.fields_by_name and budget_ms is not None:
                req.budget_ms = budget_ms
            if method == "SuggestDouDizhuPlay":
                req.mode = pb.SEARCH_MODE_SEARCH
            out.append(req)
    return out


def stub_call(channel, method):
    stem, stub_name, _, _ = METHODS[method]
    _, rpc = gameai_client.load(stem)
    return getattr(getattr(rpc, stub_name)(channel), method)


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else None


def run_calls(call, requests, n, deadline_s):
    codes, lat, server_ms, modes, nodes, outside = {}, [], [], {}, [], []
    for i in range(n):
        req = requests[i % len(requests)]
        t0 = time.perf_counter()
        stats = None
        try:
            reply = call(req, timeout=deadline_s)
            code = "OK"
            stats = getattr(reply, "stats", None)
            if stats is not None and reply.HasField("stats"):
                server_ms.append(stats.elapsed_ms)
                nodes.append(stats.nodes)
            if "mode" in reply.DESCRIPTOR.fields_by_name:
                mode = reply.DESCRIPTOR.fields_by_name["mode"].enum_type.values_by_number[
                    reply.mode].name
                modes[mode] = modes.get(mode, 0) + 1
        except grpc.RpcError as e:
            code = e.code().name
        lat.append((time.perf_counter() - t0) * 1000.0)
        if code == "OK" and stats is not None and reply.HasField("stats"):
            # The call's time outside the engine: the way in, the wait for an engine
            # thread, the reply's way out (the client's share of the machine included).
            outside.append(lat[-1] - stats.elapsed_ms)
        codes[code] = codes.get(code, 0) + 1
    return {
        "calls": n,
        "codes": codes,
        "exceeded_share": codes.get("DEADLINE_EXCEEDED", 0) / n,
        "client_ms": {"p50": pct(lat, 0.5), "p99": pct(lat, 0.99), "max": max(lat)},
        "modes": modes,
        "outside_engine_ms": {"p50": pct(outside, 0.5), "p99": pct(outside, 0.99),
                              "p999": pct(outside, 0.999)} if outside else None,
        "nodes_p50": pct(nodes, 0.5),
        "server_elapsed_ms": {"p50": pct(server_ms, 0.5), "p99": pct(server_ms, 0.99),
                              "max": max(server_ms)} if server_ms else None,
    }


class Renicer:
    """Sets nice `value` on every thread of process `pid` every 20 ms (Linux)."""

    def __init__(self, pid, value):
        self.pid, self.value = pid, value
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            try:
                for tid in os.listdir(f"/proc/{self.pid}/task"):
                    tid = int(tid)
                    if os.getpriority(os.PRIO_PROCESS, tid) != self.value:
                        os.setpriority(os.PRIO_PROCESS, tid, self.value)
            except OSError:
                pass
            self._stop.wait(0.02)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


class Busy:
    """`n` CPU-burning processes (`yes > /dev/null`), each ending after `seconds`."""

    def __init__(self, n, seconds):
        self.procs = [subprocess.Popen(["timeout", str(seconds), "yes"],
                                       stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
                      for _ in range(n)]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
            p.wait()


def heavy_loop(channel, stop, budget_ms, deadline_s):
    call = stub_call(channel, "SuggestDouDizhuPlay")
    reqs = load_requests("SuggestDouDizhuPlay", budget_ms)
    i = 0
    while not stop.is_set():
        try:
            call(reqs[i % len(reqs)], timeout=deadline_s)
        except grpc.RpcError:
            pass
        i += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=os.path.join(g.ROOT, "target/release/gameai"))
    ap.add_argument("--addr", help="an already running server instead of --binary")
    ap.add_argument("--methods", nargs="+", default=[m for m in METHODS if "Suggest" in m])
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--deadline-ms", type=float, default=100.0)
    ap.add_argument("--budget-ms", type=int, default=60000)
    ap.add_argument("--busy", type=int, default=2, help="CPU-burning processes beside")
    ap.add_argument("--busy-seconds", type=int, default=1800, help="their bound")
    ap.add_argument("--max-exceeded", type=float, default=0.001)
    ap.add_argument("--cheap", help="priority mode: time this cheap method")
    ap.add_argument("--heavy", type=int, default=8, help="priority mode: searches at once")
    ap.add_argument("--heavy-budget-ms", type=int, default=1000)
    ap.add_argument("--server-flag", action="append", default=[])
    ap.add_argument("--renice", type=int,
                    help="every 20 ms, set this nice value on every thread of the server "
                         "(the engine threads lower theirs to 15 once each; e.g. 0 undoes "
                         "it, to measure what the engine's nice level costs and buys)")
    ap.add_argument("--json-out")
    a = ap.parse_args()
    summary = {"deadline_ms": a.deadline_ms, "budget_ms": a.budget_ms, "busy": a.busy,
               "load_before": g.load_average(), "methods": {}}
    failures = []
    server = None if a.addr else g.Server(a.binary, a.server_flag)
    addr = a.addr or server.addr
    try:
        channel = grpc.insecure_channel(addr)
        grpc.channel_ready_future(channel).result(timeout=60)
        # Tables built (mahjong) before timing: one call of each method, generous deadline.
        for m in a.methods + ([a.cheap] if a.cheap else []):
            reqs = load_requests(m, 50)
            for _ in range(120):
                try:
                    stub_call(channel, m)(reqs[0], timeout=30)
                    break
                except grpc.RpcError:
                    time.sleep(0.5)
        renice = Renicer(server.proc.pid, a.renice) if a.renice is not None and server else None
        if renice:
            renice.__enter__()
            summary["renice"] = a.renice
        with Busy(a.busy, a.busy_seconds):
            if a.cheap:
                stop = threading.Event()
                heavy_channel = grpc.insecure_channel(addr)
                threads = [threading.Thread(target=heavy_loop, daemon=True,
                                            args=(heavy_channel, stop, a.heavy_budget_ms,
                                                  a.heavy_budget_ms / 1000.0 + 5))
                           for _ in range(a.heavy)]
                for t in threads:
                    t.start()
                time.sleep(2)
                reqs = load_requests(a.cheap, None)
                r = run_calls(stub_call(channel, a.cheap), reqs, a.calls, 30.0)
                stop.set()
                for t in threads:
                    t.join()
                summary["methods"][a.cheap] = r
                summary["heavy"] = {"threads": a.heavy, "budget_ms": a.heavy_budget_ms}
            else:
                for m in a.methods:
                    r = run_calls(stub_call(channel, m), load_requests(m, a.budget_ms),
                                  a.calls, a.deadline_ms / 1000.0)
                    summary["methods"][m] = r
                    print(m, json.dumps(r), file=sys.stderr, flush=True)
                    if r["exceeded_share"] > a.max_exceeded:
                        failures.append(f"{m}: {r['codes'].get('DEADLINE_EXCEEDED', 0)} of "
                                        f"{r['calls']} DEADLINE_EXCEEDED")
        if renice:
            renice.__exit__()
    finally:
        if server is not None:
            server.__exit__()
    summary["load_after"] = g.load_average()
    return g.finish("deadlines", summary, failures, a.json_out)


if __name__ == "__main__":
    sys.exit(main())
