//! Bidding by simulation (`SuggestDouDizhuBid`): the probability of winning as landlord
//! with a hand, and the score each bid is expected to bring.
//!
//! **Rules** (seed 002): the players bid in turn 1, 2 or 3 points or pass, each bid
//! above the highest so far; a bid of 3 ends the bidding at once; the highest bidder
//! becomes the landlord and takes the three bottom cards; when all three pass, the first
//! bidder becomes the landlord with a bid of 1. **Score** (seed 002, DESIGN.md): the
//! winning bid, doubled for every bomb or rocket played, doubled again for a spring (the
//! landlord wins and neither farmer played a card) or an anti-spring (the farmers win
//! and the landlord played only once); the landlord wins or loses it from each farmer
//! (twice the score), each farmer once.
//!
//! **Model.** The 37 cards the bidder cannot see are dealt uniformly: three bottom
//! cards and 17 to each other seat. The other seats bid by the threshold bidder
//! ([`bid_level`]: seed 000's value of the 17 cards against fixed thresholds),
//! so the bids already made condition the deal: a deal in which the threshold bidder
//! would not have bid as the earlier seats did is redrawn (up to [`REDRAWS`] times).
//! Bidding order is play order (the seat after the landlord is `landlord_down`). Every
//! deal is played out by the search's playout policy ([`Playout`]: all seats, perfect
//! information, farmers cooperating) once with this hand as landlord, and once for each
//! other landlord a bid of this hand could lead to.
//!
//! **Estimates.** The *simulated share* is the share of deals this hand wins as landlord
//! (the bottom cards unknown) when the playout policy plays all seats. The playouts are
//! not the engine's real play (they see every hand), so the hand's *true share* `s` (the
//! share over infinitely many deals) is mapped to a probability by a calibration fitted
//! on self-play games of the service, the engine as landlord against two farmers played
//! by the engine ([`CALIBRATION`], Platt scaling: `logit p = a + b logit s`).
//! `win_probability` is the posterior mean of that mapping given the simulated deals: `s`
//! has the prior [`SHARE_PRIOR`] (Beta, the spread of the shares of dealt hands), the
//! `w` wins in `n` deals are binomial, so `s` is Beta(α + w, β + n − w) after them, and
//! `win_probability = E[calibrate(s)]`, with the posterior standard deviation of
//! `calibrate(s)` as its standard error ([`posterior_calibrated`]). With the hundreds of
//! deals an idle server plays this is the mapping of the share; with the ten or twenty
//! a starved one plays it stays near the population's rate instead of taking a noisy
//! share at face value (BENCHMARKS.md, "Dou Dizhu bidding"). Each option's
//! `expected_score` is the mean score the hand gets when it makes that bid and the
//! bidding goes on under the model (it may be outbid and become a farmer): the farmer
//! deals as simulated, the landlord deals with the posterior calibrated probability of
//! winning them and their simulated points; `stderr` is the sampling error of the
//! simulated mean. The suggestion is the option of highest expected score. Nothing here
//! is exact: the figures are Monte Carlo estimates under the model, the errors say how
//! far the sampling alone may be off, and BENCHMARKS.md measures the calibration
//! against real games.
//!
//! [`auction`] checks the bids made so far against the bidding rules ([`Auction`],
//! [`BidError`]).

pub mod auction;

pub use auction::{Auction, BidError};

use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use super::card::{Cards, Rank};
use super::groups::{Counts, pack};
use super::play::Rules;
use super::search::playout::{Outcome, Playout, Style};
use super::search::position::Position;
use super::strategy::bid_level;
use super::value::{Evaluation, Evaluator};
use crate::memory_budget::MemoryBudget;

/// Redraws of a deal that contradicts the bids made so far, before it is taken anyway.
pub const REDRAWS: usize = 30;

/// Most deals simulated (the budget usually ends the simulation first).
pub const MAX_DEALS: u32 = 20_000;

