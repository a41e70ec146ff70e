#!/usr/bin/env python3
"""Where an arena run's losses are: which games ours lost, set against a reference run on
the same deals (both ``--log`` files of ``arena.py``), usually DouZero's RLCard agent in
ours' seats (``--ours-peer rlcard``).

Per role it counts ours' losses and how many of them the reference lost too (the same
seat, the same cards, the same opponents); per deal, the deals ours lost in both roles,
and the deals lost as landlord on which ours' farmers beat the opponent's landlord with
the same cards (the deal favoured the farmers: a weak landlord hand, since DouZero's
evaluation has no bidding). A loss the reference avoided is where ours played worse
than the opponent would in its place; the rest is what the deal allowed these players.

Usage: losses.py OURS.jsonl REFERENCE.jsonl
"""

from __future__ import annotations

import sys

from compare_logs import load  # (deal, ours role) -> whether ours' side won


def breakdown(ours: dict, ref: dict) -> dict:
    """The counts described in the module docs, over the games both runs played."""
    keys = set(ours) & set(ref)
    out = {}
    for role in ("landlord", "farmers"):
        lost = [k for k in keys if k[1] == role and not ours[k]]
        out[role] = {"games": sum(1 for k in keys if k[1] == role), "lost": len(lost),
                     "reference_lost_too": sum(1 for k in lost if not ref[k])}
    deals = {d for d, _ in keys if (d, "landlord") in keys and (d, "farmers") in keys}
    out["deals"] = len(deals)
    out["deals_lost_in_both_roles"] = sum(
        1 for d in deals if not ours[(d, "landlord")] and not ours[(d, "farmers")])
    out["landlord_losses_won_as_farmers"] = sum(
        1 for d in deals if not ours[(d, "landlord")] and ours[(d, "farmers")])
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    b = breakdown(load(argv[1]), load(argv[2]))
    for role in ("landlord", "farmers"):
        r = b[role]
        print(f"{role}: {r['lost']} of {r['games']} games lost, "
              f"{r['reference_lost_too']} of them lost by the reference too")
    print(f"{b['deals']} deals: {b['deals_lost_in_both_roles']} lost in both roles; "
          f"of the landlord losses, {b['landlord_losses_won_as_farmers']} deals won "
          f"as the farmers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
