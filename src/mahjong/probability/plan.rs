//! The plan: a dynamic programme over hand states whose optimal policy is the engine's
//! continuation after a discard (see the [module docs](super) for the model).
//!
//! # The policy class
//!
//! A line of play has at most one *change*: a draw that does not lower shanten may,
//! once, be kept in place of another tile at the same shanten (tegawari, at shanten up to
//! [`PlanConfig::exchange_up_to`], 2 in the engine's plan) or in place of a tile whose
//! loss raises shanten by one (breaking down, from shanten up to
//! [`PlanConfig::down_up_to`]); a first discard that raises shanten above the hand's
//! best uses the change. Every other draw is kept when it lowers shanten (with any
//! discard that keeps the new shanten) and thrown otherwise, as in the advance-or-throw
//! class ([`PlanConfig::ADVANCE_OR_THROW`]: no change at all). In the engine's plan the
//! change also expires once the line is more than one shanten below the hand's own
//! ([`PlanConfig::change_within`]): from a 2-shanten hand a tegawari may come at 2- or
//! 1-shanten, not at tenpai.
//!
//! # Values
//!
//! A 13-tile state `H` (shanten `s`, `r` draws left, pool size `M_r`) with useful kinds
//! `k` (`c_k` copies, `A = Σ c_k`) and, while the change is unused, change kinds `m`
//! (draws offering a change, `c_m` copies):
//!
//! ```text
//! V(H, r) = Σ_k c_k / M_r · B_k(r - 1)
//!         + Σ_m q_m · max(V(H, r - 1), max over changes x of V(x, r - 1))
//!         + (1 - A / M_r - Σ_m q_m) · V(H, r - 1)
//! q_m     = (1 - A / M_r) · c_m / (C - A),   C = Σ over every kind of its copies
//! B_k(r)  = 1 if H + k wins, else max over advancing discards j of V(H + k - j, r)
//! ```
//!
//! with `c` = the copies not in the hand (supply minus hand). On a line with no change
//! this is the advance-or-throw recurrence, and by the nesting lemma of the module docs
//! the counts are then the true ones: the values are **exact** for that class (the
//! first discard's copy is counted one lower while it is useful, as there). Once a line
//! has changed, kinds it threw may become useful again and the true pool holds fewer of
//! them than `c` says: there the counts **approximate** (they ignore tiles drawn and
//! thrown), and so does the split of the
//! non-useful draws `q_m` (proportional to the copies, whatever was thrown). The plan's
//! values are therefore estimates for the wider class; [`super::simulate`] measures the
//! plan's real win probability under the exact model, with its standard error.
//!
//! Both arrays (win, tenpai at some point) belong to one policy: wherever a choice is
//! made, the larger win value is taken, ties (within 1e-12) to the larger tenpai value.
//!
//! # Graph
//!
//! The states are *draw nodes* ([`DrawNode`]: 13 tiles, or 3n+1 with melds, the next draw
//! to come) and *discard nodes* ([`DiscardNode`]: 14 tiles after a useful draw, the
//! discard to come). Every state keeps its edges (useful kinds with their 14-tile
//! children, change kinds with their targets, the 14-tile states' discards), so that a
//! simulation can follow the plan's choices and compute its control variate without
//! search. Vectors and tables grow through [`super::budgeted_growth`], reserving from the
//! engine memory budget first.

use std::hash::{BuildHasherDefault, Hasher};
use std::mem::size_of;
use std::time::Instant;

use super::budgeted_growth::{map_room, vec_room};
use super::buffer_pool::{BufferPool, PlanBuffers};
use super::shanten_judge::{ALL_KINDS, ShantenJudge};
use super::{Odds, Stopped};
use crate::memory_budget::{MemoryBudget, Reservation};

/// Which changes a line of play may make (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanConfig {
    /// Highest shanten at which the one change may be a tegawari; `-1`: none.
    pub exchange_up_to: i8,
    /// Highest shanten from which the one change may break the hand down; `-1`: none.
    pub down_up_to: i8,
    /// How many advances a line may make before its change expires: with `Some(n)` the
    /// change can be taken only in states at most `n` shanten below the hand's own
    /// (the 3n+2 hand's best, or the 3n+1 hand's); `None`: anywhere on the line.
    pub change_within: Option<u8>,
}

impl PlanConfig {
    /// No change at all: the advance-or-throw class (issue 6), exact values.
    pub const ADVANCE_OR_THROW: PlanConfig = PlanConfig {
        exchange_up_to: -1,
        down_up_to: -1,
        change_within: None,
    };

