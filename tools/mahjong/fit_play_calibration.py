#!/usr/bin/env python3
"""Fits the calibration of SuggestMahjongDiscard's ``play_win_probability``.

``win_probability`` is the win probability of a fixed continuation after the discard
(the plan, advance or throw, the greedy line: README, "The probability model"). The
engine re-decides at every draw and so wins more often than that continuation: the
figure is a lower bound of its own play. ``play_win_probability`` estimates the win rate
of the engine's own play from the discard by mapping the continuation's figure ``v``
through a logistic model fitted, by maximum likelihood, on the engine's solitaire games
(every decision with the game's outcome), separately for each continuation ``c``:

    logit P(won) = a_c + b_c * logit(v) + d_c * draws_left / 16
                   + e_c * max(draws_left - 16, 0) / 16
                   + t_c * [shanten == 0] + o_c * [shanten == 1] + h_c * [shanten == 3]

(``v`` clamped to [0.002, 0.998]; shanten of the hand after the discard; an indicator
with fewer than 50 decisions of its kind in a continuation's data gets weight 0). The OPTIMAL continuation needs no map (the engine's
later decisions are that optimum too). Decisions where no play can win (shanten + 1 >
draws_left) are left out of the fit (their figure is 0 whatever the map says).

The fit files hold games of 17 draws after the deal (the harness's game, and about a
real seat's share of the wall) and longer ones (``--draws 21``) that reach 17 to 20
draws left. A longer game contributes only its decisions with more than 16 draws left:
its later decisions are of hands the engine has already shaped for several turns, a
population that a real game's decision at the same draws left does not meet (on the
RIICHI files of session 20 they read 0.008-0.018 high at 16..10 draws left, where the
17-draw games' first decisions read low), and mixing the two pulled the map between them.
A game's length is ``turn + draws_left + 1``.

Reads ``mahjong-solitaire --decisions`` files of one ruleset; prints the coefficients,
the decile tables of the raw and the mapped figure, at every decision and at the first
one, on the fitted files and on held-out ``--check`` files, and the ruleset's entry of
``MAPS`` in ``src/mahjong/strategy/play.rs`` (its ``calibration_error`` is the largest
first-decision decile error on the held-out files), with the log loss of the fit and of
the files' own ``play`` figures (the map of the build that wrote them), so that a refit
can be weighed against the map that ships. The first-decision tables also give
Hosmer and Lemeshow's chi-square over the deciles of at least 200 games, with the chance
that estimates calibrated exactly would miss by as much: on 5,000 walls a decile of 300
to 1,000 games has a sampling error (1.96 sd) of 0.03 to 0.05, so the largest decile
error alone cannot tell a miscalibrated map from a calibrated one.

With ``--shipped`` no map is fitted: the files' own ``play`` figures (the map of the
build that wrote them) are judged, by the same decile tables, every decision and first.
That is the check of a shipped map on games of a changed engine, before deciding whether
it needs a refit.

The PLAN figures of hands at 3-shanten after the discard (the plan from 3-shanten) have a
map of their own, ``Plan3`` (``plan_three_shanten`` in play.rs: intercept, logit, draws and the
bend ``e`` of the draws term above 16 draws left; the other maps have ``e`` = 0): an
offset on the PLAN map of nearer hands missed their first decisions by 0.011 on the fit
games, the gain from re-deciding growing faster with the draws left up to 16, and a
straight draws term over-predicted 17 to 20 draws left by 0.014-0.048 (BENCHMARKS.md,
"The plan at 3-shanten, bounded").

With ``--refit MAP[,MAP]`` (e.g. ``Plan3``) only those maps are fitted, the others held
at the ruleset's entry in play.rs: the refit for an engine change that adds one kind of
decision, without refitting what the change leaves as it was.

Usage: fit_play_calibration.py [--ruleset Riichi] [--refit Plan3]
           FIT.jsonl [FIT.jsonl ...] [--check HELD_OUT.jsonl ...]
       fit_play_calibration.py --shipped FILE.jsonl [FILE.jsonl ...]
(numpy; the arena's venv has it: tools/arena/.venv/bin/python).
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import numpy as np

CLAMP = 0.002
# The maps: one per continuation, and the plan's figures of hands at 3-shanten after the
# discard (the plan from 3-shanten, PLAN_MAX_SHANTEN 3) in a map of their own ("Plan3").
MAPPED = ["Plan", "Plan3", "AdvanceOrThrow", "Greedy"]
FIELDS = ["plan", "plan_three_shanten", "advance_or_throw", "greedy"]
# The columns of ``features`` a map fits (the others weigh 0): the continuations' maps
# the intercept, logit(v), draws and the shanten offsets; Plan3 (hands of one shanten)
# the intercept, logit(v), draws and the bend of the draws term above 16 draws left.
FITTED = {"Plan3": [0, 1, 2, 6]}
DEFAULT_FITTED = [0, 1, 2, 3, 4, 5]


def map_of(r: dict) -> str:
    """The map a decision's figure goes through (play.rs ``play_figure``)."""
    if r["continuation"] == "Plan" and r["shanten"] >= 3:
        return "Plan3"
    return r["continuation"]


