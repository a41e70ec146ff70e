//! `gameai.v1.GomokuService`: translation between the proto messages and the gomoku
//! engine (`crate::gomoku`), and validation of the request.
//!
//! Bad input is INVALID_ARGUMENT naming the field: `rule` (unknown value),
//! `position.size` (outside 5..22), `position` (both a move sequence and stone lists;
//! a finished game asked for a move), `position.moves` (notation, a point off the board
//! or taken twice, a move after the game ended), `position.black[i]` /
//! `position.white[i]` (notation, off the board, taken twice), `position.black` /
//! `position.white` (stone counts that fit neither side to move: the list with too many
//! stones), `position.to_move` (stone counts that fit only the other side to move).

use std::time::Instant;

use tonic::{Request, Response, Status};

use super::error::invalid_argument;
use super::{deadlines, run_blocking, run_or_fallback_with};
use crate::gomoku::analysis::{self, ThreatKind};
use crate::gomoku::point::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, parse_sequence};
use crate::gomoku::search::tt::table_bytes;
use crate::gomoku::search::{Bound, Limits, ScoredMove, Searcher};
use crate::gomoku::{Board, Color, ForbiddenKind, GomokuError, Point, Rule};
use crate::proto::gomoku_service_server::GomokuService;
use crate::proto::{
    self, AnalyzeGomokuPositionRequest, AnalyzeGomokuPositionResponse, SuggestGomokuMoveRequest,
    SuggestGomokuMoveResponse,
};

/// Handler of `gameai.v1.GomokuService`.
#[derive(Clone, Debug, Default)]
pub struct GomokuApi {}

#[tonic::async_trait]
impl GomokuService for GomokuApi {
    async fn suggest_gomoku_move(
        &self,
        request: Request<SuggestGomokuMoveRequest>,
    ) -> Result<Response<SuggestGomokuMoveResponse>, Status> {
        suggest_move(request).await
    }

    async fn analyze_gomoku_position(
        &self,
        request: Request<AnalyzeGomokuPositionRequest>,
    ) -> Result<Response<AnalyzeGomokuPositionResponse>, Status> {
        analyze_position(request).await
    }
}

/// How long the fallback search may take when the engine has not answered by the time
/// the answer is due ([`run_or_fallback_with`]), and its table.
const FALLBACK_BUDGET: std::time::Duration = std::time::Duration::from_millis(2);
const FALLBACK_TABLE_BYTES: usize = 1 << 16;

async fn suggest_move(
    request: Request<SuggestGomokuMoveRequest>,
) -> Result<Response<SuggestGomokuMoveResponse>, Status> {
    let started = Instant::now();
    let times = deadlines(&request, request.get_ref().budget_ms);
    let deadline = times.work;
    let req = request.into_inner();
    let rule = rule_from_proto(req.rule)?;
    let mut board = position_from_proto(req.position.as_ref(), rule)?;
    if let Some(winner) = board.winner() {
        let why = match board.forbidden_move() {
            Some((p, kind)) => {
                format!("black's {p} was a forbidden move ({kind}); {winner} has won")
            }
            None => format!("{winner} has a five"),
        };
        return Err(invalid_argument("position", GomokuError::GameOver(why)));
    }
    let budget = deadline.saturating_duration_since(started);
    let bytes = table_bytes(Some(budget), None);
    let mut quick = board.clone();
    let (result, fell_back) = run_or_fallback_with(
        times.answer,
        move || {
            let cut = Instant::now() + FALLBACK_BUDGET;
            let answer =
                Searcher::new(FALLBACK_TABLE_BYTES).search(&mut quick, &Limits::until(cut));
            (answer, true)
        },
        move || {
            let mut searcher = Searcher::new(bytes);
            (searcher.search(&mut board, &Limits::until(deadline)), false)
        },
    )
    .await?;
    let result = result.map_err(|e| invalid_argument("position", e))?;
    let wanted = if req.alternatives == 0 {
        5
    } else {
        req.alternatives as usize
    };
    let alternatives: Vec<proto::ScoredPoint> = result
        .root_moves
        .iter()
        .take(wanted.max(1))
        .map(scored_point)
        .collect();
    let names = |v: &[Point]| v.iter().map(Point::to_string).collect::<Vec<_>>();
    let pv = names(&result.pv);
    Ok(Response::new(SuggestGomokuMoveResponse {
        point: result.best.to_string(),
        alternatives,
        winning_line: if result.forced_win_in.is_some() {
            pv.clone()
        } else {
            Vec::new()
        },
        reason: if fell_back {
            format!(
                "the search had not answered when the answer was due; a {} ms search's move: {}",
                FALLBACK_BUDGET.as_millis(),
                result.reason.describe()
            )
        } else {
            result.reason.describe().to_string()
        },
        stats: Some(proto::ComputeStats {
            elapsed_ms: started.elapsed().as_secs_f64() * 1000.0,
            nodes: result.nodes,
            exact: result.exact,
            samples: 0,
            budget_ms: budget.as_millis().min(u128::from(u32::MAX)) as u32,
        }),
        score: result.score,
        principal_variation: pv,
        forced_win_in: result.forced_win_in.unwrap_or(0),
        forced_loss_in: result.forced_loss_in.unwrap_or(0),
        depth: result.depth,
        seldepth: result.seldepth,
        hash_bytes: result.hash_bytes as u64,
    }))
}

