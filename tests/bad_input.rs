//! The bad-input catalogue: malformed requests for every game, each answered
//! INVALID_ARGUMENT naming the field and the fault (the error model of
//! `src/service/error.rs`, checked by `common::assert_invalid_argument`), and after
//! each one the server still answers a good request on the same connection.
//!
//! Kinds of fault covered: wrong counts, impossible multiplicities counted across
//! hand, melds, history and visible tiles, inconsistent histories, off-board points,
//! huge strings, empty messages, unknown enum values, and bytes that are no protobuf
//! at all. The expected reasons are the service's own words; each case's comment says
//! why the request is wrong when that is not plain from the reason.

mod common;

use common::loadgen_client as client;
use std::time::Duration;

use bytes::Bytes;
use common::assert_invalid_argument;
use gameai::proto::dou_dizhu_service_client::DouDizhuServiceClient;
use gameai::proto::gomoku_service_client::GomokuServiceClient;
use gameai::proto::mahjong_service_client::MahjongServiceClient;
use gameai::proto::{self, Meld, MeldKind, PlayKind, Ruleset, Seat};
use tonic::transport::Channel;

/// One malformed request of any method.
enum Bad {
    List(proto::ListDouDizhuPlaysRequest),
    Play(proto::SuggestDouDizhuPlayRequest),
    Bid(proto::SuggestDouDizhuBidRequest),
    Analyze(proto::AnalyzeMahjongHandRequest),
    Discard(proto::SuggestMahjongDiscardRequest),
    Call(proto::SuggestMahjongCallRequest),
    Move(proto::SuggestGomokuMoveRequest),
    Position(proto::AnalyzeGomokuPositionRequest),
    /// Raw bytes sent as the request of the method at this path.
    Raw(&'static str, Vec<u8>),
}

/// Sends `bad`, expecting an error status.
async fn send(channel: &Channel, bad: Bad) -> tonic::Status {
    let ch = channel.clone();
    let result = match bad {
        Bad::List(r) => DouDizhuServiceClient::new(ch)
            .list_dou_dizhu_plays(r)
            .await
            .map(drop),
        Bad::Play(r) => DouDizhuServiceClient::new(ch)
            .suggest_dou_dizhu_play(r)
            .await
            .map(drop),
        Bad::Bid(r) => DouDizhuServiceClient::new(ch)
            .suggest_dou_dizhu_bid(r)
            .await
            .map(drop),
        Bad::Analyze(r) => MahjongServiceClient::new(ch)
            .analyze_mahjong_hand(r)
            .await
            .map(drop),
        Bad::Discard(r) => MahjongServiceClient::new(ch)
            .suggest_mahjong_discard(r)
            .await
            .map(drop),
        Bad::Call(r) => MahjongServiceClient::new(ch)
            .suggest_mahjong_call(r)
            .await
            .map(drop),
        Bad::Move(r) => GomokuServiceClient::new(ch)
            .suggest_gomoku_move(r)
            .await
            .map(drop),
        Bad::Position(r) => GomokuServiceClient::new(ch)
            .analyze_gomoku_position(r)
            .await
            .map(drop),
        Bad::Raw(path, bytes) => {
            client::unary(ch, path, Bytes::from(bytes), Duration::from_secs(10))
                .await
                .map(drop)
        }
    };
    result.expect_err("a malformed request must fail")
}

/// Runs every case: each answered INVALID_ARGUMENT naming its field with its reason,
/// then `good` answered OK.
async fn catalogue<F, Fut>(cases: Vec<(&str, Bad, &str, &str)>, good: F)
where
    F: Fn(Channel) -> Fut,
    Fut: std::future::Future<Output = Result<(), tonic::Status>>,
{
    let server = common::start_default().await;
    for (name, bad, field, reason) in cases {
        let status = send(&server.channel, bad).await;
        assert_invalid_argument(&status, field, reason);
        good(server.channel.clone())
            .await
            .unwrap_or_else(|e| panic!("after {name}: the good request failed: {e:?}"));
    }
}

// ---------------------------------------------------------------------------------
// Dou Dizhu

fn list(hand: &str, last_play: &str, kind: PlayKind) -> Bad {
    Bad::List(proto::ListDouDizhuPlaysRequest {
        hand: hand.into(),
        last_play: last_play.into(),
        last_play_kind: kind as i32,
        rules: None,
    })
}

fn play(hand: &str, seat: i32, landlord_cards: &str, history: &[&str]) -> Bad {
    Bad::Play(proto::SuggestDouDizhuPlayRequest {
        hand: hand.into(),
        seat,
        landlord_cards: landlord_cards.into(),
        history: history.iter().map(|h| h.to_string()).collect(),
        ..Default::default()
    })
}

fn bid(hand: &str, bids: &[u32]) -> Bad {
    Bad::Bid(proto::SuggestDouDizhuBidRequest {
        hand: hand.into(),
        bids: bids.to_vec(),
        ..Default::default()
    })
}

const LANDLORD: i32 = Seat::Landlord as i32;
const DOWN: i32 = Seat::LandlordDown as i32;
const NOT_A_SEAT_0: &str =
    "0 is not a seat (SEAT_LANDLORD, SEAT_LANDLORD_DOWN or SEAT_LANDLORD_UP)";
/// A landlord's 20 cards holding the bottom cards `KA2`.
const LANDLORD_HAND: &str = "33456778899TJQKKA22X";
/// 17 dealt cards.
const FARMER_HAND: &str = "3456778899TJQKA22";

async fn good_doudizhu(channel: Channel) -> Result<(), tonic::Status> {
    DouDizhuServiceClient::new(channel)
        .list_dou_dizhu_plays(proto::ListDouDizhuPlaysRequest {
            hand: "334455".into(),
            ..Default::default()
        })
        .await
        .map(drop)
}

#[tokio::test]
async fn doudizhu_bad_requests_name_their_field() {
    let huge = "3".repeat(200_000);
    let spaces = format!("{}1", " ".repeat(200_000));
    let unspecified = PlayKind::Unspecified;
    let cases = vec![
        (
            "not a card",
            list("3451", "", unspecified),
            "hand",
            "character '1' at position 4 is not a card",
        ),
        (
            "empty hand",
            list("", "", unspecified),
            "hand",
            "no cards; a hand holds 1..20 cards",
        ),
        (
            "five of a rank",
            list("33333", "", unspecified),
            "hand",
            "more than four cards of rank '3'",
        ),
        (
            "21 cards",
            list("33445566778899TTJJQQK", "", unspecified),
            "hand",
            "21 cards; a hand or a play holds at most 20",
        ),
        (
            "two small jokers",
            list("XX", "", unspecified),
            "hand",
            "two of the same joker 'X' (a deck holds one of each)",
        ),
        (
            "huge hand string",
            list(&huge, "", unspecified),
            "hand",
            "more than four cards of rank '3'",
        ),
        // Spaces are allowed between cards; the position counts characters.
        (
            "huge string of spaces",
            list(
                &spaces,
                "tile 1m appears 5 times (a set has 4 copies)",
                unspecified,
            ),
            "hand",
            "character '1' at position 200001 is not a card",
        ),
        (
            "last play not a play",
            list("3456", "34", unspecified),
            "last_play",
            "'34' is no legal play",
        ),
        (
            "unknown PlayKind",
            Bad::List(proto::ListDouDizhuPlaysRequest {
                hand: "3456".into(),
                last_play: "3".into(),
                last_play_kind: 99,
                rules: None,
            }),
            "last_play_kind",
            "99 is no PlayKind value",
        ),
        (
            "PASS as a reading",
            list("3456", "3", PlayKind::Pass),
            "last_play_kind",
            "PLAY_KIND_PASS is no reading of a play to beat",
        ),
        (
            "kind without a play",
            list("3456", "", PlayKind::Pair),
            "last_play_kind",
            "pair given without a last_play",
        ),
        (
            "kind that is no reading",
            list("3456", "33", PlayKind::Chain),
            "last_play_kind",
            "'33' cannot be read as chain",
        ),
        // Hand and play to beat together hold six 3s.
        (
            "hand and last play exceed the deck",
            list("3333", "33", unspecified),
            "last_play",
            "'33' and the hand '3333' together hold more than one deck",
        ),
        (
            "seat unspecified",
            play(LANDLORD_HAND, 0, "KA2", &[]),
            "seat",
            NOT_A_SEAT_0,
        ),
        (
            "unknown seat",
            play(LANDLORD_HAND, 7, "KA2", &[]),
            "seat",
            "7 is not a seat (SEAT_LANDLORD, SEAT_LANDLORD_DOWN or SEAT_LANDLORD_UP)",
        ),
        (
            "unknown search mode",
            Bad::Play(proto::SuggestDouDizhuPlayRequest {
                hand: LANDLORD_HAND.into(),
                seat: LANDLORD,
                landlord_cards: "KA2".into(),
                mode: 9,
                ..Default::default()
            }),
            "mode",
            "9 is not a search mode",
        ),
        (
            "two bottom cards",
            play(LANDLORD_HAND, LANDLORD, "KA", &[]),
            "landlord_cards",
            "the bottom cards are 2 cards, not 3",
        ),
        // The landlord's 20 cards must contain the three bottom cards.
        (
            "bottom cards not in the landlord's hand",
            play(LANDLORD_HAND, LANDLORD, "222", &[]),
            "landlord_cards",
            "the landlord's known cards (hand and own plays) do not hold the bottom cards: missing '2'",
        ),
        (
            "history entry no play",
            play(FARMER_HAND, DOWN, "KA2", &["34"]),
            "history[0]",
            "entry 0 '34' is no legal play",
        ),
        (
            "pass on the free lead",
            play(FARMER_HAND, DOWN, "KA2", &[""]),
            "history[0]",
            "entry 0 passes on a free lead",
        ),
        (
            "follow that does not beat",
            play(FARMER_HAND, Seat::LandlordUp as i32, "KA2", &["5", "4"]),
            "history[1]",
            "entry 1 '4' does not beat '5'",
        ),
        // The landlord led a 3, and the farmer to move holds four more: the deck has four
        // 3s, so the history entry is at fault (the hand holds no more than a deck).
        (
            "a fifth 3 across hand and history",
            play("3333456789TJQKA22", DOWN, "KA2", &["3"]),
            "history[0]",
            "entry 0 '3' plays 1 of rank '3' but the hand and the entries before it already hold 4 (the deck has 4)",
        ),
        // The farmer to move holds four 3s and the bottom cards, which the landlord has
        // not played, show a fifth: with hand and history consistent, the bottom cards
        // are at fault.
        (
            "a fifth 3 across hand and bottom cards",
            play("3333456789TJQKA22", DOWN, "3KA", &["6"]),
            "landlord_cards",
            "5 cards of rank '3' across hand, history and bottom cards (the deck has 4)",
        ),
        (
            "landlord's first hand is 17 cards",
            play(FARMER_HAND, LANDLORD, "KA2", &[]),
            "hand",
            "hand has 17 cards but the seat was dealt 20 and played 0, so it holds 20",
        ),
        (
            "landlord not to move after one play",
            play("3456778899TJQKKA22", LANDLORD, "KA2", &["3"]),
            "seat",
            "SEAT_LANDLORD is not to move; SEAT_LANDLORD_DOWN is",
        ),
        // The up farmer, 16 cards left after playing a 4, leads a trio chain of 18.
        (
            "a play of more cards than the seat holds",
            play(
                "567899TTJJQQKKAA22X",
                LANDLORD,
                "X22",
                &["3", "", "4", "", "", "333444555666777888"],
            ),
            "history[5]",
            "entry 5 plays 18 cards but that seat had 16 left",
        ),
        (
            "bid hand of 16",
            bid("3456778899TJQKA2", &[]),
            "hand",
            "16 cards; a bidding hand is the 17 cards dealt",
        ),
        (
            "empty bid request",
            Bad::Bid(Default::default()),
            "hand",
            "0 cards; a bidding hand is the 17 cards dealt",
        ),
        (
            "unknown bid search mode",
            Bad::Bid(proto::SuggestDouDizhuBidRequest {
                hand: FARMER_HAND.into(),
                mode: 9,
                ..Default::default()
            }),
            "mode",
            "9 is not a search mode",
        ),
        (
            "bid of 4",
            bid(FARMER_HAND, &[4]),
            "bids[0]",
            "4 is no bid (0 = pass, 1..3 points)",
        ),
        (
            "bid not above",
            bid(FARMER_HAND, &[2, 1]),
            "bids[1]",
            "1 is not above the highest bid so far (2)",
        ),
        (
            "after a bid of 3",
            bid(FARMER_HAND, &[3]),
            "bids[0]",
            "a bid of 3 ends the bidding; no bid follows it",
        ),
        (
            "three bids so far",
            bid(FARMER_HAND, &[0, 0, 0]),
            "bids",
            "3 bids so far; with three players the bidding is over after three",
        ),
        (
            "empty play request",
            Bad::Play(Default::default()),
            "seat",
            NOT_A_SEAT_0,
        ),
    ];
    catalogue(cases, good_doudizhu).await;
}

// ---------------------------------------------------------------------------------
// Mahjong

fn meld(kind: MeldKind, tiles: &str) -> Meld {
    Meld {
        kind: kind as i32,
        tiles: tiles.into(),
    }
}

fn analyze(hand: &str, melds: Vec<Meld>, visible: &str, ruleset: Ruleset) -> Bad {
    Bad::Analyze(proto::AnalyzeMahjongHandRequest {
        hand: hand.into(),
        melds,
        visible: visible.into(),
        ruleset: ruleset as i32,
    })
}

fn discard(hand: &str, visible: &str, draws_left: Option<u32>) -> Bad {
    Bad::Discard(proto::SuggestMahjongDiscardRequest {
        hand: hand.into(),
        visible: visible.into(),
        draws_left,
        ..Default::default()
    })
}

fn call(hand: &str, offered: &str, from: i32, ruleset: Ruleset) -> Bad {
    Bad::Call(proto::SuggestMahjongCallRequest {
        hand: hand.into(),
        offered_tile: offered.into(),
        from,
        ruleset: ruleset as i32,
        ..Default::default()
    })
}

const GENERAL: Ruleset = Ruleset::General;
/// A 13-tile tenpai hand.
const WAITING: &str = "123m456p789s1122z";

async fn good_mahjong(channel: Channel) -> Result<(), tonic::Status> {
    MahjongServiceClient::new(channel)
        .analyze_mahjong_hand(proto::AnalyzeMahjongHandRequest {
            hand: WAITING.into(),
            ..Default::default()
        })
        .await
        .map(drop)
}

#[tokio::test]
async fn mahjong_bad_requests_name_their_field() {
    let huge = "1m".repeat(100_000);
    let digits = "9".repeat(200_000);
    let left = proto::From::Left as i32;
    let cases = vec![
        (
            "honour 8z",
            analyze("123m456p789s1118z", vec![], "", GENERAL),
            "hand",
            "'8z' is not a tile: honours are 1z..7z",
        ),
        (
            "empty message",
            Bad::Analyze(Default::default()),
            "hand",
            "hand has 0 tiles; expected 1, 2, 4, 5, 7, 8, 10, 11, 13 or 14 \
             (13 or 14 less 3 per meld called)",
        ),
        (
            "12 tiles",
            analyze("123m456p789s111z", vec![], "", GENERAL),
            "hand",
            "hand has 12 tiles; expected 1, 2, 4, 5, 7, 8, 10, 11, 13 or 14 \
             (13 or 14 less 3 per meld called)",
        ),
        (
            "15 tiles",
            analyze("123m456p789s111222z", vec![], "", GENERAL),
            "hand",
            "hand has 15 tiles; expected 1, 2, 4, 5, 7, 8, 10, 11, 13 or 14 \
             (13 or 14 less 3 per meld called)",
        ),
        (
            "five copies in hand",
            analyze("11111m456p789s11z", vec![], "", GENERAL),
            "hand",
            "tile 1m appears 5 times (a set has 4 copies)",
        ),
        // Two 1m in hand and a pon of 1m: five copies across hand and melds.
        (
            "fifth copy in a meld",
            analyze(
                "11m456p789s123z",
                vec![meld(MeldKind::Pon, "111m")],
                "",
                GENERAL,
            ),
            "melds",
            "tile 1m appears 5 times (a set has 4 copies)",
        ),
        // Four 1m in hand and one more seen on the table.
        (
            "fifth copy in visible",
            analyze("1111m456p789s112z", vec![], "1m", GENERAL),
            "visible",
            "tile 1m appears 5 times (a set has 4 copies)",
        ),
        (
            "meld kind unspecified",
            analyze(
                "456p789s1122z",
                vec![meld(MeldKind::Unspecified, "123m")],
                "",
                GENERAL,
            ),
            "melds[0].kind",
            "meld kind is unspecified",
        ),
        (
            "unknown meld kind",
            Bad::Analyze(proto::AnalyzeMahjongHandRequest {
                hand: "456p789s1122z".into(),
                melds: vec![Meld {
                    kind: 42,
                    tiles: "123m".into(),
                }],
                ..Default::default()
            }),
            "melds[0].kind",
            "42 is not a MeldKind value",
        ),
        (
            "chi not consecutive",
            analyze(
                "456p789s1122z",
                vec![meld(MeldKind::Chi, "135m")],
                "",
                GENERAL,
            ),
            "melds[0].tiles",
            "chi '135m' is not three consecutive tiles of one suit",
        ),
        (
            "pon of different tiles",
            analyze(
                "456p789s1122z",
                vec![meld(MeldKind::Pon, "112m")],
                "",
                GENERAL,
            ),
            "melds[0].tiles",
            "pon '112m' is not three identical tiles",
        ),
        (
            "unknown ruleset",
            Bad::Analyze(proto::AnalyzeMahjongHandRequest {
                hand: WAITING.into(),
                ruleset: 9,
                ..Default::default()
            }),
            "ruleset",
            "9 is not a Ruleset value",
        ),
        (
            "honours under SICHUAN",
            analyze(WAITING, vec![], "", Ruleset::Sichuan),
            "hand",
            "tile 1z is an honour; SICHUAN has no honour tiles",
        ),
        (
            "chi under SICHUAN",
            analyze(
                "456p789s11222s",
                vec![meld(MeldKind::Chi, "123m")],
                "",
                Ruleset::Sichuan,
            ),
            "melds",
            "SICHUAN has no chi",
        ),
        (
            "visible not mpsz",
            analyze(WAITING, vec![], "12x", GENERAL),
            "visible",
            "'x' is not a suit letter (m, p, s, z) or a digit",
        ),
        (
            "digits without a suit",
            analyze("123m456p789s1122", vec![], "", GENERAL),
            "hand",
            "digits '1122' have no suit letter after them",
        ),
        (
            "five melds",
            analyze(
                "1z",
                vec![
                    meld(MeldKind::Pon, "111m"),
                    meld(MeldKind::Pon, "222m"),
                    meld(MeldKind::Pon, "333m"),
                    meld(MeldKind::Pon, "444m"),
                    meld(MeldKind::Pon, "555m"),
                ],
                "",
                GENERAL,
            ),
            "melds",
            "5 melds given; a hand has at most 4",
        ),
        // One meld leaves room for 10 or 11 tiles, not 14.
        (
            "14 tiles beside a meld",
            analyze(
                "123m456p789s11222z",
                vec![meld(MeldKind::Pon, "777z")],
                "",
                GENERAL,
            ),
            "hand",
            "hand has 14 tiles beside 1 meld; expected 10 or 11 (13 or 14 counting 3 per meld)",
        ),
        // RIICHI's set has one red five per suit: a second 0m names the field it is in.
        (
            "two red 5m in hand under RIICHI",
            analyze("005m456p789s1122z", vec![], "", Ruleset::Riichi),
            "hand",
            "red five 0m appears 2 times; RIICHI has one red five per suit",
        ),
        (
            "a second red 5p in visible under RIICHI",
            Bad::Discard(proto::SuggestMahjongDiscardRequest {
                hand: "123m406p789s11222z".into(),
                visible: "0p".into(),
                ruleset: Ruleset::Riichi as i32,
                ..Default::default()
            }),
            "visible",
            "red five 0p appears 2 times; RIICHI has one red five per suit",
        ),
        (
            "a second red 5s in a meld under RIICHI",
            Bad::Call(proto::SuggestMahjongCallRequest {
                hand: "0s456p789m123z".into(),
                melds: vec![meld(MeldKind::Pon, "055s")],
                offered_tile: "1z".into(),
                from: left,
                ruleset: Ruleset::Riichi as i32,
                ..Default::default()
            }),
            "melds",
            "red five 0s appears 2 times; RIICHI has one red five per suit",
        ),
        (
            "huge hand string",
            analyze(&huge, vec![], "", GENERAL),
            "hand",
            "tile 1m appears 5 times (a set has 4 copies)",
        ),
        (
            "huge digits without a suit",
            analyze(&digits, vec![], "", GENERAL),
            "hand",
            // The run of digits is cut at 40 (no suit letter can make it valid) and
            // reported as its most frequent digit in the first suit.
            "tile 9m appears 40 times (a set has 4 copies)",
        ),
        (
            "discard from a 13-tile hand",
            discard(WAITING, "", None),
            "hand",
            "hand has 13 tiles; a discard needs 3n+2 tiles (the drawn tile included)",
        ),
        (
            "more draws than tiles",
            discard("123m456p789s11222z", "", Some(500)),
            "draws_left",
            "500 draws exceed the 122 unseen tiles",
        ),
        (
            "offered two tiles",
            call(WAITING, "1m2m", left, GENERAL),
            "offered_tile",
            "'1m2m' is not exactly one tile",
        ),
        // The hand holds all four 1m: a fifth cannot be discarded.
        (
            "offered a fifth copy",
            call("1111m456p789s112z", "1m", left, GENERAL),
            "offered_tile",
            "offered tile 1m would be a fifth copy (four are in hand, melds and visible)",
        ),
        (
            "from unspecified",
            call(WAITING, "1z", 0, GENERAL),
            "from",
            "0 is not a seat; use FROM_LEFT, FROM_ACROSS or FROM_RIGHT",
        ),
        (
            "unknown from",
            call(WAITING, "1z", 9, GENERAL),
            "from",
            "9 is not a seat; use FROM_LEFT, FROM_ACROSS or FROM_RIGHT",
        ),
        (
            "call with a 14-tile hand",
            call("123m456p789s11222z", "1z", left, GENERAL),
            "hand",
            "hand has 14 tiles; a call decision needs 3n+1 tiles",
        ),
        (
            "offered honour under SICHUAN",
            call("123m456p789s1199s", "1z", left, Ruleset::Sichuan),
            "offered_tile",
            "offered tile 1z does not exist under SICHUAN",
        ),
    ];
    catalogue(cases, good_mahjong).await;
}

// ---------------------------------------------------------------------------------
// Bytes that are no protobuf message, for every method.

const METHODS: [&str; 8] = [
    "/gameai.v1.DouDizhuService/ListDouDizhuPlays",
    "/gameai.v1.DouDizhuService/SuggestDouDizhuPlay",
    "/gameai.v1.DouDizhuService/SuggestDouDizhuBid",
    "/gameai.v1.MahjongService/AnalyzeMahjongHand",
    "/gameai.v1.MahjongService/SuggestMahjongDiscard",
    "/gameai.v1.MahjongService/SuggestMahjongCall",
    "/gameai.v1.GomokuService/SuggestGomokuMove",
    "/gameai.v1.GomokuService/AnalyzeGomokuPosition",
];

/// Field 1 is a string in every request but the gomoku ones (a message there): a
/// string of invalid UTF-8 (`"34\xff\xfe5"`), a truncated varint, a length past the
/// end, a field of wire type 7 (none exists), and random bytes.
fn undecodable() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (
            "invalid UTF-8",
            vec![0x0a, 0x05, b'3', b'4', 0xff, 0xfe, b'5'],
        ),
        ("truncated varint", vec![0x08, 0xff, 0xff]),
        ("length past the end", vec![0x0a, 0x7f, b'3']),
        ("wire type 7", vec![0x0f, 0x00]),
        (
            "random bytes",
            vec![0xde, 0xad, 0xbe, 0xef, 0x13, 0x37, 0xc0, 0xff, 0xee, 0x99],
        ),
    ]
}

