//! Regressions found by trying the service as a new user would (QA pass): each test
//! sends the request that misbehaved through a real gRPC client against an in-process
//! server and checks the exact status now returned.

mod common;

use common::assert_invalid_argument;

use gameai::proto::dou_dizhu_service_client::DouDizhuServiceClient;
use gameai::proto::mahjong_service_client::MahjongServiceClient;
use gameai::proto::{
    AnalyzeMahjongHandRequest, From, ListDouDizhuPlaysRequest, Meld, Seat,
    SuggestDouDizhuBidRequest, SuggestDouDizhuPlayRequest, SuggestMahjongCallRequest,
    SuggestMahjongDiscardRequest,
};

/// A meld kind outside the enum (42) was reported by SuggestMahjongDiscard and
/// SuggestMahjongCall as "meld kind is unspecified", while AnalyzeMahjongHand says
/// "42 is not a MeldKind value"; an unknown ruleset was worded differently too.
#[tokio::test]
async fn mahjong_suggest_names_unknown_enum_values_as_analyze_does() {
    let server = common::start_default().await;
    let mut client = MahjongServiceClient::new(server.channel.clone());
    let meld = Meld {
        kind: 42,
        tiles: "111m".to_owned(),
    };
    let discard = SuggestMahjongDiscardRequest {
        hand: "456p789s11123z".to_owned(),
        melds: vec![meld.clone()],
        ..Default::default()
    };
    let status = client
        .suggest_mahjong_discard(discard.clone())
        .await
        .expect_err("meld kind 42");
    assert_invalid_argument(&status, "melds[0].kind", "42 is not a MeldKind value");

    let call = SuggestMahjongCallRequest {
        hand: "456p789s1112z".to_owned(),
        melds: vec![meld],
        offered_tile: "2z".to_owned(),
        from: From::Across as i32,
        ..Default::default()
    };
    let status = client
        .suggest_mahjong_call(call)
        .await
        .expect_err("meld kind 42");
    assert_invalid_argument(&status, "melds[0].kind", "42 is not a MeldKind value");

    let status = client
        .suggest_mahjong_discard(SuggestMahjongDiscardRequest {
            hand: "123m456p789s11123z".to_owned(),
            ruleset: 42,
            ..Default::default()
        })
        .await
        .expect_err("ruleset 42");
    assert_invalid_argument(&status, "ruleset", "42 is not a Ruleset value");
}

/// After a bid of 3 the bidding is over (the handler already rejects any bid listed
/// after it), yet asking for the next bid answered OK with bid 0.
#[tokio::test]
async fn no_bid_is_suggested_after_a_bid_of_three() {
    let server = common::start_default().await;
    let mut client = DouDizhuServiceClient::new(server.channel.clone());
    for bids in [vec![3], vec![0, 3], vec![1, 3]] {
        let last = bids.len() - 1;
        let status = client
            .suggest_dou_dizhu_bid(SuggestDouDizhuBidRequest {
                hand: "4456789TJQKKA22XD".to_owned(),
                bids,
                rules: None,
                ..Default::default()
            })
            .await
            .expect_err("no bid after 3");
        assert_invalid_argument(
            &status,
            &format!("bids[{last}]"),
            "a bid of 3 ends the bidding; no bid follows it",
        );
    }
}

/// The wrong-seat message spoke Rust (`LandlordDown`) instead of the contract's enum
/// names. After the landlord's single lead it is SEAT_LANDLORD_DOWN's turn.
#[tokio::test]
async fn wrong_seat_is_named_with_the_contract_enum_names() {
    let server = common::start_default().await;
    let mut client = DouDizhuServiceClient::new(server.channel.clone());
    let status = client
        .suggest_dou_dizhu_play(SuggestDouDizhuPlayRequest {
            hand: "33445566778899TTJ".to_owned(),
            seat: Seat::LandlordUp as i32,
            landlord_cards: "3QK".to_owned(),
            history: vec!["5".to_owned()],
            ..Default::default()
        })
        .await
        .expect_err("not to move");
    assert_invalid_argument(
        &status,
        "seat",
        "SEAT_LANDLORD_UP is not to move; SEAT_LANDLORD_DOWN is",
    );
}

/// A control character in card or tile text was echoed raw into the status message
/// (a NUL, or a terminal escape that recolours the caller's console). It is now shown
/// escaped; printable characters such as 'é' stay as they are.
#[tokio::test]
async fn control_characters_are_escaped_in_messages() {
    let server = common::start_default().await;
    let mut ddz = DouDizhuServiceClient::new(server.channel.clone());
    let list = |hand: &str| ListDouDizhuPlaysRequest {
        hand: hand.to_owned(),
        ..Default::default()
    };
    let status = ddz.list_dou_dizhu_plays(list("3\0")).await.unwrap_err();
    assert_invalid_argument(
        &status,
        "hand",
        "character '\\0' at position 2 is not a card",
    );
    let status = ddz.list_dou_dizhu_plays(list("3é")).await.unwrap_err();
    assert_invalid_argument(&status, "hand", "character 'é' at position 2 is not a card");

    let mut mahjong = MahjongServiceClient::new(server.channel.clone());
    let status = mahjong
        .analyze_mahjong_hand(AnalyzeMahjongHandRequest {
            hand: "\u{1b}[31m".to_owned(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_invalid_argument(
        &status,
        "hand",
        "'\\u{1b}' is not a suit letter (m, p, s, z) or a digit",
    );
}
