"""Unit tests of the arena harness (no service needed).

Run: tools/arena/.venv/bin/python -m unittest discover -s tools/arena -v
"""

import collections
import pathlib
import sys
import types
import unittest

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import arena  # noqa: E402
import fit_calibration  # noqa: E402
import fullgame  # noqa: E402
import losses  # noqa: E402
import gameai_client  # noqa: E402  (arena put examples/python on sys.path)

PB, _ = gameai_client.load("doudizhu")


def infoset(position, hand, history):
    """The fields of a DouZero InfoSet that build_play_request reads."""
    return types.SimpleNamespace(player_position=position, player_hand_cards=hand,
                                 card_play_action_seq=history)


class CardNotation(unittest.TestCase):
    def test_every_rank_maps_to_the_design_letter(self):
        # DESIGN.md: ranks 3..9 T J Q K A 2, X small joker, D big joker; DouZero's ints
        # are 3..14 for 3..A, 17 for 2, 20 and 30 for the jokers (douzero/env/game.py).
        deck = sorted(arena.DECK)
        self.assertEqual(arena.cards_to_str(deck),
                         "".join(r * 4 for r in "3456789TJQKA2") + "XD")
        self.assertEqual(arena.str_to_cards("3TA2XD"), [3, 10, 14, 17, 20, 30])
        self.assertEqual(arena.str_to_cards(""), [])

    def test_foreign_character_is_rejected(self):
        with self.assertRaisesRegex(ValueError, "card '1' is not a rank"):
            arena.str_to_cards("31")


class Deals(unittest.TestCase):
    def test_deal_shape_and_reproducibility(self):
        deals = arena.make_deals(5, seed=7)
        self.assertEqual(deals, arena.make_deals(5, seed=7))
        self.assertNotEqual(deals, arena.make_deals(5, seed=8))
        for d in deals:
            self.assertEqual([len(d[p]) for p in arena.POSITIONS], [20, 17, 17])
            whole = d["landlord"] + d["landlord_down"] + d["landlord_up"]
            self.assertEqual(sorted(whole), sorted(arena.DECK))
            bottom = collections.Counter(d["three_landlord_cards"])
            self.assertEqual(sum(bottom.values()), 3)
            self.assertFalse(bottom - collections.Counter(d["landlord"]))


class Requests(unittest.TestCase):
    # Hand-worked: the landlord led 33, landlord_down passed, landlord_up played 55.
    # Entry 3 belongs to the landlord again (3 mod 3 = 0), holding 20 - 2 = 18 cards.
    LANDLORD = [3, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 17, 20, 30]
    BOTTOM = [17, 20, 30]

    def test_request_fields(self):
        req = arena.build_play_request(
            PB, infoset("landlord", self.LANDLORD, [[3, 3], [], [5, 5]]), self.BOTTOM,
            PB.SEARCH_MODE_HEURISTIC, 0)
        self.assertEqual(req.hand, "334456789TJQKA22XD")
        self.assertEqual(req.seat, PB.SEAT_LANDLORD)
        self.assertEqual(req.landlord_cards, "2XD")
        self.assertEqual(list(req.history), ["33", "", "55"])
        arena.check_request(req, "landlord", self.BOTTOM)

    def test_seat_mapping(self):
        req = arena.build_play_request(
            PB, infoset("landlord_up", [3] * 4 + [4] * 4 + [5] * 4 + [6] * 4 + [7], [[8], []]),
            self.BOTTOM, 0, 0)
        self.assertEqual(req.seat, PB.SEAT_LANDLORD_UP)
        arena.check_request(req, "landlord_up", self.BOTTOM)

    def test_inconsistent_requests_are_caught(self):
        build = arena.build_play_request
        # Wrong seat to move: after 3 entries the landlord moves, not landlord_down.
        req = build(PB, infoset("landlord_down", [3] * 17, [[4], [], []]), self.BOTTOM, 0, 0)
        with self.assertRaisesRegex(arena.HarnessError, "not to move"):
            arena.check_request(req, "landlord_down", self.BOTTOM)
        # Hand size: the landlord played 2 cards, so 18 must remain, not 17.
        req = build(PB, infoset("landlord", self.LANDLORD[1:], [[3, 3], [], [5, 5]]),
                    self.BOTTOM, 0, 0)
        with self.assertRaisesRegex(arena.HarnessError, "wrong size"):
            arena.check_request(req, "landlord", self.BOTTOM)
        # Five 3s: two in history, three more in hand.
        hand = [3, 3, 3] + self.LANDLORD[4:]
        req = build(PB, infoset("landlord", hand + [4], [[3, 3], [], [5, 5]]),
                    self.BOTTOM, 0, 0)
        with self.assertRaisesRegex(arena.HarnessError, "rank 3 seen 5 times"):
            arena.check_request(req, "landlord", self.BOTTOM)


