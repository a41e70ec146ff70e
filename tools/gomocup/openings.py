"""Opening positions for matches: fixed, reproducible, and played with both colours.

- ``canonical(size)``: the 26 three-stone openings of renju's opening rule, derived
  here from their definition rather than copied from a table: black's first stone on
  the centre point, white's second next to it orthogonally ("direct", 13 openings) or
  diagonally ("indirect", 13), black's third anywhere else in the 5x5 square around the
  centre, one opening per class of the mirror symmetry that keeps the first two stones
  in place (23 free points: 3 on the axis + 10 mirror pairs = 13 per family).
- ``random_openings(count, seed, size)``: seeded positions of four stones (two of each
  colour, black to move) in the 7x7 square around the centre, none equal to another
  under the board's rotations and reflections.
- ``match_openings(count, seed, size)``: the canonical 26 first, then random ones up to
  ``count``.

Some of these openings favour one side (several canonical ones are known black wins in
freestyle); a match plays each opening twice with the colours swapped, so that an
opening's bias falls on both engines alike.
"""

from __future__ import annotations

import random

from gomoku_rules import to_notation

Point = tuple[int, int]


def centre(size: int) -> Point:
    """The centre point in protocol coordinates ((7, 7) = h8 on 15x15)."""
    return size // 2, size // 2


def canonical(size: int) -> list[tuple[str, list[Point]]]:
    """The 26 canonical three-stone openings as (name, [black, white, black])."""
    cx, cy = centre(size)
    # Protocol y grows downwards, so "one up" is y - 1.
    families = {
        "direct": ((cx, cy - 1), lambda dx, dy: (-dx, dy)),       # mirror in the column
        "indirect": ((cx + 1, cy - 1), lambda dx, dy: (-dy, -dx)),  # mirror in the diagonal
    }
    out = []
    for family, (second, mirror) in families.items():
        seen = set()
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                third = (cx + dx, cy + dy)
                if third in ((cx, cy), second):
                    continue
                key = min((dx, dy), mirror(dx, dy))
                if key in seen:
                    continue
                seen.add(key)
                stones = [(cx, cy), second, third]
                out.append((f"{family} " + " ".join(to_notation(p, size) for p in stones), stones))
    return out


def _symmetries(size: int, stones: list[Point]) -> list[tuple[Point, ...]]:
    """The eight images of a stone list under rotations and reflections about the centre
    (colours kept: even indices black, odd white)."""
    cx, cy = centre(size)
    images = []
    for swap in (False, True):
        for sx in (1, -1):
            for sy in (1, -1):
                image = []
                for x, y in stones:
                    dx, dy = x - cx, y - cy
                    if swap:
                        dx, dy = dy, dx
                    image.append((cx + sx * dx, cy + sy * dy))
                blacks = tuple(sorted(image[0::2]))
                whites = tuple(sorted(image[1::2]))
                images.append(blacks + whites)
    return images


def random_openings(count: int, seed: int, size: int, stones: int = 4,
                    radius: int = 3, exclude: set | None = None) -> list[tuple[str, list[Point]]]:
    """`count` seeded random openings of `stones` stones in the central square."""
    rng = random.Random(seed)
    cx, cy = centre(size)
    seen = set(exclude or ())
    out = []
    attempts = 0
    while len(out) < count:
        attempts += 1
        if attempts > 1000 * (count + 1):
            raise ValueError(f"cannot find {count} distinct openings in a radius of {radius}")
        points: list[Point] = []
        while len(points) < stones:
            p = (cx + rng.randint(-radius, radius), cy + rng.randint(-radius, radius))
            if p not in points:
                points.append(p)
        key = min(_symmetries(size, points))
        if key in seen:
            continue
        seen.add(key)
        out.append(("random " + " ".join(to_notation(p, size) for p in points), points))
    return out


def match_openings(count: int, seed: int, size: int) -> list[tuple[str, list[Point]]]:
    """The canonical openings first, then seeded random four-stone ones, `count` in all."""
    fixed = canonical(size)[:count]
    taken = {min(_symmetries(size, stones)) for _, stones in fixed}
    extra = random_openings(max(0, count - len(fixed)), seed, size, exclude=taken)
    return fixed + extra
