//! `AnalyzeMahjongHand` through a real gRPC client against an in-process server.
//! Expected values are worked by hand in the comments (rules: DESIGN.md).

mod common;

use gameai::proto::mahjong_service_client::MahjongServiceClient;
use gameai::proto::{
    AnalyzeMahjongHandRequest, AnalyzeMahjongHandResponse, Meld, MeldKind, Ruleset, TileCount,
};

fn request(hand: &str, visible: &str, ruleset: Ruleset) -> AnalyzeMahjongHandRequest {
    AnalyzeMahjongHandRequest {
        hand: hand.to_string(),
        melds: Vec::new(),
        visible: visible.to_string(),
        ruleset: ruleset as i32,
    }
}

async fn analyze(
    server: &common::TestServer,
    req: AnalyzeMahjongHandRequest,
) -> Result<AnalyzeMahjongHandResponse, tonic::Status> {
    MahjongServiceClient::new(server.channel.clone())
        .analyze_mahjong_hand(req)
        .await
        .map(|r| r.into_inner())
}

fn tiles(list: &[(&str, u32)]) -> Vec<TileCount> {
    list.iter()
        .map(|&(tile, count)| TileCount {
            tile: tile.to_string(),
            count,
        })
        .collect()
}

#[tokio::test]
async fn tenpai_hand_forms_and_ukeire() {
    let server = common::start_default().await;
    // 123m 456p 789s 111z + 2z: tenpai on 2z, one 2z visible -> 2 unseen.
    // Seven pairs (GENERAL): 1 pair (111z), 11 odd kinds: 6 missing pairs -> shanten 5.
    // Thirteen orphans: 1m 9s 1z 2z present, 1z paired -> 13 - 4 - 1 = 8.
    let r = analyze(
        &server,
        request("123m456p789s1112z", "2z", Ruleset::General),
    )
    .await
    .unwrap();
    assert_eq!(r.shanten, 0);
    assert_eq!(r.shanten_regular, 0);
    assert_eq!(r.shanten_seven_pairs, Some(5));
    assert_eq!(r.shanten_thirteen_orphans, Some(8));
    assert!(!r.is_winning);
    let u = r.ukeire.unwrap();
    assert_eq!((u.tiles, u.total), (tiles(&[("2z", 2)]), 2));
    assert!(r.discards.is_empty());
}

#[tokio::test]
async fn fourteen_tiles_rank_every_discard() {
    let server = common::start_default().await;
    // + 5m: discarding 5m waits on 2z (3 unseen), discarding 2z waits on 5m (3 unseen):
    // equal, so tile order; every other discard leaves a 1-shanten hand.
    let r = analyze(&server, request("1235m456p789s1112z", "", Ruleset::Riichi))
        .await
        .unwrap();
    assert_eq!(r.shanten, 0);
    assert!(!r.is_winning);
    assert!(r.ukeire.is_none());
    assert_eq!(r.discards.len(), 12);
    assert_eq!(r.discards[0].tile, "5m");
    assert_eq!(r.discards[0].shanten, 0);
    assert_eq!(
        r.discards[0].ukeire.as_ref().unwrap().tiles,
        tiles(&[("2z", 3)])
    );
    assert_eq!(r.discards[1].tile, "2z");
    assert_eq!(
        r.discards[1].ukeire.as_ref().unwrap().tiles,
        tiles(&[("5m", 3)])
    );
    assert!(r.discards[2..].iter().all(|d| d.shanten == 1));
}

#[tokio::test]
async fn winning_hands_and_the_seven_pairs_ruleset_difference() {
    let server = common::start_default().await;
    let r = analyze(&server, request("123m456p789s11122z", "", Ruleset::General))
        .await
        .unwrap();
    assert!(r.is_winning);
    assert_eq!(r.shanten, -1);
    // 1111m2233445566p: seven pairs with 1111m as two pairs (GENERAL, SICHUAN lacking s),
    // only six distinct pairs under RIICHI (seven pairs 1; regular 0 via 666p).
    for (ruleset, winning) in [
        (Ruleset::General, true),
        (Ruleset::Sichuan, true),
        (Ruleset::Riichi, false),
    ] {
        let r = analyze(&server, request("1111m2233445566p", "", ruleset))
            .await
            .unwrap();
        assert_eq!(r.is_winning, winning, "{ruleset:?}");
    }
    let r = analyze(&server, request("1111m2233445566p", "", Ruleset::Riichi))
        .await
        .unwrap();
    assert_eq!(
        (r.shanten_seven_pairs, r.shanten_regular, r.shanten),
        (Some(1), 0, 0)
    );
    // SICHUAN has no thirteen orphans.
    let r = analyze(&server, request("1111m2233445566p", "", Ruleset::Sichuan))
        .await
        .unwrap();
    assert_eq!(r.shanten_thirteen_orphans, None);
}

