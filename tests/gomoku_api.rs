//! `SuggestGomokuMove` and `AnalyzeGomokuPosition` through a real gRPC client against an
//! in-process server: answers, and the INVALID_ARGUMENT faults naming their field.

mod common;

use common::assert_invalid_argument;
use gameai::proto::gomoku_service_client::GomokuServiceClient;
use gameai::proto::{
    AnalyzeGomokuPositionRequest, AnalyzeGomokuPositionResponse, ForbiddenKind, GomokuPosition,
    GomokuRule, GomokuThreatKind, Stone, SuggestGomokuMoveRequest, SuggestGomokuMoveResponse,
};

fn moves(m: &str) -> GomokuPosition {
    GomokuPosition {
        moves: m.to_string(),
        ..Default::default()
    }
}

fn stones(black: &[&str], white: &[&str], to_move: Stone) -> GomokuPosition {
    GomokuPosition {
        black: black.iter().map(|s| s.to_string()).collect(),
        white: white.iter().map(|s| s.to_string()).collect(),
        to_move: to_move as i32,
        ..Default::default()
    }
}

/// A server on an ephemeral port. The engines' tables are built first, outside the
/// harness's 10 s wait for SERVING (a loaded machine can need longer in debug builds).
async fn server() -> common::TestServer {
    tokio::task::spawn_blocking(|| {
        gameai::mahjong::tables::init();
        gameai::gomoku::patterns::init();
    })
    .await
    .unwrap();
    common::start_default().await
}

async fn suggest(
    server: &common::TestServer,
    position: GomokuPosition,
    rule: GomokuRule,
    budget_ms: u32,
) -> Result<SuggestGomokuMoveResponse, tonic::Status> {
    GomokuServiceClient::new(server.channel.clone())
        .suggest_gomoku_move(SuggestGomokuMoveRequest {
            position: Some(position),
            rule: rule as i32,
            budget_ms,
            alternatives: 0,
        })
        .await
        .map(|r| r.into_inner())
}

async fn analyze(
    server: &common::TestServer,
    position: GomokuPosition,
    rule: GomokuRule,
) -> Result<AnalyzeGomokuPositionResponse, tonic::Status> {
    GomokuServiceClient::new(server.channel.clone())
        .analyze_gomoku_position(AnalyzeGomokuPositionRequest {
            position: Some(position),
            rule: rule as i32,
        })
        .await
        .map(|r| r.into_inner())
}

#[tokio::test]
async fn suggest_takes_a_five_and_says_so() {
    let server = server().await;
    // Black h8 h9 h10 h11, white i8 i9 i10 j8: black to move completes h7 or h12.
    let r = suggest(
        &server,
        moves("h8i8h9i9h10i10h11j8"),
        GomokuRule::Freestyle,
        200,
    )
    .await
    .unwrap();
    assert!(r.point == "h7" || r.point == "h12", "{r:?}");
    assert_eq!(r.forced_win_in, 1);
    assert_eq!(r.score, 29_999);
    assert_eq!(r.principal_variation, vec![r.point.clone()]);
    assert_eq!(r.winning_line, vec![r.point.clone()]);
    assert_eq!(r.reason, "makes a five");
    assert!(r.stats.unwrap().exact);
}

#[tokio::test]
async fn suggest_blocks_a_four_and_reports_the_search() {
    let server = server().await;
    // White's four f8 g9 h10 i11 (j12 black) must be blocked at e7.
    let r = suggest(
        &server,
        moves("h8h7i7g9h6g5g7i6g8f8f6e5f5j10i10i11k9h10j12l10"),
        GomokuRule::Freestyle,
        150,
    )
    .await
    .unwrap();
    assert_eq!(r.point, "e7");
    assert_eq!(r.reason, "blocks the opponent's four");
    assert_eq!(r.principal_variation.first(), Some(&"e7".to_string()));
    assert!(r.depth >= 1, "{r:?}");
    let stats = r.stats.unwrap();
    assert!(stats.nodes > 0);
    assert!(stats.budget_ms <= 150);
    assert!(r.hash_bytes > 0);
}

