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
//! ([`strategy::bid_level`]: seed 000's value of the 17 cards against fixed thresholds),
//! so the bids already made condition the deal: a deal in which the threshold bidder
//! would not have bid as the earlier seats did is redrawn (up to [`REDRAWS`] times).
//! Bidding order is play order (the seat after the landlord is `landlord_down`). Every
//! deal is played out by the search's playout policy ([`Playout`]: all seats, perfect
//! information, farmers cooperating) once with this hand as landlord, and once for each
//! other landlord a bid of this hand could lead to.
//!
//! **Estimates.** The *simulated share* is the share of deals this hand wins as landlord
//! (the bottom cards unknown) when the playout policy plays all seats. The playouts are
//! not the engine's real play (they see every hand), so the share is mapped to a
//! probability by a calibration fitted on self-play games of the service, the engine as
//! landlord against two farmers played by the engine ([`CALIBRATION`], Platt scaling:
//! `logit p = a + b logit share`): `win_probability`, with the binomial standard error of
//! the share carried through the mapping. Each option's `expected_score` is the mean
//! score the hand gets when it makes that bid and the bidding goes on under the model
//! (it may be outbid and become a farmer): the farmer deals as simulated, the landlord
//! deals with the calibrated probability of winning them and their simulated points;
//! `stderr` is the sampling error of the simulated mean. The suggestion is the option of
//! highest expected score. Nothing here is exact: the figures are Monte Carlo estimates
//! under the model, the errors say how far the sampling alone may be off, and
//! BENCHMARKS.md measures the calibration against real games.

use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use super::card::{Cards, Rank};
use super::groups::{Counts, pack};
use super::play::Rules;
use super::search::playout::{Outcome, Playout};
use super::search::position::Position;
use super::strategy::bid_level;
use super::value::{Evaluation, Evaluator};

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
/// fitted by `tools/arena/fit_calibration.py` on self-play games (BENCHMARKS.md, "Dou
/// Dizhu bidding": 1,600 self-play landlord games, seeds 21 and 22). `(0, 1)` would leave
/// the share as it is.
pub const CALIBRATION: (f64, f64) = (-0.316, 0.870);

/// The calibration's own error, measured: the largest |mean estimate − observed win
/// rate| over the deciles of the estimate holding at least 100 games, on held-out
/// self-play games (BENCHMARKS.md, "Dou Dizhu bidding"): 0.083 on seed 61's 2,000 deals,
/// played beside other work that starved the (niced) engine thread, so that the 200 ms
/// simulation reached only about 10-20 deals per bid against 250-650 on an idle server
/// (0.067 on seed 41's, 0.070 on both pooled; 0.051 in-sample on the 1,600 games the
/// calibration was fitted on). The worst held-out figure is the one reported: the
/// mapping's error grows when the budget buys fewer deals. Not part of `win_stderr`,
/// which is the sampling error alone.
pub const CALIBRATION_ERROR: f64 = 0.083;

/// Shares are clamped to `[CLAMP, 1 - CLAMP]` before the logit.
const CLAMP: f64 = 0.005;

fn logit(p: f64) -> f64 {
    let p = p.clamp(CLAMP, 1.0 - CLAMP);
    (p / (1.0 - p)).ln()
}

/// The calibrated probability of a simulated landlord win share.
pub fn calibrate(share: f64) -> f64 {
    let (a, b) = CALIBRATION;
    1.0 / (1.0 + (-(a + b * logit(share))).exp())
}

/// The standard error of `calibrate(share)` for a share of `deals` deals: the binomial
/// error of the share times the slope of the calibration there (the delta method).
fn calibrated_stderr(share: f64, deals: u32) -> f64 {
    let s = share.clamp(CLAMP, 1.0 - CLAMP);
    let p = calibrate(s);
    let slope = CALIBRATION.1 * p * (1.0 - p) / (s * (1.0 - s));
    slope * (s * (1.0 - s) / f64::from(deals.max(1))).sqrt()
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
            let p = calibrate(f64::from(self.won) / f64::from(self.landlord));
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
/// (at least one deal). The caller checks that the bidding is still open.
pub fn estimate(hand: &Counts, bids: &[u8], rules: &Rules, deadline: Instant) -> BidEstimate {
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
    let mut playout = Playout::new(*rules);
    let mut wins = Mean::default();
    let mut scores = vec![Mean::default(); actions.len()];
    let mut tally = vec![Tally::default(); actions.len()];
    let mut deals = 0u32;
    while deals < MAX_DEALS && (deals == 0 || Instant::now() < deadline) {
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
        // One playout per landlord that may arise, this hand's always.
        let mut outcome_as: [Option<Outcome>; 3] = [None; 3];
        let play = |l: usize, playout: &mut Playout| -> Outcome {
            let mut h = [hands[l], hands[(l + 1) % 3], hands[(l + 2) % 3]];
            h[0] = h[0].checked_add(&bottom).unwrap_or(h[0]);
            let pos = Position {
                hands: h,
                turn: 0,
                last: None,
            };
            playout
                .finish(pos, None)
                .expect("a playout without deadline ends")
        };
        let own = play(me, &mut playout);
        outcome_as[me] = Some(own);
        wins.add(f64::from(u8::from(own.landlord_wins())));
        for (k, &a) in actions.iter().enumerate() {
            let mut made = bids.to_vec();
            made.push(a);
            let (l, b) = bidding_end(&levels, &made);
            let o = match outcome_as[l] {
                Some(o) => o,
                None => {
                    let o = play(l, &mut playout);
                    outcome_as[l] = Some(o);
                    o
                }
            };
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
    let raw = wins.mean;
    let p = calibrate(raw);
    let win_stderr = calibrated_stderr(raw, deals);
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
