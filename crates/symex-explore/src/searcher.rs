//! Searchers: which live state runs next (KLEE's `--search`).
//!
//! * `dfs`: the newest state first (depth-first; memory stays small).
//! * `bfs`: the oldest state first (breadth-first).
//! * `random-path`: KLEE's random walk down the execution tree from its root picks a leaf with probability
//!   2^-depth; we draw with exactly these weights over the live states (depth = forks along the path), so
//!   shallow states, which stand for large unexplored subtrees, are favoured and deep loops cannot starve
//!   the rest. With many live states the draw is a tournament over a sample (cost bounded per pick).
//! * `coverage-new`: KLEE's nurs:covnew idea: prefer states that recently covered new code; weight
//!   1 / (1 + k/64)² where k is the number of steps since the state last entered a block no path had entered.
//! * `default`: alternates random-path and coverage-new picks (KLEE's default interleaving).

use crate::explore::PathState;

/// The searcher names of the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearcherKind {
    Dfs,
    Bfs,
    RandomPath,
    CoverageNew,
    Default,
}

impl SearcherKind {
    pub fn parse(s: &str) -> Option<SearcherKind> {
        Some(match s {
            "dfs" => SearcherKind::Dfs,
            "bfs" => SearcherKind::Bfs,
            "random-path" => SearcherKind::RandomPath,
            "coverage-new" | "nurs:covnew" => SearcherKind::CoverageNew,
            "default" => SearcherKind::Default,
            _ => return None,
        })
    }
}

/// A small deterministic generator (xorshift64*): runs are reproducible for a given `--seed`.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A float in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// The live states and the rule that picks the next.
pub struct Searcher {
    kind: SearcherKind,
    /// Boxed: a queue of many states grows by doubling, and a slot of the queue is then a pointer, not a
    /// whole state.
    states: std::collections::VecDeque<Box<PathState>>,
    /// What the weights are computed from, of each state at the same index: a weighted pick reads 64
    /// states at random places, and read from the boxed states each read missed the cache (an eighth of
    /// the processor time of an exploration with tens of thousands of states waiting).
    keys: std::collections::VecDeque<Key>,
    rng: Rng,
    turn: u64,
}

/// A waiting state's fields the weights read (they do not change while it waits).
#[derive(Clone, Copy, Debug)]
struct Key {
    depth: u32,
    since_new_coverage: u64,
}

impl Key {
    fn of(s: &PathState) -> Key {
        Key {
            depth: s.st.dom.depth,
            since_new_coverage: s.since_new_coverage,
        }
    }
}

/// Above this many live states a weighted pick looks at a sample only.
const SAMPLE: usize = 64;

impl Searcher {
    pub fn new(kind: SearcherKind, seed: u64) -> Searcher {
        Searcher {
            kind,
            states: Default::default(),
            keys: Default::default(),
            rng: Rng::new(seed),
            turn: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    pub fn push(&mut self, s: PathState) {
        self.keys.push_back(Key::of(&s));
        self.states.push_back(Box::new(s));
    }

    /// The live states, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &PathState> {
        self.states.iter().map(|s| &**s)
    }

    /// All live states (to cut them when a limit ends the exploration).
    pub fn drain(&mut self) -> Vec<PathState> {
        self.keys.clear();
        self.states.drain(..).map(|s| *s).collect()
    }

    /// The oldest state that `ok` accepts, among the oldest few: in a depth-first search the root of the
    /// largest unexplored subtree, what a worker gives away ([`crate::parallel`]).
    pub fn take_oldest(&mut self, ok: impl Fn(&PathState) -> bool) -> Option<PathState> {
        let i = self.states.iter().take(SAMPLE).position(|s| ok(s))?;
        self.keys.remove(i);
        self.states.remove(i).map(|s| *s)
    }

    pub fn pop(&mut self) -> Option<PathState> {
        debug_assert_eq!(self.keys.len(), self.states.len());
        if self.states.is_empty() {
            return None;
        }
        self.turn += 1;
        let s = match self.kind {
            SearcherKind::Dfs => {
                self.keys.pop_back();
                self.states.pop_back()
            }
            SearcherKind::Bfs => {
                self.keys.pop_front();
                self.states.pop_front()
            }
            SearcherKind::RandomPath => self.weighted(random_path_weight),
            SearcherKind::CoverageNew => self.weighted(coverage_weight),
            SearcherKind::Default if self.turn.is_multiple_of(2) => {
                self.weighted(random_path_weight)
            }
            SearcherKind::Default => self.weighted(coverage_weight),
        };
        s.map(|s| *s)
    }

    fn weighted(&mut self, weight: fn(&Key) -> f64) -> Option<Box<PathState>> {
        let n = self.states.len();
        let candidates: Vec<usize> = if n <= SAMPLE {
            (0..n).collect()
        } else {
            (0..SAMPLE).map(|_| self.rng.below(n)).collect()
        };
        let weights: Vec<f64> = candidates.iter().map(|&i| weight(&self.keys[i])).collect();
        let total: f64 = weights.iter().sum();
        let mut r = self.rng.unit() * total;
        let mut pick = candidates[candidates.len() - 1];
        for (&i, &w) in candidates.iter().zip(&weights) {
            if r < w {
                pick = i;
                break;
            }
            r -= w;
        }
        self.keys.swap_remove_back(pick);
        self.states.swap_remove_back(pick)
    }
}

/// 2^-depth (depth at most 1000, so the power is a normal number: written into the exponent, it is
/// exactly what halving 1.0 `depth` times gives).
fn random_path_weight(k: &Key) -> f64 {
    f64::from_bits((1023 - k.depth.min(1000) as u64) << 52)
}

fn coverage_weight(k: &Key) -> f64 {
    let d = 1.0 + k.since_new_coverage as f64 / 64.0;
    1.0 / (d * d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The weight written into the exponent is the power computed by multiplication, at every depth
    /// (the pick, and so the order of the exploration, is unchanged).
    #[test]
    fn random_path_weight_is_the_power_of_one_half() {
        for depth in (0..=1100).chain([u32::MAX]) {
            let k = Key {
                depth,
                since_new_coverage: 0,
            };
            let powered = 0.5f64.powi(depth.min(1000) as i32).max(f64::MIN_POSITIVE);
            assert_eq!(
                random_path_weight(&k).to_bits(),
                powered.to_bits(),
                "depth {depth}"
            );
        }
    }
}
