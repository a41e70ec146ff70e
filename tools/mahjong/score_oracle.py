#!/usr/bin/env python3
"""Random riichi winning hands scored by PyPI `mahjong` 2.1.0: the scorer's oracle.

Writes one JSON object per line: the hand as `ScoreMahjongHand` takes it (mpsz, red
fives as 0) and the `mahjong` package's `HandCalculator` answer under Tenhou's options
(open tanyao, three red fives, no double yakuman, counted yakuman limited to one, no
kiriage, 2 fu for an open pinfu-shaped ron, 20 fu pinfu tsumo, no renhou). The hands are
drawn to cover what scoring turns on: closed and open hands, every meld kind, riichi
and its flags, self-draw and discard, dora and ura dora, red fives, seven pairs,
thirteen orphans, flushes and honour-heavy hands (where the yakuman are), and some
complete hands without a yaku. A share of the hands (`--rare`, 20% by default) is drawn
for rare cases: nine gates, four and three kans, big and little four winds, ryanpeikou
(also seven pairs), runs in one suit (multi-sided pinfu waits, kanchan-or-ryanmen
readings), closed one-suit hands with dora pointing at them (counted yakuman), and the
rare flags (double riichi with ippatsu, rinshan, chankan, haitei, houtei, tenhou,
chiihou) at high odds, each only where the rules allow it.

This is an independent source: the `mahjong` package shares no code with the engine.
`tests/mahjong_scoring.rs` compares every line with `gameai::mahjong::scoring`.

    python3 -m venv /tmp/mj && /tmp/mj/bin/pip install mahjong==2.1.0
    /tmp/mj/bin/python tools/mahjong/score_oracle.py --hands 6000 --seed 1 \
        --out tests/data/riichi_scores_mahjong.jsonl
"""

import argparse
import json
import random

from mahjong.constants import EAST, NORTH, SOUTH, WEST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld

WINDS = [EAST, SOUTH, WEST, NORTH]
SUITS = "mps"


def kind_name(k, red=False):
    if k >= 27:
        return f"{k - 27 + 1}z"
    rank = k % 9 + 1
    return f"{0 if red else rank}{SUITS[k // 9]}"


