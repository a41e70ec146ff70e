//! The engine executor: where CPU-bound engine work runs, and how much of it at once.
//!
//! # Model
//!
//! - Engine work (a search, a DP, a move generation) runs on the engine threads of
//!   [`pool`], never on the runtime's workers, which serve the network, health and
//!   metrics, and never on tokio's blocking pool, whose mutex a low-priority thread would
//!   share with the workers ([`pool`] says what that cost).
//! - At most [`engine_threads`] pieces of engine work run at once (the `--engine-threads`
//!   flag; by default [`ENGINE_CALLS_PER_CORE`] per core the process may use), sharing
//!   the cores by the kernel's time slices. A call beyond that waits, without a thread,
//!   for a slot; the time it waits counts against its own work deadline (the engines
//!   stop at [`super::work_deadline`] whenever they started, so a call that waited long
//!   answers with a cheaper, honestly labelled answer rather than late). Without this
//!   bound, 64 concurrent searches on 64 blocking threads took the CPU from the two
//!   runtime workers: health checks took 2.5 s and nothing was shed (BENCHMARKS.md,
//!   "Overload"). With one slot per core instead of four, a millisecond call waited
//!   behind two searches that run to their 1 s budget: in the soak's mix at 22 calls/s
//!   15% of the calls were shed and the heuristic plays' p99 was 0.9 s; with four per
//!   core, none was shed and that p99 was 0.15 s (BENCHMARKS.md, "Soak").
//!   Time-sliced, a search gets less CPU within its budget and says so (`exact`,
//!   nodes); a quick call is never queued behind it.
//! - Each engine thread lowers its own scheduling priority when it starts (Linux: nice
//!   [`ENGINE_NICE`], per thread), so that when the cores are saturated the runtime
//!   workers still get them first: answers go out and health stays prompt.
//! - The server's in-flight limit (`--max-inflight`, by default
//!   [`default_max_inflight`]: [`ADMITTED_PER_ENGINE_THREAD`] calls per engine slot)
//!   bounds the work in progress: beyond it calls are shed with `RESOURCE_EXHAUSTED`
//!   at once. The admitted calls beyond `--engine-threads` form a short queue: one
//!   waits at most about one engine budget for a slot (the calls ahead of it stop by
//!   their deadlines), and its wait counts against its own deadline. The queue
//!   absorbs the bunching of random arrivals: with a hard limit at the engine slots, a
//!   steady mix at 70% of the saturated throughput had 0.9% of its calls shed
//!   (BENCHMARKS.md, "Soak").
//!
//! Gauges: `gameai_engine_calls_running` and `gameai_engine_calls_waiting`.

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use tokio::sync::Semaphore;

use super::error;

pub mod pool;

/// Nice value of the threads that run engine work (0 is the default, 19 the lowest
/// priority). CFS weighs nice 0 at 1024 and nice 15 at 36: two runtime workers busy
/// beside eight engine threads still get 88% of the cores. At nice 5 (weight 335) the
/// eight took most of them and, at 3x the in-flight limit, health checks waited up to
/// 0.45 s (p99) and refusals 0.49 s; at 15, 43 ms and 16 ms (BENCHMARKS.md,
/// "Overload"). In a container, nice weighs the threads of the container's CPU cgroup
/// against each other, so it costs the engines nothing when the network is idle.
pub const ENGINE_NICE: i32 = 15;

/// Engine calls computing at once per core by default (`--engine-threads 0`): enough
/// that quick calls time-share the cores with searches that run to their budget
/// instead of queueing behind them, few enough that the cores are not thrashed.
pub const ENGINE_CALLS_PER_CORE: usize = 4;

static SLOTS: OnceLock<(usize, Arc<Semaphore>)> = OnceLock::new();

/// The cores this process may use (`std::thread::available_parallelism`; 1 if unknown).
/// In a container without a CPU limit this is the node's cores: set `--engine-threads`
/// to the pod's CPU request there.
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The default `--engine-threads`: [`ENGINE_CALLS_PER_CORE`] per available core.
pub fn default_engine_threads() -> usize {
    available_cores() * ENGINE_CALLS_PER_CORE
}

/// Calls admitted per engine slot by default (`--max-inflight`): one computing, one
/// waiting for the slot.
pub const ADMITTED_PER_ENGINE_THREAD: usize = 2;

/// The default `--max-inflight`: [`ADMITTED_PER_ENGINE_THREAD`] per engine slot.
pub fn default_max_inflight(engine_threads: usize) -> usize {
    engine_threads.max(1) * ADMITTED_PER_ENGINE_THREAD
}

