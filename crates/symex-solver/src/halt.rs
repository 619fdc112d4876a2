//! A request from outside the exploration (the user's SIGINT) to stop what the solver is doing.
//!
//! A signal handler may only touch atomics, so the request is a counter: [`request`] bumps it, and a
//! query in flight is interrupted by its watchdog thread when the counter moved since the query began.
//! Queries started after the request run normally: the halted exploration still asks for the tests of
//! its live states.

use std::sync::atomic::{AtomicU64, Ordering};

static REQUESTS: AtomicU64 = AtomicU64::new(0);

/// Asks the query in flight (if any) and the exploration to stop. Async-signal-safe.
pub fn request() {
    REQUESTS.fetch_add(1, Ordering::SeqCst);
}

/// How many halts were requested so far in this process.
pub fn requests() -> u64 {
    REQUESTS.load(Ordering::SeqCst)
}
