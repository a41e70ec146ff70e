//! The state of the card-play phase as one player knows it, derived from their hand,
//! seat, the bottom cards and the public history (DESIGN.md: entry `i` of the history
//! was made by seat `i mod 3` in turn order landlord -> landlord_down -> landlord_up;
//! an empty play is a pass).
//!
//! [`GameState::derive`] replays the history, checking every play, and yields the cards
//! left per seat, the cards each seat played, the play to beat and who made it, the
//! unseen cards, the bottom cards the landlord still holds, and what each seat passed
//! on (a pass against an opponent's play reveals that the seat probably holds nothing
//! of that kind above it; the search uses it when sampling).

use thiserror::Error;

use super::card::{Cards, Rank};
use super::play::{Play, Rules, classify, default_reading};

/// A seat at the table, in turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// The landlord (地主): 20 cards, leads first.
    Landlord,
    /// The farmer who plays right after the landlord (地主下家).
    LandlordDown,
    /// The farmer who plays right before the landlord (地主上家).
    LandlordUp,
}

impl Seat {
    /// All seats in turn order.
    pub const ALL: [Seat; 3] = [Seat::Landlord, Seat::LandlordDown, Seat::LandlordUp];

    /// Index in turn order (landlord 0, down 1, up 2).
    pub const fn index(self) -> usize {
        match self {
            Seat::Landlord => 0,
            Seat::LandlordDown => 1,
            Seat::LandlordUp => 2,
        }
    }

    /// The seat's name in the gRPC contract (`SEAT_LANDLORD`, `SEAT_LANDLORD_DOWN`,
    /// `SEAT_LANDLORD_UP`), used in messages a caller reads.
    pub const fn proto_name(self) -> &'static str {
        match self {
            Seat::Landlord => "SEAT_LANDLORD",
            Seat::LandlordDown => "SEAT_LANDLORD_DOWN",
            Seat::LandlordUp => "SEAT_LANDLORD_UP",
        }
    }

    /// The seat at turn-order index `i mod 3`.
    pub const fn from_index(i: usize) -> Seat {
        Seat::ALL[i % 3]
    }

    /// The seat that plays next.
    pub const fn next(self) -> Seat {
        Seat::from_index(self.index() + 1)
    }

    /// Whether two seats are on the same side (both farmers, or the same seat).
    pub fn same_side(self, other: Seat) -> bool {
        self == other || (self != Seat::Landlord && other != Seat::Landlord)
    }

    /// Cards dealt to the seat: 20 for the landlord (17 + 3 bottom cards), 17 otherwise.
    pub const fn dealt(self) -> u8 {
        match self {
            Seat::Landlord => 20,
            _ => 17,
        }
    }
}

/// What the caller knows; the input of [`GameState::derive`].
#[derive(Clone, Debug)]
pub struct Observation {
    /// The cards in hand now.
    pub hand: Cards,
    /// The seat to move.
    pub seat: Seat,
    /// The three bottom cards (public, given to the landlord).
    pub landlord_cards: Cards,
    /// Every play so far in turn order (no cards = a pass).
    pub history: Vec<Cards>,
    /// Rule options.
    pub rules: Rules,
}