class PeerRuns(unittest.TestCase):
    def test_peer_run_is_reproducible_and_legal(self):
        args = ["--ours-peer", "rlcard", "--opponent", "random", "--deals", "20",
                "--seed", "3"]
        first = arena.run(arena.parse_args(args))
        second = arena.run(arena.parse_args(args))
        for key in ("landlord", "farmers", "overall"):
            self.assertEqual(first[key], second[key])
        self.assertEqual(first["illegal_suggestions"], 0)
        self.assertEqual(first["overall"]["games"], 40)

    def test_points_as_douzero_counts_them(self):
        # simulation.py: the landlord side scores +-2 * 2**bombs per game, the farmer
        # side +-1 * 2**bombs counted twice (2 * num_farmer_scores).
        self.assertEqual(arena.game_points(True, 0), 2)
        self.assertEqual(arena.game_points(False, 0), -2)
        self.assertEqual(arena.game_points(True, 2), 8)
        self.assertEqual(arena.game_points(False, 3), -16)


class FullGames(unittest.TestCase):
    """fullgame.py against seed 002's rules, each case worked by hand."""

    @staticmethod
    def bidders(*scripted):
        """Bidders that bid the scripted levels when above the highest bid, else pass."""
        return [lambda bids, level=level: level if level > max(bids, default=0) else 0
                for level in scripted]

    def test_bidding_follows_seed_002(self):
        # 1, then 2, then a pass: position 1 is landlord at 2.
        self.assertEqual(fullgame.run_bidding(self.bidders(1, 2, 0)), (1, 2, [1, 2, 0]))
        # A 3 ends the bidding at once: position 2 never bids.
        self.assertEqual(fullgame.run_bidding(self.bidders(3, 2, 1)), (0, 3, [3]))
        # A level not above the highest bid passes: 2, (1 -> pass), 3.
        self.assertEqual(fullgame.run_bidding(self.bidders(2, 1, 3)), (2, 3, [2, 0, 3]))
        # All pass: the first bidder is landlord with a bid of 1.
        self.assertEqual(fullgame.run_bidding(self.bidders(0, 0, 0)), (0, 1, [0, 0, 0]))
        with self.assertRaises(ValueError):
            fullgame.run_bidding([lambda bids: 2, lambda bids: 1, lambda bids: 0])

    def test_play_order_is_bidding_order(self):
        self.assertEqual(fullgame.seat_positions(2),
                         {2: "landlord", 0: "landlord_down", 1: "landlord_up"})
        deal = {"hands": [[3] * 17, [4] * 17, [5] * 17], "bottom": [6, 6, 6]}
        d = fullgame.card_play_deal(deal, 1)
        self.assertEqual(d["landlord"], [4] * 17 + [6, 6, 6])
        self.assertEqual(d["landlord_down"], [5] * 17)
        self.assertEqual(d["landlord_up"], [3] * 17)
        self.assertEqual(d["three_landlord_cards"], [6, 6, 6])

    def test_deals_are_reproducible_whole_decks(self):
        deals = fullgame.make_full_deals(3, seed=5)
        self.assertEqual(deals, fullgame.make_full_deals(3, seed=5))
        for d in deals:
            self.assertEqual(sorted(sum(d["hands"], []) + d["bottom"]), sorted(arena.DECK))

    def test_spring_and_anti_spring(self):
        # The landlord plays everything, the farmers only pass: spring.
        self.assertTrue(fullgame.springs([[3], [], [], [4]], "landlord"))
        # A farmer played once: no spring.
        self.assertFalse(fullgame.springs([[3], [5], [], [6]], "landlord"))
        # The landlord played once, then a farmer ran the table: anti-spring.
        self.assertTrue(fullgame.springs([[3], [5], [], [], [6], []], "farmer"))
        self.assertFalse(fullgame.springs([[3], [5], [], [7], [8]], "farmer"))

    def test_score_is_bid_times_doublings(self):
        # Bid 2, one bomb, no spring: 4 points; the landlord gets it from both farmers.
        self.assertEqual(fullgame.game_score(2, 1, False, True, "landlord"), 8)
        self.assertEqual(fullgame.game_score(2, 1, False, True, "farmer"), -4)
        # Bid 3, two bombs, anti-spring: 3 * 4 * 2 = 24 to each farmer.
        self.assertEqual(fullgame.game_score(3, 2, True, False, "farmer"), 24)
        self.assertEqual(fullgame.game_score(3, 2, True, False, "landlord"), -48)

    def test_calibration_deciles(self):
        pairs = [(0.05, False)] * 92 + [(0.05, True)] * 8 + [(0.72, True)] * 60 \
            + [(0.72, False)] * 40
        cal = fullgame.calibration(pairs)
        rows = {r["decile"]: r for r in cal["rows"]}
        self.assertEqual(rows["0.0-0.1"]["games"], 100)
        self.assertAlmostEqual(rows["0.0-0.1"]["observed"], 0.08)
        self.assertAlmostEqual(rows["0.0-0.1"]["diff"], 0.03)
        # 0.60 observed against 0.72 estimated is off by 0.12, in a decile of 100.
        self.assertAlmostEqual(rows["0.7-0.8"]["diff"], -0.12)
        self.assertFalse(cal["within_tolerance"])
        # The same miss in a decile of fewer than 100 games does not count.
        self.assertTrue(fullgame.calibration(pairs[:100] + pairs[100:150])["within_tolerance"])


