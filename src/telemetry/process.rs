//! The process metrics that every Prometheus client library exports, under the same
//! names, types and units, so that standard dashboards and alerts work unchanged:
//!
//! | metric | type | source (Linux) |
//! | --- | --- | --- |
//! | `process_cpu_seconds_total` | counter | user + system time, `/proc/self/stat` |
//! | `process_resident_memory_bytes` | gauge | resident pages x page size, `/proc/self/stat` |
//! | `process_virtual_memory_bytes` | gauge | virtual size, `/proc/self/stat` |
//! | `process_start_time_seconds` | gauge | boot time (`/proc/stat`) + start ticks, Unix seconds |
//! | `process_open_fds` | gauge | entries of `/proc/self/fd` |
//! | `process_max_fds` | gauge | soft `Max open files`, `/proc/self/limits` |
//!
//! They are read at each scrape and written straight into the exposition text rather
//! than through the `metrics` facade: its counters hold integers, and CPU time must
//! keep its fractions of a second for `rate()` to mean anything. On other systems (and
//! if `/proc` cannot be read) the block is left out, as the client libraries do.

use std::fmt::Write;

/// One reading of the process's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct ProcessStats {
    pub cpu_seconds: f64,
    pub resident_memory_bytes: u64,
    pub virtual_memory_bytes: u64,
    pub start_time_seconds: f64,
    pub open_fds: u64,
    /// `None` when unlimited.
    pub max_fds: Option<u64>,
}

/// Appends the `process_*` block to a Prometheus text exposition (nothing when the
/// figures cannot be read).
pub fn render(out: &mut String) {
    if let Some(stats) = read() {
        write_stats(out, &stats);
    }
}

fn write_stats(out: &mut String, stats: &ProcessStats) {
    let max_fds = stats
        .max_fds
        .map_or_else(|| "+Inf".to_string(), |n| n.to_string());
    let series: [(&str, &str, &str, String); 6] = [
        (
            "process_cpu_seconds_total",
            "counter",
            "Total user and system CPU time spent in seconds.",
            stats.cpu_seconds.to_string(),
        ),
        (
            "process_resident_memory_bytes",
            "gauge",
            "Resident memory size in bytes.",
            stats.resident_memory_bytes.to_string(),
        ),
        (
            "process_virtual_memory_bytes",
            "gauge",
            "Virtual memory size in bytes.",
            stats.virtual_memory_bytes.to_string(),
        ),
        (
            "process_start_time_seconds",
            "gauge",
            "Start time of the process since the Unix epoch in seconds.",
            stats.start_time_seconds.to_string(),
        ),
        (
            "process_open_fds",
            "gauge",
            "Number of open file descriptors.",
            stats.open_fds.to_string(),
        ),
        (
            "process_max_fds",
            "gauge",
            "Maximum number of open file descriptors.",
            max_fds,
        ),
    ];
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    for (name, kind, help, value) in series {
        let _ = write!(
            out,
            "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}\n"
        );
    }
}

/// The process's figures now; `None` off Linux or when `/proc` cannot be read.
#[cfg(target_os = "linux")]
pub fn read() -> Option<ProcessStats> {
    let stat = parse_stat(&std::fs::read_to_string("/proc/self/stat").ok()?)?;
    let ticks = clock_ticks_per_second()?;
    let page = page_size()?;
    let boot = boot_time_seconds()?;
    let open_fds = std::fs::read_dir("/proc/self/fd").ok()?.count() as u64;
    let max_fds = parse_max_open_files(&std::fs::read_to_string("/proc/self/limits").ok()?)?;
    Some(ProcessStats {
        cpu_seconds: (stat.utime_ticks + stat.stime_ticks) as f64 / ticks,
        resident_memory_bytes: stat.rss_pages * page,
        virtual_memory_bytes: stat.vsize_bytes,
        start_time_seconds: boot as f64 + stat.starttime_ticks as f64 / ticks,
        open_fds,
        max_fds,
    })
}

/// The process's figures now; `None` off Linux or when `/proc` cannot be read.
#[cfg(not(target_os = "linux"))]
pub fn read() -> Option<ProcessStats> {
    None
}

/// The fields of `/proc/self/stat` used here (proc(5)).
#[derive(Debug, PartialEq, Eq)]
struct Stat {
    utime_ticks: u64,
    stime_ticks: u64,
    starttime_ticks: u64,
    vsize_bytes: u64,
    rss_pages: u64,
}

