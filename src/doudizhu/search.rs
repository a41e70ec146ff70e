//! SEARCH mode: determinized sampling ("perfect-information Monte Carlo").
//!
//! 1. The candidates are the heuristic policy's best plays ([`CANDIDATES`] of them, a
//!    pass included when it is legal).
//! 2. A *world* deals the unseen cards to the two other seats consistently with what is
//!    known: their hand sizes, the bottom cards the landlord has not played (they are in
//!    the landlord's hand), and voids revealed by passes (a seat that passed on an
//!    opponent's single or pair holds no higher single or pair, bombs aside; worlds that
//!    break this are redrawn a bounded number of times, then the voids are dropped).
//!    When the unseen cards can be split in at most [`ENUMERATE_WORLDS`] ways every split
//!    is taken once, otherwise worlds are sampled at random.
//! 3. In each world every candidate is played and the rest of the game is solved as a
//!    perfect-information game: alpha-beta over win / loss with a memo on (hands, seat
//!    to move, play to beat) when few cards remain (at most [`SOLVE_CARDS`] in all, with
//!    a node cap), else a playout in which all three seats follow a fast value-based
//!    policy (seed 000's hand value, no card counting).
//! 4. The candidate that wins the most worlds is chosen (ties: the heuristic's order).
//!
//! The search stops at the deadline it is given: the clock is read every 16
//! solver nodes and between playout moves, and an unfinished world is not counted.
//! The answer is exact (under the model "every consistent deal equally likely") when all
//! splits were enumerated and every world was solved to the end.

use std::collections::HashMap;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::card::{Cards, Rank};
use super::groups::{minus, pack};
use super::movegen::{for_each_follow, for_each_lead};
use super::play::{Kind, Play, Rules, classify};
use super::state::{GameState, Seat};
use super::strategy::{PlayDecision, Scored, decide_play};
use super::value::{Evaluator, ROUND_WORTH};

/// How many of the heuristic's best plays the search compares.
pub const CANDIDATES: usize = 6;
/// Enumerate every split of the unseen cards when there are at most this many.
pub const ENUMERATE_WORLDS: u64 = 64;
/// Solve exactly when at most this many cards remain in all hands after the candidate.
pub const SOLVE_CARDS: u8 = 16;
/// Node cap of one exact solve; beyond it the world is played out instead.
pub const SOLVE_NODES: u64 = 200_000;
/// Most solver memo entries kept (about 32 MiB); beyond it the memo starts afresh.
pub const SOLVER_MEMO_LIMIT: usize = 1 << 19;

/// The search's answer.
#[derive(Clone, Debug)]
pub struct SearchDecision {
    /// The decision (scores are the share of worlds won, 0..1).
    pub decision: PlayDecision,
    /// Solver nodes and playout moves visited.
    pub nodes: u64,
    /// Whether every split of the unseen cards was solved exactly.
    pub exact: bool,
    /// Worlds evaluated (each for every candidate).
    pub worlds: u32,
}