/// One bidding option and what it is expected to score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BidOption {
    /// 0 = pass, else 1..=3.
    pub bid: u8,
    /// Mean score of the hand after this bid (positive = won), under the model.
    pub expected_score: f64,
    /// Standard error of that mean.
    pub stderr: f64,
    /// Share of the deals in which this bid makes the hand the landlord.
    pub landlord_share: f64,
}

/// The simulation's answer.
#[derive(Clone, Debug)]
pub struct BidEstimate {
    /// The suggested bid (the option of highest expected score).
    pub bid: u8,
    /// Share of the deals the hand wins as landlord, bottom cards unknown.
    pub win_probability: f64,
    /// Standard error of `win_probability` (the binomial error of the simulated share,
    /// through the calibration).
    pub win_stderr: f64,
    /// The share of simulated deals the playout policy wins with this hand as landlord,
    /// before calibration.
    pub simulated_share: f64,
    /// Every legal option, pass first.
    pub options: Vec<BidOption>,
    /// Deals simulated.
    pub deals: u32,
    /// Seed 000's evaluation of the 17 cards.
    pub evaluation: Evaluation,
    /// A short reason a person can read.
    pub reason: String,
}

/// Running mean and variance (Welford).
#[derive(Clone, Copy, Debug, Default)]
struct Mean {
    n: f64,
    mean: f64,
    m2: f64,
}

impl Mean {
    fn add(&mut self, x: f64) {
        self.n += 1.0;
        let d = x - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (x - self.mean);
    }

    fn stderr(&self) -> f64 {
        if self.n < 2.0 {
            return f64::INFINITY;
        }
        (self.m2 / (self.n - 1.0) / self.n).sqrt()
    }
}

/// Platt scaling of the simulated share (see the module docs): `logit p = A + B logit s`,
/// fitted by `tools/arena/fit_calibration.py` through the posterior (the likelihood of
/// the outcomes under [`posterior_calibrated`]'s estimate, given each bid's wins and
/// deals) on 4,000 self-play landlord games: seed 71's 2,000 with the default 200 ms
/// bids (median 357 deals) and seed 72's 2,000 with 12 ms bids (median 12 deals, the
/// starved server's regime). Each seed alone gives a slope near 1 (0.966, 1.039; a point
/// fit on seed 72's raw shares gives 0.40, flattened by their noise); BENCHMARKS.md, "Dou
/// Dizhu bidding". The mapping before (−0.316, 0.870) was a point fit on 1,600 games
/// played under load, whose noisier shares flattened it too. `(0, 1)` would leave the
/// share as it is.
pub const CALIBRATION: (f64, f64) = (-0.257, 0.992);

/// The calibration's own error, measured: the largest |mean estimate − observed win
/// rate| over the deciles of the estimate holding at least 100 games, on held-out
/// self-play games of the posterior estimate with [`CALIBRATION`] (BENCHMARKS.md, "Dou
/// Dizhu bidding"): 0.057 on seed 74's 2,000 deals with 12 ms bids (median 17 deals per
/// bid, a starved server's regime; its 0.4-0.5 decile, z = −2.3, chi-square over the
/// ten deciles p = 0.55), 0.037 on seed 73's with the default 200 ms (median 323). The
/// worse is the one reported. (The point mapping before the posterior and the refit
/// measured 0.083 starved and 0.058-0.067 idle.) Not part of `win_stderr`, which is the
/// sampling error alone.
pub const CALIBRATION_ERROR: f64 = 0.057;

/// Prior of a dealt hand's true share `s` (see the module docs): Beta(α, β) with the
/// mean and variance of the simulated shares of 1,600 self-play games (seeds 21 and 22:
/// mean 0.493, standard deviation 0.20 once the binomial noise of their 250-650 deals is
/// taken out; method of moments, BENCHMARKS.md "Dou Dizhu bidding"). The same moments
/// of seeds 71 and 72, with each bid's deals known, give (2.57, 2.70) and (2.49, 2.65).
/// It weighs as about five deals: nothing beside an idle server's hundreds, a third of
/// the estimate beside a starved server's ten.
pub const SHARE_PRIOR: (f64, f64) = (2.56, 2.63);

