//! Black-box: SuggestMahjongDiscard and SuggestMahjongCall through a real gRPC client
//! against a server on an ephemeral port. Expected figures are hand-worked in comments.

mod common;

use common::start_default;
use gameai::mahjong::rules::Ruleset as CoreRuleset;
use gameai::mahjong::strategy::play::{calibration_error, play_figure};
use gameai::mahjong::strategy::{Continuation as CoreContinuation, DiscardCandidate};
use gameai::mahjong::tile::Tile;
use gameai::mahjong::ukeire::Ukeire;
use gameai::proto::mahjong_service_client::MahjongServiceClient;
use gameai::proto::{
    CallAction, Continuation, From, Meld, MeldKind, ProbabilityMethod, Ruleset,
    SuggestMahjongCallRequest, SuggestMahjongDiscardRequest,
};
use tonic::Code;
use tonic::transport::Channel;

fn discard_request(hand: &str) -> SuggestMahjongDiscardRequest {
    SuggestMahjongDiscardRequest {
        hand: hand.into(),
        ..Default::default()
    }
}

fn call_request(hand: &str, offered: &str, from: From) -> SuggestMahjongCallRequest {
    SuggestMahjongCallRequest {
        hand: hand.into(),
        offered_tile: offered.into(),
        from: from as i32,
        ..Default::default()
    }
}

fn client(channel: &Channel) -> MahjongServiceClient<Channel> {
    MahjongServiceClient::new(channel.clone())
}