/// Sets the number of engine threads (0 = [`default_engine_threads`]). The first call wins
/// (the process has one executor; tests that start several servers share it); later
/// calls return the number already in force.
pub fn configure(threads: usize) -> usize {
    slots_with(threads).0
}

/// The number of engine calls that may run at once.
pub fn engine_threads() -> usize {
    slots_with(0).0
}

fn slots_with(threads: usize) -> &'static (usize, Arc<Semaphore>) {
    SLOTS.get_or_init(|| {
        let n = if threads == 0 {
            default_engine_threads()
        } else {
            threads
        };
        (n, Arc::new(Semaphore::new(n)))
    })
}

/// Runs CPU-heavy engine work on an engine thread ([`pool`]) once an engine slot is
/// free, and awaits it.
///
/// A panic inside `work` becomes `INTERNAL` (the process keeps serving). If the RPC
/// is dropped (deadline, cancellation) while waiting for a slot, the work never starts;
/// once started it runs to its end (holding its slot, since it holds a core), so `work`
/// must itself stop by the deadline it was given (see [`super::work_deadline`]). While
/// it runs, the call's fixed overhead ([`crate::memory_budget::CALL_OVERHEAD_BYTES`]) is
/// charged to the engine memory budget, so that RSS stays within idle + budget however
/// many calls run at once.
pub async fn run_blocking<T, F>(work: F) -> Result<T, tonic::Status>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    use crate::memory_budget::{CALL_OVERHEAD_BYTES, MemoryBudget};
    use crate::telemetry::{ENGINE_CALLS_RUNNING, ENGINE_CALLS_WAITING};
    let waiting = GaugeGuard::new(ENGINE_CALLS_WAITING);
    let (threads, slots) = slots_with(0);
    let permit = slots
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| error::internal("the engine executor is closed"))?;
    drop(waiting);
    let running = GaugeGuard::new(ENGINE_CALLS_RUNNING);
    let work = move || {
        let _overhead = MemoryBudget::global().charge(CALL_OVERHEAD_BYTES);
        work()
    };
    // The slot and the gauge are released by the courier, at the default priority.
    pool::spawn(*threads, work, (permit, running))
        .await
        .map_err(|panic| {
            let why = panic_message(panic.as_ref()).unwrap_or("panicked");
            error::internal(format!("engine task failed: {why}"))
        })
}

/// The text of a panic's payload, when it is a string (`panic!` with a message).
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> Option<&str> {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
}

/// [`run_blocking`] with a fallback: if `work` has not returned at `due`, `fallback`
/// (a cheap answer the handler computed beforehand, e.g. a heuristic's, saying so) is
/// sent instead; `work` goes on to its own deadline on its thread, holding its slot,
/// and its result is dropped. Without `due` (no hard deadline) the call waits for
/// `work`.
///
/// Why: engine threads run at nice [`ENGINE_NICE`]. Beside busy processes at nice 0
/// such a thread runs in short bursts far apart, however often it reads its clock: a
/// search that runs to its deadline usually notices it a gap late, and a fallback it
/// computed itself first was often not ready either (98.6% of bids were late with it);
/// the handler, on a runtime worker at nice 0, wakes at `due` promptly
/// (docs/experiments/2026-12-06-deadlines.md).
pub async fn run_or_fallback<T, F>(
    due: Option<Instant>,
    fallback: T,
    work: F,
) -> Result<T, tonic::Status>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    run_or_fallback_with(due, move || fallback, work).await
}

/// [`run_or_fallback`] with a fallback computed only when it is due, on the handler's
/// thread: for engines whose answers are usually quick (mahjong, gomoku), so that the
/// common call does not pay for a fallback it does not use. `fallback` must be cheap
/// and bounded (a few milliseconds): it spends the reply's margin.
pub async fn run_or_fallback_with<T, F, G>(
    due: Option<Instant>,
    fallback: G,
    work: F,
) -> Result<T, tonic::Status>
where
    F: FnOnce() -> T + Send + 'static,
    G: FnOnce() -> T,
    T: Send + 'static,
{
    let call = run_blocking(work);
    let Some(due) = due else {
        return call.await;
    };
    tokio::pin!(call);
    tokio::select! {
        answer = &mut call => answer,
        () = tokio::time::sleep_until(due.into()) => {
            super::wake_delay::record(Instant::now().saturating_duration_since(due));
            Ok(fallback())
        }
    }
}

