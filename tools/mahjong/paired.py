#!/usr/bin/env python3
"""Paired difference of two mahjong-solitaire runs on the same walls.

Each run is a file written by ``mahjong-solitaire --outcomes`` (one line per game:
policy, seed, won, draws) or, for runs made without it, ``--decisions`` (one line per
engine decision with the game's outcome). The games pair up by the wall's seed, so two
builds or two settings of the engine, or the engine and the baseline, can be compared
across separate invocations. Prints the wins of each, the mean per-wall difference
a - b with its 95 % interval (normal, from the per-wall differences) and the number of
walls on which the outcomes differ.

In a ``--decisions`` file a wall with no line is a game without an engine decision:
lost when every decision was someone else's (a hybrid run) and, very rarely, won on the
first draw. Such walls count as lost; pass ``--seeds START:END`` so that walls absent
from both files still count (as no difference).

Usage: paired.py A.jsonl B.jsonl [--policy-a Engine] [--policy-b Baseline]
           [--seeds START:END]
"""

from __future__ import annotations

import argparse
import json
import math


def outcomes(path: str, policy: str | None) -> dict[int, bool]:
    won: dict[int, bool] = {}
    seen: set[str] = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            seen.add(row.get("policy", ""))
            if policy is not None and row.get("policy", policy) != policy:
                continue
            won[row["seed"]] = bool(row["won"])
    if policy is None and len(seen) > 1:
        # One policy's games would silently overwrite another's on the same seed.
        raise SystemExit(f"{path} holds policies {sorted(seen)}: name one with --policy-a/-b")
    return won


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--policy-a", default=None, help="policy of A's lines (outcomes files)")
    ap.add_argument("--policy-b", default=None, help="policy of B's lines (outcomes files)")
    ap.add_argument("--seeds", default=None, help="START:END, the walls of both runs")
    args = ap.parse_args()
    a = outcomes(args.a, args.policy_a)
    b = outcomes(args.b, args.policy_b)
    if args.seeds:
        start, end = (int(x) for x in args.seeds.split(":"))
        seeds = list(range(start, end))
    else:
        seeds = sorted(set(a) | set(b))
    diffs = [int(a.get(s, False)) - int(b.get(s, False)) for s in seeds]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    wins_a = sum(int(a.get(s, False)) for s in seeds)
    wins_b = sum(int(b.get(s, False)) for s in seeds)
    differ = sum(1 for d in diffs if d)
    print(
        f"walls {n}: a {wins_a} wins, b {wins_b} wins; a - b {mean:+.4f} "
        f"(95 % interval {mean - half:+.4f} to {mean + half:+.4f}); {differ} walls differ"
    )


if __name__ == "__main__":
    main()
