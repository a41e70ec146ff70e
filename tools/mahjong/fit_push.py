#!/usr/bin/env python3
"""Fits the push-or-fold race's constants and the deal-in values on the riichi arena's
game logs (riichienv's own MJAI events), from the view of the arena's challenger seat.

Input: files written by ``riichi_arena.py --log X.jsonl --log-events`` (one JSON line per
hanchan with its ``events`` and ``challenger_seat``). They must not come from the seeds an
evaluation arena reports.

Output: the service's parameter file, ``src/mahjong/table/danger_weights.json`` (format in
``src/mahjong/table/weights.rs``): ``--base`` is read, the ``push`` constants below and the
``value`` bases replaced, the rest kept, ``source`` rewritten.

What is measured (the model is ``src/mahjong/table/race.rs`` and ``opponents.rs``, written
here again from their documentation). The player P is the challenger seat; a *threat* is
another seat from its riichi declaration (accepted) to the end of the kyoku, the only
opponents known to be tenpai. Each draw of a threat after its declaration is one turn of
the race (P's draw and discard, then the others').

- ``threat_win_per_turn`` (the race's ``r``): a tenpai opponent's chance of winning in one
  turn, not on P's discard. Exponential hazard: (the threats' wins by self-draw or on the
  discard of a seat other than P) / (the threats' turns). Censoring (the kyoku ends by
  someone else's win or a draw) is what the hazard form handles; its 95 % interval is
  Poisson, ``1.96 sqrt(events) / turns``.
- ``ron_factor``: per draw, a pushing hand's wins on others' discards per win on its own
  draw, for a player whose three opponents keep discarding. Measured on the threats whose
  three others are all field seats is not possible (P is one of them), so per discarding
  seat: (threats' wins on a field seat's discard) / (turns x the field seats among the
  threat's three others), times 3, over the threats' self-draw hazard (wins by self-draw /
  turns). The ratio of P's own wins (ron / tsumo) is printed beside it, not used: P is
  not always pushing.
- ``tsumo_share``: what another's win not on P's discard costs P, as a fraction of what
  dealing into it would have cost: (mean payment of P over the threats' wins not on its
  discard) / (mean payment of a deal-in into a threat, any discarder).
- ``value``: the mean payment of a deal-in, honba taken off (300 per honba), into a riichi
  hand, a closed hand without riichi and an open hand, non-dealer winners (``riichi``,
  ``closed``, ``open``; the open base also less ``per_dora_shown`` times the mean dora in
  its melds), and ``dealer_factor`` (dealer winners' mean over non-dealers', pooled over
  kinds with the non-dealer means as weights). A base seen on fewer than ``--min-count``
  deal-ins keeps its ``--base`` value.

Usage:
  fit_push.py LOG.jsonl [...] --base src/mahjong/table/danger_weights.json [--out new.json]
      [--json figures.json] [--min-count 200]
"""

from __future__ import annotations

import argparse
import json
import math
import sys

TILE_ORDER = {name: i for i, name in enumerate(
    [f"{r}{s}" for s in "mps" for r in range(1, 10)] + ["E", "S", "W", "N", "P", "F", "C"])}


def tile_kind(name: str) -> int:
    """MJAI tile name (red fives end in r) to a kind 0..33."""
    return TILE_ORDER[name[:2] if name.endswith("r") else name]


