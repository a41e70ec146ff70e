//! The engine's searches on a thread of their own, watched by the session's thread,
//! which answers at the deadline even when the search's thread is not running.
//!
//! On a loaded machine the searching thread can be preempted just before its deadline
//! and sit off the CPU for hundreds of milliseconds; it notices the deadline only when
//! it runs again, and the answer is that much late. The session's thread sleeps while
//! it waits, so it is the one the scheduler wakes promptly: it waits for the search's
//! result until the deadline plus [`WATCHDOG_GRACE`], and if none has come, it stops the
//! search and answers with the best move the search has published so far
//! ([`Limits::progress`]), or the engine's immediate choice when none is published yet.
//! The stalled search's result, when it comes, is dropped (the next search waits for it
//! to finish: it stops at its next clock reading).
//!
//! The searcher (its tables) is shared behind a mutex: the search's thread holds it
//! while it searches, the session's thread while it makes, clears or resizes it between
//! games.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use crate::gomoku::Board;
use crate::gomoku::Point;
use crate::gomoku::board::point_of;
use crate::gomoku::search::limits::Pace;
use crate::gomoku::search::{Limits, SearchResult, Searcher};

/// How long past the search's deadline the session's thread waits for the result
/// before it answers with the best move published so far.
pub const WATCHDOG_GRACE: Duration = Duration::from_millis(15);

/// The longest the session's thread sleeps between two looks at the stop flag (`END`)
/// while it waits.
const POLL: Duration = Duration::from_millis(5);

/// The searcher, made when the first size is known (`None` before).
pub type Tables = Option<(usize, Searcher)>;

/// One search for the search's thread.
struct Job {
    id: u64,
    board: Board,
    bytes: usize,
    deadline: Instant,
    prior_stall: Duration,
    stop: Arc<AtomicBool>,
    progress: Arc<AtomicUsize>,
}

/// A finished search.
struct Done {
    id: u64,
    result: Result<SearchResult, String>,
    /// The longest stall the search saw ([`Pace::worst_seen`]).
    stall: Duration,
}

/// What a watched search gave.
pub enum Outcome {
    /// The search answered in time.
    Done(Result<SearchResult, String>),
    /// It did not: the best move it had published (or the immediate choice).
    Stalled(Point),
}

/// The search's thread and the searcher it shares (see the [module docs](self)).
pub struct SearchThread {
    tables: Arc<Mutex<Tables>>,
    jobs: Sender<Job>,
    done: Receiver<Done>,
    next_id: u64,
}

impl SearchThread {
    /// Starts the thread.
    pub fn start(make: fn(&mut Tables, usize) -> &mut Searcher) -> SearchThread {
        let tables: Arc<Mutex<Tables>> = Arc::new(Mutex::new(None));
        let (jobs, queue) = mpsc::channel::<Job>();
        let (finished, done) = mpsc::channel();
        let shared = Arc::clone(&tables);
        thread::Builder::new()
            .name("gomoku-search".into())
            .spawn(move || {
                for mut job in queue {
                    let mut guard = lock(&shared);
                    let searcher = make(&mut guard, job.bytes);
                    let (result, stall) = run(searcher, &mut job);
                    drop(guard);
                    let _ = finished.send(Done {
                        id: job.id,
                        result,
                        stall,
                    });
                }
            })
            .expect("the search thread starts");
        SearchThread {
            tables,
            jobs,
            done,
            next_id: 0,
        }
    }

