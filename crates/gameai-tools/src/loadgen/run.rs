//! The load loops: closed (each worker sends its next call when the last one answers)
//! and open (calls are due at a fixed rate, whatever the server does).
//!
//! In the open loop the latency of a call counts from its *intended* send time, so a
//! server that stalls is charged for the calls that queued behind the stall
//! (coordinated omission, as wrk2 corrects it). `concurrency` bounds the calls in
//! flight; when all slots are busy the schedule falls behind, and the lag shows in
//! the latencies and in the send-lag histogram. Calls are dispatched from a dedicated
//! OS thread that sleeps with the kernel's timer (tens of microseconds late at most,
//! which the send-lag figure shows) rather than tokio's millisecond wheel.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use prost::Message;
use tokio::sync::{Semaphore, mpsc};
use tonic::transport::Channel;

use super::client;
use super::report::Recorded;
use super::requests::Call;

/// Which call the k-th send makes: `lists[k % L][(k / L) % lists[k % L].len()]`. One
/// list cycles through the calls in order; one list per method gives every method
/// the same share of calls whatever its number of lines.
#[derive(Clone, Debug)]
pub struct Picker {
    pub lists: Vec<Vec<usize>>,
}

impl Picker {
    pub fn pick(&self, k: u64) -> usize {
        let l = self.lists.len() as u64;
        let list = &self.lists[(k % l) as usize];
        list[((k / l) % list.len() as u64) as usize]
    }
}

/// What to run.
pub struct Plan {
    pub calls: Arc<Vec<Call>>,
    /// Report group of each call.
    pub group_of: Arc<Vec<usize>>,
    pub group_names: Vec<String>,
    pub picker: Arc<Picker>,
    pub channels: Vec<Channel>,
    /// Closed loop: workers. Open loop: the most calls in flight.
    pub concurrency: usize,
    /// Open loop: calls per second.
    pub rate: Option<f64>,
    /// Calls before this much time has passed are sent but not recorded.
    pub warmup: Duration,
    /// How long to measure (after the warm-up).
    pub duration: Option<Duration>,
    /// How many calls to measure (after the warm-up).
    pub count: Option<u64>,
    /// gRPC deadline of each call.
    pub timeout: Duration,
    /// Health probes on a connection of their own, this often.
    pub probe: Option<(Channel, Duration)>,
}

/// Counters the progress bar reads while the run goes.
#[derive(Debug, Default)]
pub struct Progress {
    pub done: AtomicU64,
    pub errors: AtomicU64,
}

/// The health probes' outcome.
#[derive(Debug)]
pub struct ProbeStats {
    pub probes: u64,
    pub serving: u64,
    pub not_serving: u64,
    pub errors: u64,
    pub latency: hdrhistogram::Histogram<u64>,
}

/// What a run measured.
pub struct Outcome {
    pub recorded: Recorded,
    /// From the end of the warm-up to the last measured completion.
    pub elapsed: Duration,
    pub probe: Option<ProbeStats>,
}

struct Sample {
    group: usize,
    code: tonic::Code,
    /// Attempts that never left the client, sent again (see `client::never_sent`).
    retries: u32,
    latency: Duration,
    lag: Option<Duration>,
    message: Option<String>,
    done: Instant,
}

/// The window: measured calls start in `[measure_from, stop_at)`, at most `count`.
struct Window {
    measure_from: Instant,
    stop_at: Option<Instant>,
    count: Option<u64>,
    measured: AtomicU64,
    finished: AtomicBool,
}

impl Window {
    /// Whether a call starting at `at` may be sent, and whether it is measured.
    fn admit(&self, at: Instant) -> Option<bool> {
        if self.finished.load(Ordering::Relaxed) || self.stop_at.is_some_and(|s| at >= s) {
            self.finished.store(true, Ordering::Relaxed);
            return None;
        }
        if at < self.measure_from {
            return Some(false);
        }
        let n = self.measured.fetch_add(1, Ordering::Relaxed);
        if self.count.is_some_and(|c| n >= c) {
            self.finished.store(true, Ordering::Relaxed);
            return None;
        }
        Some(true)
    }
}

