#!/usr/bin/env python3
"""Random renju positions with every black forbidden point, from the Piskvork referee's
checker (PyPI `renju` 0.1.0, `renju.check_forbid.get_foul_type`), one JSON object per
line in the format of tests/data/renju_forbidden_piskvork.jsonl.

Usage: python3 forbidden_oracle.py SEED COUNT > out.jsonl   (needs `pip install renju==0.1.0`)

Positions are dense clusters of stones (more black than white, so that forbidden points
are common), not games: only the stones matter to the checker.
"""
import json
import random
import sys

from renju.check_forbid import get_foul_type

N = 15


def name(x, y):
    return f"{chr(97 + x)}{y + 1}"


def position(rng):
    cx, cy = rng.randrange(2, N - 2), rng.randrange(2, N - 2)
    radius = rng.choice([3, 4, 5, 7])
    nb = rng.randrange(8, 30)
    nw = rng.randrange(max(0, nb - 12), nb + 1)
    area = [
        (x, y)
        for x in range(max(0, cx - radius), min(N, cx + radius + 1))
        for y in range(max(0, cy - radius), min(N, cy + radius + 1))
    ]
    rng.shuffle(area)
    # At most 60% of the area is filled, black first.
    nb = min(nb, len(area) * 6 // 20)
    nw = min(nw, len(area) * 6 // 10 - nb)
    return area[:nb], area[nb : nb + nw]


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    for _ in range(count):
        black, white = position(rng)
        board = [[0] * N for _ in range(N)]
        for x, y in black:
            board[x][y] = 1
        for x, y in white:
            board[x][y] = 2
        forbidden = {}
        for x in range(N):
            for y in range(N):
                if board[x][y] == 0:
                    kind = get_foul_type(board, x, y)
                    if kind:
                        forbidden[name(x, y)] = kind
        print(json.dumps({
            "size": N,
            "black": sorted(name(x, y) for x, y in black),
            "white": sorted(name(x, y) for x, y in white),
            "forbidden": dict(sorted(forbidden.items())),
        }))


if __name__ == "__main__":
    main()
