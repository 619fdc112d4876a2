//! Canonical query keys: the sorted, deduplicated ids of the constraints that are not `true`.
//! Hash-consing makes equal constraints equal ids, so equal sets are equal keys.

use symex_expr::Term;

/// A constraint set as sorted, distinct term ids.
pub(crate) type QueryKey = Vec<u64>;

pub(crate) fn query_key(constraints: &[Term]) -> QueryKey {
    let mut k: QueryKey = constraints
        .iter()
        .filter(|c| !c.is_true())
        .map(Term::id)
        .collect();
    k.sort_unstable();
    k.dedup();
    k
}

/// The constraints without `true`s and duplicates, in the order given.
pub(crate) fn normalized(constraints: &[Term]) -> Vec<Term> {
    let mut seen = rustc_hash::FxHashSet::default();
    constraints
        .iter()
        .filter(|c| !c.is_true() && seen.insert(c.id()))
        .cloned()
        .collect()
}
