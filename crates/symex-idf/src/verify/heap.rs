//! Finding chunks: the `matches` sets of Figures 5, 7 and 8. A chunk whose terms are
//! syntactically the ones sought matches at once (hash-consing makes that a pointer test);
//! only when none does is the solver asked, chunk by chunk, whether Σ entails the equalities.
use super::state::{Chunk, Heap};
use super::{State, Verifier};
use symex_expr::Term;

/// The first chunk of `heap` accepted by `shape` whose terms equal `want` (Σ ⊢ equality).
/// `shape` gives a chunk's terms to compare (receiver first), or `None` for chunks of
/// another kind. The syntactic pass allocates nothing: it runs on every field access.
fn find<'h>(
    v: &mut Verifier,
    state: &State,
    heap: &'h Heap,
    want: &[Term],
    shape: impl Fn(&'h Chunk) -> Option<(&'h Term, &'h [Term])>,
) -> Option<usize> {
    let same = |(recv, args): (&Term, &[Term])| recv == &want[0] && args == &want[1..];
    // From the newest chunk back: the chunk sought was most often produced just before.
    let n = heap.len();
    if let Some(i) = heap.iter().rev().position(|c| shape(c).is_some_and(same)) {
        return Some(n - 1 - i);
    }
    heap.iter().enumerate().find_map(|(i, c)| {
        let (recv, args) = shape(c)?;
        let eqs: Vec<Term> = std::iter::once(recv)
            .chain(args)
            .zip(want)
            .map(|(a, b)| a.eq(b))
            .collect();
        let all = Term::and_all(eqs.iter());
        (!all.is_false() && v.proves_sliced(state, &all)).then_some(i)
    })
}

pub fn find_field(
    v: &mut Verifier,
    state: &State,
    heap: &Heap,
    recv: &Term,
    field: &str,
) -> Option<usize> {
    // No chunk of the field at all (a predicate must be opened first): known without a scan.
    if !heap.has_field(field) {
        return None;
    }
    find(v, state, heap, std::slice::from_ref(recv), |c| match c {
        Chunk::Field { recv, field: f, .. } if &**f == field => Some((recv, &[][..])),
        _ => None,
    })
}

pub fn find_elems(
    v: &mut Verifier,
    state: &State,
    heap: &Heap,
    recv: &Term,
    elem: crate::ir::Sort,
) -> Option<usize> {
    let sort = super::terms::elems_value_sort(elem);
    find(v, state, heap, std::slice::from_ref(recv), |c| match c {
        Chunk::Elems { recv, value } if value.sort() == sort => Some((recv, &[][..])),
        _ => None,
    })
}

/// A chunk of predicate `pred` (`Class.name`) for receiver and arguments `targs`
/// (receiver first).
pub fn find_pred(
    v: &mut Verifier,
    state: &State,
    heap: &Heap,
    pred: &str,
    targs: &[Term],
) -> Option<usize> {
    find(v, state, heap, targs, |c| match c {
        Chunk::Pred {
            recv,
            pred: p,
            args,
            ..
        } if &**p == pred => Some((recv, args.as_slice())),
        _ => None,
    })
}

/// The predicate chunks whose receiver is `recv` (syntactically first, then by the solver):
/// the candidates for opening when a field of `recv` is missing (§4.1).
pub fn preds_of(v: &mut Verifier, state: &State, heap: &Heap, recv: &Term) -> Vec<usize> {
    let is_pred = |c: &Chunk| matches!(c, Chunk::Pred { .. });
    let expected = heap.preds_with_receiver(recv);
    if expected > 0 {
        // From the newest chunk back, stopping once the index says all are found.
        let mut same = Vec::new();
        for (i, c) in heap.iter().enumerate().rev() {
            if is_pred(c) && c.recv() == recv {
                same.push(i);
                if same.len() == expected {
                    break;
                }
            }
        }
        same.sort_unstable();
        return same;
    }
    let others: Vec<(usize, Term)> = heap
        .iter()
        .enumerate()
        .filter(|(_, c)| is_pred(c))
        .map(|(i, c)| (i, c.recv().clone()))
        .collect();
    others
        .into_iter()
        .filter(|(_, r)| v.proves_sliced(state, &r.eq(recv)))
        .map(|(i, _)| i)
        .collect()
}