def dora_of(indicator: str) -> int:
    """The dora a marker points at (Tenhou: 9 -> 1 in a suit, winds E S W N cycle, dragons P F C)."""
    k = tile_kind(indicator)
    if k < 27:
        return (k // 9) * 9 + (k % 9 + 1) % 9
    if k < 31:
        return 27 + (k - 27 + 1) % 4
    return 31 + (k - 31 + 1) % 3


def read_games(paths):
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    game = json.loads(line)
                    if "events" not in game:
                        raise SystemExit(f"fit_push: {path}: a line without events (run the arena with --log-events)")
                    yield game


def kyoku_of(events):
    """Each kyoku's events, from start_kyoku to end_kyoku."""
    current = None
    for ev in events:
        if ev["type"] == "start_kyoku":
            current = [ev]
        elif current is not None:
            current.append(ev)
            if ev["type"] == "end_kyoku":
                yield current
                current = None


class Tally:
    """Sums over kyoku from the player's view."""

    def __init__(self):
        self.turns = 0                    # threats' draws after their riichi
        self.field_turns = 0              # the same, times the field seats among each threat's others
        self.tsumo = 0                    # threats' wins by self-draw
        self.ron_not_player = 0           # threats' wins on a discard not the player's
        self.ron_field = 0                # threats' wins on a field seat's discard
        self.ron_player = 0               # threats' wins on the player's discard
        self.player_paid_other = []       # the player's payment on each threat win not on its discard
        self.deal_in = {"riichi": [], "closed": [], "open": []}          # non-dealer winners
        self.deal_in_dealer = {"riichi": [], "closed": [], "open": []}
        self.open_dora = []               # dora shown in the melds of non-dealer open winners
        self.threat_deal_in = []          # every deal-in payment into a riichi hand, honba off
        self.player_wins = {"tsumo": 0, "ron": 0}


def add_kyoku(t: Tally, kyoku: list[dict], player: int, field: set[int]) -> None:
    start = kyoku[0]
    dealer, honba = start["oya"], start["honba"]
    dora = [dora_of(start["dora_marker"])]
    riichi = [False] * 4
    opened = [False] * 4
    shown = [0] * 4       # dora tiles in each seat's open melds
    for ev in kyoku[1:]:
        kind = ev["type"]
        if kind == "dora":
            dora.append(dora_of(ev["dora_marker"]))
        elif kind == "reach_accepted":
            riichi[ev["actor"]] = True
        elif kind == "tsumo":
            a = ev["actor"]
            if riichi[a] and a != player:
                t.turns += 1
                t.field_turns += sum(1 for s in field if s != a)
        elif kind in ("chi", "pon", "daiminkan", "kakan", "ankan"):
            a = ev["actor"]
            if kind != "ankan":
                opened[a] = True
            tiles = list(ev.get("consumed", [])) + ([ev["pai"]] if "pai" in ev and kind != "kakan" else [])
            if kind == "kakan":
                tiles = [ev["pai"]]
            shown[a] += sum(dora.count(tile_kind(x)) for x in tiles)
        elif kind == "hora":
            add_win(t, ev, player, field, dealer, honba, riichi, opened, shown)


def add_win(t, ev, player, field, dealer, honba, riichi, opened, shown) -> None:
    a, target = ev["actor"], ev["target"]
    deltas = ev.get("deltas", [0] * 4)
    self_draw = bool(ev.get("tsumo")) or a == target
    if a == player:
        t.player_wins["tsumo" if self_draw else "ron"] += 1
    if riichi[a] and a != player:
        if self_draw:
            t.tsumo += 1
        elif target == player:
            t.ron_player += 1
        else:
            t.ron_not_player += 1
            if target in field:
                t.ron_field += 1
        if self_draw or target != player:
            t.player_paid_other.append(-deltas[player])
    if not self_draw:
        paid = -deltas[target] - 300 * honba
        hand = "riichi" if riichi[a] else ("open" if opened[a] else "closed")
        if riichi[a]:
            t.threat_deal_in.append(paid)
        if a == dealer:
            t.deal_in_dealer[hand].append(paid)
        else:
            t.deal_in[hand].append(paid)
            if hand == "open":
                t.open_dora.append(shown[a])


def tally(games) -> Tally:
    t = Tally()
    for game in games:
        player = game["challenger_seat"]
        field = {s for s in range(4) if s != player}
        for kyoku in kyoku_of(game["events"]):
            add_kyoku(t, kyoku, player, field)
    return t


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def half_width(xs):
    n = len(xs)
    if n < 2:
        return float("nan")
    m = mean(xs)
    return 1.96 * math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def figures(t: Tally, base: dict, min_count: int) -> dict:
    """The fitted constants with their intervals and counts, and the parameter file."""
    out = {"turns": t.turns}
    wins_other = t.tsumo + t.ron_not_player
    out["threat_win_per_turn"] = (wins_other / t.turns, 1.96 * math.sqrt(wins_other) / t.turns, wins_other)
    tsumo_hazard = t.tsumo / t.turns
    ron_per_seat = t.ron_field / t.field_turns
    out["tsumo_per_turn"] = tsumo_hazard
    out["ron_per_discarding_seat_per_turn"] = ron_per_seat
    out["ron_factor"] = (3 * ron_per_seat / tsumo_hazard, t.ron_field, t.tsumo)
    out["player_ron_per_tsumo"] = (t.player_wins["ron"] / t.player_wins["tsumo"]
                                   if t.player_wins["tsumo"] else float("nan"), t.player_wins)
    mean_deal_in = mean(t.threat_deal_in)
    out["tsumo_share"] = (mean(t.player_paid_other) / mean_deal_in, len(t.player_paid_other))
    w = json.loads(json.dumps(base))
    p = w["push"]
    p["threat_win_per_turn"] = round(out["threat_win_per_turn"][0], 4)
    p["ron_factor"] = round(out["ron_factor"][0], 3)
    p["tsumo_share"] = round(out["tsumo_share"][0], 3)
    v = w["value"]
    values = {}
    for hand in ("riichi", "closed", "open"):
        xs = t.deal_in[hand]
        fitted = mean(xs)
        if hand == "open":
            fitted -= v["per_dora_shown"] * mean(t.open_dora)
        values[hand] = (fitted, half_width(xs), len(xs))
        if len(xs) >= min_count:
            v[hand] = round(fitted)
    ratios = [(mean(t.deal_in_dealer[h]) / mean(t.deal_in[h]), len(t.deal_in_dealer[h]))
              for h in ("riichi", "closed", "open") if t.deal_in_dealer[h] and t.deal_in[h]]
    dealer_n = sum(n for _, n in ratios)
    if dealer_n >= min_count:
        v["dealer_factor"] = round(sum(r * n for r, n in ratios) / dealer_n, 3)
    out["value"] = values
    out["dealer_factor"] = (v["dealer_factor"], dealer_n)
    out["weights"] = w
    return out


def render(f: dict) -> str:
    r, r_hw, r_n = f["threat_win_per_turn"]
    rf, ron_n, tsumo_n = f["ron_factor"]
    pr, pw = f["player_ron_per_tsumo"]
    ts, ts_n = f["tsumo_share"]
    lines = [
        f"threat turns (draws after riichi): {f['turns']}",
        f"threat_win_per_turn {r:.4f} +- {r_hw:.4f} ({r_n} wins not on the player's discard)",
        f"ron_factor {rf:.3f} (tsumo {tsumo_n} = {f['tsumo_per_turn']:.4f}/turn; rons on field seats {ron_n} = "
        f"{f['ron_per_discarding_seat_per_turn']:.4f}/turn/seat); the player's own ron/tsumo {pr:.2f} {pw}",
        f"tsumo_share {ts:.3f} ({ts_n} wins not on the player's discard)",
    ]
    for hand, (v, hw, n) in f["value"].items():
        lines.append(f"value.{hand} {v:.0f} +- {hw:.0f} ({n} non-dealer deal-ins)")
    lines.append(f"dealer_factor {f['dealer_factor'][0]} ({f['dealer_factor'][1]} dealer deal-ins)")
    return "\n".join(lines)


def seeds_of(paths) -> list[int]:
    return sorted({g["seed"] for g in read_games(paths)})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+", help="riichi_arena.py --log files written with --log-events")
    ap.add_argument("--base", required=True, help="the service's danger_weights.json to start from")
    ap.add_argument("--out", help="parameter file to write (the --base format)")
    ap.add_argument("--json", help="the figures as JSON")
    ap.add_argument("--min-count", type=int, default=200)
    ap.add_argument("--source", default="", help="provenance text for the file's 'source'")
    args = ap.parse_args(argv)
    with open(args.base, encoding="utf-8") as f:
        base = json.load(f)
    games = list(read_games(args.logs))
    if not games:
        raise SystemExit("fit_push: no games")
    f = figures(tally(games), base, args.min_count)
    print(f"{len(games)} hanchan")
    print(render(f))
    seeds = sorted({g["seed"] for g in games})
    w = f["weights"]
    w["source"] = args.source or (
        base["source"] + f" push (threat_win_per_turn, ron_factor, tsumo_share) and value fitted by "
        f"tools/mahjong/fit_push.py on {len(games)} hanchan (seeds {seeds[0]}..{seeds[-1]}).")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(w, fh, indent=2)
            fh.write("\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({k: v for k, v in f.items() if k != "weights"}, fh, indent=1)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
