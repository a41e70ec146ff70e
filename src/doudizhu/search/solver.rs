//! The exact perfect-information endgame solver: does the landlord win a [`Position`]
//! when all three seats play perfectly, knowing every hand?
//!
//! The game is a two-sided win / loss game (the landlord against the two farmers, a
//! farmer going out wins for both), so the solver is a boolean alpha-beta: a seat's side
//! wins when some move wins for it, and a cut is taken at the first one. On top:
//!
//! - **Transposition table** keyed on the three hands, the seat to move and the play to
//!   beat (kind, length, main rank, and whether one pass has been made on it: kickers
//!   and the cards of the play do not matter to what may follow). Only proven values
//!   are stored. Its memory is reserved from the process-wide engine budget
//!   ([`MemoryBudget`]) *before* the table grows (the pattern of
//!   `mahjong::probability::exact::make_room`); when the budget refuses, or the table
//!   reaches [`TT_MAX_CAPACITY`], it stops growing and the search goes on without new
//!   entries: still exact, only slower.
//! - **Move ordering from the heuristic**: going out first; then the plays leaving the
//!   best hand value (seed 000's `sum_value - 7 * need_rounds`, the heuristic policy's
//!   own measure), more cards first on ties; a pass is tried first on a teammate's play
//!   and last on an opponent's.
//! - **Sound shortcuts**: a seat that can play its whole hand at once wins; a seat on a
//!   free lead whose hand splits (by seed 000's best decomposition) into groups that no
//!   opponent can beat, bar at most one, wins too (it plays the unbeatable groups, the
//!   opponents must pass, its teammate may, and the last group empties the hand).
//!
//! Bounds: a node cap per call and an optional deadline (read every 64 nodes); a call
//! that hits either returns [`Stop`] and stores nothing unproven. Checked against an
//! independent brute-force minimax in `tests/doudizhu_solver.rs`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::time::Instant;

use super::position::{LANDLORD, Position, same_side};
use crate::doudizhu::groups::{minus, pack};
use crate::doudizhu::movegen::{for_each_follow, for_each_lead, try_for_each_follow};
use crate::doudizhu::play::{Play, Rules};
use crate::doudizhu::value::Evaluator;
use crate::memory_budget::{MemoryBudget, Reservation, hash_table_bytes};
use std::ops::ControlFlow;

/// Why a solve stopped before proving its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The deadline passed.
    Deadline,
    /// The call's node cap was reached.
    NodeCap,
}

/// Largest transposition-table capacity (entries) one solver grows to: 2^20 buckets,
/// about 33 MiB.
pub const TT_MAX_CAPACITY: usize = (1 << 20) / 8 * 7;

/// Smallest growth of the table, in entries.
const TT_MIN_GROWTH: usize = 1 << 12;

/// Bytes of one table entry (`(Key, bool)`, 24 + 1 padded to 8).
const TT_ENTRY_BYTES: usize = std::mem::size_of::<(Key, bool)>();

/// A transposition-table key: the three packed hands (45 bits each), the seat to move
/// and the play to beat in the spare high bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key([u64; 3]);

impl Key {
    fn of(pos: &Position) -> Key {
        // Seat to move (2 bits); play to beat: present (1), passes since (1), kind (4),
        // length (4), main rank (4). The play's cards never matter to what may follow.
        let mut meta = pos.turn as u64;
        if let Some((p, by)) = pos.last
            && by != pos.turn
        {
            let after_one_pass = (by + 2) % 3 == pos.turn;
            meta |= 1 << 2
                | u64::from(after_one_pass) << 3
                | (p.kind as u64) << 4
                | u64::from(p.len) << 8
                | (p.main.index() as u64) << 12;
        }
        Key([
            pack(pos.hands[0].counts()) | meta << 45,
            pack(pos.hands[1].counts()),
            pack(pos.hands[2].counts()),
        ])
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let [a, b, c] = self.0;
        let x = a
            ^ b.rotate_left(21).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ c.rotate_left(42).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        state.write_u64(x);
    }
}

/// Finishes the one `u64` a [`Key`] writes (splitmix64's finaliser: both the low bits
/// that pick a bucket and the high bits of the control byte are well mixed).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b) ^ (self.0 >> 56);
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 ^= k;
    }
}

/// The solver; one per decision, its table shared across the worlds it solves.
pub struct Solver {
    rules: Rules,
    deadline: Option<Instant>,
    nodes: u64,
    cap: u64,
    tt: HashMap<Key, bool, BuildHasherDefault<KeyHasher>>,
    memory: Reservation,
    /// The table stopped growing (budget refused, or [`TT_MAX_CAPACITY`]).
    tt_full: bool,
    refused: bool,
    ev: Evaluator,
    /// Move lists, one per search depth (no allocation per node).
    bufs: Vec<Vec<(i32, Play)>>,
}

impl Solver {
    /// A solver with an empty table drawing from `budget` (engines pass
    /// [`MemoryBudget::global`]); `deadline`: stop with [`Stop::Deadline`] once passed.
    pub fn new(rules: Rules, deadline: Option<Instant>, budget: &'static MemoryBudget) -> Solver {
        Solver {
            rules,
            deadline,
            nodes: 0,
            cap: u64::MAX,
            tt: HashMap::default(),
            memory: budget.reservation(),
            tt_full: false,
            refused: false,
            ev: Evaluator::with_budget(1 << 10, budget),
            bufs: Vec::new(),
        }
    }

    /// Nodes visited so far, over all calls.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the engine memory budget refused the table a growth.
    pub fn memory_refused(&self) -> bool {
        self.refused
    }

    /// Entries in the transposition table.
    pub fn table_len(&self) -> usize {
        self.tt.len()
    }

