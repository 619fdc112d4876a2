//! The path condition of a state, shared with the states forked from it: a fork copies one pointer, and
//! each constraint is held once, by the newest link that added it, however many states descend from it.
//! (A vector per state copied every constraint at each fork and grew by doubling: a tenth of the heap of
//! an exploration with a hundred thousand states waiting.)

use super::bounds::{bound, parts, BoundKey};
use std::rc::Rc;
use symex_expr::Term;

/// A conjunction of constraints in the order they were added, and the tightest bounds of terms.
#[derive(Clone, Default)]
pub struct PathCondition {
    newest: Option<Rc<Link>>,
    len: usize,
    /// The tightest lower and upper bound of each term compared with a constant, and its value
    /// (`bounds.rs`): a tighter bound replaces a looser one, which it implies, so a path that forks on
    /// `i < n` in every iteration holds one bound of `n`, not one per iteration. Kept out of the shared
    /// list, which cannot replace a link, and small (one entry per bounded term and order).
    bounds: Bounds,
}

/// The held bounds, sorted by key (term id, then order), shared copy-on-write with the states forked
/// from this one: a fork copies a pointer, and a state copies the entries (exactly as many as there
/// are, in one allocation with the counts) only when it tightens one. (A hash map per state cost a table
/// of at least four 48-byte buckets and its control bytes at every fork: tens of MiB with tens of
/// thousands of states waiting.)
#[derive(Clone, Default)]
struct Bounds(Option<Rc<[Held]>>);

/// A bound held: the constraint that states it. The bounded term, the order and the value are read
/// again from the constraint when needed ([`parts`]) rather than held: 8 bytes an entry instead of
/// the 32 a value, two flags and the constraint take, and every waiting state holds a few.
#[derive(Clone)]
struct Held {
    constraint: Term,
}

impl Held {
    /// The bound's parts; a held constraint is a bound by construction (see [`PathCondition::push`]).
    fn parts(&self) -> (&Term, bool, bool, u128) {
        parts(&self.constraint).expect("a held constraint states a bound")
    }

    /// Its value in the key's order.
    fn value(&self) -> u128 {
        self.parts().3
    }

    /// Where the entry sorts: by its key.
    fn order(&self) -> (u64, bool, bool) {
        let (term, signed, upper, _) = self.parts();
        (term.id(), signed, upper)
    }
}

impl Bounds {
    fn entries(&self) -> &[Held] {
        self.0.as_deref().unwrap_or(&[])
    }

    /// Where `key` is, or would be inserted.
    fn search(&self, key: &BoundKey) -> Result<usize, usize> {
        let wanted = (key.term.id(), key.signed, key.upper);
        self.entries().binary_search_by_key(&wanted, Held::order)
    }

    fn get(&self, key: &BoundKey) -> Option<&Held> {
        self.search(key).ok().map(|i| &self.entries()[i])
    }

    /// Holds `h`, replacing the entry of its key.
    fn set(&mut self, key: &BoundKey, h: Held) {
        let at = self.search(key);
        if let (Ok(i), Some(own)) = (at, self.0.as_mut().and_then(Rc::get_mut)) {
            own[i] = h;
            return;
        }
        // Shared with another state, or one entry more: a new slice of exactly the entries.
        let (i, replaced) = match at {
            Ok(i) => (i, 1),
            Err(i) => (i, 0),
        };
        let old = self.entries();
        let new: Rc<[Held]> = old[..i]
            .iter()
            .cloned()
            .chain(std::iter::once(h))
            .chain(old[i + replaced..].iter().cloned())
            .collect();
        self.0 = Some(new);
    }

    fn len(&self) -> usize {
        self.entries().len()
    }
}

struct Link {
    constraint: Term,
    older: Option<Rc<Link>>,
}

impl PathCondition {
    /// Conjoins `c`: a bound of a term replaces the looser one held, or is dropped when the one held is
    /// tighter; any other constraint is the newest of the list.
    pub fn push(&mut self, c: Term) {
        let Some(b) = bound(&c) else {
            return self.push_link(c);
        };
        if self
            .bounds
            .get(&b.key)
            .is_some_and(|h| !b.implies(h.value()))
        {
            return;
        }
        self.bounds.set(&b.key, Held { constraint: c });
    }

    /// The value of the bound held under `key`, if any.
    pub(super) fn bound_value(&self, key: &BoundKey) -> Option<u128> {
        self.bounds.get(key).map(Held::value)
    }