/// Points of the grid on which [`posterior_calibrated`] integrates (midpoints of equal
/// cells of the posterior's support, [`support`]).
const GRID: usize = 2000;

/// How far (in natural log) below its mode the posterior density may fall inside the
/// integration window: the mass left outside is below `e^-50` of the mode's cell.
const WINDOW_LOG: f64 = 50.0;

/// Shares are clamped to `[CLAMP, 1 - CLAMP]` before the logit.
const CLAMP: f64 = 0.005;

fn logit(p: f64) -> f64 {
    let p = p.clamp(CLAMP, 1.0 - CLAMP);
    (p / (1.0 - p)).ln()
}

/// The calibrated probability of a landlord win share (the point mapping, without the
/// prior: [`calibrated_estimate`] is what the estimate reports).
pub fn calibrate(share: f64) -> f64 {
    mapped(share, CALIBRATION)
}

/// `calibrate` with the mapping `(a, b)` (`logit p = a + b logit s`).
fn mapped(share: f64, (a, b): (f64, f64)) -> f64 {
    1.0 / (1.0 + (-(a + b * logit(share))).exp())
}

/// The posterior mean and standard deviation of `calibration` applied to a true share
/// `s` with prior Beta(`prior.0`, `prior.1`) after `wins` wins in `deals` binomial
/// deals: `s` ~ Beta(α + wins, β + deals − wins), integrated by the midpoint rule on
/// `GRID` cells of the interval where the density is within `e^-50` of its mode (the
/// density's log, normalised on the grid). A grid on the whole of `(0, 1)` put only a
/// few dozen cells under the posterior of hundreds of deals all won (or all lost) and
/// was off by up to 1.3e-6; on the window the error is about 1e-8 (checked against
/// Simpson's rule in `tests/doudizhu_suggest_api.rs` and a million-cell grid of `(0, 1)`
/// in the unit tests). With `calibration`
/// = (0, 1) (no mapping, apart from the clamp) the mean is the Beta mean
/// `(α + wins) / (α + β + deals)`. Panics if `wins > deals` or a prior parameter is not
/// positive.
pub fn posterior_calibrated(
    wins: u32,
    deals: u32,
    prior: (f64, f64),
    calibration: (f64, f64),
) -> (f64, f64) {
    assert!(wins <= deals && prior.0 > 0.0 && prior.1 > 0.0);
    let a = prior.0 + f64::from(wins);
    let b = prior.1 + f64::from(deals - wins);
    let (lo, hi) = support(a, b);
    let cell = (hi - lo) / GRID as f64;
    let log_density = |s: f64| beta_log_kernel(a, b, s);
    // The density's largest log on the grid, so that exp() neither overflows nor
    // underflows everywhere at once.
    let top = (0..GRID)
        .map(|i| log_density(lo + (i as f64 + 0.5) * cell))
        .fold(f64::NEG_INFINITY, f64::max);
    let (mut total, mut first, mut second) = (0.0, 0.0, 0.0);
    for i in 0..GRID {
        let s = lo + (i as f64 + 0.5) * cell;
        let w = (log_density(s) - top).exp();
        let p = mapped(s, calibration);
        total += w;
        first += w * p;
        second += w * p * p;
    }
    let mean = first / total;
    let var = (second / total - mean * mean).max(0.0);
    (mean, var.sqrt())
}

/// The log of the Beta(`a`, `b`) density at `s` up to its normalising constant.
fn beta_log_kernel(a: f64, b: f64, s: f64) -> f64 {
    (a - 1.0) * s.ln() + (b - 1.0) * (1.0 - s).ln()
}