    /// Bytes reserved from the engine memory budget now.
    pub fn reserved_bytes(&self) -> usize {
        self.memory.bytes()
    }

    /// Whether the landlord wins `pos` with perfect play on both sides, visiting at most
    /// `max_nodes` more nodes. A position where some hand is already empty is decided:
    /// the side of the empty hand has won.
    pub fn landlord_wins(&mut self, pos: &Position, max_nodes: u64) -> Result<bool, Stop> {
        if let Some(s) = (0..3).find(|&s| pos.hands[s].is_empty()) {
            return Ok(s == LANDLORD);
        }
        self.cap = self.nodes.saturating_add(max_nodes);
        let mut p = *pos;
        self.search(&mut p, 0)
    }

    /// Whether the side of the seat to move wins after it plays `play` (`None` = pass)
    /// in `pos`; the caller keeps the play legal.
    pub fn mover_wins_with(
        &mut self,
        pos: &Position,
        play: Option<&Play>,
        max_nodes: u64,
    ) -> Result<bool, Stop> {
        let next = pos.after(play);
        if next.hands[pos.turn].is_empty() {
            return Ok(true);
        }
        Ok(self.landlord_wins(&next, max_nodes)? == (pos.turn == LANDLORD))
    }

    fn search(&mut self, pos: &mut Position, depth: usize) -> Result<bool, Stop> {
        self.nodes += 1;
        if self.nodes >= self.cap {
            return Err(Stop::NodeCap);
        }
        if self.nodes.is_multiple_of(64)
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            return Err(Stop::Deadline);
        }
        let key = Key::of(pos);
        if let Some(&v) = self.tt.get(&key) {
            return Ok(v);
        }
        let turn = pos.turn;
        let want = turn == LANDLORD;
        let hand = pos.hands[turn];
        let n = hand.len();
        let to_beat = pos.to_beat();
        if depth >= self.bufs.len() {
            self.bufs.push(Vec::with_capacity(64));
        }
        let mut moves = std::mem::take(&mut self.bufs[depth]);
        moves.clear();
        let mut out = false;
        match &to_beat {
            None => for_each_lead(&hand, &self.rules, |p| {
                out |= p.card_count() == n;
                moves.push((0, *p));
            }),
            Some(t) => for_each_follow(&hand, t, &self.rules, |p| {
                out |= p.card_count() == n;
                moves.push((0, *p));
            }),
        }
        if out || (to_beat.is_none() && self.wins_by_control(pos)) {
            self.bufs[depth] = moves;
            self.store(key, want);
            return Ok(want);
        }
        // Order: the best hand value left first, more cards on ties.
        for m in moves.iter_mut() {
            let left = minus(hand.counts(), m.1.cards.counts());
            m.0 = self.ev.value(&left) * 32 + m.1.card_count() as i32;
        }
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        let pass_first = pos.to_beat_by().is_some_and(|by| same_side(by, turn));
        let mut result = !want;
        if to_beat.is_some() && pass_first {
            let mut next = pos.after(None);
            if self.search(&mut next, depth + 1)? == want {
                result = want;
            }
        }
        if result != want {
            for &(_, p) in &moves {
                let mut next = pos.after(Some(&p));
                let r = self.search(&mut next, depth + 1)?;
                if r == want {
                    result = want;
                    break;
                }
            }
        }
        if result != want && to_beat.is_some() && !pass_first {
            let mut next = pos.after(None);
            if self.search(&mut next, depth + 1)? == want {
                result = want;
            }
        }
        self.bufs[depth] = moves;
        self.store(key, result);
        Ok(result)
    }

    /// A seat on a free lead wins when all groups of its hand's best decomposition but
    /// at most one are beaten by no opponent (see the module docs).
    fn wins_by_control(&mut self, pos: &Position) -> bool {
        let turn = pos.turn;
        let e = self.ev.evaluate(pos.hands[turn].counts());
        if e.groups.len() < 2 {
            return e.groups.len() == 1;
        }
        let mut beatable = 0;
        for g in &e.groups {
            let beaten = (0..3).filter(|&s| !same_side(s, turn)).any(|s| {
                try_for_each_follow(&pos.hands[s], g, &self.rules, |_| ControlFlow::Break(()))
                    .is_break()
            });
            if beaten {
                beatable += 1;
                if beatable > 1 {
                    return false;
                }
            }
        }
        true
    }

    fn store(&mut self, key: Key, value: bool) {
        if self.tt.len() >= self.tt.capacity() && !self.make_room() {
            return;
        }
        self.tt.insert(key, value);
    }

    /// Makes room for one more entry, reserving from the engine memory budget before the
    /// table grows (old and new allocations are both live while it moves). False when
    /// the table must not grow (refused, or at its cap).
    fn make_room(&mut self) -> bool {
        if self.tt_full {
            return false;
        }
        let cap = self.tt.capacity();
        let new_cap = (2 * cap).max(TT_MIN_GROWTH);
        if new_cap > TT_MAX_CAPACITY {
            self.tt_full = true;
            return false;
        }
        let now = hash_table_bytes(cap, TT_ENTRY_BYTES);
        let next = hash_table_bytes(new_cap, TT_ENTRY_BYTES);
        if !self.memory.try_grow_to(now + next) {
            self.tt_full = true;
            self.refused = true;
            return false;
        }
        self.tt.reserve(new_cap - self.tt.len());
        let held = hash_table_bytes(self.tt.capacity(), TT_ENTRY_BYTES);
        let excess = self.memory.bytes().saturating_sub(held);
        self.memory.shrink(excess);
        if held > self.memory.bytes() && !self.memory.try_grow_to(held) {
            // Allocated already (the allocator rounded up): count it, grow no more.
            self.tt_full = true;
            self.refused = true;
        }
        true
    }
}