def logit(p):
    p = np.clip(p, CLAMP, 1 - CLAMP)
    return np.log(p / (1 - p))


def load(paths: list[str]) -> list[dict]:
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f)
    return rows


def features(rows: list[dict]) -> np.ndarray:
    v = np.array([r["win"] for r in rows])
    d = np.array([r["draws_left"] for r in rows], float)
    s = np.array([r["shanten"] for r in rows])
    return np.column_stack(
        [
            np.ones(len(rows)),
            logit(v),
            d / 16.0,
            (s == 0).astype(float),
            (s == 1).astype(float),
            (s == 3).astype(float),
            np.maximum(d - 16.0, 0.0) / 16.0,
        ]
    )


GAME_DRAWS = 17


def fitted_population(r: dict) -> bool:
    """A decision the fit uses: any of a 17-draw game, and a longer game's only while
    more than 16 draws are left (module docs)."""
    return r["turn"] + r["draws_left"] + 1 <= GAME_DRAWS or r["draws_left"] >= GAME_DRAWS


def can_win(r: dict) -> bool:
    return r["shanten"] + 1 <= r["draws_left"]


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression by Newton-Raphson (iteratively reweighted least squares)."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        g = x.T @ (y - p)
        h = (x * (p * (1 - p))[:, None]).T @ x
        step = np.linalg.solve(h, g)
        w += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w


PLAY_RS = Path(__file__).resolve().parents[2] / "src/mahjong/strategy/play.rs"
COEFFICIENTS = ["a", "b", "d", "tenpai", "one", "three", "d_above_16"]


def shipped_maps(ruleset: str) -> dict[str, np.ndarray]:
    """The ruleset's entry of ``MAPS`` in play.rs, as the fit's coefficient vectors."""
    text = PLAY_RS.read_text(encoding="utf-8")
    entry = text[text.index(f"ruleset: Ruleset::{ruleset},"):]
    entry = entry[: entry.index("calibration_error")]
    coef = {}
    for c, field in zip(MAPPED, FIELDS):
        body = entry[entry.index(f"{field}: PlayMap {{"):]
        body = body[: body.index("}")]
        values = dict(re.findall(r"(\w+): (-?[0-9.]+)", body))
        coef[c] = np.array([float(values.get(k, 0.0)) for k in COEFFICIENTS])
    return coef


