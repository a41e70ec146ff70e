#!/usr/bin/env python3
"""Fits the calibration of SuggestDouDizhuBid's landlord win probability (Platt scaling
through the posterior of the simulated share).

The service simulates ``n`` deals and counts the ``w`` the hand wins as landlord (the
raw share ``w / n``, ``simulated_landlord_win_share``). Its estimate is the posterior mean
of the mapping

    p(s) = sigmoid(a + b * logit(s))          (s clamped to [0.005, 0.995])

over the true share ``s`` ~ Beta(SHARE_PRIOR + (w, n - w)) (``src/doudizhu/bidding.rs``:
``CALIBRATION`` = (a, b), ``SHARE_PRIOR``, ``posterior_calibrated``). This script reads arena
``--log`` files whose landlord games carry ``simulated`` and the returned ``estimate``
(``--estimate`` in the play-only arena, or ``--full-game``) and fits (a, b) by maximum
likelihood of the outcomes under that posterior estimate (Fisher scoring), so that a
game whose share came from 10 deals weighs as what it is. The number of deals is the
log's ``deals`` where the arena recorded it; in older logs it is recovered from the
share (a fraction ``w / n``) and the estimate the service returned with the shipped
mapping or an earlier one (the multiple of the share's reduced denominator whose
posterior mean equals it).

Prints the fitted (a, b) (and the point fit on the raw shares, the mapping before the
posterior, for comparison), the decile tables, and the log loss of the fit, of the
shipped mapping (through the posterior) and of the returned estimates. ``--held-out
FILES`` judges the fit on other games: log loss of both mappings and the fit's decile
table with se and z. The fitted values go to ``CALIBRATION``.

``--check`` fits nothing: it reads the calibrated estimate the service returned
(``estimate``, the ``landlord_win_probability`` of the build that played the games) and
prints its decile table with each decile's sampling error ``se = sqrt(e (1 - e) / n)``
(``e`` the decile's mean estimate), the difference in those units (``z``), and Hosmer and
Lemeshow's chi-square (the sum of ``z**2`` over the deciles that hold games, as many
degrees of freedom) with the chance that estimates calibrated exactly would miss by as
much: the issue's criterion (within +-0.05 in every decile of >= 100 games) is at 1 to
1.7 se in a decile of 100 to 150 games and fails by chance alone fairly often.

Usage: fit_calibration.py LOG.jsonl [LOG.jsonl ...] [--held-out LOG.jsonl ...]
       fit_calibration.py --check LOG.jsonl [LOG.jsonl ...]
"""

from __future__ import annotations

import json
import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

import fullgame

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "mahjong"))
from fit_play_calibration import chi2_survival  # noqa: E402

CLAMP = 0.005
# src/doudizhu/bidding.rs: CALIBRATION, SHARE_PRIOR, GRID, MAX_DEALS.
SHIPPED = (-0.257, 0.992)
# Mappings that earlier builds returned estimates with (logs without ``deals``).
EARLIER = [(-0.316, 0.870)]
SHARE_PRIOR = (2.56, 2.63)
GRID = 2000
MAX_DEALS = 20_000
CELLS = (np.arange(GRID) + 0.5) / GRID


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


def posterior_weights(wins, deals, prior=SHARE_PRIOR) -> np.ndarray:
    """Rows: the Beta(prior + (w, n - w)) density on the grid's midpoints, normalised
    (the midpoint rule of ``posterior_calibrated``)."""
    wins, deals = np.asarray(wins, dtype=float), np.asarray(deals, dtype=float)
    a, b = prior[0] + wins, prior[1] + deals - wins
    log_d = np.outer(a - 1, np.log(CELLS)) + np.outer(b - 1, np.log1p(-CELLS))
    log_d -= log_d.max(axis=1, keepdims=True)
    w = np.exp(log_d)
    return w / w.sum(axis=1, keepdims=True)


def mapping(a: float, b: float) -> np.ndarray:
    """The mapping ``sigmoid(a + b logit s)`` on the grid."""
    return 1 / (1 + np.exp(-(a + b * logit(CELLS))))