/// The interval of `(0, 1)` where the Beta(`a`, `b`) density is within `e^-WINDOW_LOG`
/// of its largest value: the whole of `(0, 1)` unless both parameters are at least 1,
/// when the log density is concave and each end is found by bisection from the mode.
fn support(a: f64, b: f64) -> (f64, f64) {
    if a < 1.0 || b < 1.0 {
        return (0.0, 1.0);
    }
    let log_density = |s: f64| beta_log_kernel(a, b, s);
    let mode = if a + b > 2.0 {
        (a - 1.0) / (a + b - 2.0)
    } else {
        0.5
    };
    let floor = log_density(mode) - WINDOW_LOG;
    // `inside` is at or above the floor, `outside` below it (or an end where the
    // density vanishes); 64 halvings leave the interval far below a grid cell.
    let edge = |mut inside: f64, mut outside: f64| {
        for _ in 0..64 {
            let mid = 0.5 * (inside + outside);
            if log_density(mid) >= floor {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        outside
    };
    let lo = if a > 1.0 { edge(mode, 0.0) } else { 0.0 };
    let hi = if b > 1.0 { edge(mode, 1.0) } else { 1.0 };
    (lo, hi)
}

/// [`posterior_calibrated`] with the published prior and calibration.
pub fn calibrated_estimate(wins: u32, deals: u32) -> (f64, f64) {
    posterior_calibrated(wins, deals, SHARE_PRIOR, CALIBRATION)
}

/// One option's simulated outcomes, split so that the landlord part can be re-weighed by
/// the calibrated probability.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    /// Deals in which the option makes the hand the landlord, and of those the won ones.
    landlord: u32,
    won: u32,
    /// Sum of the points (bid x multiplier) of the won and of the lost landlord deals.
    won_points: f64,
    lost_points: f64,
    /// Sum of the scores of the deals in which the hand ends as a farmer.
    farmer_score: f64,
}

impl Tally {
    fn add(&mut self, landlord: bool, landlord_won: bool, points: f64, score: f64) {
        if landlord {
            self.landlord += 1;
            if landlord_won {
                self.won += 1;
                self.won_points += points;
            } else {
                self.lost_points += points;
            }
        } else {
            self.farmer_score += score;
        }
    }

    /// The mean score over `deals`: the farmer deals as simulated; the landlord deals with
    /// the calibrated probability of winning them and the simulated points of a win and
    /// of a loss (twice, from each farmer).
    fn expected_score(&self, deals: u32) -> f64 {
        let mut total = self.farmer_score;
        if self.landlord > 0 {
            let lost = self.landlord - self.won;
            let all = (self.won_points + self.lost_points) / f64::from(self.landlord);
            let per = |sum: f64, n: u32| if n > 0 { sum / f64::from(n) } else { all };
            let (p, _) = calibrated_estimate(self.won, self.landlord);
            let mean = 2.0
                * (p * per(self.won_points, self.won) - (1.0 - p) * per(self.lost_points, lost));
            total += mean * f64::from(self.landlord);
        }
        total / f64::from(deals.max(1))
    }
}

/// The score multiplier of a finished game: 2 per bomb or rocket, 2 for a spring or an
/// anti-spring (see the module docs). `outcome` comes from a playout of the whole card
/// play, landlord at turn-order index 0.
pub fn multiplier(outcome: &Outcome) -> f64 {
    let landlord_wins = outcome.landlord_wins();
    let spring = landlord_wins && outcome.plays[1] == 0 && outcome.plays[2] == 0;
    let anti_spring = !landlord_wins && outcome.plays[0] == 1;
    let doubling = outcome.bombs + u32::from(spring || anti_spring);
    f64::from(1u32 << doubling.min(20))
}

/// Where the bidding ends: the landlord's bidding position and the bid.
fn bidding_end(levels: &[u8; 3], made: &[u8]) -> (usize, u8) {
    let mut highest = 0u8;
    let mut landlord = 0usize;
    for (q, &level) in levels.iter().enumerate() {
        let b = match made.get(q) {
            Some(&b) => b,
            None if level > highest => level,
            None => 0,
        };
        if b > highest {
            highest = b;
            landlord = q;
            if b == 3 {
                break;
            }
        }
    }
    if highest == 0 {
        (0, 1)
    } else {
        (landlord, highest)
    }
}

/// Estimates the bid for `hand` (the 17 dealt cards) after `bids` (the bids made so far,
/// in order; their number is this hand's bidding position), simulating until `deadline`
/// (at least one deal, at most [`MAX_DEALS`]). The caller checks that the bidding is
/// still open.
pub fn estimate(hand: &Counts, bids: &[u8], rules: &Rules, deadline: Instant) -> BidEstimate {
    estimate_deals(hand, bids, rules, deadline, MAX_DEALS)
}

/// [`estimate`] with at most `max_deals` deals (at least one): the same simulation, the
/// same seed, cut short; for measuring how the estimate behaves with few deals.
pub fn estimate_deals(
    hand: &Counts,
    bids: &[u8],
    rules: &Rules,
    deadline: Instant,
    max_deals: u32,
) -> BidEstimate {
    let me = bids.len().min(2);
    let highest = bids.iter().copied().max().unwrap_or(0);
    let mut actions: Vec<u8> = vec![0];
    actions.extend(highest + 1..=3);
    let mine = Cards::from_counts_unchecked(*hand);
    let mut rest: Vec<Rank> = Vec::with_capacity(37);
    for r in Rank::ALL {
        let n = Rank::copies_in_deck(r) - mine.count(r).min(r.copies_in_deck());
        rest.extend(std::iter::repeat_n(r, usize::from(n)));
    }
    let mut rng =
        SmallRng::seed_from_u64(pack(hand) ^ (bids.len() as u64) << 48 ^ u64::from(highest) << 52);
    let mut ev = Evaluator::new();
    let evaluation = ev.evaluate(hand);
    let mut playout = Playout::with_style(*rules, Style::BID_SIMULATION, MemoryBudget::global());
    let mut own_wins = 0u32;
    let mut scores = vec![Mean::default(); actions.len()];
    let mut tally = vec![Tally::default(); actions.len()];
    let mut deals = 0u32;
    'deals: while deals == 0 || (deals < max_deals && Instant::now() < deadline) {
        // A deal consistent with the bids made (under the threshold bidder).
        let mut hands = [Cards::EMPTY; 3];
        let mut bottom = Cards::EMPTY;
        let mut levels = [0u8; 3];
        for attempt in 0..=REDRAWS {
            rest.shuffle(&mut rng);
            bottom = cards_of(&rest[..3]);
            let mut at = 3;
            for (q, h) in hands.iter_mut().enumerate() {
                if q == me {
                    *h = mine;
                } else {
                    *h = cards_of(&rest[at..at + 17]);
                    at += 17;
                    levels[q] = bid_level(ev.value(h.counts()));
                }
            }
            if attempt == REDRAWS || consistent(&levels, bids) {
                break;
            }
        }
        // One playout per landlord that may arise, this hand's always. The first deal
        // is played to its end whatever the time; a later one stops at the deadline
        // (read before every playout move) and is not counted.
        let limit = (deals > 0).then_some(deadline);
        let play = |l: usize, playout: &mut Playout| -> Option<Outcome> {
            let mut h = [hands[l], hands[(l + 1) % 3], hands[(l + 2) % 3]];
            h[0] = h[0].checked_add(&bottom).unwrap_or(h[0]);
            let pos = Position {
                hands: h,
                turn: 0,
                last: None,
            };
            let outcome = playout.finish(pos, limit);
            assert!(
                outcome.is_some() || limit.is_some(),
                "a playout without deadline ends"
            );
            outcome
        };
        let mut outcome_as: [Option<Outcome>; 3] = [None; 3];
        outcome_as[me] = play(me, &mut playout);
        if outcome_as[me].is_none() {
            break 'deals;
        }
        for &a in &actions {
            let mut made = bids.to_vec();
            made.push(a);
            let (l, _) = bidding_end(&levels, &made);
            if outcome_as[l].is_none() {
                outcome_as[l] = play(l, &mut playout);
            }
            if outcome_as[l].is_none() {
                // The deadline passed in this deal's playouts.
                break 'deals;
            }
        }
        own_wins += u32::from(outcome_as[me].is_some_and(|o| o.landlord_wins()));
        for (k, &a) in actions.iter().enumerate() {
            let mut made = bids.to_vec();
            made.push(a);
            let (l, b) = bidding_end(&levels, &made);
            let o = outcome_as[l].expect("every landlord's deal was played");
            let points = f64::from(b) * multiplier(&o);
            let sign = if o.landlord_wins() { 1.0 } else { -1.0 };
            let score = if l == me {
                2.0 * sign * points
            } else {
                -sign * points
            };
            scores[k].add(score);
            tally[k].add(l == me, o.landlord_wins(), points, score);
        }
        deals += 1;
    }
    let options: Vec<BidOption> = actions
        .iter()
        .zip(&scores)
        .zip(&tally)
        .map(|((&bid, s), t)| BidOption {
            bid,
            expected_score: t.expected_score(deals),
            stderr: s.stderr(),
            landlord_share: f64::from(t.landlord) / f64::from(deals),
        })
        .collect();
    let best = options
        .iter()
        .copied()
        .reduce(|a, b| {
            if b.expected_score > a.expected_score {
                b
            } else {
                a
            }
        })
        .expect("pass is always an option");
    let raw = f64::from(own_wins) / f64::from(deals);
    let (p, win_stderr) = calibrated_estimate(own_wins, deals);
    let odds = format!(
        "estimated landlord win probability {:.2} ± {:.2} (calibrated from {:.0}% of {deals} simulated deals won)",
        p,
        win_stderr,
        raw * 100.0
    );
    let reason = if best.bid == 0 {
        format!(
            "passes: {odds}; no bid is expected to score more than passing ({:+.2})",
            best.expected_score
        )
    } else {
        format!(
            "bids {}: {odds}; expected score {:+.2}",
            best.bid, best.expected_score
        )
    };
    BidEstimate {
        bid: best.bid,
        win_probability: p,
        win_stderr,
        simulated_share: raw,
        options,
        deals,
        evaluation,
        reason,
    }
}

