#!/usr/bin/env python3
"""Writes the solitaire twin of each SuggestMahjongDiscard line with a `table`.

Reads request lines (bench/requests/mahjong_table.jsonl format) on stdin, writes on stdout
the same requests without `table`, with the `visible` tiles and `draws_left` the service
derives from it (dora indicators + every uncalled river tile + the opponents' melds;
live_wall_tiles // 4), tagged solitaire/... instead of table/... Used by
docs/experiments/2026-12-06-mahjong-table.md to compare latencies.
"""
import json
import sys

for line in sys.stdin:
    if not line.strip():
        continue
    entry = json.loads(line)
    if not entry["method"].endswith("SuggestMahjongDiscard"):
        continue
    table = entry["request"].pop("table")
    seen = [table.get("dora_indicators", "")]
    rivers = [table.get("river", [])] + [o.get("river", []) for o in table["opponents"]]
    for river in rivers:
        seen += [d["tile"] for d in river if not d.get("called")]
    for opponent in table["opponents"]:
        seen += [m["tiles"] for m in opponent.get("melds", [])]
    entry["request"]["visible"] = "".join(seen)
    entry["request"]["draws_left"] = table["live_wall_tiles"] // 4
    entry["tag"] = entry["tag"].replace("table/", "solitaire/")
    print(json.dumps(entry))
