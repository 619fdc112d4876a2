//! The global hash-consing table.
//!
//! One process-wide table, sharded by structural hash so that threads building terms rarely
//! contend. The table holds weak references: a node removes itself when its last handle is
//! dropped, so memory follows the terms that are alive. A global table (rather than an
//! interner passed around) lets every analysis build terms anywhere without plumbing.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use rustc_hash::{FxBuildHasher, FxHasher};

use crate::sort::Sort;
use crate::term::{Node, Op, Term};

const SHARDS: usize = 64;

enum Bucket {
    One(Weak<Node>),
    Many(Vec<Weak<Node>>),
}

type Shard = Mutex<HashMap<u64, Bucket, FxBuildHasher>>;

fn shards() -> &'static [Shard] {
    static TABLE: OnceLock<Vec<Shard>> = OnceLock::new();
    TABLE.get_or_init(|| (0..SHARDS).map(|_| Mutex::default()).collect())
}

fn shard(hash: u64) -> &'static Shard {
    // The low bits feed the map itself; take the shard from the high ones.
    &shards()[(hash >> 58) as usize % SHARDS]
}

fn structural_hash(op: &Op, sort: Sort, args: &[Term]) -> u64 {
    let mut h = FxHasher::default();
    op.hash(&mut h);
    sort.hash(&mut h);
    for a in args {
        h.write_u64(a.id());
    }
    h.finish()
}

fn same_structure(node: &Node, op: &Op, sort: Sort, args: &[Term]) -> bool {
    node.sort == sort && node.op == *op && *node.args == *args
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Total number of term nodes ever created (a statistic).
pub fn nodes_created() -> u64 {
    NEXT_ID.load(Ordering::Relaxed) - 1
}

/// Number of term nodes currently alive.
pub fn nodes_alive() -> usize {
    shards()
        .iter()
        .map(|s| {
            let map = s.lock().unwrap_or_else(|e| e.into_inner());
            map.values()
                .map(|b| match b {
                    Bucket::One(w) => usize::from(w.strong_count() > 0),
                    Bucket::Many(v) => v.iter().filter(|w| w.strong_count() > 0).count(),
                })
                .sum::<usize>()
        })
        .sum()
}

/// Returns the unique node for `(op, sort, args)`, creating it when absent.
pub(crate) fn mk(op: Op, sort: Sort, args: Vec<Term>) -> Term {
    let hash = structural_hash(&op, sort, &args);
    // Handles upgraded but not returned are dropped only after the lock is released: dropping
    // a last handle re-enters the table.
    let mut graveyard: Vec<Term> = Vec::new();
    let found = {
        let mut map = shard(hash).lock().unwrap_or_else(|e| e.into_inner());
        let found = lookup(map.get(&hash), &op, sort, &args, &mut graveyard);
        match found {
            Some(t) => Ok(t),
            None => {
                let node = Arc::new(Node {
                    id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
                    hash,
                    sort,
                    op,
                    args: args.into_boxed_slice(),
                });
                insert(&mut map, hash, Arc::downgrade(&node));
                Err(Term(node))
            }
        }
    };
    drop(graveyard);
    match found {
        Ok(t) | Err(t) => t,
    }
}

fn lookup(
    bucket: Option<&Bucket>,
    op: &Op,
    sort: Sort,
    args: &[Term],
    graveyard: &mut Vec<Term>,
) -> Option<Term> {
    let candidates: &[Weak<Node>] = match bucket? {
        Bucket::One(w) => std::slice::from_ref(w),
        Bucket::Many(v) => v,
    };
    for w in candidates {
        if let Some(node) = w.upgrade() {
            if same_structure(&node, op, sort, args) {
                return Some(Term(node));
            }
            graveyard.push(Term(node));
        }
    }
    None
}

fn insert(map: &mut HashMap<u64, Bucket, FxBuildHasher>, hash: u64, w: Weak<Node>) {
    match map.get_mut(&hash) {
        None => {
            map.insert(hash, Bucket::One(w));
        }
        Some(Bucket::Many(v)) => v.push(w),
        Some(b @ Bucket::One(_)) => {
            let Bucket::One(old) = std::mem::replace(b, Bucket::Many(Vec::new())) else {
                unreachable!()
            };
            *b = Bucket::Many(vec![old, w]);
        }
    }
}

/// Removes a dying node's entry (called from `Node::drop`, strong count already zero).
pub(crate) fn forget(node: &Node) {
    let me = node as *const Node;
    let mut map = shard(node.hash).lock().unwrap_or_else(|e| e.into_inner());
    let remove_key = match map.get_mut(&node.hash) {
        None => false,
        Some(Bucket::One(w)) => std::ptr::eq(w.as_ptr(), me),
        Some(Bucket::Many(v)) => {
            v.retain(|w| !std::ptr::eq(w.as_ptr(), me));
            v.is_empty()
        }
    };
    if remove_key {
        map.remove(&node.hash);
    }
}

thread_local! {
    static DROPPING: Cell<bool> = const { Cell::new(false) };
    static PENDING: RefCell<Vec<Term>> = const { RefCell::new(Vec::new()) };
}

/// Drops a dying node's arguments without recursion, so that freeing a deep term (a long
/// chain of additions built by a loop) cannot overflow the stack.
pub(crate) fn drop_args(args: Box<[Term]>) {
    if args.is_empty() {
        return;
    }
    let queued = PENDING
        .try_with(|p| match p.try_borrow_mut() {
            Ok(mut p) => {
                p.extend(args.into_vec());
                None
            }
            Err(_) => Some(()),
        })
        .unwrap_or(Some(()));
    if queued.is_some() {
        // Thread-local storage is gone (thread exit): nothing to do but drop recursively.
        return;
    }
    if DROPPING.try_with(|d| d.replace(true)).unwrap_or(true) {
        return; // an outer frame is draining the queue
    }
    loop {
        let next = PENDING.with(|p| p.borrow_mut().pop());
        match next {
            Some(t) => drop(t),
            None => break,
        }
    }
    DROPPING.with(|d| d.set(false));
}
