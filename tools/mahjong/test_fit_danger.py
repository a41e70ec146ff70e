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
           melds1=(), live_left=40, dealer=0, round_wind=0, rivers_other=(), kyoku=1):
    """A discard record of the arena's format with only opponent 1 of interest."""
    return {
        "seed": seed, "kyoku": kyoku, "tile": tile, "hand": hand, "dora": "1z", "live_left": live_left,
        "dealer": dealer, "round_wind": round_wind,
        "rivers": [list(rivers_other), list(river1), [], []],
        "melds": [[], list(melds1), [], []],
        "riichi": [False, riichi1, False, False],
        "tenpai": [False, tenpai1, False, False],
        "waits": ["", "", "", ""],
        "safe": ["", safe1, "", ""],
        "dealt_in": list(dealt),
    }


PRIORS = {
    "wait": {"ryanmen": 0.04, "kanchan": 0.02, "penchan": 0.015, "shanpon": 0.025,
             "tanki_number": 0.005, "tanki_honour": 0.02},
    "modifiers": {"riichi_matagi": 1.3, "early_near": 0.8, "early_discards": 6,
                  "flush_suit": 1.6, "flush_other": 0.4},
    "tenpai": {"intercept": -4.0, "per_discard": 0.22, "per_open_meld": 0.9, "per_tsumogiri_streak": 0.15},
}
HONOURS_ETC = "1z2z3z4z5z6z7z1s9s1p9p2p8p"


class WaitModel(unittest.TestCase):
    """The service's wait model (fit_danger's doc, from src/mahjong/table/danger.rs's) on
    hand-worked tiles, with the priors of src/mahjong/table/danger_weights.json."""

    def wait(self, tile, safe="", hand=HONOURS_ETC, river1=()):
        rec = record(0, tile, safe1=safe, hand=hand + tile, river1=river1, riichi1=True)
        unseen = [max(0, 4 - c) for c in fd.seen_counts(rec)]
        shapes = fd.shape_features(fd.kind(tile), set(fd.kinds_of(safe)), unseen)
        flags = fd.modifier_flags(fd.kind(tile), rec, 1, 6)
        return fd.wait_probability(PRIORS, shapes, flags)

    def test_genbutsu_is_zero(self):
        self.assertEqual(self.wait("5m", safe="5m"), 0.0)

    def test_a_middle_tile_with_everything_unseen(self):
        # 5m, the discarder holding one (3 unseen), its neighbours unseen (weight 1):
        # two ryanmen 2 x 0.04, kanchan 0.02, shanpon C(3,2)/3 = 1 x 0.025, tanki 0.005.
        self.assertAlmostEqual(self.wait("5m"), 0.08 + 0.02 + 0.025 + 0.005)

    def test_suji_removes_one_ryanmen_each(self):
        self.assertAlmostEqual(self.wait("5m", safe="2m"), 0.04 + 0.02 + 0.025 + 0.005)
        self.assertAlmostEqual(self.wait("5m", safe="2m8m"), 0.02 + 0.025 + 0.005)

    def test_terminals_and_penchan(self):
        # 1m: ryanmen 23m (waits 1-4) only, shanpon, tanki. 3m: ryanmen 45m, kanchan 24m,
        # penchan 12m, shanpon, tanki.
        self.assertAlmostEqual(self.wait("1m"), 0.04 + 0.025 + 0.005)
        self.assertAlmostEqual(self.wait("3m"), 0.04 + 0.02 + 0.015 + 0.025 + 0.005)

    def test_seen_copies_thin_the_shapes(self):
        # The discarder holds 4m 4m (2 unseen: weight 2/3): ryanmen 34m and kanchan 46m
        # thin to 2/3, ryanmen 67m stays whole.
        got = self.wait("5m", hand="44m1z2z3z4z5z6z7z1s9s1p9p")
        self.assertAlmostEqual(got, 0.04 * 2 / 3 + 0.04 + 0.02 * 2 / 3 + 0.025 + 0.005)

    def test_honours(self):
        # 7z held once: shanpon C(3,2)/3 x 0.025 + tanki 0.02; two more held (u = 1):
        # tanki only.
        self.assertAlmostEqual(self.wait("7z", hand="123456789s1234p"), 0.025 + 0.02)
        self.assertAlmostEqual(self.wait("7z", hand="77z3456789s1234p"), 0.02)

    def test_modifiers(self):
        # River: 9p thrown from the hand, then riichi declared on a drawn-and-thrown 4m.
        # 5m (both ryanmen live) is within 2 of the declaration tile: x 1.3 (matagi); no early hand discard
        # near it (9p is another suit).
        river = ("9p", "4mtr")
        self.assertAlmostEqual(self.wait("5m", river1=river, safe="9p4m"),
                               (2 * 0.04 + 0.02 + 0.025 + 0.005) * 1.3)
        # 7p is within 2 of the early 9p from the hand: x 0.8. Its shapes: ryanmen 56p
        # (other wait 4p, not safe), kanchan 68p, penchan 89p with 9p thinned to 2/3 (one
        # in the river, one held: 2 unseen), shanpon (3 unseen), tanki. The copy of 8p
        # held leaves 3 unseen: weight 1.
        got = self.wait("7p", river1=river, safe="9p4m")
        self.assertAlmostEqual(got, (0.04 + 0.02 + 0.015 * 2 / 3 + 0.025 + 0.005) * 0.8)


