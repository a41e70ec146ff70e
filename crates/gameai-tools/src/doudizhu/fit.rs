//! The logistic fit of the learned evaluation and its calibration.
//!
//! **Fit.** Maximum likelihood with an L2 penalty `lambda / 2 * |w|^2` on the weights
//! (not the bias), by Newton's method (iteratively reweighted least squares): each
//! iteration accumulates the gradient and the Hessian over all positions in `f64` and
//! solves the Newton step by Cholesky. The penalty keeps the Hessian positive definite
//! where features are collinear (cards left is the sum of the rank counts). Newton on a
//! hundred features converges in a handful of iterations, deterministically: the same
//! data give the same weights to the printed digits, which is what the committed
//! weights and their test rely on. Why a linear model fitted here and not boosted trees
//! in Python: it is evaluated inside the search's playouts, so it must cost a few
//! microseconds with no new dependency in the served library, and a Rust fit needs no
//! Python environment to reproduce the weights.
//!
//! **Calibration.** Held-out positions sorted by the predicted landlord win
//! probability, cut into ten groups of equal count; per group the mean prediction, the
//! observed rate of the label, and the count.

use gameai::doudizhu::Rules;
use gameai::doudizhu::search::learned::{Model, features};
use gameai::doudizhu::value::Evaluator;

use super::positions::Record;

/// Feature rows and labels.
pub struct Data {
    /// Features per row, row after row.
    pub x: Vec<f32>,
    /// 1.0 when the landlord won (the record's label).
    pub y: Vec<f32>,
    /// Features per row.
    pub dim: usize,
}

impl Data {
    /// Rows.
    pub fn len(&self) -> usize {
        self.y.len()
    }

    /// No rows.
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }

    fn row(&self, i: usize) -> &[f32] {
        &self.x[i * self.dim..(i + 1) * self.dim]
    }
}

/// The features and labels of `records`.
pub fn featurize(records: &[Record]) -> Data {
    let rules = Rules::default();
    let mut ev = Evaluator::new();
    let mut x = Vec::new();
    let mut y = Vec::with_capacity(records.len());
    let mut row = Vec::new();
    let mut dim = 0;
    for r in records {
        row.clear();
        features(&r.pos, &mut ev, &rules, &mut row);
        dim = row.len();
        x.extend_from_slice(&row);
        y.push(f32::from(u8::from(r.label())));
    }
    Data { x, y, dim }
}

/// Fits a logistic model to `data` (module docs): `iterations` Newton steps at most,
/// fewer when a step moves no weight by more than 1e-7.
pub fn fit(data: &Data, lambda: f64, iterations: usize) -> Model {
    let d = data.dim + 1; // bias first
    let mut w = vec![0.0f64; d];
    for _ in 0..iterations {
        let mut g = vec![0.0f64; d];
        let mut h = vec![0.0f64; d * d];
        let mut xi = vec![0.0f64; d];
        for i in 0..data.len() {
            xi[0] = 1.0;
            for (a, &v) in xi[1..].iter_mut().zip(data.row(i)) {
                *a = f64::from(v);
            }
            let z: f64 = w.iter().zip(&xi).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let r = p - f64::from(data.y[i]);
            let s = p * (1.0 - p);
            for a in 0..d {
                if xi[a] == 0.0 {
                    continue;
                }
                g[a] += r * xi[a];
                let sa = s * xi[a];
                let row = &mut h[a * d..a * d + d];
                for b in 0..=a {
                    row[b] += sa * xi[b];
                }
            }
        }
        for a in 1..d {
            g[a] += lambda * w[a];
            h[a * d + a] += lambda;
        }
        h[0] += 1e-9;
        let step = cholesky_solve(&mut h, &g, d);
        let mut biggest = 0.0f64;
        for (wa, sa) in w.iter_mut().zip(&step) {
            *wa -= sa;
            biggest = biggest.max(sa.abs());
        }
        if biggest < 1e-7 {
            break;
        }
    }
    Model {
        bias: w[0] as f32,
        weights: w[1..].iter().map(|&v| v as f32).collect(),
    }
}

/// Solves `h x = g` for symmetric positive definite `h` (lower triangle filled, `d` x
/// `d`, overwritten by its Cholesky factor).
fn cholesky_solve(h: &mut [f64], g: &[f64], d: usize) -> Vec<f64> {
    for j in 0..d {
        let mut diag = h[j * d + j];
        for k in 0..j {
            diag -= h[j * d + k] * h[j * d + k];
        }
        let l = diag.max(1e-12).sqrt();
        h[j * d + j] = l;
        for i in j + 1..d {
            let mut v = h[i * d + j];
            for k in 0..j {
                v -= h[i * d + k] * h[j * d + k];
            }
            h[i * d + j] = v / l;
        }
    }
    let mut y = g.to_vec();
    for i in 0..d {
        for k in 0..i {
            y[i] -= h[i * d + k] * y[k];
        }
        y[i] /= h[i * d + i];
    }
    for i in (0..d).rev() {
        for k in i + 1..d {
            y[i] -= h[k * d + i] * y[k];
        }
        y[i] /= h[i * d + i];
    }
    y
}

/// One group of the calibration table.
#[derive(Clone, Copy, Debug)]
pub struct Decile {
    /// Positions in it.
    pub count: usize,
    /// Their mean predicted landlord win probability.
    pub predicted: f64,
    /// The share of them the landlord won (the label).
    pub observed: f64,
}

/// The predictions of `model` for `data`.
pub fn predictions(model: &Model, data: &Data) -> Vec<f64> {
    (0..data.len())
        .map(|i| f64::from(model.predict(data.row(i))))
        .collect()
}

/// The calibration table of predictions `p` against labels `y` (module docs).
pub fn calibration(p: &[f64], y: &[f32]) -> Vec<Decile> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    (0..10)
        .map(|k| {
            let part = &order[k * p.len() / 10..(k + 1) * p.len() / 10];
            let n = part.len().max(1) as f64;
            Decile {
                count: part.len(),
                predicted: part.iter().map(|&i| p[i]).sum::<f64>() / n,
                observed: part.iter().map(|&i| f64::from(y[i])).sum::<f64>() / n,
            }
        })
        .collect()
}

/// Mean log loss and Brier score of predictions `p` against labels `y`.
pub fn scores(p: &[f64], y: &[f32]) -> (f64, f64) {
    let n = p.len().max(1) as f64;
    let mut ll = 0.0;
    let mut brier = 0.0;
    for (&q, &t) in p.iter().zip(y) {
        let q = q.clamp(1e-9, 1.0 - 1e-9);
        let t = f64::from(t);
        ll -= t * q.ln() + (1.0 - t) * (1.0 - q).ln();
        brier += (q - t).powi(2);
    }
    (ll / n, brier / n)
}
