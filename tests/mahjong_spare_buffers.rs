//! The plan's spare buffers (`src/mahjong/probability/buffer_pool.rs`): a planner that takes
//! the buffers a finished one left behind gives the same values to the bit as one that
//! starts from empty buffers, and the budget accounting follows the buffers.
//!
//! Its own test binary with one test: the pool and the budget are process-wide, and
//! another test's planners would take or leave sets in between.

use gameai::mahjong::hand::Hand;
use gameai::mahjong::probability::buffer_pool::BufferPool;
use gameai::mahjong::probability::plan::{PlanConfig, Planner};
use gameai::mahjong::probability::shanten_judge::ShantenJudge;
use gameai::mahjong::rules::Ruleset;
use gameai::mahjong::shanten::ANY_SUIT;
use gameai::memory_budget::MemoryBudget;

/// Every discard's (win, tenpai) bits of the engine's plan for a concealed hand.
fn plan_bits(planner: &mut Planner, hand: &[u8; 34]) -> Vec<(usize, u64, u64)> {
    let mut out = Vec::new();
    for d in 0..34 {
        if let Some(root) = planner.root(hand, d, true).unwrap() {
            let odds = planner.odds(root);
            out.push((d, odds.win.to_bits(), odds.tenpai.to_bits()));
        }
    }
    out
}

fn planner(hand: &Hand, draws: u32) -> Planner {
    let judge = ShantenJudge::new(0, Ruleset::Riichi, ANY_SUIT);
    Planner::new(
        judge,
        PlanConfig::ONE_CHANGE,
        &hand.concealed().0,
        &hand.unseen(),
        draws,
        None,
    )
}

#[test]
fn a_planner_on_spare_buffers_gives_the_same_values_and_is_charged_for_them() {
    let pool = BufferPool::global();
    let budget = MemoryBudget::global();
    pool.release();
    assert_eq!((pool.bytes(), budget.used()), (0, 0));

    // One-shanten (the hand to compare) and two-shanten (a larger plan) RIICHI hands.
    let small = Hand::parse("123m456p789s1245z5z", Vec::new(), "", Ruleset::Riichi).unwrap();
    let large = Hand::parse("12m468p3579s11223z", Vec::new(), "", Ruleset::Riichi).unwrap();
    let (small_hand, large_hand) = (small.concealed().0, large.concealed().0);

    // Fresh buffers: the pool is empty.
    let mut fresh = planner(&small, 6);
    let expected = plan_bits(&mut fresh, &small_hand);
    assert!(expected.iter().any(|&(_, w, _)| f64::from_bits(w) > 0.0));
    let fresh_bytes = fresh.allocated_bytes();
    drop(fresh);
    // Left in the pool, charged to the budget for exactly their capacity.
    assert_eq!(pool.bytes(), fresh_bytes);
    assert_eq!(budget.used(), fresh_bytes);

    // A larger plan takes them, grows them and leaves them.
    let mut big = planner(&large, 5);
    assert_eq!(pool.bytes(), 0, "the set was taken");
    assert_eq!(big.reserved_bytes(), fresh_bytes, "with its reservation");
    let _ = plan_bits(&mut big, &large_hand);
    assert!(big.states() > 1000, "{}", big.states());
    let big_bytes = big.allocated_bytes();
    assert!(big_bytes > fresh_bytes);
    assert!(big.reserved_bytes() >= big_bytes);
    drop(big);
    assert_eq!(pool.bytes(), big_bytes);
    assert_eq!(budget.used(), big_bytes);

    // The small hand again, on the large plan's (cleared) buffers: the same bits.
    let mut reused = planner(&small, 6);
    assert_eq!(
        reused.allocated_bytes(),
        big_bytes,
        "the spare set is in use"
    );
    assert_eq!(plan_bits(&mut reused, &small_hand), expected);
    drop(reused);

    // A planner on another budget leaves the pool alone and is not pooled itself.
    let other = MemoryBudget::leak(64 << 20);
    let elsewhere = planner(&small, 6).with_memory_budget(other);
    assert_eq!(
        pool.bytes(),
        big_bytes,
        "the spare set went back to the pool"
    );
    drop(elsewhere);
    assert_eq!((pool.bytes(), other.used()), (big_bytes, 0));

    assert_eq!(pool.release(), big_bytes);
    assert_eq!((pool.bytes(), budget.used()), (0, 0));
}
