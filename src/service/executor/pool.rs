//! The engine threads: where engine work runs, at a low priority, sharing no lock with
//! the runtime's workers.
//!
//! # Why not tokio's blocking pool
//!
//! Engine threads run at nice [`super::ENGINE_NICE`]. Beside busy processes at nice 0
//! such a thread runs in short bursts tens of milliseconds apart. Tokio's blocking pool
//! keeps its queue and idle threads under one mutex, which a blocking thread takes after
//! every task and which `spawn_blocking` takes on a runtime worker: a nice-15 thread
//! preempted while holding it (or spinning for it) stalls the worker that next calls
//! `spawn_blocking`, and with it every task of that worker, timers included. Traced with
//! `perf` (docs/experiments/2026-12-06-deadlines.md, "The late tail"): of 24 late Dou
//! Dizhu plays in 300 beside two busy processes, the handler had been stuck in
//! `Spawner::spawn_task` waiting for that mutex while the nice-15 thread that held it
//! waited for a CPU; the fallback answer's timer could not fire until it was released,
//! up to 200 ms after the answer was due. Dou Dizhu play showed it most because its
//! searches run to their deadline: the thread of one call finishes (and takes the
//! pool's mutex) just as the next call arrives.
//!
//! # Model
//!
//! - A fixed set of engine threads ([`super::engine_threads`] of them, started on first
//!   use, nice [`super::ENGINE_NICE`] for life) takes jobs from a lock-free queue. A
//!   thread with nothing to do marks itself idle in a bit mask and parks; a submitter
//!   pushes its job and unparks one idle thread, if any (otherwise a thread that is
//!   finishing its job takes it next). Nothing here blocks a submitter.
//! - A job's result goes into the call's own slot (a mutex that only the job touches
//!   until it says it is done), and the job hands its completion to the courier: one
//!   thread at the default priority, woken lock-free, that marks the slot done, wakes
//!   the awaiting task and releases the call's engine slot. Everything a runtime worker
//!   also locks (the scheduler's queues, the engine semaphore, the metrics registry) is
//!   touched by the courier, never by a nice-15 thread.
//! - A job whose caller has gone (the fallback was sent, the RPC was cancelled) drops
//!   its result on its own thread, where its memory was allocated.

use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::task::{Context, Poll};
use std::thread::Thread;
use std::time::Instant;

use crossbeam_queue::SegQueue;
use futures_util::task::AtomicWaker;

/// Most engine threads the pool runs (one bit each in the idle mask).
pub const MAX_THREADS: usize = 64;

type Job = Box<dyn FnOnce() + Send>;
type Completion = Box<dyn FnOnce() + Send>;

/// The engine threads and their queue.
struct Pool {
    jobs: SegQueue<Job>,
    /// Bit i: engine thread i is parked or about to park, with nothing to do.
    idle: AtomicU64,
    threads: Vec<Thread>,
}

/// The courier and its queue.
struct Courier {
    completions: SegQueue<Completion>,
    thread: Thread,
}

static POOL: OnceLock<Pool> = OnceLock::new();
static COURIER: OnceLock<Courier> = OnceLock::new();

/// The pool, its `n` threads started on first use (later calls return the same pool).
fn pool(n: usize) -> &'static Pool {
    POOL.get_or_init(|| {
        let n = n.clamp(1, MAX_THREADS);
        let threads = (0..n)
            .map(|i| {
                std::thread::Builder::new()
                    .name(format!("gameai-engine-{i}"))
                    .spawn(move || engine_thread(i))
                    .expect("the OS refused to start an engine thread")
                    .thread()
                    .clone()
            })
            .collect();
        Pool {
            jobs: SegQueue::new(),
            idle: AtomicU64::new(0),
            threads,
        }
    })
}

fn courier() -> &'static Courier {
    COURIER.get_or_init(|| {
        let thread = std::thread::Builder::new()
            .name("gameai-courier".into())
            .spawn(courier_thread)
            .expect("the OS refused to start the courier thread")
            .thread()
            .clone();
        Courier {
            completions: SegQueue::new(),
            thread,
        }
    })
}

