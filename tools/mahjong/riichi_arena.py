#!/usr/bin/env python3
"""Four-player riichi arena on riichienv: one challenger seat against three field seats.

Full hanchan under Tenhou rules with red fives (riichienv 0.4.11, ``4p-red-half``,
``GameRule.default_tenhou()``); riichienv deals, runs every turn, scores every hand and
ranks the players: our scorer never judges our games. Seat kinds:

- ``service+table``: the gameai service with the ``table`` message;
- ``service``: the same service without ``table`` (today's solitaire engine);
- ``greedy``: the documented greedy baseline (riichi/greedy.py).

Duplicate seeding: wall set i plays riichienv's seed ``(--seed + i) * SEED_STRIDE``, four
times with the challenger in each of the four seats in turn. The placement's 95 %
interval is taken over wall sets (the mean of a wall set's four games), which uses the
pairing. riichienv deals a game's k-th kyoku (counting renchan and draws) from the wall of
seed ``seed + k``, dealer first: seeds s and s + 1 share every wall but one, shifted by a
kyoku. Consecutive seeds would replay the same deals in most of their hanchan (the
challenger one seat over), so the wall sets would not be independent and the interval
over them would be too narrow; a stride larger than any game's kyoku count keeps every
wall of a run, and of runs on other ``--seed`` values, apart. The logs' ``seed`` is the
riichienv seed played.

Every action sent to the simulator is first checked against its legal actions; an
action that is not legal is counted (``illegal_actions``, which must stay 0) and the
greedy baseline's legal choice is sent instead, never silently.

Usage (tools/mahjong/README.md has more):
  tools/mahjong/.venv/bin/python tools/mahjong/riichi_arena.py --binary target/release/gameai \
      --challenger service --field greedy --wall-sets 25 --seed 1000 \
      --json out.json --log games.jsonl --danger danger.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "examples" / "python"))

from riichienv import ActionType, GameRule, RiichiEnv  # noqa: E402

from riichi import stats  # noqa: E402
from riichi.danger import discard_record  # noqa: E402
from riichi.greedy import GreedySeat  # noqa: E402
from riichi.service import SeatCounters, ServiceSeat  # noqa: E402
from riichi.table import TableView  # noqa: E402

KINDS = ("service+table", "service", "greedy")


def action_key(a) -> tuple:
    return (str(a.action_type), a.tile, tuple(a.consume_tiles))


class Server:
    """A gameai binary on free loopback ports, stopped with SIGTERM."""

    def __init__(self, binary: str) -> None:
        self.addr = f"127.0.0.1:{_free_port()}"
        self.log = open(os.devnull, "w")
        self.proc = subprocess.Popen(
            [binary, "--grpc-addr", self.addr, "--metrics-addr", f"127.0.0.1:{_free_port()}"],
            stdout=self.log, stderr=subprocess.STDOUT)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                return -9
        return self.proc.returncode


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect(addr: str, wait: float):
    import gameai_client
    import grpc

    pb, rpc = gameai_client.load("mahjong")
    stub = rpc.MahjongServiceStub(gameai_client.channel(addr))
    deadline = time.monotonic() + wait
    while True:
        try:
            stub.AnalyzeMahjongHand(pb.AnalyzeMahjongHandRequest(hand="123m456p789s1122z"), timeout=5)
            return pb, stub
        except grpc.RpcError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


# Wall sets' riichienv seeds are this far apart: more than any hanchan's kyoku count.
SEED_STRIDE = 1000


def riichienv_seed(wall_set_number: int) -> int:
    """The riichienv seed of wall set number ``--seed + i``: no wall shared with another."""
    return wall_set_number * SEED_STRIDE


def make_seat(kind: str, rpc, counters: dict, args):
    if kind == "greedy":
        return GreedySeat()
    pb, stub = rpc
    return ServiceSeat(stub, pb, counters[kind], table=(kind == "service+table"),
                       calls=args.calls_table if kind == "service+table" else args.calls,
                       budget_ms=args.budget_ms, timeout=args.timeout,
                       record=args.record_out, record_source=f"riichi_arena seed {args.current_seed}")


def play_game(seed: int, kinds: list[str], rpc, counters: dict, args, game_no: int, danger_out):
    """One hanchan; returns (per-seat outcomes, illegal actions, riichienv's MJAI log)."""
    env = RiichiEnv(game_mode="4p-red-half", rule=GameRule.default_tenhou(), seed=seed)
    seats = [make_seat(k, rpc, counters, args) for k in kinds]
    views = [TableView(seat=i) for i in range(4)]
    fallback = GreedySeat()
    illegal = 0
    greedy_ms = counters["greedy"].decision_ms
    pending = None
    obs = env.reset()
    steps = 0
    while not env.done():
        if not obs:
            raise RuntimeError(f"seed {seed}: the simulator returned no observation (step {steps})")
        actions = {}
        discard_now = None
        for pid, ob in obs.items():
            views[pid].feed(ob.new_events())
            legal = ob.legal_actions()
            if not legal:
                continue
            start = time.perf_counter()
            chosen = seats[pid].decide(ob, views[pid], legal)
            if kinds[pid] == "greedy":
                greedy_ms.append((time.perf_counter() - start) * 1000)
            keys = {action_key(a) for a in legal}
            if chosen is None or action_key(chosen) not in keys:
                illegal += 1
                print(f"ILLEGAL seed {seed} seat {pid} ({kinds[pid]}): {chosen!r}, legal {legal!r}",
                      file=sys.stderr)
                chosen = fallback.decide(ob, views[pid], legal)
            actions[pid] = chosen
            if chosen.action_type == ActionType.DISCARD and danger_out is not None:
                hand = list(ob.hand)
                discard_now = discard_record(
                    env, views[pid], hand, chosen.tile, chosen.tile == ob.drawn_tile,
                    game_no, seed, kinds[pid])
        if pending is not None:
            rons = [pid for pid, a in actions.items() if a.action_type == ActionType.RON]
            pending["dealt_in"] = sorted((pid - pending["seat"]) % 4 for pid in rons)
            danger_out.write(json.dumps(pending, separators=(",", ":")) + "\n")
            pending = None
        pending = discard_now
        obs = env.step(actions)
        steps += 1
        if steps > 20000:
            raise RuntimeError(f"seed {seed}: no end after {steps} steps")
    if pending is not None:
        danger_out.write(json.dumps(pending, separators=(",", ":")) + "\n")
    log = env.mjai_log
    outcomes = stats.seat_outcomes(log)
    scores, ranks = env.scores(), env.ranks()
    for s in range(4):
        outcomes[s].update(kind=kinds[s], score=scores[s], rank=ranks[s])
    return outcomes, illegal, log


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--binary", help="start this gameai binary on free loopback ports")
    where.add_argument("--addr", help="use a running server (host:port)")
    ap.add_argument("--challenger", choices=KINDS, default="service")
    ap.add_argument("--field", choices=KINDS, default="greedy")
    ap.add_argument("--wall-sets", type=int, default=10, help="wall sets (4 hanchan each)")
    ap.add_argument("--seed", type=int, default=0,
                    help="number of the first wall set (riichienv seed: the number x SEED_STRIDE)")
    ap.add_argument("--rotations", type=int, default=4, choices=(1, 2, 3, 4),
                    help="seats the challenger takes per wall set (4 = duplicate; fewer only for data)")
    ap.add_argument("--calls", choices=("none", "service"), default="none",
                    help="chi/pon/kan of the service seat without table (default: pass)")
    ap.add_argument("--calls-table", choices=("none", "service"), default="service",
                    help="chi/pon/kan of the service seat with table (default: ask the service)")
    ap.add_argument("--budget-ms", type=int, default=0, help="budget_ms of every request (0 = server default)")
    ap.add_argument("--timeout", type=float, default=10.0, help="gRPC deadline per call (s)")
    ap.add_argument("--wait-ready", type=float, default=120.0)
    ap.add_argument("--json", help="summary as JSON ('-' prints only the JSON)")
    ap.add_argument("--log", help="one JSON line per hanchan")
    ap.add_argument("--log-events", action="store_true", help="put riichienv's MJAI log in --log lines")
    ap.add_argument("--danger", help="danger records (JSONL, gzip when the name ends .gz)")
    ap.add_argument("--max-illegal", type=int, default=None, help="exit 1 above this many illegal actions")
    ap.add_argument("--max-errors", type=int, default=None, help="exit 1 above this many RPC errors")
    ap.add_argument("--record-requests",
                    help="write every service+table request as a loadgen envelope line (JSONL)")
    ap.add_argument("--progress", type=int, default=0, help="print a line every N hanchan")
    args = ap.parse_args()

    # SIGTERM (and SIGINT, which a shell ignores in background jobs) end the run between
    # two RPCs: the server is stopped and the summary of the hanchan finished is written.
    def stop(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server = Server(args.binary) if args.binary else None
    addr = server.addr if server else args.addr
    kinds_used = {args.challenger, args.field}
    counters = {k: SeatCounters() for k in KINDS}
    rpc = connect(addr, args.wait_ready) if kinds_used - {"greedy"} else None
    log_out = open(args.log, "w") if args.log else None
    danger_out = None
    if args.danger:
        danger_out = gzip.open(args.danger, "wt") if args.danger.endswith(".gz") else open(args.danger, "w")
    args.record_out = open(args.record_requests, "w") if args.record_requests else None
    args.current_seed = args.seed
    lines: list[dict] = []
    illegal_total = 0
    games = 0
    began = time.monotonic()
    status = 0
    try:
        for w in range(args.wall_sets):
            seed = riichienv_seed(args.seed + w)
            args.current_seed = seed
            for rotation in range(args.rotations):
                kinds = [args.field] * 4
                kinds[rotation] = args.challenger
                marks = {k: len(c.decision_ms) for k, c in counters.items()}
                outcomes, illegal, log = play_game(seed, kinds, rpc, counters, args, games, danger_out)
                illegal_total += illegal
                games += 1
                line = {"game": games - 1, "wall_set": w, "seed": seed, "challenger_seat": rotation,
                        "seats": kinds, "scores": [o["score"] for o in outcomes],
                        "ranks": [o["rank"] for o in outcomes], "outcomes": outcomes, "illegal": illegal,
                        "decision_ms": {k: [round(x, 2) for x in c.decision_ms[marks[k]:]]
                                        for k, c in counters.items() if k != "greedy"}}
                lines.append(line)
                if log_out:
                    if args.log_events:
                        line = dict(line, events=log)
                    log_out.write(json.dumps(line, separators=(",", ":")) + "\n")
                    log_out.flush()
            if args.progress and (games % args.progress == 0 or w == args.wall_sets - 1):
                c = stats.summarize_games(lines)["challenger_figures"]
                print(f"[{time.monotonic() - began:7.0f}s] {games} hanchan: {args.challenger} placement "
                      f"{c['placement']:.3f} +- {c['placement_ci95']:.3f}, win {c['win_rate']:.3f}, "
                      f"deal-in {c['deal_in_rate']:.3f}, illegal {illegal_total}", file=sys.stderr, flush=True)
    except KeyboardInterrupt as e:
        print(f"riichi_arena: stopped by {e} after {games} hanchan", file=sys.stderr)
    finally:
        if log_out:
            log_out.close()
        if danger_out:
            danger_out.close()
        if args.record_out:
            args.record_out.close()
        if server:
            code = server.stop()
            if code != 0:
                print(f"riichi_arena: the server exited with status {code}", file=sys.stderr)
                status = 1
    seconds = time.monotonic() - began
    figures = stats.summarize_games(lines)
    summary = {
        "simulator": "riichienv 0.4.11, 4p-red-half, GameRule.default_tenhou()",
        "challenger": args.challenger,
        "field": args.field,
        "wall_sets": figures["challenger_figures"]["wall_sets"],
        "first_seed": args.seed,
        "seed_stride": SEED_STRIDE,
        "rotations": args.rotations,
        "hanchan": games,
        "seconds": round(seconds, 1),
        "hanchan_per_hour": round(games / seconds * 3600, 1) if seconds else None,
        "illegal_actions": illegal_total,
        "wall_sets_sharing_walls": figures["wall_sets_sharing_walls"],
        "challenger_figures": figures["challenger_figures"],
        "field_figures": figures["field_figures"],
        "seat_kinds": {},
    }
    for kind, c in counters.items():
        if kind in kinds_used:
            summary["seat_kinds"][kind] = {
                "decisions_timed": len(c.decision_ms),
                "decision_ms_p50": round(stats.percentile(c.decision_ms, 0.5), 3),
                "decision_ms_p99": round(stats.percentile(c.decision_ms, 0.99), 3),
                "rpc_errors": c.errors,
                "illegal_suggestions": c.illegal_suggestions,
            }
    errors = sum(sum(c.errors.values()) for c in counters.values())
    if args.json == "-":
        print(json.dumps(summary, indent=2))
    else:
        print(render(summary))
        if args.json:
            pathlib.Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
    if args.max_illegal is not None and illegal_total > args.max_illegal:
        print(f"riichi_arena: FAIL: {illegal_total} illegal actions (max {args.max_illegal})", file=sys.stderr)
        status = 1
    if args.max_errors is not None and errors > args.max_errors:
        print(f"riichi_arena: FAIL: {errors} RPC errors (max {args.max_errors})", file=sys.stderr)
        status = 1
    return status


def render(s: dict) -> str:
    lines = [f"{s['hanchan']} hanchan ({s['wall_sets']} wall sets x {s['rotations']} seats, wall sets {s['first_seed']}.."
             f"{s['first_seed'] + s['wall_sets'] - 1} x riichienv seed stride {s['seed_stride']}) in {s['seconds']} s ({s['hanchan_per_hour']} per hour); "
             f"illegal actions {s['illegal_actions']}"]
    for side in ("challenger", "field"):
        f = s[f"{side}_figures"]
        kind = s[side]
        lines.append(
            f"{side:10} {kind:13} placement {f['placement']:.3f} +- {f['placement_ci95']:.3f} (by wall set); "
            f"ranks {' '.join(f'{x:.3f}' for x in f['rank_distribution'])}; per kyoku: win {f['win_rate']:.3f} "
            f"deal-in {f['deal_in_rate']:.3f} riichi {f['riichi_rate']:.3f} call {f['call_rate']:.3f}; "
            f"final score {f['mean_final_score']:.0f}")
    for kind, k in s["seat_kinds"].items():
        lines.append(f"{kind:13} decisions {k['decisions_timed']} p50 {k['decision_ms_p50']} ms p99 "
                     f"{k['decision_ms_p99']} ms; rpc errors {k['rpc_errors']}; "
                     f"suggestions not allowed {k['illegal_suggestions']}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