#[tokio::test]
async fn suggest_on_an_empty_board_plays_the_centre_of_any_size() {
    let server = server().await;
    for (size, centre) in [(0, "h8"), (15, "h8"), (20, "k11"), (5, "c3"), (22, "l12")] {
        let position = GomokuPosition {
            size,
            ..Default::default()
        };
        let r = suggest(&server, position, GomokuRule::Renju, 50)
            .await
            .unwrap();
        assert_eq!(r.point, centre, "size {size}");
    }
}

#[tokio::test]
async fn suggest_refuses_finished_games() {
    let server = server().await;
    let over = suggest(
        &server,
        moves("a1b1a2b2a3b3a4b4a5"),
        GomokuRule::Freestyle,
        50,
    )
    .await
    .unwrap_err();
    assert_invalid_argument(
        &over,
        "position",
        "the game is already over: black has a five",
    );
    // A full 5x5 board without a five: rows alternate so that no line has five of one
    // colour (checked by the engine): "no move".
    let full = full_5x5();
    let status = suggest(&server, full, GomokuRule::Freestyle, 50)
        .await
        .unwrap_err();
    assert_invalid_argument(&status, "position", "no move: the board is full (a draw)");
}

/// A full 5x5 board with no five: rows 1, 3, 5 read XXOOX and rows 2, 4 OOXXO (13 black,
/// 12 white): no row, column or diagonal holds five of one colour.
fn full_5x5() -> GomokuPosition {
    let mut black = Vec::new();
    let mut white = Vec::new();
    for y in 1..=5 {
        for (i, x) in ['a', 'b', 'c', 'd', 'e'].into_iter().enumerate() {
            let row_kind = y % 2 == 1;
            let col_black = matches!(i, 0 | 1 | 4);
            let p = format!("{x}{y}");
            if row_kind == col_black {
                black.push(p);
            } else {
                white.push(p);
            }
        }
    }
    GomokuPosition {
        size: 5,
        black,
        white,
        to_move: Stone::Unspecified as i32,
        ..Default::default()
    }
}

#[tokio::test]
async fn bad_positions_name_their_field() {
    let server = server().await;
    let cases: Vec<(GomokuPosition, &str, &str)> = vec![
        (moves("h8h8"), "position.moves", "point h8 is taken twice"),
        (
            moves("h8p1"),
            "position.moves",
            "point p1 is off the 15x15 board",
        ),
        (moves("h8?"), "position.moves", "'?' is not a column letter"),
        (
            moves("a1b1a2b2a3b3a4b4a5b5"),
            "position.moves",
            "move 10 (b5) comes after black already won",
        ),
        (
            GomokuPosition {
                size: 23,
                ..Default::default()
            },
            "position.size",
            "board size 23 is not in 5..22",
        ),
        (
            stones(&["h8", "i9"], &["h8"], Stone::White),
            "position.white[0]",
            "point h8 is taken twice",
        ),
        (
            stones(&["h8", "q9"], &[], Stone::White),
            "position.black[1]",
            "point q9 is off the 15x15 board",
        ),
        (
            stones(&["h8", "i9", "j9"], &[], Stone::Unspecified),
            "position",
            "3 black and 0 white stones cannot occur with either side to move (black has as \
             many stones as white, or one more)",
        ),
        (
            stones(&["h8"], &[], Stone::Black),
            "position.to_move",
            "1 black and 0 white stones cannot occur with black to move (black has as many \
             stones as white when black is to move, one more when white is)",
        ),
        (
            GomokuPosition {
                moves: "h8".into(),
                black: vec!["h8".into()],
                ..Default::default()
            },
            "position",
            "give either moves or black and white point lists, not both",
        ),
        (
            GomokuPosition {
                moves: "h8".into(),
                to_move: Stone::Black as i32,
                ..Default::default()
            },
            "position.to_move",
            "1 moves leave white to move, not black",
        ),
    ];
    for (position, field, reason) in cases {
        let status = suggest(&server, position.clone(), GomokuRule::Freestyle, 50)
            .await
            .unwrap_err();
        assert_invalid_argument(&status, field, reason);
        let status = analyze(&server, position, GomokuRule::Freestyle)
            .await
            .unwrap_err();
        assert_invalid_argument(&status, field, reason);
    }
    let status = GomokuServiceClient::new(server.channel.clone())
        .analyze_gomoku_position(AnalyzeGomokuPositionRequest {
            position: Some(moves("h8")),
            rule: 9,
        })
        .await
        .unwrap_err();
    assert_invalid_argument(&status, "rule", "9 is not a GomokuRule value");
}

