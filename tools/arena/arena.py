#!/usr/bin/env python3
"""Dou Dizhu arena: plays our gRPC service against DouZero's agents and reports strength.

Games are run by DouZero's ``GameEnv`` (douzero 1.1.0); the opponents are its
``RLCardAgent`` (the rule agent from RLCard) and ``RandomAgent``. Neither needs torch: the
modules imported here are pure Python + numpy.

Deals come from ``--seed``: a 54-card deck shuffled by ``numpy.random.RandomState(seed)``,
dealt as DouZero's evaluation data is (landlord = deck[:20], whose last three deck[17:20]
are the public bottom cards; landlord_up = deck[20:37]; landlord_down = deck[37:54]).
Every deal is played twice: ours as landlord against two opponent farmers, and ours as
both farmers against an opponent landlord.

Metrics, as DouZero's ``douzero/evaluation/simulation.py`` computes them:
- WP: games won / games played.
- ADP: the mean over games of the points won (+) or lost (-), where a game is worth
  2 * 2**bombs to the landlord side and 2 * 2**bombs to the farmer side (simulation.py:
  landlord scores 2 per game, farmers 1 each counted twice), ``bombs`` counting every
  bomb and rocket played (GameEnv.bomb_num). Spring is not scored (DouZero does not).
Reported per role (landlord, farmers) and overall (both games of every deal).

"Ours" is normally the service: every decision is a SuggestDouDizhuPlay call built from
the DouZero infoset (hand, seat, the three bottom cards, the whole history in turn order
from the landlord's first lead, "" for a pass). An answer that is not in the infoset's
legal actions, or an RPC error, counts as an illegal suggestion; a seeded random legal
action is played instead so the game goes on. ``--ours-peer KIND`` plays "ours" with a
DouZero agent instead (no service needed) to validate the harness; the requests are still
built and self-checked.

Exit status: 0, or 1 when ``--max-illegal`` is given and exceeded, 2 on a usage or
connection error.
"""

from __future__ import annotations

import argparse
import collections
import copy
import json
import pathlib
import random
import sys
import time

import numpy as np
from douzero.env.game import GameEnv
from douzero.evaluation.random_agent import RandomAgent
from douzero.evaluation.rlcard_agent import RLCardAgent

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "examples" / "python"))

# DouZero's card integers -> our one-letter ranks (DESIGN.md notation).
ENV_TO_CHAR = {3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T",
               11: "J", 12: "Q", 13: "K", 14: "A", 17: "2", 20: "X", 30: "D"}
CHAR_TO_ENV = {v: k for k, v in ENV_TO_CHAR.items()}
# Turn order; entry i of the history was made by POSITIONS[i % 3].
POSITIONS = ("landlord", "landlord_down", "landlord_up")
FARMERS = ("landlord_down", "landlord_up")
DECK = [r for r in range(3, 15) for _ in range(4)] + [17] * 4 + [20, 30]
HAND_SIZE = {"landlord": 20, "landlord_down": 17, "landlord_up": 17}


class HarnessError(Exception):
    """The arena itself built an inconsistent request: a bug here, not in the engine."""


def make_deals(count: int, seed: int) -> list[dict]:
    """``count`` deals in DouZero's evaluation format, reproducible from ``seed``."""
    rng = np.random.RandomState(seed)
    deals = []
    for _ in range(count):
        deck = list(DECK)
        rng.shuffle(deck)
        deals.append({
            "landlord": sorted(deck[:20]),
            "landlord_up": sorted(deck[20:37]),
            "landlord_down": sorted(deck[37:54]),
            "three_landlord_cards": sorted(deck[17:20]),
        })
    return deals


def cards_to_str(cards) -> str:
    """DouZero card ints -> canonical string, e.g. [3, 3, 10, 20] -> "33TX"."""
    return "".join(ENV_TO_CHAR[c] for c in sorted(cards))


def str_to_cards(text: str) -> list[int]:
    """Canonical string -> sorted DouZero ints; ValueError naming a foreign character."""
    out = []
    for ch in text:
        if ch not in CHAR_TO_ENV:
            raise ValueError(f"card {ch!r} is not a rank")
        out.append(CHAR_TO_ENV[ch])
    return sorted(out)


