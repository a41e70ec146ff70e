//! `ListDouDizhuPlays` through a real gRPC client against an in-process server.
//!
//! Expected plays are hand-worked from the rules (seed 002, DESIGN.md) in comments.

mod common;

use gameai::proto::dou_dizhu_service_client::DouDizhuServiceClient;
use gameai::proto::{DouDizhuRules, ListDouDizhuPlaysRequest, ListDouDizhuPlaysResponse, PlayKind};

fn request(hand: &str, last_play: &str) -> ListDouDizhuPlaysRequest {
    ListDouDizhuPlaysRequest {
        hand: hand.to_owned(),
        last_play: last_play.to_owned(),
        ..Default::default()
    }
}

/// `(cards, kind, main_rank, length)` of every listed play.
fn listed(response: &ListDouDizhuPlaysResponse) -> Vec<(String, PlayKind, String, u32)> {
    response
        .plays
        .iter()
        .map(|p| (p.cards.clone(), p.kind(), p.main_rank.clone(), p.length))
        .collect()
}

fn p(cards: &str, kind: PlayKind, main: &str, length: u32) -> (String, PlayKind, String, u32) {
    (cards.to_owned(), kind, main.to_owned(), length)
}

#[tokio::test]
async fn lists_plays_with_kind_main_rank_length_in_stable_order() {
    let server = common::start_default().await;
    let mut client = DouDizhuServiceClient::new(server.channel.clone());

    // Free lead of 3 3 3 4 5 (input in any order, lower case allowed): singles 3 4 5,
    // the pair 33, the trio 333, trio with single 3334 and 3335. No chain (5 cards but
    // three 3s), no trio with pair (45 is no pair).
    let response = client
        .list_dou_dizhu_plays(request("5 4 3 3 3", ""))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        listed(&response),
        [
            p("3", PlayKind::Single, "3", 1),
            p("4", PlayKind::Single, "4", 1),
            p("5", PlayKind::Single, "5", 1),
            p("33", PlayKind::Pair, "3", 1),
            p("333", PlayKind::Trio, "3", 1),
            p("3334", PlayKind::TrioWithSingle, "3", 1),
            p("3335", PlayKind::TrioWithSingle, "3", 1),
        ]
    );
    assert!(!response.pass_allowed);
    assert_eq!(response.last_play, None);

    // Following the airplane 333444+5+6 with 777888 T X D: the airplane 777888 with two
    // of T, X, D as wings (TX, TD, XD under DouZero's rules), then the rocket.
    let response = client
        .list_dou_dizhu_plays(request("777888TXD", "33344456"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        listed(&response),
        [
            p("777888TX", PlayKind::AirplaneWithSingles, "8", 2),
            p("777888TD", PlayKind::AirplaneWithSingles, "8", 2),
            p("777888XD", PlayKind::AirplaneWithSingles, "8", 2),
            p("XD", PlayKind::Rocket, "D", 1),
        ]
    );
    assert!(response.pass_allowed);
    let last = response.last_play.unwrap();
    assert_eq!(
        (
            last.cards.as_str(),
            last.kind(),
            last.main_rank.as_str(),
            last.length
        ),
        ("33344456", PlayKind::AirplaneWithSingles, "4", 2)
    );

    // RLCard's rule: the rocket may not be split into two wings.
    let mut rlcard = request("777888TXD", "33344456");
    rlcard.rules = Some(DouDizhuRules {
        rocket_as_kickers: Some(false),
    });
    let response = client
        .list_dou_dizhu_plays(rlcard)
        .await
        .unwrap()
        .into_inner();
    let cards: Vec<_> = response.plays.iter().map(|p| p.cards.as_str()).collect();
    assert_eq!(cards, ["777888TX", "777888TD", "XD"]);
}