async fn one_call(
    plan_calls: &[Call],
    group_of: &[usize],
    index: usize,
    channel: Channel,
    timeout: Duration,
) -> (usize, tonic::Code, Option<String>, u32) {
    let call = &plan_calls[index];
    let (result, retries) =
        client::unary_retrying(channel, &call.path, call.body.clone(), timeout).await;
    let (code, message) = match result {
        Ok(_) => (tonic::Code::Ok, None),
        Err(status) => (status.code(), Some(status.message().to_string())),
    };
    (group_of[index], code, message, retries)
}

/// Runs the plan to its end. `progress` is updated as calls finish.
pub async fn run(plan: Plan, progress: Arc<Progress>) -> Outcome {
    let began = Instant::now();
    let measure_from = began + plan.warmup;
    let window = Arc::new(Window {
        measure_from,
        stop_at: plan.duration.map(|d| measure_from + d),
        count: plan.count,
        measured: AtomicU64::new(0),
        finished: AtomicBool::new(false),
    });
    let (tx, mut rx) = mpsc::unbounded_channel::<Sample>();
    let names = plan.group_names.clone();
    let collector = tokio::spawn(async move {
        let mut recorded = Recorded::new(&names);
        let mut last = None;
        while let Some(s) = rx.recv().await {
            recorded.groups[s.group].record(s.code, s.latency, s.message.as_deref());
            recorded.groups[s.group].transparent_retries += u64::from(s.retries);
            if let Some(lag) = s.lag {
                recorded.record_lag(lag);
            }
            last = Some(last.map_or(s.done, |l: Instant| l.max(s.done)));
        }
        (recorded, last)
    });
    let probe = plan.probe.clone().map(|(channel, every)| {
        let window = window.clone();
        tokio::spawn(probe_health(channel, every, window))
    });

    match plan.rate {
        None => closed_loop(&plan, &window, &tx, &progress).await,
        Some(rate) => open_loop(&plan, rate, &window, &tx, &progress).await,
    }
    drop(tx);
    window.finished.store(true, Ordering::Relaxed);
    let (recorded, last) = collector.await.expect("collector task");
    let probe = match probe {
        Some(p) => Some(p.await.expect("probe task")),
        None => None,
    };
    let elapsed = last.map_or(Duration::ZERO, |l| {
        l.saturating_duration_since(measure_from)
    });
    Outcome {
        recorded,
        elapsed,
        probe,
    }
}

async fn closed_loop(
    plan: &Plan,
    window: &Arc<Window>,
    tx: &mpsc::UnboundedSender<Sample>,
    progress: &Arc<Progress>,
) {
    let ticket = Arc::new(AtomicU64::new(0));
    let mut workers = Vec::with_capacity(plan.concurrency);
    for w in 0..plan.concurrency {
        let channel = plan.channels[w % plan.channels.len()].clone();
        let (calls, group_of, picker) = (
            plan.calls.clone(),
            plan.group_of.clone(),
            plan.picker.clone(),
        );
        let (window, tx, progress, ticket) =
            (window.clone(), tx.clone(), progress.clone(), ticket.clone());
        let timeout = plan.timeout;
        workers.push(tokio::spawn(async move {
            loop {
                let start = Instant::now();
                let Some(measured) = window.admit(start) else {
                    break;
                };
                let index = picker.pick(ticket.fetch_add(1, Ordering::Relaxed));
                let (group, code, message, retries) =
                    one_call(&calls, &group_of, index, channel.clone(), timeout).await;
                let done = Instant::now();
                note(&progress, code);
                if measured {
                    let _ = tx.send(Sample {
                        group,
                        code,
                        retries,
                        latency: done - start,
                        lag: None,
                        message,
                        done,
                    });
                }
            }
        }));
    }
    for w in workers {
        w.await.expect("worker task");
    }
}

fn note(progress: &Progress, code: tonic::Code) {
    progress.done.fetch_add(1, Ordering::Relaxed);
    if code != tonic::Code::Ok {
        progress.errors.fetch_add(1, Ordering::Relaxed);
    }
}