/// A fault in an observation. Each names what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StateError {
    /// More copies of a rank than the deck holds, across hand, history and bottom cards:
    /// with hand and history consistent ([`StateError::PlaysHeldCards`]), a farmer's
    /// bottom cards that the landlord has not played yet are at fault.
    #[error(
        "{count} cards of rank '{rank}' across hand, history and bottom cards (the deck has {max})"
    )]
    TooManyOfRank {
        /// The rank.
        rank: Rank,
        /// How many were seen.
        count: u8,
        /// How many the deck holds (4, or 1 for a joker).
        max: u8,
    },
    /// The bottom cards are not three cards.
    #[error("the bottom cards are {count} cards, not 3")]
    LandlordCardCount {
        /// Number given.
        count: u8,
    },
    /// The hand size does not match the seat and the history.
    #[error(
        "hand has {actual} cards but the seat was dealt {dealt} and played {played}, so it holds {expected}"
    )]
    HandSize {
        /// Cards in the hand given.
        actual: u8,
        /// Cards the seat was dealt.
        dealt: u8,
        /// Cards the seat played in the history.
        played: u8,
        /// Cards it must hold.
        expected: u8,
    },
    /// A history entry is no legal play at all.
    #[error("entry {index} '{cards}' is no legal play")]
    NotAPlay {
        /// Index in the history.
        index: usize,
        /// Its cards.
        cards: Cards,
    },
    /// A history entry passes on a free lead.
    #[error("entry {index} passes on a free lead")]
    PassOnFreeLead {
        /// Index in the history.
        index: usize,
    },
    /// A history entry does not beat the play it follows.
    #[error("entry {index} '{cards}' does not beat '{to_beat}'")]
    DoesNotBeat {
        /// Index in the history.
        index: usize,
        /// Its cards.
        cards: Cards,
        /// The play it had to beat.
        to_beat: Cards,
    },
    /// A history entry plays more cards than the seat had left.
    #[error("entry {index} plays {played} cards but that seat had {left} left")]
    MoreThanLeft {
        /// Index in the history.
        index: usize,
        /// Cards played.
        played: u8,
        /// Cards the seat had.
        left: u8,
    },
    /// The history continues after a seat emptied its hand.
    #[error(
        "entry {index} comes after the game ended (a seat emptied its hand at entry {ended_at})"
    )]
    AfterGameEnd {
        /// Index of the first entry after the end.
        index: usize,
        /// Index of the entry that emptied a hand.
        ended_at: usize,
    },
    /// The game is over: nobody is to move.
    #[error("the game is over (a seat emptied its hand at entry {ended_at})")]
    GameOver {
        /// Index of the entry that emptied a hand.
        ended_at: usize,
    },
    /// The seat given is not the one to move.
    #[error("{} is not to move; {} is", given.proto_name(), to_move.proto_name())]
    NotToMove {
        /// The seat given.
        given: Seat,
        /// The seat to move after the history.
        to_move: Seat,
    },
    /// The landlord's own plays use cards that are not in their hand nor played before.
    #[error(
        "the landlord's known cards (hand and own plays) do not hold the bottom cards: missing '{missing}'"
    )]
    LandlordCardsNotHeld {
        /// The bottom cards missing.
        missing: Cards,
    },
    /// A history entry plays cards of a rank that the hand and the entries before it
    /// already hold every copy of.
    #[error(
        "entry {index} '{cards}' plays {played} of rank '{rank}' but the hand and the entries before it already hold {held} (the deck has {max})"
    )]
    PlaysHeldCards {
        /// Index in the history.
        index: usize,
        /// Its cards.
        cards: Cards,
        /// The rank.
        rank: Rank,
        /// Cards of the rank the entry plays.
        played: u8,
        /// Cards of the rank in the hand and the entries before.
        held: u8,
        /// How many the deck holds (4, or 1 for a joker).
        max: u8,
    },
}

/// A pass a seat made, and the play it passed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassRecord {
    /// Who passed.
    pub seat: Seat,
    /// The play to beat at that moment.
    pub to_beat: Play,
    /// Who made that play.
    pub by: Seat,
    /// Index of the pass in the history.
    pub index: usize,
    /// The cards the passing seat played after this pass (its hand at the pass was its
    /// hand now plus these).
    pub played_after: Cards,
}

/// The state derived from an [`Observation`].
#[derive(Clone, Debug)]
pub struct GameState {
    /// The hand of the seat to move.
    pub hand: Cards,
    /// The seat to move.
    pub seat: Seat,
    /// Cards left per seat (turn-order index).
    pub cards_left: [u8; 3],
    /// Cards each seat played (turn-order index).
    pub played: [Cards; 3],
    /// Cards neither in hand nor played: held by the two other seats.
    pub unseen: Cards,
    /// Bottom cards the landlord has not played yet (when the seat is a farmer these
    /// are known to be in the landlord's hand; for the landlord, inside `hand`).
    pub landlord_known: Cards,
    /// The play to beat and who made it; `None` on a free lead.
    pub to_beat: Option<(Play, Seat)>,
    /// Every pass made on a play (not on a free lead).
    pub passes: Vec<PassRecord>,
    /// Number of plays (non-passes) each seat made.
    pub plays_made: [u8; 3],
    /// Rule options.
    pub rules: Rules,
}

impl GameState {
    /// Replays and checks the observation's history (see [`StateError`] for each check),
    /// in stages: the bottom cards' count, the history entry by entry ([`Replay`]), the
    /// seat to move, the card counts, the landlord's bottom cards, the hand's size.
    /// A play's reading: on a free lead DouZero's ([`default_reading`]: a trio chain
    /// before an airplane); when following, the reading that beats the play to beat.
    pub fn derive(obs: &Observation) -> Result<GameState, StateError> {
        let bottom_n = obs.landlord_cards.len();
        if bottom_n != 3 {
            return Err(StateError::LandlordCardCount {
                count: bottom_n as u8,
            });
        }
        let mut replay = Replay::new(obs.hand);
        for (i, entry) in obs.history.iter().enumerate() {
            replay.entry(i, entry, &obs.rules)?;
        }
        replay.check_seat_to_move(obs)?;
        let landlord_known = saturating_sub(&obs.landlord_cards, &replay.played[0]);
        check_card_counts(obs, &replay.played, &landlord_known)?;
        check_landlord_holds_bottom(obs, &replay.played)?;
        check_hand_size(obs, &replay)?;
        Ok(GameState {
            hand: obs.hand,
            seat: obs.seat,
            cards_left: replay.left,
            played: replay.played,
            unseen: unseen(&obs.hand, &replay.played),
            landlord_known,
            to_beat: if replay.passes_since >= 2 {
                None
            } else {
                replay.to_beat
            },
            passes: replay.passes,
            plays_made: replay.plays_made,
            rules: obs.rules,
        })
    }