/// Parses `/proc/[pid]/stat`. The second field (the command name, in parentheses) may
/// hold spaces and parentheses itself, so the fields are counted from its last `)`:
/// field 3 (state) is the first after it, then utime 14, stime 15, starttime 22,
/// vsize 23, rss 24 (1-based, as proc(5) numbers them).
fn parse_stat(text: &str) -> Option<Stat> {
    let after_name = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let field = |n: usize| fields.get(n - 3)?.parse::<u64>().ok();
    Some(Stat {
        utime_ticks: field(14)?,
        stime_ticks: field(15)?,
        starttime_ticks: field(22)?,
        vsize_bytes: field(23)?,
        rss_pages: field(24)?,
    })
}

/// The soft limit of the `Max open files` line of `/proc/[pid]/limits`; `Some(None)`
/// when unlimited.
fn parse_max_open_files(text: &str) -> Option<Option<u64>> {
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    let soft = line["Max open files".len()..].split_whitespace().next()?;
    if soft == "unlimited" {
        return Some(None);
    }
    soft.parse().ok().map(Some)
}

/// `btime` of `/proc/stat`: the boot time in Unix seconds.
#[cfg(target_os = "linux")]
fn boot_time_seconds() -> Option<u64> {
    static BOOT: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *BOOT.get_or_init(|| {
        let text = std::fs::read_to_string("/proc/stat").ok()?;
        text.lines()
            .find_map(|l| l.strip_prefix("btime "))
            .and_then(|v| v.trim().parse().ok())
    })
}

#[cfg(target_os = "linux")]
fn clock_ticks_per_second() -> Option<f64> {
    // SAFETY: sysconf only reads a configuration value; it has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (ticks > 0).then_some(ticks as f64)
}

#[cfg(target_os = "linux")]
fn page_size() -> Option<u64> {
    // SAFETY: as above.
    let bytes = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    (bytes > 0).then_some(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_counted_from_the_last_parenthesis() {
        // A stat line written by hand in proc(5)'s layout, whose command name holds a
        // space and a ')': utime 7, stime 3, starttime 4242, vsize 123456789, rss 2500.
        let line = "1234 (a) b) S 1 1234 1234 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 5 0 \
                    4242 123456789 2500 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 \
                    1 0 0 0 0 0";
        assert_eq!(
            parse_stat(line),
            Some(Stat {
                utime_ticks: 7,
                stime_ticks: 3,
                starttime_ticks: 4242,
                vsize_bytes: 123_456_789,
                rss_pages: 2500,
            })
        );
        assert_eq!(parse_stat("1234 (truncated"), None);
    }

    #[test]
    fn max_open_files_reads_the_soft_limit() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max processes             63704                63704                processes \n\
                      Max open files            1024                 524288               files     \n";
        assert_eq!(parse_max_open_files(limits), Some(Some(1024)));
        let unlimited =
            "Max open files            unlimited            unlimited            files     \n";
        assert_eq!(parse_max_open_files(unlimited), Some(None));
    }

    #[test]
    fn the_block_has_the_client_libraries_names_and_types() {
        let mut text = String::from("up 1");
        write_stats(
            &mut text,
            &ProcessStats {
                cpu_seconds: 1.25,
                resident_memory_bytes: 4096,
                virtual_memory_bytes: 8192,
                start_time_seconds: 1.7e9,
                open_fds: 9,
                max_fds: None,
            },
        );
        assert!(text.starts_with("up 1\n# HELP process_cpu_seconds_total "));
        assert!(text.contains(
            "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 1.25\n"
        ));
        assert!(text.contains("# TYPE process_open_fds gauge\nprocess_open_fds 9\n"));
        assert!(text.contains("process_max_fds +Inf\n"));
        assert!(text.contains("process_start_time_seconds 1700000000\n"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_can_be_read() {
        let stats = read().expect("/proc is readable");
        // The test binary holds at least stdin/stdout/stderr and some MiB of code.
        assert!(stats.open_fds >= 3, "{stats:?}");
        assert!(stats.resident_memory_bytes > 1 << 20, "{stats:?}");
        assert!(stats.virtual_memory_bytes >= stats.resident_memory_bytes);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs_f64();
        assert!(
            stats.start_time_seconds <= now + 1.0 && stats.start_time_seconds > now - 86_400.0,
            "{stats:?}"
        );
    }
}