/// Decides by sampling and solving until `deadline` (see the module docs).
pub fn decide(st: &GameState, deadline: Instant) -> SearchDecision {
    // Keep 5 % of the time left (at most 5 ms) for answering.
    let now = Instant::now();
    let left = deadline.saturating_duration_since(now);
    let deadline = deadline - (left / 20).min(std::time::Duration::from_millis(5));
    let heuristic = decide_play(st);
    let mut cands: Vec<Option<Play>> = Vec::new();
    for s in &heuristic.ranked {
        if !cands.contains(&s.play) {
            cands.push(s.play);
        }
        if cands.len() == CANDIDATES {
            break;
        }
    }
    if cands.len() <= 1 {
        return SearchDecision {
            decision: heuristic,
            nodes: 0,
            exact: true,
            worlds: 0,
        };
    }
    let mut search = Search::new(st.rules, deadline);
    let worlds = Worlds::new(st);
    let mut wins = vec![0u32; cands.len()];
    let mut count = 0u32;
    let mut exact = true;
    let mut rng = SmallRng::seed_from_u64(pack(st.hand.counts()) ^ st.passes.len() as u64);
    let all = worlds.enumerate();
    let mut next_world = 0usize;
    'worlds: loop {
        if Instant::now() >= deadline {
            exact = false;
            break;
        }
        let hands = match &all {
            Some(list) => {
                if next_world == list.len() {
                    break;
                }
                next_world += 1;
                list[next_world - 1]
            }
            None => {
                exact = false;
                worlds.sample(&mut rng)
            }
        };
        let mut results = Vec::with_capacity(cands.len());
        for c in &cands {
            match search.value_of(&hands, st, c.as_ref()) {
                Some((won, was_exact)) => {
                    exact &= was_exact;
                    results.push(won);
                }
                None => {
                    exact = false;
                    break 'worlds;
                }
            }
        }
        for (w, r) in wins.iter_mut().zip(results) {
            *w += u32::from(r);
        }
        count += 1;
    }
    if count == 0 {
        return SearchDecision {
            decision: heuristic,
            nodes: search.nodes,
            exact: false,
            worlds: 0,
        };
    }
    let mut ranked: Vec<Scored> = cands
        .iter()
        .zip(&wins)
        .map(|(c, &w)| Scored {
            play: *c,
            score: f64::from(w) / f64::from(count),
        })
        .collect();
    // Stable sort keeps the heuristic's order among equal shares.
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score));
    let best = ranked[0];
    let reason = format!(
        "{} wins {:.0}% of {} {} world(s) ({})",
        match best.play {
            Some(p) => format!("playing {}", p.cards),
            None => "passing".to_string(),
        },
        best.score * 100.0,
        count,
        if all.is_some() {
            "enumerated"
        } else {
            "sampled"
        },
        if exact {
            "each solved exactly"
        } else {
            "solved or played out"
        }
    );
    SearchDecision {
        decision: PlayDecision {
            play: best.play,
            ranked,
            evaluation: heuristic.evaluation,
            reason,
        },
        nodes: search.nodes,
        exact,
        worlds: count,
    }
}

/// The consistent deals of the unseen cards to the two other seats.
struct Worlds {
    me: usize,
    hand: Cards,
    /// The two other seats (turn-order indices) and their sizes.
    others: [(usize, u8); 2],
    /// Cards that must go to a given other seat (`forced[k]` for `others[k]`).
    forced: [Cards; 2],
    /// Cards free to go either way.
    free: Vec<Rank>,
    /// Voids: (`others` index, kind Single / Pair, rank index it could not beat).
    voids: Vec<(usize, Kind, usize)>,
}

impl Worlds {
    fn new(st: &GameState) -> Worlds {
        let me = st.seat.index();
        let o1 = (me + 1) % 3;
        let o2 = (me + 2) % 3;
        let others = [(o1, st.cards_left[o1]), (o2, st.cards_left[o2])];
        let mut forced = [Cards::EMPTY; 2];
        let mut pool = st.unseen;
        if st.seat != Seat::Landlord {
            let k = if o1 == 0 { 0 } else { 1 };
            for (r, n) in st.landlord_known.ranks() {
                let n = n.min(pool.count(r));
                pool.remove(r, n);
                let _ = forced[k].add(r, n);
            }
        }
        let free: Vec<Rank> = pool.iter().collect();
        let mut voids = Vec::new();
        for p in &st.passes {
            if p.seat == st.seat || p.seat.same_side(p.by) {
                continue;
            }
            if matches!(p.to_beat.kind, Kind::Single | Kind::Pair) {
                let k = if others[0].0 == p.seat.index() { 0 } else { 1 };
                voids.push((k, p.to_beat.kind, p.to_beat.main.index()));
            }
        }
        Worlds {
            me,
            hand: st.hand,
            others,
            forced,
            free,
            voids,
        }
    }

