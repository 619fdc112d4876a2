//! The path condition of a state, shared with the states forked from it: a fork copies one pointer, and
//! each constraint is held once, by the newest link that added it, however many states descend from it.
//! (A vector per state copied every constraint at each fork and grew by doubling: a tenth of the heap of
//! an exploration with a hundred thousand states waiting.)

use std::rc::Rc;
use symex_expr::Term;

/// A conjunction of constraints in the order they were added.
#[derive(Clone, Default)]
pub struct PathCondition {
    newest: Option<Rc<Link>>,
    len: usize,
}

struct Link {
    constraint: Term,
    older: Option<Rc<Link>>,
}

impl PathCondition {
    /// Adds `c` as the newest constraint.
    pub fn push(&mut self, c: Term) {
        let older = self.newest.take();
        self.newest = Some(Rc::new(Link {
            constraint: c,
            older,
        }));
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The constraints, newest first.
    pub fn newest_first(&self) -> impl Iterator<Item = &Term> {
        std::iter::successors(self.newest.as_deref(), |l| l.older.as_deref()).map(|l| &l.constraint)
    }

    /// The constraints in the order they were added, followed by `extra` (a query's last conjunct).
    pub fn to_vec_with(&self, extra: Option<&Term>) -> Vec<Term> {
        let mut v = Vec::with_capacity(self.len + extra.is_some() as usize);
        v.extend(self.newest_first().cloned());
        v.reverse();
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
