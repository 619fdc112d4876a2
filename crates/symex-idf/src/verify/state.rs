//! Symbolic states (the paper's Definition 2): heap H, old heap G, store Γ, path condition Σ.
//!
//! Every component is persistent (`im`), so that branching and continuations copy a state in
//! O(1).
use std::fmt;
use std::sync::Arc;
use symex_expr::Term;

/// A persistent map hashed with FxHash: its keys are term ids and names, which need no
/// protection against crafted collisions, and SipHash was a tenth of the verifier's time.
pub type Map<K, V> = im::HashMap<K, V, rustc_hash::FxBuildHasher>;
/// A persistent set hashed with FxHash (see [`Map`]).
pub type Set<K> = im::HashSet<K, rustc_hash::FxBuildHasher>;

/// A heap chunk (Definition 1), plus the array-elements chunk of `acc(a.elems)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Chunk {
    /// `recv.field ↦ value`; `field` is `Class.name`.
    Field {
        recv: Term,
        field: Arc<str>,
        value: Term,
    },
    /// `recv.pred[snap](args)`; `pred` is `Class.name`.
    Pred {
        recv: Term,
        pred: Arc<str>,
        args: Vec<Term>,
        snap: Term,
    },
    /// `recv.elems ↦ value`: every element of array `recv`.
    Elems { recv: Term, value: Term },
}

impl Chunk {
    pub fn recv(&self) -> &Term {
        match self {
            Chunk::Field { recv, .. } | Chunk::Pred { recv, .. } | Chunk::Elems { recv, .. } => {
                recv
            }
        }
    }
}

/// A symbolic heap: a multiset of chunks, with the receivers of its field (and array
/// elements) chunks indexed by field, so that separation facts and the `acc(e.f) * acc(e.f)`
/// check need no scan of the heap (Figure 11 stays linear).
///
/// The indexes are keyed by term id (hash-consed terms never share an id, and ids are never
/// reused): a persistent map of plain integers is copied on write without touching reference
/// counts, which a state cloned at every rule (and changed after) would otherwise pay for
/// with each of its nodes' entries.
///
/// Each chunk is behind its own `Arc`: a heap copied on write copies a node of up to 64
/// chunks, and a shared chunk is one count to bump instead of one per term it holds.
///
/// The newest changes (fewer than [`UNINDEXED`]) wait outside the indexes, as the newest facts
/// of a [`PathCondition`] do, and the indexes are asked with them applied: a copy of the heap
/// that is changed and dropped soon after (the heap a pure method's precondition is consumed
/// from, the one its body is evaluated in) then copies no node of the indexes.
#[derive(Clone, Debug, Default)]
pub struct Heap {
    chunks: im::Vector<Arc<Chunk>>,
    /// The indexes as they were before the changes in `pending`.
    index: HeapIndex,
    /// The changes not yet in `index`, newest first.
    pending: Option<Arc<Change>>,
    /// How many changes are in `pending`.
    waiting: usize,
}

/// The indexes of a [`Heap`].
#[derive(Clone, Debug, Default)]
struct HeapIndex {
    /// Field → receiver id → how many chunks.
    receivers: Map<Arc<str>, Map<u64, usize>>,
    /// The same for receivers that are not objects allocated on the path, with the receiver:
    /// only they need explicit disequalities (allocated objects differ by their allocation
    /// numbers).
    unallocated: Map<Arc<str>, Map<u64, (Term, usize)>>,
    /// Receiver id → how many predicate chunks.
    pred_receivers: Map<u64, usize>,
}

/// A chunk added to or removed from a heap, and the changes before it.
#[derive(Debug)]
struct Change {
    recv: Term,
    family: Option<Arc<str>>,
    pred: bool,
    /// Whether the chunk was added (else removed).
    added: bool,
    /// Whether the receiver is an object allocated on the path (for an addition).
    allocated: bool,
    prev: Option<Arc<Change>>,
}

/// The family a chunk's separation is about: its field, or the array elements.
fn family(c: &Chunk) -> Option<Arc<str>> {
    match c {
        Chunk::Field { field, .. } => Some(field.clone()),
        // Arrays of different element types are different families: an `int[]` and a
        // `bool[]` are never the same array, and their contents have different sorts.
        Chunk::Elems { value, .. } => Some(Arc::from(format!("[elems {:?}]", value.sort()))),
        Chunk::Pred { .. } => None,
    }
}

