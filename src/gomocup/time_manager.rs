//! How long to think for one move, from the `INFO` time values.
//!
//! The protocol's rules (INFO section): `timeout_turn` is the limit per move in
//! milliseconds, 0 meaning "play as fast as possible"; `timeout_match` the limit for the
//! whole match, 0 meaning none; `time_left` the match time left, sent before every move
//! when the match is limited, possibly negative, 2147483647 when unlimited. The time for
//! a turn counts every command from the one that asks for the move, so the budget is
//! measured from the moment that command was *read*, not from when it is handled.
//!
//! The budget for one move is the smaller of
//! - the turn limit less a reserve for reading, answering and the search's stop latency
//!   ([`turn_reserve`]: 30 ms plus 5 %, at most 500 ms), and
//! - an even share of the match time left, less a reserve, over the moves still
//!   expected ([`moves_to_go`]: 40 of the brain's moves for a game, never fewer than 10
//!   — so the share shrinks geometrically in a long game and time never runs out —
//!   and never more than the brain's share of the empty points).
//!
//! Without any `timeout_turn` the turn limit is [`DEFAULT_TURN_MS`].
//!
//! On a loaded machine a search can answer later than its deadline (the process is not
//! scheduled, or the search checks its clock too seldom). [`Lateness`] remembers by how
//! much the last [`LATENESS_WINDOW`] answers overran their deadlines, and the largest
//! of those is taken off the next budget as well, so that the brain keeps within the
//! turn limit on a slow or busy machine.

use std::collections::VecDeque;
use std::time::Duration;

/// The turn limit assumed until the manager sends `INFO timeout_turn` (the protocol says
/// the brain must cope without it).
pub const DEFAULT_TURN_MS: u64 = 5_000;

/// `time_left` and `timeout_match` values at or above this mean "unlimited".
pub const UNLIMITED_MS: i64 = 2_147_483_647;

/// The brain's moves a game is expected to last, for spreading the match time.
pub const EXPECTED_MOVES: usize = 40;

/// The fewest moves the match time left is spread over.
pub const MIN_MOVES_TO_GO: usize = 10;

/// The time limits the manager has announced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// `timeout_turn` in ms, if sent.
    pub turn_ms: Option<u64>,
    /// `timeout_match` in ms, if sent (0 = no limit).
    pub match_ms: Option<u64>,
    /// The latest `time_left` in ms, if sent.
    pub time_left_ms: Option<i64>,
}

impl TimeControl {
    /// The match time left in ms, or `None` when the match is unlimited. The protocol
    /// lets a brain rely on `time_left` alone; before the first one, `timeout_match`
    /// stands in for it.
    pub fn match_time_left_ms(&self) -> Option<i64> {
        match (self.time_left_ms, self.match_ms) {
            (Some(left), _) if left < UNLIMITED_MS => Some(left),
            (Some(_), _) => None,
            (None, Some(total)) if total > 0 && (total as i64) < UNLIMITED_MS => Some(total as i64),
            (None, _) => None,
        }
    }

    /// How long to think for the next move, given how many moves the brain has made in
    /// this game, how many points are empty and the recent lateness of its answers
    /// ([`Lateness::margin`]). Zero means "answer at once" (the engine's best static
    /// choice).
    pub fn budget(&self, own_moves: usize, empty_points: usize, lateness: Duration) -> Duration {
        let turn_ms = self.turn_ms.unwrap_or(DEFAULT_TURN_MS);
        if turn_ms == 0 {
            return Duration::ZERO;
        }
        let late_ms = lateness.as_millis().min(u128::from(u64::MAX)) as u64;
        let mut budget = turn_ms.saturating_sub(turn_reserve(turn_ms) + late_ms);
        if let Some(left) = self.match_time_left_ms() {
            let left = left.max(0) as u64;
            let usable = left.saturating_sub(match_reserve(left));
            let share = usable / moves_to_go(own_moves, empty_points) as u64;
            budget = budget.min(share.saturating_sub(late_ms));
        }
        Duration::from_millis(budget)
    }
}

/// How many recent answers [`Lateness`] remembers.
pub const LATENESS_WINDOW: usize = 8;

/// By how much the recent answers overran their deadlines (zero when on time); its
/// margin is the largest recent overrun.
pub type Lateness = RecentMax<LATENESS_WINDOW>;

/// The last `N` durations recorded, and the margin they call for: the largest of them.
#[derive(Clone, Debug, Default)]
pub struct RecentMax<const N: usize> {
    recent: VecDeque<Duration>,
}

impl<const N: usize> RecentMax<N> {
    /// Records one duration, forgetting the oldest beyond `N`.
    pub fn record(&mut self, d: Duration) {
        if self.recent.len() == N {
            self.recent.pop_front();
        }
        self.recent.push_back(d);
    }

    /// The margin to keep for what comes next: the largest recent duration.
    pub fn margin(&self) -> Duration {
        self.recent.iter().copied().max().unwrap_or_default()
    }
}

/// Milliseconds kept back from a turn limit of `turn_ms`: 30 ms plus 5 %, at most
/// 500 ms (the answer must reach the manager before the limit; the search stops a few
/// milliseconds after its deadline and the machine may be loaded).
pub fn turn_reserve(turn_ms: u64) -> u64 {
    (30 + turn_ms / 20).min(500)
}

