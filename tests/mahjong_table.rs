//! The `table` of SuggestMahjongDiscard / SuggestMahjongCall: every inconsistent table
//! is INVALID_ARGUMENT naming the field path, a consistent one gives the answer of the
//! `visible` and `draws_left` it implies (worked out by hand below), and the red five
//! is kept.
//!
//! The base table (riichi rules, East round, the player sits South so the left-hand
//! player deals): the dealer (left) drew and threw first, then the player, right,
//! across, left, player, right, across, left, and the player has just drawn: 10 draws,
//! so 70 - 10 = 60 tiles are left in the live wall; 9 discards are on the table.

mod common;

use gameai::proto::mahjong_service_client::MahjongServiceClient;
use gameai::proto::mahjong_service_server::MahjongService;
use gameai::proto::{
    From, MahjongCalledMeld, MahjongOpponent, MahjongRiverTile, MahjongTable, MeldKind,
    ProbabilityMethod, Ruleset, SuggestMahjongCallRequest, SuggestMahjongDiscardRequest,
    SuggestMahjongDiscardResponse,
};
use gameai::service::mahjong::MahjongApi;
use tonic::{Code, Request, Status};

fn from_hand(tile: &str) -> MahjongRiverTile {
    MahjongRiverTile {
        tile: tile.into(),
        ..Default::default()
    }
}

fn drawn(tile: &str) -> MahjongRiverTile {
    MahjongRiverTile {
        tile: tile.into(),
        tsumogiri: true,
        ..Default::default()
    }
}

fn base_table() -> MahjongTable {
    MahjongTable {
        round_wind: "1z".into(),
        seat_wind: "2z".into(),
        score: 25_000,
        dora_indicators: "3s".into(),
        live_wall_tiles: 60,
        river: vec![from_hand("9p"), drawn("1s")],
        opponents: vec![
            MahjongOpponent {
                score: 25_000,
                river: vec![from_hand("7z"), from_hand("6z")],
                ..Default::default()
            },
            MahjongOpponent {
                score: 24_000,
                river: vec![
                    from_hand("3z"),
                    MahjongRiverTile {
                        riichi: true,
                        ..from_hand("8m")
                    },
                ],
                riichi: true,
                ..Default::default()
            },
            MahjongOpponent {
                score: 25_000,
                dealer: true,
                river: vec![from_hand("4z"), from_hand("1p"), drawn("2p")],
                ..Default::default()
            },
        ],
        ..Default::default()
    }
}

/// The tiles the base table shows: the indicator 3s and the nine discards.
const BASE_VISIBLE: &str = "8m129p13s3467z";

const HAND: &str = "1239m456p789s1122z";

/// A work budget no load reaches: the figures compared below must not depend on how
/// busy the machine is (the first request of the process also builds the tables).
const PATIENT_MS: u32 = 120_000;

fn discard_at(table: MahjongTable) -> SuggestMahjongDiscardRequest {
    SuggestMahjongDiscardRequest {
        hand: HAND.into(),
        ruleset: Ruleset::Riichi as i32,
        budget_ms: PATIENT_MS,
        table: Some(table),
        ..Default::default()
    }
}

async fn discard(
    req: SuggestMahjongDiscardRequest,
) -> Result<SuggestMahjongDiscardResponse, Status> {
    MahjongApi::default()
        .suggest_mahjong_discard(Request::new(req))
        .await
        .map(tonic::Response::into_inner)
}

/// The status of a request expected to fail, with its field.
async fn field_of(req: SuggestMahjongDiscardRequest) -> String {
    let status = discard(req).await.expect_err("an inconsistent table");
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    status.message().split(": ").next().unwrap().to_string()
}

async fn bad_table(change: impl FnOnce(&mut MahjongTable)) -> String {
    let mut table = base_table();
    change(&mut table);
    field_of(discard_at(table)).await
}

#[tokio::test]
async fn the_base_table_is_consistent() {
    discard(discard_at(base_table()))
        .await
        .expect("the base table is valid");
}