def mpsz(tiles):
    """(kind, red) pairs to mpsz, by suit in m p s z order, red fives as 0."""
    out = ""
    for s, letter in enumerate("mpsz"):
        if s < 3:
            digits = sorted(("0" if red else str(k % 9 + 1)) for k, red in tiles if k < 27 and k // 9 == s)
        else:
            digits = sorted(str(k - 26) for k, _ in tiles if k >= 27)
        if digits:
            out += "".join(digits) + letter
    return out


class Deck:
    """The 136 tiles; copy 0 of each five is the red one."""

    def __init__(self):
        self.used = [[False] * 4 for _ in range(34)]

    def left(self, k):
        return sum(not u for u in self.used[k])

    def take(self, k, red=None):
        """Take a copy of kind k; red=True takes the red five, False avoids it."""
        order = [0, 1, 2, 3]
        if k < 27 and k % 9 == 4:
            if red is True:
                order = [0]
            elif red is False:
                order = [1, 2, 3]
        for c in order:
            if not self.used[k][c]:
                self.used[k][c] = True
                return k * 4 + c
        return None


def is_red(t136):
    return t136 in (16, 52, 88)


def allowed_kinds(rng):
    mode = rng.random()
    if mode < 0.15:  # one suit, maybe honours: flushes, nine gates, straights
        s = rng.randrange(3)
        kinds = list(range(9 * s, 9 * s + 9))
        if rng.random() < 0.5:
            kinds += list(range(27, 34))
        return kinds
    if mode < 0.25:  # honour-heavy: yakuhai, winds, dragons, all honours
        return list(range(27, 34)) + [rng.randrange(27) for _ in range(3)]
    if mode < 0.30:  # terminals and honours: chanta, honroutou, chinroutou
        return [0, 8, 9, 17, 18, 26] + (list(range(27, 34)) if rng.random() < 0.5 else [])
    if mode < 0.33:  # all green
        return [19, 20, 21, 23, 25, 32]
    return list(range(34))


def regular_sets(rng, deck):
    kinds = allowed_kinds(rng)
    pair = None
    for _ in range(50):
        k = rng.choice(kinds)
        if deck.left(k) >= 2:
            pair = k
            break
    if pair is None:
        return None
    tiles_pair = [deck.take(pair), deck.take(pair)]
    sets = []
    for _ in range(200):
        if len(sets) == 4:
            break
        kind = rng.choice(kinds)
        r = rng.random()
        if r < 0.55 and kind < 27 and kind % 9 <= 6:
            ks = [kind, kind + 1, kind + 2]
            if all(deck.left(x) >= 1 for x in ks):
                sets.append(("seq", [deck.take(x) for x in ks]))
        elif r < 0.9:
            if deck.left(kind) >= 3:
                sets.append(("trip", [deck.take(kind) for _ in range(3)]))
        else:
            if deck.left(kind) == 4:
                sets.append(("quad", [deck.take(kind) for _ in range(4)]))
    if len(sets) < 4:
        return None
    return tiles_pair, sets


def build_regular(rng, deck):
    got = regular_sets(rng, deck)
    if got is None:
        return None
    pair, sets = got
    return call_sets(rng, pair, sets, rng.random() < 0.45)


def call_sets(rng, pair, sets, closed):
    """The pair and sets as concealed tiles and melds: each set called with 60% odds in
    an open hand, each quad a closed, open or added kan."""
    concealed, melds, ours = list(pair), [], []
    for kind, tiles in sets:
        call = (not closed) and rng.random() < 0.6
        if kind == "quad":
            r = rng.random()
            if closed or r < 0.4:
                melds.append(Meld(Meld.KAN, tiles, opened=False))
                ours.append(("closed_kan", tiles))
            elif r < 0.7:
                melds.append(Meld(Meld.KAN, tiles, opened=True, called_tile=tiles[0]))
                ours.append(("open_kan", tiles))
            else:
                melds.append(Meld(Meld.SHOUMINKAN, tiles, opened=True, called_tile=tiles[0]))
                ours.append(("added_kan", tiles))
        elif call:
            melds.append(Meld(Meld.CHI if kind == "seq" else Meld.PON, tiles, called_tile=tiles[0]))
            ours.append(("chi" if kind == "seq" else "pon", tiles))
        else:
            concealed += tiles
    return concealed, melds, ours


def take_sets(deck, spec):
    """Sets named by kinds, ("seq", k) / ("trip", k) / ("quad", k), taken from the deck."""
    sets = []
    for kind, k in spec:
        ks = [k, k + 1, k + 2] if kind == "seq" else [k] * (3 if kind == "trip" else 4)
        tiles = [deck.take(x) for x in ks]
        if any(t is None for t in tiles):
            return None
        sets.append((kind, tiles))
    return sets


def rare_spec(rng):
    """A pair kind, sets and whether the hand stays closed, for a shape the uniform mix
    rarely draws: nine gates, four and three kans, big and little four winds,
    ryanpeikou (which also reads as seven pairs), sequence runs in one suit (pinfu with
    multi-sided waits such as 23456 on 1-4-7, kanchan-or-ryanmen readings, iipeikou),
    and closed one-suit hands that reach a counted yakuman with dora."""
    s = 9 * rng.randrange(3)
    shape = rng.randrange(8)
    if shape == 0:  # nine gates: 1112345678999 plus one tile of the suit
        counts = [3, 1, 1, 1, 1, 1, 1, 1, 3]
        counts[rng.randrange(9)] += 1
        return "tiles", [s + i for i in range(9) for _ in range(counts[i])], True
    if shape in (1, 2):  # four or three kans
        n = 4 if shape == 1 else 3
        kinds = rng.sample(range(34), n + 2)
        sets = [("quad", k) for k in kinds[:n]]
        if n == 3:
            o = kinds[n]
            sets.append(("seq", o) if o < 27 and o % 9 <= 6 and rng.random() < 0.5 else ("trip", o))
        return kinds[-1], sets, rng.random() < 0.3
    if shape == 3:  # big or little four winds
        winds = [27, 28, 29, 30]
        rng.shuffle(winds)
        if rng.random() < 0.5:
            other = rng.choice([k for k in range(34) if k not in winds])
            return other, [("trip", w) for w in winds], rng.random() < 0.4
        o = rng.randrange(27)
        last = ("seq", o - o % 9 + min(o % 9, 6)) if rng.random() < 0.5 else ("trip", o)
        return winds[3], [("trip", w) for w in winds[:3]] + [last], rng.random() < 0.4
    if shape == 4:  # ryanpeikou: two doubled sequences
        a, b = rng.randrange(7), rng.randrange(7)
        s2 = 9 * rng.randrange(3)
        pair = rng.choice([k for k in range(34) if k not in (s + a, s2 + b)])
        return pair, [("seq", s + a)] * 2 + [("seq", s2 + b)] * 2, True
    if shape in (5, 6):  # overlapping runs in one suit, mostly closed
        starts = [rng.randrange(7) for _ in range(4)]
        sets = [("seq", s + x) for x in starts[:3]]
        sets.append(("seq", s + starts[3]) if rng.random() < 0.7 else ("seq", 9 * rng.randrange(3) + starts[3]))
        pair = s + rng.randrange(9) if rng.random() < 0.5 else rng.randrange(34)
        return pair, sets, rng.random() < 0.8
    # a closed hand of one suit: chinitsu, with dora pointing at it (kazoe yakuman)
    sets = [("seq", s + rng.randrange(7)) if rng.random() < 0.7 else ("trip", s + rng.randrange(9)) for _ in range(4)]
    return s + rng.randrange(9), sets, True


def build_rare(rng, deck):
    pair, spec, closed = rare_spec(rng)
    if pair == "tiles":
        tiles = [deck.take(k) for k in spec]
        return None if any(t is None for t in tiles) else (tiles, [], [])
    sets = take_sets(deck, spec)
    tiles_pair = [deck.take(pair), deck.take(pair)]
    if sets is None or any(t is None for t in tiles_pair):
        return None
    return call_sets(rng, tiles_pair, sets, closed)


def build_seven_pairs(rng, deck):
    pool = list(range(34))
    rng.shuffle(pool)
    pick = [k for k in pool if deck.left(k) >= 2][:7]
    if rng.random() < 0.05:  # a hand with four of a kind: not seven pairs under riichi
        pick = pick[:5] + [pick[5]]
        tiles = [deck.take(k) for k in pick for _ in range(2)] + [deck.take(pick[5]), deck.take(pick[5])]
    else:
        tiles = [deck.take(k) for k in pick for _ in range(2)]
    if any(t is None for t in tiles):
        return None
    return tiles, [], []


def build_orphans(rng, deck):
    orphans = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
    tiles = [deck.take(k) for k in orphans] + [deck.take(rng.choice(orphans))]
    return tiles, [], []


def all_tiles_of(concealed, ours):
    return concealed + [t for _, ts in ours for t in ts]


def before(k):
    """The dora indicator of kind k: the kind before it in its cycle."""
    if k < 27:
        return k - 1 if k % 9 else k + 8
    if k < 31:
        return 30 if k == 27 else k - 1
    return 33 if k == 31 else k - 1


def boost_flags(rng, flags, has_open, has_kan, melds, seat):
    """The rare situations at high odds, each only where the rules allow it: double
    riichi with ippatsu, rinshan after a kan, chankan, haitei / houtei, and tenhou /
    chiihou on a closed self-draw without kans."""
    tsumo = flags["self_draw"]
    if not has_open and rng.random() < 0.5:
        flags["riichi"] = True
        flags["double_riichi"] = rng.random() < 0.4
        flags["ippatsu"] = rng.random() < 0.5
    if tsumo and has_kan and rng.random() < 0.4:
        flags["rinshan"] = True
        flags["haitei"] = False
    if not tsumo:
        flags["chankan"] = rng.random() < 0.15
        flags["houtei"] = not flags["chankan"] and rng.random() < 0.2
    elif not flags["rinshan"]:
        flags["haitei"] = rng.random() < 0.2
    if tsumo and not melds and rng.random() < 0.15:
        flags["tenhou" if seat == 0 else "chiihou"] = True
    if flags["tenhou"] or flags["chiihou"]:  # the first draw: no riichi, not the last tile
        for k in ("riichi", "double_riichi", "ippatsu", "haitei"):
            flags[k] = False


def make_case(rng, rare=False):
    deck = Deck()
    r = rng.random()
    built = (
        build_rare(rng, deck) if rare and r < 0.8
        else build_orphans(rng, deck) if r < 0.03
        else build_seven_pairs(rng, deck) if r < 0.12
        else build_regular(rng, deck)
    )
    if built is None:
        return None
    concealed, melds, ours = built
    has_open = any(m.opened for m in melds)
    has_kan = any(k.endswith("kan") for k, _ in ours)
    win = rng.choice(concealed)
    tsumo = rng.random() < 0.4
    riichi = (not has_open) and rng.random() < 0.5
    flags = {
        "self_draw": tsumo,
        "riichi": riichi,
        "double_riichi": riichi and rng.random() < 0.1,
        "ippatsu": riichi and rng.random() < 0.2,
        "rinshan": tsumo and has_kan and rng.random() < 0.3,
        "chankan": (not tsumo) and rng.random() < 0.03,
        "haitei": False,
        "houtei": (not tsumo) and rng.random() < 0.05,
        "tenhou": False,
        "chiihou": False,
    }
    flags["haitei"] = tsumo and not flags["rinshan"] and rng.random() < 0.05
    seat = rng.randrange(4)
    round_wind = rng.randrange(4)
    if tsumo and not melds and not riichi and rng.random() < 0.02:
        flags["tenhou" if seat == 0 else "chiihou"] = True
        flags["haitei"] = False  # the first draw is never the last tile of the wall
    if rare:
        boost_flags(rng, flags, has_open, has_kan, melds, seat)
        riichi = flags["riichi"]
    n_ind = 1 + sum(1 for k, _ in ours if k.endswith("kan"))
    if rare:  # indicators pointing at the hand's own tiles: many dora, counted yakuman
        kinds = [t // 4 for t in all_tiles_of(concealed, ours)]
        draw = lambda: deck.take(before(rng.choice(kinds)) if rng.random() < 0.7 else rng.randrange(34))  # noqa: E731
    else:
        draw = lambda: deck.take(rng.randrange(34))  # noqa: E731
    dora = [t for t in (draw() for _ in range(n_ind)) if t is not None]
    ura = [t for t in (draw() for _ in range(n_ind)) if t is not None] if riichi else []

    all_tiles = concealed + [t for _, ts in ours for t in ts]
    config = HandConfig(
        is_tsumo=tsumo,
        is_riichi=riichi,
        is_ippatsu=flags["ippatsu"],
        is_rinshan=flags["rinshan"],
        is_chankan=flags["chankan"],
        is_haitei=flags["haitei"],
        is_houtei=flags["houtei"],
        is_daburu_riichi=flags["double_riichi"],
        is_tenhou=flags["tenhou"],
        is_chiihou=flags["chiihou"],
        player_wind=WINDS[seat],
        round_wind=WINDS[round_wind],
        options=OptionalRules(
            has_open_tanyao=True,
            has_aka_dora=True,
            has_double_yakuman=False,
            kazoe_limit=HandConstants.KAZOE_LIMITED,
            kiriage=False,
            fu_for_open_pinfu=True,
            fu_for_pinfu_tsumo=False,
            renhou_as_yakuman=False,
        ),
    )
    res = HandCalculator.estimate_hand_value(
        all_tiles, win, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura
    )
    as_pairs = lambda ts: [(t // 4, is_red(t)) for t in ts]  # noqa: E731
    case = {
        "hand": mpsz(as_pairs(concealed)),
        "melds": [{"kind": k, "tiles": mpsz(as_pairs(ts))} for k, ts in ours],
        "win_tile": kind_name(win // 4),
        "seat_wind": f"{seat + 1}z",
        "round_wind": f"{round_wind + 1}z",
        "dora_indicators": mpsz(as_pairs(dora)),
        "ura_dora_indicators": mpsz(as_pairs(ura)),
        **flags,
    }
    if res.error:
        expect = {"error": res.error}
    else:
        expect = {
            "han": res.han,
            "fu": res.fu,
            "main": res.cost["main"],
            "additional": res.cost["additional"],
            "total": res.cost["total"],
            "yaku": sorted(
                [y.name, (y.han_open if res.is_open_hand else y.han_closed)] for y in res.yaku
            ),
        }
    return {"case": case, "mahjong": expect}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument(
        "--rare", type=float, default=0.2,
        help="share of hands drawn for rare cases: rare shapes (80%% of them) and rare flags at high odds",
    )
    args = ap.parse_args()
    rng = random.Random(args.seed)
    written = 0
    with open(args.out, "w") as f:
        while written < args.hands:
            case = make_case(rng, rng.random() < args.rare)
            if case is None:
                continue
            f.write(json.dumps(case, sort_keys=True) + "\n")
            written += 1
    print(f"wrote {written} hands to {args.out}")


if __name__ == "__main__":
    main()