#[tokio::test]
async fn discard_ranks_every_tile_and_reports_exact_figures() {
    let server = start_default().await;
    let mut c = client(&server.channel);

    // 1239m456p789s1122z with one draw left: only discarding 9m leaves tenpai (waits 1z
    // and 2z, two unseen copies each); the pool is 136 - 14 = 122 tiles, so the best
    // candidate wins with probability 4/122.
    let response = c
        .suggest_mahjong_discard(SuggestMahjongDiscardRequest {
            draws_left: Some(1),
            ..discard_request("1239m456p789s1122z")
        })
        .await
        .unwrap()
        .into_inner();
    assert!(!response.is_winning);
    assert_eq!(response.discard, "9m");
    assert_eq!(response.draws_left, 1);
    // 12 distinct tiles: 1 2 3 9m, 4 5 6p, 7 8 9s, 1 2z.
    assert_eq!(response.candidates.len(), 12);
    let best = &response.candidates[0];
    assert_eq!(best.tile, "9m");
    assert_eq!(best.shanten, 0);
    assert!((best.win_probability - 4.0 / 122.0).abs() < 1e-15);
    assert_eq!(best.tenpai_probability, 1.0);
    let ukeire = best.ukeire.as_ref().unwrap();
    assert_eq!(ukeire.total, 4);
    let waits: Vec<(&str, u32)> = ukeire
        .tiles
        .iter()
        .map(|t| (t.tile.as_str(), t.count))
        .collect();
    assert_eq!(waits, vec![("1z", 2), ("2z", 2)]);
    assert_eq!(best.method(), ProbabilityMethod::Exact);
    assert_eq!(best.continuation(), Continuation::Optimal);
    assert_eq!(best.win_probability_stderr, 0.0);
    let stats = response.stats.unwrap();
    assert!(stats.exact);
    assert_eq!(stats.samples, 0);
    assert!(stats.budget_ms > 0);
    // The engine's own play on one draw is that optimum (play_win_probability passes
    // it through); every 1-shanten candidate needs two useful draws and gets 0.
    assert_eq!(
        response.play_win_probability_calibration_error,
        calibration_error(CoreRuleset::General)
    );
    for cand in &response.candidates {
        if cand.shanten == 0 {
            assert_eq!(cand.play_win_probability, Some(cand.win_probability));
        } else {
            assert_eq!(cand.play_win_probability, Some(0.0), "{cand:?}");
        }
    }

    // max_candidates trims the list; unset draws_left uses the documented default:
    // (122 unseen - 39 in others' hands) / 4 = 20 under GENERAL.
    let response = c
        .suggest_mahjong_discard(SuggestMahjongDiscardRequest {
            max_candidates: 3,
            ..discard_request("1239m456p789s1122z")
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(response.candidates.len(), 3);
    assert_eq!(response.draws_left, 20);
    assert_eq!(response.discard, "9m");

    // A winning hand says so.
    let response = c
        .suggest_mahjong_discard(discard_request("123m456p789s11122z"))
        .await
        .unwrap()
        .into_inner();
    assert!(response.is_winning);
}

#[tokio::test]
async fn an_exhausted_budget_still_gives_every_candidate_an_estimate_with_its_error() {
    let server = start_default().await;
    // 6-shanten junk with 17 draws and a 5 ms budget: far beyond the plan; every
    // candidate gets a simulated figure with a standard error, or an exact one.
    let response = client(&server.channel)
        .suggest_mahjong_discard(SuggestMahjongDiscardRequest {
            draws_left: Some(17),
            budget_ms: 5,
            ..discard_request("147m258p369s12345z")
        })
        .await
        .unwrap()
        .into_inner();
    let stats = response.stats.unwrap();
    assert!(!stats.exact);
    assert_eq!(stats.budget_ms, 5);
    assert!(stats.samples > 0);
    assert_eq!(response.candidates.len(), 14);
    for c in &response.candidates {
        assert!((0.0..=1.0).contains(&c.win_probability));
        assert!((0.0..=1.0).contains(&c.tenpai_probability));
        match c.method() {
            ProbabilityMethod::Simulated => {
                assert!(c.win_probability_stderr > 0.0, "{c:?}");
                assert!(c.tenpai_probability_stderr > 0.0, "{c:?}");
            }
            ProbabilityMethod::Exact => assert_eq!(c.win_probability_stderr, 0.0),
            // The server's hard deadline is seconds away: never the shape-only fallback;
            // without a table the figures are always needed.
            ProbabilityMethod::Unspecified
            | ProbabilityMethod::NotComputed
            | ProbabilityMethod::NotNeeded => {
                panic!("no figures: {c:?}")
            }
        }
        assert_ne!(c.continuation(), Continuation::Unspecified);
    }
}

/// The engine's-own-play figure: the library's map of each candidate's figures, with the
/// calibration error of the response, for concealed hands within 20 draws; hands with
/// melds and longer horizons get none (the OPTIMAL pass-through and the zero of a hand
/// no play can complete: `discard_ranks_every_tile_and_reports_exact_figures`).
#[tokio::test]
async fn play_win_probability_is_present_in_its_domain_only() {
    let server = start_default().await;
    let mut c = client(&server.channel);

    // 12 draws from a 2-shanten hand (simulated figures): every candidate's play figure
    // is the library's map of its own figures, so the service passes the map through
    // unchanged, with its standard error (which tier answers depends on the machine's
    // speed; the map's calibration is measured in BENCHMARKS.md, not here).
    let response = c
        .suggest_mahjong_discard(SuggestMahjongDiscardRequest {
            draws_left: Some(12),
            visible: "6m".into(),
            ruleset: Ruleset::Riichi as i32,
            ..discard_request("3667m23489p34688s")
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        response.play_win_probability_calibration_error,
        calibration_error(CoreRuleset::Riichi)
    );
    for cand in &response.candidates {
        let mut core = DiscardCandidate::shell(
            cand.tile.parse::<Tile>().unwrap(),
            cand.shanten as i8,
            Ukeire::default(),
        );
        core.win_probability = cand.win_probability;
        core.win_stderr = cand.win_probability_stderr;
        core.continuation = match cand.continuation() {
            Continuation::Optimal => CoreContinuation::Optimal,
            Continuation::Plan => CoreContinuation::Plan,
            Continuation::AdvanceOrThrow => CoreContinuation::AdvanceOrThrow,
            Continuation::Greedy => CoreContinuation::Greedy,
            Continuation::Unspecified => panic!("no continuation: {cand:?}"),
        };
        let want = play_figure(&core, CoreRuleset::Riichi, 0, 12).unwrap();
        assert_eq!(cand.play_win_probability, Some(want.win), "{cand:?}");
        assert_eq!(
            cand.play_win_probability_stderr,
            Some(want.stderr),
            "{cand:?}"
        );
        assert!((0.0..=1.0).contains(&want.win) && want.stderr >= 0.0);
    }

    // Melds, or a horizon beyond the fitted 20 draws: no figure, no calibration error.
    for request in [
        SuggestMahjongDiscardRequest {
            draws_left: Some(8),
            melds: vec![Meld {
                kind: MeldKind::Pon as i32,
                tiles: "777s".into(),
            }],
            ..discard_request("1239m456p1122z")
        },
        SuggestMahjongDiscardRequest {
            draws_left: Some(21),
            ..discard_request("1239m456p789s1122z")
        },
    ] {
        let response = c
            .suggest_mahjong_discard(request)
            .await
            .unwrap()
            .into_inner();
        assert!(response.play_win_probability_calibration_error.is_none());
        assert!(
            response.candidates.iter().all(
                |c| c.play_win_probability.is_none() && c.play_win_probability_stderr.is_none()
            )
        );
    }
}

/// Issue 11: a wait whose copies are all the player's own (hand and melds) is no wait.
#[tokio::test]
async fn dead_waits_count_the_players_own_copies() {
    let server = start_default().await;
    let mut c = client(&server.channel);
    let pon = |t: &str| Meld {
        kind: MeldKind::Pon as i32,
        tiles: t.into(),
    };
    // 45z with pons 111z 444z 555z 777z: discarding either leaves a single whose four
    // copies are the player's (dead), so both are 1-shanten. Of the 122 unseen tiles,
    // 120 give a live single wait (drawing 1z or 7z, the last copy of a pon, gives a dead
    // one), whose kind then has 3 copies left. Under the model (pool shrinking, 10
    // draws) the chance is the recursion v0(n, d, r) = (n-d)/n v1(n-1, 3, r-1) +
    // d/n v0(n-1, d-1, r-1), v1(n, c, r) = c/n + (n-c)/n v1(n-1, c, r-1), from
    // v0(122, 2, 10) = 0.20822347051855247 (exact rational arithmetic); no tegawari can
    // help (every single has at most 3 live copies), so the plan's figure is that value
    // (simulated with no error, or exact).
    let response = c
        .suggest_mahjong_discard(SuggestMahjongDiscardRequest {
            melds: vec![pon("111z"), pon("444z"), pon("555z"), pon("777z")],
            draws_left: Some(10),
            ..discard_request("45z")
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(response.candidates.len(), 2);
    for cand in &response.candidates {
        assert_eq!(cand.shanten, 1, "{cand:?}");
        assert_eq!(cand.ukeire.as_ref().unwrap().total, 120);
        assert!(
            (cand.win_probability - 0.208_223_470_518_552_47).abs() < 1e-12,
            "{cand:?}"
        );
        assert!(cand.win_probability_stderr < 1e-9, "{cand:?}");
    }
    // The call: 4z5z77z with pons 444z 555z 666z, 7z offered. Passing keeps a 1-shanten
    // hand with dead 4z and 5z; pon 777z and a discard leave the same dead single as
    // above (122 unseen after the pon; 6z and 7z each have one last copy, dead), so the
    // call is worth the same 0.2082.
    let r = c
        .suggest_mahjong_call(SuggestMahjongCallRequest {
            melds: vec![pon("444z"), pon("555z"), pon("666z")],
            draws_left: Some(10),
            ..call_request("4z5z77z", "7z", From::Across)
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.action(), CallAction::Pon, "{}", r.reason);
    assert_eq!(r.meld_tiles, "777z");
    assert!(
        (r.win_probability_with_call - 0.208_223_470_518_552_47).abs() < 1e-12,
        "{}",
        r.reason
    );
    assert!(r.win_probability_without_call < r.win_probability_with_call);
    // A wait whose copies are all visible elsewhere: 123m456p789s1122z waits on 1z and
    // 2z, all eight copies in hand and `visible`: tenpai, but no ukeire and, with one
    // draw, no chance to win.
    let response = c
        .suggest_mahjong_discard(SuggestMahjongDiscardRequest {
            visible: "1122z".into(),
            draws_left: Some(1),
            ..discard_request("1239m456p789s1122z")
        })
        .await
        .unwrap()
        .into_inner();
    let nine = response.candidates.iter().find(|c| c.tile == "9m").unwrap();
    assert_eq!(nine.shanten, 0);
    assert_eq!(nine.ukeire.as_ref().unwrap().total, 0);
    assert_eq!(nine.win_probability, 0.0);
    assert_eq!(nine.tenpai_probability, 1.0);
}

#[tokio::test]
async fn call_decisions() {
    let server = start_default().await;
    let mut c = client(&server.channel);

    // 123m456p789s1122z + 1z: 111z and 22z complete the hand — win on the discard.
    let r = c
        .suggest_mahjong_call(call_request("123m456p789s1122z", "1z", From::Across))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.action(), CallAction::Win);
    assert_eq!(r.win_probability_with_call, 1.0);
    assert_eq!(r.meld_tiles, "");

    // 55m456p789s2346s7z (1-shanten) with 1 draw left; pon 5m, then discard 7z:
    // 456p789s2346s is tenpai on 6s (234s + 6s tanki) and 9s (234s 678s + 9s tanki),
    // 3 unseen copies each; discarding 6s instead waits on 7z alone (3). Pool after
    // the offer: 136 - 13 - 1 = 122, so with the call P = 6/122; passing, the
    // 1-shanten hand cannot win with one draw.
    let r = c
        .suggest_mahjong_call(SuggestMahjongCallRequest {
            draws_left: Some(1),
            ..call_request("55m456p789s2346s7z", "5m", From::Across)
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.action(), CallAction::Pon, "{}", r.reason);
    assert_eq!(r.meld_tiles, "555m");
    assert_eq!(r.discard, "7z");
    let expect = 6.0 / 122.0;
    assert!(
        (r.win_probability_with_call - expect).abs() < 1e-15,
        "{} vs {expect}: {}",
        r.win_probability_with_call,
        r.reason
    );
    assert_eq!(r.win_probability_without_call, 0.0);
    assert!(r.stats.unwrap().exact);
    let with = r.with_call.unwrap();
    assert_eq!(with.method(), ProbabilityMethod::Exact);
    assert_eq!(with.continuation(), Continuation::Optimal);

    // The README's example: the same call with 2 draws. A separate brute force
    // (tools/mahjong/call_brute_force.py: Python, exact fractions, every draw from the
    // 122-tile pool as it shrinks, the best of every discard after each draw, its own
    // win check) gives 717/7381 = 0.0971413087657499 with the call, discarding 7z:
    //   python3 tools/mahjong/call_brute_force.py --hand 55m456p789s2346s7z \
    //       --offered 5m --meld 555m --draws 2
    // (its unit test checks the figure, tools/mahjong/test_call_brute_force.py). The
    // README showed 0.0963 from before the player's meld copies were counted.
    let r = c
        .suggest_mahjong_call(SuggestMahjongCallRequest {
            draws_left: Some(2),
            ..call_request("55m456p789s2346s7z", "5m", From::Across)
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.action(), CallAction::Pon, "{}", r.reason);
    assert_eq!(r.discard, "7z");
    let two_draws = 717.0 / 7381.0;
    assert!(
        (r.win_probability_with_call - two_draws).abs() < 1e-12,
        "{} vs {two_draws}",
        r.win_probability_with_call
    );

    // Chi is only from the left: 34m waiting, 5m offered from across cannot be called.
    let r = c
        .suggest_mahjong_call(call_request("34m456p789s2346s7z", "5m", From::Across))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.action(), CallAction::Pass);
    assert_eq!(r.win_probability_with_call, 0.0);

    // From the left the same 5m can be called as 345m; the chi leaves 456p789s2346s7z,
    // and discarding 7z is tenpai on 6s and 9s, as in the pon case.
    let r = c
        .suggest_mahjong_call(SuggestMahjongCallRequest {
            draws_left: Some(1),
            ..call_request("34m456p789s2346s7z", "5m", From::Left)
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.action(), CallAction::Chi, "{}", r.reason);
    assert_eq!(r.meld_tiles, "345m");
    assert_eq!(r.discard, "7z");
    assert!((r.win_probability_with_call - expect).abs() < 1e-15);

    // SICHUAN has no chi.
    let r = c
        .suggest_mahjong_call(SuggestMahjongCallRequest {
            draws_left: Some(2),
            ruleset: Ruleset::Sichuan as i32,
            ..call_request("34m456p789s23466s", "5m", From::Left)
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(r.action(), CallAction::Pass);
    assert_eq!(r.win_probability_with_call, 0.0);
}

async fn discard_error(
    c: &mut MahjongServiceClient<Channel>,
    req: SuggestMahjongDiscardRequest,
) -> String {
    let status = c.suggest_mahjong_discard(req).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{}", status.message());
    status.message().to_string()
}

async fn call_error(
    c: &mut MahjongServiceClient<Channel>,
    req: SuggestMahjongCallRequest,
) -> String {
    let status = c.suggest_mahjong_call(req).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{}", status.message());
    status.message().to_string()
}

#[tokio::test]
async fn bad_fields_are_invalid_argument_naming_the_field() {
    let server = start_default().await;
    let mut c = client(&server.channel);
    let ok = "1239m456p789s1122z";

    let cases: Vec<(SuggestMahjongDiscardRequest, &str)> = vec![
        // Tile count: 13 tiles is not 3n+2.
        (discard_request("123m456p789s1122z"), "hand: "),
        (discard_request("123m"), "hand: "),
        (discard_request("12x"), "hand: "),
        // A fifth 1z across hand and visible.
        (
            SuggestMahjongDiscardRequest {
                visible: "111z".into(),
                ..discard_request(ok)
            },
            "visible: ",
        ),
        (
            SuggestMahjongDiscardRequest {
                melds: vec![Meld {
                    kind: MeldKind::Unspecified as i32,
                    tiles: "555m".into(),
                }],
                ..discard_request("123m456p789s11z")
            },
            "melds[0].kind: ",
        ),
        (
            SuggestMahjongDiscardRequest {
                melds: vec![Meld {
                    kind: MeldKind::Chi as i32,
                    tiles: "124m".into(),
                }],
                ..discard_request("123m456p789s11z")
            },
            "melds[0].tiles: ",
        ),
        // Ruleset violations: honours and chi under SICHUAN.
        (
            SuggestMahjongDiscardRequest {
                ruleset: Ruleset::Sichuan as i32,
                ..discard_request(ok)
            },
            "hand: ",
        ),
        (
            SuggestMahjongDiscardRequest {
                ruleset: Ruleset::Sichuan as i32,
                melds: vec![Meld {
                    kind: MeldKind::Chi as i32,
                    tiles: "345m".into(),
                }],
                ..discard_request("123m456p789s11s")
            },
            "melds: ",
        ),
        (
            SuggestMahjongDiscardRequest {
                draws_left: Some(123),
                ..discard_request(ok)
            },
            "draws_left: ",
        ),
        (
            SuggestMahjongDiscardRequest {
                ruleset: 9,
                ..discard_request(ok)
            },
            "ruleset: ",
        ),
    ];
    for (req, field) in cases {
        let message = discard_error(&mut c, req).await;
        assert!(message.starts_with(field), "{message} (want {field})");
    }

    let wait = "123m456p789s1122z";
    let cases: Vec<(SuggestMahjongCallRequest, &str)> = vec![
        (
            call_request("1239m456p789s1122z", "1z", From::Left),
            "hand: ",
        ),
        (call_request(wait, "5", From::Left), "offered_tile: "),
        (call_request(wait, "56m", From::Left), "offered_tile: "),
        (
            SuggestMahjongCallRequest {
                visible: "11z".into(),
                ..call_request(wait, "1z", From::Left)
            },
            "offered_tile: ",
        ),
        (
            SuggestMahjongCallRequest {
                ruleset: Ruleset::Sichuan as i32,
                ..call_request("123m456p789s1122s", "1z", From::Left)
            },
            "offered_tile: ",
        ),
        (call_request(wait, "1z", From::Unspecified), "from: "),
        (
            SuggestMahjongCallRequest {
                from: 7,
                ..call_request(wait, "1z", From::Left)
            },
            "from: ",
        ),
        (
            SuggestMahjongCallRequest {
                draws_left: Some(123),
                ..call_request(wait, "5m", From::Left)
            },
            "draws_left: ",
        ),
    ];
    for (req, field) in cases {
        let message = call_error(&mut c, req).await;
        assert!(message.starts_with(field), "{message} (want {field})");
    }
}