def build_play_request(pb, infoset, landlord_cards, mode: int, budget_ms: int):
    """SuggestDouDizhuPlayRequest for the player to move in a DouZero infoset.

    ``landlord_cards`` are the deal's three bottom cards: GameEnv shrinks its own copy
    as the landlord plays them, so the agent keeps the original.
    """
    return pb.SuggestDouDizhuPlayRequest(
        hand=cards_to_str(infoset.player_hand_cards),
        seat={"landlord": pb.SEAT_LANDLORD,
              "landlord_down": pb.SEAT_LANDLORD_DOWN,
              "landlord_up": pb.SEAT_LANDLORD_UP}[infoset.player_position],
        landlord_cards=cards_to_str(landlord_cards),
        history=[cards_to_str(a) for a in infoset.card_play_action_seq],
        mode=mode,
        budget_ms=budget_ms,
    )


def check_request(req, position: str, landlord_cards) -> None:
    """Raises HarnessError unless the request is consistent the way the service demands.

    Mirrors the service's validation (issue 4): the seat is the one to move, the hand size
    matches the seat and the history, no rank appears more often than the deck holds, and
    the bottom cards fit what is known of the landlord.
    """
    hist = req.history
    if POSITIONS[len(hist) % 3] != position:
        raise HarnessError(f"{position} is not to move after {len(hist)} plays")
    played = {p: collections.Counter() for p in POSITIONS}
    for i, play in enumerate(hist):
        played[POSITIONS[i % 3]].update(str_to_cards(play))
    hand = collections.Counter(str_to_cards(req.hand))
    if sum(hand.values()) != HAND_SIZE[position] - sum(played[position].values()):
        raise HarnessError(f"hand {req.hand!r} has the wrong size for {position}")
    bottom = collections.Counter(str_to_cards(req.landlord_cards))
    if landlord_cards and sorted(bottom.elements()) != sorted(landlord_cards):
        raise HarnessError("landlord_cards differ from the deal's bottom cards")
    seen = hand.copy()
    for counter in played.values():
        seen.update(counter)
    if position == "landlord":
        known = hand + played["landlord"]
        if bottom - known:
            raise HarnessError("bottom cards are not among the landlord's known cards")
    else:
        seen.update(bottom - played["landlord"])
    for card, n in seen.items():
        if n > (1 if card >= 20 else 4):
            raise HarnessError(f"rank {ENV_TO_CHAR[card]} seen {n} times")


class Stats:
    """Call counts, illegal suggestions and latencies of the "ours" side."""

    def __init__(self) -> None:
        self.calls = 0
        self.retries = 0
        self.illegal = 0
        self.illegal_by_cause: collections.Counter = collections.Counter()
        self.examples: list[dict] = []
        self.latency_ms: list[float] = []
        self.server_ms: list[float] = []

    def record_illegal(self, cause: str, req, answer: str) -> None:
        self.illegal += 1
        self.illegal_by_cause[cause] += 1
        if len(self.examples) < 10:
            self.examples.append({
                "cause": cause, "answer": answer, "hand": req.hand,
                "seat": req.DESCRIPTOR.fields_by_name["seat"].enum_type
                .values_by_number[req.seat].name,
                "landlord_cards": req.landlord_cards,
                "history": list(req.history)})


def call_with_retry(grpc_mod, method, req, timeout, stats):
    """Calls ``method(req)``; an UNAVAILABLE answer is retried once, as gRPC clients are
    advised to (the server's --max-connection-age closes connections now and then, and a
    call racing the close is refused before the server sees it). Retries are counted in
    ``stats.retries``; any other error, or a second UNAVAILABLE, is raised."""
    try:
        return method(req, timeout=timeout)
    except grpc_mod.RpcError as err:
        if err.code() != grpc_mod.StatusCode.UNAVAILABLE:
            raise
        stats.retries += 1
        return method(req, timeout=timeout)