#[tokio::test]
async fn melds_implied_or_listed() {
    let server = common::start_default().await;
    // One tile and no melds: four melds were called; tenpai on that tile (3 unseen).
    let r = analyze(&server, request("1s", "", Ruleset::Riichi))
        .await
        .unwrap();
    assert_eq!(
        (r.shanten, r.shanten_seven_pairs, r.shanten_thirteen_orphans),
        (0, None, None)
    );
    assert_eq!(r.ukeire.unwrap().tiles, tiles(&[("1s", 3)]));
    // The same hand with its melds listed, one of them a pon of 1s: all four 1s are now
    // the player's own, so the 1s single is a dead wait and the hand is 1-shanten
    // (issue 11: copies in melds count, in shanten too). Any drawn X whose pair can still
    // be completed gives tenpai on X (discard the 1s): 136 - 1 in hand - 13 in melds =
    // 122 unseen, less the one unseen 9p (pon 999p + the drawn 9p = four: dead again);
    // 1s and 7z have no unseen copy.
    let mut req = request("1s", "", Ruleset::General);
    req.melds = vec![
        meld(MeldKind::Pon, "111s"),
        meld(MeldKind::Chi, "234m"),
        meld(MeldKind::ClosedKan, "7777z"),
        meld(MeldKind::Pon, "999p"),
    ];
    let r = analyze(&server, req).await.unwrap();
    assert_eq!(r.shanten, 1);
    let u = r.ukeire.unwrap();
    assert_eq!(u.total, 121);
    assert!(u.tiles.iter().all(|t| t.tile != "9p" && t.tile != "1s"));
    assert!(u.tiles.iter().any(|t| t.tile == "2m" && t.count == 3));
}

/// DESIGN.md's mpsz notation in upper case reads as in lower case, as the other games read
/// theirs (Dou Dizhu's `t`, gomoku's `H8`): the same hand, the same answer.
#[tokio::test]
async fn suit_letters_in_either_case() {
    let server = common::start_default().await;
    let lower = analyze(
        &server,
        request("123m456p789s1112z", "2z", Ruleset::General),
    )
    .await
    .unwrap();
    let upper = analyze(
        &server,
        request("123M456P789S1112Z", "2Z", Ruleset::General),
    )
    .await
    .unwrap();
    assert_eq!(upper, lower);
    // Tenpai on 2z with one 2z seen, as in `tenpai_hand_forms_and_ukeire`.
    assert_eq!(upper.ukeire.unwrap().total, 2);
}

/// A short hand (melds called, not listed) is accepted: 10 tiles with one meld implied.
/// The size fault says which sizes are.
#[tokio::test]
async fn short_hands_are_accepted_and_the_size_fault_lists_the_sizes() {
    let server = common::start_default().await;
    // 123m 456p 789s 1z: three sets and a single, tenpai on 1z (3 unseen).
    let r = analyze(&server, request("123m456p789s1z", "", Ruleset::General))
        .await
        .unwrap();
    assert_eq!(r.shanten, 0);
    assert_invalid(
        analyze(&server, request("", "", Ruleset::General)).await,
        "hand",
        "hand has 0 tiles; expected 1, 2, 4, 5, 7, 8, 10, 11, 13 or 14 \
         (13 or 14 less 3 per meld called)",
    );
    // Two melds listed leave room for 13 - 6 = 7 or 8 tiles.
    let mut req = request("123m456p789s1z", "", Ruleset::General);
    req.melds = vec![meld(MeldKind::Pon, "222z"), meld(MeldKind::Pon, "333z")];
    assert_invalid(
        analyze(&server, req).await,
        "hand",
        "hand has 10 tiles beside 2 melds; expected 7 or 8 (13 or 14 counting 3 per meld)",
    );
}

