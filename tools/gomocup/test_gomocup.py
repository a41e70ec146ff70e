"""Unit tests of the referee, its rules, the openings and the match statistics.

Run: python3 -m unittest discover -s tools/gomocup -v   (standard library only)
"""

import json
import math
import pathlib
import sys
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gomoku_rules as rules  # noqa: E402
import match  # noqa: E402
import openings  # noqa: E402
import referee  # noqa: E402
from gomoku_rules import BLACK, WHITE, Board  # noqa: E402

GOLDEN = HERE.parent.parent / "tests" / "data" / "renju_forbidden_piskvork.jsonl"
BRAIN = f"{sys.executable} {HERE / 'testing_brain.py'}"


def board_from(size, black=(), white=()):
    b = Board(size)
    for name in black:
        b.set(*rules.from_notation(name, size), BLACK)
    for name in white:
        b.set(*rules.from_notation(name, size), WHITE)
    return b


class Notation(unittest.TestCase):
    def test_protocol_points_and_names(self):
        # DESIGN.md: column letter from a (left), row number from 1 (bottom); h8 is the
        # centre of 15x15. Protocol y counts from the top.
        self.assertEqual(rules.to_notation((7, 7), 15), "h8")
        self.assertEqual(rules.to_notation((0, 0), 15), "a15")
        self.assertEqual(rules.to_notation((0, 19), 20), "a1")
        for size in (5, 15, 20, 22):
            for x in range(size):
                for y in range(size):
                    self.assertEqual(rules.from_notation(rules.to_notation((x, y), size), size),
                                     (x, y))
        with self.assertRaises(ValueError):
            rules.from_notation("p1", 15)
        with self.assertRaises(ValueError):
            rules.from_notation("a16", 15)


class Fives(unittest.TestCase):
    def test_a_five_along_every_edge_and_into_every_corner(self):
        size = 15
        lines = []
        for start in range(size - 4):
            lines.append([(start + i, 0) for i in range(5)])          # top edge
            lines.append([(start + i, size - 1) for i in range(5)])   # bottom edge
            lines.append([(0, start + i) for i in range(5)])          # left edge
            lines.append([(size - 1, start + i) for i in range(5)])   # right edge
        lines.append([(i, i) for i in range(5)])                      # corners, diagonally
        lines.append([(size - 1 - i, i) for i in range(5)])
        lines.append([(i, size - 1 - i) for i in range(5)])
        lines.append([(size - 1 - i, size - 1 - i) for i in range(5)])
        for rule in rules.RULES:
            for colour in (BLACK, WHITE):
                for line in lines:
                    for last in range(5):
                        b = Board(size)
                        for p in line:
                            b.set(*p, colour)
                        self.assertTrue(rules.wins(b, *line[last], colour, rule),
                                        (rule, colour, line, last))

    def test_four_is_not_five_and_overlines_follow_the_rule(self):
        b = Board(15)
        for x in range(4):
            b.set(x, 3, BLACK)
        self.assertFalse(rules.wins(b, 3, 3, BLACK, "freestyle"))
        for colour in (BLACK, WHITE):
            b = Board(15)
            for x in range(6):
                b.set(x + 2, 3, colour)
            self.assertTrue(rules.wins(b, 4, 3, colour, "freestyle"))
            self.assertFalse(rules.wins(b, 4, 3, colour, "standard"))
        # Renju: white's overline wins, black's does not.
        self.assertTrue(rules.wins(b, 4, 3, WHITE, "renju"))
        b = Board(15)
        for x in range(6):
            b.set(x + 2, 3, BLACK)
        self.assertFalse(rules.wins(b, 4, 3, BLACK, "renju"))