#[tokio::test]
async fn a_fifth_copy_names_the_discard_where_it_appears() {
    // The hand holds 1z twice; three more from the right-hand player make five at its
    // third discard (10 draws allow 10 discards, 4 in one river).
    let field =
        bad_table(|t| t.opponents[0].river = vec![drawn("1z"), drawn("1z"), drawn("1z")]).await;
    assert_eq!(field, "table.opponents[0].river[2]");
    // In a meld: the hand's 9m and one in the right-hand river (counted before that
    // seat's melds) make two; its pon of 9m holds the third, fourth and fifth.
    let field = bad_table(|t| {
        t.opponents[0].river[0] = from_hand("9m");
        t.opponents[0].melds = vec![MahjongCalledMeld {
            kind: MeldKind::Pon as i32,
            tiles: "999m".into(),
            called_tile: "9m".into(),
            from: From::Across as i32,
        }];
    })
    .await;
    assert_eq!(field, "table.opponents[0].melds[0].tiles");
    // A dora indicator: the hand's two 2z and three indicators.
    let field = bad_table(|t| t.dora_indicators = "222z".into()).await;
    assert_eq!(field, "table.dora_indicators");
}

#[tokio::test]
async fn a_second_red_five_names_its_field() {
    // RIICHI has one red five per suit: the hand holds 0p, the across river shows another.
    let mut req = discard_at(base_table());
    req.hand = "1239m406p789s1122z".into();
    if let Some(t) = req.table.as_mut() {
        t.opponents[1].river[0] = from_hand("0p");
    }
    assert_eq!(field_of(req).await, "table.opponents[1].river[0]");
}

#[tokio::test]
async fn a_river_longer_than_the_turns_allow() {
    // 10 draws, no calls: one seat draws at most ceil(10/4) + 1 = 4 times, so a fifth
    // discard in the dealer's river is one too many.
    let field = bad_table(|t| {
        t.opponents[2].river = ["4z", "1p", "2p", "3p", "4p"].map(drawn).to_vec();
    })
    .await;
    assert_eq!(field, "table.opponents[2].river[4]");
    // 8 draws (62 left) and 9 discards: more discards than draws and calls.
    let field = bad_table(|t| t.live_wall_tiles = 62).await;
    assert_eq!(field, "table.live_wall_tiles");
    // More than the 70 tiles a riichi hand starts with.
    let field = bad_table(|t| t.live_wall_tiles = 71).await;
    assert_eq!(field, "table.live_wall_tiles");
}

#[tokio::test]
async fn a_closed_kan_called_from_someone() {
    let field = bad_table(|t| {
        t.opponents[0].melds = vec![MahjongCalledMeld {
            kind: MeldKind::ClosedKan as i32,
            tiles: "4444s".into(),
            called_tile: "4s".into(),
            from: From::Left as i32,
        }];
    })
    .await;
    assert_eq!(field, "table.opponents[0].melds[0].from");
    // Without a called tile, too.
    let field = bad_table(|t| {
        t.opponents[0].melds = vec![MahjongCalledMeld {
            kind: MeldKind::ClosedKan as i32,
            tiles: "4444s".into(),
            from: From::Across as i32,
            ..Default::default()
        }];
    })
    .await;
    assert_eq!(field, "table.opponents[0].melds[0].from");
}

