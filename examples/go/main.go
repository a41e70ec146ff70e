// Command example calls the gameai service from Go: one decision of each game and one
// bad request whose google.rpc.BadRequest it decodes. It prints one line per answer and
// exits 1 if any call did not go as expected.
//
//	buf generate --template examples/go/buf.gen.yaml   # from the repository root
//	cd examples/go && go run . -addr 127.0.0.1:50051
//
// The service keeps no session: every request carries the whole state the caller
// knows (docs/clients.md says which of a game backend's state goes into which field).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "gameai/gen/go/gameai/v1"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:50051", "gameai gRPC address (host:port)")
	flag.Parse()

	// One connection per process, kept for its lifetime. Plaintext for a local server;
	// give grpc.WithTransportCredentials(...) for TLS. (grpc-go 1.34 and later also
	// offer insecure.NewCredentials() for this.)
	conn, err := grpc.Dial(*addr, grpc.WithInsecure())
	if err != nil {
		fmt.Fprintf(os.Stderr, "dial %s: %v\n", *addr, err)
		os.Exit(1)
	}
	defer conn.Close()

	failed := 0
	for _, call := range []func(*grpc.ClientConn) error{
		suggestDouDizhuBid, suggestDouDizhuPlay, suggestMahjongDiscard,
		suggestGomokuMove, badRequest,
	} {
		if err := call(conn); err != nil {
			fmt.Printf("FAILED: %v\n", err)
			failed++
		}
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// deadline is the gRPC deadline of each call. Always set one; keep each request's
// budget_ms well below it, so that the answer is back before the caller gives up.
func deadline() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 5*time.Second)
}

// suggestDouDizhuBid: the bidding phase. The first player bid 1; this hand holds the
// rocket (XD) and a bomb of 2s.
func suggestDouDizhuBid(conn *grpc.ClientConn) error {
	ctx, cancel := deadline()
	defer cancel()
	reply, err := pb.NewDouDizhuServiceClient(conn).SuggestDouDizhuBid(ctx,
		&pb.SuggestDouDizhuBidRequest{Hand: "3456789TJQK2222XD", Bids: []uint32{1}, BudgetMs: 200})
	if err != nil {
		return fmt.Errorf("SuggestDouDizhuBid: %w", err)
	}
	fmt.Printf("SuggestDouDizhuBid: bid=%d reason=%q\n", reply.GetBid(), reply.GetReason())
	return nil
}

// suggestDouDizhuPlay: the card-play phase. The landlord took the bottom cards 3QD and
// led a single 3; the farmer after him (SEAT_LANDLORD_DOWN) is to play.
func suggestDouDizhuPlay(conn *grpc.ClientConn) error {
	ctx, cancel := deadline()
	defer cancel()
	reply, err := pb.NewDouDizhuServiceClient(conn).SuggestDouDizhuPlay(ctx,
		&pb.SuggestDouDizhuPlayRequest{
			Hand:          "44567899TJQKKA22X",
			Seat:          pb.Seat_SEAT_LANDLORD_DOWN,
			LandlordCards: "3QD",
			History:       []string{"3"}, // every play since the landlord's lead; "" = pass
			BudgetMs:      200,
			Alternatives:  3,
		})
	if err != nil {
		return fmt.Errorf("SuggestDouDizhuPlay: %w", err)
	}
	cards := reply.GetPlay().GetCards()
	if cards == "" {
		cards = "pass"
	}
	fmt.Printf("SuggestDouDizhuPlay: play=%s kind=%s mode=%s reason=%q\n",
		cards, reply.GetPlay().GetKind(), reply.GetMode(), reply.GetReason())
	for _, alt := range reply.GetAlternatives() {
		fmt.Printf("  alternative %-8s score %.3f\n", alt.GetPlay().GetCards(), alt.GetScore())
	}
	return nil
}

// suggestMahjongDiscard: 14 tiles after the draw. 123m 456p 789s 11z 22z and a lone 5z
// (White): throwing 5z leaves a tenpai hand waiting on 1z or 2z.
func suggestMahjongDiscard(conn *grpc.ClientConn) error {
	ctx, cancel := deadline()
	defer cancel()
	drawsLeft := uint32(10)
	reply, err := pb.NewMahjongServiceClient(conn).SuggestMahjongDiscard(ctx,
		&pb.SuggestMahjongDiscardRequest{
			Hand:          "123m456p789s11225z",
			Visible:       "99m1z", // tiles seen outside the hand: discards, melds, dora indicators
			DrawsLeft:     &drawsLeft,
			Ruleset:       pb.Ruleset_RULESET_GENERAL,
			BudgetMs:      200,
			MaxCandidates: 3,
		})
	if err != nil {
		return fmt.Errorf("SuggestMahjongDiscard: %w", err)
	}
	fmt.Printf("SuggestMahjongDiscard: discard=%s is_winning=%t draws_left=%d\n",
		reply.GetDiscard(), reply.GetIsWinning(), reply.GetDrawsLeft())
	for _, c := range reply.GetCandidates() {
		fmt.Printf("  candidate %-3s shanten %d ukeire %2d win_probability %.3f (%s)\n",
			c.GetTile(), c.GetShanten(), c.GetUkeire().GetTotal(), c.GetWinProbability(), c.GetMethod())
	}
	return nil
}

// suggestGomokuMove: freestyle, black to move; white threatens a five at e7.
func suggestGomokuMove(conn *grpc.ClientConn) error {
	ctx, cancel := deadline()
	defer cancel()
	reply, err := pb.NewGomokuServiceClient(conn).SuggestGomokuMove(ctx,
		&pb.SuggestGomokuMoveRequest{
			Position: &pb.GomokuPosition{Moves: "h8h7i7g9h6g5g7i6g8f8f6e5f5j10i10i11k9h10j12l10"},
			Rule:     pb.GomokuRule_GOMOKU_RULE_FREESTYLE,
			BudgetMs: 300,
		})
	if err != nil {
		return fmt.Errorf("SuggestGomokuMove: %w", err)
	}
	fmt.Printf("SuggestGomokuMove: point=%s score=%d reason=%q\n",
		reply.GetPoint(), reply.GetScore(), reply.GetReason())
	return nil
}

// badRequest sends a hand with a card that is no rank and decodes the error: the
// status carries a google.rpc.BadRequest (trailer grpc-status-details-bin) naming the
// request field, so code need not parse the message.
func badRequest(conn *grpc.ClientConn) error {
	ctx, cancel := deadline()
	defer cancel()
	_, err := pb.NewDouDizhuServiceClient(conn).ListDouDizhuPlays(ctx,
		&pb.ListDouDizhuPlaysRequest{Hand: "3341"})
	if err == nil {
		return fmt.Errorf("bad request: hand 3341 answered OK")
	}
	st := status.Convert(err)
	if st.Code() != codes.InvalidArgument {
		return fmt.Errorf("bad request: %v, not InvalidArgument", err)
	}
	for _, detail := range st.Details() {
		if br, ok := detail.(*errdetails.BadRequest); ok {
			for _, v := range br.GetFieldViolations() {
				fmt.Printf("BadRequest: code=INVALID_ARGUMENT field=%s description=%q\n",
					v.GetField(), v.GetDescription())
			}
			return nil
		}
	}
	return fmt.Errorf("bad request: %q carries no google.rpc.BadRequest", st.Message())
}