    /// The engine's plan: a tegawari at tenpai, 1- or 2-shanten, or a break-down of a
    /// tenpai hand with weak waits (at most [`WEAK_WAITS`] live copies). Tegawari from
    /// 2-shanten, not only from 1-shanten, won +0.32 points of solitaire play over
    /// 20,000 walls (+0.09 to +0.55) for about 13 % more work (BENCHMARKS.md, "Where
    /// the engine's gain comes from"). The change expires after one advance
    /// (`change_within: Some(1)`): the plan is recomputed at every decision, so a change
    /// the line would make two advances ahead is reconsidered when it comes; on 10,000
    /// solitaire walls this played as the unlimited change (+0.0004, −0.0010 to +0.0018)
    /// at half its p99 time per decision (BENCHMARKS.md, "Where the two-shanten time
    /// goes: the change", and "The change expires after one advance"). Tegawari at
    /// 3-shanten too (`exchange_up_to` 3) costs nothing more but gained nothing
    /// measurable: +0.07 points (−0.07 to +0.21) on 20,000 fresh walls; a break-down
    /// from 1-shanten (`down_up_to` 1) changes 6 of 1,292 recorded choices at 4.6x the
    /// p99 ("Tegawari at 3-shanten screened", session 32).
    pub const ONE_CHANGE: PlanConfig = PlanConfig {
        exchange_up_to: 2,
        down_up_to: 0,
        change_within: Some(1),
    };

    /// [`Self::ONE_CHANGE`] with the change open on the whole line (the engine's plan
    /// until session 23; kept for comparisons).
    pub const ONE_CHANGE_UNLIMITED: PlanConfig = PlanConfig {
        exchange_up_to: 2,
        down_up_to: 0,
        change_within: None,
    };

    /// Whether any change is allowed.
    pub fn changes(&self) -> bool {
        self.exchange_up_to >= 0 || self.down_up_to >= 0
    }
}

/// Why the search stopped and how far it got.
pub type PlanResult<T> = Result<T, Stopped>;

/// One useful kind of a 13-tile state: its copies in the plan's count and the 14-tile
/// child (or [`ONE`]: the draw wins).
#[derive(Debug, Clone, Copy)]
pub struct Useful {
    /// The kind.
    pub kind: u8,
    /// Copies counted (supply minus hand, the first discard's variant applied).
    pub copies: u8,
    /// The 14-tile state, or [`ONE`].
    pub child: u32,
}

/// One change kind of a 13-tile state: its copies and the targets (13-tile states
/// whose change is used) in `targets[start..start + len]`.
#[derive(Debug, Clone, Copy)]
pub struct Change {
    /// The kind drawn.
    pub kind: u8,
    /// Copies counted.
    pub copies: u8,
    /// First target in [`PlanBuffers::targets`].
    pub start: u32,
    /// Number of targets.
    pub len: u32,
}

/// A draw node: a 13-tile state (3n+1 tiles, the next draw to come).
#[derive(Debug, Clone, Copy)]
pub struct DrawNode {
    /// Its value arrays: `values[arena * stride ..]`, win for r = 0..=T then tenpai.
    pub arena: u32,
    /// Useful kinds: `useful[u0..u0 + un]`.
    pub u0: u32,
    /// Number of useful kinds.
    pub un: u16,
    /// Change kinds: `changes[c0..c0 + cn]`.
    pub c0: u32,
    /// Number of change kinds.
    pub cn: u16,
    /// Copies of the useful kinds (`A`).
    pub useful_copies: u16,
    /// Copies of every kind not in the hand (`C`).
    pub all_copies: u16,
    /// Whether a change can be taken in this state or a state that follows it; if not,
    /// its values are those of the advance-or-throw class and exact.
    pub changes_below: bool,
}

/// A discard node: a 14-tile state (3n+2 tiles) after a useful draw, its discard to
/// come; its discards are `targets[start..start + len]`.
#[derive(Debug, Clone, Copy)]
pub struct DiscardNode {
    /// Its value arrays (as [`DrawNode::arena`]).
    pub arena: u32,
    /// First child in [`PlanBuffers::targets`].
    pub start: u32,
    /// Number of children.
    pub len: u32,
    /// Whether a change can be taken in a state that follows.
    pub changes_below: bool,
}

/// The useful draws of a state (the kinds whose draw lowers its shanten), with the copies
/// the plan counts.
struct UsefulDraws {
    /// Bit `k`: kind `k` is useful (whether or not copies are left).
    mask: u64,
    /// `(kind, copies)` of the useful kinds with copies left, in `kinds[..len]`.
    kinds: [(u8, u8); 34],
    len: usize,
    /// Their copies (`A`).
    copies: u32,
    /// Copies of every kind not in the hand (`C`).
    all_copies: u32,
}

impl UsefulDraws {
    /// The useful kinds with copies left, and their copies.
    fn kinds(&self) -> &[(u8, u8)] {
        &self.kinds[..self.len]
    }
}

/// The change kinds of a state: `(kind, copies, first target, targets)` in
/// `kinds[..len]`, the targets (3n+1 nodes) in `targets[..n_targets]`.
struct ChangeKinds {
    kinds: [(u8, u8, u8, u8); 34],
    len: usize,
    targets: [u32; 68],
    n_targets: usize,
}

