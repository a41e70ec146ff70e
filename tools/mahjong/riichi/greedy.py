"""The greedy baseline seat (issue 32's documented baseline).

- Wins whenever the simulator offers a win (tsumo or ron).
- Discards the tile that leaves the lowest shanten, then the most ukeire: the copies
  of the tile kinds whose draw would lower that shanten, counted as 4 minus the copies
  it holds and sees (rivers, melds, dora indicators). Shanten is riichienv's
  (``calculate_shanten``: regular, seven pairs and thirteen orphans). Ties go to the
  lowest kind in the order 1m..9m, 1p..9p, 1s..9s, 1z..7z; of two fives it throws the
  plain one and keeps a red five.
- Declares riichi whenever that discard leaves it tenpai and the simulator allows
  riichi (closed, 1,000 points, four draws left).
- Never calls (chi, pon, open kan), never declares a kan from its hand, never
  declares nine different terminals, never folds.
"""

from __future__ import annotations

from riichienv import ActionType, calculate_shanten

from .actions import group_by_type, offered_win
from .tiles import is_red, kind_of


def shanten(tile_ids: list[int]) -> int:
    return calculate_shanten(list(tile_ids))


def ukeire(tile_ids: list[int], seen: list[int]) -> tuple[int, int]:
    """(shanten, ukeire) of a 3n+1 hand; ``seen`` = copies seen per kind, the hand's
    own included."""
    base = shanten(tile_ids)
    total = 0
    for kind in range(34):
        left = 4 - seen[kind]
        if left <= 0:
            continue
        if shanten(list(tile_ids) + [kind * 4]) < base:
            total += left
    return base, total


def rank_discards(hand: list[int], discard_ids: list[int], seen: list[int]):
    """Every legal discard id ranked best first: (shanten, -ukeire, kind, red)."""
    scored = {}
    for tid in discard_ids:
        kind = kind_of(tid)
        key_kind = (kind, is_red(tid))
        if key_kind in scored:
            continue
        rest = list(hand)
        rest.remove(tid)
        sh, uk = ukeire(rest, seen)
        scored[key_kind] = ((sh, -uk, kind, is_red(tid)), tid)
    return [tid for _, tid in sorted(scored.values())]


class GreedySeat:
    name = "greedy"

    def __init__(self) -> None:
        self._riichi_tile: int | None = None

    def decide(self, obs, view, legal):
        """Returns one of ``legal`` (riichienv Actions)."""
        by_type = group_by_type(legal)
        win = offered_win(by_type)
        if win is not None:
            return win
        discards = by_type.get(ActionType.DISCARD, [])
        if not discards:
            # A call or kan offer only: pass (or, with nothing else, the first legal).
            return by_type.get(ActionType.PASS, legal)[0]
        if len(discards) == 1 and ActionType.RIICHI not in by_type:
            return discards[0]
        hand = list(obs.hand)
        seen = view.visible_counts()
        for t in hand:
            seen[kind_of(t)] += 1
        if self._riichi_tile is not None:
            # The discard after our riichi declaration, chosen with it.
            tile, self._riichi_tile = self._riichi_tile, None
            for a in discards:
                if a.tile == tile:
                    return a
        ranked = rank_discards(hand, [a.tile for a in discards], seen)
        best = ranked[0]
        if ActionType.RIICHI in by_type:
            rest = list(hand)
            rest.remove(best)
            if shanten(rest) == 0:
                self._riichi_tile = best
                return by_type[ActionType.RIICHI][0]
        return next(a for a in discards if a.tile == best)
