//! Refinement of a load at a symbolic offset on a cell it may or may not read: the cases
//! "the load reads that cell" (`off = c`), "below it" (`off + size ≤ c`) and "above it"
//! (`off ≥ c + size`). Without it a load that may or may not hit the cell reads any value:
//! `A[n-1] = 0; for (i = 0; A[i] != 0; i++);` then knows nothing of `A[i]`, `i` is
//! unbounded at the head and `A[i]` may be out of bounds. With it the case `i = n − 1` reads
//! 0 and leaves, and the case `i < n − 1` keeps `i ≤ n − 1` at the head.
//!
//! The three cases cover every offset only when a partial overlap (`c − size < off < c`,
//! `c < off < c + size`) is infeasible, e.g. for `off = 4·i` and `c = 4·k`; otherwise no
//! split is made (each case must decide the cell, so the load does not split it again).

use super::{Exec, R};
use crate::state::{eq, ge, State, Target};
use symex_its::{Atom, Poly};

/// The cases of a load of `size` bytes at `off` in `target` (`None`: no cell to split on).
pub fn split(
    ex: &mut Exec,
    st: &State,
    target: Target,
    off: &Poly,
    size: u32,
) -> R<Option<Vec<State>>> {
    let Target::Alloc(a) = target else {
        return Ok(None);
    };
    if off.as_constant().is_some() {
        return Ok(None);
    }
    let n = Poly::constant(size as i128);
    let one = Poly::constant(1);
    for c in st
        .mem
        .cells
        .iter()
        .filter(|c| c.alloc == a && c.size == size)
    {
        if c.off == *off {
            continue;
        }
        let hit = vec![eq(off, &c.off)];
        let below = vec![ge(&c.off, &off.add(&n))];
        let above = vec![ge(off, &c.off.add(&n))];
        let partial = [
            vec![
                ge(off, &c.off.sub(&n).add(&one)),
                ge(&c.off, &off.add(&one)),
            ],
            vec![
                ge(off, &c.off.add(&one)),
                ge(&c.off.add(&n), &off.add(&one)),
            ],
        ];
        let feasible: Vec<bool> = [&hit, &below, &above]
            .iter()
            .map(|case| ex.kb.feasible(&st.kb, case))
            .collect();
        // The load may hit the cell partly: no split.
        let count = feasible.iter().filter(|f| **f).count();
        if count == 0 || partial.iter().any(|p| ex.kb.feasible(&st.kb, p)) {
            continue;
        }
        // Decided: the case's atoms are entailed; they are still added (once), so that the
        // KB says why the cell is missed — the ladder widening at loop heads re-checks
        // bounds without the head's own bounds, and `4i + 4 ≤ 400` is what keeps `i ≤ 100`.
        if count == 1 {
            let case = [&hit, &below, &above][feasible.iter().position(|f| *f).expect("one")];
            if case.iter().all(|a| st.kb.contains(a)) {
                continue;
            }
            let mut s = st.clone();
            s.kb.extend(case.iter().cloned());
            return Ok(Some(vec![s]));
        }
        let cases: Vec<(Vec<Atom>, ())> = [hit, below, above]
            .into_iter()
            .zip(feasible)
            .filter(|(_, f)| *f)
            .map(|(c, _)| (c, ()))
            .collect();
        return Ok(Some(
            ex.split(st.clone(), cases)
                .into_iter()
                .map(|s| s.0)
                .collect(),
        ));
    }
    Ok(None)
}
