//! Scores: centi-pawn-like integers from the side to move's point of view; wins and
//! losses are `±(WIN - plies to the five)`.

/// A five made at the root itself; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores at or beyond this magnitude are proven wins or losses.
pub const WIN_MIN: i32 = WIN - 1_000;
/// Heuristic evaluations stay within `±EVAL_MAX`.
pub const EVAL_MAX: i32 = 20_000;
/// Larger than any score (the search window's infinity).
pub const INFINITE: i32 = WIN + 1;

/// The score of a win `ply` plies from the root.
pub const fn win_in(ply: i32) -> i32 {
    WIN - ply
}

/// The score of a loss `ply` plies from the root.
pub const fn loss_in(ply: i32) -> i32 {
    -(WIN - ply)
}

/// Whether a score is a proven win or loss.
pub const fn is_decisive(score: i32) -> bool {
    score >= WIN_MIN || score <= -WIN_MIN
}

/// A root score as "own moves to the five" when it is a proven win (win in one = the
/// five itself is the next move).
pub const fn own_moves_to_win(score: i32) -> Option<u32> {
    if score >= WIN_MIN {
        Some(((WIN - score + 1) / 2) as u32)
    } else {
        None
    }
}

/// A root score as "opponent moves to its five" when it is a proven loss.
pub const fn opponent_moves_to_win(score: i32) -> Option<u32> {
    if score <= -WIN_MIN {
        Some(((WIN + score) / 2) as u32)
    } else {
        None
    }
}

/// A node's score as stored in the table: wins relative to the node.
pub const fn to_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_MIN {
        score + ply
    } else if score <= -WIN_MIN {
        score - ply
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
pub const fn from_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_MIN {
        score - ply
    } else if score <= -WIN_MIN {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_lengths() {
        // The five now (ply 1 from the root): one own move.
        assert_eq!(own_moves_to_win(win_in(1)), Some(1));
        // Four, reply, five: 3 plies, two own moves.
        assert_eq!(own_moves_to_win(win_in(3)), Some(2));
        // Opponent fives on its first move (ply 2).
        assert_eq!(opponent_moves_to_win(loss_in(2)), Some(1));
        assert_eq!(opponent_moves_to_win(loss_in(4)), Some(2));
        assert_eq!(own_moves_to_win(500), None);
        assert_eq!(from_tt(to_tt(win_in(7), 4), 4), win_in(7));
        assert_eq!(from_tt(to_tt(loss_in(6), 2), 5), loss_in(9));
    }
}