impl ChangeKinds {
    /// No change kinds.
    const NONE: ChangeKinds = ChangeKinds {
        kinds: [(0, 0, 0, 0); 34],
        len: 0,
        targets: [ZERO; 68],
        n_targets: 0,
    };
}

/// A tenpai hand breaks down (if the plan allows it) only with at most this many live
/// wait copies.
pub const WEAK_WAITS: u32 = 4;

/// Node id of the winning draw (values 1).
pub const ONE: u32 = u32::MAX;
/// Node id of a 13-tile state that can neither win nor reach tenpai (values 0).
pub const ZERO: u32 = 0;

/// Default memory bound of one planner: 256 MiB of arrays, nodes, edges and tables.
pub const DEFAULT_MEMORY_BYTES: usize = 256 << 20;

/// The planning DP for one decision: fixed melds, ruleset, supply, horizon `T`.
pub struct Planner {
    judge: ShantenJudge,
    config: PlanConfig,
    supply: [u8; 34],
    horizon: usize,
    /// `pool[r]` = pool size with `r` draws left.
    pool: Vec<u32>,
    /// The tables and vectors (memos, value arrays, states, edges), taken from the
    /// [`BufferPool`] when a finished planner left a set there, and left there on drop.
    pub buf: PlanBuffers,
    deadline: Option<Instant>,
    state_limit: usize,
    ticks: u64,
    memory: Reservation,
    /// Lowest shanten of a state whose line may still change ([`PlanConfig::change_within`]).
    change_floor: i8,
}

impl Planner {
    /// A planner for the 3n+2 `hand` (or a 3n+1 hand) with `unseen` the unseen pool,
    /// `draws` the horizon (clamped to the pool), `judge` the shanten judge. `deadline`:
    /// stop with [`Stopped::Deadline`] once it passes (checked every 256 states).
    pub fn new(
        judge: ShantenJudge,
        config: PlanConfig,
        hand: &[u8; 34],
        unseen: &[u8; 34],
        draws: u32,
        deadline: Option<Instant>,
    ) -> Planner {
        let mut supply = [0u8; 34];
        for k in 0..34 {
            supply[k] = hand[k].saturating_add(unseen[k]);
        }
        let n: u32 = unseen.iter().map(|&c| u32::from(c)).sum();
        let draws = draws.min(n);
        let horizon = draws as usize;
        let (buf, memory) = BufferPool::global()
            .take()
            .unwrap_or_else(|| (PlanBuffers::default(), MemoryBudget::global().reservation()));
        let mut planner = Planner {
            judge,
            config,
            supply,
            horizon,
            pool: (0..=draws).map(|r| n - draws + r).collect(),
            buf,
            deadline,
            state_limit: usize::MAX,
            ticks: 0,
            memory,
            change_floor: i8::MIN,
        };
        planner.start_buffers();
        if let Some(n) = config.change_within {
            let n = i8::try_from(n).unwrap_or(i8::MAX);
            planner.change_floor = planner.judge.shanten(hand).saturating_sub(n);
        }
        planner.state_limit = DEFAULT_MEMORY_BYTES / planner.bytes_per_state();
        planner
    }

    /// Draws memory from `budget` instead of the process's.
    pub fn with_memory_budget(mut self, budget: &'static MemoryBudget) -> Planner {
        // PlanBuffers taken from the pool are charged to the process's budget: they go
        // back, and the planner starts again from empty ones.
        let memory = std::mem::replace(&mut self.memory, budget.reservation());
        BufferPool::global().give(std::mem::take(&mut self.buf), memory);
        self.start_buffers();
        self
    }

    /// Puts the first state in the (empty) buffers: node 0, [`ZERO`], with its values
    /// (uncharged: a few hundred bytes).
    fn start_buffers(&mut self) {
        let stride = self.stride();
        self.buf.values.resize(stride, 0.0);
        self.buf.draw_nodes.push(DrawNode {
            arena: 0,
            u0: 0,
            un: 0,
            c0: 0,
            cn: 0,
            useful_copies: 0,
            all_copies: 0,
            changes_below: false,
        });
    }

    /// Sets the bound on states; [`Stopped::StateLimit`] beyond it.
    pub fn with_state_limit(mut self, limit: usize) -> Planner {
        self.state_limit = limit;
        self
    }

    /// Rough bytes per state (arrays, node, edges, table slot), for the state bound.
    pub fn bytes_per_state(&self) -> usize {
        self.stride() * 8 + size_of::<DrawNode>() + 8 * size_of::<Useful>() + 48
    }

    /// Bytes held from the engine memory budget.
    pub fn reserved_bytes(&self) -> usize {
        self.memory.bytes()
    }

    /// The horizon `T`.
    pub fn horizon(&self) -> u32 {
        self.horizon as u32
    }

    /// The policy class.
    pub fn config(&self) -> PlanConfig {
        self.config
    }

