//! The server binary's allocator: jemalloc, its freed pages returned at once, the
//! engine threads in an arena of their own.
//!
//! # Why
//!
//! - **No allocator lock shared with a low-priority thread.** Engine threads run at
//!   nice 15 (`service::executor`). With glibc's malloc, runtime workers and engine
//!   threads shared arenas, and a free that misses the thread cache takes its arena's
//!   mutex: an engine thread preempted while holding it (beside busy processes a nice-15
//!   thread waits tens of milliseconds for a CPU) stalled a runtime worker freeing its
//!   own memory, and with it every call that worker was answering
//!   (docs/experiments/2026-12-06-deadlines.md, "Session 35": a worker asleep 93 ms in
//!   `_int_free`, the last late answers of the deadline measurement). Here the engine
//!   threads allocate from one arena that no runtime worker allocates from
//!   ([`engine_threads_share_an_arena_of_their_own`]); what crosses between them (a
//!   request's blocks freed by an engine thread, an answer's freed by a worker) goes to
//!   the freeing thread's own cache first, and reaches the owner's locks only in
//!   batches.
//! - **Freed pages leave the process.** The engine memory budget (`memory_budget`)
//!   counts a freed table as gone. With `dirty_decay_ms:0,muzzy_decay_ms:0` jemalloc
//!   returns the pages of every freed extent to the OS when it is freed, so RSS follows
//!   the live blocks: `tests/server_memory.rs` (peak RSS at most idle + budget) holds
//!   with a wider margin than under glibc (peak 29.3 MB above idle against 31.8-32.2 MB,
//!   32 MiB budget, debug build, same machine and hour).
//!
//! Only the binary installs it (`#[global_allocator]` in `main.rs`); tests and other
//! users of the library keep the system allocator.

use std::sync::OnceLock;

/// The allocator of the `gameai` binary.
pub type Allocator = tikv_jemallocator::Jemalloc;

/// jemalloc's configuration, read at its first allocation (jemalloc's `malloc_conf`
/// symbol, under the `_rjem_` prefix that `tikv-jemallocator` builds it with): no decay
/// of freed pages, dirty or muzzy, so they are returned to the OS at once.
#[allow(non_upper_case_globals)]
#[unsafe(export_name = "_rjem_malloc_conf")]
pub static malloc_conf: &[u8] = b"dirty_decay_ms:0,muzzy_decay_ms:0\0";

/// Binds the calling thread to one jemalloc arena shared by the engine threads only,
/// created on first use (`arenas.create`, then `thread.arena`: jemalloc's mallctl
/// interface). The server registers it with
/// `service::executor::on_engine_thread_start`. If jemalloc refuses, the thread keeps
/// the arena it was given.
pub fn engine_threads_share_an_arena_of_their_own() {
    static ARENA: OnceLock<Option<u32>> = OnceLock::new();
    // SAFETY: "arenas.create" reads out a u32 (the new arena's index) and
    // "thread.arena" takes one (jemalloc's mallctl documentation); neither reads or
    // writes memory of ours beyond that value.
    let arena = ARENA
        .get_or_init(|| unsafe { tikv_jemalloc_ctl::raw::read::<u32>(b"arenas.create\0") }.ok());
    if let Some(index) = *arena {
        // SAFETY: as above.
        let _ = unsafe { tikv_jemalloc_ctl::raw::write(b"thread.arena\0", index) };
    }
}
