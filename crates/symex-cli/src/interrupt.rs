//! Ctrl-C as KLEE users know it: the first SIGINT asks the exploration to halt (the query in flight is
//! interrupted, live states still get their tests, the report and summary are written); a second one
//! ends the process at once.

use std::sync::atomic::{AtomicBool, Ordering};

static SEEN: AtomicBool = AtomicBool::new(false);

const HALTING: &[u8] =
    b"symex: SIGINT received, halting (tests for the live states are being written; \
a second SIGINT exits at once)\n";
const EXITING: &[u8] = b"symex: second SIGINT, exiting\n";

/// The exit status after a second SIGINT (128 + SIGINT, as a shell reports a process the signal killed).
pub const STATUS: i32 = 130;

extern "C" fn on_sigint(_: libc::c_int) {
    // Only async-signal-safe calls here: an atomic, write(2) and _exit(2).
    if SEEN.swap(true, Ordering::SeqCst) {
        // SAFETY: write and _exit are async-signal-safe; the buffer is static.
        unsafe {
            libc::write(2, EXITING.as_ptr().cast(), EXITING.len());
            libc::_exit(STATUS);
        }
    }
    symex_solver::halt::request();
    // SAFETY: as above.
    unsafe {
        libc::write(2, HALTING.as_ptr().cast(), HALTING.len());
    }
}

/// Installs the handler (before the exploration starts).
pub fn install() {
    // SAFETY: the handler only performs async-signal-safe operations.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&mut sa.sa_mask);
        sa.sa_flags = libc::SA_RESTART;
        libc::sigaction(libc::SIGINT, &sa, std::ptr::null_mut());
    }
}
