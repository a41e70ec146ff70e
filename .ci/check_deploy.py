"""Offline checks of deploy/ beyond kubernetes-validate (run by .ci/run in .venv).

- the ServiceMonitor (a CRD kubernetes-validate has no schema for) selects the
  ClusterIP Service by its labels and names a port the Service has;
- every GAMEAI_* variable in the Deployment is one the binary documents in --help;
- the Prometheus config and rules parse, every alert has expr/for/severity/summary,
  and every metric they and the Grafana dashboard use is one the server exports: read
  from the /metrics of the release binary, started here on free local ports (every
  series exists from the start: the gRPC ones are registered at 0 for every method);
- the Dockerfile runs as non-root and exposes 50051 and 9090.
"""
import json
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
PROMQL_WORDS = {"sum", "by", "rate", "histogram_quantile", "le", "without", "on",
                "ignoring", "count", "avg", "max", "min"}
errors = []
BINARY = ROOT / "target/release/gameai"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def exported_metrics():
    """The metric names the release binary's /metrics offers (a histogram's as its
    _bucket, _sum and _count series), once its start-up figures are in (at most 120 s),
    plus Prometheus's own `up`."""
    metrics_port = free_port()
    server = subprocess.Popen(
        [str(BINARY), "--grpc-addr", f"127.0.0.1:{free_port()}",
         "--metrics-addr", f"127.0.0.1:{metrics_port}"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5) as r:
                    text = r.read().decode()
                if "gameai_mahjong_tables_bytes" in text:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                sys.exit("deploy check: the release binary's /metrics did not come up within 120 s")
            time.sleep(0.5)
    finally:
        server.terminate()
        server.wait(timeout=30)
    names = {"up"}
    for name, kind in re.findall(r"^# TYPE (\S+) (\S+)$", text, re.M):
        names |= {name + s for s in ("_bucket", "_sum", "_count")} if kind == "histogram" else {name}
    return names


EXPORTED = exported_metrics()


def check(cond, message):
    if not cond:
        errors.append(message)


def metrics_in(expr):
    names = set(re.findall(r"\b([a-z_][a-z0-9_]*)\s*\{", expr))
    names |= set(re.findall(r"\b([a-z_][a-z0-9_]*_(?:total|bucket|requests))\b", expr))
    return names - PROMQL_WORDS


docs = {}
for path in sorted((DEPLOY / "kubernetes").glob("*.yaml")):
    for doc in yaml.safe_load_all(path.read_text()):
        docs[(doc["kind"], doc["metadata"]["name"])] = doc

monitor = docs[("ServiceMonitor", "gameai")]
check(monitor["apiVersion"] == "monitoring.coreos.com/v1", "ServiceMonitor apiVersion")
wanted = monitor["spec"]["selector"]["matchLabels"]
selected = [d for (k, _), d in docs.items()
            if k == "Service" and wanted.items() <= d["metadata"].get("labels", {}).items()]
check([d["metadata"]["name"] for d in selected] == ["gameai"],
      f"ServiceMonitor must select exactly Service gameai, selects {[d['metadata']['name'] for d in selected]}")
for endpoint in monitor["spec"]["endpoints"]:
    ports = {p["name"] for d in selected for p in d["spec"]["ports"]}
    check(endpoint["port"] in ports, f"ServiceMonitor port {endpoint['port']} not in {ports}")
    check(endpoint.get("path") == "/metrics", "ServiceMonitor path must be /metrics")

help_text = subprocess.run([str(ROOT / "target/release/gameai"), "--help"],
                           check=True, capture_output=True, text=True).stdout
container = docs[("Deployment", "gameai")]["spec"]["template"]["spec"]["containers"][0]
for env in container.get("env", []):
    check(f"[env: {env['name']}=" in help_text, f"Deployment sets {env['name']}, unknown to gameai --help")

prom = yaml.safe_load((DEPLOY / "prometheus/prometheus.yml").read_text())
check(any(j["job_name"] == "gameai" for j in prom["scrape_configs"]), "no gameai scrape job")
rules = yaml.safe_load((DEPLOY / "prometheus/alerts.yml").read_text())
alerts = [r for g in rules["groups"] for r in g["rules"]]
check(len(alerts) >= 3, "expected alert rules for error ratio, p99 latency and shedding")
for rule in alerts:
    for key in ("alert", "expr", "for"):
        check(key in rule, f"alert rule lacks {key}: {rule}")
    check("severity" in rule.get("labels", {}), f"{rule.get('alert')}: no severity")
    check("summary" in rule.get("annotations", {}), f"{rule.get('alert')}: no summary")
    unknown = metrics_in(rule["expr"]) - EXPORTED
    check(not unknown, f"{rule['alert']} uses metrics the server does not export: {unknown}")

dashboard = json.loads((DEPLOY / "grafana/gameai-dashboard.json").read_text())
exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
check(len(exprs) >= 6, "dashboard has too few queries")
for expr in exprs:
    unknown = metrics_in(expr) - EXPORTED
    check(not unknown, f"dashboard query uses unknown metrics {unknown}: {expr}")

dockerfile = (DEPLOY / "Dockerfile").read_text()
check(re.search(r"^USER 65532", dockerfile, re.M), "Dockerfile must run as user 65532")
check(re.search(r"^EXPOSE 50051 9090", dockerfile, re.M), "Dockerfile must expose 50051 and 9090")
check(re.search(r"^FROM scratch$", dockerfile, re.M), "Dockerfile must start from the empty base (FROM scratch)")

if errors:
    for e in errors:
        print(f"deploy check: {e}", file=sys.stderr)
    sys.exit(1)
print(f"deploy check: OK ({len(docs)} manifests, {len(alerts)} alert rules, {len(exprs)} dashboard queries)")