class ServiceAgent:
    """DouZero-style agent (``act(infoset) -> list of card ints``) backed by the service."""

    def __init__(self, position, stub, pb, grpc_mod, landlord_cards, stats, rng, args):
        self.position = position
        self.stub = stub
        self.pb = pb
        self.grpc = grpc_mod
        self.landlord_cards = list(landlord_cards)
        self.stats = stats
        self.rng = rng
        self.mode = mode_value(pb, args.mode)
        self.budget_ms = args.budget_ms
        self.timeout = args.timeout

    def act(self, infoset):
        req = build_play_request(self.pb, infoset, self.landlord_cards,
                                 self.mode, self.budget_ms)
        check_request(req, self.position, self.landlord_cards)
        self.stats.calls += 1
        start = time.perf_counter()
        try:
            resp = call_with_retry(self.grpc, self.stub.SuggestDouDizhuPlay, req,
                                   self.timeout, self.stats)
        except self.grpc.RpcError as err:
            self.stats.record_illegal(f"rpc {err.code().name}: {err.details()}", req, "")
            return self.rng.choice(infoset.legal_actions)
        self.stats.latency_ms.append((time.perf_counter() - start) * 1000.0)
        if resp.HasField("stats"):
            self.stats.server_ms.append(resp.stats.elapsed_ms)
        answer = resp.play.cards
        try:
            action = str_to_cards(answer)
        except ValueError as err:
            self.stats.record_illegal(f"unparsable: {err}", req, answer)
            return self.rng.choice(infoset.legal_actions)
        if action not in infoset.legal_actions:
            cause = "pass on a free lead" if not action else "not a legal play"
            self.stats.record_illegal(cause, req, answer)
            return self.rng.choice(infoset.legal_actions)
        return action


class PeerAsOurs:
    """A DouZero agent in the "ours" seat (``--ours-peer``): builds and checks the request
    the service would get, then lets the agent decide. Validates the harness."""

    def __init__(self, position, kind, pb, landlord_cards, stats):
        self.position = position
        self.agent = make_peer(kind, position)
        self.pb = pb
        self.landlord_cards = list(landlord_cards)
        self.stats = stats

    def act(self, infoset):
        req = build_play_request(self.pb, infoset, self.landlord_cards, 0, 0)
        check_request(req, self.position, self.landlord_cards)
        legal = infoset.legal_actions
        self.stats.calls += 1
        start = time.perf_counter()
        action = self.agent.act(infoset)  # RLCardAgent rewrites parts of the infoset
        self.stats.latency_ms.append((time.perf_counter() - start) * 1000.0)
        if action not in legal:
            self.stats.record_illegal("peer agent played an illegal action", req,
                                      cards_to_str(action))
        return action


def mode_value(pb, mode: str) -> int:
    """The SearchMode enum value of a ``--mode`` name ("default" sends UNSPECIFIED: the
    service's default mode)."""
    return {"default": pb.SEARCH_MODE_UNSPECIFIED, "heuristic": pb.SEARCH_MODE_HEURISTIC,
            "search": pb.SEARCH_MODE_SEARCH}[mode]


def opponent_args(args) -> argparse.Namespace:
    """The ServiceAgent settings of the opponent service (``--opponent service``)."""
    return argparse.Namespace(mode=args.opponent_mode, budget_ms=args.opponent_budget_ms,
                              timeout=args.timeout)


def make_peer(kind: str, position: str):
    if kind == "rlcard":
        return RLCardAgent(position)
    if kind == "random":
        return RandomAgent()
    raise ValueError(f"unknown agent kind {kind!r}")


def play_game(deal: dict, players: dict) -> tuple[str, int, list[str]]:
    """Plays one game; returns (winner side "landlord"|"farmer", bombs, history)."""
    env = GameEnv(players)
    env.card_play_init(copy.deepcopy(deal))
    while not env.game_over:
        env.step()
    return env.get_winner(), env.get_bomb_num(), [cards_to_str(a) for a in
                                                  env.card_play_action_seq]


def game_points(won: bool, bombs: int) -> int:
    """Points of one game for the side measured, as simulation.py counts them: the
    landlord's 2 (or the two farmers' 1 + 1), doubled per bomb or rocket played."""
    return (2 if won else -2) * 2 ** bombs


def percentile(values: list[float], q: float) -> float | None:
    return float(np.percentile(values, q)) if values else None


def latency(stats: Stats) -> dict:
    """Client-side latency of a Stats' calls: mean, p50, p99, max (ms)."""
    lat = stats.latency_ms
    return {"mean": float(np.mean(lat)) if lat else None,
            "p50": percentile(lat, 50), "p99": percentile(lat, 99),
            "max": max(lat) if lat else None}


def summarize(results: dict, stats: Stats) -> dict:
    def role(games):
        n = len(games)
        return {"games": n,
                "wins": sum(1 for won, _ in games if won),
                "wp": sum(1 for won, _ in games if won) / n if n else None,
                "adp": sum(points for _, points in games) / n if n else None}

    return {
        "landlord": role(results["landlord"]),
        "farmers": role(results["farmers"]),
        "overall": role(results["landlord"] + results["farmers"]),
        "calls": stats.calls,
        "retries": stats.retries,
        "illegal_suggestions": stats.illegal,
        "illegal_by_cause": dict(stats.illegal_by_cause),
        "illegal_examples": stats.examples,
        "latency_ms": latency(stats),
        "server_elapsed_ms_mean": float(np.mean(stats.server_ms)) if stats.server_ms else None,
    }