    /// Hands of the three seats (turn-order index) for one split of `free`.
    fn build(&self, to_first: &[Rank], to_second: &[Rank]) -> [Cards; 3] {
        let mut hands = [Cards::EMPTY; 3];
        hands[self.me] = self.hand;
        let mut a = self.forced[0];
        let mut b = self.forced[1];
        for &r in to_first {
            let _ = a.add(r, 1);
        }
        for &r in to_second {
            let _ = b.add(r, 1);
        }
        hands[self.others[0].0] = a;
        hands[self.others[1].0] = b;
        hands
    }

    fn respects_voids(&self, hands: &[Cards; 3]) -> bool {
        self.voids.iter().all(|&(k, kind, rank)| {
            let h = &hands[self.others[k].0];
            let need = if kind == Kind::Single { 1 } else { 2 };
            (rank + 1..Rank::COUNT).all(|r| h.counts()[r] < need || h.counts()[r] == 4)
        })
    }

    /// Every split when there are few (`None` when more than [`ENUMERATE_WORLDS`]).
    fn enumerate(&self) -> Option<Vec<[Cards; 3]>> {
        let need_first = usize::from(self.others[0].1).checked_sub(self.forced[0].len())?;
        // Group the free cards by rank: a split is how many of each rank go first.
        let mut per_rank: Vec<(Rank, u8)> = Vec::new();
        for &r in &self.free {
            match per_rank.last_mut() {
                Some((lr, n)) if *lr == r => *n += 1,
                _ => per_rank.push((r, 1)),
            }
        }
        let mut out = Vec::new();
        let mut pick = vec![0u8; per_rank.len()];
        fn rec(
            w: &Worlds,
            per_rank: &[(Rank, u8)],
            i: usize,
            left: usize,
            pick: &mut Vec<u8>,
            out: &mut Vec<[Cards; 3]>,
        ) -> bool {
            if i == per_rank.len() {
                if left == 0 {
                    let mut first = Vec::new();
                    let mut second = Vec::new();
                    for (j, &(r, n)) in per_rank.iter().enumerate() {
                        for _ in 0..pick[j] {
                            first.push(r);
                        }
                        for _ in pick[j]..n {
                            second.push(r);
                        }
                    }
                    out.push(w.build(&first, &second));
                    if out.len() as u64 > ENUMERATE_WORLDS {
                        return false;
                    }
                }
                return true;
            }
            let (_, n) = per_rank[i];
            for k in 0..=n.min(left as u8) {
                pick[i] = k;
                if !rec(w, per_rank, i + 1, left - k as usize, pick, out) {
                    return false;
                }
            }
            true
        }
        if !rec(self, &per_rank, 0, need_first, &mut pick, &mut out) {
            return None;
        }
        let consistent: Vec<[Cards; 3]> = out
            .iter()
            .copied()
            .filter(|h| self.respects_voids(h))
            .collect();
        Some(if consistent.is_empty() {
            out
        } else {
            consistent
        })
    }

    /// A random consistent split (voids honoured when a few redraws allow).
    fn sample(&self, rng: &mut SmallRng) -> [Cards; 3] {
        let need_first = usize::from(self.others[0].1).saturating_sub(self.forced[0].len());
        let mut cards = self.free.clone();
        let mut last = None;
        for _ in 0..50 {
            // Partial Fisher-Yates: the first `need_first` cards go to the first seat.
            for i in 0..need_first.min(cards.len()) {
                let j = rng.random_range(i..cards.len());
                cards.swap(i, j);
            }
            let split = need_first.min(cards.len());
            let hands = self.build(&cards[..split], &cards[split..]);
            if self.respects_voids(&hands) {
                return hands;
            }
            last = Some(hands);
        }
        last.unwrap_or_else(|| self.build(&[], &self.free))
    }
}

/// Solver and playout state shared across worlds.
struct Search {
    rules: Rules,
    deadline: Instant,
    nodes: u64,
    ev: Evaluator,
    memo: HashMap<(u64, u64, u64, u32), bool>,
}

/// Turn-order index of the landlord.
const LANDLORD: usize = 0;

impl Search {
    fn new(rules: Rules, deadline: Instant) -> Search {
        Search {
            rules,
            deadline,
            nodes: 0,
            ev: Evaluator::with_capacity(1 << 16),
            memo: HashMap::with_capacity(1 << 16),
        }
    }