/// An engine thread's life: lower its priority once, then run jobs, parking when there
/// are none.
fn engine_thread(i: usize) {
    super::lower_this_threads_priority();
    if let Some(start) = super::ENGINE_THREAD_START.get() {
        start();
    }
    // The pool is being initialised by the thread that started this one.
    let pool = loop {
        if let Some(pool) = POOL.get() {
            break pool;
        }
        std::thread::park_timeout(std::time::Duration::from_millis(1));
    };
    let bit = 1u64 << i;
    loop {
        if let Some(job) = pool.jobs.pop() {
            job();
            continue;
        }
        // Say so before the last look at the queue: a job pushed after that look sees
        // the bit and unparks this thread (or the park returns at once).
        pool.idle.fetch_or(bit, Ordering::SeqCst);
        if let Some(job) = pool.jobs.pop() {
            pool.idle.fetch_and(!bit, Ordering::SeqCst);
            job();
            continue;
        }
        std::thread::park();
        pool.idle.fetch_and(!bit, Ordering::SeqCst);
    }
}

fn courier_thread() {
    let courier = loop {
        if let Some(c) = COURIER.get() {
            break c;
        }
        std::thread::park_timeout(std::time::Duration::from_millis(1));
    };
    loop {
        while let Some(done) = courier.completions.pop() {
            done();
        }
        std::thread::park();
    }
}

/// Runs `job` on an engine thread; never blocks.
fn submit(threads: usize, job: Job) {
    let pool = pool(threads);
    pool.jobs.push(job);
    // Wake one idle thread, if there is one: clear its bit first, so that two
    // submitters never wake the same thread for two jobs.
    let mut idle = pool.idle.load(Ordering::SeqCst);
    while idle != 0 {
        let i = idle.trailing_zeros() as usize;
        match pool
            .idle
            .compare_exchange(idle, idle & !(1 << i), Ordering::SeqCst, Ordering::SeqCst)
        {
            Ok(_) => {
                pool.threads[i].unpark();
                return;
            }
            Err(now) => idle = now,
        }
    }
}

/// Hands `done` to the courier; never blocks.
fn complete(done: Completion) {
    let courier = courier();
    courier.completions.push(done);
    courier.thread.unpark();
}

/// Where a job leaves its result for the task that awaits it.
struct Slot<T> {
    value: Mutex<Option<std::thread::Result<T>>>,
    /// Set by the courier once `value` holds the result.
    done: AtomicBool,
    /// When the courier set `done`: the awaiting task's wake-up delay is counted from
    /// it ([`crate::service::wake_delay`]).
    done_at: OnceLock<Instant>,
    /// The awaiting task has gone: the job drops its result itself.
    abandoned: AtomicBool,
    waker: AtomicWaker,
}

/// The task's side of a job: resolves to the job's result (`Err` holds a panic).
pub struct Pending<T> {
    slot: Arc<Slot<T>>,
}

impl<T> std::future::Future for Pending<T> {
    type Output = std::thread::Result<T>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let slot = &self.slot;
        if !slot.done.load(Ordering::Acquire) {
            slot.waker.register(cx.waker());
            if !slot.done.load(Ordering::Acquire) {
                return Poll::Pending;
            }
        }
        if let Some(done_at) = slot.done_at.get() {
            crate::service::wake_delay::record(done_at.elapsed());
        }
        let value = slot
            .value
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        Poll::Ready(value.unwrap_or_else(|| Err(Box::new("the engine result was taken twice"))))
    }
}

impl<T> Drop for Pending<T> {
    fn drop(&mut self) {
        self.slot.abandoned.store(true, Ordering::SeqCst);
    }
}