#[tokio::test]
async fn undecodable_requests_are_invalid_argument_for_every_method() {
    let server = common::start_default().await;
    for path in METHODS {
        for (name, bytes) in undecodable() {
            let status = send(&server.channel, Bad::Raw(path, bytes)).await;
            assert_eq!(
                status.code(),
                tonic::Code::InvalidArgument,
                "{path}, {name}: {status:?}"
            );
            good_doudizhu(server.channel.clone())
                .await
                .unwrap_or_else(|e| panic!("after {path} {name}: {e:?}"));
        }
    }
}

// ---------------------------------------------------------------------------------
// Gomoku, written against the contract (`proto/gameai/v1/gomoku.proto`): positions as
// a move sequence ("h8i9", black first) or explicit stone lists; board size 5..22
// (0 = 15); points are a column letter from 'a' and a row number from 1. Each case is
// pinned to its field and the service's reason, as for the other games.

fn moves(size: u32, moves: &str) -> proto::GomokuPosition {
    proto::GomokuPosition {
        size,
        moves: moves.into(),
        ..Default::default()
    }
}

fn stones(size: u32, black: &[&str], white: &[&str], to_move: i32) -> proto::GomokuPosition {
    proto::GomokuPosition {
        size,
        moves: String::new(),
        black: black.iter().map(|p| p.to_string()).collect(),
        white: white.iter().map(|p| p.to_string()).collect(),
        to_move,
    }
}