fn count(map: &mut Map<Arc<str>, Map<u64, usize>>, f: &Arc<str>, t: &Term, delta: isize) {
    let inner = map.entry(f.clone()).or_default();
    let n = inner.get(&t.id()).copied().unwrap_or(0) as isize + delta;
    if n <= 0 {
        inner.remove(&t.id());
    } else {
        inner.insert(t.id(), n as usize);
    }
}

fn count_unallocated(
    map: &mut Map<Arc<str>, Map<u64, (Term, usize)>>,
    f: &Arc<str>,
    t: &Term,
    delta: isize,
) {
    let inner = map.entry(f.clone()).or_default();
    let n = inner.get(&t.id()).map_or(0, |e| e.1) as isize + delta;
    if n <= 0 {
        inner.remove(&t.id());
    } else {
        inner.insert(t.id(), (t.clone(), n as usize));
    }
}

/// How many chunks of one family (or predicate chunks) a receiver has after a change, from how
/// many it had before: what the indexes' updates do.
fn recount(n: usize, added: bool) -> usize {
    if added {
        n + 1
    } else {
        n.saturating_sub(1)
    }
}

impl HeapIndex {
    fn apply(&mut self, c: &Change) {
        if c.pred {
            let n = self.pred_receivers.get(&c.recv.id()).copied().unwrap_or(0);
            match recount(n, c.added) {
                0 => {
                    self.pred_receivers.remove(&c.recv.id());
                }
                n => {
                    self.pred_receivers.insert(c.recv.id(), n);
                }
            }
        }
        if let Some(f) = &c.family {
            let delta = if c.added { 1 } else { -1 };
            count(&mut self.receivers, f, &c.recv, delta);
            let unallocated = if c.added {
                !c.allocated
            } else {
                self.unallocated
                    .get(f)
                    .is_some_and(|m| m.contains_key(&c.recv.id()))
            };
            if unallocated {
                count_unallocated(&mut self.unallocated, f, &c.recv, delta);
            }
        }
    }
}

impl Heap {
    /// Adds a chunk; `allocated` tells whether its receiver is an object allocated on the path.
    pub fn add(&mut self, c: Chunk, allocated: bool) {
        self.record(&c, true, allocated);
        self.chunks.push_back(Arc::new(c));
    }

    /// The chunk at `index` (in the order chunks were added).
    pub fn get(&self, index: usize) -> &Chunk {
        &self.chunks[index]
    }

    /// Replaces the chunk at `index` by one of the same family and receiver.
    pub fn set(&mut self, index: usize, c: Chunk) {
        debug_assert_eq!(family(&c), family(&self.chunks[index]));
        debug_assert_eq!(c.recv(), self.chunks[index].recv());
        self.chunks.set(index, Arc::new(c));
    }

    pub fn remove(&mut self, index: usize) -> Chunk {
        // The newest chunk is the one most often taken (it was most often produced just
        // before), and taking the last element of the vector splits and joins no tree.
        let c = if index + 1 == self.chunks.len() {
            self.chunks.pop_back().expect("index in bounds")
        } else {
            self.chunks.remove(index)
        };
        self.record(&c, false, false);
        Arc::try_unwrap(c).unwrap_or_else(|shared| (*shared).clone())
    }

    fn record(&mut self, c: &Chunk, added: bool, allocated: bool) {
        self.pending = Some(Arc::new(Change {
            recv: c.recv().clone(),
            family: family(c),
            pred: matches!(c, Chunk::Pred { .. }),
            added,
            allocated,
            prev: self.pending.take(),
        }));
        self.waiting += 1;
        if self.waiting >= UNINDEXED {
            let mut index = std::mem::take(&mut self.index);
            for c in self.changes().iter().flatten() {
                index.apply(c);
            }
            self.index = index;
            self.pending = None;
            self.waiting = 0;
        }
    }

    /// The changes not yet in the indexes, oldest first.
    fn changes(&self) -> [Option<&Change>; UNINDEXED] {
        let mut out = [None; UNINDEXED];
        let mut next = self.pending.as_deref();
        let mut i = self.waiting;
        while let Some(c) = next {
            i -= 1;
            out[i] = Some(c);
            next = c.prev.as_deref();
        }
        out
    }

    /// How many chunks of family `f` receiver `r` has.
    fn receiver_count(&self, f: &str, r: u64) -> usize {
        let base = self
            .index
            .receivers
            .get(f)
            .and_then(|m| m.get(&r))
            .copied()
            .unwrap_or(0);
        self.changes()
            .iter()
            .flatten()
            .filter(|c| c.recv.id() == r && c.family.as_deref() == Some(f))
            .fold(base, |n, c| recount(n, c.added))
    }