#[tokio::test]
async fn analyze_reports_the_winner_and_its_five() {
    let server = server().await;
    let r = analyze(&server, moves("a1b1a2b2a3b3a4b4a5"), GomokuRule::Standard)
        .await
        .unwrap();
    assert_eq!(r.winner, Stone::Black as i32);
    assert_eq!(r.winning_line, vec!["a1", "a2", "a3", "a4", "a5"]);
    assert!(!r.board_full);
    let full = analyze(&server, full_5x5(), GomokuRule::Freestyle)
        .await
        .unwrap();
    assert_eq!(full.winner, Stone::Unspecified as i32);
    assert!(full.board_full);
}

/// Line 6 of the golden file (Piskvork's checker): black to move has the double-threes
/// g6, i6 and j4, and no other forbidden point.
#[tokio::test]
async fn analyze_lists_black_forbidden_points_under_renju() {
    let server = server().await;
    let black = [
        "f7", "h2", "h4", "h5", "h6", "h9", "i7", "j5", "j6", "k5", "l3", "m6",
    ];
    let white = [
        "f2", "h8", "i2", "j9", "k3", "k7", "l7", "l9", "n3", "n7", "n8", "n10",
    ];
    let r = analyze(
        &server,
        stones(&black, &white, Stone::Black),
        GomokuRule::Renju,
    )
    .await
    .unwrap();
    let got: Vec<(String, i32)> = r
        .forbidden
        .iter()
        .map(|f| (f.point.clone(), f.kind))
        .collect();
    let three = ForbiddenKind::DoubleThree as i32;
    // Board order: row by row from a1 (j4 is in row 4, g6 and i6 in row 6).
    assert_eq!(
        got,
        vec![
            ("j4".into(), three),
            ("g6".into(), three),
            ("i6".into(), three)
        ]
    );
    assert_eq!(r.to_move, Stone::Black as i32);
    // Not under FREESTYLE.
    let free = analyze(
        &server,
        stones(&black, &white, Stone::Black),
        GomokuRule::Freestyle,
    )
    .await
    .unwrap();
    assert!(free.forbidden.is_empty());
}

#[tokio::test]
async fn analyze_lists_threats_and_a_losing_forbidden_move() {
    let server = server().await;
    // Black h8 i8 j8 (and a1): an open three with straight-four points g8 and k8. White
    // h9 i9 j9 k9 with g9 and l9 empty: a straight four, five points g9 and l9.
    let r = analyze(&server, moves("h8h9i8i9j8j9a1k9"), GomokuRule::Freestyle)
        .await
        .unwrap();
    let kinds = |t: &[gameai::proto::GomokuThreat]| {
        t.iter()
            .map(|x| (x.kind, x.stones.join(" "), x.points.join(" ")))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        kinds(&r.black_threats),
        vec![(
            GomokuThreatKind::OpenThree as i32,
            "h8 i8 j8".into(),
            "g8 k8".into()
        )]
    );
    assert_eq!(
        kinds(&r.white_threats),
        vec![(
            GomokuThreatKind::StraightFour as i32,
            "h9 i9 j9 k9".into(),
            "g9 l9".into()
        )]
    );
    // Renju: black a1 b1 c1 e1 f1, then d1 makes six in a row, a forbidden overline
    // that loses: white is the winner.
    let lost = analyze(&server, moves("a1a7b1b7c1c7e1d7f1e9d1"), GomokuRule::Renju)
        .await
        .unwrap();
    assert_eq!(lost.winner, Stone::White as i32);
    let f = lost.losing_forbidden_move.unwrap();
    assert_eq!(
        (f.point.as_str(), f.kind),
        ("d1", ForbiddenKind::Overline as i32)
    );
}