class Forbidden(unittest.TestCase):
    def test_every_point_of_the_golden_file(self):
        # tests/data/renju_forbidden_piskvork.jsonl: 300 positions from the PyPI renju
        # 0.1.0 checker (a port of the Piskvork referee); every empty point checked.
        self.assertTrue(GOLDEN.exists(), GOLDEN)
        positions = 0
        for line in GOLDEN.read_text().splitlines():
            d = json.loads(line)
            size = d["size"]
            b = board_from(size, d["black"], d["white"])
            got = {}
            for y in range(size):
                for x in range(size):
                    if b.get(x, y) == rules.EMPTY:
                        kind = rules.forbidden_kind(b, x, y)
                        if kind:
                            got[rules.to_notation((x, y), size)] = kind
            self.assertEqual(got, d["forbidden"], line)
            positions += 1
        self.assertEqual(positions, 300)

    def test_hand_worked_cases(self):
        # Double three: black f8 g8 and h10 h9; h8 makes two open threes.
        b = board_from(15, ["f8", "g8", "h10", "h9"])
        self.assertEqual(rules.forbidden_kind(b, *rules.from_notation("h8", 15)),
                         rules.DOUBLE_THREE)
        # The same with white on e8 closing the row: only one three, allowed.
        b = board_from(15, ["f8", "g8", "h10", "h9"], ["e8"])
        self.assertEqual(rules.forbidden_kind(b, *rules.from_notation("h8", 15)), 0)
        # Double four in one line: X.X?X.X -> d8 . f8 [g8] h8 . j8.
        b = board_from(15, ["d8", "f8", "h8", "j8"])
        self.assertEqual(rules.forbidden_kind(b, *rules.from_notation("g8", 15)),
                         rules.DOUBLE_FOUR)
        # Overline: five black with a gap filled to six.
        b = board_from(15, ["c8", "d8", "e8", "g8", "h8"])
        self.assertEqual(rules.forbidden_kind(b, *rules.from_notation("f8", 15)),
                         rules.OVERLINE)
        # A five wins even where the move would also be a double four.
        b = board_from(15, ["d8", "e8", "f8", "g8", "h11", "h10", "h9"])
        self.assertEqual(rules.forbidden_kind(b, *rules.from_notation("h8", 15)), 0)


class Openings(unittest.TestCase):
    def test_the_26_canonical_openings(self):
        ops = openings.canonical(15)
        self.assertEqual(len(ops), 26)
        self.assertEqual(sum(1 for n, _ in ops if n.startswith("direct")), 13)
        names = {n for n, _ in ops}
        # Renju's direct opening with the third stone straight beyond white (kansei) and
        # the indirect one with it on the diagonal beyond white (shogetsu? any name: the
        # points are what matter): h8 h9 h10 and h8 i9 j10.
        self.assertIn("direct h8 h9 h10", names)
        self.assertIn("indirect h8 i9 j10", names)
        # Mirror images are one opening: h8 h9 g10 would duplicate h8 h9 i10.
        self.assertEqual(len({n for n in names if n in ("direct h8 h9 g10",
                                                        "direct h8 h9 i10")}), 1)
        for _, stones in ops:
            self.assertEqual(len(set(stones)), 3)
            self.assertTrue(all(abs(x - 7) <= 2 and abs(y - 7) <= 2 for x, y in stones))

    def test_random_openings_are_reproducible_and_distinct(self):
        a = openings.match_openings(100, 7, 15)
        self.assertEqual(a, openings.match_openings(100, 7, 15))
        self.assertNotEqual(a, openings.match_openings(100, 8, 15))
        self.assertEqual(len(a), 100)
        keys = {min(openings._symmetries(15, s)) for _, s in a}
        self.assertEqual(len(keys), 100, "no opening is a rotation or mirror of another")
        self.assertEqual(openings.match_openings(100, 7, 20)[0][0], "direct k10 k11 i12")


class Statistics(unittest.TestCase):
    def test_wilson_interval_and_elo(self):
        # 200 of 200: the Wilson lower bound is 200 / (200 + 1.96^2) = 0.9812.
        lo, hi = match.wilson(1.0, 200)
        self.assertAlmostEqual(lo, 200 / (200 + match.Z95 ** 2), places=12)
        self.assertEqual(hi, 1.0)
        lo, hi = match.wilson(0.5, 100)
        self.assertAlmostEqual(lo, 0.4038, places=4)
        self.assertAlmostEqual(hi, 0.5962, places=4)
        self.assertAlmostEqual(match.elo(0.75), 400 * math.log10(3), places=9)
        self.assertEqual(match.elo(0.5), 0)
        self.assertEqual(match.elo(1.0), math.inf)

    def test_search_reports_of_both_formats(self):
        self.assertEqual(match.search_report(
            ["MESSAGE depth 9 score +12 nodes 123456 time 180 ms nps 685866 pv h8 i9"]),
            (123456.0, 180.0))
        self.assertEqual(match.search_report(
            ["MESSAGE Speed 44K | Depth 7-7 | Eval 1 | Node 38K | Time 852ms"]),
            (38000.0, 852.0))
        self.assertIsNone(match.search_report(["MESSAGE hello"]))

    def test_summary_counts_colours_faults_and_times(self):
        recs = [
            {"black": "A", "white": "B", "result": "black", "winner": "A", "reason": "five",
             "opening": ["h8"], "times_ms": [10, 20, 30], "plies": 4},
            {"black": "B", "white": "A", "result": "black", "winner": "B", "reason": "timeout",
             "opening": [], "times_ms": [5, 99], "plies": 2},
            {"black": "A", "white": "B", "result": "draw", "winner": None, "reason": "full",
             "opening": [], "times_ms": [1], "plies": 225},
        ]
        s = match.summarise(recs, "A", "B")
        self.assertEqual((s["wins"], s["draws"], s["losses"]), (1, 1, 1))
        self.assertAlmostEqual(s["score"], 0.5)
        self.assertEqual(s["a_as_black_wdl"], [1, 1, 0])
        self.assertEqual(s["a_as_white_wdl"], [0, 0, 1])
        self.assertEqual(s["faults"], {"A": {"timeout": 1}, "B": {}})
        # Game 1: opening of one stone, so the moves are white, black, white: B 10, A 20,
        # B 30. Game 2: B black 5, A white 99. Game 3: A black 1.
        self.assertEqual(s["answer_ms"]["A"]["max"], 99)
        self.assertEqual(s["answer_ms"]["B"]["moves"], 3)