def recover_deals(share: float, estimate: float,
                  calibrations=(SHIPPED, *EARLIER)) -> int | None:
    """The number of deals behind ``share`` (= w / n) whose posterior estimate under one
    of ``calibrations`` is closest to the ``estimate`` the service returned; None if
    none matches to 1e-6 (an estimate from another mapping or prior). The closest over
    all the mappings, not the first within 1e-6: a wrong number of deals under another
    mapping can land within 1e-6 of an estimate."""
    f = Fraction(share).limit_denominator(MAX_DEALS)
    if abs(float(f) - share) > 1e-12:
        return None
    ks = np.arange(1, MAX_DEALS // f.denominator + 1)
    # One column per mapping; the posterior weights are the same for all of them.
    maps = np.stack([mapping(*c) for c in calibrations], axis=1)
    # In blocks of 1,000 multiples: a share of 0 or 1 has 20,000 candidates.
    means = np.concatenate([
        posterior_weights(block * f.numerator, block * f.denominator) @ maps
        for block in np.array_split(ks, max(1, len(ks) // 1000))])
    misses = np.abs(means - estimate)
    i = int(np.argmin(misses.min(axis=1)))
    return int(ks[i] * f.denominator) if misses[i].min() < 1e-6 else None


def games_from(paths: list[str]) -> list[dict]:
    """The landlord games with their raw share, returned estimate, outcome and deals
    (logged, or recovered by ``recover_deals``; a game whose deals cannot be told is
    left out, and said)."""
    games, lost = [], 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                g = json.loads(line)
                if g.get("ours") != "landlord" or g.get("simulated") is None:
                    continue
                share, estimate = float(g["simulated"]), g.get("estimate")
                deals = g.get("deals")
                if deals is None and estimate is not None:
                    deals = recover_deals(share, float(estimate))
                if deals is None:
                    lost += 1
                    continue
                won = g["won"] if "won" in g else g["winner"] == "landlord"
                games.append({"share": share, "estimate": estimate, "deals": int(deals),
                              "wins": round(share * int(deals)), "won": bool(won)})
    if lost:
        print(f"({lost} games left out: their number of deals could not be told)")
    return games


def weights_of(games: list[dict]) -> np.ndarray:
    """``posterior_weights`` of the games' wins and deals (one row per game)."""
    return posterior_weights([g["wins"] for g in games], [g["deals"] for g in games])


def posterior_fit(games: list[dict], start=(0.0, 1.0),
                  iterations: int = 100) -> tuple[float, float]:
    """(a, b) maximising the likelihood of the outcomes under the posterior estimate,
    by Fisher scoring."""
    w = weights_of(games)
    y = np.array([1.0 if g["won"] else 0.0 for g in games])
    x = logit(CELLS)
    a, b = start
    for _ in range(iterations):
        m = 1 / (1 + np.exp(-(a + b * x)))
        dm = m * (1 - m)
        e = np.clip(w @ m, 1e-12, 1 - 1e-12)
        ea, eb = w @ dm, w @ (dm * x)
        v = 1 / (e * (1 - e))
        score = np.array([np.sum((y - e) * v * ea), np.sum((y - e) * v * eb)])
        info = np.array([[np.sum(v * ea * ea), np.sum(v * ea * eb)],
                         [np.sum(v * ea * eb), np.sum(v * eb * eb)]])
        step = np.linalg.solve(info, score)
        a, b = a + step[0], b + step[1]
        if np.max(np.abs(step)) < 1e-10:
            break
    return float(a), float(b)


def posterior_estimates(games: list[dict], calibration, weights=None) -> np.ndarray:
    """The service's estimate of each game under ``calibration`` (``weights``: the
    games' ``weights_of``, when already computed)."""
    w = weights_of(games) if weights is None else weights
    return w @ mapping(*calibration)


def print_deals(label: str, games: list[dict]) -> None:
    deals = np.array([g["deals"] for g in games])
    print(f"{label}: {len(games)} landlord games; deals per bid: median "
          f"{np.median(deals):.0f}, 10 % below {np.percentile(deals, 10):.0f}, "
          f"fewest {deals.min()}")


def log_loss(estimates, games: list[dict]) -> float:
    e = np.clip(np.asarray(estimates, dtype=float), 1e-12, 1 - 1e-12)
    y = np.array([1.0 if g["won"] else 0.0 for g in games])
    return float(-np.mean(y * np.log(e) + (1 - y) * np.log(1 - e)))


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
    args = argv[1:]
    held_out = []
    if "--held-out" in args:
        i = args.index("--held-out")
        args, held_out = args[:i], args[i + 1:]
    games = games_from(args)
    print_deals("fitted", games)
    weights = weights_of(games)
    pa, pb = fit([(g["share"], g["won"]) for g in games])
    a, b = posterior_fit(games, start=(pa, pb))
    print(f"fit through the posterior: a = {a:.4f}, b = {b:.4f} "
          f"(point fit on the raw shares: a = {pa:.4f}, b = {pb:.4f}; shipped {SHIPPED})")
    fitted = posterior_estimates(games, (a, b), weights)
    table([(g["share"], g["won"]) for g in games], "raw")
    table(list(zip(fitted, [g["won"] for g in games])), "fitted, through the posterior")
    returned = [g["estimate"] for g in games if g["estimate"] is not None]
    print(f"log loss: fit {log_loss(fitted, games):.5f}, shipped mapping "
          f"{log_loss(posterior_estimates(games, SHIPPED, weights), games):.5f}"
          + (f", returned {log_loss(returned, games):.5f}" if len(returned) == len(games)
             else ""))
    if held_out:
        hold = games_from(held_out)
        print_deals("held out", hold)
        hold_weights = weights_of(hold)
        won = [g["won"] for g in hold]
        fit_e = posterior_estimates(hold, (a, b), hold_weights)
        shipped_e = posterior_estimates(hold, SHIPPED, hold_weights)
        print(f"held-out log loss: fit {log_loss(fit_e, hold):.5f}, shipped mapping "
              f"{log_loss(shipped_e, hold):.5f}")
        print("held out, the fit:")
        check(list(zip(fit_e, won)))
        print("held out, the shipped mapping:")
        check(list(zip(shipped_e, won)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
