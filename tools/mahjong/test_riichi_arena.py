"""Tests of the riichi arena's parts on hand-written MJAI events and hands (expected
values worked by hand in the comments). The parts that need riichienv are skipped in a
venv without it (.ci/arena.sh runs this directory in the Dou Dizhu arena's venv;
.ci/riichi_arena.sh in the riichi arena's, which has it).

Run: tools/mahjong/.venv/bin/python -m unittest discover -s tools/mahjong"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from riichi import tiles  # noqa: E402
from riichi.table import TableView  # noqa: E402

HAVE_RIICHIENV = importlib.util.find_spec("riichienv") is not None


def kyoku_events():
    """East 1, seat 0 deals. Seat 0 throws 1m from its hand, seat 1 pons it (from the
    left, i.e. seat 0 is seat 1's kamicha) and throws 9p; seat 2 draws and declares riichi
    on a drawn-and-thrown red 5s, accepted; a kan dora appears."""
    q = "?"
    return [
        {"type": "start_game"},
        {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 1, "kyotaku": 1, "oya": 0,
         "dora_marker": "W", "scores": [25000, 24000, 25000, 25000],
         "tehais": [[q] * 13] * 4},
        {"type": "tsumo", "actor": 0, "pai": q},
        {"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": False},
        {"type": "pon", "actor": 1, "target": 0, "pai": "1m", "consumed": ["1m", "1m"]},
        {"type": "dahai", "actor": 1, "pai": "9p", "tsumogiri": False},
        {"type": "tsumo", "actor": 2, "pai": q},
        {"type": "reach", "actor": 2},
        {"type": "dahai", "actor": 2, "pai": "5sr", "tsumogiri": True},
        {"type": "reach_accepted", "actor": 2},
        {"type": "dora", "dora_marker": "C"},
        {"type": "tsumo", "actor": 3, "pai": q},
        {"type": "dahai", "actor": 3, "pai": "2p", "tsumogiri": True},
    ]


class Tiles(unittest.TestCase):
    def test_notations_round_trip(self):
        # riichienv: 16 = red 5m, 52 = red 5p, 88 = red 5s, 108 = 1z (riichienv.convert).
        self.assertEqual([tiles.id_name(t) for t in (0, 16, 17, 52, 88, 108, 135)],
                         ["1m", "0m", "5m", "0p", "0s", "1z", "7z"])
        self.assertEqual(tiles.mjai_mpsz("5pr"), "0p")
        self.assertEqual(tiles.mjai_mpsz("C"), "7z")
        self.assertEqual(tiles.join_mpsz(["5m", "0m", "1z", "9p", "1p"]), "50m19p1z")
        self.assertEqual(tiles.split_mpsz("50m19p1z"), ["5m", "0m", "1p", "9p", "1z"])

    def test_dora_follows_the_indicator(self):
        # 9m -> 1m, 4z (North) -> 1z (East), 7z (Red) -> 5z (White), 5p -> 6p.
        self.assertEqual([tiles.dora_of(k) for k in (8, 30, 33, 13)], [0, 27, 31, 14])


class View(unittest.TestCase):
    def setUp(self):
        self.v = TableView(seat=3)
        self.v.feed(kyoku_events())

    def test_rivers_and_marks(self):
        v = self.v
        self.assertEqual([(t.tile, t.tsumogiri, t.riichi, t.called_by) for t in v.rivers[0]],
                         [("1m", False, False, 1)])
        self.assertEqual([(t.tile, t.tsumogiri, t.riichi) for t in v.rivers[2]], [("0s", True, True)])
        self.assertEqual(v.riichi, [False, False, True, False])
        self.assertEqual(v.riichi_at[2], 0)
        meld = v.melds[1][0]
        self.assertEqual((meld.kind, meld.tiles, meld.called, meld.giver), ("pon", ["1m", "1m", "1m"], "1m", 0))

    def test_counters(self):
        v = self.v
        # Three draws: 70 - 3. Riichi: one more stick (1 + 1) and seat 2 pays 1000.
        self.assertEqual(v.live_left, 67)
        self.assertEqual(v.riichi_sticks, 2)
        self.assertEqual(v.scores, [25000, 24000, 24000, 25000])
        self.assertEqual(v.dora_indicators, ["3z", "7z"])
        self.assertEqual((v.honba, v.dealer, v.round_wind), (1, 0, 0))
        # Seat 3's wind with seat 0 dealing: North (3).
        self.assertEqual(v.seat_wind(), 3)

    def test_visible_tiles(self):
        # Indicators 3z 7z; rivers: 1m called (counted once, in the pon), 9p, 0s, 2p;
        # seat 1's pon 111m.
        self.assertEqual(tiles.join_mpsz(self.v.visible_tiles()), "111m29p0s37z")

    def test_safe_kinds(self):
        v = self.v
        # Seat 2 (riichi on its first discard, order 2): its own 5s, and everything
        # thrown after it: 2p (order 3).
        self.assertEqual(sorted(tiles.kind_name(k) for k in v.safe_kinds(2)), ["2p", "5s"])
        # Seat 1 threw 9p (order 1); after it 5s and 2p were thrown and passed.
        self.assertEqual(sorted(tiles.kind_name(k) for k in v.safe_kinds(1)), ["2p", "5s", "9p"])


class Stats(unittest.TestCase):
    def test_seat_outcomes_from_an_mjai_log(self):
        from riichi import stats

        # Two kyoku. Kyoku 1: seat 1 declares riichi, seat 2 pons twice (one call-kyoku),
        # seat 0 deals into seats 1 and 2 (a double ron: one deal-in for seat 0, its
        # two payments summed). Kyoku 2: seat 3 wins by tsumo.
        log = [
            {"type": "start_kyoku"},
            {"type": "reach", "actor": 1},
            {"type": "pon", "actor": 2, "target": 0},
            {"type": "pon", "actor": 2, "target": 3},
            {"type": "hora", "actor": 1, "target": 0, "deltas": [-3900, 3900, 0, 0]},
            {"type": "hora", "actor": 2, "target": 0, "deltas": [-1000, 0, 1000, 0]},
            {"type": "end_kyoku"},
            {"type": "start_kyoku"},
            {"type": "hora", "actor": 3, "target": 3, "tsumo": True, "deltas": [-500, -500, -1000, 2000]},
        ]
        out = stats.seat_outcomes(log)
        self.assertEqual([o["kyoku"] for o in out], [2, 2, 2, 2])
        self.assertEqual([o["wins"] for o in out], [0, 1, 1, 1])
        self.assertEqual([o["deal_ins"] for o in out], [1, 0, 0, 0])
        self.assertEqual(out[0]["deal_in_points"], -4900)
        self.assertEqual([o["riichi"] for o in out], [0, 1, 0, 0])
        self.assertEqual([o["called"] for o in out], [0, 0, 1, 0])
        self.assertEqual(out[3]["tsumo"], 1)

    def test_placement_interval_is_over_wall_sets(self):
        from riichi import stats

        # Two wall sets; the challenger's ranks 1,2,3,2 (mean 2) and 3,3,4,2 (mean 3):
        # the mean of the set means is 2.5, their sample sd 0.7071, half-width
        # 1.96 x 0.7071 / sqrt(2) = 0.98.
        def line(seed, seat, rank):
            outcomes = [dict(kind="x", kyoku=8, wins=1, tsumo=0, deal_ins=1, riichi=2, called=0,
                             win_points=0, deal_in_points=0, score=25000, rank=r)
                        for r in [rank] + [x for x in (1, 2, 3, 4) if x != rank]]
            outcomes[0], outcomes[seat] = outcomes[seat], outcomes[0]
            return {"seed": seed, "challenger_seat": seat, "outcomes": outcomes, "illegal": 0}

        lines = [line(1, s, r) for s, r in enumerate((1, 2, 3, 2))] + \
                [line(2, s, r) for s, r in enumerate((3, 3, 4, 2))]
        f = stats.summarize_games(lines)["challenger_figures"]
        self.assertAlmostEqual(f["placement"], 2.5)
        self.assertAlmostEqual(f["placement_ci95"], 1.96 * (0.5 ** 0.5) / (2 ** 0.5))
        self.assertEqual(f["rank_distribution"], [0.125, 0.375, 0.375, 0.125])
        self.assertAlmostEqual(f["win_rate"], 1 / 8)


    def test_rates_are_per_wall_set(self):
        from riichi import stats

        # Wall set 7: the challenger's two games of 8 and 12 kyoku with 1 and 3 wins, 0
        # and 2 deal-ins, 2 and 2 riichi, 1 and 0 calls, ranks 1 and 3: win 4 / 20 =
        # 0.2, deal-in 0.1, riichi 0.2, call 0.05, first 1 / 2.
        def line(seat, kyoku, wins, deal_ins, riichi, called, rank):
            mine = dict(kyoku=kyoku, wins=wins, deal_ins=deal_ins, riichi=riichi, called=called, rank=rank)
            other = dict(kyoku=kyoku, wins=9, deal_ins=9, riichi=9, called=9, rank=4)
            return {"seed": 7, "challenger_seat": seat,
                    "outcomes": [mine if q == seat else other for q in range(4)]}

        r = stats.challenger_rates_by_wall_set([line(0, 8, 1, 0, 2, 1, 1), line(2, 12, 3, 2, 2, 0, 3)])
        self.assertEqual(list(r), [7])
        for name, want in (("win", 0.2), ("deal_in", 0.1), ("riichi", 0.2), ("call", 0.05), ("first", 0.5)):
            self.assertAlmostEqual(r[7][name], want)

    def test_wall_sets_sharing_walls(self):
        from riichi import stats

        # Seeds 10 (9 kyoku: walls 10..18), 15 (8 kyoku) and 40 (12): 15 - 10 < 9, so
        # 10 and 15 share walls; 40 - 15 = 25 >= 8 shares none. Strided seeds (1000 apart)
        # share none.
        def line(seed, kyoku):
            return {"seed": seed, "outcomes": [{"kyoku": kyoku}] * 4}

        self.assertEqual(stats.wall_sets_sharing_walls([line(10, 9), line(15, 8), line(40, 12)]), 2)
        self.assertEqual(stats.wall_sets_sharing_walls([line(s * 1000, 30) for s in (7, 8, 9)]), 0)


@unittest.skipUnless(HAVE_RIICHIENV, "riichienv not installed (tools/mahjong/requirements.txt)")
class WallSeeds(unittest.TestCase):
    """Why the arena strides its seeds: riichienv's observed dealing, checked on whole games
    of four greedy seats."""

    @staticmethod
    def deals(seed: int) -> list[tuple]:
        """Each kyoku's four starting hands, the dealer's first."""
        import types

        import riichi_arena
        from riichi.service import SeatCounters

        counters = {"greedy": SeatCounters()}
        _, _, log = riichi_arena.play_game(seed, ["greedy"] * 4, None, counters, types.SimpleNamespace(),
                                           0, None)
        events = [json.loads(e) if isinstance(e, str) else e for e in log]
        out = []
        for e in events:
            if e.get("type") == "start_kyoku":
                hands = [tuple(h) for h in e["tehais"]]
                out.append(tuple(hands[(e["oya"] + i) % 4] for i in range(4)))
        return out

    def test_consecutive_seeds_share_their_walls_one_kyoku_apart(self):
        a, b = self.deals(9002), self.deals(9003)
        self.assertEqual(a[1], b[0])
        self.assertEqual(a[2], b[1])

    def test_the_arenas_wall_sets_share_none(self):
        import riichi_arena

        a = self.deals(riichi_arena.riichienv_seed(9002))
        b = self.deals(riichi_arena.riichienv_seed(9003))
        self.assertFalse(set(a) & set(b))


@unittest.skipUnless(HAVE_RIICHIENV, "riichienv not installed (tools/mahjong/requirements.txt)")
class Greedy(unittest.TestCase):
    def test_lowest_shanten_then_most_ukeire(self):
        from riichi.greedy import rank_discards

        # 123m 456p 789s 11z 22z with 9m drawn. Throwing 9m leaves three sets and two
        # pairs: tenpai (shanpon on 1z / 2z). Throwing anything else leaves at best
        # 1-shanten. So 9m ranks first.
        hand = [0, 4, 8, 32, 48, 52 + 1, 56, 96, 100, 104, 108, 109, 112, 113]
        seen = tiles.counts34(hand)
        ranked = rank_discards(hand, hand, seen)
        self.assertEqual(tiles.id_name(ranked[0]), "9m")

    def test_keeps_the_red_five(self):
        from riichi.greedy import rank_discards

        # Two 5m, one red (16) and one plain (17), among isolated honours and a set:
        # 55m is a pair either way, so the ranking ties on shanten and ukeire for the two
        # fives; if a five is thrown at all, the plain one (17) ranks before the red (16).
        hand = [16, 17, 36, 40, 44, 72, 76, 80, 108, 112, 116, 120, 124, 128]
        seen = tiles.counts34(hand)
        ranked = rank_discards(hand, hand, seen)
        self.assertLess(ranked.index(17), ranked.index(16))


@unittest.skipUnless(HAVE_RIICHIENV, "riichienv not installed (tools/mahjong/requirements.txt)")
class TableMessage(unittest.TestCase):
    def test_opponents_in_turn_order_with_relative_givers(self):
        sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "python"))
        import gameai_client
        from riichi.service import table_message

        pb, _ = gameai_client.load("mahjong")
        msg = table_message(pb, self._view())
        # The viewer is seat 3: right = seat 0, across = seat 1, left = seat 2.
        self.assertEqual(msg.seat_wind, "4z")
        self.assertEqual(msg.round_wind, "1z")
        self.assertEqual(msg.live_wall_tiles, 67)
        self.assertEqual(msg.dora_indicators, "3z7z")
        self.assertEqual([o.dealer for o in msg.opponents], [True, False, False])
        right, across, left = msg.opponents
        self.assertEqual([(t.tile, t.called) for t in right.river], [("1m", True)])
        # Seat 1's pon took seat 0's tile: seat 0 is seat 1's kamicha -> FROM_LEFT.
        self.assertEqual(across.melds[0].called_tile, "1m")
        self.assertEqual(getattr(across.melds[0], "from"), pb.FROM_LEFT)
        self.assertTrue(left.riichi)
        self.assertEqual([(t.tile, t.tsumogiri, t.riichi) for t in left.river], [("0s", True, True)])
        self.assertEqual([t.tile for t in msg.river], ["2p"])

    def test_after_call_is_set_from_the_own_pon_to_the_discard(self):
        # Kuikae (Tenhou's rules, riichienv's ``kuikae_forbidden``): right after its own
        # chi or pon a player may not discard the called kind (nor, after a chi taking
        # an end of its run, the tile beyond the other end); the service can only
        # order those last when the request says the discard follows the call. Seat 1
        # pons 1m (event 4), then throws 9p (event 5): after_call from the one to the
        # other, and only for seat 1.
        sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "python"))
        import gameai_client
        from riichi.service import table_message

        pb, _ = gameai_client.load("mahjong")
        events = kyoku_events()
        caller, other = TableView(seat=1), TableView(seat=2)
        for v in (caller, other):
            v.feed(events[:5])
        self.assertTrue(caller.after_call)
        self.assertTrue(table_message(pb, caller).after_call)
        self.assertFalse(other.after_call)
        caller.feed(events[5:6])
        self.assertFalse(caller.after_call)
        self.assertFalse(table_message(pb, caller).after_call)

    def _view(self):
        v = TableView(seat=3)
        v.feed(kyoku_events())
        return v


if __name__ == "__main__":
    unittest.main()