    /// Whether a chunk of the same family as `c` has `c`'s receiver (syntactically).
    pub fn has_receiver_like(&self, c: &Chunk) -> bool {
        family(c).is_some_and(|f| self.receiver_count(&f, c.recv().id()) > 0)
    }

    /// The receivers of chunks of `c`'s family; only the unallocated ones if `unallocated_only`.
    /// All of them are wanted only for a receiver not allocated on the path (a parameter's
    /// chunk, produced from a contract): those are found by a scan of the heap.
    pub fn receivers_like(&self, c: &Chunk, unallocated_only: bool) -> Vec<Term> {
        let Some(f) = family(c) else {
            return Vec::new();
        };
        if unallocated_only {
            let base = self.index.unallocated.get(&f);
            let changes = self.changes();
            let mine = || {
                changes
                    .iter()
                    .flatten()
                    .filter(|c| c.family.as_deref() == Some(&*f))
            };
            // The changes leave the unallocated receivers alone unless one adds an unallocated
            // receiver or takes a chunk of one.
            let touched = mine().any(|c| {
                if c.added {
                    !c.allocated
                } else {
                    base.is_some_and(|m| m.contains_key(&c.recv.id()))
                }
            });
            let receivers =
                |m: &Map<u64, (Term, usize)>| m.values().map(|(t, _)| t.clone()).collect();
            if !touched {
                return base.map(receivers).unwrap_or_default();
            }
            // Applied to a copy of the index (the order of the receivers is the index's).
            let mut index = HeapIndex {
                unallocated: self.index.unallocated.clone(),
                ..HeapIndex::default()
            };
            for c in mine() {
                index.apply(c);
            }
            return index.unallocated.get(&f).map(receivers).unwrap_or_default();
        }
        let mut seen = std::collections::HashSet::new();
        self.iter()
            .filter(|d| family(d).as_ref() == Some(&f) && seen.insert(d.recv().id()))
            .map(|d| d.recv().clone())
            .collect()
    }

    /// Whether some chunk of `field` is in the heap.
    pub fn has_field(&self, field: &str) -> bool {
        let base = self.index.receivers.get(field);
        let changes = self.changes();
        let mut receivers: Vec<u64> = changes
            .iter()
            .flatten()
            .filter(|c| c.family.as_deref() == Some(field))
            .map(|c| c.recv.id())
            .collect();
        receivers.sort_unstable();
        receivers.dedup();
        // Each receiver the changes touched counts once before and once after them.
        let mut len = base.map_or(0, |m| m.len());
        for r in receivers {
            let before = base.is_some_and(|m| m.contains_key(&r));
            let after = self.receiver_count(field, r) > 0;
            len = len + usize::from(after) - usize::from(before);
        }
        len > 0
    }

    /// How many predicate chunks have receiver `recv` (syntactically).
    pub fn preds_with_receiver(&self, recv: &Term) -> usize {
        let r = recv.id();
        let base = self.index.pred_receivers.get(&r).copied().unwrap_or(0);
        self.changes()
            .iter()
            .flatten()
            .filter(|c| c.pred && c.recv.id() == r)
            .fold(base, |n, c| recount(n, c.added))
    }

