"""The referee's own gomoku rules: board, five detection, renju forbidden moves.

Written for the referee from the rules, independently of the engine in ``src/gomoku/``.

Coordinates are the Gomocup protocol's: ``(x, y)`` from 0, x the column from the left,
y the row from the top. The project's notation (DESIGN.md) names the same point with
column letter ``a`` + x and row number ``size - y`` (``a1`` is the lower-left corner;
on 15x15 ``(7, 7)`` is ``h8``).

Rules (DESIGN.md, "Rule decisions"):

- ``freestyle``: five or more in a row wins.
- ``standard``: exactly five wins; an overline does not (the game goes on).
- ``renju``: white wins with five or more; black wins with exactly five, and a black
  move that makes no five but an overline, a double four or a double three is
  forbidden (black loses). A four is a line of four that one more stone turns into
  exactly five; a straight four has two such points. A three is a line that one more
  stone turns into a straight four, at a point that is not itself forbidden (checked
  recursively). Two fours in one line (``X.XXX.X``) are a double four.

  Where the recursive rule leaves a choice, this module decides as the Piskvork
  referee does (the PyPI ``renju`` package 0.1.0 is a port of it, and the golden file
  ``tests/data/renju_forbidden_piskvork.jsonl`` comes from that package): a
  straight-four point where black would make a five in another line does not make a
  three, so such a three does not count towards a double three. The unit tests check
  every point of the golden file's 300 positions against this module.
"""

from __future__ import annotations

EMPTY, BLACK, WHITE = 0, 1, 2
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
RULES = ("freestyle", "standard", "renju")
# Gomocup's INFO rule bitmask for each rule (1 exactly five, 4 renju).
RULE_BITMASK = {"freestyle": 0, "standard": 1, "renju": 4}
# Forbidden kinds, numbered as the golden file numbers them.
DOUBLE_THREE, DOUBLE_FOUR, OVERLINE = 1, 2, 3
# How deep the check of a three's straight-four point may nest.
MAX_DEPTH = 12
KIND_NAMES = {DOUBLE_THREE: "double-three", DOUBLE_FOUR: "double-four", OVERLINE: "overline"}


def other(colour: int) -> int:
    return WHITE if colour == BLACK else BLACK


def to_notation(point: tuple[int, int], size: int) -> str:
    """Protocol (x, y) -> project notation, e.g. (7, 7) on 15x15 -> 'h8'."""
    x, y = point
    return f"{chr(ord('a') + x)}{size - y}"


def from_notation(name: str, size: int) -> tuple[int, int]:
    """Project notation -> protocol (x, y); raises ValueError off the board."""
    name = name.strip().lower()
    if len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
        raise ValueError(f"'{name}' is not a point like h8")
    x, row = ord(name[0]) - ord("a"), int(name[1:])
    if not (0 <= x < size and 1 <= row <= size):
        raise ValueError(f"'{name}' is off the {size}x{size} board")
    return x, size - row


class Board:
    """A square board of stones (EMPTY / BLACK / WHITE), indexed by protocol (x, y)."""

    def __init__(self, size: int):
        if not 5 <= size <= 26:
            raise ValueError(f"board size {size} is outside 5..26")
        self.size = size
        self.cells = [[EMPTY] * size for _ in range(size)]

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    def get(self, x: int, y: int) -> int | None:
        """The stone at (x, y), or None off the board."""
        return self.cells[y][x] if self.on_board(x, y) else None

    def set(self, x: int, y: int, stone: int) -> None:
        self.cells[y][x] = stone

    def is_full(self) -> bool:
        return all(c != EMPTY for row in self.cells for c in row)

    def run(self, x: int, y: int, dx: int, dy: int, colour: int) -> tuple[int, int]:
        """The unbroken run of `colour` through (x, y) (which must hold `colour`) along
        (dx, dy): returns (start offset <= 0, end offset >= 0) from (x, y)."""
        lo = 0
        while self.get(x + (lo - 1) * dx, y + (lo - 1) * dy) == colour:
            lo -= 1
        hi = 0
        while self.get(x + (hi + 1) * dx, y + (hi + 1) * dy) == colour:
            hi += 1
        return lo, hi

    def run_lengths(self, x: int, y: int, colour: int) -> list[int]:
        """Length of the run through (x, y) in each of the four directions."""
        out = []
        for dx, dy in DIRECTIONS:
            lo, hi = self.run(x, y, dx, dy, colour)
            out.append(hi - lo + 1)
        return out