#[tokio::test]
async fn last_play_kind_picks_the_reading_of_an_ambiguous_play() {
    let server = common::start_default().await;
    let mut client = DouDizhuServiceClient::new(server.channel.clone());

    // 555666777888 unqualified is the trio chain of 4: 999TTTJJJQQQ beats it as the
    // trio chain ending in Q.
    let response = client
        .list_dou_dizhu_plays(request("999TTTJJJQQQ", "555666777888"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        listed(&response),
        [p("999TTTJJJQQQ", PlayKind::TrioChain, "Q", 4)]
    );
    assert_eq!(response.last_play.unwrap().kind(), PlayKind::TrioChain);

    // Read as an airplane of 3 (ending in 8), the same cards beat it as the airplane
    // TTTJJJQQQ with 999 as wings (reported once, with its highest main rank).
    let mut req = request("999TTTJJJQQQ", "555666777888");
    req.last_play_kind = PlayKind::AirplaneWithSingles as i32;
    let response = client.list_dou_dizhu_plays(req).await.unwrap().into_inner();
    assert_eq!(
        listed(&response),
        [p("999TTTJJJQQQ", PlayKind::AirplaneWithSingles, "Q", 3)]
    );
    let last = response.last_play.unwrap();
    assert_eq!((last.main_rank.as_str(), last.length), ("8", 3));
}

#[tokio::test]
async fn order_follows_the_play_kind_enum_then_length_then_main_rank() {
    let server = common::start_default().await;
    let mut client = DouDizhuServiceClient::new(server.channel.clone());
    // 3333 444 555 666 77 8 9 T X D holds every kind: chains 3..T, pair chains 33..77,
    // trio chains and airplanes on 333..666 (pair wings from 33/66/77 beside 444555),
    // four with two singles / two pairs on 3333, the bomb 3333 and the rocket.
    let response = client
        .list_dou_dizhu_plays(request("33334445556667789TXD", ""))
        .await
        .unwrap()
        .into_inner();
    let keys: Vec<(i32, u32)> = response.plays.iter().map(|p| (p.kind, p.length)).collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
    let kinds: std::collections::BTreeSet<i32> = keys.iter().map(|k| k.0).collect();
    for kind in [
        PlayKind::Single,
        PlayKind::Pair,
        PlayKind::Trio,
        PlayKind::TrioWithSingle,
        PlayKind::TrioWithPair,
        PlayKind::Chain,
        PlayKind::PairChain,
        PlayKind::TrioChain,
        PlayKind::AirplaneWithSingles,
        PlayKind::AirplaneWithPairs,
        PlayKind::FourWithTwoSingles,
        PlayKind::FourWithTwoPairs,
        PlayKind::Bomb,
        PlayKind::Rocket,
    ] {
        assert!(kinds.contains(&(kind as i32)), "{kind:?} listed");
    }
}

/// Asserts INVALID_ARGUMENT whose message starts with `field: ` and whose BadRequest
/// details name `field`.
async fn assert_invalid(req: ListDouDizhuPlaysRequest, field: &str, reason: &str) {
    let server = common::start_default().await;
    let mut client = DouDizhuServiceClient::new(server.channel.clone());
    let status = client.list_dou_dizhu_plays(req).await.unwrap_err();
    common::assert_invalid_argument(&status, field, reason);
}

#[tokio::test]
async fn invalid_hand() {
    assert_invalid(
        request("3451", ""),
        "hand",
        "character '1' at position 4 is not a card",
    )
    .await;
    assert_invalid(
        request("33333", ""),
        "hand",
        "more than four cards of rank '3'",
    )
    .await;
    assert_invalid(
        request("XB", ""),
        "hand",
        "two of the same joker 'X' (a deck holds one of each)",
    )
    .await;
    assert_invalid(
        request("333444555666777888999", ""),
        "hand",
        "21 cards; a hand or a play holds at most 20",
    )
    .await;
    assert_invalid(
        request("", ""),
        "hand",
        "no cards; a hand holds 1..20 cards",
    )
    .await;
}

#[tokio::test]
async fn invalid_last_play() {
    // A four is not two pairs (issue 3, case 2).
    assert_invalid(
        request("5678", "33334444"),
        "last_play",
        "'33334444' is no legal play",
    )
    .await;
    assert_invalid(
        request("3456", "99923"),
        "last_play",
        "'39992' is no legal play",
    )
    .await;
    assert_invalid(
        request("3456", "3z"),
        "last_play",
        "character 'z' at position 2 is not a card",
    )
    .await;
    // The hand holds all four 3s, so nobody can have played another 3.
    assert_invalid(
        request("3333", "3"),
        "last_play",
        "'3' and the hand '3333' together hold more than one deck",
    )
    .await;
}

#[tokio::test]
async fn invalid_last_play_kind() {
    let mut req = request("3456", "33344456");
    req.last_play_kind = PlayKind::Pair as i32;
    assert_invalid(req, "last_play_kind", "'33344456' cannot be read as pair").await;

    let mut req = request("3456", "33344456");
    req.last_play_kind = 99;
    assert_invalid(req, "last_play_kind", "99 is no PlayKind value").await;

    let mut req = request("3456", "33344456");
    req.last_play_kind = PlayKind::Pass as i32;
    assert_invalid(
        req,
        "last_play_kind",
        "PLAY_KIND_PASS is no reading of a play to beat",
    )
    .await;

    let mut req = request("3456", "");
    req.last_play_kind = PlayKind::Bomb as i32;
    assert_invalid(req, "last_play_kind", "bomb given without a last_play").await;
}
