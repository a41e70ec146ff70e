"""One seat's public view of a riichi table, built from the MJAI events it was shown.

The arena feeds every seat the events riichienv hands that seat (``Observation.
new_events()``: other players' draws appear as ``"?"``), so a view holds only what the
seat could see: each river in order (drawn-and-thrown or from the hand, the discard that
declared riichi, taken by a call), each meld with the called tile and its giver, who is
in riichi, scores, dora indicators, honba, riichi sticks and the live wall's count. The
seat's own hand is not tracked here: the arena reads it from the observation.

Seats are absolute (0..3, riichienv's player ids) inside the view; ``relative(seat, q)``
turns them into the service's numbering (0 = the player, 1 = next to play, 2 = across,
3 = previous), DESIGN.md's "Table state".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .tiles import dora_of, mjai_kind, mjai_mpsz, mpsz_kind

# Draws in a kyoku under Tenhou rules: 136 - 52 dealt - 14 in the dead wall. A kan's
# replacement draw moves the last live tile to the dead wall, so every draw, rinshan
# included, takes one from this count.
LIVE_DRAWS = 70
WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}


@dataclass
class RiverTile:
    tile: str  # mpsz, red five as 0
    tsumogiri: bool  # thrown straight after drawing it
    riichi: bool = False  # the discard that declared riichi
    called_by: int | None = None  # absolute seat that called it away
    order: int = 0  # the discard's number in the kyoku (all seats together, from 0)


@dataclass
class OpenMeld:
    kind: str  # chi, pon, daiminkan, ankan, kakan (MJAI names)
    tiles: list[str]  # mpsz, the called tile included
    called: str | None = None  # the called tile (None for ankan)
    giver: int | None = None  # absolute seat it came from (None for ankan)


@dataclass
class TableView:
    seat: int
    round_wind: int = 0  # 0 = East ...
    kyoku: int = 0  # 0-based within the round
    dealer: int = 0
    honba: int = 0
    riichi_sticks: int = 0
    scores: list[int] = field(default_factory=lambda: [25000] * 4)
    dora_indicators: list[str] = field(default_factory=list)
    rivers: list[list[RiverTile]] = field(default_factory=lambda: [[] for _ in range(4)])
    melds: list[list[OpenMeld]] = field(default_factory=lambda: [[] for _ in range(4)])
    riichi: list[bool] = field(default_factory=lambda: [False] * 4)
    # River index of each seat's riichi-declaring discard.
    riichi_at: list[int | None] = field(default_factory=lambda: [None] * 4)
    draws: int = 0  # draws made so far in this kyoku, rinshan included
    kyoku_count: int = 0  # start_kyoku events seen in this game
    _pending_reach: list[bool] = field(default_factory=lambda: [False] * 4)
    _last_discard: tuple[int, int] | None = None  # (seat, river index)
    # The viewer's last action was its own chi or pon: its next discard is bound by
    # kuikae (the table message's ``after_call``).
    after_call: bool = False

    @property
    def live_left(self) -> int:
        return LIVE_DRAWS - self.draws

    def relative(self, q: int) -> int:
        return (q - self.seat) % 4

    def seat_wind(self, q: int | None = None) -> int:
        """0 = East (the dealer) ... of seat q (default: the viewer)."""
        return ((self.seat if q is None else q) - self.dealer) % 4

    def feed(self, events) -> None:
        """Applies MJAI events (JSON strings or dicts) in order."""
        for ev in events:
            if isinstance(ev, str):
                ev = json.loads(ev)
            getattr(self, "_on_" + ev["type"], self._ignore)(ev)

    # ----- events ---------------------------------------------------------------

    def _ignore(self, ev) -> None:
        pass

    def _on_start_kyoku(self, ev) -> None:
        self.round_wind = WINDS[ev["bakaze"]]
        self.kyoku = ev["kyoku"] - 1
        self.dealer = ev["oya"]
        self.honba = ev["honba"]
        self.riichi_sticks = ev["kyotaku"]
        self.scores = list(ev["scores"])
        self.dora_indicators = [mjai_mpsz(ev["dora_marker"])]
        self.rivers = [[] for _ in range(4)]
        self.melds = [[] for _ in range(4)]
        self.riichi = [False] * 4
        self.riichi_at = [None] * 4
        self.draws = 0
        self.kyoku_count += 1
        self._pending_reach = [False] * 4
        self._last_discard = None
        self.after_call = False

    def _on_tsumo(self, ev) -> None:
        self.draws += 1

    def _on_reach(self, ev) -> None:
        self._pending_reach[ev["actor"]] = True

    def _on_dahai(self, ev) -> None:
        actor = ev["actor"]
        if actor == self.seat:
            self.after_call = False
        declares = self._pending_reach[actor]
        self._pending_reach[actor] = False
        river = self.rivers[actor]
        order = sum(len(r) for r in self.rivers)
        river.append(RiverTile(mjai_mpsz(ev["pai"]), bool(ev.get("tsumogiri")), declares, order=order))
        if declares:
            self.riichi_at[actor] = len(river) - 1
        self._last_discard = (actor, len(river) - 1)

    def _on_reach_accepted(self, ev) -> None:
        actor = ev["actor"]
        self.riichi[actor] = True
        self.riichi_sticks += 1
        if "scores" in ev:
            self.scores = list(ev["scores"])
        else:
            self.scores[actor] -= 1000

    def _called(self, ev, kind: str) -> None:
        actor, giver = ev["actor"], ev["target"]
        if self._last_discard is not None and self._last_discard[0] == giver:
            self.rivers[giver][self._last_discard[1]].called_by = actor
        tiles = [mjai_mpsz(t) for t in ev["consumed"]] + [mjai_mpsz(ev["pai"])]
        self.melds[actor].append(OpenMeld(kind, tiles, mjai_mpsz(ev["pai"]), giver))
        if actor == self.seat:
            self.after_call = kind in ("chi", "pon")

    def _on_chi(self, ev) -> None:
        self._called(ev, "chi")

    def _on_pon(self, ev) -> None:
        self._called(ev, "pon")

    def _on_daiminkan(self, ev) -> None:
        self._called(ev, "daiminkan")

    def _on_ankan(self, ev) -> None:
        tiles = [mjai_mpsz(t) for t in ev["consumed"]]
        self.melds[ev["actor"]].append(OpenMeld("ankan", tiles))

    def _on_kakan(self, ev) -> None:
        kind, _ = mjai_kind(ev["pai"])
        for meld in self.melds[ev["actor"]]:
            if meld.kind == "pon" and mpsz_kind(meld.tiles[0])[0] == kind:
                meld.kind = "kakan"
                meld.tiles.append(mjai_mpsz(ev["pai"]))
                return

    def _on_dora(self, ev) -> None:
        self.dora_indicators.append(mjai_mpsz(ev["dora_marker"]))

    def _on_hora(self, ev) -> None:
        self._apply_deltas(ev)

    def _on_ryukyoku(self, ev) -> None:
        self._apply_deltas(ev)

    def _apply_deltas(self, ev) -> None:
        if "scores" in ev:
            self.scores = list(ev["scores"])
        elif "deltas" in ev:
            self.scores = [s + d for s, d in zip(self.scores, ev["deltas"])]

    # ----- questions ------------------------------------------------------------

    def visible_tiles(self) -> list[str]:
        """Every tile the viewer sees outside its own hand and melds: the rivers (a
        called tile once, in its meld), the others' melds, the dora indicators."""
        out: list[str] = list(self.dora_indicators)
        for q in range(4):
            out.extend(t.tile for t in self.rivers[q] if t.called_by is None)
            if q != self.seat:
                for meld in self.melds[q]:
                    out.extend(meld.tiles)
        return out

    def visible_counts(self, own_tiles: list[str] = ()) -> list[int]:
        """Copies seen per 34-kind: visible_tiles() plus the given own tiles."""
        counts = [0] * 34
        for t in list(self.visible_tiles()) + list(own_tiles):
            counts[mpsz_kind(t)[0]] += 1
        for meld in self.melds[self.seat]:
            for t in meld.tiles:
                counts[mpsz_kind(t)[0]] += 1
        return counts

    def safe_kinds(self, q: int) -> set[int]:
        """The kinds seat q cannot win on by ron now, from public information (furiten):
        its own river, every discard since its last discard (it passed them) and, in
        riichi, every discard since its declaration."""
        own = self.rivers[q]
        safe = {mpsz_kind(t.tile)[0] for t in own}
        since = own[-1].order if own else -1
        if self.riichi_at[q] is not None:
            since = min(since, own[self.riichi_at[q]].order)
        for river in self.rivers:
            safe.update(mpsz_kind(t.tile)[0] for t in river if t.order > since)
        return safe

    def dora_kinds(self) -> list[int]:
        return [dora_of(mpsz_kind(t)[0]) for t in self.dora_indicators]