fn suggest(position: proto::GomokuPosition) -> Bad {
    Bad::Move(proto::SuggestGomokuMoveRequest {
        position: Some(position),
        ..Default::default()
    })
}

fn analyze_position(position: proto::GomokuPosition, rule: i32) -> Bad {
    Bad::Position(proto::AnalyzeGomokuPositionRequest {
        position: Some(position),
        rule,
    })
}

async fn good_gomoku(channel: Channel) -> Result<(), tonic::Status> {
    GomokuServiceClient::new(channel)
        .analyze_gomoku_position(proto::AnalyzeGomokuPositionRequest {
            position: Some(moves(15, "h8i9h9")),
            rule: 0,
        })
        .await
        .map(drop)
}

#[tokio::test]
async fn gomoku_bad_requests_name_their_field() {
    use proto::{GomokuRule, Stone};
    let renju = GomokuRule::Renju as i32;
    let (black, white) = (Stone::Black as i32, Stone::White as i32);
    let huge = "h8".repeat(100_000);
    // Every point of a 5x5 board and one more: the sixth row does not exist.
    let full: String = (1..=5)
        .flat_map(|r| ('a'..='e').map(move |c| format!("{c}{r}")))
        .collect();
    let cases: Vec<(&str, Bad, &str, &str)> = vec![
        (
            "board of 4",
            suggest(moves(4, "")),
            "position.size",
            "board size 4 is not in 5..22",
        ),
        (
            "board of 23",
            suggest(moves(23, "")),
            "position.size",
            "board size 23 is not in 5..22",
        ),
        (
            "board of 1000",
            suggest(moves(1000, "h8")),
            "position.size",
            "board size 1000 is not in 5..22",
        ),
        (
            "column off the board",
            suggest(moves(15, "p8")),
            "position.moves",
            "point p8 is off the 15x15 board",
        ),
        (
            "row off the board",
            suggest(moves(15, "h16")),
            "position.moves",
            "point h16 is off the 15x15 board",
        ),
        (
            "row 0",
            suggest(moves(15, "h0")),
            "position.moves",
            "'h0' has no such row (rows are 1..22)",
        ),
        // Size 0 means 15: t20 is on a 20x20 board only.
        (
            "default size is 15",
            suggest(moves(0, "t20")),
            "position.moves",
            "point t20 is off the 15x15 board",
        ),
        (
            "off a 9x9 board",
            suggest(moves(9, "j5")),
            "position.moves",
            "point j5 is off the 9x9 board",
        ),
        (
            "a point played twice",
            suggest(moves(15, "h8i9h8")),
            "position.moves",
            "point h8 is taken twice",
        ),
        (
            "not a point",
            suggest(moves(15, "h8zz")),
            "position.moves",
            "column 'z' is beyond the largest board (a..v)",
        ),
        (
            "a column without a row",
            suggest(moves(15, "h8i")),
            "position.moves",
            "column 'i' has no row number after it",
        ),
        (
            "a digit first",
            suggest(moves(15, "8h")),
            "position.moves",
            "'8' is not a column letter",
        ),
        // 200,000 bytes of "h8h8...": the second h8 is the first fault.
        (
            "huge move string",
            suggest(moves(15, &huge)),
            "position.moves",
            "point h8 is taken twice",
        ),
        // Black made five on a8..e8 at move 9; nothing may follow it.
        (
            "moves after a five",
            analyze_position(moves(15, "a8a9b8b9c8c9d8d9e8f9"), 0),
            "position.moves",
            "move 10 (f9) comes after black already won",
        ),
        // All 25 points of a 5x5 board, then a6 (off it): the sequence's first fault
        // comes earlier, black's five a5-b4-c3-d2-e1 at move 21 (moves 5, 9, 13, 17 and
        // 21 are black's), so move 22 (b5) is the one refused.
        (
            "more moves than points",
            suggest(moves(5, &format!("{full}a6"))),
            "position.moves",
            "move 22 (b5) comes after black already won",
        ),
        (
            "black stone off the board",
            suggest(stones(15, &["z99"], &[], 0)),
            "position.black[0]",
            "column 'z' is beyond the largest board (a..v)",
        ),
        (
            "two points in one entry",
            suggest(stones(15, &["h8i9"], &[], 0)),
            "position.black[0]",
            "'h8i9' is not exactly one point",
        ),
        (
            "empty white entry",
            suggest(stones(15, &["h8"], &[""], 0)),
            "position.white[0]",
            "'' is not exactly one point",
        ),
        (
            "black and white on one point",
            suggest(stones(15, &["h8"], &["h8"], black)),
            "position.white[0]",
            "point h8 is taken twice",
        ),
        // Equal counts: black is to move, not white.
        (
            "white to move with equal counts",
            suggest(stones(15, &["h8", "h9"], &["i8", "i9"], white)),
            "position.to_move",
            "2 black and 2 white stones cannot occur with white to move (black has as many stones as white when black is to move, one more when white is)",
        ),
        // Black has three stones, white none: no game reaches that.
        (
            "three black stones, no white",
            suggest(stones(15, &["h8", "h9", "h10"], &[], 0)),
            "position.black",
            "3 black and 0 white stones cannot occur with either side to move (black has as many stones as white, or one more)",
        ),
        (
            "unknown side to move",
            suggest(stones(15, &["h8"], &[], 7)),
            "position.to_move",
            "7 is not a Stone value",
        ),
        (
            "unknown rule",
            Bad::Move(proto::SuggestGomokuMoveRequest {
                position: Some(moves(15, "h8")),
                rule: 9,
                ..Default::default()
            }),
            "rule",
            "9 is not a GomokuRule value",
        ),
        (
            "unknown rule in analysis",
            analyze_position(moves(15, "h8"), 9),
            "rule",
            "9 is not a GomokuRule value",
        ),
        (
            "renju: off the board",
            analyze_position(moves(15, "o16"), renju),
            "position.moves",
            "point o16 is off the 15x15 board",
        ),
    ];
    catalogue(cases, good_gomoku).await;
}
