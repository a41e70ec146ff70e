#!/usr/bin/env python3
"""Writes the held-out calibration fixture of tests/mahjong_play_calibration.rs: the first
decision of each game of a `mahjong-solitaire --decisions` file, as CSV (seed, draws
left, shanten, continuation, the candidate's win figure and its standard error, the
play figure the binary reported, won 0/1). Games whose first decision has no play
figure (outside the map's domain) are left out.

  mahjong-solitaire --games 4000 --seed 140000 --threads 1 --policies engine \\
      --ruleset riichi --decisions dec.jsonl
  python3 tools/mahjong/heldout_fixture.py dec.jsonl > tests/data/mahjong_play_heldout_riichi.csv
"""

import json
import sys


def main(path: str) -> None:
    print("seed,draws_left,shanten,continuation,win,win_stderr,play,won")
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r["turn"] != 0 or r["play"] is None:
                continue
            print(
                f"{r['seed']},{r['draws_left']},{r['shanten']},{r['continuation']},"
                f"{r['win']!r},{r['win_stderr']!r},{r['play']!r},{int(r['won'])}"
            )


if __name__ == "__main__":
    main(sys.argv[1])