/// RIICHI's set holds one red five per suit (DESIGN.md: "three red fives"): a second
/// `0m` is a fault of the field it appears in; GENERAL reads `0m` as a five only.
#[tokio::test]
async fn riichi_holds_one_red_five_per_suit() {
    let server = common::start_default().await;
    let reason = "red five 0m appears 2 times; RIICHI has one red five per suit";
    assert_invalid(
        analyze(&server, request("005m456p789s1122z", "", Ruleset::Riichi)).await,
        "hand",
        reason,
    );
    assert_invalid(
        analyze(&server, request("05m456p789s11222z", "0m", Ruleset::Riichi)).await,
        "visible",
        reason,
    );
    let mut req = request("0m456p789s123z", "", Ruleset::Riichi);
    req.melds = vec![meld(MeldKind::Pon, "055m")];
    assert_invalid(analyze(&server, req).await, "melds", reason);
    // One red five of each suit is the set's three: accepted.
    let r = analyze(
        &server,
        request("0m0p0s456m456p45s12z", "", Ruleset::Riichi),
    )
    .await
    .unwrap();
    assert!(r.shanten >= 0);
    let general = request("005m456p789s1122z", "0m", Ruleset::General);
    assert!(analyze(&server, general).await.is_ok());
}

fn meld(kind: MeldKind, tiles: &str) -> Meld {
    Meld {
        kind: kind as i32,
        tiles: tiles.to_string(),
    }
}

/// The status is INVALID_ARGUMENT naming `field` in its message and its BadRequest.
fn assert_invalid(
    result: Result<AnalyzeMahjongHandResponse, tonic::Status>,
    field: &str,
    reason: &str,
) {
    let status = result.expect_err("INVALID_ARGUMENT");
    common::assert_invalid_argument(&status, field, reason);
}

#[tokio::test]
async fn invalid_arguments_name_the_field() {
    let server = common::start_default().await;
    assert_invalid(
        analyze(&server, request("123x", "", Ruleset::General)).await,
        "hand",
        "'x' is not a suit letter (m, p, s, z) or a digit",
    );
    assert_invalid(
        analyze(&server, request("123m456p789s1128z", "", Ruleset::General)).await,
        "hand",
        "'8z' is not a tile: honours are 1z..7z",
    );
    assert_invalid(
        analyze(&server, request("123m456p789s111z", "", Ruleset::General)).await,
        "hand",
        "hand has 12 tiles; expected 1, 2, 4, 5, 7, 8, 10, 11, 13 or 14 \
         (13 or 14 less 3 per meld called)",
    );
    assert_invalid(
        analyze(&server, request("123m456p789s1122z", "", Ruleset::Sichuan)).await,
        "hand",
        "tile 1z is an honour; SICHUAN has no honour tiles",
    );
    assert_invalid(
        analyze(
            &server,
            request("123m456p789s1122z", "0z", Ruleset::General),
        )
        .await,
        "visible",
        "'0z' is not a tile: honours are 1z..7z",
    );
    assert_invalid(
        analyze(
            &server,
            request("123m456p789s1122z", "111z", Ruleset::General),
        )
        .await,
        "visible",
        "tile 1z appears 5 times (a set has 4 copies)",
    );
    let mut req = request("123m456p7s", "", Ruleset::General);
    req.melds = vec![meld(MeldKind::Chi, "124m")];
    assert_invalid(
        analyze(&server, req).await,
        "melds[0].tiles",
        "chi '124m' is not three consecutive tiles of one suit",
    );
    let mut req = request("123m456p789s1z", "", Ruleset::Sichuan);
    req.melds = vec![meld(MeldKind::Pon, "222s")];
    let r = analyze(&server, req).await;
    assert_invalid(
        r,
        "hand",
        "tile 1z is an honour; SICHUAN has no honour tiles",
    );
    let mut req = request("123m456p789s1z", "", Ruleset::General);
    req.melds = vec![meld(MeldKind::Unspecified, "222s")];
    assert_invalid(
        analyze(&server, req).await,
        "melds[0].kind",
        "meld kind is unspecified",
    );
    let mut req = request("1111m456p789s1z", "", Ruleset::General);
    req.hand = "11m456p789s12z".to_string();
    req.melds = vec![meld(MeldKind::Pon, "111m")];
    assert_invalid(
        analyze(&server, req).await,
        "melds",
        "tile 1m appears 5 times (a set has 4 copies)",
    );
    let mut req = request("123m456p789s1122z", "", Ruleset::General);
    req.ruleset = 42;
    assert_invalid(
        analyze(&server, req).await,
        "ruleset",
        "42 is not a Ruleset value",
    );
}