/// Adds 1 to a gauge for as long as it lives.
struct GaugeGuard(&'static str);

impl GaugeGuard {
    fn new(name: &'static str) -> GaugeGuard {
        metrics::gauge!(name).increment(1.0);
        GaugeGuard(name)
    }
}

impl Drop for GaugeGuard {
    fn drop(&mut self) {
        metrics::gauge!(self.0).decrement(1.0);
    }
}

/// What each engine thread runs first, after lowering its priority; set by the binary
/// before the first engine call ([`on_engine_thread_start`]).
static ENGINE_THREAD_START: OnceLock<fn()> = OnceLock::new();

/// Makes every engine thread run `start` when it starts (the first call wins; threads
/// already started are not affected). The server binary binds engine threads to an
/// allocator arena of their own with it.
pub fn on_engine_thread_start(start: fn()) {
    let _ = ENGINE_THREAD_START.set(start);
}

/// Sets this thread's nice value to [`ENGINE_NICE`] (each engine thread calls it once,
/// when it starts). Linux only (where `setpriority(PRIO_PROCESS, tid)` applies to one
/// thread); elsewhere nothing.
fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid has no preconditions; setpriority only changes this thread's
        // nice value and reports failure (e.g. not permitted) by its return value,
        // which is ignored: the priority is an optimisation.
        unsafe {
            let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
            libc::setpriority(libc::PRIO_PROCESS, tid, ENGINE_NICE);
        }
    }
}

/// The nice value of the calling thread (Linux), for tests.
#[cfg(all(test, target_os = "linux"))]
fn this_threads_nice() -> i32 {
    // SAFETY: as above; getpriority returns the nice value (errno is not checked: the
    // values tested here are never -1).
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::getpriority(libc::PRIO_PROCESS, tid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[tokio::test]
    async fn a_panic_becomes_internal() {
        let status = run_blocking(|| -> u32 { panic!("boom") })
            .await
            .unwrap_err();
        assert_eq!(status.code(), tonic::Code::Internal);
        assert_eq!(run_blocking(|| 7).await.unwrap(), 7);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn at_most_engine_threads_run_at_once_and_at_lower_priority() {
        let limit = engine_threads();
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let calls: Vec<_> = (0..3 * limit + 2)
            .map(|_| {
                let (running, most) = (running.clone(), most.clone());
                tokio::spawn(run_blocking(move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(20));
                    running.fetch_sub(1, Ordering::SeqCst);
                    #[cfg(target_os = "linux")]
                    return this_threads_nice();
                    #[cfg(not(target_os = "linux"))]
                    return ENGINE_NICE;
                }))
            })
            .collect();
        for call in calls {
            assert_eq!(call.await.unwrap().unwrap(), ENGINE_NICE);
        }
        let most = most.load(Ordering::SeqCst);
        assert!(
            most <= limit,
            "{most} ran at once with {limit} engine threads"
        );
        assert!(most >= 1);
    }

    #[tokio::test]
    async fn a_late_engine_call_answers_its_fallback_when_due() {
        // The work takes 300 ms: due after 50 ms, the answer is the fallback, sent well
        // before the work ends.
        let started = Instant::now();
        let due = started + Duration::from_millis(50);
        let answer = run_or_fallback(Some(due), 1, || {
            std::thread::sleep(Duration::from_millis(300));
            2
        })
        .await
        .unwrap();
        assert_eq!(answer, 1);
        assert!(started.elapsed() < Duration::from_millis(250));
        // Work that returns before it is due answers its own result.
        let due = Instant::now() + Duration::from_secs(5);
        assert_eq!(run_or_fallback(Some(due), 1, || 2).await.unwrap(), 2);
        // No hard deadline: the call waits for the work.
        let answer = run_or_fallback(None, 1, || {
            std::thread::sleep(Duration::from_millis(30));
            3
        })
        .await
        .unwrap();
        assert_eq!(answer, 3);
    }

    #[tokio::test]
    async fn a_lazy_fallback_is_computed_only_when_due() {
        let computed = std::sync::atomic::AtomicBool::new(false);
        let due = Instant::now() + Duration::from_secs(5);
        let answer = run_or_fallback_with(
            Some(due),
            || {
                computed.store(true, Ordering::SeqCst);
                1
            },
            || 2,
        )
        .await
        .unwrap();
        assert_eq!(answer, 2);
        assert!(!computed.load(Ordering::SeqCst));
        let due = Instant::now() + Duration::from_millis(30);
        let answer = run_or_fallback_with(
            Some(due),
            || 1,
            || {
                std::thread::sleep(Duration::from_millis(300));
                2
            },
        )
        .await
        .unwrap();
        assert_eq!(answer, 1);
    }

    #[test]
    fn the_default_inflight_limit_follows_the_engine_threads() {
        assert_eq!(default_max_inflight(8), 16);
        assert_eq!(default_max_inflight(0), 2);
        assert_eq!(
            default_engine_threads(),
            available_cores() * ENGINE_CALLS_PER_CORE
        );
    }
}
