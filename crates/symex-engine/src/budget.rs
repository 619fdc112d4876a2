//! The host budget of the exploration running on this thread: a deadline and a memory limit that the
//! engine honours inside a step, where a single instruction may cost much (a `memcpy` of 64 MiB copies its
//! bytes one by one, a large `realloc`), and that the explorer checks between steps. A spent budget ends
//! the path or the run with the reason, as a limit does; it never aborts the process. The limit is the
//! thread's (each exploration thread sets its own), the memory measured is the process's.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// What one exploration may spend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Resident memory of the process, in MiB.
    pub max_memory_mb: Option<u64>,
    /// When the exploration must stop.
    pub deadline: Option<Instant>,
}

thread_local! {
    static BUDGET: Cell<Budget> = const { Cell::new(Budget { max_memory_mb: None, deadline: None }) };
    /// When [`poll`] last measured, so that loops can call it per page at little cost.
    static LAST_POLL: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// How often [`poll`] measures (reading `/proc/self/statm` costs microseconds).
const POLL_INTERVAL: Duration = Duration::from_millis(5);

/// Sets this thread's budget (until the next `set`).
pub fn set(b: Budget) {
    BUDGET.with(|c| c.set(b));
    LAST_POLL.with(|c| c.set(None));
}

/// This thread's budget.
pub fn current() -> Budget {
    BUDGET.with(|c| c.get())
}

/// Why this thread's budget is spent, if it is: the deadline passed, or the process uses more memory than
/// the limit.
pub fn exceeded() -> Option<String> {
    allows(0).err()
}

/// Whether `bytes` more bytes of host memory fit the budget; otherwise why not.
pub fn allows(bytes: u64) -> Result<(), String> {
    let b = current();
    if let Some(d) = b.deadline {
        if Instant::now() >= d {
            return Err("time limit reached".into());
        }
    }
    if let Some(mb) = b.max_memory_mb {
        let more = bytes.div_ceil(1 << 20);
        if resident_mb().is_some_and(|r| r.saturating_add(more) >= mb) {
            return Err(format!("memory limit of {mb} MiB reached"));
        }
    }
    Ok(())
}

/// [`exceeded`], measured at most every few milliseconds (for loops that may run long).
pub fn poll() -> Option<String> {
    let b = current();
    if b == Budget::default() {
        return None;
    }
    let now = Instant::now();
    let due = LAST_POLL.with(|c| match c.get() {
        Some(t) if now.duration_since(t) < POLL_INTERVAL => false,
        _ => {
            c.set(Some(now));
            true
        }
    });
    if due {
        exceeded()
    } else {
        None
    }
}

/// Resident memory of this process in MiB (Linux).
pub fn resident_mb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = s.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page_size() / (1 << 20))
}

fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if n > 0 {
        n as u64
    } else {
        4096
    }
}

/// The default memory limit of `symex check`: 2000 MiB, or half the address-space limit (`ulimit -v`)
/// when that is lower (address space runs ahead of resident memory: the allocator's arenas, the solver's
/// reservations, thread stacks).
pub fn default_memory_limit_mb() -> u64 {
    const DEFAULT_MB: u64 = 2000;
    match address_space_limit_mb() {
        Some(l) => DEFAULT_MB.min(l / 2),
        None => DEFAULT_MB,
    }
}

/// The process's address-space limit (`RLIMIT_AS`, `ulimit -v`) in MiB, when it has one.
pub fn address_space_limit_mb() -> Option<u64> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `r` is a valid rlimit for getrlimit to fill.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } == 0;
    (ok && r.rlim_cur != libc::RLIM_INFINITY).then_some(r.rlim_cur / (1 << 20))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_budget_says_why() {
        set(Budget::default());
        assert_eq!(exceeded(), None, "no budget, nothing spent");
        assert_eq!(poll(), None);
        let r = resident_mb().expect("Linux has /proc/self/statm");
        set(Budget {
            max_memory_mb: Some(r + 1 + (1 << 20)),
            deadline: None,
        });
        assert_eq!(exceeded(), None);
        let e = allows(2 << 40).unwrap_err();
        assert!(e.contains("memory limit"), "{e}");
        set(Budget {
            max_memory_mb: Some(1),
            deadline: None,
        });
        assert!(exceeded().unwrap().contains("memory limit of 1 MiB"));
        set(Budget {
            max_memory_mb: None,
            deadline: Some(Instant::now()),
        });
        assert_eq!(poll().as_deref(), Some("time limit reached"));
        set(Budget::default());
    }
}
