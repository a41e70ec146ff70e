#!/usr/bin/env python3
"""VCT verdicts for gomoku puzzles from a solver written independently of the engine:
plain run counting on a grid (as `vcf_oracle.py`), no pattern tables, no threat
classes, and every empty point of the board tried as the defender's reply.

Usage:
  python3 vct_oracle.py judge PUZZLES.jsonl > VERDICTS.jsonl
  python3 vct_oracle.py check PUZZLES.jsonl      # exit 1 unless every puzzle's fields
                                                 # equal the verdicts recomputed here

A puzzle line has `rule` (freestyle: five or more wins; standard: exactly five), `black`
and `white` point lists (`h8` style, 15x15), black to move. `judge` copies each line and
adds the oracle's verdict:
- `vcf_within` (8) and `vcf`: black's shortest VCF of at most that many moves, or null;
- `vct_moves`: black's moves up to and including the five in the shortest win by
  continuous threats (at most 6 moves searched), or null;
- `winning_first`: every first move that wins within `vct_moves`, sorted;
- `first_wins_in`: when the puzzle records a `first` move, the fewest moves (at most 6)
  within which that move wins, or null.

The model (a win by continuous threats, proved against every reply):
- Black to move wins at once with a five point.
- If white has a five point, black must block it (two: black loses).
- Otherwise black tries each empty point sharing an open five-cell window with at least
  one black stone: a move that makes two five points wins in two; one five point forces
  white's block there; no five point makes a *threat* only if black, moving again (white
  passing), would win by a VCF within the moves left; then EVERY empty point of the
  board is a white reply, and black must win after each.
- A white reply is dismissed cheaply when black's VCF against the pass still works move
  by move after it (each black move still makes its five point, white never gets one of
  its own); every other reply is searched in full.
So a proof here is a real forced win (white's replies are never narrowed to a list of
"defences"); only black's moves are narrowed (to fours and VCF threats).
"""
import json
import sys

N = 15
DIRS = [(1, 0), (0, 1), (1, 1), (1, -1)]
VCF_DEPTH = 8
VCT_DEPTH = 6


def name(p):
    return f"{chr(97 + p[0])}{p[1] + 1}"


def parse(s):
    return (ord(s[0]) - 97, int(s[1:]) - 1)


def on_board(p):
    return 0 <= p[0] < N and 0 <= p[1] < N


class Grid:
    def __init__(self, rule, black, white):
        self.rule = rule
        self.g = {p: "b" for p in black}
        self.g.update({p: "w" for p in white})
        self.cache = {}

    def key(self):
        return frozenset(self.g.items())

    def run(self, p, c, d):
        """Length of c's run through the empty point p (counting p) along d."""
        n = 1
        for s in (1, -1):
            q = (p[0] + s * d[0], p[1] + s * d[1])
            while self.g.get(q) == c:
                n += 1
                q = (q[0] + s * d[0], q[1] + s * d[1])
        return n

    def makes_five(self, p, c):
        for d in DIRS:
            n = self.run(p, c, d)
            if n == 5 or (n > 5 and self.rule == "freestyle"):
                return True
        return False

    def windows(self, c, least):
        """Empty points in a five-cell window (on the board, no stone of the other
        colour) holding at least `least` stones of c."""
        key = (frozenset(self.g.items()), c, least)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        g = self.g
        out = set()
        for s, col in g.items():
            if col != c:
                continue
            for d in DIRS:
                # The nine cells s-4d .. s+4d; every window of five through s.
                seg = [(s[0] + i * d[0], s[1] + i * d[1]) for i in range(-4, 5)]
                val = [(g.get(q, "") if on_board(q) else "x") for q in seg]
                for start in range(5):
                    win = val[start:start + 5]
                    if win.count(c) >= least and win.count(c) + win.count("") == 5:
                        out.update(seg[start + i] for i in range(5) if win[i] == "")
        out = frozenset(out)
        if len(self.cache) > 2_000_000:
            self.cache.clear()
        self.cache[key] = out
        return out

    def five_points(self, c):
        return sorted(p for p in self.windows(c, 4) if self.makes_five(p, c))

    def empties(self):
        return [(x, y) for x in range(N) for y in range(N) if (x, y) not in self.g]


def other(c):
    return "w" if c == "b" else "b"


# --- VCF: the attacker plays only fours -------------------------------------------

def vcf_line(grid, a, depth):
    """A shortest VCF of a (to move) of at most `depth` attacker moves, as the list of
    moves [a1, d1, a2, d2, ..., five], or None."""
    for k in range(1, depth + 1):
        line = vcf(grid, a, k)
        if line is not None:
            return line
    return None


def vcf(grid, a, depth):
    fp = grid.five_points(a)
    if fp:
        return [fp[0]]
    if depth < 2:
        return None
    d = other(a)
    dfive = grid.five_points(d)
    if len(dfive) >= 2:
        return None
    moves = dfive if dfive else sorted(grid.windows(a, 3))
    for m in moves:
        grid.g[m] = a
        fp = grid.five_points(a)
        line = None
        if len(fp) >= 2:
            line = [m, fp[0], fp[1]]
        elif len(fp) == 1:
            grid.g[fp[0]] = d
            rest = vcf(grid, a, depth - 1)
            del grid.g[fp[0]]
            if rest is not None:
                line = [m, fp[0]] + rest
        del grid.g[m]
        if line is not None:
            return line
    return None


