// Calling the gameai service from TypeScript on Node (@grpc/grpc-js, ts-proto stubs):
// one decision of each game and one bad request whose google.rpc.BadRequest it decodes.
// It prints one line per answer and exits 1 if any call did not go as expected.
//
//   buf generate --template examples/node/buf.gen.yaml   # from the repository root
//   cd examples/node && npm run build && node dist/example.js --addr 127.0.0.1:50051
//
// The service keeps no session: every request carries the whole state the caller knows
// (docs/clients.md says which of a game backend's state goes into which field).

import { ChannelCredentials, Metadata, ServiceError, status } from "@grpc/grpc-js";

import {
  DouDizhuServiceClient,
  ListDouDizhuPlaysRequest,
  Seat,
  SuggestDouDizhuBidRequest,
  SuggestDouDizhuPlayRequest,
  playKindToJSON,
  searchModeToJSON,
} from "./gen/gameai/v1/doudizhu";
import { GomokuRule, GomokuServiceClient, SuggestGomokuMoveRequest } from "./gen/gameai/v1/gomoku";
import {
  MahjongServiceClient,
  Ruleset,
  SuggestMahjongDiscardRequest,
  probabilityMethodToJSON,
} from "./gen/gameai/v1/mahjong";
import { BadRequest } from "./gen/google/rpc/error_details";
import { Status } from "./gen/google/rpc/status";

/** A unary grpc-js call as a promise. */
type Unary<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: { deadline: Date },
  callback: (error: ServiceError | null, response: Res) => void,
) => unknown;

/**
 * Calls `method` with a 5 s deadline. Always set a deadline; keep each request's
 * budget_ms well below it, so that the answer is back before the caller gives up.
 */
function call<Req, Res>(client: object, method: Unary<Req, Res>, request: Req): Promise<Res> {
  const deadline = new Date(Date.now() + 5000);
  return new Promise((resolve, reject) => {
    method.call(client, request, new Metadata(), { deadline }, (error, response) =>
      error ? reject(error) : resolve(response),
    );
  });
}

/** Bidding: the first player bid 1; this hand holds the rocket (XD) and a bomb of 2s. */
async function suggestDouDizhuBid(ddz: DouDizhuServiceClient): Promise<void> {
  const reply = await call(ddz, ddz.suggestDouDizhuBid,
    SuggestDouDizhuBidRequest.fromPartial({ hand: "3456789TJQK2222XD", bids: [1], budgetMs: 200 }));
  console.log(`SuggestDouDizhuBid: bid=${reply.bid} reason=${JSON.stringify(reply.reason)}`);
}

/**
 * Card play: the landlord took the bottom cards 3QD and led a single 3; the farmer after
 * him (SEAT_LANDLORD_DOWN) is to play.
 */
async function suggestDouDizhuPlay(ddz: DouDizhuServiceClient): Promise<void> {
  const reply = await call(ddz, ddz.suggestDouDizhuPlay,
    SuggestDouDizhuPlayRequest.fromPartial({
      hand: "44567899TJQKKA22X",
      seat: Seat.SEAT_LANDLORD_DOWN,
      landlordCards: "3QD",
      history: ["3"], // every play since the landlord's lead; "" = pass
      budgetMs: 200,
      alternatives: 3,
    }));
  const play = reply.play!;
  console.log(`SuggestDouDizhuPlay: play=${play.cards || "pass"} kind=${playKindToJSON(play.kind)}`
    + ` mode=${searchModeToJSON(reply.mode)} reason=${JSON.stringify(reply.reason)}`);
  for (const alt of reply.alternatives) {
    console.log(`  alternative ${(alt.play?.cards || "pass").padEnd(8)} score ${alt.score.toFixed(3)}`);
  }
}

/**
 * Mahjong, 14 tiles after the draw: 123m 456p 789s 11z 22z and a lone 5z (White).
 * Throwing 5z leaves a tenpai hand waiting on 1z or 2z.
 */