    /// The shanten judge.
    pub fn judge(&self) -> &ShantenJudge {
        &self.judge
    }

    /// States evaluated (3n+1 and 3n+2).
    pub fn states(&self) -> u64 {
        (self.buf.draw_memo.len() + self.buf.discard_memo.len()) as u64
    }

    /// Pool size with `r` draws left.
    pub fn pool_at(&self, r: usize) -> u32 {
        self.pool[r.min(self.horizon)]
    }

    fn stride(&self) -> usize {
        2 * (self.horizon + 1)
    }

    /// Win value of 13-tile node `n` with `r` draws left ([`ONE`] and [`ZERO`] too).
    #[inline]
    pub fn draw_win(&self, n: u32, r: usize) -> f64 {
        if n == ONE {
            return 1.0;
        }
        self.buf.values[self.buf.draw_nodes[n as usize].arena as usize * self.stride() + r]
    }

    /// Tenpai value of 13-tile node `n` with `r` draws left.
    #[inline]
    pub fn draw_tenpai(&self, n: u32, r: usize) -> f64 {
        if n == ONE {
            return 1.0;
        }
        let base = self.buf.draw_nodes[n as usize].arena as usize * self.stride();
        self.buf.values[base + self.horizon + 1 + r]
    }

    /// Win and tenpai value of 14-tile node `n` ([`ONE`]: a win) with `r` draws left.
    #[inline]
    pub fn discard_odds(&self, n: u32, r: usize) -> (f64, f64) {
        if n == ONE {
            return (1.0, 1.0);
        }
        let base = self.buf.discard_nodes[n as usize].arena as usize * self.stride();
        (
            self.buf.values[base + r],
            self.buf.values[base + self.horizon + 1 + r],
        )
    }

    /// The plan's choice among 13-tile nodes `options` with `r` draws left: the largest
    /// win value, ties (1e-12) to the larger tenpai value, then the first.
    pub fn choose(&self, options: impl Iterator<Item = u32>, r: usize) -> Option<u32> {
        let mut best: Option<(u32, f64, f64)> = None;
        for n in options {
            let (w, t) = (self.draw_win(n, r), self.draw_tenpai(n, r));
            if best.is_none_or(|(_, bw, bt)| better(w, t, bw, bt)) {
                best = Some((n, w, t));
            }
        }
        best.map(|b| b.0)
    }

    /// The 13-tile node a first discard `discard` of the 3n+2 `hand` leads to, with the
    /// change available when `change` (the plan's rule: unless the discard raises
    /// shanten above the hand's best). `None` if `discard` is not in `hand`.
    pub fn root(
        &mut self,
        hand: &[u8; 34],
        discard: usize,
        change: bool,
    ) -> PlanResult<Option<u32>> {
        if discard >= 34 || hand[discard] == 0 {
            return Ok(None);
        }
        let mut h = *hand;
        h[discard] -= 1;
        let s = self.judge.shanten(&h);
        let right = change && self.config.changes();
        self.draw_node(&mut h, s, Some(discard as u8), right, ALL_KINDS)
            .map(Some)
    }

    /// The 13-tile node of a 3n+1 `hand` (no first discard: all its kinds' copies are
    /// counted from the supply), change available when `change`.
    pub fn draw_root(&mut self, hand: &[u8; 34], change: bool) -> PlanResult<u32> {
        let mut h = *hand;
        let s = self.judge.shanten(&h);
        let right = change && self.config.changes();
        self.draw_node(&mut h, s, None, right, ALL_KINDS)
    }

    /// Whether the values of 13-tile node `n` are exact (no change can be taken on any
    /// line from it: the advance-or-throw recurrence with exact counts).
    pub fn is_exact(&self, n: u32) -> bool {
        n == ONE || !self.buf.draw_nodes[n as usize].changes_below
    }

    /// Win and tenpai value of a 13-tile node with all `T` draws to come.
    pub fn odds(&self, n: u32) -> Odds {
        Odds {
            win: self.draw_win(n, self.horizon),
            tenpai: self.draw_tenpai(n, self.horizon),
        }
    }

    /// Counts a state; stops at the state limit, and at the deadline (read every 16th
    /// state: a state with changes is checked again per change kind).
    fn tick(&mut self) -> PlanResult<()> {
        self.ticks += 1;
        if self.buf.draw_memo.len() + self.buf.discard_memo.len() >= self.state_limit {
            return Err(Stopped::StateLimit(self.state_limit));
        }
        if self.ticks % 16 == 1 {
            self.check_clock()?;
        }
        Ok(())
    }

