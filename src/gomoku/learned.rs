//! The learned evaluation's weights: one table per rule, fitted to game outcomes.
//!
//! # Model
//!
//! The evaluation of a quiet position for the side to move is a sum over the empty
//! points, for each colour, of the weights of what a stone of that colour there would
//! make: one weight per line pattern (per direction) and one per threat class
//! ([`Combo`]) of the point. The side to move's points count with its **attack**
//! weights, the opponent's with its **defence** weights, subtracted:
//!
//! `eval = (Σ_points attack(us, point) − Σ_points defence(them, point)) / 16`
//!
//! (the weights are in sixteenths of a score unit, so that small weights keep their
//! precision).
//! The weights are fitted by logistic regression of the game result on these counts
//! ("Texel tuning": `P(side to move wins) = 1 / (1 + exp(−eval / K))`, with `K` the
//! scale that best fits the hand-made evaluation, so the fitted scores keep its units).
//! The fitting tool is `gomoku-texel` in `crates/gameai-tools` (its module docs give
//! the command that reproduces every table). The tables are the small text files beside
//! this module, one per rule, built into the binary: a line `attack line B3 7` gives the
//! attack weight of a blocked three in one direction; `defence combo Flex4 300` the
//! defence weight of a flex-four point. Absent names weigh 0; a five or a forbidden
//! point weighs 0 (the search settles fives before it evaluates, and black cannot play
//! a forbidden point).
//!
//! The board keeps both sums per colour incrementally (one lookup per role in a
//! 65,536-entry table by the point's packed patterns, [`point_table`]).

use std::sync::OnceLock;

use super::patterns::{COMBOS, Combo, LinePattern, unpack};
use super::rules::Rule;

/// Number of line patterns ([`LinePattern`] codes).
pub const LINE_PATTERNS: usize = 12;

/// How a colour's points count in the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The side to move's points.
    Attack = 0,
    /// The opponent's points (subtracted).
    Defence = 1,
}

/// One role's weights.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoleWeights {
    /// Per line pattern (by code), per direction.
    pub line: [i32; LINE_PATTERNS],
    /// Per threat class (by code), per point.
    pub combo: [i32; COMBOS],
}

/// A rule's weights: attack and defence.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Weights {
    /// Indexed by [`Role`].
    pub roles: [RoleWeights; 2],
}

/// The name of a line pattern in the table files (its Rust name).
pub fn line_name(code: usize) -> String {
    format!("{:?}", LinePattern::from_code(code as u8))
}

/// The name of a threat class in the table files (its Rust name).
pub fn combo_name(code: usize) -> String {
    format!("{:?}", Combo::from_code(code as u8))
}

impl Weights {
    /// Parses a table file: `#` comments, blank lines and `role kind name weight`
    /// lines. Errors name the line and its fault.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut w = Weights::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fault = |what: &str| format!("line {}: {what}: {line:?}", n + 1);
            let parts: Vec<&str> = line.split_whitespace().collect();
            let [role, kind, name, value] = parts[..] else {
                return Err(fault("expected `role kind name weight`"));
            };
            let role = match role {
                "attack" => &mut w.roles[Role::Attack as usize],
                "defence" => &mut w.roles[Role::Defence as usize],
                _ => return Err(fault("role is not attack or defence")),
            };
            let value: i32 = value
                .parse()
                .map_err(|_| fault("weight is not an integer"))?;
            let slot = match kind {
                "line" => (0..LINE_PATTERNS)
                    .find(|&c| line_name(c) == name)
                    .map(|c| &mut role.line[c]),
                "combo" => (0..COMBOS)
                    .find(|&c| combo_name(c) == name)
                    .map(|c| &mut role.combo[c]),
                _ => return Err(fault("kind is not line or combo")),
            };
            *slot.ok_or_else(|| fault("unknown pattern name"))? = value;
        }
        Ok(w)
    }

    /// The table file of these weights (what [`Weights::parse`] reads), after
    /// `header` (comment lines).
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for l in header.lines() {
            out.push_str(&format!("# {l}\n"));
        }
        for (r, role) in ["attack", "defence"].iter().enumerate() {
            for c in 0..LINE_PATTERNS {
                out.push_str(&format!(
                    "{role} line {} {}\n",
                    line_name(c),
                    self.roles[r].line[c]
                ));
            }
            for c in 0..COMBOS {
                out.push_str(&format!(
                    "{role} combo {} {}\n",
                    combo_name(c),
                    self.roles[r].combo[c]
                ));
            }
        }
        out
    }

    /// The hand-made point values ([`crate::gomoku::values`]) as weights: the
    /// evaluation `(own − theirs · 6/8) / 4` of [`crate::gomoku::search::eval`] is
    /// `(4 · own − 3 · theirs) / 16`. Fives weigh 0. The fitting starts from these.
    pub fn hand() -> Weights {
        use crate::gomoku::values::{combo_bonus, line_value};
        let role = |m: i32| RoleWeights {
            line: std::array::from_fn(|c| {
                let p = LinePattern::from_code(c as u8);
                if p == LinePattern::F5 {
                    0
                } else {
                    m * line_value(p)
                }
            }),
            combo: std::array::from_fn(|c| m * combo_bonus(Combo::from_code(c as u8))),
        };
        Weights {
            roles: [role(4), role(3)],
        }
    }

    /// The weight of one point whose packed patterns are `packed`, for `role`, for a
    /// colour with (`forbidden`) or without renju forbidden points.
    pub fn point(&self, role: Role, packed: u16, forbidden: bool) -> i32 {
        let combo = Combo::of(packed, forbidden);
        if matches!(combo, Combo::Five | Combo::Forbidden) {
            return 0;
        }
        let w = &self.roles[role as usize];
        let lines: i32 = unpack(packed).iter().map(|&p| w.line[p as usize]).sum();
        lines + w.combo[combo as usize]
    }
}