def fit_map(rows: list[dict], c: str) -> np.ndarray | None:
    """Map ``c`` fitted on the decisions of ``rows`` that go through it (``None``: fewer
    than 100); an offset with fewer than 50 decisions of its kind gets weight 0."""
    sel = [r for r in rows if map_of(r) == c and can_win(r)]
    if len(sel) < 100:
        return None
    y = np.array([r["won"] for r in sel], float)
    x = features(sel)
    keep = x.sum(axis=0) >= 50
    keep[:3] = True
    keep[[k for k in range(x.shape[1]) if k not in FITTED.get(c, DEFAULT_FITTED)]] = False
    w = np.zeros(x.shape[1])
    w[keep] = fit(x[:, keep], y)
    print(f"| {c} | {len(sel)} | " + " | ".join(f"{v:.4f}" for v in w) + " |")
    return w


def mapped(rows: list[dict], coef: dict) -> np.ndarray:
    out = np.empty(len(rows))
    for i, r in enumerate(rows):
        c = map_of(r)
        if not can_win(r):
            out[i] = 0.0
        elif c in coef:
            z = coef[c] @ features([r])[0]
            out[i] = 1 / (1 + np.exp(-z))
        else:
            out[i] = r["win"]
    return out


def table(title: str, est: np.ndarray, won: np.ndarray, independent: bool = True) -> float:
    """Prints the decile table; returns the largest |error| over deciles with >= 200.
    With ``independent`` (one row per game: the first decisions) also the chi-square of
    those deciles; every decision of a game shares its outcome, so there it would be
    meaningless."""
    print(f"\n{title}\n")
    print("| estimate | games | mean estimate | realised | realised - estimate | 95 % interval |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    worst = 0.0
    chi2, deciles = 0.0, 0
    for b in range(10):
        m = (np.minimum((est * 10).astype(int), 9)) == b
        n = int(m.sum())
        if n == 0:
            continue
        e, o = est[m].mean(), won[m].mean()
        half = 1.96 * np.sqrt(max(o * (1 - o), 1e-12) / n)
        print(f"| {b / 10:.1f}-{(b + 1) / 10:.1f} | {n} | {e:.4f} | {o:.4f} | {o - e:+.4f} | ±{half:.4f} |")
        if n >= 200:
            worst = max(worst, abs(o - e))
            if independent:
                # The decile's win count against its estimates' sum, by the estimates'
                # own variance (Hosmer and Lemeshow's statistic, over the deciles judged).
                var = float((est[m] * (1 - est[m])).sum())
                chi2 += (won[m].sum() - est[m].sum()) ** 2 / max(var, 1e-12)
                deciles += 1
    print(f"\nlargest |realised - estimate| over deciles with >= 200 games: {worst:.4f}")
    if deciles:
        print(
            f"chi-square over those {deciles} deciles: {chi2:.2f} "
            f"(p = {chi2_survival(chi2, deciles):.3f} that calibrated estimates miss by as much)"
        )
    return worst


def chi2_survival(x: float, k: int) -> float:
    """P(X >= x) for X chi-square with k degrees of freedom: the regularized upper
    incomplete gamma Q(k/2, x/2), by its power series (Numerical Recipes' gser)."""
    a, z = k / 2, x / 2
    if z <= 0:
        return 1.0
    term = total = 1 / a
    n = 1
    while abs(term) > 1e-15 * abs(total):
        term *= z / (a + n)
        total += term
        n += 1
    if math.isinf(total):
        # The series overflows only for x in the thousands: P(X >= x) is 0 in doubles.
        return 0.0
    return max(0.0, 1 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))


def report(name: str, rows: list[dict], coef: dict) -> float:
    won = np.array([r["won"] for r in rows], float)
    raw = np.array([r["win"] for r in rows])
    est = mapped(rows, coef)
    first = np.array([r["turn"] == 0 for r in rows])
    print(f"\n## {name}: {len(rows)} decisions, {int(first.sum())} games")
    table(f"Every decision, win_probability (raw) of the {name} games", raw, won, False)
    table(f"Every decision, play_win_probability of the {name} games", est, won, False)
    table(f"First decision, win_probability (raw) of the {name} games", raw[first], won[first])
    worst = table(f"First decision, play_win_probability of the {name} games", est[first], won[first])
    # Against the map of the build that wrote the files (their `play` field): which of
    # the two predicts these games better, by log loss (lower is better).
    have = np.array([r.get("play") is not None for r in rows])
    if have.any():
        old = np.array([r["play"] if r.get("play") is not None else 0.0 for r in rows])
        print(f"\nLog loss on the {name} games, this fit / the files' play_win_probability:")
        for label, m in [("every decision", have), ("first decision", have & first)]:
            print(f"- {label} ({int(m.sum())}): {log_loss(est[m], won[m]):.5f} / {log_loss(old[m], won[m]):.5f}")
    return worst


