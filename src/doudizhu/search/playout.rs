//! The playout policy: a fast perfect-information policy for all three seats, used to
//! finish a sampled world after a candidate play (and by the bid simulation,
//! [`crate::doudizhu::bidding`]). It sees every hand, so its card counting is exact.
//!
//! **Lead** (free):
//! 1. the whole hand when it is one play;
//! 2. *control*: when all groups of the hand's best decomposition (seed 000) but at most
//!    one are beaten by no opponent, play those (ordinary plays before bombs, lowest
//!    first) and go out with the last;
//! 3. *feed the teammate* (farmers): a lead on which the teammate can go out at once,
//!    when the landlord, if it moves in between, cannot beat it;
//! 4. otherwise seed 002's principle: the plays holding the lowest card (bombs aside)
//!    and the groups of the best decomposition, the one leaving the best hand value,
//!    never one on which an opponent goes out at once when another lead is left.
//!
//! **Follow**:
//! 1. go out when a follow empties the hand;
//! 2. *let the teammate's play run*: pass on it;
//! 3. *do not overtake a teammate about to go out*: the farmer right after the landlord
//!    passes when its teammate, next to move, can go out on the landlord's play;
//! 4. against an opponent close to going out (at most two cards, or a hand that is one
//!    play) follow at any price, bombs included, preferring a play no opponent can beat;
//! 5. otherwise follow when the hand left is worth at least the hand now minus a margin
//!    (the heuristic's margins: 3 for the landlord, 12 for the farmers), valuing a
//!    *safe* follow (no opponent can beat it: the cheapest way to take control) by
//!    [`Style::safe_bonus`] more (0 in the search's style, one round of control, 7, in
//!    the bid simulation's); bombs only when the hand left then wins by control.
//!
//! **Two styles.** The search plays its worlds out with [`Style::DEFAULT`]; the bid
//! simulation with [`Style::BID_SIMULATION`], the style its calibration
//! ([`crate::doudizhu::bidding::CALIBRATION`]) was fitted on. They differ only in the
//! safe bonus: 0 measured stronger in the search (duplicate self-play at 50 ms per
//! decision, 1,600 fresh deals: 0.515 ± 0.006 of the games against the bonus of 7;
//! BENCHMARKS.md, "The playout's margins, safe bonus and inference screened"), while
//! the bid mapping would need a refit to follow it.

use std::ops::ControlFlow;
use std::time::Instant;

use super::position::{LANDLORD, Position, same_side};
use crate::doudizhu::card::{Cards, Rank};
use crate::doudizhu::groups::minus;
use crate::doudizhu::movegen::{for_each_follow, for_each_lead, try_for_each_follow};
#[cfg(doc)]
use crate::doudizhu::play::default_reading;
use crate::doudizhu::play::{Kind, Play, Rules, for_each_reading};
use crate::doudizhu::value::{Evaluator, ROUND_WORTH, group_value};
use crate::memory_budget::MemoryBudget;

/// How a finished playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The seat (turn-order index) that emptied its hand.
    pub winner: usize,
    /// Bombs and rockets played during the playout.
    pub bombs: u32,
    /// Plays (not passes) each seat made during the playout.
    pub plays: [u8; 3],
}

impl Outcome {
    /// Whether the landlord's side won.
    pub fn landlord_wins(&self) -> bool {
        self.winner == LANDLORD
    }
}

/// The policy's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// The landlord follows when the hand left is worth at least the hand now minus this.
    pub landlord_margin: i32,
    /// The farmers' follow margin.
    pub farmer_margin: i32,
    /// Extra worth of a follow no opponent can beat (it takes control), in the units
    /// of the hand value (seed 000; a round is [`ROUND_WORTH`]).
    pub safe_bonus: i32,
    /// Lead rules 2 and 3 (control, feeding the teammate), the lead that lets an
    /// opponent out, follow rule 3 (the teammate about to go out), a hand that is one
    /// play as "close to going out", and bombs that win by control. Off: the plain
    /// value policy (lowest-card leads by value, bombs only when urgent).
    pub cooperate: bool,
}

impl Style {
    /// The parameters the search uses (see the module docs).
    pub const DEFAULT: Style = Style {
        landlord_margin: ROUND_WORTH - 4,
        farmer_margin: ROUND_WORTH + 5,
        safe_bonus: 0,
        cooperate: true,
    };

