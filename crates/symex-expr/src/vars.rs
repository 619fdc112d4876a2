//! Free variables, uninterpreted functions used, and substitution.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::sort::Func;
use crate::term::{Op, Term};
use crate::visit;

impl Term {
    /// The variables occurring in the term, in creation order.
    pub fn free_vars(&self) -> Vec<Term> {
        free_vars(std::slice::from_ref(self))
    }

    /// Whether the term contains no variables and no function applications.
    pub fn is_ground(&self) -> bool {
        let mut ground = true;
        visit::postorder_filtered(
            std::slice::from_ref(self),
            &mut ground,
            |ground, _| *ground,
            |ground, t| {
                if matches!(t.op(), Op::Var(_) | Op::Apply(_)) {
                    *ground = false;
                }
            },
        );
        ground
    }

    /// The term with every occurrence of a key of `map` replaced by its value (which must
    /// have the same sort), rebuilt through the smart constructors.
    ///
    /// # Panics
    /// If a replacement changes a sort.
    pub fn substitute(&self, map: &FxHashMap<Term, Term>) -> Term {
        substitute_all(std::slice::from_ref(self), map)
            .pop()
            .expect("one result per input")
    }
}

/// The variables occurring in any of `terms`, in creation order.
pub fn free_vars(terms: &[Term]) -> Vec<Term> {
    let mut vars = Vec::new();
    visit::postorder(terms, |t| {
        if let Op::Var(_) = t.op() {
            vars.push(t.clone());
        }
    });
    vars.sort();
    vars
}

/// The uninterpreted functions applied in any of `terms`.
pub fn funcs_used(terms: &[Term]) -> Vec<Func> {
    let mut seen = FxHashSet::default();
    visit::postorder(terms, |t| {
        if let Op::Apply(f) = t.op() {
            seen.insert(*f);
        }
    });
    let mut v: Vec<Func> = seen.into_iter().collect();
    v.sort();
    v
}

/// [`Term::substitute`] over several terms, sharing the work.
pub fn substitute_all(terms: &[Term], map: &FxHashMap<Term, Term>) -> Vec<Term> {
    let mut done: FxHashMap<u64, Term> = FxHashMap::default();
    visit::postorder(terms, |t| {
        let new = match map.get(t) {
            Some(r) => {
                assert_eq!(r.sort(), t.sort(), "substitution changes a sort");
                r.clone()
            }
            None if t.args().is_empty() => t.clone(),
            None => {
                let args: Vec<Term> = t.args().iter().map(|a| done[&a.id()].clone()).collect();
                if args.iter().zip(t.args()).all(|(n, o)| n == o) {
                    t.clone()
                } else if let Op::ConstArray = t.op() {
                    Term::const_array(t.sort(), &args[0])
                } else {
                    Term::new(t.op().clone(), &args)
                }
            }
        };
        done.insert(t.id(), new);
    });
    terms.iter().map(|t| done[&t.id()].clone()).collect()
}