    pub fn len(&self) -> usize {
        self.chunks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// The chunks in the order they were added (double-ended: searches go newest first).
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Chunk> + ExactSizeIterator {
        self.chunks.iter().map(|c| &**c)
    }
}

/// The path condition: the facts assumed on this path, in order, with a set for the
/// syntactic membership test that spares the solver the most common queries, and an index
/// from each variable to the facts it occurs in, so that a query is sent only the facts its
/// goal reaches (independence slicing: the other facts share no variable with them).
///
/// The facts form a list shared from the newest back (and so does each variable's list of
/// facts), and the newest facts (fewer than [`UNINDEXED`]) are in neither index but are looked
/// at one by one: a copy of the path condition that is extended while the original lives on —
/// a rule's state kept for its continuation — shares every earlier fact, and copies the nodes
/// of the persistent indexes once per [`UNINDEXED`] facts instead of once per fact.
#[derive(Clone, Default)]
pub struct PathCondition {
    last: Option<Arc<Fact>>,
    /// How many of the facts (the oldest) are in `set` and `by_var`.
    indexed: usize,
    /// The ids of the indexed facts (see [`Heap`] on why ids).
    set: Set<u64>,
    /// Variable (term id; [`GROUND`] for facts without any) → the indexed facts it occurs in.
    by_var: Map<u64, Arc<Occurrence>>,
}

/// How many of the newest facts may wait outside the indexes.
const UNINDEXED: usize = 16;

/// A fact of the path condition and the facts assumed before it.
struct Fact {
    term: Term,
    /// Its position: how many facts were assumed before it.
    index: u32,
    /// Its variables (term ids; [`GROUND`] for a fact without any).
    vars: Box<[u64]>,
    prev: Option<Arc<Fact>>,
}

/// The facts one variable occurs in, newest first.
struct Occurrence {
    fact: Arc<Fact>,
    next: Option<Arc<Occurrence>>,
}

/// Unlinks a list without recursion (a path condition has one node per fact): each node
/// whose last handle this is gives up its successor before it is dropped.
macro_rules! drop_list {
    ($ty:ty, $link:ident) => {
        impl Drop for $ty {
            fn drop(&mut self) {
                let mut next = self.$link.take();
                while let Some(node) = next {
                    match Arc::try_unwrap(node) {
                        Ok(mut node) => next = node.$link.take(),
                        Err(_) => break,
                    }
                }
            }
        }
    };
}
drop_list!(Fact, prev);
drop_list!(Occurrence, next);

impl fmt::Debug for PathCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.facts()).finish()
    }
}

/// The index key of facts without variables: every slice takes them.
const GROUND: u64 = u64::MAX;

/// The variables of `t` by term id, leaving out `null` and `unit`: constants every part of the
/// state mentions, which would join every fact into one slice.
fn variables(t: &Term) -> Vec<u64> {
    let mut out = Vec::new();
    // A term is a DAG (a walk that does not remember what it saw can take exponential time),
    // but a fact is most often a few nodes: what was seen is a list, and a set only once the
    // list grows long.
    let mut seen: Vec<u64> = Vec::new();
    let mut seen_set: Option<rustc_hash::FxHashSet<u64>> = None;
    let mut stack = vec![t];
    while let Some(x) = stack.pop() {
        let first_visit = match &mut seen_set {
            Some(set) => set.insert(x.id()),
            None if seen.contains(&x.id()) => false,
            None => {
                seen.push(x.id());
                if seen.len() > 32 {
                    seen_set = Some(seen.drain(..).collect());
                }
                true
            }
        };
        if !first_visit {
            continue;
        }
        if let symex_expr::Op::Var(name) = x.op() {
            if &**name != "null" && &**name != "unit" {
                out.push(x.id());
            }
        }
        stack.extend(x.args());
    }
    out.sort_unstable();
    out.dedup();
    out
}

impl PathCondition {
    pub fn assume(&mut self, fact: Term) {
        if fact.is_true() || self.contains(&fact) {
            return;
        }
        if let symex_expr::Op::And = fact.op() {
            for part in fact.args().to_vec() {
                self.assume(part);
            }
            return;
        }
        let mut vars = variables(&fact);
        if vars.is_empty() {
            vars.push(GROUND);
        }
        let node = Arc::new(Fact {
            term: fact,
            index: self.len() as u32,
            vars: vars.into(),
            prev: self.last.take(),
        });
        self.last = Some(node);
        if self.len() - self.indexed >= UNINDEXED {
            self.index_all();
        }
    }

    /// Puts the facts that wait outside the indexes into them, oldest first (each variable's
    /// list stays newest first).
    fn index_all(&mut self) {
        let mut waiting: Vec<Arc<Fact>> = Vec::new();
        let mut next = self.last.clone();
        while let Some(f) = next.filter(|f| f.index as usize >= self.indexed) {
            next = f.prev.clone();
            waiting.push(f);
        }
        for f in waiting.into_iter().rev() {
            self.set.insert(f.term.id());
            for x in f.vars.iter() {
                let occurrence = Occurrence {
                    fact: f.clone(),
                    next: self.by_var.get(x).cloned(),
                };
                self.by_var.insert(*x, Arc::new(occurrence));
            }
        }
        self.indexed = self.len();
    }

    /// The facts not yet in the indexes, newest first.
    fn waiting(&self) -> impl Iterator<Item = &Fact> {
        let indexed = self.indexed;
        self.newest_first()
            .take_while(move |f| f.index as usize >= indexed)
    }

