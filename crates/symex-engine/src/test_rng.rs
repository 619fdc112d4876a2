//! The random numbers of the engine's model-based tests: a xorshift generator, so that a test's
//! sequence of operations is the same on every run and machine.

/// A generator of numbers below `m` from `seed` (nonzero), one per call.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    }
}