    /// The parameters the bid simulation uses: [`Style::DEFAULT`] with a safe follow
    /// worth one round more, the style [`crate::doudizhu::bidding::CALIBRATION`] was
    /// fitted on (and the search's until 2026-12-03).
    pub const BID_SIMULATION: Style = Style {
        safe_bonus: ROUND_WORTH,
        ..Style::DEFAULT
    };

    /// The plain value policy: one margin of a round for all, no cooperation.
    pub const PLAIN: Style = Style {
        landlord_margin: ROUND_WORTH,
        farmer_margin: ROUND_WORTH,
        safe_bonus: 0,
        cooperate: false,
    };
}

/// Whether `hand` can beat `p`.
pub fn can_beat(hand: &Cards, p: &Play, rules: &Rules) -> bool {
    try_for_each_follow(hand, p, rules, |_| ControlFlow::Break(())).is_break()
}

/// Whether `hand` is one play that beats `p` (its holder goes out on `p`).
pub fn goes_out_on(hand: &Cards, p: &Play, rules: &Rules) -> bool {
    let mut out = false;
    for_each_reading(hand, rules, |r| out |= r.beats(p));
    out
}

/// The whole of `hand` as one play (the reading [`default_reading`] picks), if it is one.
pub fn whole_hand(hand: &Cards, rules: &Rules) -> Option<Play> {
    let mut best: Option<Play> = None;
    for_each_reading(hand, rules, |r| {
        best = Some(match best {
            None => r,
            Some(b) if b.kind == Kind::TrioChain => b,
            Some(_) if r.kind == Kind::TrioChain => r,
            Some(b) if (r.len, r.main) >= (b.len, b.main) => r,
            Some(b) => b,
        });
    });
    best
}

/// What the kickers of `p` cost `hand`: their ranks, plus a large amount for each
/// kicker taken from a rank the hand holds more of (it breaks a group), and for 2s and
/// jokers. Plays without kickers cost 0.
fn kicker_cost(hand: &Cards, p: &Play) -> u32 {
    let (lo, per) = match p.kind {
        Kind::TrioWithSingle | Kind::TrioWithPair => (p.main.index(), 3),
        Kind::AirplaneWithSingles | Kind::AirplaneWithPairs => {
            (p.main.index() + 1 - usize::from(p.len), 3)
        }
        Kind::FourWithTwoSingles | Kind::FourWithTwoPairs => (p.main.index(), 4),
        _ => return 0,
    };
    let hi = p.main.index();
    let c = hand.counts();
    let mut cost = 0;
    for (r, &k) in p.cards.counts().iter().enumerate() {
        let k = if (lo..=hi).contains(&r) {
            k.saturating_sub(per)
        } else {
            k
        };
        if k == 0 {
            continue;
        }
        cost += u32::from(k) * r as u32;
        if c[r] > k {
            cost += 100;
        }
        if r >= Rank::TWO.index() {
            cost += 200;
        }
    }
    cost
}

/// The playout policy with its evaluator memo (one per search).
pub struct Playout {
    rules: Rules,
    style: Style,
    ev: Evaluator,
    moves: Vec<Play>,
}

impl Playout {
    /// A policy for `rules` with parameters `style`, its memo drawing from `budget`.
    pub fn with_style(rules: Rules, style: Style, budget: &'static MemoryBudget) -> Playout {
        Playout {
            rules,
            style,
            ev: Evaluator::with_budget(1 << 14, budget),
            moves: Vec::with_capacity(256),
        }
    }

    /// The evaluator (seed 000's hand value), shared with the caller's other uses.
    pub fn evaluator(&mut self) -> &mut Evaluator {
        &mut self.ev
    }

    /// Plays `pos` to the end. `None` when `deadline` passes first (read before every
    /// move).
    pub fn finish(&mut self, mut pos: Position, deadline: Option<Instant>) -> Option<Outcome> {
        let mut bombs = 0;
        let mut plays = [0u8; 3];
        // A game ends within 54 plays and as many passes again; the bound is a guard.
        for _ in 0..400 {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            let p = self.choose(&pos);
            if let Some(p) = &p {
                plays[pos.turn] += 1;
                bombs += u32::from(p.kind.is_bomb());
            }
            let next = pos.after(p.as_ref());
            if next.hands[pos.turn].is_empty() {
                return Some(Outcome {
                    winner: pos.turn,
                    bombs,
                    plays,
                });
            }
            pos = next;
        }
        None
    }

