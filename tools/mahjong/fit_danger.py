#!/usr/bin/env python3
"""Fits the danger model's parameters on the riichi arena's danger records and prints
its calibration on held-out hanchan.

Input: files written by ``riichi_arena.py --danger`` (JSONL, gzip when named .gz): one
record per discard with what the discarder saw and, as labels, each opponent's true
tenpai state and waits and who won on the discard (riichi/danger.py documents the
fields). Training and held-out files must come from disjoint seeds (the tool refuses
an overlap), and neither from the seeds an evaluation arena reports.

The model (two stages, per opponent i of the discarder):

1. ``P(tenpai_i)``: 1 for a seat in riichi; otherwise a logistic regression on
   ``open_melds`` (called melds, closed kans not counted), ``discards`` (river length /
   10), ``tsumogiri_tail`` (trailing drawn-and-thrown discards, capped at 6, / 6),
   ``live_left`` (live wall tiles / 70), each a feature named in the parameter file.
   Fitted by Newton's method (IRLS) with an L2 penalty ``--l2`` on the coefficients,
   on every (discard, opponent not in riichi) pair of the training files, the label being
   riichienv's ``tenpai`` (the true hand waits on at least one kind).
2. ``wait[category]``: ``P(the discard deals into i | i is tenpai)`` for the tile's
   category against i, as a smoothed rate: (deal-ins + a * prior) / (pairs + a) over the
   training pairs with i tenpai, the prior being the rate over all non-safe pairs and
   ``a = --smoothing``. A tile i cannot ron (``safe``: its river, discards since its last
   discard, since its riichi) has probability 0 and no category. Categories:
   - number tiles ``n{rank class}{suji}{kabe}``: rank class ``19 28 37 456``; suji ``0``
     none, ``h`` half (4-6 with one side's partner safe), ``s`` full (every ryanmen on
     the tile is furiten for i: 1-3 and 7-9 their one partner, 4-6 both); kabe ``k``
     when no ryanmen can wait on it (a tile of each such shape has 4 copies seen by the
     discarder, its own hand included), else ``-``. E.g. ``n456h-``, ``n19sk``.
   - honours ``z{seen}{y}``: copies of the kind the discarder sees besides the one
     thrown (0-3) and ``y`` when it is a yakuhai for i (a dragon, i's seat wind, the
     round wind), else ``-``. E.g. ``z2y``.
   Riichi seats and the others get separate tables (``wait_riichi``, ``wait_other``):
   an open or dama hand's wait choice and yaku differ from a riichi hand's.

Deal-in of the discard into i: ``P(tenpai_i) * wait[category]``; into anyone:
``1 - prod_i (1 - p_i)``. The calibration table sorts held-out discards into ten
equal-count bins of that prediction and prints, per bin, the mean predicted and the
observed deal-in rate and the count; ``max_error`` is the largest |difference| over
bins holding at least ``--min-bin`` discards (the issue's goal: within 0.02 for bins of
500 or more).

Usage:
  fit_danger.py --train train.jsonl.gz [...] --held-out eval.jsonl.gz [...] \\
      --out danger_params.json [--json calibration.json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys

import numpy as np

TENPAI_FEATURES = ("open_melds", "discards", "tsumogiri_tail", "live_left")
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


def tenpai_features(rec: dict, i: int) -> list[float]:
    river = rec["rivers"][i]
    open_melds = sum(1 for m in rec["melds"][i] if not m.startswith("ankan"))
    tail = 0
    for entry in reversed(river):
        if not river_tile(entry)[1]:
            break
        tail += 1
    return [open_melds, len(river) / 10, min(tail, 6) / 6, rec["live_left"] / 70]


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
            tiles = m.split(":")[1].split(">")[0]
            for k in kinds_of(tiles):
                counts[k] += 1
    return counts


def category(tile_kind: int, safe: set[int], seen: list[int], rec: dict, i: int) -> str | None:
    """The tile's category against opponent i, None when i cannot ron it."""
    if tile_kind in safe:
        return None
    if tile_kind >= 27:
        others = max(0, min(3, seen[tile_kind] - 1))
        seat_wind = 27 + (i - rec["dealer"]) % 4
        yakuhai = tile_kind >= 31 or tile_kind == seat_wind or tile_kind == 27 + rec["round_wind"]
        return f"z{others}{'y' if yakuhai else '-'}"
    rank = tile_kind % 9 + 1
    base = tile_kind - (rank - 1)
    cls = {1: "19", 9: "19", 2: "28", 8: "28", 3: "37", 7: "37"}.get(rank, "456")
    partners = [p for p in (rank - 3, rank + 3) if 1 <= p <= 9]
    safe_partners = sum(1 for p in partners if base + p - 1 in safe)
    suji = "s" if safe_partners == len(partners) else ("h" if safe_partners else "0")
    shapes = []
    if rank >= 3:
        shapes.append((rank - 2, rank - 1))
    if rank <= 7:
        shapes.append((rank + 1, rank + 2))
    no_chance = all(any(seen[base + r - 1] >= 4 for r in shape) for shape in shapes)
    return f"n{cls}{suji}{'k' if no_chance else '-'}"


