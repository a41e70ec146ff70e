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
//!   (riichi, ura, ippatsu, tsumo expectation), `ron_factor` (a waiting hand's wins
//!   on discards per self-draw win, per turn: [`race::Outlook`]), `win_cap` (on the
//!   solitaire figure). The
//!   danger of the player's later discards is no parameter: the mean of the danger
//!   model over the tiles it cannot see.
//!
//! Where the shipped numbers come from (see `source`): the wait, modifier and tenpai
//! weights are fitted by `tools/mahjong/fit_danger.py` on the arena's discards; the push
//! constants and the riichi deal-in value by `tools/mahjong/fit_push.py` on the arena's
//! games (the challenger's view, 449 hanchan): `threat_win_per_turn` 0.156 (a riichi's
//! wins not on the player's discard per turn after its declaration), `ron_factor` 2.38
//! (a waiting hand facing three discarding seats wins on a discard 2.4 times as often
//! as by self-draw), `tsumo_share` 0.178 (a self-draw of a cheap hand gains a han, so
//! the player's share is more than a third of the ron value), `value.riichi` 5,629,
//! `dealer_factor` 1.58. Those describe the arena's opponents, which never fold: against
//! a field that folds, fewer discards feed a waiting hand and `ron_factor` is lower.
//! `value.closed` and `value.open` stay priors (too few deal-ins into dama or open
//! hands in the arena), as do `riichi_bonus_han` 1.7 and `win_cap` 0.95. The priors the
//! file started from: waits chosen so that against riichi a no-suji 4-6 deals in 13 %,
//! a suji 4-6 5 %, a terminal 7 % / 3 % with suji, an honour 4.5 % / 2 % with two
//! visible (Tenhou statistics); riichi 6,400, closed 5,000, open 3,800, dealer x 1.5;
//! `threat_win_per_turn` 0.08, `tsumo_share` 0.13, `ron_factor` 0.8.

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
