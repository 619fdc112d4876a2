//! What every single-solver layer does alike: report its own statistics before those of the
//! layer below, and pass the time limit down (only the backend enforces it).

/// Expands, inside `impl Solver for Layer<S>`, to `collect_stats` and `set_timeout`
/// delegating to the field `$inner` after reporting the field `$stats`.
macro_rules! delegate_to_inner {
    ($stats:ident, $inner:ident) => {
        fn collect_stats(&self, out: &mut Vec<$crate::stats::LayerStats>) {
            out.push(self.$stats.clone());
            self.$inner.collect_stats(out);
        }

        fn set_timeout(&mut self, timeout: Option<std::time::Duration>) {
            self.$inner.set_timeout(timeout);
        }
    };
}