    /// Cards left in the hand of `seat`.
    pub fn left(&self, seat: Seat) -> u8 {
        self.cards_left[seat.index()]
    }

    /// The opponents of the seat to move.
    pub fn opponents(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::ALL
            .into_iter()
            .filter(move |s| !s.same_side(self.seat))
    }

    /// The teammate of a farmer (`None` for the landlord).
    pub fn teammate(&self) -> Option<Seat> {
        Seat::ALL
            .into_iter()
            .find(|&s| s != self.seat && s.same_side(self.seat))
    }

    /// Fewest cards any opponent holds.
    pub fn min_opponent_left(&self) -> u8 {
        self.opponents().map(|s| self.left(s)).min().unwrap_or(0)
    }
}

/// The history replayed up to some entry: what [`GameState::derive`] tracks, entry by
/// entry.
struct Replay {
    /// The hand of the seat to move (what no entry may play a copy of beyond the deck).
    hand: Cards,
    /// Cards left per seat (turn-order index).
    left: [u8; 3],
    /// Cards each seat played.
    played: [Cards; 3],
    /// Plays (non-passes) each seat made.
    plays_made: [u8; 3],
    /// The play to beat and who made it (still set after two passes: see `passes_since`).
    to_beat: Option<(Play, Seat)>,
    /// Passes since the last play.
    passes_since: u8,
    /// Every pass made on a play.
    passes: Vec<PassRecord>,
    /// The entry that emptied a hand.
    ended_at: Option<usize>,
}

impl Replay {
    fn new(hand: Cards) -> Replay {
        Replay {
            hand,
            left: [20, 17, 17],
            played: [Cards::EMPTY; 3],
            plays_made: [0; 3],
            to_beat: None,
            passes_since: 0,
            passes: Vec::new(),
            ended_at: None,
        }
    }

    /// Replays entry `i` of the history.
    fn entry(&mut self, i: usize, entry: &Cards, rules: &Rules) -> Result<(), StateError> {
        if let Some(e) = self.ended_at {
            return Err(StateError::AfterGameEnd {
                index: i,
                ended_at: e,
            });
        }
        let seat = Seat::from_index(i);
        if entry.is_empty() {
            self.pass(i, seat)
        } else {
            self.play(i, seat, entry, rules)
        }
    }

    /// A pass by `seat` at entry `i`: only on a play; a second one ends the trick.
    fn pass(&mut self, i: usize, seat: Seat) -> Result<(), StateError> {
        let Some((g, by)) = self.to_beat else {
            return Err(StateError::PassOnFreeLead { index: i });
        };
        self.passes.push(PassRecord {
            seat,
            to_beat: g,
            by,
            index: i,
            played_after: Cards::EMPTY,
        });
        self.passes_since += 1;
        if self.passes_since == 2 {
            self.to_beat = None;
        }
        Ok(())
    }

    /// A play of `entry` by `seat` at entry `i`: a legal play, beating the play to beat,
    /// of no more cards than the seat holds, of no card that the hand and the entries
    /// before hold every copy of.
    fn play(
        &mut self,
        i: usize,
        seat: Seat,
        entry: &Cards,
        rules: &Rules,
    ) -> Result<(), StateError> {
        let reading = self.reading(i, entry, rules)?;
        let s = seat.index();
        let n = entry.len() as u8;
        if n > self.left[s] {
            return Err(StateError::MoreThanLeft {
                index: i,
                played: n,
                left: self.left[s],
            });
        }
        self.check_copies(i, entry)?;
        self.left[s] -= n;
        self.played[s] = add_unchecked(&self.played[s], entry);
        for p in self.passes.iter_mut().filter(|p| p.seat == seat) {
            p.played_after = add_unchecked(&p.played_after, entry);
        }
        self.plays_made[s] += 1;
        self.to_beat = Some((reading, seat));
        self.passes_since = 0;
        if self.left[s] == 0 {
            self.ended_at = Some(i);
        }
        Ok(())
    }

