//! The split of one exploration's tree among the threads of `--jobs N` near its root, so that most
//! subtrees never move between workers.
//!
//! Moving a state costs its rebuild (a replay of its whole prefix, see [`crate::parallel`]). On a wide
//! tree of short paths the states a worker can spare are roots of a few paths each, and the replays
//! cost about as much as exploring them. So every worker explores the top of the tree, down to
//! [`Partition::depth`] forks, and there keeps only the subtrees whose path signature hashes to it:
//! a state that reaches that depth is owned by one worker, which each worker computes alike, since
//! the top is explored alike by all. A path that ends above that depth is reported by its owner only.
//! Work stealing then evens out what the hash split left uneven, with states below the split depth.

use crate::explore::PathState;
use crate::signature::PathSignature;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// Which subtrees below its split depth one worker of `workers` keeps.
#[derive(Clone, Copy, Debug)]
pub struct Partition {
    pub worker: usize,
    pub workers: usize,
    /// Forks from the root at which the tree is split.
    pub depth: u32,
}

impl Partition {
    /// The split of `workers` threads: deep enough for several subtrees per worker in a bushy tree
    /// (2^depth ≥ 64 × workers), shallow enough that the top every worker explores stays small.
    pub fn new(worker: usize, workers: usize) -> Partition {
        let depth = 6 + usize::BITS - (workers.max(1) - 1).leading_zeros();
        Partition {
            worker,
            workers,
            depth,
        }
    }

    /// Whether the state belongs to the top of the tree, which every worker explores.
    pub fn shared(&self, ps: &PathState) -> bool {
        ps.st.dom.depth < self.depth
    }

    /// Whether this worker keeps the state (a path that ended, or a state that just reached the split
    /// depth): its signature, with the answers it is forced to give next, names this worker.
    pub fn owns(&self, ps: &PathState) -> bool {
        // A sibling of an enumeration not built yet has no such signature: its trail names it, as it
        // names the enumeration's other siblings, alike on every worker.
        let sig = ps.st.dom.signature_ahead();
        let sig = sig.unwrap_or_else(|| ps.st.dom.trail.signature());
        self.owner(&sig) == self.worker
    }

    /// The worker that keeps the path of signature `sig`.
    pub fn owner(&self, sig: &PathSignature) -> usize {
        let mut h = FxHasher::default();
        sig.hash(&mut h);
        // The hash's high bits: FxHash mixes its low bits poorly (four workers got 318 and 208 of 1,024).
        ((h.finish() as u128 * self.workers as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signature::Answer;

    /// The 2^10 paths of ten binary decisions.
    fn paths() -> Vec<PathSignature> {
        (0..1u32 << 10)
            .map(|bits| PathSignature {
                root: 0,
                answers: (0..10).map(|i| Answer::Bool(bits >> i & 1 == 1)).collect(),
            })
            .collect()
    }

    #[test]
    fn the_split_depth_grows_with_the_workers() {
        let depths: Vec<u32> = [2, 3, 4, 8]
            .iter()
            .map(|&n| Partition::new(0, n).depth)
            .collect();
        assert_eq!(depths, [7, 8, 8, 9]);
    }

    #[test]
    fn every_path_has_one_owner_and_each_worker_a_fair_share() {
        for workers in [2, 3, 4] {
            let p = Partition::new(0, workers);
            let mut shares = vec![0usize; workers];
            for sig in paths() {
                let owner = p.owner(&sig);
                assert!(owner < workers);
                // Every worker computes the same owner.
                assert!((0..workers).all(|w| Partition::new(w, workers).owner(&sig) == owner));
                shares[owner] += 1;
            }
            let fair = 1024 / workers;
            for s in &shares {
                assert!(
                    s * 10 >= fair * 8 && s * 10 <= fair * 12,
                    "{workers} workers: {shares:?}"
                );
            }
        }
    }
}
