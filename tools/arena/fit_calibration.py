#!/usr/bin/env python3
"""Fits the calibration of SuggestDouDizhuBid's landlord win probability (Platt scaling).

Reads arena ``--log`` files whose landlord games carry ``simulated`` (the service's
``simulated_landlord_win_share``, the raw share before calibration; ``--estimate`` in
the play-only arena, or ``--full-game``) and fits, by maximum likelihood,

    logit P(landlord wins) = a + b * logit(simulated)

(the share clamped to [0.005, 0.995]). Prints a and b, and the decile table of the
raw and the calibrated estimate on the same games. The fitted values go to
``src/doudizhu/bidding.rs`` (``CALIBRATION``); check them on other deals.

``--check`` fits nothing: it reads the calibrated estimate the service returned
(``estimate``, the ``landlord_win_probability`` of the build that played the games) and
prints its decile table with each decile's sampling error ``se = sqrt(e (1 - e) / n)``
(``e`` the decile's mean estimate), the difference in those units (``z``), and Hosmer and
Lemeshow's chi-square (the sum of ``z**2`` over the deciles that hold games, as many
degrees of freedom) with the chance that estimates calibrated exactly would miss by as
much: the issue's criterion (within +-0.05 in every decile of >= 100 games) is at 1 to
1.7 se in a decile of 100 to 150 games and fails by chance alone fairly often.

Usage: fit_calibration.py LOG.jsonl [LOG.jsonl ...]
       fit_calibration.py --check LOG.jsonl [LOG.jsonl ...]
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np

import fullgame

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "mahjong"))
from fit_play_calibration import chi2_survival  # noqa: E402

CLAMP = 0.005


def logit(p):
    p = np.clip(p, CLAMP, 1 - CLAMP)
    return np.log(p / (1 - p))


def pairs_from(paths: list[str], field: str = "simulated") -> list[tuple[float, bool]]:
    """(estimate, won) of the landlord games: the raw share (``simulated``) or, with
    ``field="estimate"``, the calibrated figure the service returned."""
    pairs = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                g = json.loads(line)
                share = g.get(field) if field == "estimate" else g.get("simulated", g.get("estimate"))
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


def check_rows(pairs: list[tuple[float, bool]]) -> tuple[dict, list[dict], float, int]:
    """The decile table of ``pairs`` with each decile's ``se`` and ``z``, the chi-square
    (sum of z**2) and the number of deciles holding games."""
    cal = fullgame.calibration(pairs)
    rows, chi2 = [], 0.0
    for r in cal["rows"]:
        if not r["games"]:
            continue
        e, n = r["mean_estimate"], r["games"]
        se = math.sqrt(e * (1 - e) / n)
        rows.append(dict(r, se=se, z=r["diff"] / se))
        chi2 += (r["diff"] / se) ** 2
    return cal, rows, chi2, len(rows)


def check(pairs: list[tuple[float, bool]]) -> None:
    """Prints the decile table of returned estimates with se, z and the chi-square."""
    cal, rows, chi2, cells = check_rows(pairs)
    print(f"{cal['games']} landlord games; mean estimate "
          f"{np.mean([p for p, _ in pairs]):.3f}, observed {np.mean([w for _, w in pairs]):.3f}; "
          f"within +-{cal['tolerance']} in every decile of >= {cal['min_count']}: "
          f"{cal['within_tolerance']}")
    print("| decile | games | estimate | observed | observed - estimate | se | z |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['decile']} | {r['games']} | {r['mean_estimate']:.3f} | {r['observed']:.3f} "
              f"| {r['diff']:+.3f} | {r['se']:.3f} | {r['z']:+.1f} |")
    print(f"chi-square {chi2:.2f} over {cells} deciles, p = {chi2_survival(chi2, cells):.3f}")


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    if argv[1] == "--check":
        check(pairs_from(argv[2:], "estimate"))
        return 0
    pairs = pairs_from(argv[1:])
    a, b = fit(pairs)
    print(f"fit on {len(pairs)} landlord games: a = {a:.4f}, b = {b:.4f}")
    table(pairs, "raw")
    table([(calibrated(p, a, b), w) for p, w in pairs], "calibrated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
