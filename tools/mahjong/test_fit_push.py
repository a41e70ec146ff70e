"""Tests of fit_push.py on a tiny hand-made game log, every expected value worked by hand.

Run: python3 -m unittest discover -s tools/mahjong (stdlib only)."""

from __future__ import annotations

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fit_push as fp  # noqa: E402


def start(oya, honba=0, marker="E"):
    return {"type": "start_kyoku", "oya": oya, "honba": honba, "dora_marker": marker, "kyoku": 1,
            "bakaze": "E", "kyotaku": 0, "scores": [25000] * 4, "tehais": [[]] * 4}


def draws(actor, n):
    return [{"type": "tsumo", "actor": actor, "pai": "?"} for _ in range(n)]


END = {"type": "end_kyoku"}

# The player (challenger) is seat 0.
GAME = {
    "seed": 1,
    "challenger_seat": 0,
    "events": [
        {"type": "start_game"},
        # Kyoku 1 (seat 0 deals, 1 honba): seat 1 declares riichi, draws 3 times (seat 2's
        # draws do not count), and wins on seat 2's discard: 8,000 + 300 honba paid.
        start(0, honba=1),
        *draws(2, 1),
        {"type": "reach_accepted", "actor": 1},
        *draws(1, 3), *draws(2, 2),
        {"type": "hora", "actor": 1, "target": 2, "deltas": [0, 8300, -8300, 0]},
        END,
        # Kyoku 2 (seat 1 deals): seat 3 in riichi draws once and wins by self-draw, the
        # player paying 1,000.
        start(1),
        {"type": "reach_accepted", "actor": 3},
        *draws(3, 1),
        {"type": "hora", "actor": 3, "target": 3, "tsumo": True, "deltas": [-1000, -2000, -1000, 4000]},
        END,
        # Kyoku 3 (seat 2 deals): the dealer, open (chi), wins 5,800 on the player's discard.
        start(2),
        {"type": "chi", "actor": 2, "target": 1, "pai": "3p", "consumed": ["4p", "5p"]},
        {"type": "hora", "actor": 2, "target": 0, "deltas": [-5800, 0, 5800, 0]},
        END,
        # Kyoku 4 (seat 3 deals; marker 9m, so 1m is dora): seat 2 pons 1m, three dora in
        # its meld, and wins 7,700 on the player's discard.
        start(3, marker="9m"),
        {"type": "pon", "actor": 2, "target": 1, "pai": "1m", "consumed": ["1m", "1m"]},
        {"type": "hora", "actor": 2, "target": 0, "deltas": [-7700, 0, 7700, 0]},
        END,
        {"type": "end_game"},
    ],
}

BASE = {
    "source": "priors",
    "value": {"riichi": 6400, "closed": 5000, "open": 3800, "per_dora_shown": 1600,
              "dealer_factor": 1.5, "per_honba": 300},
    "push": {"threat_win_per_turn": 0.08, "tsumo_share": 0.13, "riichi_bonus_han": 1.7,
             "ron_factor": 0.8, "win_cap": 0.95},
}


class FitPushTest(unittest.TestCase):
    def setUp(self):
        self.t = fp.tally([GAME])
        self.f = fp.figures(self.t, BASE, min_count=1)

    def test_dora_markers_point_at_the_next_tile(self):
        self.assertEqual(fp.dora_of("9m"), fp.tile_kind("1m"))
        self.assertEqual(fp.dora_of("5pr"), fp.tile_kind("6p"))
        self.assertEqual(fp.dora_of("N"), fp.tile_kind("E"))
        self.assertEqual(fp.dora_of("C"), fp.tile_kind("P"))

    def test_threats_turns_and_wins(self):
        # Turns: seat 1's 3 draws after its riichi, seat 3's 1: 4. Field seats among each
        # threat's others (the player excluded): 2 per turn, 8. Wins not on the player's
        # discard: seat 1's ron on seat 2 and seat 3's self-draw.
        t = self.t
        self.assertEqual((t.turns, t.field_turns), (4, 8))
        self.assertEqual((t.tsumo, t.ron_not_player, t.ron_field, t.ron_player), (1, 1, 1, 0))
        self.assertEqual(t.player_paid_other, [0, 1000])
        self.assertEqual(t.open_dora, [3])

    def test_the_race_constants(self):
        f = self.f
        # r = 2 wins / 4 turns.
        self.assertAlmostEqual(f["threat_win_per_turn"][0], 0.5)
        # Self-draw 1/4 per turn; ron 1/8 per turn per field seat, times 3 seats: 3/8;
        # ron_factor (3/8) / (1/4) = 1.5.
        self.assertAlmostEqual(f["ron_factor"][0], 1.5)
        # The player paid 0 and 1,000 on the two wins not on its discard, mean 500; the
        # only deal-in into a riichi hand was 8,000 (honba off): 500 / 8000.
        self.assertAlmostEqual(f["tsumo_share"][0], 0.0625)

    def test_values(self):
        f, w = self.f, self.f["weights"]
        # Non-dealer riichi 8,000; non-dealer open 7,700 less 3 dora x 1,600 = 2,900;
        # no closed deal-in: the base's 5,000 stays. Dealer over non-dealer, open: 5,800 /
        # 7,700 = 0.753.
        self.assertEqual(w["value"]["riichi"], 8000)
        self.assertEqual(w["value"]["open"], 2900)
        self.assertEqual(w["value"]["closed"], 5000)
        self.assertAlmostEqual(w["value"]["dealer_factor"], 0.753)
        self.assertEqual(f["value"]["closed"][2], 0)
        self.assertEqual(w["push"]["riichi_bonus_han"], 1.7)

    def test_too_few_deal_ins_keep_the_base(self):
        w = fp.figures(self.t, BASE, min_count=2)["weights"]
        self.assertEqual(w["value"], BASE["value"])


if __name__ == "__main__":
    unittest.main()
