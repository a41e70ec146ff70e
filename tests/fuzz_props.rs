//! Property tests over the same paths as the cargo-fuzz targets (`fuzz/`): the card
//! and tile parsers, and every RPC handler called with generated requests (and with
//! arbitrary bytes that prost decodes). Properties: parsing never panics and what
//! parses prints canonically and parses back to itself; a handler answers, or says
//! INVALID_ARGUMENT naming a field, never panics, never INTERNAL (`fuzz_support::check`).
//!
//! Strategies mix garbage (any character of the notation's alphabet and some that are
//! not) with well-formed material (cards drawn from a real deck, tiles from a real
//! set), so that both the validation and the engines behind it are reached.

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod fuzz_support;

use fuzz_support::{BUDGET_MS, block_on, check};
use gameai::doudizhu::Cards;
use gameai::mahjong::{Tile, TileCounts};
use gameai::proto::dou_dizhu_service_server::DouDizhuService;
use gameai::proto::gomoku_service_server::GomokuService;
use gameai::proto::mahjong_service_server::MahjongService;
use gameai::proto::{self, Meld};
use gameai::service::doudizhu::DouDizhuApi;
use gameai::service::gomoku::GomokuApi;
use gameai::service::mahjong::MahjongApi;
use proptest::prelude::*;
use prost::Message;
use tonic::Request;

/// Card text: cards drawn from a real 54-card deck (so counts are possible), or any
/// string over the notation's characters and a few others.
fn card_text() -> impl Strategy<Value = String> {
    let deck: Vec<char> = "3456789TJQKA2"
        .chars()
        .flat_map(|c| [c; 4])
        .chain(['X', 'D'])
        .collect();
    prop_oneof![
        3 => Just(deck).prop_shuffle().prop_flat_map(|d| (0..=20usize).prop_map(move |n| d[..n].iter().collect())),
        1 => "[3-9TJQKA2XDBRtjqkaxdbr10 ]{0,24}",
        1 => ".{0,8}",
    ]
}

/// Tile text: tiles drawn from a real 136-tile set, or any mpsz-ish string.
fn tile_text(max: usize) -> impl Strategy<Value = String> {
    let set: Vec<usize> = (0..34).flat_map(|k| [k; 4]).collect();
    prop_oneof![
        3 => Just(set).prop_shuffle().prop_flat_map(move |s| (0..=max).prop_map(move |n| {
            let mut counts = [0u8; 34];
            for &k in &s[..n] {
                counts[k] += 1;
            }
            TileCounts(counts).to_string()
        })),
        1 => "[0-9mpsz ]{0,20}",
        1 => ".{0,6}",
    ]
}