def wins(board: Board, x: int, y: int, colour: int, rule: str) -> bool:
    """Whether the stone of `colour` just placed at (x, y) completes a winning five."""
    lengths = board.run_lengths(x, y, colour)
    exact = rule == "standard" or (rule == "renju" and colour == BLACK)
    return any(n == 5 for n in lengths) if exact else any(n >= 5 for n in lengths)


def _line_points(board: Board, x: int, y: int, dx: int, dy: int, reach: int):
    """Empty points on the line through (x, y) within `reach` steps, with their offset."""
    for k in range(-reach, reach + 1):
        if k and board.get(x + k * dx, y + k * dy) == EMPTY:
            yield k, (x + k * dx, y + k * dy)


def _fours_in_line(board: Board, x: int, y: int, dx: int, dy: int) -> int:
    """How many fours the black stone at (x, y) is part of along (dx, dy).

    The five points are the empty points that would make exactly five with it; a
    straight four has two, five apart, and counts once; any other five point is a four
    of its own (so X.XXX.X through the middle stone counts two)."""
    five_points = []
    for k, (qx, qy) in _line_points(board, x, y, dx, dy, 4):
        board.set(qx, qy, BLACK)
        lo, hi = board.run(x, y, dx, dy, BLACK)
        board.set(qx, qy, EMPTY)
        if hi - lo + 1 == 5:
            five_points.append(k)
    straight = sum(1 for a in five_points for b in five_points if b - a == 5)
    return len(five_points) - straight


def _is_straight_four(board: Board, x: int, y: int, dx: int, dy: int) -> bool:
    """Whether the black run through (x, y) along (dx, dy) is a straight four: four
    stones, both ends empty, and each end making exactly five (no black stone beyond)."""
    lo, hi = board.run(x, y, dx, dy, BLACK)
    if hi - lo + 1 != 4:
        return False
    for end, beyond in ((lo - 1, lo - 2), (hi + 1, hi + 2)):
        if board.get(x + end * dx, y + end * dy) != EMPTY:
            return False
        if board.get(x + beyond * dx, y + beyond * dy) == BLACK:
            return False
    return True


def _is_three_in_line(board: Board, x: int, y: int, dx: int, dy: int, depth: int) -> bool:
    """Whether the black stone at (x, y) makes a three along (dx, dy): some empty point
    turns the line into a straight four that contains (x, y), and that point is neither
    forbidden nor a five (see the module docs)."""
    for _, (qx, qy) in _line_points(board, x, y, dx, dy, 4):
        board.set(qx, qy, BLACK)
        lo, hi = board.run(x, y, dx, dy, BLACK)
        joined = any((x + k * dx, y + k * dy) == (qx, qy) for k in range(lo, hi + 1))
        straight = joined and _is_straight_four(board, x, y, dx, dy)
        board.set(qx, qy, EMPTY)
        if straight and _forbidden_or_five(board, qx, qy, depth + 1) == 0:
            return True
    return False


def _forbidden_or_five(board: Board, x: int, y: int, depth: int) -> int:
    """Like forbidden_kind, but a five at (x, y) answers -1 (used for the straight-four
    points of threes, where a five does not count as available)."""
    board.set(x, y, BLACK)
    try:
        lengths = board.run_lengths(x, y, BLACK)
        if any(n == 5 for n in lengths):
            return -1
        if any(n >= 6 for n in lengths):
            return OVERLINE
        if sum(_fours_in_line(board, x, y, dx, dy) for dx, dy in DIRECTIONS) >= 2:
            return DOUBLE_FOUR
        if depth > MAX_DEPTH:
            # Threes nested this deep do not occur in play; stop rather than explode.
            return 0
        threes = 0
        for dx, dy in DIRECTIONS:
            if _is_three_in_line(board, x, y, dx, dy, depth):
                threes += 1
                if threes >= 2:
                    return DOUBLE_THREE
        return 0
    finally:
        board.set(x, y, EMPTY)


def forbidden_kind(board: Board, x: int, y: int) -> int:
    """0 when a black stone may be played on the empty point (x, y) under renju, else the
    kind: DOUBLE_THREE (1), DOUBLE_FOUR (2) or OVERLINE (3). A move that makes exactly
    five is never forbidden. Priority as the Piskvork referee's: overline, then double
    four, then double three."""
    if board.get(x, y) != EMPTY:
        raise ValueError(f"({x}, {y}) is not an empty point")
    return max(_forbidden_or_five(board, x, y, 0), 0)