def log_loss(p: np.ndarray, won: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(won * np.log(p) + (1 - won) * np.log(1 - p)))


def shipped(paths: list[str]) -> float:
    """The decile tables of the files' own ``play`` figures; returns the largest
    first-decision decile error (deciles of >= 200 games)."""
    rows = [r for r in load(paths) if r.get("play") is not None]
    won = np.array([r["won"] for r in rows], float)
    play = np.array([r["play"] for r in rows])
    first = np.array([r["turn"] == 0 for r in rows])
    print(f"## {len(rows)} decisions with play_win_probability, {int(first.sum())} games")
    table("Every decision, the files' play_win_probability", play, won, False)
    worst = table("First decision, the files' play_win_probability", play[first], won[first])
    print(f"\nLog loss: every decision {log_loss(play, won):.5f}, "
          f"first decision {log_loss(play[first], won[first]):.5f}")
    print(f"mean first-decision estimate {play[first].mean():.4f}, realised {won[first].mean():.4f}")
    return worst


def main(argv: list[str]) -> None:
    if argv[:1] == ["--shipped"]:
        if len(argv) < 2:
            sys.exit(__doc__)
        shipped(argv[1:])
        return
    ruleset = "Riichi"
    if "--ruleset" in argv:
        i = argv.index("--ruleset")
        ruleset = argv[i + 1]
        argv = argv[:i] + argv[i + 2 :]
    refit = []
    if "--refit" in argv:
        i = argv.index("--refit")
        refit = argv[i + 1].split(",")
        argv = argv[:i] + argv[i + 2 :]
        if any(c not in MAPPED for c in refit):
            sys.exit(f"--refit takes maps of {MAPPED}")
    if "--check" in argv:
        i = argv.index("--check")
        fit_paths, check_paths = argv[:i], argv[i + 1 :]
    else:
        fit_paths, check_paths = argv, []
    if not fit_paths:
        sys.exit(__doc__)
    rows = load(fit_paths)
    kept = [r for r in rows if fitted_population(r)]
    if len(kept) < len(rows):
        print(f"{len(rows) - len(kept)} decisions of games longer than {GAME_DRAWS} draws, "
              f"with {GAME_DRAWS - 1} or fewer draws left, left out of the fit\n")
    rows = kept
    coef = shipped_maps(ruleset) if refit else {}
    print("| map | decisions | a | b | d | t | o | h | d above 16 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for c in refit or MAPPED:
        w = fit_map(rows, c)
        if w is not None:
            coef[c] = w
    if refit:
        print(f"\n(refitted: {', '.join(refit)}; the other maps as in play.rs)")
    report("fitted", rows, coef)
    error = report("held-out", load(check_paths), coef) if check_paths else float("nan")
    print("\n```rust\nRulesetMaps {")
    print(f"    ruleset: Ruleset::{ruleset},")
    for c, field in zip(MAPPED, FIELDS):
        a, b, d, t, o, h, e = coef.get(c, np.zeros(len(COEFFICIENTS)))
        print(
            f"    {field}: PlayMap {{ a: {a:.4f}, b: {b:.4f}, d: {d:.4f}, "
            f"d_above_16: {e:.4f}, tenpai: {t:.4f}, one: {o:.4f}, three: {h:.4f} }},"
        )
    print(f"    calibration_error: {error:.4f},\n}},\n```")


if __name__ == "__main__":
    main(sys.argv[1:])
