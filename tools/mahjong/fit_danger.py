#!/usr/bin/env python3
"""Fits the danger model's parameters on the riichi arena's danger records and prints
its calibration on held-out hanchan.

Input: files written by ``riichi_arena.py --danger`` (JSONL, gzip when named .gz): one
record per discard with what the discarder saw and, as labels, each opponent's true
tenpai state and waits and who won on the discard (riichi/danger.py documents the
fields). Training and held-out files must come from disjoint walls (the tool refuses a
wall in both: riichienv deals kyoku k of seed s from the wall of seed s + k), and neither
from the seeds an evaluation arena reports.

Output: the service's parameter file, ``src/mahjong/table/danger_weights.json`` (format
in ``src/mahjong/table/weights.rs``; ``--base`` is read and its ``wait``, ``modifiers``
and ``tenpai`` sections replaced, ``value`` and ``push`` kept, ``source`` rewritten).

The model is the service's (``src/mahjong/table/{opponents,danger,safety}.rs``, written
here again from their documentation), per opponent i of the discarder:

1. ``P(tenpai_i)``: 1 in riichi or with four open melds; otherwise
   ``logistic(intercept + per_discard * river length + per_open_meld * open melds +
   per_tsumogiri_streak * min(trailing tsumogiri, 6))``. Fitted by Newton's method
   (IRLS, L2 penalty ``--l2`` on the slopes) on every (discard, opponent) pair of that
   kind, the label being riichienv's ``tenpai`` (the true hand waits on a kind).
2. ``P(the tile wins for i | tenpai_i)`` = (sum over wait shapes of weight x the shape's
   availability) x modifiers, capped at 1: 0 on a tile i is furiten on (the record's
   ``safe``: its river, every discard since its last one, since its riichi); for a number
   tile of rank r: ryanmen (r+1, r+2) unless r+3 is safe and ryanmen (r-2, r-1) unless
   r-3 is safe, kanchan (r-1, r+1), penchan (1, 2) for a 3 and (8, 9) for a 7, each
   weighted by min(u, 3) / 3 of every other tile of the shape (u = copies the discarder
   cannot see; its 14 tiles count as seen), shanpon weighted C(min(u, 3), 2) / 3 by the
   tile's own unseen copies, tanki when one is unseen; honours shanpon and tanki only.
   Modifiers: x ``riichi_matagi`` within 2 of i's riichi declaration tile (same suit),
   x ``early_near`` within 2 of a tile i threw from its hand among its first
   ``early_discards``, and with two or more open melds all of one suit x ``flush_suit``
   on that suit, x ``flush_other`` elsewhere.
   The six shape weights are fitted by maximum likelihood (projected Newton, weights
   >= 0) on the pairs whose opponent is truly tenpai, label: the discard dealt into i;
   then each modifier by a grid search of the same likelihood (two rounds); a modifier
   that fewer than 200 of those pairs carry keeps its base value.

A discard's predicted deal-in is the sum over opponents of P(tenpai_i) x P(wins | tenpai)
(the service's ``deal_in_probability``). The calibration table sorts held-out discards
into ten equal-count bins of that prediction and prints, per bin, the mean predicted and
the observed deal-in rate and the count; ``max_error`` is the largest |difference| over
bins holding at least ``--min-bin`` discards (the issue's goal: within 0.02 for bins of
500 or more). The same table is printed for the ``--base`` file's parameters.

Usage:
  fit_danger.py --train train.jsonl.gz [...] --held-out eval.jsonl.gz [...] \\
      --base src/mahjong/table/danger_weights.json --out new_weights.json [--json cal.json]
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import math
import sys

import numpy as np

SHAPES = ("ryanmen", "kanchan", "penchan", "shanpon", "tanki_number", "tanki_honour")
TENPAI = ("per_discard", "per_open_meld", "per_tsumogiri_streak")
MODIFIERS = ("riichi_matagi", "early_near", "flush_suit", "flush_other")
# A modifier is fitted only when this many training pairs (opponent tenpai) carry it.
MIN_FLAGGED = 200
SUITS = "mpsz"


# ----- reading ----------------------------------------------------------------------


def read_records(paths):
    """Records of every file in order. A file still being written (a run in progress:
    a gzip stream without its end, a last line cut short) yields its complete lines and
    a warning."""
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            try:
                for line in f:
                    if not line.endswith("\n"):
                        print(f"fit_danger: {path}: last line incomplete, left out", file=sys.stderr)
                        break
                    if line.strip():
                        yield json.loads(line)
            except EOFError:
                print(f"fit_danger: {path}: ends early (still being written?), complete lines used",
                      file=sys.stderr)


def kind(tile: str) -> int:
    digit = int(tile[0])
    return (4 if digit == 0 else digit - 1) + 9 * SUITS.index(tile[1])


def kinds_of(mpsz: str) -> list[int]:
    out, digits = [], []
    for ch in mpsz:
        if ch.isdigit():
            digits.append(ch)
        else:
            out.extend(kind(d + ch) for d in digits)
            digits = []
    return out


def river_tile(entry: str) -> tuple[int, bool]:
    """"5pt" -> (kind, tsumogiri)."""
    return kind(entry[:2]), "t" in entry[2:]


# ----- features -----------------------------------------------------------------------


def seen_counts(rec: dict) -> list[int]:
    """Copies the discarder sees per kind: its 14-tile hand, every river tile not
    called away, every meld, the dora indicators."""
    counts = [0] * 34
    for k in kinds_of(rec["hand"]) + kinds_of(rec["dora"]):
        counts[k] += 1
    for river in rec["rivers"]:
        for entry in river:
            if "c" not in entry[2:]:
                counts[kind(entry[:2])] += 1
    for melds in rec["melds"]:
        for m in melds:
            for k in kinds_of(m.split(":")[1].split(">")[0]):
                counts[k] += 1
    return counts


def open_melds(rec: dict, i: int) -> list[str]:
    return [m for m in rec["melds"][i] if not m.startswith("ankan")]


def tenpai_features(rec: dict, i: int) -> list[float] | None:
    """[river length, open melds, trailing tsumogiri (max 6)], None when the model says
    tenpai for sure (riichi, four open melds)."""
    opened = len(open_melds(rec, i))
    if rec["riichi"][i] or opened >= 4:
        return None
    river = rec["rivers"][i]
    streak = 0
    for entry in reversed(river):
        if not river_tile(entry)[1]:
            break
        streak += 1
    return [float(len(river)), float(opened), float(min(streak, 6))]


def availability(u: int) -> float:
    return min(u, 3) / 3


def shape_features(tile_kind: int, safe: set[int], unseen: list[int]) -> list[float] | None:
    """The availability-weighted count of each wait shape on the tile (SHAPES order);
    None when the opponent is furiten on it."""
    if tile_kind in safe:
        return None
    u = min(unseen[tile_kind], 3)
    pairs = (u * (u - 1) // 2) / 3
    f = [0.0] * 6
    f[3] = pairs
    if tile_kind >= 27:
        f[5] = 1.0 if u > 0 else 0.0
        return f
    f[4] = 1.0 if u > 0 else 0.0
    r = tile_kind % 9 + 1
    at = lambda rank: tile_kind + rank - r  # noqa: E731
    avail = lambda ranks: math.prod(availability(unseen[at(k)]) for k in ranks)  # noqa: E731
    if r <= 6 and at(r + 3) not in safe:
        f[0] += avail([r + 1, r + 2])
    if r >= 4 and at(r - 3) not in safe:
        f[0] += avail([r - 2, r - 1])
    if 2 <= r <= 8:
        f[1] += avail([r - 1, r + 1])
    if r == 3:
        f[2] += avail([1, 2])
    if r == 7:
        f[2] += avail([8, 9])
    return f


def modifier_flags(tile_kind: int, rec: dict, i: int, early_discards: int) -> tuple[bool, bool, int]:
    """(near the riichi declaration tile, near an early discard from the hand,
    flush: +1 the tile is in the flush suit, -1 it is not, 0 no flush)."""
    def near(other: int) -> bool:
        return (other < 27 and tile_kind < 27 and other // 9 == tile_kind // 9 and other != tile_kind
                and abs(other - tile_kind) <= 2)

    river = rec["rivers"][i]
    matagi = any("r" in e[2:] and near(kind(e[:2])) for e in river)
    early = any("t" not in e[2:] and near(kind(e[:2])) for e in river[:early_discards])
    suits = set()
    melds = open_melds(rec, i)
    for m in melds:
        k = kinds_of(m.split(":")[1].split(">")[0])[0]
        if k < 27:
            suits.add(k // 9)
    flush = 0
    if len(melds) >= 2 and len(suits) == 1:
        flush = 1 if tile_kind < 27 and tile_kind // 9 in suits else -1
    return matagi, early, flush


def pairs(records, early_discards: int):
    """Every (discard, opponent) pair: (record index, tenpai features or None, tenpai
    label, shape features or None, modifier flags, dealt into i)."""
    for n, rec in enumerate(records):
        seen = seen_counts(rec)
        unseen = [max(0, 4 - c) for c in seen]
        tile_kind = kind(rec["tile"])
        for i in (1, 2, 3):
            safe = set(kinds_of(rec["safe"][i]))
            yield (n, tenpai_features(rec, i), bool(rec["tenpai"][i]),
                   shape_features(tile_kind, safe, unseen),
                   modifier_flags(tile_kind, rec, i, early_discards), i in rec["dealt_in"])


# ----- the model ----------------------------------------------------------------------


def modifier_value(flags, mods: dict) -> float:
    matagi, early, flush = flags
    f = 1.0
    if matagi:
        f *= mods["riichi_matagi"]
    if early:
        f *= mods["early_near"]
    if flush == 1:
        f *= mods["flush_suit"]
    elif flush == -1:
        f *= mods["flush_other"]
    return f


def flagged(flags, name: str) -> int:
    """How many pairs a modifier applies to."""
    index, value = {"riichi_matagi": (0, True), "early_near": (1, True),
                    "flush_suit": (2, 1), "flush_other": (2, -1)}[name]
    return sum(1 for f in flags if f[index] == value)


def tenpai_probability(w: dict, feats) -> float:
    if feats is None:
        return 1.0
    t = w["tenpai"]
    z = t["intercept"] + sum(t[name] * v for name, v in zip(TENPAI, feats))
    return 1 / (1 + math.exp(-z))


def wait_probability(w: dict, shapes, flags) -> float:
    if shapes is None:
        return 0.0
    base = sum(w["wait"][name] * v for name, v in zip(SHAPES, shapes))
    return min(1.0, base * modifier_value(flags, w["modifiers"]))


# ----- fitting ----------------------------------------------------------------------


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float, iterations: int = 50):
    """Newton / IRLS for logistic regression with an intercept (not penalised)."""
    xs = np.hstack([np.ones((x.shape[0], 1)), x])
    w = np.zeros(xs.shape[1])
    penalty = np.full(xs.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(xs @ w)))
        grad = xs.T @ (p - y) + penalty * w
        hess = (xs * (p * (1 - p))[:, None]).T @ xs + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def bernoulli_loglik(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(np.sum(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_linear_bernoulli(x: np.ndarray, y: np.ndarray, start: np.ndarray, iterations: int = 100):
    """Maximum likelihood of y ~ Bernoulli(x @ w), w >= 0: projected Newton steps with
    backtracking (the probabilities kept in (0, 1))."""
    w = np.maximum(start.astype(float), 1e-6)
    best = bernoulli_loglik(x @ w, y)
    for _ in range(iterations):
        p = np.clip(x @ w, 1e-9, 1 - 1e-9)
        g = x.T @ (y / p - (1 - y) / (1 - p))
        h = (x * (y / p**2 + (1 - y) / (1 - p) ** 2)[:, None]).T @ x + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(h, g)
        t = 1.0
        while t > 1e-6:
            cand = np.maximum(w + t * step, 0.0)
            pc = x @ cand
            if np.all(pc < 1) and (bernoulli_loglik(pc, y) >= best):
                break
            t /= 2
        else:
            break
        gain = bernoulli_loglik(x @ cand, y) - best
        w, best = cand, best + gain
        if gain < 1e-7:
            break
    return w


def fit(records, base: dict, l2: float) -> dict:
    w = copy.deepcopy(base)
    early_discards = int(w["modifiers"]["early_discards"])
    tx, ty, shapes, flags, dealt = [], [], [], [], []
    for _, tf, tenpai, sf, fl, d in pairs(records, early_discards):
        if tf is not None:
            tx.append(tf)
            ty.append(tenpai)
        if sf is not None and (tenpai or tf is None):
            shapes.append(sf)
            flags.append(fl)
            dealt.append(d)
    if not tx or not shapes:
        raise SystemExit("fit_danger: too few training pairs")
    coef = fit_logistic(np.array(tx), np.array(ty, dtype=float), l2)
    w["tenpai"] = {"intercept": float(coef[0]), **{n: float(v) for n, v in zip(TENPAI, coef[1:])}}
    x = np.array(shapes)
    y = np.array(dealt, dtype=float)
    for _ in range(2):
        mods = np.array([modifier_value(f, w["modifiers"]) for f in flags])
        ws = fit_linear_bernoulli(x * mods[:, None], y, np.array([w["wait"][n] for n in SHAPES]))
        w["wait"] = {n: float(v) for n, v in zip(SHAPES, ws)}
        base_p = x @ ws
        for name in MODIFIERS:
            if flagged(flags, name) < MIN_FLAGGED:
                continue  # too few pairs to say anything: the base value stays
            best, best_v = None, w["modifiers"][name]
            for v in np.round(np.arange(0.2, 3.01, 0.05), 2):
                trial = dict(w["modifiers"], **{name: float(v)})
                p = np.minimum(1.0, base_p * np.array([modifier_value(f, trial) for f in flags]))
                ll = bernoulli_loglik(p, y)
                if best is None or ll > best:
                    best, best_v = ll, float(v)
            w["modifiers"][name] = best_v
    return w


# ----- prediction and calibration ------------------------------------------------------


def predict(w: dict, records) -> list[tuple[float, bool]]:
    """(predicted deal-in probability: the sum over opponents, dealt in) per discard."""
    out: dict[int, list] = {}
    early_discards = int(w["modifiers"]["early_discards"])
    for n, tf, _, sf, fl, d in pairs(records, early_discards):
        slot = out.setdefault(n, [0.0, False])
        slot[1] = slot[1] or d
        slot[0] += tenpai_probability(w, tf) * wait_probability(w, sf, fl)
    return [(p, d) for p, d in (out[n] for n in sorted(out))]


def calibration(predictions, bins: int = 10, min_bin: int = 500) -> dict:
    ordered = sorted(predictions, key=lambda x: x[0])
    n = len(ordered)
    rows = []
    for b in range(bins):
        part = ordered[b * n // bins:(b + 1) * n // bins]
        if not part:
            continue
        pred = sum(p for p, _ in part) / len(part)
        obs = sum(1 for _, d in part if d) / len(part)
        rows.append({"bin": b + 1, "count": len(part), "predicted": pred, "observed": obs,
                     "low": part[0][0], "high": part[-1][0]})
    judged = [abs(r["predicted"] - r["observed"]) for r in rows if r["count"] >= min_bin]
    total_pred = sum(p for p, _ in ordered) / n if n else float("nan")
    total_obs = sum(1 for _, d in ordered if d) / n if n else float("nan")
    return {"discards": n, "bins": rows, "max_error": max(judged) if judged else None,
            "min_bin": min_bin, "mean_predicted": total_pred, "observed_rate": total_obs}


def render(cal: dict) -> str:
    lines = [f"held-out discards {cal['discards']}: predicted {cal['mean_predicted']:.4f}, "
             f"observed {cal['observed_rate']:.4f}",
             "bin  count   range              predicted  observed  diff"]
    for r in cal["bins"]:
        lines.append(f"{r['bin']:3d} {r['count']:6d}   {r['low']:.4f}-{r['high']:.4f}    {r['predicted']:.4f}"
                     f"    {r['observed']:.4f}  {r['observed'] - r['predicted']:+.4f}")
    me = cal["max_error"]
    lines.append(f"max |observed - predicted| over bins of >= {cal['min_bin']}: "
                 + ("none that large" if me is None else f"{me:.4f}"))
    return "\n".join(lines)


def seeds_of(records) -> set[int]:
    return {r["seed"] for r in records}


def walls_of(records) -> set[int]:
    """The walls the records were dealt from: riichienv deals a game's k-th kyoku from the
    wall of seed ``seed + k``, so records of different seeds can share a wall."""
    return {r["seed"] + r["kyoku"] for r in records}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--held-out", nargs="+", required=True)
    ap.add_argument("--base", required=True, help="the service's danger_weights.json to start from")
    ap.add_argument("--out", help="parameter file to write (the --base format)")
    ap.add_argument("--json", help="calibration tables (fitted and base) as JSON")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--min-bin", type=int, default=500)
    ap.add_argument("--source", default="", help="provenance text for the file's 'source'")
    args = ap.parse_args(argv)
    with open(args.base, encoding="utf-8") as f:
        base = json.load(f)
    train = list(read_records(args.train))
    held = list(read_records(args.held_out))
    if not train or not held:
        raise SystemExit("fit_danger: no training or no held-out records")
    overlap = walls_of(train) & walls_of(held)
    if overlap:
        raise SystemExit(f"fit_danger: training and held-out files share walls {sorted(overlap)[:10]} "
                         "(riichienv seed + kyoku: files that share seeds, or whose seeds lie fewer "
                         "than a game's kyoku apart, share walls)")
    w = fit(train, base, args.l2)
    cal = calibration(predict(w, held), min_bin=args.min_bin)
    cal_base = calibration(predict(base, held), min_bin=args.min_bin)
    err = "n/a" if cal["max_error"] is None else f"{cal['max_error']:.4f}"
    w["source"] = args.source or (
        f"Fitted by tools/mahjong/fit_danger.py on {len(train)} discards of the riichi arena "
        f"(riichienv 0.4.11, seeds {min(seeds_of(train))}..{max(seeds_of(train))}); held-out "
        f"{cal['discards']} discards: calibration max error {err}. value and push kept from the base.")
    print(f"training discards {len(train)}; tenpai: " + ", ".join(f"{k} {v:+.4f}" for k, v in w["tenpai"].items()))
    print("wait: " + ", ".join(f"{k} {v:.4f}" for k, v in w["wait"].items()))
    print("modifiers: " + ", ".join(f"{k} {w['modifiers'][k]}" for k in MODIFIERS))
    print("fitted parameters:")
    print(render(cal))
    print(f"base parameters ({args.base}):")
    print(render(cal_base))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(w, f, indent=2)
            f.write("\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"fitted": cal, "base": cal_base}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
