"""The legal actions riichienv offers a seat, grouped, and the rule every seat here
shares: a win offered (tsumo or ron) is always taken."""

from __future__ import annotations

from riichienv import ActionType


def group_by_type(legal) -> dict:
    """``legal`` (riichienv Actions) grouped by ``action_type``, in their order."""
    groups: dict = {}
    for a in legal:
        groups.setdefault(a.action_type, []).append(a)
    return groups


def offered_win(groups: dict):
    """The tsumo or ron among the grouped actions, or None."""
    for win in (ActionType.TSUMO, ActionType.RON):
        if win in groups:
            return groups[win][0]
    return None
