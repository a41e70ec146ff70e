"""Tests of fit_danger.py on a tiny fixed data set, every expected value worked by hand.

Run: python3 -m unittest discover -s tools/mahjong (numpy needed)."""

from __future__ import annotations

import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import fit_danger as fd  # noqa: E402


def record(seed, tile, safe1="", riichi1=False, tenpai1=False, dealt=(), river1=(), hand="123456789m1234p",
           melds1=(), live_left=40, dealer=0, round_wind=0, rivers_other=()):
    """A discard record of the arena's format with only opponent 1 of interest."""
    return {
        "seed": seed, "tile": tile, "hand": hand, "dora": "1z", "live_left": live_left,
        "dealer": dealer, "round_wind": round_wind,
        "rivers": [list(rivers_other), list(river1), [], []],
        "melds": [[], list(melds1), [], []],
        "riichi": [False, riichi1, False, False],
        "tenpai": [False, tenpai1, False, False],
        "waits": ["", "", "", ""],
        "safe": ["", safe1, "", ""],
        "dealt_in": list(dealt),
    }


class Categories(unittest.TestCase):
    """Suji, kabe and honour categories, from the definitions in the module doc."""

    def cat(self, tile, safe="", hand="123456789m1234p", rivers_other=(), **kw):
        rec = record(0, tile, safe1=safe, hand=hand, rivers_other=rivers_other, **kw)
        seen = fd.seen_counts(rec)
        return fd.category(fd.kind(tile), set(fd.kinds_of(safe)), seen, rec, 1)

    def test_genbutsu_has_no_category(self):
        self.assertIsNone(self.cat("5m", safe="5m"))

    def test_suji_of_a_middle_tile_needs_both_sides(self):
        # 4m is hit by ryanmen 23m (waits 1-4) and 56m (waits 4-7).
        self.assertEqual(self.cat("4p", safe="1p7p"), "n456s-")
        self.assertEqual(self.cat("4p", safe="1p"), "n456h-")
        self.assertEqual(self.cat("4p"), "n4560-")

    def test_suji_of_an_outer_tile_has_one_partner(self):
        self.assertEqual(self.cat("1s", safe="4s"), "n19s-")
        self.assertEqual(self.cat("8s", safe="5s"), "n28s-")
        self.assertEqual(self.cat("3s", safe="9s"), "n370-")  # 9s is not 3s's suji (6s is)

    def test_kabe(self):
        # 1s is hit only by the shape 23s; four 2s seen (the hand holds them) -> no chance.
        self.assertEqual(self.cat("1s", hand="2222s123456789m1p"), "n190k")
        # 5s: shapes 34s and 67s; four 4s seen kill 34s but 67s lives.
        self.assertEqual(self.cat("5s", hand="4444s123456789m1p"), "n4560-")
        self.assertEqual(self.cat("5s", hand="4444s6666s12345m"), "n4560k")

    def test_honours_count_the_other_copies_seen(self):
        # The hand holds the 7z thrown and one more; the opponent's river shows none.
        self.assertEqual(self.cat("7z", hand="77z123456789m12p"), "z1y")
        # 4z (North) is opponent 1's seat wind when the discarder (seat 0) deals:
        # opponent 1 sits South. So 4z is no yakuhai for it, 2z is.
        self.assertEqual(self.cat("4z", hand="4z123456789m123p"), "z0-")
        self.assertEqual(self.cat("2z", hand="2z123456789m123p"), "z0y")
        # Copies in a river not called away count; 1z in the dora indicators counts.
        self.assertEqual(self.cat("1z", hand="1z123456789m123p", rivers_other=("1z",)), "z2y")


class Fitting(unittest.TestCase):
    def test_logistic_recovers_known_coefficients(self):
        rng = np.random.default_rng(7)
        x = rng.normal(size=(20000, 2))
        z = -1.0 + 2.0 * x[:, 0] - 0.5 * x[:, 1]
        y = (rng.random(20000) < 1 / (1 + np.exp(-z))).astype(float)
        w = fd.fit_logistic(x, y, l2=0.0)
        np.testing.assert_allclose(w, [-1.0, 2.0, -0.5], atol=0.08)

    def test_wait_rates_are_smoothed_counts(self):
        # Opponent 1 in riichi, four discards of 5m into it (no suji, no kabe): one
        # dealt in. Two more of 1z, none dealt in: one copy seen besides the one thrown
        # (the dora indicator), and a yakuhai (the round wind; with the discarder South,
        # also opponent 1's seat wind): z1y. Prior (riichi) = 1/6; smoothing a = 2:
        # n4560- = (1 + 2/6) / (4 + 2) = 2/9; z1y = (0 + 2/6) / (2 + 2) = 1/12.
        recs = [record(1, "5m", riichi1=True, tenpai1=True, dealt=[1] if n == 0 else [],
                       hand="5m123m456p789s1122z") for n in range(4)]
        recs += [record(2, "1z", riichi1=True, tenpai1=True, hand="1z123m456p789s2233z", dealer=1)
                 for _ in range(2)]
        # And two non-riichi pairs so that the tenpai model has data.
        recs += [record(3, "9p", tenpai1=False), record(3, "9p", tenpai1=True)]
        params = fd.fit(recs, l2=1.0, smoothing=2.0)
        self.assertAlmostEqual(params["wait_riichi_prior"], 1 / 6)
        self.assertAlmostEqual(params["wait_riichi"]["n4560-"], 2 / 9)
        self.assertAlmostEqual(params["wait_riichi"]["z1y"], 1 / 12)

    def test_prediction_combines_opponents(self):
        params = {
            "tenpai": {"intercept": 0.0, "coef": {n: 0.0 for n in fd.TENPAI_FEATURES}},
            "wait_riichi": {"n4560-": 0.2}, "wait_riichi_prior": 0.1,
            "wait_other": {"n4560-": 0.1}, "wait_other_prior": 0.05,
        }
        rec = record(1, "5m", riichi1=True)
        # Opponent 1 in riichi: 1 x 0.2. Opponents 2 and 3 not: P(tenpai) = 1/2 each (zero
        # coefficients), wait 0.1: 0.05 each. 1 - 0.8 x 0.95 x 0.95 = 0.278.
        [(p, dealt)] = fd.predict(params, [rec])
        self.assertAlmostEqual(p, 1 - 0.8 * 0.95 * 0.95)
        self.assertFalse(dealt)

    def test_calibration_bins_and_error(self):
        preds = [(0.1, n < 2) for n in range(10)] + [(0.5, n < 5) for n in range(10)]
        cal = fd.calibration(preds, bins=2, min_bin=10)
        self.assertEqual([b["count"] for b in cal["bins"]], [10, 10])
        self.assertAlmostEqual(cal["bins"][0]["observed"], 0.2)
        self.assertAlmostEqual(cal["bins"][1]["observed"], 0.5)
        self.assertAlmostEqual(cal["max_error"], 0.1)
        self.assertTrue(math.isclose(cal["mean_predicted"], 0.3))

    def test_overlapping_seeds_are_refused(self):
        import gzip
        import json
        import tempfile

        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "a.jsonl.gz")
            with gzip.open(path, "wt") as f:
                f.write(json.dumps(record(5, "5m")) + "\n")
            with self.assertRaises(SystemExit):
                fd.main(["--train", path, "--held-out", path])


if __name__ == "__main__":
    unittest.main()
