//! `ScoreMahjongHand`: translation and validation around [`crate::mahjong::scoring`].
//!
//! INVALID_ARGUMENT naming the field: `ruleset` (not riichi), `hand`, `melds[i].kind` /
//! `melds[i].tiles`, `win_tile`, `seat_wind`, `round_wind`, `dora_indicators`,
//! `ura_dora_indicators` (not mpsz, or what [`WinInput::new`] rejects: a size that does
//! not fit the melds, a winning tile not in the hand, a fifth copy, two red fives of a
//! suit) and the flag that cannot go with the others (`ippatsu` without riichi, ...).
//! A hand that is valid but cannot win answers `can_win: false` with the reason.

use tonic::{Request, Response, Status};

use crate::mahjong::scoring::{
    self, Limit, Payment, Score, ScoreError, ScoreField, WinFlags, WinInput,
};
use crate::mahjong::{Tile, TileCounts};
use crate::proto::{self, ScoreMahjongHandRequest, ScoreMahjongHandResponse};
use crate::service::error::invalid_argument;
use crate::service::mahjong::meld_from_proto;

/// Scores the hand of a request (microseconds: no work budget needed).
pub fn score_hand(
    request: Request<ScoreMahjongHandRequest>,
) -> Result<Response<ScoreMahjongHandResponse>, Status> {
    let input = input_from_proto(request.get_ref())?;
    Ok(Response::new(match scoring::score(&input) {
        Ok(score) => score_to_proto(&score),
        Err(no) => ScoreMahjongHandResponse {
            can_win: false,
            reason: no.reason().to_string(),
            ..Default::default()
        },
    }))
}

/// The validated winning hand of a request.
fn input_from_proto(r: &ScoreMahjongHandRequest) -> Result<WinInput, Status> {
    match proto::Ruleset::try_from(r.ruleset) {
        Ok(proto::Ruleset::Unspecified | proto::Ruleset::Riichi) => {}
        _ => {
            return Err(invalid_argument(
                "ruleset",
                "hands are scored under RULESET_RIICHI only",
            ));
        }
    }
    let tiles = |field: &str, text: &str| -> Result<TileCounts, Status> {
        text.parse().map_err(|e| invalid_argument(field, e))
    };
    let one = |field: &str, text: &str| -> Result<Tile, Status> {
        text.parse().map_err(|e| invalid_argument(field, e))
    };
    let (concealed, mut red) =
        TileCounts::parse_with_red_fives(&r.hand).map_err(|e| invalid_argument("hand", e))?;
    let mut melds = Vec::with_capacity(r.melds.len());
    for (i, m) in r.melds.iter().enumerate() {
        let (meld, meld_red) = meld_from_proto(i, m)?;
        melds.push(meld);
        red = red.plus(&meld_red);
    }
    let flags = WinFlags {
        self_draw: r.self_draw,
        riichi: r.riichi || r.double_riichi,
        double_riichi: r.double_riichi,
        ippatsu: r.ippatsu,
        rinshan: r.rinshan,
        chankan: r.chankan,
        haitei: r.haitei,
        houtei: r.houtei,
        tenhou: r.tenhou,
        chiihou: r.chiihou,
    };
    WinInput::new(
        concealed,
        melds,
        one("win_tile", &r.win_tile)?,
        one("seat_wind", &r.seat_wind)?,
        one("round_wind", &r.round_wind)?,
        flags,
        tiles("dora_indicators", &r.dora_indicators)?
            .tiles()
            .collect(),
        tiles("ura_dora_indicators", &r.ura_dora_indicators)?
            .tiles()
            .collect(),
        red,
    )
    .map_err(score_error)
}

fn score_error(e: ScoreError) -> Status {
    let field = match e.field {
        ScoreField::Hand => "hand",
        ScoreField::Melds => "melds",
        ScoreField::WinTile => "win_tile",
        ScoreField::SeatWind => "seat_wind",
        ScoreField::RoundWind => "round_wind",
        ScoreField::DoraIndicators => "dora_indicators",
        ScoreField::UraDoraIndicators => "ura_dora_indicators",
        ScoreField::Flag(name) => name,
    };
    invalid_argument(field, e.message)
}

