#!/usr/bin/env python3
"""Fits the calibration of SuggestDouDizhuBid's landlord win probability (Platt scaling).

Reads arena ``--log`` files whose landlord games carry ``simulated`` (the service's
``simulated_landlord_win_share``, the raw share before calibration; ``--estimate`` in
the play-only arena, or ``--full-game``) and fits, by maximum likelihood,

    logit P(landlord wins) = a + b * logit(simulated)

(the share clamped to [0.005, 0.995]). Prints a and b, and the decile table of the
raw and the calibrated estimate on the same games. The fitted values go to
``src/doudizhu/bidding.rs`` (``CALIBRATION``); check them on other deals.

Usage: fit_calibration.py LOG.jsonl [LOG.jsonl ...]
"""

from __future__ import annotations

import json
import sys

import numpy as np

import fullgame

CLAMP = 0.005


def logit(p):
    p = np.clip(p, CLAMP, 1 - CLAMP)
    return np.log(p / (1 - p))


def pairs_from(paths: list[str]) -> list[tuple[float, bool]]:
    pairs = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                g = json.loads(line)
                share = g.get("simulated", g.get("estimate"))
                if share is None or g.get("ours") != "landlord":
                    continue
                won = g["won"] if "won" in g else g["winner"] == "landlord"
                pairs.append((float(share), bool(won)))
    return pairs


def fit(pairs: list[tuple[float, bool]], iterations: int = 50) -> tuple[float, float]:
    """Logistic regression of the outcome on logit(estimate), by Newton's method."""
    x = logit(np.array([p for p, _ in pairs]))
    y = np.array([1.0 if w else 0.0 for _, w in pairs])
    a, b = 0.0, 1.0
    for _ in range(iterations):
        z = a + b * x
        q = 1 / (1 + np.exp(-z))
        w = q * (1 - q)
        grad = np.array([np.sum(y - q), np.sum((y - q) * x)])
        hess = -np.array([[np.sum(w), np.sum(w * x)], [np.sum(w * x), np.sum(w * x * x)]])
        step = np.linalg.solve(hess, grad)
        a, b = a - step[0], b - step[1]
        if np.max(np.abs(step)) < 1e-10:
            break
    return float(a), float(b)


def calibrated(p: float, a: float, b: float) -> float:
    return float(1 / (1 + np.exp(-(a + b * logit(p)))))


def table(pairs, title):
    cal = fullgame.calibration(pairs)
    print(f"{title}: {cal['games']} games, within +-{cal['tolerance']} where >= "
          f"{cal['min_count']}: {cal['within_tolerance']}")
    for r in cal["rows"]:
        if r["games"]:
            print(f"  {r['decile']}  {r['games']:>5}  estimate {r['mean_estimate']:.3f}  "
                  f"observed {r['observed']:.3f}  diff {r['diff']:+.3f}")


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    pairs = pairs_from(argv[1:])
    a, b = fit(pairs)
    print(f"fit on {len(pairs)} landlord games: a = {a:.4f}, b = {b:.4f}")
    table(pairs, "raw")
    table([(calibrated(p, a, b), w) for p, w in pairs], "calibrated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
