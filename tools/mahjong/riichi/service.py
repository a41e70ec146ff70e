"""The gameai service's seats.

Both ask the same running binary through its gRPC API (``SuggestMahjongDiscard``,
``SuggestMahjongCall``, ``RULESET_RIICHI``):

- ``ServiceSeat(table=False)``: today's solitaire engine. The request carries the hand
  (red fives as 0), the seat's own melds, ``visible`` = every tile it sees outside its
  hand (rivers, the others' melds, dora indicators) and ``draws_left`` = the live
  wall's tiles // 4 (the player's own draws if nobody calls). It declares riichi
  whenever the suggested discard leaves a closed hand tenpai and the simulator allows
  riichi, and wins whenever the simulator offers a win. Calls: ``calls="none"`` passes
  every chi / pon / open kan (the issue's first measurement: the service choosing every
  discard), ``calls="service"`` asks ``SuggestMahjongCall``.
- ``ServiceSeat(table=True)``: the same requests with the ``table`` message built from
  the seat's view (``table_message``); the service derives ``visible`` and
  ``draws_left`` from it, and its ``riichi`` answer decides riichi or dama.

Neither declares a kan from its hand or nine terminals (the service has no such
advice). A suggested discard the simulator does not allow (kuikae after a call, a
tile that breaks tenpai right after the riichi declaration) is never sent: the seat
takes the service's next candidate that is legal and counts the event
(``illegal_suggestions``, by reason). An RPC error is counted (``errors``) and the
greedy baseline's choice is played instead.
"""

from __future__ import annotations

import json
import time

from riichienv import ActionType, calculate_shanten

from . import greedy
from .actions import group_by_type, offered_win
from .table import TableView
from .tiles import id_name, ids_mpsz, join_mpsz, kind_of, is_red, mpsz_kind

MELD_KINDS = {
    "chi": "MELD_KIND_CHI",
    "pon": "MELD_KIND_PON",
    "daiminkan": "MELD_KIND_OPEN_KAN",
    "ankan": "MELD_KIND_CLOSED_KAN",
    "kakan": "MELD_KIND_ADDED_KAN",
}
FROM = {1: "FROM_RIGHT", 2: "FROM_ACROSS", 3: "FROM_LEFT"}


class SeatCounters:
    """What one seat kind did, summed over the games of a run."""

    def __init__(self) -> None:
        self.decision_ms: list[float] = []
        self.errors: dict[str, int] = {}
        self.illegal_suggestions: dict[str, int] = {}
        self.rpc_calls = 0

    def count(self, table: dict[str, int], reason: str) -> None:
        table[reason] = table.get(reason, 0) + 1


