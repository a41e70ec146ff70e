//! Perfect-information Dou Dizhu positions from self-play under the search's playout
//! policy, labelled with how the game went on (issue 36's data; the input of
//! [`super::fit`]).
//!
//! **Games.** Game `i` of seed `s` deals a deck shuffled by
//! `SmallRng::seed_from_u64(s * 2^32 + i)`: the landlord the first 20 cards,
//! landlord_down the next 17, landlord_up the last 17 (no bidding). All three seats play
//! [`Playout::choose`] with [`Style::DEFAULT`], the policy that finishes the search's
//! worlds, and, as the search does, the game is handed to the exact solver
//! ([`Solver::landlord_wins`], 4,000 nodes) the first time at most 12 cards remain;
//! when the solver proves the result the game ends there.
//!
//! **Records.** Every position in which a seat is to move, up to and including the one
//! handed to the solver, is one line of text, fields separated by one space:
//!
//! | field | meaning |
//! | --- | --- |
//! | `L D U` | the three hands (landlord, down, up) in the card notation (`33344TX`) |
//! | `turn` | the seat to move, 0 landlord, 1 down, 2 up |
//! | `last` | the last play's cards, `-` for none (a play by the mover is a free lead) |
//! | `kind` | its kind, index into `Kind::ALL`, `-` for none |
//! | `by` | who made it, `-` for none |
//! | `won` | 1 when the landlord won the game (the playout's result, or the solver's at the handover) |
//! | `exact` | the solver's proven result from this position (1 landlord, 0 farmers) when it has at most `exact_cards` cards (16 by default) and the solver finishes within `exact_nodes` (20,000, the search's own cap); `-` otherwise |
//! | `game` | the game index |
//!
//! **Files.** Games are written in chunks of `chunk` games, one file per chunk,
//! `positions-s{seed}-c{chunk index:05}.txt`, written to a temporary name and renamed
//! when complete: a run that stops is resumed by running the same command again (chunks
//! already there are skipped), and the same command always writes the same files.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use gameai::doudizhu::search::playout::{Playout, Style};
use gameai::doudizhu::search::position::{LANDLORD, Position};
use gameai::doudizhu::search::solver::Solver;
use gameai::doudizhu::{Cards, Kind, Play, Rules};
use gameai::memory_budget::MemoryBudget;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

/// The generator's settings.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Cards left at which the game is handed to the solver (the search's
    /// `playout_solve_cards`).
    pub handover_cards: usize,
    /// The handover solve's node cap (the search's `playout_solve_nodes`).
    pub handover_nodes: u64,
    /// Positions with at most this many cards also get the solver's exact result ...
    pub exact_cards: usize,
    /// ... when it is proven within this many nodes.
    pub exact_nodes: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            handover_cards: 12,
            handover_nodes: 4_000,
            exact_cards: 16,
            exact_nodes: 20_000,
        }
    }
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Record {
    /// The position.
    pub pos: Position,
    /// The landlord won the game.
    pub won: bool,
    /// The solver's proven result from the position, if any.
    pub exact: Option<bool>,
    /// The game's index.
    pub game: u64,
}

impl Record {
    /// The label a model is fitted on: the exact result when proven, else the game's.
    pub fn label(&self) -> bool {
        self.exact.unwrap_or(self.won)
    }

    /// One line of the record format (module docs), without the newline.
    pub fn to_line(&self) -> String {
        let p = &self.pos;
        let mut s = String::with_capacity(80);
        let card = |c: &Cards| {
            if c.is_empty() {
                "-".to_string()
            } else {
                c.to_string()
            }
        };
        let _ = write!(
            s,
            "{} {} {} {}",
            card(&p.hands[0]),
            card(&p.hands[1]),
            card(&p.hands[2]),
            p.turn
        );
        match p.last {
            Some((play, by)) => {
                let kind = Kind::ALL.iter().position(|&k| k == play.kind).unwrap_or(0);
                let _ = write!(s, " {} {kind} {by}", play.cards);
            }
            None => s.push_str(" - - -"),
        }
        let exact = self
            .exact
            .map_or("-".to_string(), |e| u8::from(e).to_string());
        let _ = write!(s, " {} {exact} {}", u8::from(self.won), self.game);
        s
    }

    /// Parses a line of the record format.
    pub fn parse(line: &str, rules: &Rules) -> Result<Record, String> {
        let f: Vec<&str> = line.split(' ').collect();
        if f.len() != 10 {
            return Err(format!("'{line}': {} fields, 10 expected", f.len()));
        }
        let cards = |s: &str| -> Result<Cards, String> {
            if s == "-" {
                Ok(Cards::EMPTY)
            } else {
                s.parse::<Cards>().map_err(|e| format!("'{s}': {e}"))
            }
        };
        let num = |s: &str| s.parse::<u64>().map_err(|e| format!("'{s}': {e}"));
        let hands = [cards(f[0])?, cards(f[1])?, cards(f[2])?];
        let turn = num(f[3])? as usize;
        let last = if f[4] == "-" {
            None
        } else {
            let kind = *Kind::ALL
                .get(num(f[5])? as usize)
                .ok_or_else(|| format!("kind '{}'", f[5]))?;
            let play = Play::read(&cards(f[4])?, Some(kind), rules).map_err(|e| e.to_string())?;
            Some((play, num(f[6])? as usize))
        };
        let exact = match f[8] {
            "-" => None,
            e => Some(num(e)? == 1),
        };
        Ok(Record {
            pos: Position { hands, turn, last },
            won: num(f[7])? == 1,
            exact,
            game: num(f[9])?,
        })
    }
}

