#!/usr/bin/env python3
"""Match harness: many refereed games between two Gomocup brains, with intervals.

Each opening of ``openings.match_openings(N, seed, size)`` is played twice, engine A
black in the first game and white in the second, so ``--openings N`` plays 2N games.
Games run through ``referee.play_game`` (fresh brain processes per game) and are
appended to ``--out`` as JSONL, one record per game with its index, so an interrupted
match continues with ``--resume``.

The summary gives A's score (wins + draws / 2) over the games with a 95 % Wilson
interval, the Elo difference that score means with the interval's ends mapped the
same way, results per colour, faults (timeouts, illegal or forbidden moves, errors)
per brain, and the answer times per brain (median and maximum, in ms).

    python3 tools/gomocup/match.py --a target/release/pbrain-gameai --a-name gameai \\
        --b target/release/pbrain-oneply --b-name oneply \\
        --openings 100 --turn-ms 200 --out target/gomocup/oneply.jsonl --messages

Exit status: 0; 1 with ``--require-clean`` if any game ended by a brain's fault, or
with ``--min-score S`` if A's score is below S; 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import gomoku_rules as rules
import openings as openings_mod
import referee

Z95 = 1.959963984540054

# Search reports in MESSAGE lines: ours ("... nodes 123456 ... time 180 ms ...") and
# figrid's ("Speed 44K | Depth 7-7 | Eval 1 | Node 38K | Time 852ms").
NODES_RE = re.compile(r"\bnodes?\s+(\d+(?:\.\d+)?)([KMG]?)\b", re.IGNORECASE)
TIME_RE = re.compile(r"\btime\s+(\d+(?:\.\d+)?)\s*ms\b", re.IGNORECASE)
SCALE = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}


def search_report(lines: list[str]) -> tuple[float, float] | None:
    """(nodes, ms) from the last MESSAGE line of a move that reports both, or None."""
    for line in reversed(lines):
        nodes, ms = NODES_RE.search(line), TIME_RE.search(line)
        if nodes and ms:
            return float(nodes.group(1)) * SCALE[nodes.group(2).upper()], float(ms.group(1))
    return None


def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion `score` (0..1) over `n` trials."""
    if n == 0:
        return 0.0, 1.0
    denom = 1 + z * z / n
    centre = (score + z * z / (2 * n)) / denom
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(score: float) -> float:
    """The Elo difference a score (0..1) corresponds to; +-inf at 1 and 0."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def summarise(records: list[dict], a: str, b: str) -> dict:
    """A's results over `records` (see the module docs)."""
    wins = draws = losses = 0
    by_colour = {"black": [0, 0, 0], "white": [0, 0, 0]}
    faults: dict[str, dict[str, int]] = {a: {}, b: {}}
    times: dict[str, list[float]] = {a: [], b: []}
    plies = []
    search: dict[str, list[tuple[float, float]]] = {a: [], b: []}
    for r in records:
        a_colour = "black" if r["black"] == a else "white"
        if r["result"] == "draw":
            draws += 1
            by_colour[a_colour][1] += 1
        elif r["winner"] == a:
            wins += 1
            by_colour[a_colour][0] += 1
        else:
            losses += 1
            by_colour[a_colour][2] += 1
        if r["reason"] not in referee.CLEAN_REASONS:
            loser = b if r["winner"] == a else a
            faults[loser][r["reason"]] = faults[loser].get(r["reason"], 0) + 1
        for i, t in enumerate(r["times_ms"]):
            ply = len(r["opening"]) + i
            colour = "black" if ply % 2 == 0 else "white"
            times[r[colour]].append(t)
        plies.append(r["plies"])
        for m in r.get("messages", []):
            colour = "black" if m["ply"] % 2 == 0 else "white"
            report = search_report(m["lines"])
            if report:
                search[r[colour]].append(report)
    n = wins + draws + losses
    score = (wins + draws / 2) / n if n else 0.0
    lo, hi = wilson(score, n)
    return {
        "a": a, "b": b, "games": n, "wins": wins, "draws": draws, "losses": losses,
        "score": score, "score_95": [lo, hi],
        "elo": elo(score), "elo_95": [elo(lo), elo(hi)],
        "a_as_black_wdl": by_colour["black"], "a_as_white_wdl": by_colour["white"],
        "faults": faults,
        "answer_ms": {name: {"median": statistics.median(ts) if ts else None,
                             "max": max(ts) if ts else None, "moves": len(ts)}
                      for name, ts in times.items()},
        "plies_median": statistics.median(plies) if plies else None,
        "search": {name: nps_summary(reports) for name, reports in search.items() if reports},
    }


