"""Unit tests of call_brute_force.py (stdlib only; ``python3 -m unittest discover -s
tools/mahjong``, run by .ci/arena.sh): the win check on hands worked by hand, then the
call figures of tests/mahjong_suggest_api.rs."""

from __future__ import annotations

import unittest
from fractions import Fraction

import call_brute_force as bf


def wins(text: str) -> bool:
    return bf.wins(tuple(bf.parse(text)))


class WinCheck(unittest.TestCase):
    def test_sets_and_one_pair(self):
        self.assertTrue(wins("456p789s234s66s"))  # 456p 789s 234s + 66s
        self.assertTrue(wins("456p6789s234s9s"))  # 234s 678s 99s, 456p
        self.assertTrue(wins("11z"))
        self.assertTrue(wins("111222333m44z"))  # read as three pungs or three runs

    def test_not_a_win(self):
        self.assertFalse(wins("456p789s2346s7z"))
        self.assertFalse(wins("123z"))  # honours make no runs
        self.assertFalse(wins("89m1p11z"))  # no run across suits
        self.assertFalse(wins("456p789s234s6s"))  # 3n+1 tiles

    def test_parse_counts_red_fives_as_fives(self):
        self.assertEqual(bf.parse("05m")[4], 2)
        with self.assertRaises(ValueError):
            bf.parse("8z")


class CallFigures(unittest.TestCase):
    # 55m456p789s2346s7z, pon 5m offered from across: the pool is 136 - 13 - 1 = 122.
    HAND = dict(hand="55m456p789s2346s7z", offered="5m", meld="555m")

    def test_one_draw_by_hand(self):
        # Discard 7z: tenpai on 6s and 9s, 3 unseen copies each: 6/122.
        figures = bf.call_figures(**self.HAND, draws=1)
        self.assertEqual(figures[0], ("7z", Fraction(6, 122)))

    def test_two_draws_is_the_tests_figure(self):
        figures = bf.call_figures(**self.HAND, draws=2)
        self.assertEqual(figures[0], ("7z", Fraction(717, 7381)))

    def test_copies_seen_are_no_wait(self):
        # With the other three 6s and 9s seen, discarding 7z waits on nothing.
        figures = dict(bf.call_figures(**self.HAND, draws=1, visible="666999s"))
        self.assertEqual(figures["7z"], 0)


if __name__ == "__main__":
    unittest.main()
