"""The danger data: one record per discard of every seat, what the discarder could see
and, as labels, the hidden truth the simulator knows.

A record (one JSON object per line; seats relative to the discarder: 0 = the
discarder, 1 = next to play, 2 = across, 3 = previous):

``game``, ``seed``, ``kyoku`` (1-based count in the game), ``seat`` (the discarder's
absolute seat), ``who`` (its seat kind), ``tile`` (mpsz, red five as 0), ``tsumogiri``,
``declares_riichi``, ``hand`` (the discarder's 14 tiles before the discard),
``dora`` (indicators), ``live_left`` (live wall tiles), ``dealer`` and ``round_wind``
(0 = East), ``scores``;
``rivers``: per seat its river in order, each tile in mpsz with flags appended:
``t`` drawn and thrown, ``r`` the riichi-declaring discard, ``c`` called away;
``melds``: per seat ``kind:tiles`` (``chi pon daiminkan ankan kakan``), ``>g`` the giver
(relative seat) of a called meld; ``riichi``: per seat, riichi accepted;
labels: ``tenpai`` and ``waits`` (mpsz kinds) per seat from riichienv's
``HandEvaluator`` on the true hand, ``furiten`` (a wait in the seat's own river), and
``safe``: per seat the kinds it cannot win on by ron, from public information
(``TableView.safe_kinds``: its river, discards since its last discard, since its riichi);
``dealt_in``: the relative seats that won on this discard by ron (empty: it passed).
"""

from __future__ import annotations

from riichienv import HandEvaluator

from .table import TableView
from .tiles import id_name, ids_mpsz, join_mpsz, kind_name, mpsz_kind


def river_strings(view: TableView, q: int) -> list[str]:
    out = []
    for t in view.rivers[q]:
        flags = ("t" if t.tsumogiri else "") + ("r" if t.riichi else "") + ("c" if t.called_by is not None else "")
        out.append(t.tile + flags)
    return out


def meld_strings(view: TableView, q: int, actor: int) -> list[str]:
    out = []
    for m in view.melds[q]:
        s = f"{m.kind}:{join_mpsz(m.tiles)}"
        if m.giver is not None:
            s += f">{(m.giver - actor) % 4}"
        out.append(s)
    return out


def truth(env, q: int) -> tuple[bool, list[int]]:
    """(tenpai, waits as 34-kinds) of seat q's true concealed hand and melds."""
    he = HandEvaluator(list(env.hands[q]), list(env.melds[q]))
    waits = sorted(set(he.get_waits()))
    return bool(waits), waits


def discard_record(env, view: TableView, hand_ids, tile_id: int, tsumogiri: bool,
                   game: int, seed: int, who: str) -> dict:
    actor = view.seat
    order = [(actor + r) % 4 for r in range(4)]
    tenpai, waits, furiten = [], [], []
    for q in order:
        if q == actor:
            tenpai.append(False)
            waits.append("")
            furiten.append(False)
            continue
        t, w = truth(env, q)
        own = {mpsz_kind(x.tile)[0] for x in view.rivers[q]}
        tenpai.append(t)
        waits.append(join_mpsz([kind_name(k) for k in w]))
        furiten.append(any(k in own for k in w))
    return {
        "game": game,
        "seed": seed,
        "kyoku": view.kyoku_count,
        "seat": actor,
        "who": who,
        "tile": id_name(tile_id),
        "tsumogiri": tsumogiri,
        "declares_riichi": view._pending_reach[actor],
        "hand": ids_mpsz(hand_ids),
        "dora": "".join(view.dora_indicators),
        "live_left": view.live_left,
        "dealer": (view.dealer - actor) % 4,
        "round_wind": view.round_wind,
        "scores": [view.scores[q] for q in order],
        "rivers": [river_strings(view, q) for q in order],
        "melds": [meld_strings(view, q, actor) for q in order],
        "riichi": [view.riichi[q] for q in order],
        "safe": [join_mpsz([kind_name(k) for k in sorted(view.safe_kinds(q))]) for q in order],
        "tenpai": tenpai,
        "waits": waits,
        "furiten": furiten,
        "dealt_in": [],
    }
