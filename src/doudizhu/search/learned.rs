//! A learned evaluation of perfect-information positions: the probability that the
//! landlord wins a [`Position`] when it is finished as the search finishes its worlds
//! (the playout policy, handing over to the exact solver at 12 cards).
//!
//! **Model.** Logistic regression on the features below (issue 36): a weighted sum and
//! a sigmoid, about a hundred multiply-adds plus three hand values (seed 000's
//! decomposition, memoised by the caller's [`Evaluator`]), a few microseconds per
//! position. Fitted offline by `doudizhu-fit` (crate `gameai-tools`) on positions from
//! `doudizhu-positions`; the weights ([`WEIGHTS_FILE`]) are compiled in and parsed once,
//! on first use ([`Model::shipped`]).
//!
//! **Features** (seats in turn order: landlord 0, down 1, up 2; every value a float):
//! - per seat: cards left / 20; cards left = 1, = 2, <= 4 (0/1 each); the best
//!   decomposition's value `sum - 7 * rounds` / 20, its rounds / 10 and its sum / 20;
//!   the hand is one play (0/1); the count of each of the 15 ranks / 4; bombs (four of a
//!   rank) and the rocket (0/1); control cards (2s, jokers, aces) / 8 and the seat's
//!   share of all control cards left;
//! - the seat to move (one-hot, 3); a free lead (0/1); who made the play to beat
//!   (one-hot, 3, all 0 on a free lead); its kind (one-hot, 14); its cards / 20; its
//!   main rank value / 17 (0 on a free lead); whether the mover can beat it;
//! - the mover goes out now (its hand is one play that leads freely or beats the play to
//!   beat): +1 for the landlord, -1 for a farmer, else 0.

use std::sync::OnceLock;

use super::playout::{can_beat, whole_hand};
use super::position::{LANDLORD, Position};
use crate::doudizhu::card::Rank;
use crate::doudizhu::play::{Kind, Rules};
use crate::doudizhu::value::{Evaluator, rank_value};

/// The committed weights (the output of `doudizhu-fit`), relative to this file.
pub const WEIGHTS_FILE: &str = "eval_weights.txt";
const WEIGHTS: &str = include_str!("eval_weights.txt");

/// Receives features one by one; the name is built only by sinks that want it.
pub trait Sink {
    /// One feature.
    fn put(&mut self, name: impl FnOnce() -> String, value: f32);
}

/// Collects the values.
impl Sink for Vec<f32> {
    fn put(&mut self, _name: impl FnOnce() -> String, value: f32) {
        self.push(value);
    }
}

/// Collects the names.
struct Names(Vec<String>);

impl Sink for Names {
    fn put(&mut self, name: impl FnOnce() -> String, _value: f32) {
        self.0.push(name());
    }
}

/// The features' names, in order.
pub fn feature_names() -> Vec<String> {
    // Any position names them; empty hands cost nothing to evaluate.
    let pos = Position {
        hands: [crate::doudizhu::Cards::EMPTY; 3],
        turn: LANDLORD,
        last: None,
    };
    let mut names = Names(Vec::new());
    features(&pos, &mut Evaluator::new(), &Rules::default(), &mut names);
    names.0
}

const CONTROL: [Rank; 4] = [Rank::ACE, Rank::TWO, Rank::SMALL_JOKER, Rank::BIG_JOKER];

/// The features of `pos` (see the module docs) into `out`.
pub fn features(pos: &Position, ev: &mut Evaluator, rules: &Rules, out: &mut impl Sink) {
    let control_of = |s: usize| -> u32 {
        CONTROL
            .iter()
            .map(|&r| u32::from(pos.hands[s].count(r)))
            .sum()
    };
    let control_all: u32 = (0..3).map(control_of).sum();
    for s in 0..3 {
        let hand = &pos.hands[s];
        let n = hand.len();
        let c = hand.counts();
        let e = ev.evaluate(c);
        out.put(|| format!("s{s}_left"), n as f32 / 20.0);
        out.put(|| format!("s{s}_left1"), f32::from(u8::from(n == 1)));
        out.put(|| format!("s{s}_left2"), f32::from(u8::from(n == 2)));
        out.put(|| format!("s{s}_left_le4"), f32::from(u8::from(n <= 4)));
        out.put(|| format!("s{s}_value"), e.value() as f32 / 20.0);
        out.put(|| format!("s{s}_rounds"), e.need_rounds as f32 / 10.0);
        out.put(|| format!("s{s}_sum"), e.sum_value as f32 / 20.0);
        let one_play = n > 0 && whole_hand(hand, rules).is_some();
        out.put(|| format!("s{s}_one_play"), f32::from(u8::from(one_play)));
        for (rank, &k) in Rank::ALL.iter().zip(c) {
            out.put(
                || format!("s{s}_rank{}", rank.to_char()),
                f32::from(k) / 4.0,
            );
        }
        let bombs = c.iter().filter(|&&k| k == 4).count();
        out.put(|| format!("s{s}_bombs"), bombs as f32);
        out.put(
            || format!("s{s}_rocket"),
            f32::from(u8::from(hand.has_rocket())),
        );
        let ctl = control_of(s);
        out.put(|| format!("s{s}_control"), ctl as f32 / 8.0);
        let share = if control_all > 0 {
            ctl as f32 / control_all as f32
        } else {
            0.0
        };
        out.put(|| format!("s{s}_control_share"), share);
    }
    for s in 0..3 {
        out.put(|| format!("turn{s}"), f32::from(u8::from(pos.turn == s)));
    }
    let to_beat = pos.to_beat();
    out.put(|| "free".into(), f32::from(u8::from(to_beat.is_none())));
    let by = pos.to_beat_by();
    for s in 0..3 {
        out.put(|| format!("by{s}"), f32::from(u8::from(by == Some(s))));
    }
    for k in Kind::ALL {
        let on = to_beat.is_some_and(|t| t.kind == k);
        out.put(
            || format!("kind_{}", k.name().replace(' ', "_")),
            f32::from(u8::from(on)),
        );
    }
    let me = &pos.hands[pos.turn];
    out.put(
        || "beat_cards".into(),
        to_beat.map_or(0.0, |t| t.card_count() as f32 / 20.0),
    );
    out.put(
        || "beat_rank".into(),
        to_beat.map_or(0.0, |t| rank_value(t.main.index() as u8) as f32 / 17.0),
    );
    out.put(
        || "mover_can_beat".into(),
        f32::from(u8::from(to_beat.is_some_and(|t| can_beat(me, &t, rules)))),
    );
    let out_now = whole_hand(me, rules).is_some_and(|w| to_beat.is_none_or(|t| w.beats(&t)))
        || to_beat.is_some_and(|t| super::playout::goes_out_on(me, &t, rules));
    let sign = if pos.turn == LANDLORD { 1.0 } else { -1.0 };
    out.put(|| "mover_goes_out".into(), if out_now { sign } else { 0.0 });
}

