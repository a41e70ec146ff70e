"""Full games for the arena (``arena.py --full-game``): deal, bid, play, score.

Deals: a 54-card deck shuffled by ``numpy.random.RandomState(seed)``; bidding positions
0, 1, 2 get ``deck[0:17]``, ``deck[17:34]``, ``deck[34:51]``; ``deck[51:54]`` are the
bottom cards. Every deal is played three times, "ours" (the service) in bidding position
0, 1 and 2 in turn; the other two positions are the opponent agent.

Bidding (seed 002): position 0 bids first, then 1, then 2; each bids 1, 2 or 3 points
above the highest so far, or passes; a 3 ends the bidding at once; the highest bidder is
the landlord and takes the bottom cards; when all pass, position 0 is the landlord with a
bid of 1. Play order is bidding order: the position after the landlord is
``landlord_down``. Ours bids with ``SuggestDouDizhuBid`` in the service's default mode
(the simulation), which also gives its estimated landlord win probability; the opponent
positions bid with the **threshold bidder**: the service's ``SuggestDouDizhuBid`` in
``SEARCH_MODE_HEURISTIC`` (``strategy::decide_bid``: seed 000's value of the 17 cards,
``sum_value - 7 * need_rounds``, bids 3 at -25 or more, 2 at -33, 1 at -40, else passes,
and passes when its level is not above the highest bid).

Score (seed 002, DESIGN.md): the final bid, doubled per bomb or rocket played, doubled
for a spring (the landlord wins and neither farmer played a card) or an anti-spring (the
farmers win and the landlord played only once); the landlord wins or loses twice that
(once from each farmer), each farmer once. ``score`` is ours' score in a game;
``adp`` is DouZero's measure on the same games (bid and spring ignored: 2 * 2**bombs to
the landlord, 1 * 2**bombs to each farmer, so a farmer side counts 2 * 2**bombs).

Calibration: for every game in which ours became the landlord, its estimate against the
outcome, grouped by deciles of the estimate.
"""

from __future__ import annotations

import copy

import numpy as np

POSITIONS = ("landlord", "landlord_down", "landlord_up")
DECK = [r for r in range(3, 15) for _ in range(4)] + [17] * 4 + [20, 30]


def make_full_deals(count: int, seed: int) -> list[dict]:
    """``count`` deals: three 17-card hands by bidding position and the bottom cards."""
    rng = np.random.RandomState(seed)
    deals = []
    for _ in range(count):
        deck = list(DECK)
        rng.shuffle(deck)
        deals.append({"hands": [sorted(deck[0:17]), sorted(deck[17:34]), sorted(deck[34:51])],
                      "bottom": sorted(deck[51:54])})
    return deals


def run_bidding(bidders) -> tuple[int, int, list[int]]:
    """Seed 002's bidding. ``bidders[q](bids_so_far) -> bid`` for position q. Returns
    (landlord position, final bid, the bids made)."""
    bids: list[int] = []
    highest, landlord = 0, 0
    for q in range(3):
        b = bidders[q](list(bids))
        if b != 0 and b <= highest or not 0 <= b <= 3:
            raise ValueError(f"position {q} bid {b} after {bids}")
        bids.append(b)
        if b > highest:
            highest, landlord = b, q
        if b == 3:
            break
    if highest == 0:
        return 0, 1, bids
    return landlord, highest, bids


def seat_positions(landlord: int) -> dict[int, str]:
    """Bidding position -> DouZero position, play order being bidding order."""
    return {landlord: "landlord", (landlord + 1) % 3: "landlord_down",
            (landlord + 2) % 3: "landlord_up"}


def card_play_deal(deal: dict, landlord: int) -> dict:
    """The DouZero ``card_play_init`` dict for a deal once ``landlord`` is known."""
    pos = seat_positions(landlord)
    out = {pos[q]: sorted(deal["hands"][q] + (deal["bottom"] if q == landlord else []))
           for q in range(3)}
    out["three_landlord_cards"] = sorted(deal["bottom"])
    return out


def springs(history: list[list[int]], winner: str) -> bool:
    """Whether the game is a spring (landlord won, no farmer played a card) or an
    anti-spring (farmers won, the landlord played only once). Entry i of the history
    belongs to POSITIONS[i % 3]."""
    plays = {p: 0 for p in POSITIONS}
    for i, action in enumerate(history):
        if action:
            plays[POSITIONS[i % 3]] += 1
    if winner == "landlord":
        return plays["landlord_down"] == 0 and plays["landlord_up"] == 0
    return plays["landlord"] == 1


def game_score(bid: int, bombs: int, spring: bool, landlord_won: bool, role: str) -> int:
    """Seed 002's score of one game for a player in ``role``."""
    points = bid * 2 ** bombs * (2 if spring else 1)
    if role == "landlord":
        return 2 * points if landlord_won else -2 * points
    return -points if landlord_won else points


def calibration(pairs: list[tuple[float, bool]], min_count: int = 100,
                tolerance: float = 0.05) -> dict:
    """Deciles of the estimate against the observed rate. A decile with at least
    ``min_count`` games passes when |observed - mean estimate| <= ``tolerance``."""
    rows = []
    ok = True
    for d in range(10):
        lo, hi = d / 10, (d + 1) / 10
        inside = [(p, w) for p, w in pairs if lo <= p < hi or (d == 9 and p == 1.0)]
        n = len(inside)
        row = {"decile": f"{lo:.1f}-{hi:.1f}", "games": n}
        if n:
            est = float(np.mean([p for p, _ in inside]))
            obs = float(np.mean([w for _, w in inside]))
            row.update(mean_estimate=est, observed=obs, diff=obs - est,
                       observed_stderr=float(np.sqrt(obs * (1 - obs) / n)))
            if n >= min_count and abs(obs - est) > tolerance:
                ok = False
        rows.append(row)
    return {"rows": rows, "games": len(pairs), "within_tolerance": ok,
            "min_count": min_count, "tolerance": tolerance}


def play(deal: dict, landlord: int, players: dict, game_env_cls) -> tuple[str, int, list]:
    """Plays the card-play phase; returns (winner side, bombs, history as card lists)."""
    env = game_env_cls(players)
    env.card_play_init(copy.deepcopy(card_play_deal(deal, landlord)))
    while not env.game_over:
        env.step()
    return env.get_winner(), env.get_bomb_num(), [list(a) for a in env.card_play_action_seq]
