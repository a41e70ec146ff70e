"""Unit tests of fit_play_calibration.py: which map a decision goes through, the reading
of play.rs, and the fit recovering a known model (run by .ci/arena.sh with the arena's
venv, which has numpy: ``python -m unittest discover -s tools/mahjong``)."""

from __future__ import annotations

import unittest

import numpy as np

import fit_play_calibration as fit


def row(continuation: str, shanten: int, draws_left: int, win: float, won: bool) -> dict:
    return {
        "continuation": continuation,
        "shanten": shanten,
        "draws_left": draws_left,
        "win": win,
        "won": won,
        "turn": 16 - min(draws_left, 16),
    }


class MapOf(unittest.TestCase):
    def test_plan_figures_of_3_shanten_hands_have_their_own_map(self):
        self.assertEqual(fit.map_of(row("Plan", 3, 10, 0.1, False)), "Plan3")
        self.assertEqual(fit.map_of(row("Plan", 2, 10, 0.1, False)), "Plan")
        self.assertEqual(fit.map_of(row("AdvanceOrThrow", 3, 10, 0.1, False)), "AdvanceOrThrow")


class ShippedMaps(unittest.TestCase):
    def test_every_ruleset_reads_four_maps_rising_with_the_figure(self):
        for ruleset in ["General", "Sichuan", "Riichi"]:
            coef = fit.shipped_maps(ruleset)
            self.assertEqual(sorted(coef), sorted(fit.MAPPED))
            for c, w in coef.items():
                self.assertEqual(len(w), len(fit.COEFFICIENTS))
                self.assertGreater(w[1], 0.0, f"{ruleset} {c}")
            # Only the 3-shanten plan's map bends above 16 draws (play.rs docs).
            for c in ["Plan", "AdvanceOrThrow", "Greedy"]:
                self.assertEqual(coef[c][6], 0.0, f"{ruleset} {c}")


class FitRecoversAKnownModel(unittest.TestCase):
    def test_plan3_with_its_bend(self):
        # Outcomes drawn from a known Plan3 model (a, b, d, bend); 60,000 decisions
        # recover it to within a few standard errors (about 0.05 for d and the bend).
        rng = np.random.default_rng(7)
        a, b, d, e = -1.7, 0.75, 1.8, -1.6
        rows = []
        for _ in range(60_000):
            r = int(rng.integers(4, 21))
            v = float(rng.uniform(0.01, 0.5))
            z = a + b * np.log(v / (1 - v)) + d * r / 16 + e * max(r - 16, 0) / 16
            won = bool(rng.random() < 1 / (1 + np.exp(-z)))
            rows.append(row("Plan", 3, r, v, won))
        w = fit.fit_map(rows, "Plan3")
        self.assertIsNotNone(w)
        for got, want, tol in [(w[0], a, 0.15), (w[1], b, 0.05), (w[2], d, 0.2), (w[6], e, 0.5)]:
            self.assertAlmostEqual(got, want, delta=tol)
        # The shanten offsets are not fitted for this map.
        self.assertEqual(list(w[3:6]), [0.0, 0.0, 0.0])


if __name__ == "__main__":
    unittest.main()