#[tokio::test]
async fn melds_name_their_faults() {
    let meld = |kind: MeldKind, tiles: &str, called: &str, from: From| MahjongCalledMeld {
        kind: kind as i32,
        tiles: tiles.into(),
        called_tile: called.into(),
        from: from as i32,
    };
    // A chi takes from the left only.
    let field =
        bad_table(|t| t.opponents[0].melds = vec![meld(MeldKind::Chi, "345s", "3s", From::Right)])
            .await;
    assert_eq!(field, "table.opponents[0].melds[0].from");
    // The tile called is one of the meld's.
    let field =
        bad_table(|t| t.opponents[0].melds = vec![meld(MeldKind::Pon, "555s", "6s", From::Left)])
            .await;
    assert_eq!(field, "table.opponents[0].melds[0].called_tile");
    // A pon from nobody.
    let field = bad_table(|t| {
        t.opponents[0].melds = vec![meld(MeldKind::Pon, "555s", "5s", From::Unspecified)]
    })
    .await;
    assert_eq!(field, "table.opponents[0].melds[0].from");
    // Not a pon.
    let field =
        bad_table(|t| t.opponents[0].melds = vec![meld(MeldKind::Pon, "556s", "5s", From::Left)])
            .await;
    assert_eq!(field, "table.opponents[0].melds[0].tiles");
    // Riichi with an open hand.
    let field =
        bad_table(|t| t.opponents[1].melds = vec![meld(MeldKind::Pon, "555s", "5s", From::Left)])
            .await;
    assert_eq!(field, "table.opponents[1].riichi");
}

#[tokio::test]
async fn dealers_must_agree_with_the_seat_winds() {
    // The player sits South: the dealer is the left-hand player (opponents[2]); flagging
    // the one across is wrong.
    let field = bad_table(|t| t.opponents[1].dealer = true).await;
    assert_eq!(field, "table.opponents[1].dealer");
    // The player deals (East) and the left-hand player is flagged too: two dealers.
    let field = bad_table(|t| t.seat_wind = "1z".into()).await;
    assert_eq!(field, "table.opponents[2].dealer");
}

#[tokio::test]
async fn winds_and_seats() {
    assert_eq!(
        bad_table(|t| t.seat_wind = "5z".into()).await,
        "table.seat_wind"
    );
    assert_eq!(
        bad_table(|t| t.seat_wind = String::new()).await,
        "table.seat_wind"
    );
    assert_eq!(
        bad_table(|t| t.round_wind = "1m".into()).await,
        "table.round_wind"
    );
    assert_eq!(
        bad_table(|t| {
            t.opponents.pop();
        })
        .await,
        "table.opponents"
    );
    assert_eq!(
        bad_table(|t| t.dora_indicators = "123456m".into()).await,
        "table.dora_indicators"
    );
    assert_eq!(
        bad_table(|t| t.opponents[0].river[1].tile = "8z".into()).await,
        "table.opponents[0].river[1].tile"
    );
    assert_eq!(
        bad_table(|t| t.opponents[0].river[1].tile = "12m".into()).await,
        "table.opponents[0].river[1].tile"
    );
}

#[tokio::test]
async fn riichi_marks_must_agree() {
    // Riichi set without a declaring discard.
    assert_eq!(
        bad_table(|t| t.opponents[0].riichi = true).await,
        "table.opponents[0].riichi"
    );
    // A declaring discard without riichi set.
    assert_eq!(
        bad_table(|t| t.opponents[0].river[1].riichi = true).await,
        "table.opponents[0].river[1]"
    );
    // After riichi every discard is the tile drawn.
    assert_eq!(
        bad_table(|t| t.opponents[1].river.push(from_hand("5s"))).await,
        "table.opponents[1].river[2]"
    );
    // No riichi under SICHUAN (nor dora: the base table's indicator goes first).
    let mut req = discard_at(base_table());
    req.ruleset = Ruleset::Sichuan as i32;
    req.hand = "1239m456p789s1122p".into();
    if let Some(t) = req.table.as_mut() {
        t.dora_indicators.clear();
        t.live_wall_tiles = 46; // Sichuan: 108 - 52 = 56 at the start, 10 drawn.
        for o in &mut t.opponents {
            for d in &mut o.river {
                if d.tile.ends_with('z') {
                    d.tile = "9s".into();
                }
            }
        }
    }
    assert_eq!(field_of(req).await, "table.opponents[1].riichi");
}

