//! Duplicate Dou Dizhu deals shared by the match examples: each seeded deal is played
//! twice, A as landlord against two B farmers, then B as landlord against two A
//! farmers, and A's share of the games is reported with its standard error over the
//! per-deal scores.

use std::time::Instant;

use gameai::doudizhu::Cards;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

/// A's results over the deals.
pub struct Summary {
    /// A's share of the games.
    pub mean: f64,
    /// Its standard error over the per-deal scores.
    pub se: f64,
    /// A's win rate as landlord.
    pub landlord: f64,
    /// A's win rate as farmers.
    pub farmers: f64,
    /// Seconds the deals took.
    pub secs: f64,
}

/// Plays `deals` deals of seed `seed` (a seeded shuffle: landlord 20 cards with the
/// last three as bottom cards, then 17 and 17). `game(hands, bottom, a_is_landlord)`
/// plays one game and says whether the landlord won. Every `progress` deals (0 = never)
/// a line goes to stderr.
pub fn play(
    deals: usize,
    seed: u64,
    progress: usize,
    mut game: impl FnMut([Cards; 3], Cards, bool) -> bool,
) -> Summary {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut deck: Vec<char> = "3456789TJQKA2".chars().flat_map(|c| [c; 4]).collect();
    deck.push('X');
    deck.push('D');
    let (mut landlord_wins, mut farmer_wins) = (0u32, 0u32);
    let mut per_deal: Vec<f64> = Vec::with_capacity(deals);
    let started = Instant::now();
    for d in 0..deals {
        deck.shuffle(&mut rng);
        let s: String = deck.iter().collect();
        let parse = |t: &str| t.parse::<Cards>().expect("deck cards parse");
        let hands = [parse(&s[..20]), parse(&s[20..37]), parse(&s[37..])];
        let bottom = parse(&s[17..20]);
        let a_landlord = game(hands, bottom, true);
        let a_farmers = !game(hands, bottom, false);
        landlord_wins += u32::from(a_landlord);
        farmer_wins += u32::from(a_farmers);
        per_deal.push(f64::from(u8::from(a_landlord) + u8::from(a_farmers)) / 2.0);
        if progress > 0 && (d + 1) % progress == 0 {
            eprintln!("{} deals, {:?}", d + 1, started.elapsed());
        }
    }
    let n = deals as f64;
    let mean = per_deal.iter().sum::<f64>() / n;
    let var = per_deal.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    Summary {
        mean,
        se: (var / n).sqrt(),
        landlord: f64::from(landlord_wins) / n,
        farmers: f64::from(farmer_wins) / n,
        secs: started.elapsed().as_secs_f64(),
    }
}
