//! Phases of a non-increasing variable. When no transition of an SCC increases `v`
//! (`v' = v + c`, `c ≤ 0`) and `v` drives another variable's update (`A' = A − C`), the
//! runs of the SCC go through at most two phases, `v ≥ 0` and then `v ≤ −1`: each
//! location `l` of the SCC becomes `l` (`v ≥ 0`) and `l_neg` (`v ≤ −1`), and each
//! transition goes to the copy of the sign its update gives `v`. Every state is in exactly
//! one copy, so the runs are the same; the way back from `l_neg` to `l` is unsatisfiable,
//! so the phases are SCCs of their own, each with its own ranking functions (T2's
//! `polyrank4`: while `C ≥ 0`, `A' = A − C` lowers `A`; after, it raises it).

use crate::graph;
use crate::its::{Atom, Its, Transition};
use crate::poly::Poly;

/// The ITS with the locations of each SCC split by the sign of one non-increasing variable
/// that drives another one's update (see the module comment; the SCC of the start location
/// is left alone: its runs may start in either phase), or `None` when no SCC has one.
/// Unsatisfiable copies stay: the caller removes them.
pub fn split_monotone_phases(its: &Its) -> Option<Its> {
    if its.has_multi_targets() {
        return None;
    }
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    let mut out = its.clone();
    let mut split = false;
    for locs in graph::sccs(its, &all) {
        let inside = graph::inside(its, &all, &locs);
        if inside.is_empty() || locs.contains(&its.start) {
            continue;
        }
        let Some(v) = phase_variable(its, &inside) else {
            continue;
        };
        out = split_scc(&out, &locs, v);
        split = true;
    }
    split.then_some(out)
}

/// A variable that no transition of `inside` increases, some lowers, and some other
/// variable's update there mentions.
fn phase_variable(its: &Its, inside: &[usize]) -> Option<usize> {
    (0..its.arity()).find(|&v| {
        let change = |i: usize| {
            its.transitions[i].update()[v]
                .sub(&Poly::var(v))
                .as_constant()
        };
        let changes: Option<Vec<i128>> = inside.iter().map(|&i| change(i)).collect();
        let Some(changes) = changes else {
            return false;
        };
        let drives = inside.iter().any(|&i| {
            let u = its.transitions[i].update();
            (0..its.arity()).any(|w| w != v && u[w].vars().contains(&v))
        });
        changes.iter().all(|&c| c <= 0) && changes.iter().any(|&c| c < 0) && drives
    })
}

/// `its` with each location `l ∈ locs` split into `l` (`v ≥ 0`) and a new `l_neg`
/// (`v ≤ −1`); transitions renumbered in order, each copy with its sign atoms.
fn split_scc(its: &Its, locs: &[usize], v: usize) -> Its {
    let mut out = its.clone();
    let neg: Vec<(usize, usize)> = locs
        .iter()
        .map(|&l| {
            out.locations.push(format!("{}_neg", its.locations[l]));
            (l, out.locations.len() - 1)
        })
        .collect();
    let neg_of = |l: usize| neg.iter().find(|(k, _)| *k == l).map(|(_, n)| *n);
    // `p ≥ 0` and `p ≤ −1`.
    let nonneg = |p: &Poly| Atom::ge0(p.clone());
    let negative = |p: &Poly| Atom::ge0(p.scale(-1).sub(&Poly::constant(1)));
    out.transitions.clear();
    for t in &its.transitions {
        let from_inside = locs.contains(&t.source);
        let to_inside = locs.contains(&t.target());
        if !from_inside && !to_inside {
            out.transitions.push(t.clone());
            continue;
        }
        let sources: Vec<(usize, Option<Atom>)> = if from_inside {
            vec![
                (t.source, Some(nonneg(&Poly::var(v)))),
                (neg_of(t.source).unwrap(), Some(negative(&Poly::var(v)))),
            ]
        } else {
            vec![(t.source, None)]
        };
        let after = &t.update()[v];
        let targets: Vec<(usize, Option<Atom>)> = if to_inside {
            vec![
                (t.target(), Some(nonneg(after))),
                (neg_of(t.target()).unwrap(), Some(negative(after))),
            ]
        } else {
            vec![(t.target(), None)]
        };
        for (source, s_atom) in &sources {
            for (target, t_atom) in &targets {
                let mut u: Transition = t.clone();
                u.source = *source;
                u.targets[0].0 = *target;
                u.guard.extend(s_atom.iter().cloned());
                u.guard.extend(t_atom.iter().cloned());
                out.transitions.push(u);
            }
        }
    }
    out
}
