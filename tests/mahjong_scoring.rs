//! Riichi scoring against an independent scorer: PyPI `mahjong` 2.1.0's
//! `HandCalculator` (MahjongRepository/mahjong, validated by its authors on 11 million
//! Tenhou hands), set to Tenhou's options, on 6,000 random winning hands made by
//! `tools/mahjong/score_oracle.py` (provenance in `tests/data/README.md`), and
//! hand-worked cases with the rule that gives each figure.

use gameai::mahjong::scoring::{self, Limit, NoWin, Payment, WinFlags, WinInput};
use gameai::mahjong::tile::RedFives;
use gameai::mahjong::{Meld, MeldKind, Tile, TileCounts};
use serde_json::Value;

/// The red fives an mpsz text marks (`0m`, `0p`, `0s`).
fn red_of(text: &str) -> RedFives {
    TileCounts::parse_with_red_fives(text).unwrap().1
}

/// A request as the oracle file writes it, built into a [`WinInput`].
fn input_of(case: &Value) -> Result<WinInput, scoring::ScoreError> {
    let text = |k: &str| case[k].as_str().unwrap_or_default().to_string();
    let flag = |k: &str| case[k].as_bool().unwrap_or(false);
    let tiles = |s: &str| -> Vec<Tile> { s.parse::<TileCounts>().unwrap().tiles().collect() };
    let mut red = red_of(&text("hand"));
    let melds: Vec<Meld> = case["melds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let t = m["tiles"].as_str().unwrap();
            red = red.plus(&red_of(t));
            let kind = match m["kind"].as_str().unwrap() {
                "chi" => MeldKind::Chi,
                "pon" => MeldKind::Pon,
                "open_kan" => MeldKind::OpenKan,
                "added_kan" => MeldKind::AddedKan,
                _ => MeldKind::ClosedKan,
            };
            Meld::parse(kind, t).unwrap()
        })
        .collect();
    let flags = WinFlags {
        self_draw: flag("self_draw"),
        riichi: flag("riichi") || flag("double_riichi"),
        double_riichi: flag("double_riichi"),
        ippatsu: flag("ippatsu"),
        rinshan: flag("rinshan"),
        chankan: flag("chankan"),
        haitei: flag("haitei"),
        houtei: flag("houtei"),
        tenhou: flag("tenhou"),
        chiihou: flag("chiihou"),
    };
    WinInput::new(
        text("hand").parse().unwrap(),
        melds,
        text("win_tile").parse().unwrap(),
        text("seat_wind").parse().unwrap(),
        text("round_wind").parse().unwrap(),
        flags,
        tiles(&text("dora_indicators")),
        tiles(&text("ura_dora_indicators")),
        red,
    )
}

/// The `mahjong` package's yaku name as ours (its dora entries as `None`).
fn our_name(theirs: &str) -> Option<&'static str> {
    Some(match theirs {
        "Riichi" => "riichi",
        "Double Riichi" => "double_riichi",
        "Ippatsu" => "ippatsu",
        "Menzen Tsumo" => "menzen_tsumo",
        "Pinfu" => "pinfu",
        "Iipeiko" => "iipeikou",
        "Tanyao" => "tanyao",
        "Yakuhai (haku)" => "yakuhai_haku",
        "Yakuhai (hatsu)" => "yakuhai_hatsu",
        "Yakuhai (chun)" => "yakuhai_chun",
        "Haitei Raoyue" => "haitei",
        "Houtei Raoyui" => "houtei",
        "Rinshan Kaihou" => "rinshan",
        "Chankan" => "chankan",
        "Chiitoitsu" => "chiitoitsu",
        "Sanshoku Doujun" => "sanshoku_doujun",
        "Ittsu" => "ittsu",
        "Chantai" => "chanta",
        "Toitoi" => "toitoi",
        "San Ankou" => "sanankou",
        "Sanshoku Doukou" => "sanshoku_doukou",
        "San Kantsu" => "sankantsu",
        "Shou Sangen" => "shousangen",
        "Honroutou" => "honroutou",
        "Ryanpeikou" => "ryanpeikou",
        "Junchan" => "junchan",
        "Honitsu" => "honitsu",
        "Chinitsu" => "chinitsu",
        "Kokushi Musou" | "Kokushi Musou Juusanmen Matchi" => "kokushi_musou",
        "Suu Ankou" | "Suu Ankou Tanki" => "suuankou",
        "Daisangen" => "daisangen",
        "Shousuushii" => "shousuushii",
        "Dai Suushii" => "daisuushii",
        "Tsuu Iisou" => "tsuuiisou",
        "Ryuuiisou" => "ryuuiisou",
        "Chinroutou" => "chinroutou",
        "Chuuren Poutou" | "Daburu Chuuren Poutou" => "chuuren_poutou",
        "Suu Kantsu" => "suukantsu",
        "Tenhou" => "tenhou",
        "Chiihou" => "chiihou",
        n if n.starts_with("Yakuhai (seat wind") => "seat_wind",
        n if n.starts_with("Yakuhai (round wind") => "round_wind",
        "Dora" | "Aka Dora" | "Ura Dora" => return None,
        other => panic!("yaku {other} has no name here"),
    })
}