fn cards_of(ranks: &[Rank]) -> Cards {
    let mut c = [0u8; Rank::COUNT];
    for r in ranks {
        c[r.index()] += 1;
    }
    Cards::from_counts_unchecked(c)
}

/// Whether the threshold bidder at each earlier position would have bid as `bids` says.
fn consistent(levels: &[u8; 3], bids: &[u8]) -> bool {
    let mut highest = 0;
    for (q, &b) in bids.iter().enumerate() {
        let would = if levels[q] > highest { levels[q] } else { 0 };
        if would != b {
            return false;
        }
        highest = highest.max(b);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Beta(a, b)'s mean and standard deviation, in closed form.
    fn beta_moments(a: f64, b: f64) -> (f64, f64) {
        let n = a + b;
        (a / n, (a * b / (n * n * (n + 1.0))).sqrt())
    }

    #[test]
    fn without_a_mapping_the_posterior_is_the_beta_posterior() {
        // Identity mapping: E[s | w of n] = (α + w) / (α + β + n) (Beta-binomial
        // conjugacy); e.g. 3 of 10 under the published prior: 5.56 / 15.19 = 0.36603.
        for &(w, n) in &[
            (3u32, 10u32),
            (0, 1),
            (1, 1),
            (0, 20),
            (17, 20),
            (250, 400),
            (7, 600),
        ] {
            let (mean, sd) = posterior_calibrated(w, n, SHARE_PRIOR, (0.0, 1.0));
            let (want_mean, want_sd) = beta_moments(
                SHARE_PRIOR.0 + f64::from(w),
                SHARE_PRIOR.1 + f64::from(n - w),
            );
            assert!(
                (mean - want_mean).abs() < 1e-5,
                "{w}/{n}: {mean} vs {want_mean}"
            );
            assert!((sd - want_sd).abs() < 1e-5, "{w}/{n}: {sd} vs {want_sd}");
        }
        let (mean, _) = posterior_calibrated(3, 10, SHARE_PRIOR, (0.0, 1.0));
        assert!((mean - 5.56 / 15.19).abs() < 1e-5);
    }

    #[test]
    fn many_deals_give_the_mapping_of_the_share_and_its_delta_error() {
        // 200 of 400: the posterior is narrow (sd 0.025) around 0.5, so the mean is the
        // mapping of 0.5 up to the mapping's curvature, and the sd the binomial error
        // times the mapping's slope (the delta method).
        let (mean, sd) = calibrated_estimate(200, 400);
        let p = calibrate(0.5);
        assert!((mean - p).abs() < 0.002, "{mean} vs {p}");
        let slope = CALIBRATION.1 * p * (1.0 - p) / 0.25;
        let delta = slope * (0.25f64 / 400.0).sqrt();
        assert!((sd / delta - 1.0).abs() < 0.05, "{sd} vs {delta}");
    }

    #[test]
    fn posteriors_of_hundreds_of_deals_are_integrated_to_1e7() {
        // Hundreds of deals all won (or all lost) put the posterior in a few dozen of the
        // whole interval's 2,000 cells: the estimate was off by up to 1.3e-6 there. The
        // reference is the plain midpoint rule on a million cells of (0, 1), written
        // here apart from the library (within 1e-11 of 40 million cells on these cases).
        let reference = |w: u32, n: u32| {
            let (a, b) = (
                SHARE_PRIOR.0 + f64::from(w),
                SHARE_PRIOR.1 + f64::from(n - w),
            );
            let cells = 1_000_000;
            let at = |i: usize| (i as f64 + 0.5) / cells as f64;
            let log_at = |s: f64| (a - 1.0) * s.ln() + (b - 1.0) * (1.0 - s).ln();
            let top = (0..cells).map(|i| log_at(at(i))).fold(f64::MIN, f64::max);
            let (mut z, mut m1, mut m2) = (0.0, 0.0, 0.0);
            for i in 0..cells {
                let d = (log_at(at(i)) - top).exp();
                let p = calibrate(at(i));
                z += d;
                m1 += d * p;
                m2 += d * p * p;
            }
            (m1 / z, (m2 / z - (m1 / z).powi(2)).sqrt())
        };
        for (w, n) in [
            (600, 600),
            (300, 300),
            (100, 100),
            (0, 600),
            (1, 300),
            (150, 300),
        ] {
            let (mean, sd) = calibrated_estimate(w, n);
            let (want_mean, want_sd) = reference(w, n);
            assert!(
                (mean - want_mean).abs() < 1e-7,
                "{w}/{n}: {mean} vs {want_mean}"
            );
            assert!((sd - want_sd).abs() < 1e-7, "{w}/{n}: {sd} vs {want_sd}");
        }
    }

    #[test]
    fn few_deals_stay_near_the_population_rate() {
        // No win in 10 deals is weak evidence: the estimate lies between the mapping of
        // a share of 0 and the prior's, and rises with the wins, and with more deals at
        // the same share it moves toward the mapping of the share.
        let (prior_mean, _) = calibrated_estimate(0, 0);
        let (zero_of_ten, _) = calibrated_estimate(0, 10);
        assert!(calibrate(0.0) < zero_of_ten && zero_of_ten < prior_mean);
        let mut last = 0.0;
        for w in 0..=10 {
            let (p, _) = calibrated_estimate(w, 10);
            assert!(p > last, "{w}: {p} after {last}");
            last = p;
        }
        let (zero_of_hundred, _) = calibrated_estimate(0, 100);
        assert!(zero_of_hundred < zero_of_ten);
        let (all_of_ten, _) = calibrated_estimate(10, 10);
        let (all_of_hundred, _) = calibrated_estimate(100, 100);
        assert!(all_of_ten < all_of_hundred && all_of_hundred < calibrate(1.0));
    }
}