    /// [`Stopped::Deadline`] once the deadline has passed.
    fn check_clock(&self) -> PlanResult<()> {
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(Stopped::Deadline),
            _ => Ok(()),
        }
    }

    /// Room for one more state of either kind and `edges` more edges / targets.
    fn room(&mut self, edges: usize) -> PlanResult<()> {
        let stride = self.stride();
        vec_room(&mut self.buf.values, stride, &mut self.memory)?;
        vec_room(&mut self.buf.draw_nodes, 1, &mut self.memory)?;
        vec_room(&mut self.buf.discard_nodes, 1, &mut self.memory)?;
        vec_room(&mut self.buf.useful, 34, &mut self.memory)?;
        vec_room(&mut self.buf.changes, 34, &mut self.memory)?;
        vec_room(&mut self.buf.targets, edges, &mut self.memory)?;
        map_room(&mut self.buf.draw_memo, &mut self.memory)?;
        map_room(&mut self.buf.discard_memo, &mut self.memory)
    }

    /// Bytes the structures have allocated (for the tests of the budget accounting).
    pub fn allocated_bytes(&self) -> usize {
        self.buf.bytes()
    }

    /// Copies the plan counts for kind `k` of 13-tile hand `h` (supply minus hand, one
    /// lower for the first discard's kind while the variant holds).
    #[inline]
    fn copies(&self, h: &[u8; 34], k: usize, variant: Option<u8>) -> i32 {
        i32::from(self.supply[k]) - i32::from(h[k]) - i32::from(variant == Some(k as u8))
    }

    /// The state `h` (3n+1 tiles, about to draw) at shanten `s`, found in the memo or
    /// built in stages: its useful draws ([`Planner::useful_draws`]), their 3n+2 children
    /// ([`Planner::useful_children`]), its change kinds ([`Planner::change_kinds`]), then
    /// the node and its values ([`Planner::push_draw_node`]). `variant = Some(d)`: the
    /// first discard was `d`; its copies count one lower while `d` is useful (then the
    /// state is shared with `None`). `right`: the change is still available.
    /// `candidates`: a superset of the useful kinds (the kinds useful to the hand this
    /// one advanced from, by the nesting lemma; every kind after a change).
    fn draw_node(
        &mut self,
        h: &mut [u8; 34],
        s: i8,
        variant: Option<u8>,
        right: bool,
        candidates: u64,
    ) -> PlanResult<u32> {
        let key = pack(h, variant, right);
        if let Some(&i) = self.buf.draw_memo.get(&key) {
            return Ok(i);
        }
        // Shanten s needs s draws to tenpai and s + 1 to win: beyond the horizon every
        // value is 0 (a changed line cannot get there faster).
        if s > 0 && s as usize > self.horizon {
            return self.memoise_draw_node(key, ZERO);
        }
        self.tick()?;
        let exchange = right && s <= self.config.exchange_up_to;
        let down = right && s <= self.config.down_up_to;
        let mut scan = if exchange || down {
            ALL_KINDS
        } else {
            candidates
        };
        if let Some(d) = variant {
            scan |= 1 << d;
        }
        let draws = self.useful_draws(h, s, variant, scan)?;
        if variant.is_some_and(|d| draws.mask & (1 << d) == 0) {
            // The first discard is no longer useful: its copies count as any other's.
            let i = self.draw_node(h, s, None, right, candidates)?;
            return self.memoise_draw_node(key, i);
        }
        // The child is at shanten s - 1: the change survives if s - 1 >= floor.
        let keep = right && s > self.change_floor;
        let children = self.useful_children(h, s, variant, keep, &draws)?;
        // A break from tenpai only when the waits are weak: at most `WEAK_WAITS` copies.
        let down = down && (s > 0 || draws.copies <= WEAK_WAITS);
        let changes = if exchange || down {
            self.change_kinds(h, s, variant, exchange, down, &draws)?
        } else {
            ChangeKinds::NONE
        };
        let id = self.push_draw_node(&draws, &children, &changes)?;
        self.fill_draw_values(id, s <= 0);
        self.buf.draw_memo.insert(key, id);
        Ok(id)
    }

    /// Records `id` as the node of the state `key` (room made first).
    fn memoise_draw_node(&mut self, key: u128, id: u32) -> PlanResult<u32> {
        map_room(&mut self.buf.draw_memo, &mut self.memory)?;
        self.buf.draw_memo.insert(key, id);
        Ok(id)
    }

    /// The useful draws of the 3n+1 hand `h` at shanten `s`, looked for among the kinds
    /// in `scan`, with the plan's copies, and the copies of every kind not in the hand.
    fn useful_draws(
        &mut self,
        h: &mut [u8; 34],
        s: i8,
        variant: Option<u8>,
        scan: u64,
    ) -> PlanResult<UsefulDraws> {
        let mask = self.useful_mask(h, s, scan, |_| ALL_KINDS)?;
        let mut draws = UsefulDraws {
            mask,
            kinds: [(0, 0); 34],
            len: 0,
            copies: 0,
            all_copies: 0,
        };
        for k in 0..34 {
            let left = self.copies(h, k, variant);
            if left <= 0 {
                continue;
            }
            draws.all_copies += left as u32;
            if mask & (1 << k) != 0 {
                draws.kinds[draws.len] = (k as u8, left as u8);
                draws.len += 1;
                draws.copies += left as u32;
            }
        }
        Ok(draws)
    }

    /// The edges of the useful draws: each kind's 3n+2 child (its advancing discards,
    /// with the change kept when `keep`), or [`ONE`] when the draw wins (`s <= 0`).
    fn useful_children(
        &mut self,
        h: &mut [u8; 34],
        s: i8,
        variant: Option<u8>,
        keep: bool,
        draws: &UsefulDraws,
    ) -> PlanResult<[Useful; 34]> {
        let mut children = [Useful {
            kind: 0,
            copies: 0,
            child: ONE,
        }; 34];
        for (slot, &(kind, copies)) in children.iter_mut().zip(draws.kinds()) {
            let child = if s <= 0 {
                ONE
            } else {
                let k = kind as usize;
                h[k] += 1;
                let c = self.discard_node(h, s - 1, variant, keep, draws.mask);
                h[k] -= 1;
                c?
            };
            *slot = Useful {
                kind,
                copies,
                child,
            };
        }
        Ok(children)
    }

    /// Change kinds: the draws that do not lower shanten, each with its targets: the
    /// tegawari (`exchange`) and the breaking-down discard (`down`) whose hand has the
    /// most useful copies, kept only if that beats the state's own.
    fn change_kinds(
        &mut self,
        h: &mut [u8; 34],
        s: i8,
        variant: Option<u8>,
        exchange: bool,
        down: bool,
        draws: &UsefulDraws,
    ) -> PlanResult<ChangeKinds> {
        let mut out = ChangeKinds::NONE;
        for m in 0..34 {
            let left = self.copies(h, m, variant);
            if left <= 0 || h[m] >= 4 || draws.mask & (1 << m) != 0 {
                continue;
            }
            // Weighing one drawn kind's changes is up to 14 * 34 shanten evaluations.
            self.check_clock()?;
            h[m] += 1;
            let first = out.n_targets;
            let found = self.change_targets(h, m, s, variant, [exchange, down], draws.copies);
            h[m] -= 1;
            let (found, n) = found?;
            out.targets[first..first + n].copy_from_slice(&found[..n]);
            out.n_targets += n;
            if out.n_targets > first {
                out.kinds[out.len] = (
                    m as u8,
                    left as u8,
                    first as u8,
                    (out.n_targets - first) as u8,
                );
                out.len += 1;
            }
        }
        Ok(out)
    }

    /// For the 3n+2 hand `h` (the state's hand and a drawn kind `m` that does not lower
    /// its shanten `s`): the nodes of the best tegawari (`allowed[0]`: a discard keeping
    /// shanten `s`) and the best break-down (`allowed[1]`: a discard raising it to
    /// `s + 1`), each the discard whose hand has the most useful copies, above `own`
    /// (the state's): `(nodes, n)`, the nodes in `nodes[..n]`, [`ZERO`] left out.
    fn change_targets(
        &mut self,
        h: &mut [u8; 34],
        m: usize,
        s: i8,
        variant: Option<u8>,
        allowed: [bool; 2],
        own: u32,
    ) -> PlanResult<([u32; 2], usize)> {
        let disc = self.judge.shanten_after_each_discard(h);
        // The regular form of `h + m - j + k` is bounded by that of `h + m + k`, for
        // every `j`: one scan (when a discard's hand is not memoised) limits the kinds
        // whose regular form is weighed for all of them.
        let judge = self.judge;
        let mut bound: Option<[i8; 34]> = None;
        // (discard, its shanten, useful copies) of the best exchange and break.
        let mut best: [Option<(usize, i8, u32)>; 2] = [None, None];
        for j in 0..34 {
            if h[j] == 0 || j == m {
                continue;
            }
            let to = disc[j];
            let slot = if allowed[0] && to == s {
                0
            } else if allowed[1] && to == s + 1 {
                1
            } else {
                continue;
            };
            h[j] -= 1;
            let u = self.useful_copies(h, to, variant, |x| {
                let b = bound.get_or_insert_with(|| {
                    x[j] += 1;
                    let b = judge.regular_after_each_draw(x);
                    x[j] -= 1;
                    b
                });
                // `j` itself: `h + m - j + j` is the 14-tile hand, not bounded.
                (0..34)
                    .filter(|&k| b[k] < to)
                    .fold(1u64 << j, |mask, k| mask | 1 << k)
            });
            h[j] += 1;
            let u = u?;
            if u > own && best[slot].is_none_or(|b| u > b.2) {
                best[slot] = Some((j, to, u));
            }
        }
        let (mut found, mut n) = ([ZERO; 2], 0);
        for (j, to, _) in best.into_iter().flatten() {
            h[j] -= 1;
            let t = self.draw_node(h, to, variant, false, ALL_KINDS);
            h[j] += 1;
            let t = t?;
            if t != ZERO {
                found[n] = t;
                n += 1;
            }
        }
        Ok((found, n))
    }

    /// Stores the state's node and edges (room reserved first), returns its id.
    fn push_draw_node(
        &mut self,
        draws: &UsefulDraws,
        children: &[Useful; 34],
        changes: &ChangeKinds,
    ) -> PlanResult<u32> {
        self.room(changes.n_targets)?;
        let id = self.buf.draw_nodes.len() as u32;
        let arena = (self.buf.values.len() / self.stride()) as u32;
        let u0 = self.buf.useful.len() as u32;
        let children = &children[..draws.len];
        self.buf.useful.extend_from_slice(children);
        let c0 = self.buf.changes.len() as u32;
        let base = self.buf.targets.len() as u32;
        self.buf
            .targets
            .extend_from_slice(&changes.targets[..changes.n_targets]);
        for &(kind, copies, first, len) in &changes.kinds[..changes.len] {
            self.buf.changes.push(Change {
                kind,
                copies,
                start: base + u32::from(first),
                len: u32::from(len),
            });
        }
        let changes_below = changes.len > 0
            || children
                .iter()
                .any(|e| e.child != ONE && self.buf.discard_nodes[e.child as usize].changes_below);
        self.buf.draw_nodes.push(DrawNode {
            arena,
            u0,
            un: draws.len as u16,
            c0,
            cn: changes.len as u16,
            useful_copies: draws.copies as u16,
            all_copies: draws.all_copies as u16,
            changes_below,
        });
        Ok(id)
    }

    /// Computes the value arrays of 13-tile node `id` (the last arena slot to be) from
    /// its edges; children are at lower arena slots, already computed.
    fn fill_draw_values(&mut self, id: u32, tenpai: bool) {
        let t = self.horizon;
        let stride = self.stride();
        let node = self.buf.draw_nodes[id as usize];
        let at = self.buf.values.len();
        self.buf.values.resize(at + stride, 0.0);
        let (done, own) = self.buf.values.split_at_mut(at);
        let (win, ten) = own.split_at_mut(t + 1);
        let a = f64::from(node.useful_copies);
        let rest = f64::from(node.all_copies) - a;
        let useful = &self.buf.useful[node.u0 as usize..(node.u0 + u32::from(node.un)) as usize];
        let changes = &self.buf.changes[node.c0 as usize..(node.c0 + u32::from(node.cn)) as usize];
        let arena13 = |n: u32| self.buf.draw_nodes[n as usize].arena as usize * stride;
        for r in 1..=t {
            let m_r = f64::from(self.pool[r]).max(a).max(1.0);
            let (stay_w, stay_t) = (win[r - 1], ten[r - 1]);
            let mut w = 0.0;
            let mut tp = 0.0;
            for e in useful {
                let p = f64::from(e.copies) / m_r;
                if e.child == ONE {
                    w += p;
                    tp += p;
                } else {
                    let c = self.buf.discard_nodes[e.child as usize].arena as usize * stride;
                    w += p * done[c + r - 1];
                    tp += p * done[c + t + r];
                }
            }
            let p_other = 1.0 - a / m_r;
            let mut p_rest = p_other;
            if rest > 0.0 {
                for c in changes {
                    let q = p_other * f64::from(c.copies) / rest;
                    p_rest -= q;
                    let (mut bw, mut bt) = (stay_w, stay_t);
                    for &x in &self.buf.targets[c.start as usize..(c.start + c.len) as usize] {
                        let b = arena13(x);
                        let (xw, xt) = (done[b + r - 1], done[b + t + r]);
                        if better(xw, xt, bw, bt) {
                            (bw, bt) = (xw, xt);
                        }
                    }
                    w += q * bw;
                    tp += q * bt;
                }
            }
            w += p_rest * stay_w;
            tp += p_rest * stay_t;
            // Sums of fractions can exceed 1 by a rounding error; probabilities do not.
            win[r] = w.clamp(0.0, 1.0);
            ten[r] = tp.clamp(0.0, 1.0);
        }
        if tenpai {
            ten.fill(1.0);
        }
    }

    /// The useful kinds (bit `k` = kind `k`) of the 13-tile hand `h` at shanten `s` (its
    /// shanten): the kinds `k` with fewer than 4 copies in `h` whose draw lowers
    /// shanten. `scan` is a superset of them (every kind, or the kinds useful to a hand
    /// this one advanced from: the nesting lemma of the module docs). Memoised by the
    /// hand alone, the set being a function of the hand (not of the variant, the change
    /// bit or the path): a state's scan serves the change weighing of its neighbours,
    /// whose targets are often states of the tree, and the other way round.
    /// `regular`, called on a miss with `h`, gives the kinds whose regular form may be
    /// below `s` (a superset; see [`ShantenJudge::shanten_after_draws_weighing`]).
    fn useful_mask(
        &mut self,
        h: &mut [u8; 34],
        s: i8,
        scan: u64,
        regular: impl FnOnce(&mut [u8; 34]) -> u64,
    ) -> PlanResult<u64> {
        let key = pack(h, None, false);
        if let Some(&mask) = self.buf.useful_memo.get(&key) {
            return Ok(mask);
        }
        let regular = regular(h);
        let after = self.judge.shanten_after_draws_weighing(h, scan, regular);
        let mask = (0..34)
            .filter(|&k| after[k] < s)
            .fold(0u64, |m, k| m | 1 << k);
        map_room(&mut self.buf.useful_memo, &mut self.memory)?;
        self.buf.useful_memo.insert(key, mask);
        Ok(mask)
    }

    /// Useful copies (plan counts) of the 13-tile hand `h` at shanten `s` (its
    /// shanten): [`Planner::useful_mask`] (neighbouring states weigh the same targets,
    /// and so do the subtrees of different first discards), counted.
    fn useful_copies(
        &mut self,
        h: &mut [u8; 34],
        s: i8,
        variant: Option<u8>,
        regular: impl FnOnce(&mut [u8; 34]) -> u64,
    ) -> PlanResult<u32> {
        let mask = self.useful_mask(h, s, ALL_KINDS, regular)?;
        let mut u = 0;
        let mut bits = mask;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            u += self.copies(h, k, variant).max(0) as u32;
        }
        Ok(u)
    }

    /// The 14-tile state `h` after a useful draw (not winning): its discards that leave
    /// shanten `target`.
    fn discard_node(
        &mut self,
        h: &mut [u8; 34],
        target: i8,
        variant: Option<u8>,
        right: bool,
        candidates: u64,
    ) -> PlanResult<u32> {
        let key = pack(h, variant, right);
        if let Some(&i) = self.buf.discard_memo.get(&key) {
            return Ok(i);
        }
        self.tick()?;
        let after = self.judge.shanten_after_each_discard(h);
        let mut kids = [ZERO; 14];
        let mut n = 0;
        for j in 0..34 {
            if h[j] == 0 || after[j] != target {
                continue;
            }
            h[j] -= 1;
            let child = self.draw_node(h, target, variant, right, candidates);
            h[j] += 1;
            if n < kids.len() {
                kids[n] = child?;
                n += 1;
            }
        }
        self.room(n)?;
        let id = self.buf.discard_nodes.len() as u32;
        let arena = (self.buf.values.len() / self.stride()) as u32;
        let start = self.buf.targets.len() as u32;
        self.buf.targets.extend_from_slice(&kids[..n]);
        let changes_below = kids[..n]
            .iter()
            .any(|&k| self.buf.draw_nodes[k as usize].changes_below);
        self.buf.discard_nodes.push(DiscardNode {
            arena,
            start,
            len: n as u32,
            changes_below,
        });
        let t = self.horizon;
        let stride = self.stride();
        let at = self.buf.values.len();
        self.buf.values.resize(at + stride, 0.0);
        for r in 0..=t {
            if let Some(best) = self.choose(kids[..n].iter().copied(), r) {
                let (w, tp) = (self.draw_win(best, r), self.draw_tenpai(best, r));
                self.buf.values[at + r] = w;
                self.buf.values[at + t + 1 + r] = tp;
            }
        }
        self.buf.discard_memo.insert(key, id);
        Ok(id)
    }
}