def connect(addr: str, wait_s: float):
    """Opens a channel and waits (up to wait_s) for the Dou Dizhu service to be SERVING
    per grpc.health.v1; a server without health is taken as ready once connected."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    channel = grpc.insecure_channel(addr)
    deadline = time.monotonic() + wait_s
    health = health_pb2_grpc.HealthStub(channel)
    last = "no answer"
    while True:
        try:
            reply = health.Check(health_pb2.HealthCheckRequest(
                service="gameai.v1.DouDizhuService"), timeout=2)
            if reply.status == health_pb2.HealthCheckResponse.SERVING:
                return channel
            last = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
        except grpc.RpcError as err:
            if err.code() == grpc.StatusCode.UNIMPLEMENTED:
                return channel
            last = f"{err.code().name}: {err.details()}"
        if time.monotonic() >= deadline:
            raise ConnectionError(f"{addr} not serving after {wait_s:.0f} s ({last})")
        time.sleep(0.2)


def run(args) -> dict:
    import gameai_client

    pb, rpc = gameai_client.load("doudizhu")
    stub = grpc_mod = None
    if not args.ours_peer:
        import grpc as grpc_mod

        stub = rpc.DouDizhuServiceStub(connect(args.addr, args.wait_ready))

    opp_stub = None
    opp_stats = Stats()
    if args.opponent == "service":
        import grpc as grpc_mod

        opp_stub = rpc.DouDizhuServiceStub(connect(args.opponent_addr, args.wait_ready))

    stats = Stats()
    bid_stats = Stats()
    calibration_pairs: list[tuple[float, bool]] = []
    results = {"landlord": [], "farmers": []}
    log = open(args.log, "w", encoding="utf-8") if args.log else None
    started = time.monotonic()
    roles = ("landlord", "farmers") if args.roles == "both" else (args.roles,)
    for index, deal in enumerate(make_deals(args.deals, args.seed)):
        for role in roles:
            estimate = simulated = deals = None
            if args.estimate and role == "landlord" and stub is not None:
                # The landlord's 17 dealt cards, the bottom cards unknown, bidding first.
                dealt = collections.Counter(deal["landlord"])
                dealt.subtract(deal["three_landlord_cards"])
                req = pb.SuggestDouDizhuBidRequest(hand=cards_to_str(dealt.elements()),
                                                   budget_ms=args.bid_budget_ms)
                bid_stats.calls += 1
                t = time.perf_counter()
                reply = call_with_retry(grpc_mod, stub.SuggestDouDizhuBid, req,
                                        args.timeout, bid_stats)
                bid_stats.latency_ms.append((time.perf_counter() - t) * 1000.0)
                estimate = reply.landlord_win_probability
                simulated = reply.simulated_landlord_win_share
                deals = reply.deals
            # Seeds the opponents' randomness (RandomAgent, RLCardAgent's fallbacks) and
            # the fallback for illegal answers, so a run is reproducible game by game.
            random.seed(f"{args.seed}/{index}/{role}")
            fallback_rng = random.Random(f"fallback/{args.seed}/{index}/{role}")
            ours_positions = ("landlord",) if role == "landlord" else FARMERS
            players = {}
            for pos in POSITIONS:
                if pos not in ours_positions and args.opponent == "service":
                    players[pos] = ServiceAgent(pos, opp_stub, pb, grpc_mod,
                                                deal["three_landlord_cards"], opp_stats,
                                                fallback_rng, opponent_args(args))
                elif pos not in ours_positions:
                    players[pos] = make_peer(args.opponent, pos)
                elif args.ours_peer:
                    players[pos] = PeerAsOurs(pos, args.ours_peer, pb,
                                              deal["three_landlord_cards"], stats)
                else:
                    players[pos] = ServiceAgent(pos, stub, pb, grpc_mod,
                                                deal["three_landlord_cards"], stats,
                                                fallback_rng, args)
            winner, bombs, history = play_game(deal, players)
            won = winner == ("landlord" if role == "landlord" else "farmer")
            points = game_points(won, bombs)
            results[role].append((won, points))
            if estimate is not None:
                calibration_pairs.append((estimate, won))
            if log:
                log.write(json.dumps({"deal": index, "ours": role, "winner": winner,
                                      "bombs": bombs, "points": points,
                                      "estimate": estimate, "simulated": simulated,
                                      "deals": deals,
                                      "hands": {p: cards_to_str(deal[p]) for p in POSITIONS},
                                      "landlord_cards":
                                          cards_to_str(deal["three_landlord_cards"]),
                                      "history": history}) + "\n")
        if args.progress and (index + 1) % args.progress == 0:
            print(f"  {index + 1}/{args.deals} deals, {stats.illegal} illegal, "
                  f"{time.monotonic() - started:.0f} s", file=sys.stderr)
    if log:
        log.close()

    summary = summarize(results, stats)
    if args.estimate:
        import fullgame

        summary["calibration"] = fullgame.calibration(calibration_pairs)
        summary["bid_latency_ms"] = latency(bid_stats)
    if args.opponent == "service":
        summary["opponent_service"] = {
            "calls": opp_stats.calls, "illegal_suggestions": opp_stats.illegal,
            "latency_ms": latency(opp_stats)}
    summary["config"] = {
        "ours": f"peer:{args.ours_peer}" if args.ours_peer else f"service@{args.addr}",
        "mode": None if args.ours_peer else args.mode,
        "budget_ms": None if args.ours_peer else args.budget_ms,
        "opponent": args.opponent if args.opponent != "service" else
        f"service@{args.opponent_addr} mode={args.opponent_mode}"
        f" budget_ms={args.opponent_budget_ms}",
        "deals": args.deals, "seed": args.seed,
        "douzero": "1.1.0", "rlcard": "1.2.0"}
    summary["wall_seconds"] = round(time.monotonic() - started, 1)
    return summary


def run_full(args) -> dict:
    """``--full-game``: every deal bid, played and scored three times, ours in bidding
    position 0, 1 and 2 (see ``fullgame.py``)."""
    import grpc as grpc_mod

    import fullgame
    import gameai_client

    pb, rpc = gameai_client.load("doudizhu")
    stub = rpc.DouDizhuServiceStub(connect(args.addr, args.wait_ready))
    opp_stub = None
    if args.opponent == "service":
        opp_stub = rpc.DouDizhuServiceStub(connect(args.opponent_addr, args.wait_ready))
    stats, opp_stats, bid_stats = Stats(), Stats(), Stats()
    bid_illegal: list[dict] = []
    games: list[dict] = []
    log = open(args.log, "w", encoding="utf-8") if args.log else None
    started = time.monotonic()

    def threshold_bid(hand, bids):
        reply = call_with_retry(grpc_mod, stub.SuggestDouDizhuBid, pb.SuggestDouDizhuBidRequest(
            hand=cards_to_str(hand), bids=bids, mode=pb.SEARCH_MODE_HEURISTIC),
            args.timeout, bid_stats)
        return reply.bid

    for index, deal in enumerate(fullgame.make_full_deals(args.deals, args.seed)):
        for ours in range(3):
            random.seed(f"{args.seed}/{index}/full{ours}")
            fallback_rng = random.Random(f"fallback/{args.seed}/{index}/full{ours}")
            estimate = {}

            def ours_bid(bids, hand=deal["hands"][ours], estimate=estimate):
                if args.ours_peer:
                    return threshold_bid(hand, bids)
                req = pb.SuggestDouDizhuBidRequest(hand=cards_to_str(hand), bids=bids,
                                                   budget_ms=args.bid_budget_ms)
                bid_stats.calls += 1
                t = time.perf_counter()
                try:
                    reply = call_with_retry(grpc_mod, stub.SuggestDouDizhuBid, req,
                                            args.timeout, bid_stats)
                except grpc_mod.RpcError as err:
                    bid_illegal.append({"cause": f"rpc {err.code().name}: {err.details()}",
                                        "hand": req.hand, "bids": bids})
                    return 0
                bid_stats.latency_ms.append((time.perf_counter() - t) * 1000.0)
                highest = max(bids, default=0)
                if reply.bid != 0 and not highest < reply.bid <= 3:
                    bid_illegal.append({"cause": f"bid {reply.bid} after {bids}",
                                        "hand": req.hand, "bids": bids})
                    return 0
                if reply.HasField("landlord_win_probability"):
                    estimate["p"] = reply.landlord_win_probability
                    estimate["stderr"] = reply.landlord_win_probability_stderr
                    estimate["simulated"] = reply.simulated_landlord_win_share
                    estimate["deals"] = reply.deals
                return reply.bid

            bidders = [ours_bid if q == ours else
                       (lambda bids, hand=deal["hands"][q]: threshold_bid(hand, bids))
                       for q in range(3)]
            landlord, bid, bids = fullgame.run_bidding(bidders)
            positions = fullgame.seat_positions(landlord)
            ours_pos = positions[ours]
            bottom = deal["bottom"]
            players = {}
            for pos in POSITIONS:
                if pos == ours_pos and args.ours_peer:
                    players[pos] = PeerAsOurs(pos, args.ours_peer, pb, bottom, stats)
                elif pos == ours_pos:
                    players[pos] = ServiceAgent(pos, stub, pb, grpc_mod, bottom, stats,
                                                fallback_rng, args)
                elif args.opponent == "service":
                    players[pos] = ServiceAgent(pos, opp_stub, pb, grpc_mod, bottom, opp_stats,
                                                fallback_rng, opponent_args(args))
                else:
                    players[pos] = make_peer(args.opponent, pos)
            winner, bombs, history = fullgame.play(deal, landlord, players, GameEnv)
            landlord_won = winner == "landlord"
            role = "landlord" if ours_pos == "landlord" else "farmer"
            won = landlord_won == (role == "landlord")
            spring = fullgame.springs(history, winner)
            game = {"deal": index, "ours_position": ours, "ours": ours_pos, "bids": bids,
                    "landlord_position": landlord, "bid": bid, "winner": winner,
                    "won": won, "bombs": bombs, "spring": spring,
                    "score": fullgame.game_score(bid, bombs, spring, landlord_won, role),
                    "adp": game_points(won, bombs),
                    "estimate": estimate.get("p"), "estimate_stderr": estimate.get("stderr"),
                    "simulated": estimate.get("simulated"), "deals": estimate.get("deals")}
            games.append(game)
            if log:
                log.write(json.dumps({**game,
                                      "hands": [cards_to_str(h) for h in deal["hands"]],
                                      "bottom": cards_to_str(bottom),
                                      "history": [cards_to_str(a) for a in history]}) + "\n")
        if args.progress and (index + 1) % args.progress == 0:
            print(f"  {index + 1}/{args.deals} deals, {stats.illegal} illegal, "
                  f"{time.monotonic() - started:.0f} s", file=sys.stderr)
    if log:
        log.close()

    def group(rows):
        n = len(rows)
        return {"games": n, "wins": sum(g["won"] for g in rows),
                "wp": sum(g["won"] for g in rows) / n if n else None,
                "adp": sum(g["adp"] for g in rows) / n if n else None,
                "mean_score": sum(g["score"] for g in rows) / n if n else None}

    summary = {
        "positions": {str(q): group([g for g in games if g["ours_position"] == q])
                      for q in range(3)},
        "roles": {"landlord": group([g for g in games if g["ours"] == "landlord"]),
                  "farmer": group([g for g in games if g["ours"] != "landlord"])},
        "overall": group(games),
        "mean_score_per_deal": sum(g["score"] for g in games) / args.deals,
        "bids": dict(collections.Counter(
            str(g["bids"][g["ours_position"]]) for g in games
            if len(g["bids"]) > g["ours_position"])),
        "calibration": fullgame.calibration(
            [(g["estimate"], g["won"]) for g in games
             if g["ours"] == "landlord" and g["estimate"] is not None]),
        "calls": stats.calls,
        "retries": stats.retries + bid_stats.retries,
        "illegal_suggestions": stats.illegal + len(bid_illegal),
        "illegal_by_cause": dict(stats.illegal_by_cause),
        "illegal_examples": stats.examples,
        "illegal_bids": bid_illegal[:10],
        "latency_ms": latency(stats),
        "bid_calls": bid_stats.calls,
        "bid_latency_ms": latency(bid_stats),
        "server_elapsed_ms_mean": float(np.mean(stats.server_ms)) if stats.server_ms else None,
    }
    if args.opponent == "service":
        summary["opponent_service"] = {"calls": opp_stats.calls,
                                       "illegal_suggestions": opp_stats.illegal,
                                       "latency_ms": latency(opp_stats)}
    summary["config"] = {
        "full_game": True,
        "ours": f"peer:{args.ours_peer}" if args.ours_peer else f"service@{args.addr}",
        "mode": None if args.ours_peer else args.mode,
        "budget_ms": None if args.ours_peer else args.budget_ms,
        "bid_budget_ms": args.bid_budget_ms,
        "opponent": args.opponent if args.opponent != "service" else
        f"service@{args.opponent_addr} mode={args.opponent_mode}"
        f" budget_ms={args.opponent_budget_ms}",
        "deals": args.deals, "seed": args.seed, "douzero": "1.1.0", "rlcard": "1.2.0"}
    summary["wall_seconds"] = round(time.monotonic() - started, 1)
    return summary


def format_calibration(cal: dict) -> list[str]:
    """The calibration table as text lines."""
    lines = [f"calibration of the landlord win probability ({cal['games']} games as "
             f"landlord; deciles with >= {cal['min_count']} games within "
             f"+-{cal['tolerance']}: {'yes' if cal['within_tolerance'] else 'NO'})",
             f"  {'decile':<9}{'games':>7}{'estimate':>10}{'observed':>10}{'diff':>8}"]
    for r in cal["rows"]:
        if r["games"]:
            lines.append(f"  {r['decile']:<9}{r['games']:>7}{r['mean_estimate']:>10.3f}"
                         f"{r['observed']:>10.3f}{r['diff']:>+8.3f}")
    return lines


def format_full(s: dict) -> str:
    c = s["config"]
    lines = [f"Dou Dizhu full games: ours={c['ours']}"
             + (f" mode={c['mode']}" if c["mode"] else "")
             + f" vs {c['opponent']}, {c['deals']} deals x 3 seats (seed {c['seed']}), "
             f"{s['wall_seconds']} s",
             f"{'ours':<12}{'games':>7}{'wins':>7}{'WP':>8}{'ADP':>9}{'score':>9}"]

    def row(name, r):
        return (f"{name:<12}{r['games']:>7}{r['wins']:>7}{r['wp']:>8.3f}{r['adp']:>+9.3f}"
                f"{r['mean_score']:>+9.3f}")

    for q in range(3):
        lines.append(row(f"position {q}", s["positions"][str(q)]))
    for role in ("landlord", "farmer"):
        if s["roles"][role]["games"]:
            lines.append(row(f"as {role}", s["roles"][role]))
    lines.append(row("overall", s["overall"]))
    lines.append(f"mean score per deal (3 games): {s['mean_score_per_deal']:+.3f}; "
                 f"ours' bids: {s['bids']}")
    lines.extend(format_calibration(s["calibration"]))
    lat, blat = s["latency_ms"], s["bid_latency_ms"]
    lines.append(f"illegal suggestions: {s['illegal_suggestions']} in {s['calls']} play and "
                 f"{s['bid_calls']} bid calls")
    if lat["mean"] is not None:
        lines.append(f"play latency (ms): p50 {lat['p50']:.3f}  p99 {lat['p99']:.3f}  "
                     f"max {lat['max']:.3f}")
    if blat["mean"] is not None:
        lines.append(f"bid latency (ms): p50 {blat['p50']:.3f}  p99 {blat['p99']:.3f}  "
                     f"max {blat['max']:.3f}")
    if "opponent_service" in s:
        o = s["opponent_service"]
        lines.append(f"opponent service: {o['illegal_suggestions']} illegal in {o['calls']} calls")
    return "\n".join(lines)


def format_text(s: dict) -> str:
    c = s["config"]
    lines = [f"Dou Dizhu arena: ours={c['ours']}"
             + (f" mode={c['mode']}" if c["mode"] else "")
             + f" vs {c['opponent']}, {c['deals']} deals (seed {c['seed']}), "
             f"{s['wall_seconds']} s",
             f"{'role':<10}{'games':>7}{'wins':>7}{'WP':>8}{'ADP':>9}"]
    for role in ("landlord", "farmers", "overall"):
        r = s[role]
        if r["games"]:
            lines.append(f"{role:<10}{r['games']:>7}{r['wins']:>7}{r['wp']:>8.3f}"
                         f"{r['adp']:>+9.3f}")
    lat = s["latency_ms"]
    lines.append(f"illegal suggestions: {s['illegal_suggestions']} in {s['calls']} calls"
                 + (f" {s['illegal_by_cause']}" if s["illegal_by_cause"] else "")
                 + (f" ({s['retries']} UNAVAILABLE retried)" if s.get("retries") else ""))
    if lat["mean"] is not None:
        lines.append(f"latency per call (ms): mean {lat['mean']:.3f}  p50 {lat['p50']:.3f}  "
                     f"p99 {lat['p99']:.3f}  max {lat['max']:.3f}"
                     + (f"  (server elapsed mean {s['server_elapsed_ms_mean']:.3f})"
                        if s["server_elapsed_ms_mean"] is not None else ""))
    if "calibration" in s:
        lines.extend(format_calibration(s["calibration"]))
    if "opponent_service" in s:
        o = s["opponent_service"]
        lines.append(f"opponent service: {o['illegal_suggestions']} illegal in {o['calls']} calls, "
                     f"latency p50 {o['latency_ms']['p50']:.3f}  p99 {o['latency_ms']['p99']:.3f} ms")
    for ex in s["illegal_examples"][:3]:
        lines.append(f"  illegal: {ex['cause']}; answer {ex['answer']!r} hand {ex['hand']!r} "
                     f"seat {ex['seat']} bottom {ex['landlord_cards']!r} "
                     f"history {ex['history']}")
    return "\n".join(lines)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--addr", default="127.0.0.1:50051",
                   help="gRPC address of the gameai service (default %(default)s)")
    p.add_argument("--opponent", choices=("rlcard", "random", "service"), default="rlcard",
                   help="the other side: a DouZero agent, or a gameai service at "
                        "--opponent-addr (default %(default)s)")
    p.add_argument("--opponent-addr", default="127.0.0.1:50052",
                   help="the opponent service (--opponent service; default %(default)s)")
    p.add_argument("--opponent-mode", choices=("default", "heuristic", "search"),
                   default="default", help="SearchMode sent by the opponent service's seats")
    p.add_argument("--opponent-budget-ms", type=int, default=0,
                   help="budget_ms sent by the opponent service's seats (0 = its default)")
    p.add_argument("--deals", type=int, default=100,
                   help="deals to play, each twice (default %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="deal seed (default %(default)s)")
    p.add_argument("--mode", choices=("default", "heuristic", "search"), default="default",
                   help="SuggestDouDizhuPlay mode; default sends SEARCH_MODE_UNSPECIFIED, "
                        "the service's default (default %(default)s)")
    p.add_argument("--budget-ms", type=int, default=0,
                   help="budget_ms sent with each request (0 = server default)")
    p.add_argument("--timeout", type=float, default=10.0,
                   help="gRPC deadline per call in seconds (default %(default)s)")
    p.add_argument("--wait-ready", type=float, default=30.0,
                   help="seconds to wait for the service to be SERVING (default %(default)s)")
    p.add_argument("--ours-peer", choices=("rlcard", "random"),
                   help="play the 'ours' side with this DouZero agent (no service)")
    p.add_argument("--full-game", action="store_true",
                   help="deal, bid (seed 002), play and score every deal three times, ours in "
                        "each bidding position (fullgame.py)")
    p.add_argument("--bid-budget-ms", type=int, default=0,
                   help="budget_ms of ours' SuggestDouDizhuBid calls (--full-game; 0 = the "
                        "server default)")
    p.add_argument("--roles", choices=("both", "landlord", "farmers"), default="both",
                   help="which games of each deal to play (default both: duplicate)")
    p.add_argument("--estimate", action="store_true",
                   help="before each landlord game, ask SuggestDouDizhuBid for the landlord's "
                        "17 dealt cards and report the calibration of its win probability")
    p.add_argument("--json", metavar="PATH",
                   help="also write the summary as JSON to PATH ('-' = stdout only)")
    p.add_argument("--log", metavar="PATH", help="write every game as a JSON line to PATH")
    p.add_argument("--max-illegal", type=int,
                   help="exit 1 if more illegal suggestions than this")
    p.add_argument("--progress", type=int, default=0, metavar="N",
                   help="print progress to stderr every N deals")
    args = p.parse_args(argv)
    if args.deals < 1:
        p.error("--deals must be at least 1")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        summary = run_full(args) if args.full_game else run(args)
    except ConnectionError as err:
        print(f"arena: {err}", file=sys.stderr)
        return 2
    if args.json == "-":
        print(json.dumps(summary, indent=2))
    else:
        print(format_full(summary) if args.full_game else format_text(summary))
        if args.json:
            pathlib.Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
    if args.max_illegal is not None and summary["illegal_suggestions"] > args.max_illegal:
        print(f"arena: FAILED: {summary['illegal_suggestions']} illegal suggestions "
              f"(allowed {args.max_illegal})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