/// The table file of each rule, as built into the binary.
fn table_text(rule: Rule) -> &'static str {
    match rule {
        Rule::Freestyle => include_str!("learned/freestyle.txt"),
        Rule::Standard => include_str!("learned/standard.txt"),
        Rule::Renju => include_str!("learned/renju.txt"),
    }
}

/// The weights of `rule` (parsed once per process).
pub fn weights(rule: Rule) -> &'static Weights {
    static WEIGHTS: [OnceLock<Weights>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    WEIGHTS[rule_index(rule)].get_or_init(|| {
        Weights::parse(table_text(rule)).expect("the built-in evaluation tables parse")
    })
}

fn rule_index(rule: Rule) -> usize {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 2,
    }
}

/// The 65,536-entry table of point weights by packed patterns, for `rule`, `role` and a
/// colour with (`forbidden`) or without forbidden points (built once per process).
pub fn point_table(rule: Rule, role: Role, forbidden: bool) -> &'static [i16] {
    static TABLES: [OnceLock<Box<[i16]>>; 12] = [const { OnceLock::new() }; 12];
    let i = rule_index(rule) * 4 + role as usize * 2 + usize::from(forbidden);
    TABLES[i].get_or_init(|| {
        let w = weights(rule);
        (0..=u16::MAX)
            .map(|p| {
                w.point(role, p, forbidden)
                    .clamp(i16::MIN.into(), i16::MAX.into()) as i16
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::patterns::pack;

    #[test]
    fn every_rule_table_parses_and_round_trips() {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let w = weights(rule);
            assert_eq!(&Weights::parse(&w.to_text("x")).unwrap(), w);
        }
    }

    #[test]
    fn a_point_sums_its_lines_and_its_class() {
        // Hand-worked: attack B3 = 5, F2 = 2, combo Block3Plus = 7, everything else 0;
        // a point with a blocked three and an open two is Block3Plus: 5 + 2 + 7.
        let w = Weights::parse(
            "attack line B3 5\nattack line F2 2\nattack combo Block3Plus 7\ndefence line B3 1\n",
        )
        .unwrap();
        use LinePattern as L;
        let p = pack([L::B3, L::F2, L::Dead, L::Dead]);
        assert_eq!(w.point(Role::Attack, p, false), 14);
        assert_eq!(w.point(Role::Defence, p, false), 1);
        // A five weighs nothing.
        assert_eq!(
            w.point(Role::Attack, pack([L::F5, L::B3, L::Dead, L::Dead]), false),
            0
        );
    }

    #[test]
    fn bad_lines_are_named() {
        assert!(
            Weights::parse("attack line Nope 3")
                .unwrap_err()
                .contains("line 1")
        );
        assert!(Weights::parse("attack line B3").is_err());
        assert!(Weights::parse("offence line B3 1").is_err());
        assert!(Weights::parse("attack line B3 x").is_err());
    }
}