    fn out_of_time(&mut self) -> bool {
        self.nodes += 1;
        self.nodes.is_multiple_of(16) && Instant::now() >= self.deadline
    }

    /// Plays `cand` for the seat to move in world `hands` and finishes the game: `Some((the
    /// mover's side won, solved exactly))`, `None` when the deadline passed.
    fn value_of(
        &mut self,
        hands: &[Cards; 3],
        st: &GameState,
        cand: Option<&Play>,
    ) -> Option<(bool, bool)> {
        let me = st.seat.index();
        let mut h = *hands;
        let last = st.to_beat.map(|(p, by)| (p, by.index()));
        let next_last = match cand {
            Some(p) => {
                h[me] = Cards::from_counts_unchecked(minus(h[me].counts(), p.cards.counts()));
                if h[me].is_empty() {
                    return Some((true, true));
                }
                Some((*p, me))
            }
            None => last,
        };
        let next = (me + 1) % 3;
        let total: usize = h.iter().map(|c| c.len()).sum();
        let my_side_landlord = me == LANDLORD;
        if total <= usize::from(SOLVE_CARDS) {
            let start = self.nodes;
            match self.solve(&mut h, next, next_last, start + SOLVE_NODES) {
                Ok(landlord_wins) => return Some((landlord_wins == my_side_landlord, true)),
                Err(Abort::Deadline) => return None,
                Err(Abort::NodeCap) => {}
            }
        }
        let landlord_wins = self.playout(h, next, next_last)?;
        Some((landlord_wins == my_side_landlord, false))
    }

    fn key(hands: &[Cards; 3], turn: usize, last: Option<(Play, usize)>) -> (u64, u64, u64, u32) {
        let l = match last {
            Some((p, by)) if by != turn => {
                1 | ((p.kind as u32) << 1)
                    | (u32::from(p.len) << 5)
                    | ((p.main.index() as u32) << 10)
                    | ((by as u32) << 15)
            }
            _ => 0,
        };
        (
            pack(hands[0].counts()),
            pack(hands[1].counts()),
            pack(hands[2].counts()),
            l | ((turn as u32) << 20),
        )
    }

    /// Whether the landlord wins with best play from here (perfect information).
    fn solve(
        &mut self,
        hands: &mut [Cards; 3],
        turn: usize,
        last: Option<(Play, usize)>,
        cap: u64,
    ) -> Result<bool, Abort> {
        if self.out_of_time() {
            return Err(Abort::Deadline);
        }
        if self.nodes > cap {
            return Err(Abort::NodeCap);
        }
        let key = Search::key(hands, turn, last);
        if let Some(&r) = self.memo.get(&key) {
            return Ok(r);
        }
        let free = last.is_none_or(|(_, by)| by == turn);
        let mut moves: Vec<Play> = Vec::new();
        if free {
            for_each_lead(&hands[turn], &self.rules, |p| moves.push(*p));
        } else if let Some((p, _)) = last {
            for_each_follow(&hands[turn], &p, &self.rules, |f| moves.push(*f));
        }
        let want_landlord = turn == LANDLORD;
        let n = hands[turn].len();
        // Going out first, then plays with more cards (they shorten the game).
        moves.sort_by_key(|p| std::cmp::Reverse((p.card_count() == n, p.card_count())));
        if moves.first().is_some_and(|p| p.card_count() == n) {
            self.memo.insert(key, want_landlord);
            return Ok(want_landlord);
        }
        let mut result = !want_landlord;
        for p in &moves {
            let before = hands[turn];
            hands[turn] = Cards::from_counts_unchecked(minus(before.counts(), p.cards.counts()));
            let r = self.solve(hands, (turn + 1) % 3, Some((*p, turn)), cap);
            hands[turn] = before;
            if r? == want_landlord {
                result = want_landlord;
                break;
            }
        }
        if result != want_landlord && !free {
            let r = self.solve(hands, (turn + 1) % 3, last, cap)?;
            if r == want_landlord {
                result = want_landlord;
            }
        }
        if self.memo.len() >= SOLVER_MEMO_LIMIT {
            self.memo.clear();
        }
        self.memo.insert(key, result);
        Ok(result)
    }

