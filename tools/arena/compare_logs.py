#!/usr/bin/env python3
"""Paired comparison of two arena runs on the same deals (their ``--log`` files).

Each game is keyed by (deal, ours role); a game both runs won or both lost says nothing
about which engine is stronger, so the difference in WP is (only A won - only B won) /
games, with standard error sqrt(only A + only B) / games (McNemar's test). This is far
more sensitive than comparing two WPs, whose deal luck does not cancel.

Usage: compare_logs.py A.jsonl B.jsonl
"""

from __future__ import annotations

import json
import math
import sys


def load(path: str) -> dict:
    games = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            g = json.loads(line)
            won = g["winner"] == ("landlord" if g["ours"] == "landlord" else "farmer")
            games[(g["deal"], g["ours"])] = won
    return games


def compare(a: dict, b: dict) -> dict:
    keys = sorted(set(a) & set(b))
    only_a = sum(1 for k in keys if a[k] and not b[k])
    only_b = sum(1 for k in keys if b[k] and not a[k])
    n = len(keys)
    return {"games": n, "wp_a": sum(a[k] for k in keys) / n, "wp_b": sum(b[k] for k in keys) / n,
            "only_a": only_a, "only_b": only_b, "diff": (only_a - only_b) / n,
            "se": math.sqrt(only_a + only_b) / n}


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    c = compare(load(argv[1]), load(argv[2]))
    print(f"{c['games']} common games: WP A {c['wp_a']:.3f}, B {c['wp_b']:.3f}; "
          f"only A won {c['only_a']}, only B won {c['only_b']}; "
          f"A - B = {c['diff']:+.3f} ± {c['se']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