#[tokio::test]
async fn visible_and_draws_left_come_from_the_table_only() {
    let mut req = discard_at(base_table());
    req.visible = "1m".into();
    assert_eq!(field_of(req).await, "visible");
    let mut req = discard_at(base_table());
    req.draws_left = Some(3);
    assert_eq!(field_of(req).await, "draws_left");
}

#[tokio::test]
async fn the_table_gives_the_visible_tiles_and_draws_of_the_solitaire_answer() {
    // 9 tiles left, drawn in turn from the right-hand player: the player draws the
    // 4th and 8th: 2 draws (a short horizon, so the figures are exact and do not depend
    // on the machine's load). The win figures per tile are those of the request
    // without a table that states the same visible tiles and draws.
    let mut table = base_table();
    table.live_wall_tiles = 9;
    let at_table = discard(discard_at(table)).await.unwrap();
    let plain = discard(SuggestMahjongDiscardRequest {
        hand: HAND.into(),
        visible: BASE_VISIBLE.into(),
        draws_left: Some(2),
        ruleset: Ruleset::Riichi as i32,
        budget_ms: PATIENT_MS,
        ..Default::default()
    })
    .await
    .unwrap();
    assert_eq!(at_table.draws_left, 2);
    assert_eq!(at_table.candidates.len(), plain.candidates.len());
    for c in &plain.candidates {
        let same = at_table
            .candidates
            .iter()
            .find(|t| t.tile == c.tile)
            .unwrap();
        assert_eq!(same.win_probability, c.win_probability, "{}", c.tile);
        assert_eq!(same.ukeire, c.ukeire, "{}", c.tile);
    }
    // Without a table none of the table's figures appear.
    assert!(!plain.riichi);
    assert!(plain.opponents.is_empty());
    assert!(
        plain
            .candidates
            .iter()
            .all(|c| c.deal_in_probability.is_none()
                && c.expected_points.is_none()
                && c.deal_in_by_opponent.is_empty())
    );
}

fn call_at(table: MahjongTable, offered: &str, from: From) -> SuggestMahjongCallRequest {
    SuggestMahjongCallRequest {
        hand: "1239m456p789s112z".into(),
        offered_tile: offered.into(),
        from: from as i32,
        ruleset: Ruleset::Riichi as i32,
        table: Some(table),
        ..Default::default()
    }
}

#[tokio::test]
async fn a_call_takes_the_offer_from_the_discarders_river() {
    // The dealer (left) has just thrown 2z: it is the last discard of its river.
    let mut table = base_table();
    table.opponents[2].river[2] = drawn("2z");
    let api = MahjongApi::default();
    let answer = api
        .suggest_mahjong_call(Request::new(call_at(table.clone(), "2z", From::Left)))
        .await
        .expect("a consistent offer")
        .into_inner();
    // The player holds a single 2z: no call can be made, the answer is a pass.
    assert_eq!(answer.action, gameai::proto::CallAction::Pass as i32);
    // Offered from across, whose last discard is 8m, not 2z.
    let status = api
        .suggest_mahjong_call(Request::new(call_at(table, "2z", From::Across)))
        .await
        .expect_err("2z is not across's last discard");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(
        status.message().starts_with("table.opponents[1].river: "),
        "{}",
        status.message()
    );
}

#[tokio::test]
async fn the_red_five_is_kept_when_a_plain_one_can_go() {
    // Holding 0m and 5m, the candidate five is written 5m (the plain one); holding only
    // the red one, 0m.
    let both = discard(SuggestMahjongDiscardRequest {
        hand: "05m123p456p789s122z".into(),
        ruleset: Ruleset::Riichi as i32,
        ..Default::default()
    })
    .await
    .unwrap();
    assert!(both.candidates.iter().any(|c| c.tile == "5m"));
    assert!(both.candidates.iter().all(|c| c.tile != "0m"));
    let red_only = discard(SuggestMahjongDiscardRequest {
        hand: "06m123p456p789s122z".into(),
        ruleset: Ruleset::Riichi as i32,
        ..Default::default()
    })
    .await
    .unwrap();
    assert!(red_only.candidates.iter().any(|c| c.tile == "0m"));
    assert!(red_only.candidates.iter().all(|c| c.tile != "5m"));
}