class CalibrationCheck(unittest.TestCase):
    def test_se_z_and_chi_square_by_hand(self):
        # 100 games at estimate 0.25 with 35 wins: diff +0.10, se = sqrt(0.25 * 0.75 / 100)
        # = 0.0433, z = 2.309; 100 games at 0.65 with 65 wins: z = 0. Chi-square = z**2 =
        # 5.333 over 2 deciles: P(X >= 5.333) = exp(-5.333 / 2) = 0.0695 for 2 df.
        pairs = [(0.25, i < 35) for i in range(100)] + [(0.65, i < 65) for i in range(100)]
        cal, rows, chi2, cells = fit_calibration.check_rows(pairs)
        self.assertEqual([r["decile"] for r in rows], ["0.2-0.3", "0.6-0.7"])
        self.assertAlmostEqual(rows[0]["se"], 0.0433013, places=6)
        self.assertAlmostEqual(rows[0]["z"], 0.10 / 0.0433013, places=4)
        self.assertAlmostEqual(rows[1]["z"], 0.0, places=12)
        self.assertEqual(cells, 2)
        self.assertAlmostEqual(chi2, 0.01 / (0.25 * 0.75 / 100), places=9)
        self.assertAlmostEqual(fit_calibration.chi2_survival(chi2, cells),
                               0.0694835, places=6)
        self.assertFalse(cal["within_tolerance"])



class PosteriorFit(unittest.TestCase):
    def test_identity_mapping_gives_the_beta_mean(self):
        # With the mapping (0, 1) the estimate is the mean of Beta(2.56 + 7, 2.63 + 13),
        # (2.56 + 7) / (5.19 + 20) = 0.379516, up to the clamp at 0.005 (below 1e-5).
        games = [{"wins": 7, "deals": 20}]
        est = fit_calibration.posterior_estimates(games, (0.0, 1.0))[0]
        self.assertAlmostEqual(est, 9.56 / 25.19, delta=1e-5)

    def test_deals_recovered_from_share_and_estimate(self):
        # 7/20, 14/40 and 105/300 are one share; only the right number of deals gives
        # the estimate the service would have returned for it.
        for wins, deals in [(7, 20), (14, 40), (105, 300), (0, 13)]:
            est = fit_calibration.posterior_estimates(
                [{"wins": wins, "deals": deals}], fit_calibration.SHIPPED)[0]
            self.assertEqual(fit_calibration.recover_deals(wins / deals, est), deals)
        # An estimate no number of deals gives is not matched.
        self.assertIsNone(fit_calibration.recover_deals(0.35, 0.9))

    def test_fit_through_the_posterior_recovers_a_mapping_from_few_deals(self):
        # 3,000 hands with true shares from the prior, 20 simulated deals each, outcomes
        # drawn from the mapping (-0.3, 0.9) of the true share. The point fit on the
        # raw shares is flattened by their binomial noise (b about 0.55-0.65 on such
        # samples); the fit through the posterior recovers b within its sampling error
        # (about 0.06 here).
        rng = np.random.default_rng(5)
        s = rng.beta(*fit_calibration.SHARE_PRIOR, size=3000)
        wins = rng.binomial(20, s)
        won = rng.random(3000) < 1 / (1 + np.exp(-(-0.3 + 0.9 * fit_calibration.logit(s))))
        games = [{"share": w / 20, "deals": 20, "wins": int(w), "won": bool(y)}
                 for w, y in zip(wins, won)]
        _, point_b = fit_calibration.fit([(g["share"], g["won"]) for g in games])
        a, b = fit_calibration.posterior_fit(games)
        self.assertLess(abs(a + 0.3), 0.15)
        self.assertLess(abs(b - 0.9), 0.2)
        self.assertLess(point_b, b - 0.1)


class LossBreakdown(unittest.TestCase):
    def test_counts_by_hand(self):
        # Three deals. Deal 0: ours loses as landlord (the reference too) and wins as the
        # farmers. Deal 1: ours loses both games; the reference wins as landlord. Deal
        # 2: ours wins both. Deal 3 was played by ours alone and is left out.
        ours = {(0, "landlord"): False, (0, "farmers"): True, (1, "landlord"): False,
                (1, "farmers"): False, (2, "landlord"): True, (2, "farmers"): True,
                (3, "landlord"): False}
        ref = {(0, "landlord"): False, (0, "farmers"): True, (1, "landlord"): True,
               (1, "farmers"): False, (2, "landlord"): False, (2, "farmers"): True}
        b = losses.breakdown(ours, ref)
        self.assertEqual(b["landlord"], {"games": 3, "lost": 2, "reference_lost_too": 1})
        self.assertEqual(b["farmers"], {"games": 3, "lost": 1, "reference_lost_too": 1})
        self.assertEqual(b["deals"], 3)
        self.assertEqual(b["deals_lost_in_both_roles"], 1)
        self.assertEqual(b["landlord_losses_won_as_farmers"], 1)


if __name__ == "__main__":
    unittest.main()
