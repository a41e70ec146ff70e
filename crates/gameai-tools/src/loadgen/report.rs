//! Recording calls in HDR histograms and reporting them as text or JSON.

use std::collections::BTreeMap;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde_json::{Value, json};

/// Microsecond histograms from 1 µs to 10 min at 3 significant digits.
fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 600_000_000, 3).expect("valid histogram bounds")
}

fn record(h: &mut Histogram<u64>, d: Duration) {
    let us = (d.as_micros() as u64).clamp(1, h.high());
    h.record(us).expect("clamped into range");
}

/// The canonical name of a gRPC status code (the spec's spelling).
pub fn code_name(code: tonic::Code) -> &'static str {
    use tonic::Code::*;
    match code {
        Ok => "OK",
        Cancelled => "CANCELLED",
        Unknown => "UNKNOWN",
        InvalidArgument => "INVALID_ARGUMENT",
        DeadlineExceeded => "DEADLINE_EXCEEDED",
        NotFound => "NOT_FOUND",
        AlreadyExists => "ALREADY_EXISTS",
        PermissionDenied => "PERMISSION_DENIED",
        ResourceExhausted => "RESOURCE_EXHAUSTED",
        FailedPrecondition => "FAILED_PRECONDITION",
        Aborted => "ABORTED",
        OutOfRange => "OUT_OF_RANGE",
        Unimplemented => "UNIMPLEMENTED",
        Internal => "INTERNAL",
        Unavailable => "UNAVAILABLE",
        DataLoss => "DATA_LOSS",
        Unauthenticated => "UNAUTHENTICATED",
    }
}

/// The calls of one report group (a method, or a method and tag).
#[derive(Clone, Debug)]
pub struct Group {
    pub name: String,
    /// Latency of every call, whatever its code.
    pub all: Histogram<u64>,
    /// Latency per status code.
    pub by_code: BTreeMap<&'static str, Histogram<u64>>,
    /// First status message seen per non-OK code (to tell what went wrong).
    pub first_message: BTreeMap<&'static str, String>,
    /// Attempts that never left the client (a connection closing after its GOAWAY)
    /// and were sent again; the call's latency includes them.
    pub transparent_retries: u64,
}

impl Group {
    pub fn new(name: String) -> Group {
        Group {
            name,
            all: histogram(),
            by_code: BTreeMap::new(),
            first_message: BTreeMap::new(),
            transparent_retries: 0,
        }
    }

    pub fn record(&mut self, code: tonic::Code, latency: Duration, message: Option<&str>) {
        let name = code_name(code);
        record(&mut self.all, latency);
        record(self.by_code.entry(name).or_insert_with(histogram), latency);
        if let Some(m) = message {
            self.first_message
                .entry(name)
                .or_insert_with(|| m.chars().take(200).collect());
        }
    }

    pub fn merge(&mut self, other: &Group) {
        self.all.add(&other.all).expect("same bounds");
        for (code, h) in &other.by_code {
            self.by_code
                .entry(code)
                .or_insert_with(histogram)
                .add(h)
                .expect("same bounds");
        }
        for (code, m) in &other.first_message {
            self.first_message.entry(code).or_insert_with(|| m.clone());
        }
        self.transparent_retries += other.transparent_retries;
    }

    pub fn calls(&self) -> u64 {
        self.all.len()
    }

    pub fn count(&self, code: &str) -> u64 {
        self.by_code.get(code).map_or(0, Histogram::len)
    }
}

/// Everything a run recorded.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub groups: Vec<Group>,
    /// Open loop: how late each call was sent after its intended time.
    pub send_lag: Histogram<u64>,
}

impl Recorded {
    pub fn new(names: &[String]) -> Recorded {
        Recorded {
            groups: names.iter().cloned().map(Group::new).collect(),
            send_lag: histogram(),
        }
    }

    pub fn record_lag(&mut self, lag: Duration) {
        record(&mut self.send_lag, lag);
    }

    /// All groups together.
    pub fn total(&self) -> Group {
        let mut total = Group::new("all".into());
        for g in &self.groups {
            total.merge(g);
        }
        total
    }
}

/// Percentiles of a histogram in milliseconds.
pub fn percentiles_ms(h: &Histogram<u64>) -> Value {
    if h.is_empty() {
        return Value::Null;
    }
    let ms = |us: u64| us as f64 / 1000.0;
    json!({
        "p50": ms(h.value_at_quantile(0.50)),
        "p90": ms(h.value_at_quantile(0.90)),
        "p99": ms(h.value_at_quantile(0.99)),
        "p999": ms(h.value_at_quantile(0.999)),
        "max": ms(h.max()),
        "mean": h.mean() / 1000.0,
    })
}