class ServiceSeat:
    def __init__(self, stub, pb, counters: SeatCounters, table: bool = False,
                 calls: str = "none", budget_ms: int = 0, timeout: float = 10.0,
                 record=None, record_source: str = "") -> None:
        self.stub, self.pb, self.counters = stub, pb, counters
        self.table, self.calls = table, calls
        self.budget_ms, self.timeout = budget_ms, timeout
        self.name = "service+table" if table else "service"
        self._riichi_tile: int | None = None
        self._fallback = greedy.GreedySeat()
        self.record, self.record_source = record, record_source

    # ----- the decision ---------------------------------------------------------

    def decide(self, obs, view: TableView, legal):
        by_type = group_by_type(legal)
        win = offered_win(by_type)
        if win is not None:
            return win
        discards = by_type.get(ActionType.DISCARD, [])
        if discards:
            return self._discard(obs, view, by_type, discards)
        calls = [a for t in (ActionType.CHI, ActionType.PON, ActionType.DAIMINKAN)
                 for a in by_type.get(t, [])]
        if calls and self.calls == "service":
            return self._call(obs, view, by_type, calls)
        return by_type.get(ActionType.PASS, legal)[0]

    def _discard(self, obs, view, by_type, discards):
        if self._riichi_tile is not None:
            tile, self._riichi_tile = self._riichi_tile, None
            for a in discards:
                if a.tile == tile:
                    return a
            self.counters.count(self.counters.illegal_suggestions, "riichi discard")
        if len(discards) == 1 and ActionType.RIICHI not in by_type:
            return discards[0]  # in riichi: the drawn tile goes
        request = self.pb.SuggestMahjongDiscardRequest(
            hand=ids_mpsz(obs.hand),
            melds=self._melds(view),
            ruleset=self.pb.RULESET_RIICHI,
            budget_ms=self.budget_ms,
        )
        self._describe_table(request, view)
        reply = self._rpc(self.stub.SuggestMahjongDiscard, request, "SuggestMahjongDiscard")
        if reply is None:
            return self._fallback.decide(obs, view, list(discards) + by_type.get(ActionType.RIICHI, []))
        names = [reply.discard] + [c.tile for c in reply.candidates]
        chosen = None
        for i, name in enumerate(names):
            chosen = _match_discard(name, discards)
            if chosen is not None:
                if i:
                    self.counters.count(self.counters.illegal_suggestions, "discard not allowed (kuikae)")
                break
        if chosen is None:
            self.counters.count(self.counters.illegal_suggestions, "no candidate allowed")
            chosen = discards[0]
        if ActionType.RIICHI in by_type and self._wants_riichi(obs, chosen, reply):
            self._riichi_tile = chosen.tile
            return by_type[ActionType.RIICHI][0]
        return chosen

    def _wants_riichi(self, obs, chosen, reply) -> bool:
        if self.table and hasattr(reply, "riichi"):
            return bool(reply.riichi)
        rest = list(obs.hand)
        rest.remove(chosen.tile)
        return calculate_shanten(rest) == 0

    def _call(self, obs, view, by_type, calls):
        offered = calls[0].tile
        giver = view._last_discard[0] if view._last_discard else (view.seat + 3) % 4
        request = self.pb.SuggestMahjongCallRequest(
            hand=ids_mpsz(obs.hand),
            melds=self._melds(view),
            offered_tile=id_name(offered),
            ruleset=self.pb.RULESET_RIICHI,
            budget_ms=self.budget_ms,
        )
        setattr(request, "from", getattr(self.pb, FROM[view.relative(giver)]))
        self._describe_table(request, view)
        reply = self._rpc(self.stub.SuggestMahjongCall, request, "SuggestMahjongCall")
        passing = by_type.get(ActionType.PASS, calls)[0]
        if reply is None:
            return passing
        want = {
            self.pb.CALL_ACTION_CHI: ActionType.CHI,
            self.pb.CALL_ACTION_PON: ActionType.PON,
            self.pb.CALL_ACTION_KAN: ActionType.DAIMINKAN,
        }.get(reply.action)
        if want is None:
            return passing
        chosen = _match_call(reply.meld_tiles, [a for a in calls if a.action_type == want])
        if chosen is None:
            self.counters.count(self.counters.illegal_suggestions, f"call {reply.meld_tiles} not offered")
            return passing
        return chosen

    # ----- request parts ----------------------------------------------------------

    def _melds(self, view: TableView):
        return [
            self.pb.Meld(kind=getattr(self.pb, MELD_KINDS[m.kind]), tiles=join_mpsz(m.tiles))
            for m in view.melds[view.seat]
        ]

    def _describe_table(self, request, view: TableView) -> None:
        if self.table:
            request.table.CopyFrom(table_message(self.pb, view))
        else:
            request.visible = join_mpsz(view.visible_tiles())
            request.draws_left = view.live_left // 4

    def _rpc(self, method, request, name):
        if self.record is not None and self.table:
            self._record(request, name)
        start = time.perf_counter()
        try:
            reply = method(request, timeout=self.timeout)
        except Exception as e:  # grpc.RpcError and transport faults alike
            code = getattr(e, "code", lambda: None)()
            self.counters.count(self.counters.errors, f"{name}: {code}: {getattr(e, 'details', lambda: e)()}"[:300])
            return None
        finally:
            self.counters.decision_ms.append((time.perf_counter() - start) * 1000)
            self.counters.rpc_calls += 1
        return reply


    def _record(self, request, name) -> None:
        from google.protobuf.json_format import MessageToDict

        self.record.write(json.dumps({
            "method": f"gameai.v1.MahjongService/{name}",
            "tag": record_tag(request),
            "source": self.record_source,
            "request": MessageToDict(request, preserving_proto_field_name=True),
        }, separators=(",", ":")) + "\n")