fn meld() -> impl Strategy<Value = Meld> {
    (-1..7i32, tile_text(4)).prop_map(|(kind, tiles)| Meld { kind, tiles })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn cards_parse_or_fail_cleanly_and_round_trip(text in card_text()) {
        if let Ok(cards) = text.parse::<Cards>() {
            let again: Cards = cards.to_string().parse().unwrap();
            prop_assert_eq!(again, cards);
        }
    }

    #[test]
    fn tiles_parse_or_fail_cleanly_and_round_trip(text in tile_text(18)) {
        if let Ok(counts) = text.parse::<TileCounts>() {
            let again: TileCounts = counts.to_string().parse().unwrap();
            prop_assert_eq!(again, counts);
        }
        if let Ok(tile) = text.parse::<Tile>() {
            prop_assert_eq!(tile.to_string().parse::<Tile>().unwrap(), tile);
        }
    }

    #[test]
    fn list_plays_answers_or_names_the_field(
        hand in card_text(), last_play in card_text(), kind in -1..17i32, rocket in any::<Option<bool>>(),
    ) {
        let req = proto::ListDouDizhuPlaysRequest {
            hand,
            last_play,
            last_play_kind: kind,
            rules: Some(proto::DouDizhuRules { rocket_as_kickers: rocket }),
        };
        check(block_on(DouDizhuApi::default().list_dou_dizhu_plays(Request::new(req))));
    }

    #[test]
    fn suggest_play_answers_or_names_the_field(
        hand in card_text(),
        seat in -1..5i32,
        landlord_cards in card_text(),
        history in proptest::collection::vec(card_text(), 0..8),
        mode in -1..4i32,
        alternatives in 0..30u32,
    ) {
        let req = proto::SuggestDouDizhuPlayRequest {
            hand,
            seat,
            landlord_cards,
            history,
            mode,
            budget_ms: BUDGET_MS,
            alternatives,
            rules: None,
        };
        check(block_on(DouDizhuApi::default().suggest_dou_dizhu_play(Request::new(req))));
    }

    #[test]
    fn suggest_bid_answers_or_names_the_field(
        hand in card_text(), bids in proptest::collection::vec(0..6u32, 0..4),
        mode in -1..4i32, budget_ms in 1..4u32,
    ) {
        // A budget of a few milliseconds keeps the simulation's share of the 256 cases
        // small; the validation under test runs before it.
        let req = proto::SuggestDouDizhuBidRequest { hand, bids, rules: None, mode, budget_ms };
        check(block_on(DouDizhuApi::default().suggest_dou_dizhu_bid(Request::new(req))));
    }

    #[test]
    fn analyze_hand_answers_or_names_the_field(
        hand in tile_text(14),
        melds in proptest::collection::vec(meld(), 0..3),
        visible in tile_text(30),
        ruleset in -1..5i32,
    ) {
        let req = proto::AnalyzeMahjongHandRequest { hand, melds, visible, ruleset };
        check(block_on(MahjongApi::default().analyze_mahjong_hand(Request::new(req))));
    }

    #[test]
    fn suggest_discard_answers_or_names_the_field(
        hand in tile_text(14),
        melds in proptest::collection::vec(meld(), 0..3),
        visible in tile_text(30),
        draws_left in proptest::option::of(0..130u32),
        ruleset in -1..5i32,
        max_candidates in 0..20u32,
    ) {
        let req = proto::SuggestMahjongDiscardRequest {
            hand, melds, visible, draws_left, ruleset, budget_ms: BUDGET_MS, max_candidates, table: None,
        };
        check(block_on(MahjongApi::default().suggest_mahjong_discard(Request::new(req))));
    }

    #[test]
    fn suggest_call_answers_or_names_the_field(
        hand in tile_text(13),
        melds in proptest::collection::vec(meld(), 0..3),
        visible in tile_text(30),
        offered in tile_text(1),
        from in -1..5i32,
        draws_left in proptest::option::of(0..130u32),
        ruleset in -1..5i32,
    ) {
        let req = proto::SuggestMahjongCallRequest {
            hand, melds, visible, offered_tile: offered, from, draws_left, ruleset, budget_ms: BUDGET_MS, table: None,
        };
        check(block_on(MahjongApi::default().suggest_mahjong_call(Request::new(req))));
    }

    #[test]
    fn gomoku_answers_or_names_the_field(
        size in 0..30u32,
        moves in "[a-v0-9]{0,30}",
        black in proptest::collection::vec("[a-v][0-9]{1,2}", 0..6),
        white in proptest::collection::vec("[a-v][0-9]{1,2}", 0..6),
        to_move in -1..4i32,
        rule in -1..5i32,
    ) {
        let position = proto::GomokuPosition { size, moves, black, white, to_move };
        let req = proto::AnalyzeGomokuPositionRequest { position: Some(position.clone()), rule };
        check(block_on(GomokuApi::default().analyze_gomoku_position(Request::new(req))));
        let req = proto::SuggestGomokuMoveRequest {
            position: Some(position), rule, budget_ms: BUDGET_MS, alternatives: 3,
        };
        check(block_on(GomokuApi::default().suggest_gomoku_move(Request::new(req))));
    }

    /// Arbitrary bytes, as the fuzz targets get them: those that decode go through the
    /// handlers of every method that takes that message shape.
    #[test]
    fn decodable_bytes_answer_or_name_the_field(data in proptest::collection::vec(any::<u8>(), 0..64)) {
        let ddz = DouDizhuApi::default();
        let mj = MahjongApi::default();
        if let Ok(r) = proto::ListDouDizhuPlaysRequest::decode(data.as_slice()) {
            check(block_on(ddz.list_dou_dizhu_plays(Request::new(r))));
        }
        if let Ok(mut r) = proto::SuggestDouDizhuPlayRequest::decode(data.as_slice()) {
            r.budget_ms = BUDGET_MS;
            check(block_on(ddz.suggest_dou_dizhu_play(Request::new(r))));
        }
        if let Ok(r) = proto::SuggestDouDizhuBidRequest::decode(data.as_slice()) {
            check(block_on(ddz.suggest_dou_dizhu_bid(Request::new(r))));
        }
        if let Ok(r) = proto::AnalyzeMahjongHandRequest::decode(data.as_slice()) {
            check(block_on(mj.analyze_mahjong_hand(Request::new(r))));
        }
        if let Ok(mut r) = proto::SuggestMahjongDiscardRequest::decode(data.as_slice()) {
            r.budget_ms = BUDGET_MS;
            check(block_on(mj.suggest_mahjong_discard(Request::new(r))));
        }
        if let Ok(mut r) = proto::SuggestMahjongCallRequest::decode(data.as_slice()) {
            r.budget_ms = BUDGET_MS;
            check(block_on(mj.suggest_mahjong_call(Request::new(r))));
        }
    }
}