async fn analyze_position(
    request: Request<AnalyzeGomokuPositionRequest>,
) -> Result<Response<AnalyzeGomokuPositionResponse>, Status> {
    let req = request.into_inner();
    let rule = rule_from_proto(req.rule)?;
    let mut board = position_from_proto(req.position.as_ref(), rule)?;
    let to_move = board.to_move();
    // Forbidden-point checks are recursive: off the async threads.
    let a = run_blocking(move || analysis::analyze(&mut board)).await?;
    let names = |v: &[Point]| v.iter().map(Point::to_string).collect::<Vec<_>>();
    let threats = |list: &[analysis::Threat]| {
        list.iter()
            .map(|t| proto::GomokuThreat {
                kind: match t.kind {
                    ThreatKind::Four => proto::GomokuThreatKind::Four,
                    ThreatKind::StraightFour => proto::GomokuThreatKind::StraightFour,
                    ThreatKind::OpenThree => proto::GomokuThreatKind::OpenThree,
                } as i32,
                stones: names(&t.stones),
                points: names(&t.points),
            })
            .collect()
    };
    Ok(Response::new(AnalyzeGomokuPositionResponse {
        winner: a.winner.map_or(proto::Stone::Unspecified, stone_to_proto) as i32,
        to_move: stone_to_proto(to_move) as i32,
        forbidden: a
            .forbidden
            .iter()
            .map(|&(p, k)| forbidden_point(p, k))
            .collect(),
        winning_line: names(&a.winning_line),
        board_full: a.board_full,
        losing_forbidden_move: a.losing_forbidden_move.map(|(p, k)| forbidden_point(p, k)),
        black_threats: threats(&a.threats[0]),
        white_threats: threats(&a.threats[1]),
    }))
}

/// A ranked root move as the proto's `ScoredPoint`.
fn scored_point(m: &ScoredMove) -> proto::ScoredPoint {
    proto::ScoredPoint {
        point: m.point.to_string(),
        score: f64::from(m.score),
        exact: m.bound == Bound::Exact,
        depth: m.depth,
        bound: match m.bound {
            Bound::Exact => proto::GomokuScoreBound::Exact,
            Bound::Upper => proto::GomokuScoreBound::Upper,
            Bound::Lower => proto::GomokuScoreBound::Lower,
        } as i32,
    }
}

fn forbidden_point(p: Point, k: ForbiddenKind) -> proto::ForbiddenPoint {
    proto::ForbiddenPoint {
        point: p.to_string(),
        kind: match k {
            ForbiddenKind::DoubleThree => proto::ForbiddenKind::DoubleThree,
            ForbiddenKind::DoubleFour => proto::ForbiddenKind::DoubleFour,
            ForbiddenKind::Overline => proto::ForbiddenKind::Overline,
        } as i32,
    }
}

fn stone_to_proto(c: Color) -> proto::Stone {
    match c {
        Color::Black => proto::Stone::Black,
        Color::White => proto::Stone::White,
    }
}

