//! The four-player table: the player's view of the other seats, the danger of each
//! discard, and push or fold by expected points (issue 32).
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
//! - [`safety`]: genbutsu per opponent (its river, riichi furiten, temporary furiten).
//! - [`danger`]: P(tile wins | the opponent is tenpai), from the wait shapes through
//!   the tile (suji removes ryanmen, visible copies weaken shapes: kabe / no-chance,
//!   honours by visible copies) and modifiers (matagi of the riichi tile, early soto
//!   discards, an open flush).
//! - [`opponents`]: P(tenpai) per opponent (riichi = 1; otherwise a logistic in its
//!   discards, open melds and tsumogiri streak) and what its win costs.
//! - [`value`]: the player's own hand value: a tenpai hand scored as a ron on each of
//!   its waits by [`crate::mahjong::scoring`] (dama and riichi), any other from han
//!   (dora, red fives, tanyao, yakuhai, riichi) at 40 fu closed, 30 open, through the
//!   Tenhou payment table.
//! - [`call`]: a call at the table must keep a yaku and pay for its risk.
//! - [`kuikae`]: the discards forbidden right after the player's own chi or pon.
//! - [`effort`]: how much the solitaire engine computes for a discard at the table:
//!   nothing when no win probability can change the answer (a fold), else a bounded
//!   ranking ([`crate::mahjong::strategy::Effort::TABLE`]).
//! - [`race`]: pushing against folding over the rest of the hand, a turn-by-turn race
//!   of the player's win against the tenpai opponents' wins and its own deal-ins, each
//!   opponent weighted by its tenpai probability (nobody tenpai: the win times the value).
//! - [`decision`]: each discard's deal-in probability (sum over opponents of P(tenpai) x
//!   P(wait)) and expected points (the deal-in now, plus the race when it is worth
//!   playing); the ranking, folding when pushing loses points; riichi or dama.
//!
//! Nothing here is specific to riichi except what the ruleset says (riichi, dora, the
//! payment table): the Sichuan bloody battle reads the same rivers, melds and danger
//! (its hand value is a flat figure until its scoring exists).
//!
//! # The weights file: `danger_weights.json`
//! Every parameter of the model is in that one JSON file beside this module, compiled
//! in ([`weights`]); unknown or missing keys fail its test. The arena's fitting tool
//! writes the same file. Keys (all numbers are f64 unless said):
//! - `version` (u32, now 1), `source` (string: where the numbers come from — the
//!   fitting run's command and data, or "priors").
//! - `wait`: P(a tenpai opponent waits on a tile through one shape) when the shape's
//!   tiles are all available: `ryanmen`, `kanchan`, `penchan`, `shanpon` (with three
//!   unseen copies; scaled by C(u,2)/3), `tanki_number`, `tanki_honour`.
//! - `modifiers`: factors on a tile's wait probability: `riichi_matagi` (within 2 of the
//!   declaration tile, same suit), `early_near` (within 2 of a tile thrown from the hand
//!   among the first `early_discards` (usize) discards), `flush_suit` / `flush_other`
//!   (an opponent with two or more open melds in one suit).
//! - `tenpai`: logistic P(tenpai) of an opponent not in riichi: `intercept`,
//!   `per_discard`, `per_open_meld`, `per_tsumogiri_streak` (trailing run, capped at 6).
//! - `value`: points lost by dealing in: `riichi`, `closed`, `open` (base by hand kind),
//!   `per_dora_shown` (each dora in its open melds), `dealer_factor`, `per_honba`.
//! - `push` ([`race`]): `threat_win_per_turn` (a tenpai opponent's chance of winning
//!   in one turn, not on the player's discard), `tsumo_share` (the part of such a win
//!   the player pays, as a fraction of its value: its self-draws), `riichi_bonus_han`
//!   (riichi, ura, ippatsu, tsumo expectation), `ron_factor` (discard wins per
//!   self-draw win, per draw: `W' = 1 - (1 - W)^(1 + ron_factor)`), `win_cap`. The
//!   danger of the player's later discards is no parameter: the mean of the danger
//!   model over the tiles it cannot see.
//!
//! The shipped numbers are priors (see `source`): wait weights chosen so that against
//! riichi a no-suji 4-6 deals in 13 %, a suji 4-6 5 %, a no-suji terminal 7 %, a suji
//! terminal 3 %, an unseen honour 4.5 %, an honour with two visible 2 % — the rates
//! commonly quoted from Tenhou statistics; tenpai, value and push numbers are round
//! figures of the same literature (an average riichi win of about 6,400 points for a
//! non-dealer, the dealer paid 1.5 times), to be replaced by the arena's fit. The push
//! numbers (session 35): `threat_win_per_turn` 0.08 (a riichi wins about half of its
//! hands in the nine or so turns left after it, some of them on the player's discards,
//! counted apart), `tsumo_share` 0.13 (about 40 % of wins are self-draws, of which a
//! player pays a quarter to a half: about a third), `win_cap` 0.95.

pub mod call;
pub mod check;
pub mod danger;
pub mod decision;
pub mod effort;
pub mod kuikae;
pub mod opponents;
pub mod race;
pub mod safety;
pub mod state;
pub mod value;
pub mod weights;

pub use call::suggest_call_at_table;
pub use check::{InvalidTable, OwnTiles, TableError, check, live_wall_at_start};
pub use decision::{Candidate, OpponentEstimate, TableAdvice, TableFigures, advise};
pub use effort::discard_at_table;
pub use state::{Discard, Opponent, Seat, Table, TableMeld};
