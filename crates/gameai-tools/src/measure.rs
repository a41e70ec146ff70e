//! Small measuring helpers shared by the in-process measurement binaries
//! (`mahjong-solitaire`, `mahjong-states`), included with `#[path]`.

/// The `q` quantile (0..=1, nearest rank) of `sorted` (ascending); `None` when empty.
pub fn percentile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    Some(sorted[i])
}

/// The 1, 5 and 15-minute load averages from `/proc/loadavg`, space-separated; `None`
/// where that file cannot be read.
pub fn load_average() -> Option<String> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
}