/// Our answer in the oracle's terms: an error name, or han, fu, payments and yaku.
fn ours(case: &Value) -> Value {
    let input = match input_of(case) {
        Ok(i) => i,
        Err(e) => return serde_json::json!({ "error": format!("invalid: {e}") }),
    };
    match scoring::score(&input) {
        Err(NoWin::NotComplete) => serde_json::json!({ "error": "hand_not_winning" }),
        Err(NoWin::NoYaku) => serde_json::json!({ "error": "no_yaku" }),
        Ok(s) => {
            let (main, additional) = match s.payment {
                Payment::Ron { from_discarder } => (from_discarder, 0),
                Payment::DealerTsumo { from_each } => (from_each, from_each),
                Payment::NonDealerTsumo {
                    from_dealer,
                    from_each_non_dealer,
                } => (from_dealer, from_each_non_dealer),
            };
            let mut yaku: Vec<(String, u8)> = s
                .yaku
                .iter()
                .map(|(y, h)| (y.name().to_string(), *h))
                .collect();
            yaku.sort();
            serde_json::json!({
                "han": s.han, "fu": s.fu, "main": main, "additional": additional,
                "total": s.points(), "yaku": yaku,
                "dora": s.dora + s.red_dora + s.ura_dora,
            })
        }
    }
}

/// The oracle's answer in the same terms (its dora entries summed apart).
fn theirs(expect: &Value) -> Value {
    if let Some(e) = expect["error"].as_str() {
        let e = if e.contains("not_allowed") {
            "invalid"
        } else {
            e
        };
        return serde_json::json!({ "error": e });
    }
    let mut dora = 0u64;
    let mut yaku: Vec<(String, u64)> = Vec::new();
    for y in expect["yaku"].as_array().unwrap() {
        let han = y[1].as_u64().unwrap();
        match our_name(y[0].as_str().unwrap()) {
            Some(n) => yaku.push((n.to_string(), han)),
            None => dora += han,
        }
    }
    yaku.sort();
    serde_json::json!({
        "han": expect["han"], "fu": expect["fu"], "main": expect["main"],
        "additional": expect["additional"], "total": expect["total"], "yaku": yaku,
        "dora": dora,
    })
}

/// The documented rule differences from the `mahjong` package: a line where the
/// package departs from Tenhou's rules, named by the rule, never a tolerance.
///
/// Empty: on 230,000 further hands (seeds 5, 7, 23 and rare-case seeds 3, 11, 41; see
/// docs/experiments/2026-12-06-scoring.md) every disagreement was ours and fixed (a
/// yakuman kept over a counted yakuman of the same value; a yakuman's fu from pinfu's
/// shape) or the generator's (a first-draw win flagged with riichi or haitei, which
/// the package scores and the rules forbid: the generator no longer draws them, and
/// `a_first_draw_win_is_never_on_the_last_tile_nor_after_riichi` pins our refusal).
fn excepted(_case: &Value, _ours: &Value, _theirs: &Value) -> bool {
    false
}