def pairs(records):
    """Every (discard, opponent) pair: (record index, i, in riichi, tenpai features,
    tenpai label, category, dealt into i)."""
    for n, rec in enumerate(records):
        seen = seen_counts(rec)
        tile_kind = kind(rec["tile"])
        for i in (1, 2, 3):
            safe = set(kinds_of(rec["safe"][i]))
            yield (n, i, bool(rec["riichi"][i]), tenpai_features(rec, i), bool(rec["tenpai"][i]),
                   category(tile_kind, safe, seen, rec, i), i in rec["dealt_in"])


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


def fit(records, l2: float, smoothing: float) -> dict:
    feats, labels = [], []
    counts = {"riichi": {}, "other": {}}
    totals = {"riichi": [0, 0], "other": [0, 0]}
    for _, _, riichi, f, tenpai, cat, dealt in pairs(records):
        if not riichi:
            feats.append(f)
            labels.append(tenpai)
        if cat is None or not (tenpai or riichi):
            continue
        state = "riichi" if riichi else "other"
        c = counts[state].setdefault(cat, [0, 0])
        c[0] += dealt
        c[1] += 1
        totals[state][0] += dealt
        totals[state][1] += 1
    if not feats:
        raise SystemExit("fit_danger: no training pairs")
    w = fit_logistic(np.array(feats, dtype=float), np.array(labels, dtype=float), l2)
    params = {
        "format": "gameai-danger/1",
        "tenpai": {"intercept": float(w[0]),
                   "coef": {name: float(v) for name, v in zip(TENPAI_FEATURES, w[1:])},
                   "features": "open_melds (count), discards (river length / 10), tsumogiri_tail "
                               "(min(trailing tsumogiri, 6) / 6), live_left (live wall / 70)"},
    }
    for state in ("riichi", "other"):
        dealt, n = totals[state]
        prior = dealt / n if n else 0.0
        params[f"wait_{state}"] = {
            cat: (d + smoothing * prior) / (m + smoothing) for cat, (d, m) in sorted(counts[state].items())
        }
        params[f"wait_{state}_prior"] = prior
        params[f"wait_{state}_pairs"] = {cat: m for cat, (d, m) in sorted(counts[state].items())}
    return params


# ----- prediction and calibration ------------------------------------------------------


def tenpai_probability(params: dict, riichi: bool, f: list[float]) -> float:
    if riichi:
        return 1.0
    t = params["tenpai"]
    z = t["intercept"] + sum(t["coef"][name] * v for name, v in zip(TENPAI_FEATURES, f))
    return 1 / (1 + math.exp(-z))


def predict(params: dict, records) -> list[tuple[float, bool]]:
    """(predicted deal-in probability, dealt in) per discard."""
    out: dict[int, list] = {}
    for n, _, riichi, f, _, cat, dealt in pairs(records):
        slot = out.setdefault(n, [1.0, False])
        slot[1] = slot[1] or dealt
        if cat is None:
            continue
        table = params["wait_riichi" if riichi else "wait_other"]
        w = table.get(cat, params["wait_riichi_prior" if riichi else "wait_other_prior"])
        slot[0] *= 1 - tenpai_probability(params, riichi, f) * w
    return [(1 - keep, dealt) for keep, dealt in (out[n] for n in sorted(out))]


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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--held-out", nargs="+", required=True)
    ap.add_argument("--out", help="parameter file to write (JSON)")
    ap.add_argument("--json", help="calibration table as JSON")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--smoothing", type=float, default=20.0)
    ap.add_argument("--min-bin", type=int, default=500)
    ap.add_argument("--fitted-on", default="", help="provenance text for the parameter file")
    args = ap.parse_args(argv)
    train = list(read_records(args.train))
    held = list(read_records(args.held_out))
    overlap = seeds_of(train) & seeds_of(held)
    if overlap:
        raise SystemExit(f"fit_danger: training and held-out files share seeds {sorted(overlap)[:10]}")
    params = fit(train, args.l2, args.smoothing)
    params["fitted_on"] = args.fitted_on or (
        f"{len(train)} discards of seeds {min(seeds_of(train))}..{max(seeds_of(train))}")
    cal = calibration(predict(params, held), min_bin=args.min_bin)
    params["held_out_calibration"] = {k: cal[k] for k in ("discards", "max_error", "mean_predicted", "observed_rate")}
    print(f"training discards {len(train)}; tenpai model: intercept {params['tenpai']['intercept']:.3f}, "
          + ", ".join(f"{k} {v:+.3f}" for k, v in params["tenpai"]["coef"].items()))
    print(render(cal))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(params, f, indent=1, sort_keys=True)
            f.write("\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(cal, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
