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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heap {
    chunks: im::Vector<Arc<Chunk>>,
    /// Field → receiver id → how many chunks.
    receivers: Map<Arc<str>, Map<u64, usize>>,
    /// The same for receivers that are not objects allocated on the path, with the receiver:
    /// only they need explicit disequalities (allocated objects differ by their allocation
    /// numbers).
    unallocated: Map<Arc<str>, Map<u64, (Term, usize)>>,
    /// Receiver id → how many predicate chunks.
    pred_receivers: Map<u64, usize>,
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

impl Heap {
    /// Adds a chunk; `allocated` tells whether its receiver is an object allocated on the path.
    pub fn add(&mut self, c: Chunk, allocated: bool) {
        if let Chunk::Pred { recv, .. } = &c {
            *self.pred_receivers.entry(recv.id()).or_insert(0) += 1;
        }
        if let Some(f) = family(&c) {
            count(&mut self.receivers, &f, c.recv(), 1);
            if !allocated {
                count_unallocated(&mut self.unallocated, &f, c.recv(), 1);
            }
        }
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
        let c = Arc::try_unwrap(c).unwrap_or_else(|shared| (*shared).clone());
        if let Chunk::Pred { recv, .. } = &c {
            match self.pred_receivers.get(&recv.id()).copied() {
                Some(n) if n > 1 => {
                    self.pred_receivers.insert(recv.id(), n - 1);
                }
                _ => {
                    self.pred_receivers.remove(&recv.id());
                }
            }
        }
        if let Some(f) = family(&c) {
            count(&mut self.receivers, &f, c.recv(), -1);
            if self
                .unallocated
                .get(&f)
                .is_some_and(|m| m.contains_key(&c.recv().id()))
            {
                count_unallocated(&mut self.unallocated, &f, c.recv(), -1);
            }
        }
        c
    }

    /// Whether a chunk of the same family as `c` has `c`'s receiver (syntactically).
    pub fn has_receiver_like(&self, c: &Chunk) -> bool {
        family(c).is_some_and(|f| {
            self.receivers
                .get(&f)
                .is_some_and(|m| m.contains_key(&c.recv().id()))
        })
    }

    /// The receivers of chunks of `c`'s family; only the unallocated ones if `unallocated_only`.
    /// All of them are wanted only for a receiver not allocated on the path (a parameter's
    /// chunk, produced from a contract): those are found by a scan of the heap.
    pub fn receivers_like(&self, c: &Chunk, unallocated_only: bool) -> Vec<Term> {
        let Some(f) = family(c) else {
            return Vec::new();
        };
        if unallocated_only {
            return self
                .unallocated
                .get(&f)
                .map(|m| m.values().map(|(t, _)| t.clone()).collect())
                .unwrap_or_default();
        }
        let mut seen = std::collections::HashSet::new();
        self.iter()
            .filter(|d| family(d).as_ref() == Some(&f) && seen.insert(d.recv().id()))
            .map(|d| d.recv().clone())
            .collect()
    }

    /// Whether some chunk of `field` is in the heap.
    pub fn has_field(&self, field: &str) -> bool {
        self.receivers.get(field).is_some_and(|m| !m.is_empty())
    }

    /// How many predicate chunks have receiver `recv` (syntactically).
    pub fn preds_with_receiver(&self, recv: &Term) -> usize {
        self.pred_receivers.get(&recv.id()).copied().unwrap_or(0)
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
    symex_expr::visit::postorder(std::slice::from_ref(t), |x| {
        if let symex_expr::Op::Var(name) = x.op() {
            if &**name != "null" && &**name != "unit" {
                out.push(x.id());
            }
        }
    });
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
