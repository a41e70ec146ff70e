"""Shared by the load scripts: a gameai server on free loopback ports, its RSS, and
loadgen runs (stdlib only, Linux /proc).

Every target is 127.0.0.1: these scripts only load servers they start themselves.
"""

import json
import os
import socket
import subprocess
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REQUESTS = os.path.join(ROOT, "bench", "requests")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_bytes(pid):
    """Resident set size of `pid` from /proc/PID/status (VmRSS), in bytes."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def is_envelope_file(path):
    """Whether the first request line of `path` is an envelope (method + request):
    only those files can be mixed with others in one loadgen run."""
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("//"):
                obj = json.loads(line)
                return "method" in obj and "request" in obj
    return False


def requests(*names):
    """Paths of bench/requests files by name (without .jsonl), existing ones only;
    with no names, every envelope file of the folder."""
    if not names:
        names = sorted(f[:-6] for f in os.listdir(REQUESTS) if f.endswith(".jsonl"))
        paths = [os.path.join(REQUESTS, n + ".jsonl") for n in names]
        return [p for p in paths if is_envelope_file(p)]
    paths = [os.path.join(REQUESTS, n + ".jsonl") for n in names]
    return [p for p in paths if os.path.exists(p)]


class Server:
    """`gameai` started on free ports with `args`; stops on exit of the `with`."""

    def __init__(self, binary, args=()):
        self.addr = f"127.0.0.1:{free_port()}"
        self.metrics = f"127.0.0.1:{free_port()}"
        self.log = open(os.devnull, "w")
        self.proc = subprocess.Popen(
            [binary, "--grpc-addr", self.addr, "--metrics-addr", self.metrics,
             "--log-level", "warn", *args],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def alive(self):
        return self.proc.poll() is None

    def rss(self):
        return rss_bytes(self.proc.pid)


class RssSampler:
    """Samples a process's RSS every `every` seconds in a thread."""

    def __init__(self, pid, every=0.25):
        self.pid, self.every = pid, every
        self.samples = []  # (seconds since start, bytes)
        self._stop = threading.Event()
        self._began = time.monotonic()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            try:
                self.samples.append((time.monotonic() - self._began, rss_bytes(self.pid)))
            except (OSError, RuntimeError):
                return
            self._stop.wait(self.every)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def peak(self):
        return max(b for _, b in self.samples)


def loadgen(binary, addr, *args, check=True):
    """Runs loadgen with --json and returns its report (a dict)."""
    cmd = [binary, "--addr", addr, "--json", "--no-progress", *map(str, args)]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def wait_serving(binary, addr, seconds=30):
    """Polls health through loadgen until the server answers SERVING."""
    began = time.monotonic()
    while time.monotonic() - began < seconds:
        try:
            r = loadgen(binary, addr, "--health", "--count", "1", "--timeout", "1s",
                        "--probe-health", "10ms")
            if r["total"]["codes"].get("OK") == 1 and r["health_probe"]["serving"] > 0:
                return
        except (RuntimeError, json.JSONDecodeError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{addr} not SERVING after {seconds} s")


def finish(name, summary, failures, json_out=None):
    """Prints `summary` (and writes it to `json_out`), then the verdict; the exit code."""
    summary["failures"] = failures
    print(json.dumps(summary, indent=1))
    if json_out:
        with open(json_out, "w") as f:
            json.dump(summary, f, indent=1)
    if failures:
        print(f"{name} FAILED: " + "; ".join(failures), file=sys.stderr)
        return 1
    print(f"{name} passed")
    return 0
