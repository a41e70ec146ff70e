#!/usr/bin/env python3
"""VCF puzzles with their shortest solution length, from a brute-force solver written
independently of the engine (plain run counting on a grid, no pattern tables).

Usage: python3 vcf_oracle.py SEED COUNT [RULE] > out.jsonl
RULE is freestyle (five or more wins) or standard (exactly five).

Each line: {"size": 15, "rule": ..., "black": [...], "white": [...], "to_move": "black",
"depth": D, "vcf_moves": n or null}. `vcf_moves` is the attacker's (black's) moves up to
and including the five in a shortest VCF (continuous fours: every attacking move makes a
four, the defender blocks its five point, a defender's four is answered by a block that
is itself a four); null when there is none of at most D moves.

Positions are random clusters of stones, kept when they are "interesting": no five on
the board, neither side has a five point, black has at least two four moves and no move
that makes two five points at once.
"""
import json
import random
import sys

N = 15
DIRS = [(1, 0), (0, 1), (1, 1), (1, -1)]


def name(x, y):
    return f"{chr(97 + x)}{y + 1}"


class Grid:
    def __init__(self, rule):
        self.g = {}
        self.rule = rule

    def run(self, x, y, c, dx, dy):
        n = 1
        for s in (1, -1):
            i = 1
            while self.g.get((x + s * i * dx, y + s * i * dy)) == c:
                n += 1
                i += 1
        return n

    def makes_five(self, x, y, c):
        """Whether c at the empty (x, y) completes a winning run."""
        for dx, dy in DIRS:
            n = self.run(x, y, c, dx, dy)
            if n == 5 or (n > 5 and self.rule == "freestyle"):
                return True
        return False

    def near(self):
        out = set()
        for (x, y) in self.g:
            for dx in range(-2, 3):
                for dy in range(-2, 3):
                    p = (x + dx, y + dy)
                    if 0 <= p[0] < N and 0 <= p[1] < N and p not in self.g:
                        out.add(p)
        return sorted(out)

    def five_points(self, c):
        return [p for p in self.near() if self.makes_five(p[0], p[1], c)]


def vcf(grid, a, depth, stats):
    """Shortest VCF of a (to move) with at most `depth` moves, or None."""
    stats[0] += 1
    d = "w" if a == "b" else "b"
    if grid.five_points(a):
        return 1
    if depth < 2:
        return None
    dfive = grid.five_points(d)
    if len(dfive) >= 2:
        return None
    moves = dfive if dfive else grid.near()
    best = None
    for m in moves:
        grid.g[m] = a
        fp = grid.five_points(a)
        if not fp:
            del grid.g[m]
            continue
        if len(fp) >= 2:
            res = 2
        else:
            b = fp[0]
            grid.g[b] = d
            r = vcf(grid, a, depth - 1, stats)
            del grid.g[b]
            res = None if r is None else r + 1
        del grid.g[m]
        if res is not None and (best is None or res < best):
            best = res
            if best == 2:
                break
    return best


def shortest(grid, a, max_depth):
    stats = [0]
    for depth in range(1, max_depth + 1):
        r = vcf(grid, a, depth, stats)
        if r is not None:
            return r
        if stats[0] > 300_000:
            return "gave up"
    return None


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rule = sys.argv[3] if len(sys.argv) > 3 else "freestyle"
    rng = random.Random(seed)
    made = 0
    while made < count:
        cx, cy = rng.randrange(4, N - 4), rng.randrange(4, N - 4)
        area = [(x, y) for x in range(cx - 3, cx + 4) for y in range(cy - 3, cy + 4)]
        rng.shuffle(area)
        nb = rng.randrange(7, 14)
        nw = rng.randrange(nb - 3, nb + 1)
        grid = Grid(rule)
        for p in area[:nb]:
            grid.g[p] = "b"
        for p in area[nb:nb + nw]:
            grid.g[p] = "w"
        # No five on the board: remove and re-test each stone.
        over = False
        for (x, y), c in list(grid.g.items()):
            del grid.g[(x, y)]
            if grid.makes_five(x, y, c):
                over = True
            grid.g[(x, y)] = c
        if over or grid.five_points("b") or grid.five_points("w"):
            continue
        fours = 0
        flex = False
        for m in grid.near():
            grid.g[m] = "b"
            fp = grid.five_points("b")
            fours += bool(fp)
            flex = flex or len(fp) >= 2
            del grid.g[m]
        # At least two four moves, and no straight four or double four at once (that
        # would be a two-move VCF, too easy to be a puzzle).
        if fours < 2 or flex:
            continue
        depth = 6
        n = shortest(grid, "b", depth)
        if n == "gave up":
            continue
        print(json.dumps({
            "size": N,
            "rule": rule,
            "black": sorted(name(x, y) for (x, y), c in grid.g.items() if c == "b"),
            "white": sorted(name(x, y) for (x, y), c in grid.g.items() if c == "w"),
            "to_move": "black",
            "depth": depth,
            "vcf_moves": n,
        }), flush=True)
        made += 1


if __name__ == "__main__":
    main()
