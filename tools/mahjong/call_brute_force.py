#!/usr/bin/env python3
"""Brute force of a mahjong call's win probability, in exact fractions.

The oracle of ``tests/mahjong_suggest_api.rs`` (``717/7381``): written apart from the
engine (its own tile parser, its own win check, no table, no search), it enumerates
every draw sequence from the unseen pool as it shrinks and takes, after every draw
that does not win, the best of every discard.

The model is the solitaire model of DESIGN.md and README ("Mahjong"): the player
calls the offered tile into ``--meld`` (pon or chi), discards one tile, then draws
``--draws`` tiles one at a time; each draw wins if the concealed tiles with the meld
make four sets and a pair (self-draw only; the seven-pairs and thirteen-orphans forms
need a closed hand, so they never apply after a call). Otherwise the player discards a
tile of its choice and draws again. The unseen pool is every tile the player has not
seen: the set (136 tiles, or 108 without honours) minus the 13 in its hand, the
offered tile and ``--visible``; each draw is uniform over what is left of it; the
player's own discards leave the pool for good (they were in its hand). The figure is
the best first discard's win probability under the best later discards.

Usage (the test's case; about a second)::

    python3 tools/mahjong/call_brute_force.py --hand 55m456p789s2346s7z \\
        --offered 5m --meld 555m --draws 2

prints every first discard with its probability, the best first: for this case
``7z 717/7381 = 0.0971413087657499``. Unit tests: ``python3 -m unittest discover -s
tools/mahjong`` (``test_call_brute_force.py``; CI runs them in ``.ci/arena.sh``).
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from functools import lru_cache

SUITS = "mpsz"
KINDS = 34


def kind_name(k: int) -> str:
    return f"{k % 9 + 1}{SUITS[k // 9]}"


def parse(text: str) -> list[int]:
    """Copies per kind (0..33: 1m..9m, 1p..9p, 1s..9s, 1z..7z) of mpsz text; 0 is a red
    five, counted as a five."""
    counts = [0] * KINDS
    digits: list[int] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits.append(5 if ch == "0" else int(ch))
        elif ch in SUITS:
            if not digits:
                raise ValueError(f"{text!r}: suit {ch!r} without numbers")
            suit = SUITS.index(ch)
            for d in digits:
                if suit == 3 and d > 7:
                    raise ValueError(f"{text!r}: there is no {d}z")
                counts[suit * 9 + d - 1] += 1
            digits = []
        else:
            raise ValueError(f"{text!r}: unexpected {ch!r}")
    if digits:
        raise ValueError(f"{text!r}: numbers without a suit")
    if any(c > 4 for c in counts):
        raise ValueError(f"{text!r}: more than four copies of a tile")
    return counts


@lru_cache(maxsize=None)
def sets_and_pair(counts: tuple[int, ...], pair_left: bool) -> bool:
    """Whether ``counts`` splits into sets (three of a kind, or three in a row within a
    suit) and, if ``pair_left``, exactly one pair."""
    k = next((i for i, c in enumerate(counts) if c), None)
    if k is None:
        return not pair_left
    c = list(counts)
    # The lowest tile present must belong to a set or the pair starting at it.
    if c[k] >= 3:
        c[k] -= 3
        if sets_and_pair(tuple(c), pair_left):
            return True
        c[k] += 3
    if pair_left and c[k] >= 2:
        c[k] -= 2
        if sets_and_pair(tuple(c), False):
            return True
        c[k] += 2
    if k < 27 and k % 9 <= 6 and c[k + 1] and c[k + 2]:
        c[k] -= 1
        c[k + 1] -= 1
        c[k + 2] -= 1
        if sets_and_pair(tuple(c), pair_left):
            return True
    return False


def wins(concealed: tuple[int, ...]) -> bool:
    """A 3n+2 concealed part completes the hand (the melds are sets already)."""
    return sum(concealed) % 3 == 2 and sets_and_pair(concealed, True)


@lru_cache(maxsize=None)
def win_chance(hand: tuple[int, ...], pool: tuple[int, ...], draws: int) -> Fraction:
    """Win probability of the 3n+1 concealed ``hand`` with ``draws`` draws left from
    ``pool``, discarding the best tile after each draw that does not win."""
    total = sum(pool)
    if draws == 0 or total == 0:
        return Fraction(0)
    p = Fraction(0)
    for t, n in enumerate(pool):
        if n == 0:
            continue
        drawn = list(hand)
        drawn[t] += 1
        if wins(tuple(drawn)):
            p += Fraction(n, total)
            continue
        if draws == 1:
            continue
        left = list(pool)
        left[t] -= 1
        best = max(after_discard(drawn, d, tuple(left), draws - 1) for d in kinds_held(drawn))
        p += Fraction(n, total) * best
    return p


def kinds_held(counts: list[int] | tuple[int, ...]) -> list[int]:
    return [k for k, c in enumerate(counts) if c]


def after_discard(hand: list[int], d: int, pool: tuple[int, ...], draws: int) -> Fraction:
    kept = list(hand)
    kept[d] -= 1
    return win_chance(tuple(kept), pool, draws)


def call_figures(
    hand: str, offered: str, meld: str, draws: int, visible: str = "", honours: bool = True
) -> list[tuple[str, Fraction]]:
    """Every first discard after the call with its win probability, best first (ties
    in tile order)."""
    h, o, m, v = parse(hand), parse(offered), parse(meld), parse(visible)
    if sum(h) != 13:
        raise ValueError(f"--hand holds {sum(h)} tiles, not 13")
    if sum(o) != 1:
        raise ValueError("--offered is one tile")
    if sum(m) != 3 or any(m[k] < o[k] for k in range(KINDS)):
        raise ValueError("--meld is three tiles, the offered one among them")
    taken = [m[k] - o[k] for k in range(KINDS)]
    if any(taken[k] > h[k] for k in range(KINDS)):
        raise ValueError("the meld's other two tiles must come from --hand")
    if not is_set(m):
        raise ValueError("--meld is not a set (three of a kind or a run in one suit)")
    kinds = KINDS if honours else 27
    pool = [
        (4 if k < kinds else 0) - h[k] - o[k] - v[k] for k in range(KINDS)
    ]
    if any(n < 0 for n in pool):
        raise ValueError("more than four copies seen of some tile")
    concealed = [h[k] - taken[k] for k in range(KINDS)]
    out = [
        (kind_name(d), after_discard(concealed, d, tuple(pool), draws))
        for d in kinds_held(concealed)
    ]
    out.sort(key=lambda x: -x[1])
    return out


def is_set(m: list[int]) -> bool:
    ks = kinds_held(m)
    if len(ks) == 1:
        return True
    return len(ks) == 3 and ks[0] < 27 and ks[0] % 9 <= 6 and ks == [ks[0], ks[0] + 1, ks[0] + 2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hand", required=True, help="the 13 tiles before the call, mpsz")
    ap.add_argument("--offered", required=True, help="the tile offered, e.g. 5m")
    ap.add_argument("--meld", required=True, help="the meld the call makes, e.g. 555m")
    ap.add_argument("--draws", type=int, required=True, help="draws left after the call")
    ap.add_argument("--visible", default="", help="other tiles seen, mpsz")
    ap.add_argument("--no-honours", action="store_true", help="a 108-tile set (SICHUAN)")
    a = ap.parse_args()
    figures = call_figures(a.hand, a.offered, a.meld, a.draws, a.visible, not a.no_honours)
    for name, p in figures:
        print(f"{name} {p.numerator}/{p.denominator} = {float(p)!r}")


if __name__ == "__main__":
    main()