#[tokio::test]
async fn a_table_request_end_to_end_through_grpc() {
    let server = common::start_default().await;
    let mut client = MahjongServiceClient::new(server.channel.clone());
    let answer = client
        .suggest_mahjong_discard(discard_at(base_table()))
        .await
        .expect("a table request answers")
        .into_inner();
    assert_eq!(answer.draws_left, 15);
    let mut bad = base_table();
    bad.seat_wind = "7z".into();
    let status = client
        .suggest_mahjong_discard(discard_at(bad))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().starts_with("table.seat_wind: "));
}

#[tokio::test]
async fn issue_32_riichi_pon_without_a_yaku_passes() {
    // The issue's case: 55m456p789s2346s7z, 5m offered from across with 8 draws left.
    // Pon 555m leaves 456p 789s 2346s 7z: no yakuhai, 9s and 7z block tanyao, three
    // suits, no pairs: the open hand could never win under riichi rules. Under GENERAL
    // the same pon is fine (no yaku needed).
    let request = |ruleset: Ruleset| SuggestMahjongCallRequest {
        hand: "55m456p789s2346s7z".into(),
        offered_tile: "5m".into(),
        from: From::Across as i32,
        draws_left: Some(8),
        ruleset: ruleset as i32,
        ..Default::default()
    };
    let api = MahjongApi::default();
    let riichi = api
        .suggest_mahjong_call(Request::new(request(Ruleset::Riichi)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        riichi.action,
        gameai::proto::CallAction::Pass as i32,
        "{riichi:?}"
    );
    assert_eq!(
        riichi.reason,
        "pon 555m would leave an open hand without a reachable yaku (riichi rules)"
    );
    let general = api
        .suggest_mahjong_call(Request::new(request(Ruleset::General)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(general.action, gameai::proto::CallAction::Pon as i32);
}

/// The base table without the riichi across (its 8m an ordinary discard).
fn quiet_table() -> MahjongTable {
    let mut table = base_table();
    table.opponents[1].riichi = false;
    table.opponents[1].river[1].riichi = false;
    table
}

#[tokio::test]
async fn tenpai_with_no_yaku_declares_riichi() {
    // 1239m456p789s1122z: throwing 9m leaves tenpai on 1z/2z (shanpon). The pairs are
    // the round wind (East) and the seat wind (South) but neither is a triplet yet: no
    // yaku for dama. Nobody threatens (no riichi, short rivers), 15 draws left: the
    // expected points favour the tenpai discard, and riichi.
    let answer = discard(discard_at(quiet_table())).await.unwrap();
    assert_eq!(answer.discard, "9m", "{answer:?}");
    assert!(answer.riichi);
    let best = &answer.candidates[0];
    assert!(best.expected_points.unwrap() > 0.0);
    // The figures are ranked by expected points.
    for pair in answer.candidates.windows(2) {
        assert!(pair[0].expected_points >= pair[1].expected_points);
    }
    assert_eq!(answer.opponents.len(), 3);
    assert!(answer.opponents.iter().all(|o| o.tenpai_probability < 0.5));
}

#[tokio::test]
async fn a_far_cheap_hand_folds_against_riichi() {
    // Across is in riichi; the player's hand 1368m2479p1368s55z is far from tenpai
    // (three shanten at best) and cheap: pushing is worth less than the risk, so the
    // discard is the safest tile. 2p is safe against all three: the dealer (left)
    // threw it itself, after across's riichi (riichi furiten for across) and after
    // the right-hand player's last turn (temporary furiten). 9p, thrown by across, is
    // safe against across only.
    let mut table = base_table();
    table.opponents[1].river[0] = from_hand("9p");
    table.river[0] = from_hand("3z");
    let answer = discard(SuggestMahjongDiscardRequest {
        hand: "1368m2479p1368s55z".into(),
        ..discard_at(table)
    })
    .await
    .unwrap();
    let best = &answer.candidates[0];
    assert_eq!(best.tile, "2p", "{answer:?}");
    assert_eq!(best.deal_in_by_opponent, vec![0.0, 0.0, 0.0]);
    let nine = answer.candidates.iter().find(|c| c.tile == "9p").unwrap();
    assert_eq!(nine.deal_in_by_opponent[1], 0.0);
    assert!(nine.deal_in_probability.unwrap() > 0.0);
    let min = answer
        .candidates
        .iter()
        .map(|c| c.deal_in_probability.unwrap())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(best.deal_in_probability.unwrap(), min);
    assert!(!answer.riichi);
}

/// The README's far cheap hand at the base table, across in riichi (see
/// `a_far_cheap_hand_folds_against_riichi`), or with nobody in riichi.
fn far_cheap_hand(riichi: bool) -> SuggestMahjongDiscardRequest {
    let mut table = if riichi { base_table() } else { quiet_table() };
    table.opponents[1].river[0] = from_hand("9p");
    table.river[0] = from_hand("3z");
    SuggestMahjongDiscardRequest {
        hand: "1368m2479p1368s55z".into(),
        ..discard_at(table)
    }
}

#[tokio::test]
async fn a_fold_says_its_win_probabilities_were_not_needed() {
    // Against riichi with 12 tiles left in the live wall (3 draws: one short of the 4 a
    // three-shanten hand needs to win) this hand folds whatever the engine would say:
    // the service computes no win probability, searches no state and simulates no
    // path, and says so on every candidate; the expected points are still given.
    let mut late = far_cheap_hand(true);
    late.table.as_mut().unwrap().live_wall_tiles = 12;
    let answer = discard(late).await.unwrap();
    let stats = answer.stats.as_ref().unwrap();
    assert_eq!((stats.nodes, stats.samples, stats.exact), (0, 0, false));
    assert_eq!(answer.candidates.len(), 13);
    for c in &answer.candidates {
        assert_eq!(c.method(), ProbabilityMethod::NotNeeded, "{c:?}");
        assert_eq!((c.win_probability, c.tenpai_probability), (0.0, 0.0));
        assert!(c.expected_points.is_some());
    }
    // Nobody in riichi: the same hand pushes, its win probabilities decide, and they
    // are computed (simulated or exact, never left out).
    let answer = discard(far_cheap_hand(false)).await.unwrap();
    assert!(answer.stats.unwrap().samples > 0);
    for c in &answer.candidates {
        let m = c.method();
        assert!(
            matches!(m, ProbabilityMethod::Simulated | ProbabilityMethod::Exact),
            "{c:?}"
        );
    }
    assert!(answer.candidates.iter().any(|c| c.win_probability > 0.0));
}

#[tokio::test]
async fn a_valuable_good_tenpai_pushes_a_dangerous_tile_against_riichi() {
    // The push-or-fold statistics of Tenhou games (the tables of "科学する麻雀" and
    // their successors): against a riichi, a tenpai hand with a two-sided wait that is
    // worth a mangan pushes any tile; folding throws away more than the deal-in costs.
    // Hand 23456m567p6p345s44s: 6p leaves 234m 56m 567p 345s 44s, tenpai on 4m/7m
    // (ryanmen), tanyao with three dora (indicator 3s: 4s x 3), riichi on top: a
    // haneman. Every other discard breaks the tenpai. 6p is dangerous against across:
    // no suji (neither 3p nor 9p in its river, not genbutsu), so the fold answer
    // would be a tile it discarded or its suji. 15 draws left.
    let answer = discard(SuggestMahjongDiscardRequest {
        hand: "23456m567p6p345s44s".into(),
        ..discard_at(base_table())
    })
    .await
    .unwrap();
    let best = &answer.candidates[0];
    assert_eq!(best.tile, "6p", "{answer:?}");
    assert!(best.deal_in_by_opponent[1] > 0.05, "{best:?}");
    assert!(best.expected_points.unwrap() > 0.0);
    assert!(answer.riichi, "a closed good tenpai declares riichi");
}

#[tokio::test]
async fn a_cheap_pinfu_tenpai_pushes_against_riichi() {
    // The probe of docs/experiments/2026-12-06-mahjong-push-fold.md: 23456m567p6p678s99s
    // at the base table (across, not the dealer, in riichi; 15 draws; indicator 3s,
    // dora 4s, none held). Throwing 6p leaves 23456m567p678s99s, a three-sided wait on
    // 1m/4m/7m, every win all runs with a two-sided wait on a 9s pair: pinfu, 30 fu.
    // Dama is worth 1,000 (pinfu 1 han 30 fu), riichi 2,000 (riichi pinfu 2 han 30
    // fu) before ura and tsumo; Tenhou's table. Any other discard breaks the tenpai.
    // The push-or-fold statistics (as in the test above): a tenpai with a good wait
    // pushes against a single riichi in mid-game even when cheap; the session-35 value
    // (1.7 han at 30 fu, no pinfu) folded it.
    let answer = discard(SuggestMahjongDiscardRequest {
        hand: "23456m567p6p678s99s".into(),
        ..discard_at(base_table())
    })
    .await
    .unwrap();
    let best = &answer.candidates[0];
    assert_eq!(best.tile, "6p", "{answer:?}");
    assert!(best.expected_points.unwrap() > 0.0, "{best:?}");
}

#[tokio::test]
async fn a_dragon_pon_at_a_quiet_table_is_taken_with_its_points() {
    // 55z123m456p78s119p: across throws the third 5z late in the hand (8 tiles left:
    // the player draws twice more, exact figures). The pon is a yaku (white dragon) and
    // leaves tenpai on 6s/9s after 9p goes, where passing stays 1-shanten; nobody
    // threatens: the call is made and both expected-points figures are given.
    let mut table = quiet_table();
    table.opponents[1].river[1] = from_hand("5z");
    table.live_wall_tiles = 8;
    let answer = MahjongApi::default()
        .suggest_mahjong_call(Request::new(SuggestMahjongCallRequest {
            hand: "55z123m456p78s119p".into(),
            offered_tile: "5z".into(),
            from: From::Across as i32,
            ruleset: Ruleset::Riichi as i32,
            budget_ms: PATIENT_MS,
            table: Some(table),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        answer.action,
        gameai::proto::CallAction::Pon as i32,
        "{answer:?}"
    );
    assert!(
        answer.expected_points_with_call.unwrap() > answer.expected_points_without_call.unwrap()
    );
}

#[tokio::test]
async fn kuikae_discards_come_last_after_a_chi() {
    // The player has just called chi 345m on the dealer's 3m (left, its last discard,
    // marked called). Tenhou forbids discarding 3m (the called kind) and 6m (the tile
    // beyond the run's other end): both come last, the discard is neither.
    let mut table = quiet_table();
    table.opponents[2].river.push(MahjongRiverTile {
        called: true,
        ..from_hand("3m")
    });
    table.after_call = true;
    let mut req = discard_at(table);
    req.hand = "36m456p789s112z".into();
    req.melds = vec![gameai::proto::Meld {
        kind: MeldKind::Chi as i32,
        tiles: "345m".into(),
    }];
    let answer = discard(req.clone()).await.unwrap();
    assert!(
        answer.discard != "3m" && answer.discard != "6m",
        "{answer:?}"
    );
    let n = answer.candidates.len();
    let mut last: Vec<&str> = answer.candidates[n - 2..]
        .iter()
        .map(|c| c.tile.as_str())
        .collect();
    last.sort();
    assert_eq!(last, ["3m", "6m"]);
    // after_call without a call to follow is a bad table.
    req.melds.clear();
    req.hand = "369m3456p789s1122z".into();
    assert_eq!(field_of(req).await, "table.after_call");
}
