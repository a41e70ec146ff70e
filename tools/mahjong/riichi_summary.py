#!/usr/bin/env python3
"""Summarises riichi_arena.py game logs (--log files), e.g. the parts of one run made by
several processes on disjoint seed ranges: placement by wall set with its 95 % interval,
ranks, rates per kyoku, scores, the service seats' decision times.

Usage: riichi_summary.py games-a.jsonl [games-b.jsonl ...] [--json out.json]
           [--paired other.jsonl ...]

--paired: a second run on the same walls (e.g. another challenger against the same
field): the mean per-wall-set difference of the challengers' placements (this run minus
the other) over the wall sets complete in both, with its 95 % interval.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from riichi import stats  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--json")
    ap.add_argument("--paired", nargs="+", help="game logs of a run on the same walls")
    args = ap.parse_args()
    lines = complete(read(args.logs))
    s = stats.summarize_games(lines)
    print(f"{s['hanchan']} hanchan, {s['wall_sets']} complete wall sets (partial ones left out); "
          f"illegal actions {s['illegal_actions']}")
    warn_shared_walls(s)
    for side in ("challenger", "field"):
        f = s[f"{side}_figures"]
        print(f"{side:10} {s[side]:13} placement {f['placement']:.3f} +- {f['placement_ci95']:.3f} (by wall set); "
              f"ranks {' '.join(f'{x:.3f}' for x in f['rank_distribution'])}; per kyoku: win {f['win_rate']:.3f} "
              f"deal-in {f['deal_in_rate']:.3f} riichi {f['riichi_rate']:.3f} call {f['call_rate']:.3f}; "
              f"final score {f['mean_final_score']:.0f}")
    rates = stats.challenger_rates_by_wall_set(lines)
    s["challenger_rates_by_wall_set"] = {}
    for name in [n for n, _ in stats.RATES] + ["first"]:
        mean, half = stats.mean_interval([r[name] for r in rates.values()])
        s["challenger_rates_by_wall_set"][name] = {"mean": mean, "ci95": half}
    print("challenger rates, mean over wall sets (95 %): " + "; ".join(
        f"{k} {v['mean']:.3f} +- {v['ci95']:.3f}" for k, v in s["challenger_rates_by_wall_set"].items()))
    for kind, t in s["decision_ms"].items():
        print(f"{kind:13} decisions {t['count']} p50 {t['p50']:.1f} ms p99 {t['p99']:.1f} ms")
    if args.paired:
        other = complete(read(args.paired))
        mine, theirs = placements(lines), placements(other)
        common = sorted(set(mine) & set(theirs))
        diffs = [mine[k] - theirs[k] for k in common]
        mean, half = stats.mean_interval(diffs)
        s["paired"] = {"wall_sets": len(common), "difference": mean, "ci95": half}
        print(f"paired over {len(common)} wall sets: challenger placement minus the other run's "
              f"{mean:+.3f} +- {half:.3f}")
        mine_r, theirs_r = stats.challenger_rates_by_wall_set(lines), stats.challenger_rates_by_wall_set(other)
        s["paired"]["rates"] = {}
        for name in [n for n, _ in stats.RATES] + ["first"]:
            d = [mine_r[k][name] - theirs_r[k][name] for k in common if k in mine_r and k in theirs_r]
            m, h = stats.mean_interval(d)
            s["paired"]["rates"][name] = {"difference": m, "ci95": h}
        print("paired rate differences (95 %): " + "; ".join(
            f"{k} {v['difference']:+.3f} +- {v['ci95']:.3f}" for k, v in s["paired"]["rates"].items()))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(s, indent=2) + "\n")
    return 0


def warn_shared_walls(s: dict) -> None:
    if s["wall_sets_sharing_walls"]:
        print(f"WARNING: {s['wall_sets_sharing_walls']} of {s['wall_sets']} wall sets share walls with "
              "another (riichienv seeds closer than their kyoku counts: logs made before the seed "
              "stride): the intervals assume independent wall sets and are too narrow")


def read(paths):
    lines = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            # A run still in progress may end in a line cut short: it is left out.
            lines.extend(json.loads(x) for x in f if x.endswith("\n") and x.strip())
    return lines


def placements(lines) -> dict:
    """Mean challenger placement per wall set (seed)."""
    by: dict = {}
    for line in lines:
        by.setdefault(line["seed"], []).append(line["ranks"][line["challenger_seat"]])
    return {k: sum(v) / len(v) for k, v in by.items()}


def complete(lines):
    seen = {}
    for line in lines:
        key = (line["seed"], line["challenger_seat"])
        if key in seen:
            raise SystemExit(f"riichi_summary: seed {key[0]} rotation {key[1]} appears twice")
        seen[key] = True
    # A wall set counts only with its four rotations: a partial one would unbalance the
    # seats (the pairing the interval relies on).
    incomplete = {seed for seed, _ in seen if sum(1 for k in seen if k[0] == seed) != 4}
    return [line for line in lines if line["seed"] not in incomplete]


if __name__ == "__main__":
    sys.exit(main())