#[test]
fn every_oracle_hand_scores_as_the_mahjong_package_scores_it() {
    // `SCORING_ORACLE_FILE=/tmp/big.jsonl` compares a larger sample made with another
    // seed (`score_oracle.py --hands 50000 --seed 7 --out /tmp/big.jsonl`) instead.
    let other = std::env::var("SCORING_ORACLE_FILE").ok();
    let data = match &other {
        Some(path) => std::fs::read_to_string(path).unwrap(),
        None => include_str!("data/riichi_scores_mahjong.jsonl").to_string(),
    };
    let mut checked = 0;
    let mut differ = Vec::new();
    for (line_no, line) in data.lines().enumerate() {
        let row: Value = serde_json::from_str(line).unwrap();
        let (a, b) = (ours(&row["case"]), theirs(&row["mahjong"]));
        // A request the oracle refuses as impossible we refuse as invalid.
        let agree = a == b
            || (b["error"] == "invalid"
                && a["error"]
                    .as_str()
                    .is_some_and(|e| e.starts_with("invalid")))
            || excepted(&row["case"], &a, &b);
        if !agree {
            differ.push(format!(
                "line {}: {}\n  ours   {a}\n  theirs {b}",
                line_no + 1,
                row["case"]
            ));
        }
        checked += 1;
    }
    if other.is_none() {
        assert_eq!(checked, 6000, "the oracle file holds 6,000 hands");
    }
    assert!(
        differ.is_empty(),
        "{} of {checked} hands differ; the first ones:\n{}",
        differ.len(),
        differ
            .iter()
            .take(if std::env::var_os("SCORING_ALL").is_some() {
                usize::MAX
            } else {
                12
            })
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// A hand-worked case: `hand` (winning tile included), melds, winning tile, seat and
/// round wind, flags.
fn worked(
    hand: &str,
    melds: &[(MeldKind, &str)],
    win: &str,
    seat: &str,
    round: &str,
    flags: WinFlags,
) -> Result<scoring::Score, NoWin> {
    let melds = melds
        .iter()
        .map(|&(k, t)| Meld::parse(k, t).unwrap())
        .collect();
    let input = WinInput::new(
        hand.parse().unwrap(),
        melds,
        win.parse().unwrap(),
        seat.parse().unwrap(),
        round.parse().unwrap(),
        flags,
        vec![],
        vec![],
        red_of(hand),
    )
    .unwrap();
    scoring::score(&input)
}

const RON: WinFlags = WinFlags {
    self_draw: false,
    riichi: false,
    double_riichi: false,
    ippatsu: false,
    rinshan: false,
    chankan: false,
    haitei: false,
    houtei: false,
    tenhou: false,
    chiihou: false,
};

#[test]
fn four_han_thirty_fu_is_not_rounded_up_to_mangan() {
    // Riichi, ippatsu and tanyao on a closed ron of 234m 567m 345p 666s 88p, won on 2m
    // (234m waiting on 2m or 5m: ryanmen, no fu): 3 han; the concealed triplet of simples
    // 666s (4 fu) and menzen ron (10): 20 + 10 + 4 = 34 -> 40 fu.
    // 3 han 40 fu non-dealer ron: 40 x 2^5 = 1,280 basic, x4 = 5,120 -> 5,200.
    let flags = WinFlags {
        riichi: true,
        ippatsu: true,
        ..RON
    };
    let s = worked("234567m345p666s88p", &[], "2m", "2z", "1z", flags).unwrap();
    assert_eq!((s.han, s.fu, s.points()), (3, 40, 5200));
    // 4 han 30 fu: riichi, ippatsu, tanyao, pinfu on a closed ron (20 + 10 = 30 fu):
    // 1,920 basic x 4 = 7,680 -> 7,700. Without kiriage it is not mangan (Tenhou).
    let s = worked("234567m345p678s88p", &[], "2m", "2z", "1z", flags).unwrap();
    assert_eq!(
        (s.han, s.fu, s.points(), s.limit),
        (4, 30, 7700, Limit::None)
    );
}

#[test]
fn pinfu_self_draw_is_twenty_fu_and_pays_four_hundred_and_seven_hundred() {
    // Menzen tsumo + pinfu (+ tanyao): 3 han 20 fu, basic 20 x 2^5 = 640; a non-dealer's
    // tsumo: the dealer pays 1,280 -> 1,300, each other 640 -> 700. Total 2,700.
    let flags = WinFlags {
        self_draw: true,
        ..RON
    };
    let s = worked("234567m345p678s88p", &[], "2m", "2z", "1z", flags).unwrap();
    assert_eq!((s.han, s.fu), (3, 20));
    assert_eq!(
        s.payment,
        Payment::NonDealerTsumo {
            from_dealer: 1300,
            from_each_non_dealer: 700
        }
    );
}

#[test]
fn an_open_hand_without_a_yaku_cannot_win() {
    // The call case made whole: pon of 5m, then 456p 789s 234s and the pair 66s,
    // won on 6s. No yaku: 789s breaks tanyao, no value triplet, open hand, so no win
    // however many dora it holds.
    let s = worked(
        "456p789s23466s",
        &[(MeldKind::Pon, "555m")],
        "6s",
        "2z",
        "1z",
        RON,
    );
    assert_eq!(s, Err(NoWin::NoYaku));
}

#[test]
fn thirteen_sided_thirteen_orphans_is_one_yakuman_under_tenhou_rules() {
    // Tenhou counts no double yakuman: 13 han, 8,000 basic, non-dealer ron 32,000.
    let s = worked("19m19p19s12345677z", &[], "7z", "2z", "1z", RON).unwrap();
    assert_eq!((s.han, s.points(), s.limit), (13, 32000, Limit::Yakuman(1)));
}

#[test]
fn seven_pairs_are_twenty_five_fu() {
    // Chiitoitsu 2 han, 25 fu flat: 25 x 2^4 = 400 basic, non-dealer ron 1,600.
    let s = worked("1133m4466p2288s55z", &[], "5z", "2z", "1z", RON).unwrap();
    assert_eq!((s.han, s.fu, s.points()), (2, 25, 1600));
}

#[test]
fn a_double_wind_pair_is_four_fu() {
    // East seat in the East round, pair of East (2 + 2 fu), kanchan 4m in 345m (2 fu),
    // menzen ron (10): 20 + 10 + 2 + 4 = 36 -> 40 fu. Riichi 1 han: a dealer's ron of
    // 1 han 40 fu is 40 x 2^3 x 6 = 1,920 -> 2,000.
    let flags = WinFlags {
        riichi: true,
        ..RON
    };
    let s = worked("345m678p234789s11z", &[], "4m", "1z", "1z", flags).unwrap();
    assert_eq!((s.han, s.fu, s.points()), (1, 40, 2000));
}

#[test]
fn red_fives_are_read_from_the_text() {
    assert_eq!(red_of("0m55p0s"), RedFives([1, 0, 1]));
    assert_eq!(red_of("055M"), RedFives([1, 0, 0]));
}

// Hands from public bug reports against riichi scoring libraries. Each expected figure
// is worked by hand from the rules (Tenhou's: fu 20 base, +10 closed ron, +2 self-draw,
// +2 kanchan / penchan / tanki; triplets 2 simple / 4 terminal or honour, doubled when
// concealed, x4 for a kan; basic points fu x 2^(han + 2); the discarder pays 4x basic,
// 6x for a dealer; rounded up to 100), not taken from any library.

/// [`worked`] with dora and ura dora indicators.
#[allow(clippy::too_many_arguments)]
fn worked_with_dora(
    hand: &str,
    melds: &[(MeldKind, &str)],
    win: &str,
    seat: &str,
    round: &str,
    flags: WinFlags,
    dora: &str,
    ura: &str,
) -> Result<scoring::Score, NoWin> {
    let tiles = |s: &str| -> Vec<Tile> { s.parse::<TileCounts>().unwrap().tiles().collect() };
    let melds = melds
        .iter()
        .map(|&(k, t)| Meld::parse(k, t).unwrap())
        .collect();
    let input = WinInput::new(
        hand.parse().unwrap(),
        melds,
        win.parse().unwrap(),
        seat.parse().unwrap(),
        round.parse().unwrap(),
        flags,
        tiles(dora),
        tiles(ura),
        red_of(hand),
    )
    .unwrap();
    scoring::score(&input)
}

fn yaku_of(s: &scoring::Score) -> Vec<scoring::Yaku> {
    let mut y: Vec<_> = s.yaku.iter().map(|&(y, _)| y).collect();
    y.sort_by_key(|y| y.name());
    y
}

const TSUMO: WinFlags = WinFlags {
    self_draw: true,
    ..RON
};

#[test]
fn report_mahjong_40_terminal_triplet_or_sequence_reading_both_thirty_fu() {
    // MahjongRepository/mahjong issue 40: 234m 11123456777s, self-drawn 4s, closed, a
    // non-dealer. Readings: 111s 234s 567s 77s (concealed terminal triplet 8 fu, 4s
    // ends 23s: ryanmen) = 20 + 8 + 2 tsumo = 30; or 11s 123s 456s 777s (concealed
    // simple triplet 4 fu) = 26 -> 30. No all-sequence reading, so no pinfu: menzen
    // tsumo only, 1 han 30 fu: basic 240, the dealer pays 480 -> 500, others 300.
    let s = worked("234m11123456777s", &[], "4s", "2z", "1z", TSUMO).unwrap();
    assert_eq!((s.han, s.fu), (1, 30));
    assert_eq!(yaku_of(&s), vec![scoring::Yaku::MenzenTsumo]);
    assert_eq!(
        s.payment,
        Payment::NonDealerTsumo {
            from_dealer: 500,
            from_each_non_dealer: 300
        }
    );
}

#[test]
fn report_mahjong_41_a_triplet_completed_on_a_discard_is_open() {
    // MahjongRepository/mahjong issue 41 (the package said 40 fu): chi 123m, concealed
    // 11123444m 555p, houtei ron on 1m. Reading 111m 234m 44m: the 1m triplet was
    // completed on the discard, so it counts as open (terminal 4 fu), 555p concealed
    // (4): 20 + 8 = 28 -> 30 (an open hand gets no menzen ron 10). Reading 11m 123m
    // 444m: 444m concealed (4) + 555p (4) = 28 -> 30. Houtei 1 han 30 fu, non-dealer
    // ron: 240 x 4 = 960 -> 1,000.
    let flags = WinFlags {
        houtei: true,
        ..RON
    };
    let s = worked(
        "11123444m555p",
        &[(MeldKind::Chi, "123m")],
        "1m",
        "2z",
        "1z",
        flags,
    )
    .unwrap();
    assert_eq!((s.han, s.fu, s.points()), (1, 30, 1000));
    assert_eq!(yaku_of(&s), vec![scoring::Yaku::Houtei]);
}

#[test]
fn report_horneds_28_the_kanchan_reading_is_kept_when_it_is_worth_more() {
    // klen/mahjong.horneds.com issue 28: 678s 678s 789s, North triplet, 88m, self-drawn
    // 8s by a South seat in the East round (North no value). 8s read in 7_9s is a
    // kanchan (2 fu); read as the end of 67s it is ryanmen. A hand scores its most
    // valuable reading: 20 + 2 tsumo + 2 kanchan + 8 (concealed honour triplet) = 32
    // -> 40 fu. Menzen tsumo + iipeikou: 2 han 40 fu, basic 640: 1,300 / 700.
    let s = worked("88m667778889s444z", &[], "8s", "2z", "1z", TSUMO).unwrap();
    assert_eq!((s.han, s.fu), (2, 40));
    assert_eq!(
        yaku_of(&s),
        vec![scoring::Yaku::Iipeikou, scoring::Yaku::MenzenTsumo]
    );
    assert_eq!(
        s.payment,
        Payment::NonDealerTsumo {
            from_dealer: 1300,
            from_each_non_dealer: 700
        }
    );
}

#[test]
fn report_mahjong_13_nine_gates_won_on_a_terminal_is_one_yakuman_on_tenhou() {
    // MahjongRepository/mahjong issue 13: 1112345678999m waits on all nine tiles, so
    // 11123456789999m (won on 9m) and 11112345678999m (won on 1m) are the pure nine
    // gates. Tenhou has no double yakuman: one yakuman, non-dealer ron 8,000 x 4.
    for (hand, win) in [("11123456789999m", "9m"), ("11112345678999m", "1m")] {
        let s = worked(hand, &[], win, "2z", "1z", RON).unwrap();
        assert_eq!(yaku_of(&s), vec![scoring::Yaku::ChuurenPoutou], "{hand}");
        assert_eq!((s.points(), s.limit), (32000, Limit::Yakuman(1)), "{hand}");
    }
}

#[test]
fn report_mahjax_17_an_honour_pair_wait_is_no_pinfu() {
    // nissymori/mahjax pull request 17: 567m 123p 567p 234s + East pair, riichi, ron on
    // East by a South seat in the South round (East no value). The wait is a pair wait
    // (tanki), so no pinfu: 20 + 10 menzen ron + 2 tanki = 32 -> 40. Riichi 1 han 40 fu:
    // 320 x 4 = 1,280 -> 1,300.
    let flags = WinFlags {
        riichi: true,
        ..RON
    };
    let s = worked("567m123567p234s11z", &[], "1z", "2z", "2z", flags).unwrap();
    assert_eq!((s.han, s.fu, s.points()), (1, 40, 1300));
    assert_eq!(yaku_of(&s), vec![scoring::Yaku::Riichi]);
}

#[test]
fn report_riichienv_211_single_wait_four_concealed_triplets_is_one_yakuman() {
    // smly/RiichiEnv issue 211: under its Tenhou preset a suuankou tanki is a single
    // yakuman (Tenhou has no double yakuman). 111m 333p 555s 777s + 9s, ron on 9s:
    // the four triplets were all concealed before the win, non-dealer ron 32,000.
    let s = worked("111m333p55577799s", &[], "9s", "2z", "1z", RON).unwrap();
    assert_eq!(yaku_of(&s), vec![scoring::Yaku::Suuankou]);
    assert_eq!((s.points(), s.limit), (32000, Limit::Yakuman(1)));
}

#[test]
fn report_riichienv_238_different_yakuman_stack_and_seven_pairs_yakuman_drop_the_rest() {
    // smly/RiichiEnv pull request 238: thirteen orphans stacks with tenhou (two
    // different yakuman: Tenhou pays both), and a seven-pairs yakuman carries no
    // ordinary yaku or dora. The dealer's tenhou with thirteen orphans: 2 x 16,000 from
    // each = 32,000 all, 96,000.
    let flags = WinFlags {
        tenhou: true,
        ..TSUMO
    };
    let s = worked("19m19p19s12345677z", &[], "7z", "1z", "1z", flags).unwrap();
    assert_eq!(
        yaku_of(&s),
        vec![scoring::Yaku::KokushiMusou, scoring::Yaku::Tenhou]
    );
    assert_eq!(s.payment, Payment::DealerTsumo { from_each: 32000 });
    assert_eq!(s.limit, Limit::Yakuman(2));
    // All honours as seven pairs, riichi and a dora indicator pointing at East: one
    // yakuman (tsuuiisou), no riichi, no chiitoitsu, no dora: non-dealer ron 32,000.
    let flags = WinFlags {
        riichi: true,
        ..RON
    };
    let s = worked_with_dora("11223344556677z", &[], "7z", "2z", "1z", flags, "4z", "").unwrap();
    assert_eq!(yaku_of(&s), vec![scoring::Yaku::Tsuuiisou]);
    assert_eq!((s.dora, s.points()), (0, 32000));
}

#[test]
fn report_mahjong_3_twenty_eight_han_is_one_counted_yakuman_on_tenhou() {
    // MahjongRepository/mahjong issue 3: 4446667788m + 7m with a closed kan 2222m,
    // riichi, ron on 7m; dora and ura dora indicators 1m, 1m (so 2m is dora: 4 tiles x
    // 2 indicators x 2 = 16). Yaku: riichi 1, tanyao 1, chinitsu 6 (closed), toitoi 2,
    // sanankou 2 (444m, 666m and the closed kan; 777m was completed on the discard) =
    // 12, + 16 dora = 28 han. Tenhou limits counted yakuman to one: 32,000.
    let flags = WinFlags {
        riichi: true,
        ..RON
    };
    let s = worked_with_dora(
        "44466677788m",
        &[(MeldKind::ClosedKan, "2222m")],
        "7m",
        "2z",
        "1z",
        flags,
        "11m",
        "11m",
    )
    .unwrap();
    assert_eq!((s.han, s.dora + s.ura_dora), (28, 16));
    assert_eq!((s.points(), s.limit), (32000, Limit::CountedYakuman));
}

#[test]
fn a_yakuman_reading_is_kept_over_a_counted_yakuman_of_the_same_value() {
    // 33s 444s 555s 666s 777s (one 5s red), self-drawn 6s with riichi by a non-dealer,
    // dora indicator 4s: four concealed triplets (suuankou), a yakuman, 8,000 basic:
    // 16,000 / 8,000. The same tiles read 33s 456s 456s 456s 777s are chinitsu 6,
    // tanyao 1, iipeikou 1, riichi 1, tsumo 1 = 10 han, + 3 dora (5s) + 1 red = 14: a
    // counted yakuman of the same 32,000. A hand that holds a yakuman is that yakuman (the
    // other yaku and the dora do not count); PyPI `mahjong` says suuankou too.
    let flags = WinFlags {
        riichi: true,
        ..TSUMO
    };
    let s = worked_with_dora("03344455666777s", &[], "6s", "2z", "3z", flags, "4s", "").unwrap();
    assert_eq!(yaku_of(&s), vec![scoring::Yaku::Suuankou]);
    assert_eq!((s.limit, s.points(), s.dora), (Limit::Yakuman(1), 32000, 0));
}

#[test]
fn a_first_draw_win_is_never_on_the_last_tile_nor_after_riichi() {
    // Tenhou (the dealer's first draw) and chiihou (a non-dealer's first draw, before
    // any call) happen with the wall full: never haitei (the last tile), never after
    // riichi. PyPI `mahjong` 2.1.0 scores such a request (119m19p19s1234567z chiihou +
    // haitei as 64,000); we refuse it as an invalid flag combination.
    let input = |tenhou: bool, riichi: bool, haitei: bool, seat: &str| {
        let flags = WinFlags {
            tenhou,
            chiihou: !tenhou,
            riichi,
            haitei,
            ..TSUMO
        };
        WinInput::new(
            "119m19p19s1234567z".parse().unwrap(),
            vec![],
            "9s".parse().unwrap(),
            seat.parse().unwrap(),
            "4z".parse().unwrap(),
            flags,
            vec![],
            vec![],
            RedFives::NONE,
        )
    };
    assert!(input(false, false, true, "3z").is_err());
    assert!(input(true, true, false, "1z").is_err());
    assert!(input(false, true, false, "3z").is_err());
    let s = scoring::score(&input(false, false, false, "3z").unwrap()).unwrap();
    assert_eq!(
        yaku_of(&s),
        vec![scoring::Yaku::Chiihou, scoring::Yaku::KokushiMusou]
    );
    // Two different yakuman stack: a non-dealer's double yakuman, 16,000 + 2 x 8,000.
    assert_eq!(s.points(), 32000 * 2);
}

#[test]
fn report_mahjongai_49_and_horneds_4_a_closed_honour_kan_is_32_fu_and_no_red_five() {
    // zhangjk95/MahjongAI issue 49: a closed kan of white dragons was counted as a red
    // five; klen/mahjong.horneds.com issue 4: a closed honour kan scored as a concealed
    // triplet (8 fu) instead of 32. 234m 678p 345s 88s with a closed kan 5555z, riichi,
    // ron on 3s (45s: ryanmen), a non-dealer: riichi 1 + haku 1 = 2 han, no dora (5z
    // is no five); 20 + 10 menzen ron + 32 (honour, concealed, quad: 2 x2 x2 x4) = 62
    // -> 70 fu. 70 x 2^4 = 1,120 x 4 = 4,480 -> 4,500.
    let flags = WinFlags {
        riichi: true,
        ..RON
    };
    let s = worked(
        "234m678p34588s",
        &[(MeldKind::ClosedKan, "5555z")],
        "3s",
        "2z",
        "1z",
        flags,
    )
    .unwrap();
    assert_eq!((s.han, s.fu, s.red_dora, s.points()), (2, 70, 0, 4500));
    assert_eq!(
        yaku_of(&s),
        vec![scoring::Yaku::Riichi, scoring::Yaku::YakuhaiHaku]
    );
}
