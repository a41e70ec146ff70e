"""Tile notations used by the arena.

riichienv numbers the 136 physical tiles 0..135: kind = id // 4 in the 34-kind order
1m..9m, 1p..9p, 1s..9s, 1z..7z, and the red fives are ids 16 (0m), 52 (0p) and 88 (0s)
(riichienv.convert). Its MJAI events name tiles ``1m``..``9s``, ``5mr`` for a red five
and ``E S W N P F C`` for the honours. gameai reads mpsz with ``0`` for a red five.
"""

from __future__ import annotations

RED_IDS = (16, 52, 88)
SUITS = "mpsz"
MJAI_HONOURS = ("E", "S", "W", "N", "P", "F", "C")


def kind_of(tile_id: int) -> int:
    return tile_id // 4


def is_red(tile_id: int) -> bool:
    return tile_id in RED_IDS


def kind_name(kind: int) -> str:
    """34-kind index -> mpsz of one tile, e.g. 4 -> "5m", 27 -> "1z"."""
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


def id_name(tile_id: int) -> str:
    """136 id -> mpsz of one tile, red fives as 0 ("0m")."""
    if is_red(tile_id):
        return f"0{SUITS[tile_id // 36]}"
    return kind_name(kind_of(tile_id))


def mjai_kind(name: str) -> tuple[int, bool]:
    """MJAI tile name -> (34-kind, is red). "5mr" -> (4, True), "E" -> (27, False)."""
    if name in MJAI_HONOURS:
        return 27 + MJAI_HONOURS.index(name), False
    red = name.endswith("r")
    if red:
        name = name[:-1]
    return int(name[0]) - 1 + 9 * "mps".index(name[1]), red


def mjai_mpsz(name: str) -> str:
    """MJAI tile name -> mpsz with red fives as 0."""
    kind, red = mjai_kind(name)
    return f"0{SUITS[kind // 9]}" if red else kind_name(kind)


def mpsz_kind(tile: str) -> tuple[int, bool]:
    """One mpsz tile ("5m", "0p", "7z") -> (34-kind, is red)."""
    digit, suit = int(tile[0]), tile[1].lower()
    red = digit == 0
    return (4 if red else digit - 1) + 9 * SUITS.index(suit), red


def split_mpsz(text: str) -> list[str]:
    """ "123m0p" -> ["1m", "2m", "3m", "0p"]."""
    out: list[str] = []
    digits: list[str] = []
    for ch in text:
        if ch.isdigit():
            digits.append(ch)
        elif ch.lower() in SUITS:
            out.extend(d + ch.lower() for d in digits)
            digits = []
        elif not ch.isspace():
            raise ValueError(f"bad mpsz character {ch!r} in {text!r}")
    if digits:
        raise ValueError(f"digits without a suit in {text!r}")
    return out


def join_mpsz(tiles: list[str]) -> str:
    """["1m", "0m", "2p"] -> "10m2p": grouped by suit in m p s z order, ranks ascending,
    a red five right after the plain fives ("50m")."""
    def order(t: str) -> tuple[int, float]:
        digit = int(t[0])
        return SUITS.index(t[1]), 5.5 if digit == 0 else digit

    out = []
    for suit in SUITS:
        group = sorted((t for t in tiles if t[1] == suit), key=order)
        if group:
            out.append("".join(t[0] for t in group) + suit)
    return "".join(out)


def ids_mpsz(tile_ids) -> str:
    return join_mpsz([id_name(t) for t in tile_ids])


def counts34(tile_ids) -> list[int]:
    counts = [0] * 34
    for t in tile_ids:
        counts[kind_of(t)] += 1
    return counts


def dora_of(indicator_kind: int) -> int:
    """The dora shown by an indicator: the next tile of its suit (9 -> 1), winds
    E S W N cyclic, dragons P F C cyclic."""
    if indicator_kind < 27:
        base = indicator_kind - indicator_kind % 9
        return base + (indicator_kind % 9 + 1) % 9
    if indicator_kind < 31:
        return 27 + (indicator_kind - 27 + 1) % 4
    return 31 + (indicator_kind - 31 + 1) % 3
