package gameai.example;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;
import gameai.v1.DiscardCandidate;
import gameai.v1.DouDizhuServiceGrpc;
import gameai.v1.GomokuPosition;
import gameai.v1.GomokuRule;
import gameai.v1.GomokuServiceGrpc;
import gameai.v1.ListDouDizhuPlaysRequest;
import gameai.v1.MahjongServiceGrpc;
import gameai.v1.Ruleset;
import gameai.v1.ScoredPlay;
import gameai.v1.Seat;
import gameai.v1.SuggestDouDizhuBidRequest;
import gameai.v1.SuggestDouDizhuBidResponse;
import gameai.v1.SuggestDouDizhuPlayRequest;
import gameai.v1.SuggestDouDizhuPlayResponse;
import gameai.v1.SuggestGomokuMoveRequest;
import gameai.v1.SuggestGomokuMoveResponse;
import gameai.v1.SuggestMahjongDiscardRequest;
import gameai.v1.SuggestMahjongDiscardResponse;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Calling the gameai service from Java (grpc-java, protobuf-java): one decision of each
 * game and one bad request whose {@code google.rpc.BadRequest} it decodes. It prints one
 * line per answer and exits 1 if any call did not go as expected.
 *
 * <p>The service keeps no session: every request carries the whole state the caller knows
 * (docs/clients.md says which of a game backend's state goes into which field).
 */
public final class Example {
  /**
   * The gRPC deadline of each call. Always set one; keep each request's budget_ms well
   * below it, so that the answer is back before the caller gives up.
   */
  private static final long DEADLINE_MS = 5000;

  private final DouDizhuServiceGrpc.DouDizhuServiceBlockingStub ddz;
  private final MahjongServiceGrpc.MahjongServiceBlockingStub mahjong;
  private final GomokuServiceGrpc.GomokuServiceBlockingStub gomoku;

  private Example(ManagedChannel channel) {
    ddz = DouDizhuServiceGrpc.newBlockingStub(channel);
    mahjong = MahjongServiceGrpc.newBlockingStub(channel);
    gomoku = GomokuServiceGrpc.newBlockingStub(channel);
  }

  /** Bidding: the first player bid 1; this hand holds the rocket (XD) and a bomb of 2s. */
  private void suggestDouDizhuBid() {
    SuggestDouDizhuBidResponse reply =
        ddz.withDeadlineAfter(DEADLINE_MS, TimeUnit.MILLISECONDS)
            .suggestDouDizhuBid(
                SuggestDouDizhuBidRequest.newBuilder()
                    .setHand("3456789TJQK2222XD")
                    .addBids(1)
                    .setBudgetMs(200)
                    .build());
    System.out.printf("SuggestDouDizhuBid: bid=%d reason=%s%n", reply.getBid(), quote(reply.getReason()));
  }

  /**
   * Card play: the landlord took the bottom cards 3QD and led a single 3; the farmer after
   * him (SEAT_LANDLORD_DOWN) is to play.
   */
  private void suggestDouDizhuPlay() {
    SuggestDouDizhuPlayResponse reply =
        ddz.withDeadlineAfter(DEADLINE_MS, TimeUnit.MILLISECONDS)
            .suggestDouDizhuPlay(
                SuggestDouDizhuPlayRequest.newBuilder()
                    .setHand("44567899TJQKKA22X")
                    .setSeat(Seat.SEAT_LANDLORD_DOWN)
                    .setLandlordCards("3QD")
                    .addHistory("3") // every play since the landlord's lead; "" = pass
                    .setBudgetMs(200)
                    .setAlternatives(3)
                    .build());
    String cards = reply.getPlay().getCards().isEmpty() ? "pass" : reply.getPlay().getCards();
    System.out.printf(
        "SuggestDouDizhuPlay: play=%s kind=%s mode=%s reason=%s%n",
        cards, reply.getPlay().getKind(), reply.getMode(), quote(reply.getReason()));
    for (ScoredPlay alt : reply.getAlternativesList()) {
      String altCards = alt.getPlay().getCards().isEmpty() ? "pass" : alt.getPlay().getCards();
      System.out.printf("  alternative %-8s score %.3f%n", altCards, alt.getScore());
    }
  }

  /**
   * Mahjong, 14 tiles after the draw: 123m 456p 789s 11z 22z and a lone 5z (White).
   * Throwing 5z leaves a tenpai hand waiting on 1z or 2z.
   */
  private void suggestMahjongDiscard() {
    SuggestMahjongDiscardResponse reply =
        mahjong
            .withDeadlineAfter(DEADLINE_MS, TimeUnit.MILLISECONDS)
            .suggestMahjongDiscard(
                SuggestMahjongDiscardRequest.newBuilder()
                    .setHand("123m456p789s11225z")
                    .setVisible("99m1z") // tiles seen outside the hand: discards, melds, dora
                    .setDrawsLeft(10)
                    .setRuleset(Ruleset.RULESET_GENERAL)
                    .setBudgetMs(200)
                    .setMaxCandidates(3)
                    .build());
    System.out.printf(
        "SuggestMahjongDiscard: discard=%s is_winning=%b draws_left=%d%n",
        reply.getDiscard(), reply.getIsWinning(), reply.getDrawsLeft());
    for (DiscardCandidate c : reply.getCandidatesList()) {
      System.out.printf(
          "  candidate %-3s shanten %d ukeire %2d win_probability %.3f (%s)%n",
          c.getTile(), c.getShanten(), c.getUkeire().getTotal(), c.getWinProbability(), c.getMethod());
    }
  }

  /** Gomoku, freestyle, black to move; white threatens a five at e7. */
  private void suggestGomokuMove() {
    SuggestGomokuMoveResponse reply =
        gomoku
            .withDeadlineAfter(DEADLINE_MS, TimeUnit.MILLISECONDS)
            .suggestGomokuMove(
                SuggestGomokuMoveRequest.newBuilder()
                    .setPosition(
                        GomokuPosition.newBuilder()
                            .setMoves("h8h7i7g9h6g5g7i6g8f8f6e5f5j10i10i11k9h10j12l10"))
                    .setRule(GomokuRule.GOMOKU_RULE_FREESTYLE)
                    .setBudgetMs(300)
                    .build());
    System.out.printf(
        "SuggestGomokuMove: point=%s score=%d reason=%s%n",
        reply.getPoint(), reply.getScore(), quote(reply.getReason()));
  }

  /**
   * A hand with a card that is no rank: INVALID_ARGUMENT. The server sends a
   * google.rpc.Status in the trailer grpc-status-details-bin, whose details hold a
   * google.rpc.BadRequest naming the request field, so code need not parse the message.
   */
  private void badRequest() throws InvalidProtocolBufferException {
    try {
      ddz.withDeadlineAfter(DEADLINE_MS, TimeUnit.MILLISECONDS)
          .listDouDizhuPlays(ListDouDizhuPlaysRequest.newBuilder().setHand("3341").build());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.INVALID_ARGUMENT) {
        throw e;
      }
      com.google.rpc.Status details = StatusProto.fromThrowable(e);
      if (details != null) {
        for (Any any : details.getDetailsList()) {
          if (any.is(BadRequest.class)) {
            for (BadRequest.FieldViolation v : any.unpack(BadRequest.class).getFieldViolationsList()) {
              System.out.printf(
                  "BadRequest: code=INVALID_ARGUMENT field=%s description=%s%n",
                  v.getField(), quote(v.getDescription()));
            }
            return;
          }
        }
      }
      throw new IllegalStateException(
          "\"" + e.getStatus().getDescription() + "\" carries no google.rpc.BadRequest");
    }
    throw new IllegalStateException("bad request: hand 3341 answered OK");
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** A step of the example; any exception is a failure. */
  private interface Step {
    void run() throws Exception;
  }

  public static void main(String[] args) throws InterruptedException {
    String addr = "127.0.0.1:50051";
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("--addr")) {
        addr = args[i + 1];
      }
    }
    // One channel per process, kept for its lifetime. Plaintext for a local server;
    // drop usePlaintext() for TLS.
    ManagedChannel channel = ManagedChannelBuilder.forTarget(addr).usePlaintext().build();
    Example example = new Example(channel);
    List<Step> steps = new ArrayList<>();
    steps.add(example::suggestDouDizhuBid);
    steps.add(example::suggestDouDizhuPlay);
    steps.add(example::suggestMahjongDiscard);
    steps.add(example::suggestGomokuMove);
    steps.add(example::badRequest);
    int failed = 0;
    for (Step step : steps) {
      try {
        step.run();
      } catch (Exception e) {
        System.out.println("FAILED: " + e);
        failed++;
      }
    }
    channel.shutdown().awaitTermination(5, TimeUnit.SECONDS);
    System.exit(failed > 0 ? 1 : 0);
  }
}
