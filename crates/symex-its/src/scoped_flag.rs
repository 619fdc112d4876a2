//! Thread-local switches set for a scope: a rule switched off for a test of what the prover
//! finds without it, retries counted instead of timed for one search.

use std::cell::Cell;
use std::thread::LocalKey;

/// Sets a thread-local flag while it lives; dropping it restores what was in force before, so
/// that scopes nest.
#[must_use = "the flag is set only while this guard lives"]
pub struct ScopedFlag {
    flag: &'static LocalKey<Cell<bool>>,
    outer: bool,
}

impl ScopedFlag {
    /// Sets `flag` on this thread until the guard is dropped.
    pub fn set(flag: &'static LocalKey<Cell<bool>>) -> ScopedFlag {
        ScopedFlag {
            flag,
            outer: flag.with(|c| c.replace(true)),
        }
    }
}

impl Drop for ScopedFlag {
    fn drop(&mut self) {
        self.flag.with(|c| c.set(self.outer));
    }
}