async function suggestMahjongDiscard(mahjong: MahjongServiceClient): Promise<void> {
  const reply = await call(mahjong, mahjong.suggestMahjongDiscard,
    SuggestMahjongDiscardRequest.fromPartial({
      hand: "123m456p789s11225z",
      visible: "99m1z", // tiles seen outside the hand: discards, melds, dora indicators
      drawsLeft: 10,
      ruleset: Ruleset.RULESET_GENERAL,
      budgetMs: 200,
      maxCandidates: 3,
    }));
  console.log(`SuggestMahjongDiscard: discard=${reply.discard} is_winning=${reply.isWinning}`
    + ` draws_left=${reply.drawsLeft}`);
  for (const c of reply.candidates) {
    console.log(`  candidate ${c.tile.padEnd(3)} shanten ${c.shanten} ukeire ${c.ukeire?.total ?? 0}`
      + ` win_probability ${c.winProbability.toFixed(3)} (${probabilityMethodToJSON(c.method)})`);
  }
}

/** Gomoku, freestyle, black to move; white threatens a five at e7. */
async function suggestGomokuMove(gomoku: GomokuServiceClient): Promise<void> {
  const reply = await call(gomoku, gomoku.suggestGomokuMove,
    SuggestGomokuMoveRequest.fromPartial({
      position: { moves: "h8h7i7g9h6g5g7i6g8f8f6e5f5j10i10i11k9h10j12l10" },
      rule: GomokuRule.GOMOKU_RULE_FREESTYLE,
      budgetMs: 300,
    }));
  console.log(`SuggestGomokuMove: point=${reply.point} score=${reply.score}`
    + ` reason=${JSON.stringify(reply.reason)}`);
}

/**
 * The google.rpc.BadRequest of a failed call: the server sends a google.rpc.Status in
 * the trailer grpc-status-details-bin, whose details hold the BadRequest naming the
 * request field, so code need not parse the message.
 */
function badRequestOf(error: ServiceError): BadRequest | undefined {
  for (const raw of error.metadata.get("grpc-status-details-bin")) {
    const details = Status.decode(raw as Buffer).details;
    const found = details.find((any) => any.typeUrl.endsWith("/google.rpc.BadRequest"));
    if (found) return BadRequest.decode(found.value);
  }
  return undefined;
}

/** A hand with a card that is no rank: INVALID_ARGUMENT, decoded. */
async function badRequest(ddz: DouDizhuServiceClient): Promise<void> {
  try {
    await call(ddz, ddz.listDouDizhuPlays, ListDouDizhuPlaysRequest.fromPartial({ hand: "3341" }));
  } catch (e) {
    const error = e as ServiceError;
    if (error.code !== status.INVALID_ARGUMENT) throw error;
    const bad = badRequestOf(error);
    if (!bad) throw new Error(`"${error.details}" carries no google.rpc.BadRequest`);
    for (const v of bad.fieldViolations) {
      console.log(`BadRequest: code=INVALID_ARGUMENT field=${v.field}`
        + ` description=${JSON.stringify(v.description)}`);
    }
    return;
  }
  throw new Error("bad request: hand 3341 answered OK");
}

async function main(): Promise<number> {
  const at = process.argv.indexOf("--addr");
  const addr = at >= 0 ? process.argv[at + 1] : "127.0.0.1:50051";
  // One client per service and process, kept for its lifetime. Plaintext for a local
  // server; ChannelCredentials.createSsl() for TLS.
  const credentials = ChannelCredentials.createInsecure();
  const ddz = new DouDizhuServiceClient(addr, credentials);
  const mahjong = new MahjongServiceClient(addr, credentials);
  const gomoku = new GomokuServiceClient(addr, credentials);
  const steps = [
    () => suggestDouDizhuBid(ddz),
    () => suggestDouDizhuPlay(ddz),
    () => suggestMahjongDiscard(mahjong),
    () => suggestGomokuMove(gomoku),
    () => badRequest(ddz),
  ];
  let failed = 0;
  for (const step of steps) {
    try {
      await step();
    } catch (e) {
      const error = e as ServiceError;
      console.log(`FAILED: ${error.code !== undefined ? status[error.code] + ": " : ""}${error.message}`);
      failed++;
    }
  }
  for (const client of [ddz, mahjong, gomoku]) client.close();
  return failed > 0 ? 1 : 0;
}

main().then((code) => process.exit(code));