class Fitting(unittest.TestCase):
    def test_logistic_recovers_known_coefficients(self):
        rng = np.random.default_rng(7)
        x = rng.normal(size=(20000, 2))
        z = -1.0 + 2.0 * x[:, 0] - 0.5 * x[:, 1]
        y = (rng.random(20000) < 1 / (1 + np.exp(-z))).astype(float)
        w = fd.fit_logistic(x, y, l2=0.0)
        np.testing.assert_allclose(w, [-1.0, 2.0, -0.5], atol=0.08)

    def test_linear_bernoulli_recovers_known_weights(self):
        # y ~ Bernoulli(0.03 x1 + 0.10 x2) with x1, x2 in {0, 1, 2}: the fit recovers the
        # weights within sampling error (200,000 draws, fixed seed).
        rng = np.random.default_rng(3)
        x = rng.integers(0, 3, size=(200000, 2)).astype(float)
        y = (rng.random(200000) < x @ np.array([0.03, 0.10])).astype(float)
        w = fd.fit_linear_bernoulli(x, y, np.array([0.05, 0.05]))
        np.testing.assert_allclose(w, [0.03, 0.10], atol=0.004)

    def test_prediction_sums_opponents(self):
        # Opponent 1 in riichi (tenpai 1), 5m's wait 0.13 as worked in WaitModel;
        # opponents 2 and 3 not in riichi, empty rivers: tenpai logistic(-4) each, the
        # same 0.13. The service sums them.
        rec = record(1, "5m", riichi1=True, hand=HONOURS_ETC + "5m")
        [(p, dealt)] = fd.predict(PRIORS, [rec])
        q = 1 / (1 + math.exp(4.0))
        self.assertAlmostEqual(p, 0.13 + 2 * q * 0.13)
        self.assertFalse(dealt)

    def test_calibration_bins_and_error(self):
        preds = [(0.1, n < 2) for n in range(10)] + [(0.5, n < 5) for n in range(10)]
        cal = fd.calibration(preds, bins=2, min_bin=10)
        self.assertEqual([b["count"] for b in cal["bins"]], [10, 10])
        self.assertAlmostEqual(cal["bins"][0]["observed"], 0.2)
        self.assertAlmostEqual(cal["bins"][1]["observed"], 0.5)
        self.assertAlmostEqual(cal["max_error"], 0.1)
        self.assertTrue(math.isclose(cal["mean_predicted"], 0.3))

    def refusal(self, train, held) -> str:
        """fit_danger's exit message for one training and one held-out record."""
        import gzip
        import json
        import tempfile

        with tempfile.TemporaryDirectory() as d:
            paths = []
            for name, rec in (("t", train), ("h", held)):
                paths.append(os.path.join(d, f"{name}.jsonl.gz"))
                with gzip.open(paths[-1], "wt") as f:
                    f.write(json.dumps(rec) + "\n")
            base = os.path.join(d, "base.json")
            with open(base, "w") as f:
                json.dump(PRIORS, f)
            with self.assertRaises(SystemExit) as raised:
                fd.main(["--train", paths[0], "--held-out", paths[1], "--base", base])
        return str(raised.exception)

    def test_overlapping_seeds_are_refused(self):
        self.assertIn("share seeds", self.refusal(record(5, "5m"), record(5, "5m")))

    def test_neighbouring_seeds_sharing_a_wall_are_refused(self):
        # Seed 5's second kyoku is dealt from the wall of seed 6's first (both seed +
        # kyoku = 7): different seeds, the same wall.
        message = self.refusal(record(5, "5m", kyoku=2), record(6, "5m", kyoku=1))
        self.assertIn("share walls [7]", message)

if __name__ == "__main__":
    unittest.main()
