//! The four-player table: the player's view of the other seats (issue 32).
//!
//! # The model
//! - [`state`]: the table as the player sees it at one decision — winds, honba, riichi
//!   sticks, scores, dora indicators, tiles left in the live wall, and per seat its river
//!   (each discard drawn-and-thrown or from the hand, the riichi declaration, called
//!   away) and open melds (the tile called and whom from). Seats are relative to the
//!   player: right (next to play), across, left. From it come the tiles the player can
//!   see (`visible`) and the player's draws left (every fourth tile of the live wall).
//! - [`check`]: the table's consistency with itself and the player's hand; each fault
//!   names its field as a path (`opponents[1].river[3]`).
//!
//! Nothing here is specific to riichi except what the ruleset says (riichi, dora): the
//! Sichuan bloody battle reads the same rivers and melds.

pub mod check;
pub mod danger;
pub mod decision;
pub mod opponents;
pub mod safety;
pub mod state;
pub mod value;
pub mod weights;

pub use check::{InvalidTable, OwnTiles, TableError, check, live_wall_at_start};
pub use decision::{Candidate, OpponentEstimate, TableAdvice, TableFigures, advise};
pub use state::{Discard, Opponent, Seat, Table, TableMeld};