/// One group as JSON: calls, throughput over `elapsed`, codes, latency (all calls,
/// and per code).
pub fn group_json(g: &Group, elapsed: Duration) -> Value {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let codes: BTreeMap<_, _> = g.by_code.iter().map(|(c, h)| (*c, h.len())).collect();
    let by_code: BTreeMap<_, _> = g
        .by_code
        .iter()
        .map(|(c, h)| (*c, percentiles_ms(h)))
        .collect();
    json!({
        "name": g.name,
        "calls": g.calls(),
        "throughput": g.calls() as f64 / secs,
        "ok_throughput": g.count("OK") as f64 / secs,
        "codes": codes,
        "latency_ms": percentiles_ms(&g.all),
        "latency_ms_by_code": by_code,
        "first_error_message": g.first_message,
        "transparent_retries": g.transparent_retries,
    })
}

fn fmt_ms(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_f64)
        .map_or_else(|| "-".into(), |x| format!("{x:.3}"))
}

/// A human-readable report of the JSON summary `s` (as built by `main`).
pub fn text(s: &Value) -> String {
    let mut out = String::new();
    let line = |out: &mut String, g: &Value| {
        let lat = &g["latency_ms"];
        out.push_str(&format!(
            "{:<40} {:>8} {:>10.1} {:>9} {:>9} {:>9} {:>9} {:>9}  {}\n",
            g["name"].as_str().unwrap_or(""),
            g["calls"],
            g["throughput"].as_f64().unwrap_or(0.0),
            fmt_ms(lat, "p50"),
            fmt_ms(lat, "p90"),
            fmt_ms(lat, "p99"),
            fmt_ms(lat, "p999"),
            fmt_ms(lat, "max"),
            g["codes"]
        ));
    };
    out.push_str(&format!(
        "target {}  mode {}  connections {}  concurrency {}  elapsed {:.2} s\n",
        s["target"].as_str().unwrap_or(""),
        s["mode"].as_str().unwrap_or(""),
        s["connections"],
        s["concurrency"],
        s["elapsed_s"].as_f64().unwrap_or(0.0)
    ));
    out.push_str(&format!(
        "{:<40} {:>8} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9}  codes\n",
        "group", "calls", "calls/s", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms"
    ));
    let groups = s["groups"].as_array().cloned().unwrap_or_default();
    for g in &groups {
        line(&mut out, g);
    }
    if groups.len() > 1 {
        line(&mut out, &s["total"]);
    }
    for (code, lat) in s["total"]["latency_ms_by_code"]
        .as_object()
        .into_iter()
        .flatten()
    {
        out.push_str(&format!(
            "  {code:<20} p50 {} p99 {} max {} ms\n",
            fmt_ms(lat, "p50"),
            fmt_ms(lat, "p99"),
            fmt_ms(lat, "max")
        ));
    }
    for (code, m) in s["total"]["first_error_message"]
        .as_object()
        .into_iter()
        .flatten()
    {
        out.push_str(&format!("  first {code}: {}\n", m.as_str().unwrap_or("")));
    }
    let retries = s["total"]["transparent_retries"].as_u64().unwrap_or(0);
    if retries > 0 {
        out.push_str(&format!(
            "  {retries} transparent retries: attempts that never left the client (a connection closing after its GOAWAY), sent again\n"
        ));
    }
    if !s["send_lag_ms"].is_null() {
        let lag = &s["send_lag_ms"];
        out.push_str(&format!(
            "open loop at {} calls/s: send lag behind schedule p50 {} p99 {} max {} ms (latency counts from the intended send time)\n",
            s["rate"],
            fmt_ms(lag, "p50"),
            fmt_ms(lag, "p99"),
            fmt_ms(lag, "max")
        ));
    }
    if !s["health_probe"].is_null() {
        let p = &s["health_probe"];
        out.push_str(&format!(
            "health probe: {} probes, {} SERVING, {} other answers, {} errors; latency p99 {} max {} ms\n",
            p["probes"],
            p["serving"],
            p["not_serving"],
            p["errors"],
            fmt_ms(&p["latency_ms"], "p99"),
            fmt_ms(&p["latency_ms"], "max")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_count_codes_and_merge() {
        let mut a = Group::new("a".into());
        a.record(tonic::Code::Ok, Duration::from_micros(100), None);
        a.record(
            tonic::Code::ResourceExhausted,
            Duration::from_micros(50),
            Some("busy"),
        );
        let mut b = Group::new("b".into());
        b.record(tonic::Code::Ok, Duration::from_micros(300), None);
        b.transparent_retries = 2;
        a.merge(&b);
        assert_eq!(a.transparent_retries, 2);
        assert_eq!(a.calls(), 3);
        assert_eq!(a.count("OK"), 2);
        assert_eq!(a.count("RESOURCE_EXHAUSTED"), 1);
        assert_eq!(a.first_message["RESOURCE_EXHAUSTED"], "busy");
        let j = group_json(&a, Duration::from_secs(1));
        assert_eq!(j["codes"]["OK"], 2);
        assert_eq!(j["throughput"], 3.0);
        // 3 samples: 50, 100, 300 µs; the median is 100 µs.
        assert_eq!(j["latency_ms"]["p50"], 0.1);
    }
}