async fn open_loop(
    plan: &Plan,
    rate: f64,
    window: &Arc<Window>,
    tx: &mpsc::UnboundedSender<Sample>,
    progress: &Arc<Progress>,
) {
    let slots = Arc::new(Semaphore::new(plan.concurrency));
    let handle = tokio::runtime::Handle::current();
    let interval = Duration::from_secs_f64(1.0 / rate);
    let (calls, group_of, picker) = (
        plan.calls.clone(),
        plan.group_of.clone(),
        plan.picker.clone(),
    );
    let channels = plan.channels.clone();
    let (window, tx, progress) = (window.clone(), tx.clone(), progress.clone());
    let timeout = plan.timeout;
    let dispatcher = std::thread::spawn(move || {
        let t0 = Instant::now();
        let mut tasks = Vec::new();
        for k in 0u64.. {
            let intended = t0 + interval.mul_f64(k as f64);
            let Some(measured) = window.admit(intended) else {
                break;
            };
            let now = Instant::now();
            if intended > now {
                std::thread::sleep(intended - now);
            }
            let permit = handle
                .block_on(slots.clone().acquire_owned())
                .expect("semaphore open");
            let sent = Instant::now();
            let index = picker.pick(k);
            let channel = channels[(k % channels.len() as u64) as usize].clone();
            let (calls, group_of, tx, progress) = (
                calls.clone(),
                group_of.clone(),
                tx.clone(),
                progress.clone(),
            );
            tasks.push(handle.spawn(async move {
                let (group, code, message, retries) =
                    one_call(&calls, &group_of, index, channel, timeout).await;
                let done = Instant::now();
                drop(permit);
                note(&progress, code);
                if measured {
                    let _ = tx.send(Sample {
                        group,
                        code,
                        retries,
                        latency: done - intended,
                        lag: Some(sent.saturating_duration_since(intended)),
                        message,
                        done,
                    });
                }
            }));
            if tasks.len() >= 4096 {
                tasks.retain(|t| !t.is_finished());
            }
        }
        tasks
    });
    let tasks = tokio::task::spawn_blocking(move || dispatcher.join().expect("dispatcher"))
        .await
        .expect("dispatcher join");
    for t in tasks {
        t.await.expect("call task");
    }
}

async fn probe_health(channel: Channel, every: Duration, window: Arc<Window>) -> ProbeStats {
    use tonic_health::pb::HealthCheckResponse;
    use tonic_health::pb::health_check_response::ServingStatus;
    let mut stats = ProbeStats {
        probes: 0,
        serving: 0,
        not_serving: 0,
        errors: 0,
        latency: hdrhistogram::Histogram::new_with_bounds(1, 600_000_000, 3).expect("bounds"),
    };
    let mut ticker = tokio::time::interval(every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // At least one probe, however short the run.
    loop {
        ticker.tick().await;
        let t = Instant::now();
        let (result, _) = client::unary_retrying(
            channel.clone(),
            "/grpc.health.v1.Health/Check",
            bytes::Bytes::new(),
            Duration::from_secs(5),
        )
        .await;
        let us = (t.elapsed().as_micros() as u64).max(1);
        stats.probes += 1;
        let _ = stats.latency.record(us);
        match result.map(|b| HealthCheckResponse::decode(b).map(|r| r.status())) {
            Ok(Ok(ServingStatus::Serving)) => stats.serving += 1,
            Ok(Ok(_)) => stats.not_serving += 1,
            _ => stats.errors += 1,
        }
        if window.finished.load(Ordering::Relaxed) {
            break;
        }
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picker_cycles_lines_and_balances_methods() {
        let one = Picker {
            lists: vec![vec![0, 1, 2]],
        };
        let seq: Vec<_> = (0..7).map(|k| one.pick(k)).collect();
        assert_eq!(seq, [0, 1, 2, 0, 1, 2, 0]);
        // Method A has lines 0..3, method B only line 3: B still gets every other call.
        let balanced = Picker {
            lists: vec![vec![0, 1, 2], vec![3]],
        };
        let seq: Vec<_> = (0..8).map(|k| balanced.pick(k)).collect();
        assert_eq!(seq, [0, 3, 1, 3, 2, 3, 0, 3]);
    }
}
