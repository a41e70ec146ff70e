"""The arena's summary: per-seat outcomes of a game from riichienv's MJAI log, and
the figures over a run (placement by wall set with its 95 % interval, ranks, rates
per kyoku, scores, decision times)."""

from __future__ import annotations

import math


def seat_outcomes(mjai_log) -> list[dict]:
    """Per absolute seat: kyoku played, wins (tsumo / ron), deal-ins, riichi declared,
    kyoku with a call (chi, pon, open kan), points won and lost on wins (deltas of the
    hora events, riichi sticks and honba included)."""
    out = [dict(kyoku=0, wins=0, tsumo=0, deal_ins=0, riichi=0, called=0,
                win_points=0, deal_in_points=0) for _ in range(4)]
    open_this = [False] * 4
    dealt_this = [False] * 4
    for ev in mjai_log:
        kind = ev["type"]
        if kind == "start_kyoku":
            for s in out:
                s["kyoku"] += 1
            open_this = [False] * 4
            dealt_this = [False] * 4
        elif kind == "reach":
            out[ev["actor"]]["riichi"] += 1
        elif kind in ("chi", "pon", "daiminkan"):
            if not open_this[ev["actor"]]:
                open_this[ev["actor"]] = True
                out[ev["actor"]]["called"] += 1
        elif kind == "hora":
            actor, target = ev["actor"], ev["target"]
            deltas = ev.get("deltas", [0] * 4)
            out[actor]["wins"] += 1
            out[actor]["win_points"] += deltas[actor]
            if actor == target or ev.get("tsumo"):
                out[actor]["tsumo"] += 1
            elif not dealt_this[target]:
                dealt_this[target] = True
                out[target]["deal_ins"] += 1
                out[target]["deal_in_points"] += deltas[target]
            else:  # the second winner of a double ron
                out[target]["deal_in_points"] += deltas[target]
    return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def mean_interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its normal 95 % interval."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan")
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


RATES = (("win", "wins"), ("deal_in", "deal_ins"), ("riichi", "riichi"), ("call", "called"))


def challenger_rates_by_wall_set(lines: list[dict]) -> dict:
    """Per wall set (seed), the challenger's rates per kyoku over its games there (win,
    deal-in, riichi, call) and its share of first places: the units whose mean and
    interval (``mean_interval``) describe a run, and whose differences pair two runs
    on the same walls."""
    by: dict = {}
    for line in lines:
        o = line["outcomes"][line["challenger_seat"]]
        acc = by.setdefault(line["seed"], {"kyoku": 0, "games": 0, "first": 0,
                                           **{key: 0 for _, key in RATES}})
        acc["kyoku"] += o["kyoku"]
        acc["games"] += 1
        acc["first"] += int(o["rank"] == 1)
        for _, key in RATES:
            acc[key] += o[key]
    return {
        seed: {**{name: a[key] / a["kyoku"] for name, key in RATES}, "first": a["first"] / a["games"]}
        for seed, a in by.items() if a["kyoku"]
    }


def side_summary(rows: list[dict]) -> dict:
    """Figures of one side (the challenger's seats, or the field's) from per-game,
    per-seat rows: {wall_set, rank, score, outcome counts}."""
    games = len(rows)
    ranks = [r["rank"] for r in rows]
    by_set: dict[int, list[int]] = {}
    for r in rows:
        by_set.setdefault(r["wall_set"], []).append(r["rank"])
    set_means = [sum(v) / len(v) for v in by_set.values()]
    mean, half = mean_interval(set_means)
    kyoku = sum(r["kyoku"] for r in rows)

    def rate(key: str) -> float:
        return sum(r[key] for r in rows) / kyoku if kyoku else float("nan")

    wins = sum(r["wins"] for r in rows)
    deal_ins = sum(r["deal_ins"] for r in rows)
    return {
        "seat_games": games,
        "wall_sets": len(by_set),
        "placement": mean,
        "placement_ci95": half,
        "placement_all_games": sum(ranks) / games if games else float("nan"),
        "rank_distribution": [sum(1 for x in ranks if x == k) / games if games else 0 for k in (1, 2, 3, 4)],
        "kyoku": kyoku,
        "win_rate": rate("wins"),
        "tsumo_share": sum(r["tsumo"] for r in rows) / wins if wins else float("nan"),
        "deal_in_rate": rate("deal_ins"),
        "riichi_rate": rate("riichi"),
        "call_rate": rate("called"),
        "mean_win_points": sum(r["win_points"] for r in rows) / wins if wins else float("nan"),
        "mean_deal_in_points": sum(r["deal_in_points"] for r in rows) / deal_ins if deal_ins else float("nan"),
        "mean_final_score": sum(r["score"] for r in rows) / games if games else float("nan"),
        "bust_rate": sum(1 for r in rows if r["score"] < 0) / games if games else float("nan"),
    }


def wall_sets_sharing_walls(lines: list[dict]) -> int:
    """How many wall sets share a wall with another: riichienv deals a game's k-th kyoku
    from the wall of seed ``seed + k``, so seeds s < t share walls when ``t - s`` is less
    than s's kyoku count (riichi_arena.py's stride keeps its own runs apart; logs made
    before it, on consecutive seeds, share most of their walls)."""
    kyoku: dict[int, int] = {}
    for line in lines:
        k = max((o["kyoku"] for o in line["outcomes"]), default=0)
        kyoku[line["seed"]] = max(kyoku.get(line["seed"], 0), k)
    seeds = sorted(kyoku)
    sharing: set[int] = set()
    for s, t in zip(seeds, seeds[1:]):
        if t - s < kyoku[s]:
            sharing.update((s, t))
    return len(sharing)


def summarize_games(lines: list[dict]) -> dict:
    """The challenger's and the field's figures, and the service seats' decision times,
    from the arena's per-hanchan log lines (riichi_arena.py --log)."""
    rows = {"challenger": [], "field": []}
    times: dict[str, list[float]] = {}
    kinds = {"challenger": set(), "field": set()}
    for line in lines:
        for s, o in enumerate(line["outcomes"]):
            side = "challenger" if s == line["challenger_seat"] else "field"
            rows[side].append(dict(o, wall_set=line["seed"]))
            kinds[side].add(o["kind"])
        for kind, ms in line.get("decision_ms", {}).items():
            times.setdefault(kind, []).extend(ms)
    out = {
        "hanchan": len(lines),
        "wall_sets": len({line["seed"] for line in lines}),
        "wall_sets_sharing_walls": wall_sets_sharing_walls(lines),
        "illegal_actions": sum(line["illegal"] for line in lines),
        "challenger": "/".join(sorted(kinds["challenger"])),
        "field": "/".join(sorted(kinds["field"])),
        "challenger_figures": side_summary(rows["challenger"]),
        "field_figures": side_summary(rows["field"]),
        "decision_ms": {k: {"count": len(v), "p50": percentile(v, 0.5), "p99": percentile(v, 0.99)}
                        for k, v in times.items() if v},
    }
    return out