/// Runs `work` on one of `threads` engine threads (the pool's size is fixed by the
/// first call); `release` (the call's engine slot, its gauges) is dropped by the
/// courier once the work has ended.
pub fn spawn<T, F, R>(threads: usize, work: F, release: R) -> Pending<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
    R: Send + 'static,
{
    let slot = Arc::new(Slot {
        value: Mutex::new(None),
        done: AtomicBool::new(false),
        done_at: OnceLock::new(),
        abandoned: AtomicBool::new(false),
        waker: AtomicWaker::new(),
    });
    let job_slot = slot.clone();
    // Both threads start here, from a runtime worker: a thread takes its creator's
    // nice value, and the courier must not be started by a nice-15 engine thread.
    courier();
    submit(
        threads,
        Box::new(move || {
            let result: Result<T, Box<dyn Any + Send>> =
                std::panic::catch_unwind(AssertUnwindSafe(work));
            if job_slot.abandoned.load(Ordering::SeqCst) {
                drop(result);
            } else {
                *job_slot
                    .value
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner) = Some(result);
            }
            complete(Box::new(move || {
                let _ = job_slot.done_at.set(Instant::now());
                job_slot.done.store(true, Ordering::Release);
                job_slot.waker.wake();
                drop(release);
            }));
        }),
    );
    Pending { slot }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Records, when dropped, the name and nice value of the thread that dropped it.
    struct Witness(Arc<Mutex<Option<(String, i32)>>>);

    impl Drop for Witness {
        fn drop(&mut self) {
            let name = std::thread::current().name().unwrap_or("").to_string();
            *self.0.lock().unwrap() = Some((name, this_threads_nice()));
        }
    }

    fn this_threads_nice() -> i32 {
        #[cfg(target_os = "linux")]
        return super::super::this_threads_nice();
        #[cfg(not(target_os = "linux"))]
        return 0;
    }

    fn threads() -> usize {
        super::super::engine_threads()
    }

    #[tokio::test]
    async fn work_runs_on_an_engine_thread_and_is_released_by_the_courier_at_the_workers_priority()
    {
        let released = Arc::new(Mutex::new(None));
        let (name, nice) = spawn(
            threads(),
            || {
                let name = std::thread::current().name().unwrap_or("").to_string();
                (name, this_threads_nice())
            },
            Witness(released.clone()),
        )
        .await
        .unwrap();
        assert!(name.starts_with("gameai-engine-"), "{name}");
        #[cfg(target_os = "linux")]
        assert_eq!(nice, super::super::ENGINE_NICE);
        let _ = nice;
        // The courier drops the release value right after it wakes this task.
        let mut by = None;
        for _ in 0..1000 {
            by = released.lock().unwrap().clone();
            if by.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        // At the runtime workers' priority (this test's thread's), not the engines'.
        assert_eq!(
            by,
            Some(("gameai-courier".to_string(), this_threads_nice()))
        );
    }

    #[tokio::test]
    async fn an_abandoned_result_is_dropped_on_the_engine_thread() {
        let dropped = Arc::new(Mutex::new(None));
        let witness = Witness(dropped.clone());
        let gate = Arc::new(AtomicBool::new(false));
        let open = gate.clone();
        let pending = spawn(
            threads(),
            move || {
                while !open.load(Ordering::SeqCst) {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                witness
            },
            (),
        );
        drop(pending);
        gate.store(true, Ordering::SeqCst);
        let mut by = None;
        for _ in 0..5000 {
            by = dropped.lock().unwrap().clone();
            if by.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let (name, _) = by.expect("the abandoned result was never dropped");
        assert!(name.starts_with("gameai-engine-"), "{name}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_job_of_many_concurrent_callers_completes_with_its_own_result() {
        // Far more jobs than engine threads, submitted from 64 tasks at once: a lost
        // wake-up (a job pushed while every thread parks) would hang this test.
        let done = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..64u64)
            .map(|t| {
                let done = done.clone();
                tokio::spawn(async move {
                    for i in 0..50u64 {
                        let x = t * 1000 + i;
                        let y = spawn(threads(), move || x * 3 + 1, ()).await.unwrap();
                        assert_eq!(y, x * 3 + 1);
                        done.fetch_add(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(done.load(Ordering::SeqCst), 64 * 50);
    }

    #[tokio::test]
    async fn a_panic_comes_back_as_an_error() {
        let result = spawn(threads(), || -> u8 { panic!("engine bug") }, ()).await;
        let panic = result.unwrap_err();
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"engine bug"));
        // The thread survives its job's panic and serves the next one.
        assert_eq!(spawn(threads(), || 5u8, ()).await.unwrap(), 5);
    }
}