def replays(grid, a, line):
    """Whether the VCF `line` still wins for a (to move) on this grid: every attacker
    move empty and making its five points, the defender's only non-losing reply the one
    in the line, the defender never holding a five point of its own."""
    d = other(a)
    placed = []
    ok = False
    for i in range(0, len(line), 2):
        m = line[i]
        if m in grid.g:
            break
        if grid.makes_five(m, a):
            ok = True
            break
        if grid.five_points(d):
            break
        grid.g[m] = a
        placed.append(m)
        fp = grid.five_points(a)
        if len(fp) >= 2:
            ok = True
            break
        if len(fp) != 1 or i + 1 >= len(line) or fp[0] != line[i + 1]:
            break
        grid.g[fp[0]] = d
        placed.append(fp[0])
    for p in placed:
        del grid.g[p]
    return ok


# --- VCT: fours and threats, every reply to a threat ------------------------------

class Vct:
    def __init__(self, grid):
        self.grid = grid
        self.memo = {}

    def wins(self, a, n):
        """Whether a (to move) forces a five within n moves of its own."""
        g = self.grid
        key = (g.key(), a, n)
        if key in self.memo:
            return self.memo[key]
        result = self._wins(a, n)
        self.memo[key] = result
        return result

    def _wins(self, a, n):
        g = self.grid
        if g.five_points(a):
            return True
        if n < 2:
            return False
        d = other(a)
        dfive = g.five_points(d)
        if len(dfive) >= 2:
            return False
        if dfive:
            moves = dfive
        else:
            fours = sorted(g.windows(a, 3))
            moves = fours + sorted(g.windows(a, 1) - set(fours))
        return any(self.move_wins(a, m, n) for m in moves)

    def move_wins(self, a, m, n):
        """Whether a's move m (a to move, no five point) wins within n moves."""
        g = self.grid
        d = other(a)
        g.g[m] = a
        try:
            fp = g.five_points(a)
            if len(fp) >= 2:
                return True
            if len(fp) == 1:
                g.g[fp[0]] = d
                try:
                    return self.wins(a, n - 1)
                finally:
                    del g.g[fp[0]]
            return self.every_reply_loses(a, n - 1)
        finally:
            del g.g[m]

    def every_reply_loses(self, a, n):
        """d to move after a's non-four move: a wins within n after every reply."""
        g = self.grid
        d = other(a)
        if n < 2 or g.five_points(d):
            return False
        threat = vcf_line(g, a, n)
        if threat is None:
            return False
        for r in self.replies_to_search(a, threat):
            g.g[r] = d
            try:
                if replays(g, a, threat):
                    continue
                if not self.wins(a, n):
                    return False
            finally:
                del g.g[r]
        return True


    def replies_to_search(self, a, line):
        """The defender's replies that can stop the VCF `line` (against a pass): every
        empty point when the line does not replay cleanly as it stands; otherwise the
        points it uses or makes five points of, and the points that could give the
        defender a five point (an open window with three of its stones, counting the
        line's blocks). Any other reply leaves every step of the line as it was, so
        `replays` holds after it."""
        g = self.grid
        d = other(a)
        if not replays(g, a, line):
            return g.empties()
        used = set(line)
        placed = []
        for i in range(0, len(line) - 1, 2):
            g.g[line[i]] = a
            placed.append(line[i])
            used.update(g.five_points(a))
            if i + 1 < len(line) - 1:
                g.g[line[i + 1]] = d
                placed.append(line[i + 1])
        for p in placed:
            del g.g[p]
        blocks = [line[i] for i in range(1, len(line) - 1, 2)]
        for p in blocks:
            g.g[p] = d
        used.update(g.windows(d, 3))
        for p in blocks:
            del g.g[p]
        return sorted(p for p in used if p not in g.g)


def judge(puzzle):
    black = [parse(s) for s in puzzle["black"]]
    white = [parse(s) for s in puzzle["white"]]
    grid = Grid(puzzle["rule"], black, white)
    line = vcf_line(grid, "b", VCF_DEPTH)
    out = dict(puzzle)
    out["vcf_within"] = VCF_DEPTH
    out["vcf"] = None if line is None else (len(line) + 1) // 2
    solver = Vct(grid)
    moves = next((n for n in range(1, VCT_DEPTH + 1) if solver.wins("b", n)), None)
    out["vct_moves"] = moves
    first = []
    if moves is not None and moves >= 2:
        dfive = grid.five_points("w")
        cands = dfive if dfive else sorted(grid.windows("b", 1))
        first = sorted(name(m) for m in cands if solver.move_wins("b", m, moves))
    out["winning_first"] = first
    # The puzzle's recorded first move (the engine's, when the position was made),
    # judged here: the fewest moves within which it wins, or null.
    if "first" in puzzle:
        m = parse(puzzle["first"])
        if puzzle["first"] in first:
            out["first_wins_in"] = moves
        else:
            out["first_wins_in"] = next(
                (n for n in range(2, VCT_DEPTH + 1)
                 if m not in grid.g and solver.move_wins("b", m, n)), None)
    return out


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("judge", "check"):
        sys.exit(__doc__)
    mode, path = sys.argv[1], sys.argv[2]
    bad = 0
    with open(path) as f:
        lines = [json.loads(l) for l in f if l.strip()]
    for i, puzzle in enumerate(lines, 1):
        verdict = judge(puzzle)
        if mode == "judge":
            print(json.dumps(verdict, sort_keys=True), flush=True)
            continue
        diff = {k: (puzzle.get(k), v) for k, v in verdict.items() if puzzle.get(k) != v}
        if diff:
            bad += 1
            print(f"line {i}: file vs oracle {diff}", file=sys.stderr)
        else:
            print(f"line {i}: ok (vct {verdict['vct_moves']}, "
                  f"first {verdict['winning_first']})", file=sys.stderr)
    if mode == "check":
        print(f"{len(lines) - bad} of {len(lines)} puzzles agree with the oracle",
              file=sys.stderr)
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