    fn push_link(&mut self, c: Term) {
        let older = self.newest.take();
        self.newest = Some(Rc::new(Link {
            constraint: c,
            older,
        }));
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len + self.bounds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The constraints of the list, newest first (the bounds are not among them).
    pub fn newest_first(&self) -> impl Iterator<Item = &Term> {
        std::iter::successors(self.newest.as_deref(), |l| l.older.as_deref()).map(|l| &l.constraint)
    }

    /// Every constraint, the list's newest first, then the bounds (in no particular order).
    pub(super) fn constraints(&self) -> impl Iterator<Item = &Term> {
        self.newest_first()
            .chain(self.bounds.entries().iter().map(|h| &h.constraint))
    }

    /// The constraints in the order they were added, then the bounds (ordered by term, so that the
    /// same path condition gives the same query), followed by `extra` (a query's last conjunct).
    pub fn to_vec_with(&self, extra: Option<&Term>) -> Vec<Term> {
        let mut v = Vec::with_capacity(self.len() + extra.is_some() as usize);
        v.extend(self.newest_first().cloned());
        v.reverse();
        let mut held: Vec<&Term> = self
            .bounds
            .entries()
            .iter()
            .map(|h| &h.constraint)
            .collect();
        held.sort_by_key(|c| c.id());
        v.extend(held.into_iter().cloned());
        v.extend(extra.cloned());
        v
    }
}

impl Drop for PathCondition {
    /// Frees the links no other state holds one by one: a long chain dropped recursively would take a
    /// stack frame per constraint.
    fn drop(&mut self) {
        let mut next = self.newest.take();
        while let Some(link) = next {
            match Rc::try_unwrap(link) {
                Ok(mut l) => next = l.older.take(),
                Err(_) => break,
            }
        }
    }
}

impl std::fmt::Debug for PathCondition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.to_vec_with(None)).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_expr::Term;

    fn var(i: u32) -> Term {
        Term::var(&format!("c{i}"), symex_expr::Sort::Bool)
    }

    #[test]
    fn forks_share_the_prefix_and_keep_their_own_order() {
        let mut a = PathCondition::default();
        a.push(var(0));
        a.push(var(1));
        let mut b = a.clone();
        a.push(var(2));
        b.push(var(3));
        assert_eq!(a.to_vec_with(None), vec![var(0), var(1), var(2)]);
        assert_eq!(
            b.to_vec_with(Some(&var(4))),
            vec![var(0), var(1), var(3), var(4)]
        );
        assert_eq!((a.len(), b.len()), (3, 3));
        drop(a);
        assert_eq!(b.to_vec_with(None), vec![var(0), var(1), var(3)]);
    }

    #[test]
    fn a_tighter_bound_replaces_the_looser_one() {
        let n = Term::var("n", symex_expr::Sort::bv(32));
        let above = |k: u128| Term::bv(k, 32).bvslt(&n);
        let mut p = PathCondition::default();
        p.push(var(0));
        for k in 0..1000 {
            p.push(above(k));
        }
        // n > 5 is implied by n > 999: dropped.
        p.push(above(5));
        assert_eq!(p.to_vec_with(None), vec![var(0), above(999)]);
        let below = n.bvult(&Term::bv(7, 32));
        p.push(below.clone());
        assert_eq!(p.len(), 3);
        assert!(p.to_vec_with(None).contains(&below));
    }

    #[test]
    fn a_fork_tightens_its_own_bounds_only() {
        let n = Term::var("n", symex_expr::Sort::bv(8));
        let m = Term::var("m", symex_expr::Sort::bv(8));
        let below = |t: &Term, k: u128| t.bvult(&Term::bv(k, 8));
        let mut a = PathCondition::default();
        a.push(below(&n, 100));
        let mut b = a.clone();
        b.push(below(&n, 50));
        b.push(below(&m, 7));
        a.push(below(&n, 200));
        assert_eq!(a.to_vec_with(None), vec![below(&n, 100)]);
        let mut want = vec![below(&n, 50), below(&m, 7)];
        want.sort_by_key(|c| c.id());
        assert_eq!(b.to_vec_with(None), want);
    }

    #[test]
    fn a_held_bound_is_8_bytes() {
        assert_eq!(std::mem::size_of::<Held>(), 8);
    }

    #[test]
    fn a_long_chain_is_dropped_without_recursion() {
        let mut p = PathCondition::default();
        for i in 0..1_000_000 {
            p.push(var(i % 7));
        }
        let q = p.clone();
        drop(p);
        assert_eq!(q.len(), 1_000_000);
        drop(q);
    }
}