/// The plan's order on (win, tenpai) pairs: more win, ties (1e-12) to more tenpai.
#[inline]
pub fn better(w: f64, t: f64, bw: f64, bt: f64) -> bool {
    w > bw + 1e-12 || ((w - bw).abs() <= 1e-12 && t > bt + 1e-12)
}

/// The state key: 3 bits per kind (counts 0..=4), the variant kind + 1 above them, and
/// the change bit.
fn pack(h: &[u8; 34], variant: Option<u8>, right: bool) -> u128 {
    let mut key = 0u128;
    for (i, &c) in h.iter().enumerate() {
        key |= u128::from(c) << (3 * i);
    }
    if let Some(d) = variant {
        key |= u128::from(d + 1) << 102;
    }
    key | u128::from(right) << 110
}

impl Drop for Planner {
    /// Leaves the buffers, with the reservation that pays for them, for the next planner
    /// (freed instead if they do not fit in the pool or were charged to another budget).
    fn drop(&mut self) {
        let budget = self.memory.budget();
        let memory = std::mem::replace(&mut self.memory, budget.reservation());
        BufferPool::global().give(std::mem::take(&mut self.buf), memory);
    }
}

/// A multiply-fold hasher for the `u128` state keys (the std SipHash is several times
/// slower; the keys are not attacker-chosen in a way that matters: the state count is
/// bounded).
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn write_u128(&mut self, v: u128) {
        let lo = v as u64;
        let hi = (v >> 64) as u64;
        let x = (lo ^ hi.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = x ^ (x >> 32) ^ hi.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    }
}

/// The plan tables' hasher builder.
pub type FastBuild = BuildHasherDefault<FastHasher>;