/// A logistic model: `sigmoid(bias + weights . features)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The intercept.
    pub bias: f32,
    /// One weight per feature, in the order of [`feature_names`].
    pub weights: Vec<f32>,
}

/// Why a weights file was refused.
#[derive(Debug, PartialEq, Eq)]
pub struct ModelError(pub String);

impl Model {
    /// Parses the text format `doudizhu-fit` writes: `#` comments, then `bias VALUE`,
    /// then one `NAME VALUE` line per feature, names in the order of
    /// [`feature_names`].
    pub fn parse(text: &str) -> Result<Model, ModelError> {
        let names = feature_names();
        let mut lines = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'));
        let mut entry = |want: &str| -> Result<f32, ModelError> {
            let line = lines
                .next()
                .ok_or_else(|| ModelError(format!("missing '{want}'")))?;
            let (name, value) = line
                .split_once(' ')
                .ok_or_else(|| ModelError(format!("line '{line}': no value")))?;
            if name != want {
                return Err(ModelError(format!("'{name}' where '{want}' was expected")));
            }
            value
                .trim()
                .parse::<f32>()
                .map_err(|e| ModelError(format!("'{name}': {e}")))
        };
        let bias = entry("bias")?;
        let weights = names
            .iter()
            .map(|n| entry(n))
            .collect::<Result<Vec<f32>, _>>()?;
        Ok(Model { bias, weights })
    }

    /// The text format of [`Model::parse`], with `header` as comment lines.
    pub fn to_text(&self, header: &str) -> String {
        let mut s: String = header.lines().map(|l| format!("# {l}\n")).collect();
        s.push_str(&format!("bias {:.6}\n", self.bias));
        for (n, w) in feature_names().iter().zip(&self.weights) {
            s.push_str(&format!("{n} {w:.6}\n"));
        }
        s
    }

    /// The committed model, parsed on first use.
    pub fn shipped() -> &'static Model {
        static MODEL: OnceLock<Model> = OnceLock::new();
        MODEL.get_or_init(|| Model::parse(WEIGHTS).expect("the committed weights parse"))
    }

    /// The landlord's win probability for feature vector `x`.
    pub fn predict(&self, x: &[f32]) -> f32 {
        let z = self.bias + self.weights.iter().zip(x).map(|(w, v)| w * v).sum::<f32>();
        1.0 / (1.0 + (-z).exp())
    }

    /// The landlord's win probability in `pos` (`buf` is scratch space).
    pub fn landlord_wins(
        &self,
        pos: &Position,
        ev: &mut Evaluator,
        rules: &Rules,
        buf: &mut Vec<f32>,
    ) -> f32 {
        buf.clear();
        features(pos, ev, rules, buf);
        self.predict(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doudizhu::Cards;

    fn cards(s: &str) -> Cards {
        s.parse().expect("cards parse")
    }

    /// The committed weights name every feature in order (the parse checks each name).
    #[test]
    fn the_committed_weights_parse() {
        let m = Model::parse(WEIGHTS).expect("committed weights parse");
        assert_eq!(m.weights.len(), feature_names().len());
    }

    /// Hand-worked: the landlord leads holding `33` (one play, it goes out now), the
    /// farmers hold 17 cards each; 2 cards of 20 left, a pair of 3s in the rank counts.
    #[test]
    fn a_landlord_about_to_go_out() {
        let pos = Position {
            hands: [
                cards("33"),
                cards("44556677889TTJJQQ"),
                cards("KKAA22XD456789TJQ"),
            ],
            turn: LANDLORD,
            last: None,
        };
        let mut x = Vec::new();
        features(&pos, &mut Evaluator::new(), &Rules::default(), &mut x);
        let names = feature_names();
        let get = |n: &str| x[names.iter().position(|m| m == n).expect(n)];
        assert_eq!(get("s0_left"), 2.0 / 20.0);
        assert_eq!(get("s0_left2"), 1.0);
        assert_eq!(get("s0_rank3"), 0.5);
        assert_eq!(get("s0_one_play"), 1.0);
        assert_eq!(get("free"), 1.0);
        assert_eq!(get("mover_goes_out"), 1.0);
        // Up holds both jokers, both... 2s and AAs: control 2 + 2 + 2 = 6 of 6 left.
        assert_eq!(get("s2_control_share"), 1.0);
        assert_eq!(get("s2_rocket"), 1.0);
    }
}