/// Milliseconds kept back from the match time left: 50 ms plus 2 %, at most 2 s.
pub fn match_reserve(left_ms: u64) -> u64 {
    (50 + left_ms / 50).min(2_000)
}

/// How many more moves the match time left is spread over (see the module docs).
pub fn moves_to_go(own_moves: usize, empty_points: usize) -> usize {
    let expected = EXPECTED_MOVES
        .saturating_sub(own_moves)
        .max(MIN_MOVES_TO_GO);
    expected.min(empty_points.div_ceil(2)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn turn_limit_less_its_reserve() {
        // 200 ms: reserve 30 + 10 = 40 ms; 1 s: 30 + 50 = 80 ms; 30 s: capped at 500 ms.
        let tc = |turn| TimeControl {
            turn_ms: Some(turn),
            ..Default::default()
        };
        assert_eq!(tc(200).budget(0, 225, Duration::ZERO), ms(160));
        assert_eq!(tc(1_000).budget(0, 225, Duration::ZERO), ms(920));
        assert_eq!(tc(30_000).budget(0, 225, Duration::ZERO), ms(29_500));
        // A limit smaller than the reserve leaves nothing: answer at once.
        assert_eq!(tc(20).budget(0, 225, Duration::ZERO), ms(0));
    }

    #[test]
    fn zero_turn_limit_means_as_fast_as_possible() {
        let tc = TimeControl {
            turn_ms: Some(0),
            time_left_ms: Some(100_000),
            match_ms: None,
        };
        assert_eq!(tc.budget(0, 400, Duration::ZERO), Duration::ZERO);
    }

    #[test]
    fn no_info_uses_the_default_turn_limit() {
        // 5000 - (30 + 250) = 4720 ms.
        assert_eq!(
            TimeControl::default().budget(0, 225, Duration::ZERO),
            ms(4_720)
        );
    }

    #[test]
    fn match_time_is_spread_over_the_moves_to_go() {
        // Gomocup-like: 5 s per move, 180 s per match. At the start 40 moves to go:
        // usable = 180000 - min(50 + 3600, 2000) = 178000; / 40 = 4450 ms < 4720 ms.
        let tc = TimeControl {
            turn_ms: Some(5_000),
            match_ms: Some(180_000),
            time_left_ms: None,
        };
        assert_eq!(tc.budget(0, 400, Duration::ZERO), ms(4_450));
        // 20 s left after 35 moves: max(40 - 35, 10) = 10 to go;
        // usable = 20000 - (50 + 400) = 19550; / 10 = 1955 ms.
        let tc = TimeControl {
            time_left_ms: Some(20_000),
            ..tc
        };
        assert_eq!(tc.budget(35, 300, Duration::ZERO), ms(1_955));
        // Out of time (negative time_left): answer at once.
        let tc = TimeControl {
            time_left_ms: Some(-40),
            ..tc
        };
        assert_eq!(tc.budget(35, 300, Duration::ZERO), ms(0));
    }

    #[test]
    fn unlimited_match_time_is_ignored() {
        let tc = TimeControl {
            turn_ms: Some(1_000),
            match_ms: Some(0),
            time_left_ms: Some(UNLIMITED_MS),
        };
        assert_eq!(tc.match_time_left_ms(), None);
        assert_eq!(tc.budget(0, 225, Duration::ZERO), ms(920));
        let tc = TimeControl {
            time_left_ms: None,
            ..tc
        };
        assert_eq!(tc.budget(0, 225, Duration::ZERO), ms(920));
    }

    #[test]
    fn recent_lateness_comes_off_the_budget() {
        let mut late = Lateness::default();
        assert_eq!(late.margin(), Duration::ZERO);
        late.record(ms(30));
        late.record(ms(120));
        late.record(ms(0));
        assert_eq!(late.margin(), ms(120));
        // 200 ms turn: 200 - 40 - 120 = 40 ms.
        let tc = TimeControl {
            turn_ms: Some(200),
            ..Default::default()
        };
        assert_eq!(tc.budget(0, 225, late.margin()), ms(40));
        // The overrun is forgotten after LATENESS_WINDOW more answers.
        for _ in 0..LATENESS_WINDOW - 1 {
            late.record(ms(5));
        }
        assert_eq!(late.margin(), ms(5));
        // It also comes off the match share: (20000 - 450) / 10 = 1955, less 5 ms.
        let tc = TimeControl {
            turn_ms: Some(5_000),
            match_ms: None,
            time_left_ms: Some(20_000),
        };
        assert_eq!(tc.budget(35, 300, late.margin()), ms(1_950));
    }

    #[test]
    fn moves_to_go_never_exceeds_the_empty_points_share() {
        assert_eq!(moves_to_go(0, 225), 40);
        assert_eq!(moves_to_go(25, 175), 15);
        assert_eq!(moves_to_go(60, 100), 10);
        assert_eq!(moves_to_go(12, 7), 4);
        assert_eq!(moves_to_go(12, 1), 1);
        assert_eq!(moves_to_go(12, 0), 1);
    }
}