def record_tag(request) -> str:
    """``arena/KIND/THREAT/PHASE``: KIND ``discard`` or ``call``; THREAT ``riichi`` when an
    opponent is in riichi, else ``quiet``; PHASE by the live wall: ``early`` (over 50
    tiles), ``mid`` (26-50), ``late`` (25 or fewer)."""
    kind = "call" if request.DESCRIPTOR.name == "SuggestMahjongCallRequest" else "discard"
    threat = "riichi" if any(o.riichi for o in request.table.opponents) else "quiet"
    wall = request.table.live_wall_tiles
    phase = "early" if wall > 50 else "mid" if wall > 25 else "late"
    return f"arena/{kind}/{threat}/{phase}"


def table_message(pb, view: TableView):
    """The ``table`` message (``MahjongTable``) of a request, from the seat's view:
    opponents in turn order from the next player (right, across, left)."""
    me = view.seat
    msg = pb.MahjongTable(
        round_wind=f"{view.round_wind + 1}z",
        seat_wind=f"{view.seat_wind() + 1}z",
        honba=view.honba,
        riichi_sticks=view.riichi_sticks,
        score=view.scores[me],
        dora_indicators="".join(view.dora_indicators),
        live_wall_tiles=view.live_left,
        after_call=view.after_call,
    )
    msg.river.extend(_river(pb, view, me))
    for r in (1, 2, 3):
        q = (me + r) % 4
        opp = msg.opponents.add()
        opp.score = view.scores[q]
        opp.dealer = q == view.dealer
        opp.river.extend(_river(pb, view, q))
        opp.riichi = view.riichi[q] or view.riichi_at[q] is not None
        for m in view.melds[q]:
            meld = opp.melds.add()
            meld.kind = getattr(pb, MELD_KINDS[m.kind])
            meld.tiles = join_mpsz(m.tiles)
            if m.giver is not None:
                meld.called_tile = m.called
                setattr(meld, "from", getattr(pb, FROM[(m.giver - q) % 4]))
    return msg


def _river(pb, view: TableView, q: int):
    return [pb.MahjongRiverTile(tile=t.tile, tsumogiri=t.tsumogiri, riichi=t.riichi,
                                called=t.called_by is not None) for t in view.rivers[q]]


def _match_discard(name: str, discards):
    """The legal discard action for a suggested tile: "0m" the red five, "5m" a plain
    five (the red one only when no plain five is held)."""
    if not name:
        return None
    kind, red = mpsz_kind(name)
    same = [a for a in discards if kind_of(a.tile) == kind]
    if not same:
        return None
    exact = [a for a in same if is_red(a.tile) == red]
    return (exact or same)[0]


def _match_call(meld_tiles: str, offers):
    """The legal chi / pon / kan whose tiles (offered + consumed) are the meld
    suggested: the same kinds, and the same red fives when that choice exists."""
    from .tiles import split_mpsz

    want = sorted(mpsz_kind(t) for t in split_mpsz(meld_tiles))
    kinds_only = None
    for a in offers:
        ids = [a.tile] + list(a.consume_tiles)
        got = sorted((kind_of(t), is_red(t)) for t in ids)
        if got == want:
            return a
        if sorted(k for k, _ in got) == sorted(k for k, _ in want) and kinds_only is None:
            kinds_only = a
    return kinds_only