/// The deal of game `game` of seed `seed` (module docs).
pub fn deal(seed: u64, game: u64) -> [Cards; 3] {
    let mut rng = SmallRng::seed_from_u64(seed.wrapping_shl(32).wrapping_add(game));
    let mut deck: Vec<char> = "3456789TJQKA2".chars().flat_map(|c| [c; 4]).collect();
    deck.push('X');
    deck.push('D');
    deck.shuffle(&mut rng);
    let s: String = deck.iter().collect();
    let parse = |t: &str| t.parse::<Cards>().expect("deck cards parse");
    [parse(&s[..20]), parse(&s[20..37]), parse(&s[37..])]
}

/// Plays games and labels their positions; one per thread.
pub struct Generator {
    settings: Settings,
    playout: Playout,
    solver: Solver,
}

impl Generator {
    /// A generator with `settings` (the rules are DouZero's, as the arena's).
    pub fn new(settings: Settings) -> Generator {
        let rules = Rules::default();
        Generator {
            settings,
            playout: Playout::with_style(rules, Style::DEFAULT, MemoryBudget::global()),
            solver: Solver::new(rules, None, MemoryBudget::global()),
        }
    }

    /// The records of game `game` of seed `seed`, appended to `out`.
    pub fn game(&mut self, seed: u64, game: u64, out: &mut Vec<Record>) {
        let mut pos = Position {
            hands: deal(seed, game),
            turn: LANDLORD,
            last: None,
        };
        let first = out.len();
        let won = loop {
            let cards = pos.total_cards();
            let exact = if cards <= self.settings.exact_cards {
                self.solver
                    .landlord_wins(&pos, self.settings.exact_nodes)
                    .ok()
            } else {
                None
            };
            out.push(Record {
                pos,
                won: false,
                exact,
                game,
            });
            if cards <= self.settings.handover_cards {
                // The handover: the search's smaller cap first, as its playouts do.
                let handover = match exact {
                    Some(e) if self.settings.handover_nodes >= self.settings.exact_nodes => Some(e),
                    _ => self
                        .solver
                        .landlord_wins(&pos, self.settings.handover_nodes)
                        .ok(),
                };
                if let Some(lw) = handover {
                    break lw;
                }
            }
            let p = self.playout.choose(&pos);
            let next = pos.after(p.as_ref());
            if next.hands[pos.turn].is_empty() {
                break pos.turn == LANDLORD;
            }
            pos = next;
        };
        for r in &mut out[first..] {
            r.won = won;
        }
    }
}

/// The file of chunk `chunk` of seed `seed` in `dir`.
pub fn chunk_path(dir: &Path, seed: u64, chunk: u64) -> PathBuf {
    dir.join(format!("positions-s{seed}-c{chunk:05}.txt"))
}

/// Writes chunk `chunk` (games `chunk * games_per_chunk ..`) of seed `seed` into `dir`
/// unless it is there; returns the positions written (0 when skipped).
pub fn write_chunk(
    generator: &mut Generator,
    dir: &Path,
    seed: u64,
    chunk: u64,
    games_per_chunk: u64,
) -> std::io::Result<usize> {
    let path = chunk_path(dir, seed, chunk);
    if path.exists() {
        return Ok(0);
    }
    let mut records = Vec::new();
    for g in chunk * games_per_chunk..(chunk + 1) * games_per_chunk {
        generator.game(seed, g, &mut records);
    }
    let tmp = path.with_extension("tmp");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
    for r in &records {
        writeln!(f, "{}", r.to_line())?;
    }
    f.flush()?;
    drop(f);
    std::fs::rename(&tmp, &path)?;
    Ok(records.len())
}

/// Reads every record of the files `positions-*.txt` in `dir` whose seed is in `seeds`
/// (all when empty), in file-name order, keeping one position in `every`.
pub fn read_dir(dir: &Path, seeds: &[u64], every: usize) -> Result<Vec<Record>, String> {
    let rules = Rules::default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("positions-s")
                && name.ends_with(".txt")
                && (seeds.is_empty()
                    || seeds
                        .iter()
                        .any(|s| name.starts_with(&format!("positions-s{s}-"))))
        })
        .collect();
    files.sort();
    let mut out = Vec::new();
    let mut k = 0usize;
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        for line in text.lines() {
            k += 1;
            if !(k - 1).is_multiple_of(every.max(1)) {
                continue;
            }
            out.push(Record::parse(line, &rules).map_err(|e| format!("{}: {e}", f.display()))?);
        }
    }
    Ok(out)
}