def nps_summary(reports: list[tuple[float, float]]) -> dict:
    """Nodes per second over a brain's searches: overall (total nodes / total time) and
    the median and 10th percentile of the per-move rates (moves of at least 20 ms)."""
    nodes = sum(n for n, _ in reports)
    ms = sum(t for _, t in reports)
    rates = sorted(n / t * 1000 for n, t in reports if t >= 20)
    return {
        "moves": len(reports), "nodes": nodes, "seconds": ms / 1000,
        "nps": nodes / ms * 1000 if ms else None,
        "nps_median": statistics.median(rates) if rates else None,
        "nps_p10": rates[len(rates) // 10] if rates else None,
    }


def fmt_elo(x: float) -> str:
    return f"{round(x) + 0:+d}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def print_summary(s: dict) -> None:
    lo, hi = s["score_95"]
    print(f"{s['a']} vs {s['b']}: {s['games']} games, +{s['wins']} ={s['draws']} "
          f"-{s['losses']}, score {100 * s['score']:.1f}% "
          f"(95% {100 * lo:.1f}..{100 * hi:.1f}%), Elo {fmt_elo(s['elo'])} "
          f"(95% {fmt_elo(s['elo_95'][0])}..{fmt_elo(s['elo_95'][1])})")
    print(f"  {s['a']} as black W/D/L {s['a_as_black_wdl']}, as white {s['a_as_white_wdl']}; "
          f"median game {s['plies_median']} plies")
    for name, f in s["faults"].items():
        t = s["answer_ms"][name]
        med = f"{t['median']:.0f}" if t["median"] is not None else "-"
        mx = f"{t['max']:.0f}" if t["max"] is not None else "-"
        print(f"  {name}: faults {f or 'none'}; answer ms median {med}, max {mx} "
              f"over {t['moves']} moves")
        if name in s.get("search", {}):
            q = s["search"][name]
            print(f"  {name}: {q['nps']:.0f} nodes/s over {q['moves']} searches "
                  f"(per move: median {q['nps_median'] or 0:.0f}, 10th percentile "
                  f"{q['nps_p10'] or 0:.0f})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="command line of engine A")
    ap.add_argument("--b", required=True, help="command line of engine B")
    ap.add_argument("--a-name", default="A")
    ap.add_argument("--b-name", default="B")
    ap.add_argument("--openings", type=int, default=26, help="openings (2 games each)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random openings")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--rule", choices=rules.RULES, default="freestyle")
    ap.add_argument("--turn-ms", type=int, default=200, help="INFO timeout_turn of both")
    ap.add_argument("--a-turn-ms", type=int, help="A's timeout_turn (default --turn-ms)")
    ap.add_argument("--b-turn-ms", type=int, help="B's timeout_turn (default --turn-ms)")
    ap.add_argument("--match-ms", type=int, default=0, help="INFO timeout_match (0 = none)")
    ap.add_argument("--max-memory", type=int, default=350 << 20, help="INFO max_memory, bytes")
    ap.add_argument("--tolerance-ms", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=1, help="games at once (default 1)")
    ap.add_argument("--out", required=True, help="JSONL file of game records")
    ap.add_argument("--resume", action="store_true", help="skip games already in --out")
    ap.add_argument("--stderr-dir", help="keep the brains' stderr here")
    ap.add_argument("--summary", help="also write the summary as JSON here")
    ap.add_argument("--messages", action="store_true",
                    help="keep MESSAGE lines in the records; the summary then reports "
                         "nodes per second from them")
    ap.add_argument("--settle", action="store_true",
                    help="send ABOUT after the INFO lines and await its answer untimed, so "
                         "that a brain that sets itself up on INFO (Rapfi) does so before "
                         "its first move's clock starts")
    ap.add_argument("--require-clean", action="store_true")
    ap.add_argument("--min-score", type=float)
    args = ap.parse_args(argv)
    if args.a_name == args.b_name:
        ap.error("--a-name and --b-name must differ")

    a = referee.Player(args.a_name, args.a, args.a_turn_ms if args.a_turn_ms is not None
                       else args.turn_ms, args.match_ms, args.max_memory)
    b = referee.Player(args.b_name, args.b, args.b_turn_ms if args.b_turn_ms is not None
                       else args.turn_ms, args.match_ms, args.max_memory)
    schedule = []
    for i, (name, stones) in enumerate(openings_mod.match_openings(args.openings, args.seed,
                                                                   args.size)):
        schedule.append((2 * i, name, stones, a, b))
        schedule.append((2 * i + 1, name, stones, b, a))

    records: dict[int, dict] = {}
    if args.resume and os.path.exists(args.out):
        with open(args.out) as f:
            for line in f:
                r = json.loads(line)
                records[r["game_index"]] = r
    todo = [g for g in schedule if g[0] not in records]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    if args.stderr_dir:
        os.makedirs(args.stderr_dir, exist_ok=True)
    began = time.monotonic()

    def play(game):
        index, name, stones, black, white = game
        r = referee.play_game(black, white, size=args.size, rule=args.rule, opening=stones,
                              tolerance_ms=args.tolerance_ms, stderr_dir=args.stderr_dir,
                              keep_messages=args.messages, settle=args.settle)
        r["game_index"], r["opening_name"], r["seed"] = index, name, args.seed
        return r

    with open(args.out, "a") as out, ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for done, r in enumerate(pool.map(play, todo), 1):
            records[r["game_index"]] = r
            out.write(json.dumps(r) + "\n")
            out.flush()
            print(f"[{time.monotonic() - began:6.0f}s] game {r['game_index'] + 1}/"
                  f"{len(schedule)} ({done}/{len(todo)} this run) {r['opening_name']}: "
                  f"{r['black']} vs {r['white']} -> {r['result']} by {r['reason']} "
                  f"in {r['plies']} plies", flush=True)

    ordered = [records[i] for i, *_ in schedule if i in records]
    s = summarise(ordered, a.name, b.name)
    s.update(rule=args.rule, size=args.size, seed=args.seed, openings=args.openings,
             turn_ms={a.name: a.turn_ms, b.name: b.turn_ms}, match_ms=args.match_ms)
    print_summary(s)
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump(s, f, indent=1)
    if args.require_clean and any(s["faults"][n] for n in s["faults"]):
        return 1
    if args.min_score is not None and s["score"] < args.min_score:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