class RefereeGames(unittest.TestCase):
    def player(self, name, mode, turn_ms=1000, **kw):
        return referee.Player(name, f"{BRAIN} {mode}", turn_ms, **kw)

    def test_a_game_to_a_five_worked_by_hand(self):
        # Both brains play the first empty point in reading order, so the stone of ply
        # k lies at x = k mod 15, y = k div 15, black on even k. Rows and columns
        # alternate colours (15 is odd); the anti-diagonal e15 d14 c13 b12 a11 gets
        # plies 4, 18, 32, 46, 60, all black: black wins with ply 60, 61 stones.
        r = referee.play_game(self.player("p", "first-empty"), self.player("q", "first-empty"))
        self.assertEqual((r["result"], r["winner"], r["reason"], r["plies"]),
                         ("black", "p", "five", 61))
        self.assertEqual(r["moves"][:3], ["a15", "b15", "c15"])
        self.assertEqual(r["moves"][-1], "a11")
        self.assertEqual(len(r["times_ms"]), 61)

    def test_an_opening_is_sent_as_board_and_the_game_continues_from_it(self):
        opening = referee.parse_opening("h8,h9,j10", 15)
        r = referee.play_game(self.player("p", "first-empty"), self.player("q", "first-empty"),
                              opening=opening)
        self.assertEqual(r["opening"], ["h8", "h9", "j10"])
        self.assertEqual(r["moves"][0], "a15", "white's first move after the opening")
        self.assertIn(r["reason"], referee.CLEAN_REASONS)

    def test_settle_waits_for_a_brain_that_sets_itself_up_on_info(self):
        # The brain sleeps 0.6 s on INFO rule; its first move (BEGIN, right after the INFO
        # lines) then comes later than 200 ms + 100 ms of tolerance, unless the referee
        # first awaits the answer to ABOUT.
        slow = self.player("p", "slow-setup 0.6", turn_ms=200)
        fast = self.player("q", "first-empty", turn_ms=200)
        r = referee.play_game(slow, fast)
        self.assertEqual((r["winner"], r["reason"], r["plies"]), ("q", "timeout", 0))
        r = referee.play_game(slow, fast, settle=True)
        self.assertEqual((r["winner"], r["reason"]), ("p", "five"))

    def test_faults_lose_the_game(self):
        cases = [
            ("taken", {}, "illegal"),
            ("error", {}, "error"),
            ("crash", {}, "error"),
            ("slow 0.6", {"turn_ms": 100}, "timeout"),
        ]
        for mode, kw, reason in cases:
            with self.subTest(mode=mode):
                r = referee.play_game(self.player("good", "first-empty"),
                                      self.player("bad", mode, **kw), tolerance_ms=50)
                self.assertEqual((r["winner"], r["reason"]), ("good", reason), r["detail"])

    def test_a_forbidden_black_move_loses_under_renju_only(self):
        # Black f8 g8 h10 h9 (white far away on column a): h8 is a double three.
        size = 15
        names = ["f8", "a1", "g8", "a3", "h10", "a5", "h9", "a7"]
        opening = [rules.from_notation(n, size) for n in names]
        x, y = rules.from_notation("h8", size)
        black = self.player("black", f"script {x},{y}")
        white = self.player("white", "first-empty")
        r = referee.play_game(black, white, rule="renju", opening=opening)
        self.assertEqual((r["winner"], r["reason"]), ("white", "forbidden"), r["detail"])
        self.assertIn("double-three", r["detail"])
        r = referee.play_game(black, white, rule="freestyle", opening=opening)
        self.assertNotEqual(r["reason"], "forbidden")


if __name__ == "__main__":
    unittest.main()