    /// The policy's move in `pos` (always legal; `None` = pass).
    pub fn choose(&mut self, pos: &Position) -> Option<Play> {
        match pos.to_beat() {
            None => Some(self.lead(pos)),
            Some(t) => self.follow(pos, &t, pos.to_beat_by().unwrap_or(pos.turn)),
        }
    }

    fn opponents(me: usize) -> impl Iterator<Item = usize> {
        (0..3).filter(move |&s| !same_side(s, me))
    }

    /// Whether an opponent of `me` can beat `p`.
    fn opp_beats(&self, pos: &Position, me: usize, p: &Play) -> bool {
        Self::opponents(me).any(|o| can_beat(&pos.hands[o], p, &self.rules))
    }

    /// The readings of each seat's whole hand (a seat with one of them goes out on any
    /// play it beats, or at once on a free lead).
    fn outs(&self, pos: &Position) -> [Vec<Play>; 3] {
        let mut outs: [Vec<Play>; 3] = Default::default();
        for (s, out) in outs.iter_mut().enumerate() {
            if pos.hands[s].len() <= 20 {
                for_each_reading(&pos.hands[s], &self.rules, |r| out.push(r));
            }
        }
        outs
    }

    fn lead(&mut self, pos: &Position) -> Play {
        let me = pos.turn;
        let hand = pos.hands[me];
        let rules = self.rules;
        if let Some(p) = whole_hand(&hand, &rules) {
            return p;
        }
        if !self.style.cooperate {
            return self.plain_lead(&hand);
        }
        // Control: every group but at most one is unbeatable.
        let e = self.ev.evaluate(hand.counts());
        let mut bosses: Vec<Play> = Vec::new();
        let mut beatable = 0;
        for g in &e.groups {
            if self.opp_beats(pos, me, g) {
                beatable += 1;
            } else {
                bosses.push(*g);
            }
        }
        if beatable <= 1
            && let Some(b) = bosses.iter().min_by_key(|g| (g.kind.is_bomb(), g.main))
        {
            return *b;
        }
        let outs = self.outs(pos);
        let dangerous = |p: &Play| Self::opponents(me).any(|o| outs[o].iter().any(|r| r.beats(p)));
        // Feed the teammate: a lead it goes out on, which the landlord (when it moves in
        // between) cannot beat.
        if me != LANDLORD && !outs[3 - me].is_empty() {
            let mate = 3 - me;
            let mut best: Option<(i32, Play)> = None;
            let mut moves = std::mem::take(&mut self.moves);
            moves.clear();
            for_each_lead(&hand, &rules, |p| moves.push(*p));
            for p in &moves {
                if !outs[mate].iter().any(|r| r.beats(p))
                    || (me == 2 && can_beat(&pos.hands[LANDLORD], p, &rules))
                {
                    continue;
                }
                let v = self.ev.value(&minus(hand.counts(), p.cards.counts()));
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, *p));
                }
            }
            self.moves = moves;
            if let Some((_, p)) = best {
                return p;
            }
        }
        // Seed 002: a play holding the lowest card (bombs aside), or a group of the best
        // decomposition. The hand left after a play holding the lowest card was valued
        // when the hand was (its decomposition starts with that card); after another
        // group, the rest of the decomposition bounds it from below, which is used.
        let c = hand.counts();
        let (low, principled) = lowest_card_plays(&hand);
        let mut best: Option<(i32, Play)> = None;
        for p in &principled {
            if dangerous(p) {
                continue;
            }
            let v = self.ev.value(&minus(c, p.cards.counts()));
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, *p));
            }
        }
        for g in &e.groups {
            if g.cards
                .count(crate::doudizhu::card::Rank::from_index(usize::from(low)).expect("a rank"))
                > 0
                || dangerous(g)
            {
                continue;
            }
            let v = e.value() - group_value(g) + ROUND_WORTH;
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, *g));
            }
        }
        if let Some((_, p)) = best {
            return p;
        }
        // Every principled lead lets an opponent out: any other lead that does not,
        // else the one hardest to beat (most cards, highest).
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        for_each_lead(&hand, &rules, |p| moves.push(*p));
        for p in &moves {
            let v = if dangerous(p) {
                (p.card_count() * 16 + p.main.index()) as i32 - 10_000
            } else {
                self.ev.value(&minus(c, p.cards.counts()))
            };
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, *p));
            }
        }
        self.moves = moves;
        best.map(|(_, p)| p).expect("a non-empty hand has a lead")
    }

    /// The plain value lead: the play holding the lowest card (bombs aside) that leaves
    /// the best hand value.
    fn plain_lead(&mut self, hand: &Cards) -> Play {
        let c = hand.counts();
        let (_, mut principled) = lowest_card_plays(hand);
        let mut best: Option<(i32, Play)> = None;
        if principled.is_empty() {
            for_each_lead(hand, &self.rules, |p| principled.push(*p));
        }
        for p in &principled {
            let v = self.ev.value(&minus(c, p.cards.counts()));
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, *p));
            }
        }
        best.map(|(_, p)| p).expect("a non-empty hand has a lead")
    }

    fn follow(&mut self, pos: &Position, t: &Play, by: usize) -> Option<Play> {
        let me = pos.turn;
        let hand = pos.hands[me];
        let rules = self.rules;
        let n = hand.len();
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        for_each_follow(&hand, t, &rules, |p| moves.push(*p));
        let choice = self.follow_among(pos, t, by, &moves, n);
        self.moves = moves;
        choice
    }

    fn follow_among(
        &mut self,
        pos: &Position,
        t: &Play,
        by: usize,
        moves: &[Play],
        n: usize,
    ) -> Option<Play> {
        let me = pos.turn;
        let hand = pos.hands[me];
        let rules = self.rules;
        if moves.is_empty() {
            return None;
        }
        if let Some(p) = moves.iter().find(|p| p.card_count() == n) {
            return Some(*p);
        }
        if same_side(by, me) {
            return None;
        }
        let next = (me + 1) % 3;
        let coop = self.style.cooperate;
        if coop && me != LANDLORD && next != LANDLORD && goes_out_on(&pos.hands[next], t, &rules) {
            return None;
        }
        let urgent = Self::opponents(me).any(|o| {
            pos.hands[o].len() <= 2 || (coop && whole_hand(&pos.hands[o], &rules).is_some())
        });
        let e = self.ev.evaluate(hand.counts());
        let now = e.value();
        let mut best: Option<(i32, Play)> = None;
        for (i, p) in moves.iter().enumerate() {
            // Of the readings that differ only in kickers, the cheapest kickers only.
            if moves.iter().enumerate().any(|(j, q)| {
                j != i
                    && (q.kind, q.len, q.main) == (p.kind, p.len, p.main)
                    && (kicker_cost(&hand, q), j) < (kicker_cost(&hand, p), i)
            }) {
                continue;
            }
            let left = minus(hand.counts(), p.cards.counts());
            let safe = !self.opp_beats(pos, me, p);
            if p.kind.is_bomb() && !urgent {
                // A bomb only when the hand left then wins by control.
                let mut after = *pos;
                after.hands[me] = Cards::from_counts_unchecked(left);
                if !coop || !safe || !self.wins_by_control(&after) {
                    continue;
                }
            }
            // After a group of the best decomposition the rest of it bounds the hand
            // left from below, which is used; any other follow is valued.
            let v = if e.groups.iter().any(|g| g.cards == p.cards) {
                now - group_value(p) + ROUND_WORTH
            } else {
                self.ev.value(&left)
            } + if safe { self.style.safe_bonus } else { 0 };
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, *p));
            }
        }
        let margin = if me == LANDLORD {
            self.style.landlord_margin
        } else {
            self.style.farmer_margin
        };
        match best {
            Some((v, p)) if urgent || v >= now - margin => Some(p),
            _ => None,
        }
    }

    /// Whether the seat to move, on a free lead, wins by control (see the module docs).
    fn wins_by_control(&mut self, pos: &Position) -> bool {
        let me = pos.turn;
        let e = self.ev.evaluate(pos.hands[me].counts());
        e.groups
            .iter()
            .filter(|g| self.opp_beats(pos, me, g))
            .count()
            <= 1
    }
}

/// Seed 002's principled leads: the plays holding the hand's lowest card, bombs aside,
/// and that card's rank index. `hand` must not be empty.
fn lowest_card_plays(hand: &Cards) -> (u8, Vec<Play>) {
    let c = hand.counts();
    let low = c.iter().position(|&n| n > 0).expect("a non-empty hand") as u8;
    let mut plays = Vec::new();
    crate::doudizhu::groups::for_each_with_lowest(c, low, &mut |p| {
        if !p.kind.is_bomb() {
            plays.push(p);
        }
    });
    (low, plays)
}
