//! SAGE's work list, shared by the workers of `--jobs N`, with owner affinity.
//!
//! `PickFirstItem` takes an item of the highest score. A path condition is made of one worker's terms,
//! so a worker that takes an item another worker ran must run the input again to rebuild it (a
//! re-run costs as much as the run itself). Among the items of the highest score the search has no
//! preference, and most items share a score (children that covered no new block score 0): a worker
//! takes its own item of that score when it has one, the oldest-first order of the tier otherwise.
//! Items of a higher score are always taken first, whoever ran them.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

/// Work-list key: (score, -age), so that the last entry is `PickFirstItem`'s choice.
pub type Key = (usize, Reverse<u64>);

/// A work-list item: an input that was run, with its bound (its score and age are its key).
#[derive(Clone, Debug)]
pub struct Item {
    pub bytes: Vec<u8>,
    pub bound: usize,
    /// The worker holding the path condition.
    pub owner: usize,
    pub age: u64,
}

#[derive(Default)]
pub struct WorkList {
    items: BTreeMap<Key, Item>,
    /// The keys of each worker's items.
    by_owner: Vec<BTreeSet<Key>>,
}

impl WorkList {
    pub fn insert(&mut self, score: usize, item: Item) {
        let key = (score, Reverse(item.age));
        if self.by_owner.len() <= item.owner {
            self.by_owner.resize_with(item.owner + 1, BTreeSet::new);
        }
        self.by_owner[item.owner].insert(key);
        self.items.insert(key, item);
    }

    /// The item `worker` expands next: its own of the highest score present, else the first of
    /// that score.
    pub fn pick(&mut self, worker: usize) -> Option<Item> {
        let top = *self.items.keys().next_back()?;
        let own = self
            .by_owner
            .get(worker)
            .and_then(|keys| keys.last().copied())
            .filter(|k| k.0 == top.0);
        let key = own.unwrap_or(top);
        let item = self.items.remove(&key)?;
        self.by_owner[item.owner].remove(&key);
        Some(item)
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(owner: usize, age: u64) -> Item {
        Item {
            bytes: vec![age as u8],
            bound: 0,
            owner,
            age,
        }
    }

    #[test]
    fn a_higher_score_comes_first_whoever_ran_it() {
        let mut w = WorkList::default();
        w.insert(0, item(0, 1));
        w.insert(3, item(1, 2));
        assert_eq!(w.pick(0).map(|i| i.age), Some(2));
        assert_eq!(w.pick(0).map(|i| i.age), Some(1));
        assert!(w.pick(0).is_none());
    }

    #[test]
    fn within_a_score_a_worker_takes_its_own_oldest_first() {
        let mut w = WorkList::default();
        w.insert(0, item(1, 1));
        w.insert(0, item(0, 2));
        w.insert(0, item(0, 3));
        // The tier's first is worker 1's (oldest), but worker 0 has its own.
        assert_eq!(w.pick(0).map(|i| i.age), Some(2));
        assert_eq!(w.pick(0).map(|i| i.age), Some(3));
        // Worker 0 has none left: it takes worker 1's.
        assert_eq!(w.pick(0).map(|i| i.age), Some(1));
        assert!(w.is_empty());
    }

    #[test]
    fn one_worker_keeps_the_search_order() {
        let mut w = WorkList::default();
        for (score, age) in [(1, 1), (0, 2), (1, 3), (2, 4)] {
            w.insert(score, item(0, age));
        }
        let order: Vec<u64> = std::iter::from_fn(|| w.pick(0).map(|i| i.age)).collect();
        assert_eq!(order, vec![4, 1, 3, 2]);
    }
}