fn score_to_proto(s: &Score) -> ScoreMahjongHandResponse {
    let limit = match s.limit {
        Limit::None => proto::ScoreLimit::Unspecified,
        Limit::Mangan => proto::ScoreLimit::Mangan,
        Limit::Haneman => proto::ScoreLimit::Haneman,
        Limit::Baiman => proto::ScoreLimit::Baiman,
        Limit::Sanbaiman => proto::ScoreLimit::Sanbaiman,
        Limit::CountedYakuman => proto::ScoreLimit::CountedYakuman,
        Limit::Yakuman(_) => proto::ScoreLimit::Yakuman,
    };
    let payment = match s.payment {
        Payment::Ron { from_discarder } => proto::MahjongPayment {
            from_discarder,
            ..Default::default()
        },
        Payment::DealerTsumo { from_each } => proto::MahjongPayment {
            from_each_non_dealer: from_each,
            ..Default::default()
        },
        Payment::NonDealerTsumo {
            from_dealer,
            from_each_non_dealer,
        } => proto::MahjongPayment {
            from_dealer,
            from_each_non_dealer,
            ..Default::default()
        },
    };
    ScoreMahjongHandResponse {
        can_win: true,
        reason: String::new(),
        yaku: s
            .yaku
            .iter()
            .map(|&(y, han)| proto::Yaku {
                name: y.name().to_string(),
                han: u32::from(han),
            })
            .collect(),
        han: u32::from(s.han),
        fu: u32::from(s.fu),
        dora: u32::from(s.dora),
        red_dora: u32::from(s.red_dora),
        ura_dora: u32::from(s.ura_dora),
        points: s.points(),
        limit: limit as i32,
        yakuman: u32::from(s.yakuman()),
        payment: Some(payment),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(hand: &str, win: &str) -> ScoreMahjongHandRequest {
        ScoreMahjongHandRequest {
            hand: hand.into(),
            win_tile: win.into(),
            seat_wind: "2z".into(),
            round_wind: "1z".into(),
            ..Default::default()
        }
    }

    #[test]
    fn bad_fields_are_named() {
        let field = |r: ScoreMahjongHandRequest| {
            let status = score_hand(Request::new(r)).unwrap_err();
            assert_eq!(status.code(), tonic::Code::InvalidArgument);
            status.message().split(':').next().unwrap().to_string()
        };
        assert_eq!(field(request("123m456p789s1122x", "2z")), "hand");
        assert_eq!(field(request("123m456p789s11222z", "3z")), "win_tile");
        assert_eq!(field(request("123m456p789s112z", "2z")), "hand");
        let mut r = request("123m456p789s11222z", "2z");
        r.seat_wind = "5z".into();
        assert_eq!(field(r), "seat_wind");
        let mut r = request("123m456p789s11222z", "2z");
        r.ippatsu = true;
        let status = score_hand(Request::new(r)).unwrap_err();
        // The field once, then the fault (the message is "FIELD: REASON").
        assert_eq!(status.message(), "ippatsu: ippatsu without riichi");
        let mut r = request("123m456p789s11222z", "2z");
        r.ruleset = proto::Ruleset::Sichuan as i32;
        assert_eq!(field(r), "ruleset");
        // A set has one red five per suit.
        assert_eq!(field(request("123m400p789s11222z", "2z")), "hand");
    }

    #[test]
    fn a_hand_without_yaku_answers_can_win_false_with_the_reason() {
        // A closed ron without riichi of 123m 456p 789s 444z 11z, won on North by a
        // South seat in the East round: North is no value triplet, an East pair gives fu
        // but no yaku, and 123m breaks tanyao. Complete, but no yaku.
        let r = request("123m456p789s11444z", "4z");
        let answer = score_hand(Request::new(r)).unwrap().into_inner();
        assert!(!answer.can_win);
        assert!(answer.reason.contains("no yaku"), "{}", answer.reason);
    }
}