    /// Plays the game out with the fast policy; `Some(landlord wins)`, `None` at the
    /// deadline.
    fn playout(
        &mut self,
        mut hands: [Cards; 3],
        mut turn: usize,
        mut last: Option<(Play, usize)>,
    ) -> Option<bool> {
        for _ in 0..200 {
            self.nodes += 1;
            if Instant::now() >= self.deadline {
                return None;
            }
            let free = last.is_none_or(|(_, by)| by == turn);
            let to_beat = if free { None } else { last.map(|(p, _)| p) };
            let maker = last.map(|(_, by)| by);
            if let Some(p) = self.fast_policy(&hands, turn, to_beat.as_ref(), maker) {
                hands[turn] =
                    Cards::from_counts_unchecked(minus(hands[turn].counts(), p.cards.counts()));
                if hands[turn].is_empty() {
                    return Some(turn == LANDLORD);
                }
                last = Some((p, turn));
            }
            turn = (turn + 1) % 3;
        }
        // A game ends within 54 plays; unreachable in practice.
        Some(false)
    }

    /// Seed 000's value policy with perfect information and no card counting: lead the
    /// play leaving the best hand value; follow an opponent when the hand left is worth at
    /// least the hand now minus one round; leave a teammate's play alone; bombs only
    /// against an opponent with at most two cards left.
    fn fast_policy(
        &mut self,
        hands: &[Cards; 3],
        turn: usize,
        to_beat: Option<&Play>,
        maker: Option<usize>,
    ) -> Option<Play> {
        let hand = hands[turn];
        let n = hand.len();
        let same_side = |a: usize, b: usize| a == b || (a != LANDLORD && b != LANDLORD);
        match to_beat {
            None => {
                if let Some(p) = classify(&hand, &self.rules).into_iter().next() {
                    return Some(p);
                }
                // Seed 002's lead principle: a group holding the lowest card (bombs and
                // the rocket aside, unless nothing else is left).
                let c = hand.counts();
                let low = (0..Rank::COUNT).find(|&r| c[r] > 0 && c[r] < 4 && r < 13);
                let mut best: Option<(i32, Play)> = None;
                let ev = &mut self.ev;
                for_each_lead(&hand, &self.rules, |p| {
                    if let Some(low) = low
                        && (p.kind.is_bomb() || p.cards.counts()[low] == 0)
                    {
                        return;
                    }
                    let v = ev.value(&minus(c, p.cards.counts()));
                    if best.is_none_or(|(b, _)| v > b) {
                        best = Some((v, *p));
                    }
                });
                best.map(|(_, p)| p)
            }
            Some(tb) => {
                let maker = maker.unwrap_or(turn);
                let opp_min = (0..3)
                    .filter(|&s| !same_side(s, turn))
                    .map(|s| hands[s].len())
                    .min()
                    .unwrap_or(20);
                let mut moves: Vec<Play> = Vec::new();
                for_each_follow(&hand, tb, &self.rules, |p| moves.push(*p));
                if let Some(p) = moves.iter().find(|p| p.card_count() == n) {
                    return Some(*p);
                }
                if same_side(maker, turn) {
                    return None;
                }
                let urgent = hands[maker].len() <= 2 || opp_min <= 2;
                let now = self.ev.value(hand.counts());
                let mut best: Option<(i32, Play)> = None;
                for p in &moves {
                    if p.kind.is_bomb() && !urgent {
                        continue;
                    }
                    let v = self.ev.value(&minus(hand.counts(), p.cards.counts()));
                    if best.is_none_or(|(b, _)| v > b) {
                        best = Some((v, *p));
                    }
                }
                match best {
                    Some((v, p)) if urgent || v >= now - ROUND_WORTH => Some(p),
                    _ => None,
                }
            }
        }
    }
}

/// Why a solve stopped early.
enum Abort {
    Deadline,
    NodeCap,
}
