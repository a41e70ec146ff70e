//! Small measuring helpers shared by the in-process measurement binaries
//! (`mahjong-solitaire`, `mahjong-states`).

use std::time::Duration;

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

/// The CPU time the calling thread has used since it started:
/// `clock_gettime(CLOCK_THREAD_CPUTIME_ID)` (POSIX; Linux and macOS). The difference of
/// two readings on one thread is the CPU a decision took, apart from the time the
/// thread waited for a core on a busy machine.
#[cfg(unix)]
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec the call may write; the clock id is the C
    // library's own constant.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(
        rc,
        0,
        "clock_gettime(CLOCK_THREAD_CPUTIME_ID): {}",
        std::io::Error::last_os_error()
    );
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentile_is_the_nearest_rank() {
        let sorted = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(percentile(&sorted, 0.0), Some(1.0));
        assert_eq!(percentile(&sorted, 0.5), Some(3.0));
        assert_eq!(percentile(&sorted, 1.0), Some(5.0));
        assert_eq!(percentile(&[], 0.5), None);
    }

    #[cfg(unix)]
    #[test]
    fn thread_cpu_time_counts_this_threads_work_and_not_its_sleep() {
        // Work on this thread advances its CPU clock, never faster than the wall clock
        // (one thread runs on one core at a time); a 200 ms sleep hardly moves it.
        // The wall interval must enclose the CPU one: the wall clock is read first and
        // last (reading the CPU clock first let a thread that never left its core see
        // 20.0144 ms of CPU in 20.0142 ms of wall time).
        let began = std::time::Instant::now();
        let t0 = thread_cpu_time();
        let mut x = 0u64;
        while thread_cpu_time() - t0 < Duration::from_millis(20)
            && began.elapsed() < Duration::from_secs(10)
        {
            for _ in 0..10_000 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        }
        let busy = thread_cpu_time() - t0;
        let wall = began.elapsed();
        assert!(busy >= Duration::from_millis(20), "{busy:?} in {wall:?}");
        assert!(busy <= wall, "{busy:?} in {wall:?}");
        let t1 = thread_cpu_time();
        std::thread::sleep(Duration::from_millis(200));
        let slept = thread_cpu_time() - t1;
        assert!(slept < Duration::from_millis(50), "{slept:?}");
    }
}