    /// The shared tables, locked (waits for a search still running).
    pub fn tables(&self) -> MutexGuard<'_, Tables> {
        lock(&self.tables)
    }

    /// Searches `board` on the search's thread until `deadline` (a stall of
    /// `prior_stall` allowed for), with `stop` (`END`) passed on. Also returns the
    /// longest stalls of the searches that finished meanwhile (this one's, and any
    /// earlier one that had been given up).
    pub fn search(
        &mut self,
        board: Board,
        bytes: usize,
        deadline: Instant,
        prior_stall: Duration,
        stop: &AtomicBool,
    ) -> (Outcome, Vec<Duration>) {
        self.next_id += 1;
        let id = self.next_id;
        let own_stop = Arc::new(AtomicBool::new(stop.load(Ordering::Relaxed)));
        let progress = Arc::new(AtomicUsize::new(0));
        let fallback = board.clone();
        let job = Job {
            id,
            board,
            bytes,
            deadline,
            prior_stall,
            stop: Arc::clone(&own_stop),
            progress: Arc::clone(&progress),
        };
        let mut stalls = Vec::new();
        if self.jobs.send(job).is_err() {
            return (
                Outcome::Done(Err("the search thread has ended".into())),
                stalls,
            );
        }
        let wait_until = deadline + WATCHDOG_GRACE;
        loop {
            if stop.load(Ordering::Relaxed) {
                own_stop.store(true, Ordering::Relaxed);
            }
            let left = wait_until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            match self.done.recv_timeout(left.min(POLL)) {
                Ok(done) => {
                    stalls.push(done.stall);
                    if done.id == id {
                        return (Outcome::Done(done.result), stalls);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return (
                        Outcome::Done(Err("the search thread has ended".into())),
                        stalls,
                    );
                }
            }
        }
        own_stop.store(true, Ordering::Relaxed);
        let point = match progress.load(Ordering::Relaxed) {
            0 => immediate_choice(fallback),
            cell => point_of(cell - 1),
        };
        (Outcome::Stalled(point), stalls)
    }
}

/// One job's search: its result and the longest stall it saw.
fn run(searcher: &mut Searcher, job: &mut Job) -> (Result<SearchResult, String>, Duration) {
    let pace = Pace::new(Some(job.deadline), job.prior_stall);
    let limits = Limits::until(job.deadline)
        .with_stop(&job.stop)
        .with_pace(&pace)
        .with_progress(&job.progress);
    let result = searcher
        .search(&mut job.board, &limits)
        .map_err(|e| e.to_string());
    (result, pace.worst_seen())
}

/// The engine's immediate choice (no time: the forced facts, else the move picker's
/// first legal move), with the least memory.
fn immediate_choice(mut board: Board) -> Point {
    let limits = Limits::until(Instant::now());
    match Searcher::new(0).search(&mut board, &limits) {
        Ok(result) => result.best,
        // The session checked the position before asking: a move exists.
        Err(_) => board
            .empty_cells()
            .next()
            .map(point_of)
            .expect("a position with a move"),
    }
}

fn lock(tables: &Mutex<Tables>) -> MutexGuard<'_, Tables> {
    tables
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::Rule;
    use crate::gomoku::point::parse_sequence;

    fn make(tables: &mut Tables, bytes: usize) -> &mut Searcher {
        &mut tables
            .get_or_insert_with(|| (bytes, Searcher::new(bytes)))
            .1
    }

    #[test]
    fn a_search_thread_that_does_not_run_is_answered_for_at_the_deadline() {
        // The test holds the searcher's lock, so the search's thread cannot start the
        // search at all (as if the scheduler never ran it): the session's side still
        // answers, once the deadline and the grace have passed, with a legal move of
        // the position (none was published, so the engine's immediate choice).
        let mut thread = SearchThread::start(make);
        let hold = Arc::clone(&thread.tables);
        let guard = lock(&hold);
        let board =
            Board::from_moves(15, Rule::Freestyle, &parse_sequence("h8i9h9").unwrap()).unwrap();
        let stop = AtomicBool::new(false);
        let deadline = Instant::now();
        let (outcome, stalls) =
            thread.search(board.clone(), 1 << 20, deadline, Duration::ZERO, &stop);
        assert!(Instant::now() >= deadline + WATCHDOG_GRACE);
        match outcome {
            Outcome::Stalled(p) => assert!(board.stone(p).is_none(), "{p}"),
            Outcome::Done(_) => panic!("the search could not have run"),
        }
        assert!(stalls.is_empty());
        drop(guard);
    }

    #[test]
    fn the_best_move_published_is_the_answer_of_a_stalled_search() {
        // A search that publishes its best move and is then given up on: the answer is
        // the published move, read the way the session's side reads it.
        let progress = AtomicUsize::new(0);
        let limits = Limits::default().with_progress(&progress);
        let board =
            Board::from_moves(15, Rule::Freestyle, &parse_sequence("h8i9h9").unwrap()).unwrap();
        let cell = board.cell("g10".parse().unwrap());
        limits.publish(cell);
        assert_eq!(
            point_of(progress.load(Ordering::Relaxed) - 1).to_string(),
            "g10"
        );
    }
}