    /// No rank of `entry` beyond the deck with the hand and the entries before it.
    fn check_copies(&self, i: usize, entry: &Cards) -> Result<(), StateError> {
        for (rank, played) in entry.ranks() {
            let held =
                self.hand.count(rank) + self.played.iter().map(|p| p.count(rank)).sum::<u8>();
            let max = rank.copies_in_deck();
            if held + played > max {
                return Err(StateError::PlaysHeldCards {
                    index: i,
                    cards: *entry,
                    rank,
                    played,
                    held,
                    max,
                });
            }
        }
        Ok(())
    }

    /// The reading of `entry`: DouZero's on a free lead, else the one that beats the play
    /// to beat.
    fn reading(&self, i: usize, entry: &Cards, rules: &Rules) -> Result<Play, StateError> {
        let reads = classify(entry, rules);
        if reads.is_empty() {
            return Err(StateError::NotAPlay {
                index: i,
                cards: *entry,
            });
        }
        match self.to_beat {
            None => Ok(default_reading(&reads).expect("readings are not empty")),
            Some((g, _)) => {
                reads
                    .iter()
                    .rev()
                    .find(|r| r.beats(&g))
                    .copied()
                    .ok_or(StateError::DoesNotBeat {
                        index: i,
                        cards: *entry,
                        to_beat: g.cards,
                    })
            }
        }
    }

    /// After the whole history: the game goes on and the observation's seat is to move.
    fn check_seat_to_move(&self, obs: &Observation) -> Result<(), StateError> {
        if let Some(e) = self.ended_at {
            return Err(StateError::GameOver { ended_at: e });
        }
        let to_move = Seat::from_index(obs.history.len());
        if obs.seat != to_move {
            return Err(StateError::NotToMove {
                given: obs.seat,
                to_move,
            });
        }
        Ok(())
    }
}

/// No rank more often than the deck holds across every card seen: hand, all plays, and
/// for farmers the bottom cards the landlord still holds (hand and plays alone were
/// checked entry by entry).
fn check_card_counts(
    obs: &Observation,
    played: &[Cards; 3],
    landlord_known: &Cards,
) -> Result<(), StateError> {
    for r in Rank::ALL {
        let mut seen = u16::from(obs.hand.count(r))
            + played.iter().map(|p| u16::from(p.count(r))).sum::<u16>();
        if obs.seat != Seat::Landlord {
            seen += u16::from(landlord_known.count(r));
        }
        let max = r.copies_in_deck();
        if seen > u16::from(max) {
            return Err(StateError::TooManyOfRank {
                rank: r,
                count: seen as u8,
                max,
            });
        }
    }
    Ok(())
}

/// The landlord's hand and own plays hold the three bottom cards.
fn check_landlord_holds_bottom(obs: &Observation, played: &[Cards; 3]) -> Result<(), StateError> {
    if obs.seat != Seat::Landlord {
        return Ok(());
    }
    let own_cards = add_unchecked(&obs.hand, &played[0]);
    let missing = saturating_sub(&obs.landlord_cards, &own_cards);
    if !missing.is_empty() {
        return Err(StateError::LandlordCardsNotHeld { missing });
    }
    Ok(())
}

/// The hand holds what the seat was dealt less what it played.
fn check_hand_size(obs: &Observation, replay: &Replay) -> Result<(), StateError> {
    let me = obs.seat.index();
    let n = obs.hand.len() as u8;
    if n != replay.left[me] {
        return Err(StateError::HandSize {
            actual: n,
            dealt: obs.seat.dealt(),
            played: replay.played[me].len() as u8,
            expected: replay.left[me],
        });
    }
    Ok(())
}

/// The cards neither in `hand` nor `played`.
fn unseen(hand: &Cards, played: &[Cards; 3]) -> Cards {
    let mut unseen = Cards::FULL_DECK;
    for r in Rank::ALL {
        let taken = hand.count(r) + played.iter().map(|p| p.count(r)).sum::<u8>();
        unseen.remove(r, taken);
    }
    unseen
}

/// `a + b` rank by rank; callers guarantee the result fits the deck.
fn add_unchecked(a: &Cards, b: &Cards) -> Cards {
    let mut c = *a.counts();
    for (x, y) in c.iter_mut().zip(b.counts()) {
        *x += y;
    }
    Cards::from_counts_unchecked(c)
}

/// `a - b` rank by rank, saturating at 0.
fn saturating_sub(a: &Cards, b: &Cards) -> Cards {
    let mut c = *a.counts();
    for (x, y) in c.iter_mut().zip(b.counts()) {
        *x = x.saturating_sub(*y);
    }
    Cards::from_counts_unchecked(c)
}