    pub fn contains(&self, fact: &Term) -> bool {
        self.set.contains(&fact.id()) || self.waiting().any(|f| f.term == *fact)
    }

    /// The facts from the newest back.
    fn newest_first(&self) -> impl Iterator<Item = &Fact> {
        std::iter::successors(self.last.as_deref(), |f| f.prev.as_deref())
    }

    /// The facts, in the order they were assumed.
    pub fn facts(&self) -> Vec<Term> {
        self.since(0)
    }

    /// The facts that share a variable with `goal`, directly or through other such facts (and
    /// those without variables), in order. When the path condition is satisfiable, it entails
    /// `goal` exactly when these facts do.
    pub fn slice(&self, goal: &Term) -> Vec<Term> {
        let mut queue = variables(goal);
        queue.push(GROUND);
        let mut seen = std::collections::HashSet::new();
        let mut taken = std::collections::BTreeMap::new();
        while let Some(x) = queue.pop() {
            if !seen.insert(x) {
                continue;
            }
            let indexed =
                std::iter::successors(self.by_var.get(&x).map(|o| &**o), |o| o.next.as_deref())
                    .map(|o| &*o.fact);
            let waiting = self.waiting().filter(|f| f.vars.contains(&x));
            for f in indexed.chain(waiting) {
                if let std::collections::btree_map::Entry::Vacant(e) = taken.entry(f.index) {
                    e.insert(f.term.clone());
                    queue.extend(f.vars.iter().copied());
                }
            }
        }
        taken.into_values().collect()
    }

    pub fn len(&self) -> usize {
        self.last.as_ref().map_or(0, |f| f.index as usize + 1)
    }

    pub fn is_empty(&self) -> bool {
        self.last.is_none()
    }

    /// The facts added after the first `from`.
    pub fn since(&self, from: usize) -> Vec<Term> {
        let mut out: Vec<Term> = self
            .newest_first()
            .take_while(|f| f.index as usize >= from)
            .map(|f| f.term.clone())
            .collect();
        out.reverse();
        out
    }
}

#[derive(Clone, Debug, Default)]
pub struct State {
    pub heap: Heap,
    pub old: Heap,
    pub store: Map<Arc<str>, Term>,
    pub pc: PathCondition,
    /// Set by `return`: the remaining statements of the body are skipped.
    pub returned: bool,
    /// Objects allocated on this path: each has a distinct `oid` in the path condition, so
    /// that no pairwise disequality among them needs stating (that would be quadratic).
    /// By term id (see [`Heap`]).
    pub allocated: Set<u64>,
    /// References that entered the state (the store, a produced chunk) since the last
    /// allocation and are not allocated objects: the next `new` states once for each that it
    /// was allocated before (`t = null ∨ oid(t) < k`), so that a fresh object is known to
    /// differ from every reference of the state with one fact per reference.
    pub undated: im::Vector<Term>,
}

impl State {
    pub fn var(&self, name: &str) -> Option<&Term> {
        self.store.get(name)
    }

    pub fn set_var(&mut self, name: &str, t: Term) {
        self.note_reference(&t);
        self.store.insert(Arc::from(name), t);
    }

    /// Remembers `t` for the next allocation if it is a reference not allocated on this path.
    pub fn note_reference(&mut self, t: &Term) {
        if t.sort() == super::terms::ref_sort()
            && *t != super::terms::null()
            && !self.allocated.contains(&t.id())
        {
            self.undated.push_back(t.clone());
        }
    }

    /// The same state with the old heap in place of the heap: `old(σ)` of §3.4.
    pub fn old_state(&self) -> State {
        State {
            heap: self.old.clone(),
            ..self.clone()
        }
    }
}

impl fmt::Display for Chunk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::pretty::chunk_with(self, &super::pretty::term))
    }
}

/// The paper's Figure 9 notation: `(H, G, Γ, Σ)`, one component per line.
impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use super::pretty::term as p;
        let heap = |h: &Heap| {
            h.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        writeln!(f, "  H = {{{}}}", heap(&self.heap))?;
        writeln!(f, "  G = {{{}}}", heap(&self.old))?;
        let mut vars: Vec<_> = self
            .store
            .iter()
            .map(|(k, v)| format!("{k} ↦ {}", p(v)))
            .collect();
        vars.sort();
        writeln!(f, "  Γ = [{}]", vars.join(", "))?;
        let pc: Vec<String> = self.pc.facts().iter().map(p).collect();
        write!(f, "  Σ = {{{}}}", pc.join(", "))
    }
}