/// The rule of a request; `GOMOKU_RULE_UNSPECIFIED` is FREESTYLE.
pub fn rule_from_proto(value: i32) -> Result<Rule, Status> {
    match proto::GomokuRule::try_from(value) {
        Ok(proto::GomokuRule::Unspecified | proto::GomokuRule::Freestyle) => Ok(Rule::Freestyle),
        Ok(proto::GomokuRule::Standard) => Ok(Rule::Standard),
        Ok(proto::GomokuRule::Renju) => Ok(Rule::Renju),
        Err(_) => Err(invalid_argument(
            "rule",
            format!("{value} is not a GomokuRule value"),
        )),
    }
}

/// The validated position of a request (see the module docs for the faults).
pub fn position_from_proto(
    pos: Option<&proto::GomokuPosition>,
    rule: Rule,
) -> Result<Board, Status> {
    let default = proto::GomokuPosition::default();
    let pos = pos.unwrap_or(&default);
    let size = match pos.size {
        0 => DEFAULT_SIZE,
        s if (MIN_SIZE as u32..=MAX_SIZE as u32).contains(&s) => s as usize,
        s => {
            return Err(invalid_argument(
                "position.size",
                GomokuError::BadSize(s as usize),
            ));
        }
    };
    let to_move = match proto::Stone::try_from(pos.to_move) {
        Ok(proto::Stone::Unspecified) => None,
        Ok(proto::Stone::Black) => Some(Color::Black),
        Ok(proto::Stone::White) => Some(Color::White),
        Err(_) => {
            return Err(invalid_argument(
                "position.to_move",
                format!("{} is not a Stone value", pos.to_move),
            ));
        }
    };
    if !pos.moves.trim().is_empty() {
        if !pos.black.is_empty() || !pos.white.is_empty() {
            return Err(invalid_argument(
                "position",
                "give either moves or black and white point lists, not both",
            ));
        }
        let moves =
            parse_sequence(&pos.moves).map_err(|e| invalid_argument("position.moves", e))?;
        let board = Board::from_moves(size, rule, &moves)
            .map_err(|e| invalid_argument("position.moves", e))?;
        if let Some(side) = to_move
            && side != board.to_move()
        {
            return Err(invalid_argument(
                "position.to_move",
                format!(
                    "{} moves leave {} to move, not {side}",
                    moves.len(),
                    board.to_move()
                ),
            ));
        }
        return Ok(board);
    }
    let list =
        |field: &str, items: &[String], seen: &mut Vec<Point>| -> Result<Vec<Point>, Status> {
            let mut out = Vec::with_capacity(items.len());
            for (i, text) in items.iter().enumerate() {
                let name = format!("position.{field}[{i}]");
                let p =
                    Point::parse_on(text.trim(), size).map_err(|e| invalid_argument(&name, e))?;
                if seen.contains(&p) {
                    return Err(invalid_argument(&name, GomokuError::Taken(p.to_string())));
                }
                seen.push(p);
                out.push(p);
            }
            Ok(out)
        };
    let mut seen = Vec::new();
    let black = list("black", &pos.black, &mut seen)?;
    let white = list("white", &pos.white, &mut seen)?;
    let side = match to_move.or_else(|| Color::to_move_with(black.len(), white.len())) {
        Some(side) => side,
        None => {
            // No side to move fits: the list with too many stones is at fault.
            let field = if black.len() > white.len() {
                "position.black"
            } else {
                "position.white"
            };
            return Err(invalid_argument(
                field,
                format!(
                    "{} black and {} white stones cannot occur with either side to move \
                     (black has as many stones as white, or one more)",
                    black.len(),
                    white.len()
                ),
            ));
        }
    };
    Board::from_stones(size, rule, &black, &white, side).map_err(|e| {
        // Counts that fit the other side to move blame `to_move`; counts that fit
        // neither blame the list with too many stones.
        let field = match e {
            GomokuError::StoneCounts { black, white, .. } if black > white + 1 => "position.black",
            GomokuError::StoneCounts { black, white, .. } if white > black => "position.white",
            GomokuError::StoneCounts { .. } => "position.to_move",
            _ => "position",
        };
        invalid_argument(field, e)
    })
}
