//! Loops that cannot run `k` times in a row: when the guards of `k` consecutive steps are
//! unsatisfiable together (Z3), every entry starts at most `k − 1` iterations — a constant,
//! whatever the values. Lommen's twn06 runs the turning loop of twn18
//! (`B' = 3B − 4C, C' = 4B − 3C` while `B² > 1 ∧ A·(C + 2) > 0`) inside an outer loop that
//! feeds it `A = D` while the loop multiplies `D` by 5: a bound of the loop in `|A|`
//! ([`crate::linear_twn`]) then waits for the size of `D`, which waits for the loop. But the
//! signs of `C` flip every two steps, so four steps in a row are impossible (the guards of
//! steps 0–3 force `C, C' ∈ {−1, 0}`, hence `B ∈ {−1, 0}`): at most three per entry.

use crate::its::{Atom, Its};
use crate::poly::Poly;
use crate::smt;
use crate::twn::TwnLoop;
use std::collections::BTreeMap;
use symex_expr::Term;
use symex_solver::Solver;

/// Up to how many steps in a row are tried.
const MAX_STEPS: usize = 5;
/// Unrolled polynomials with more terms than this are not tried (non-linear updates grow
/// fast when composed).
const MAX_TERMS: usize = 400;

/// The self-loops `ts` at `location` (one update, no temporaries) as a loop of at most
/// `k − 1` iterations per entry for the least `k ≤ MAX_STEPS` whose `k` steps in a row
/// Z3 proves impossible; `None` otherwise.
pub fn analyse(
    its: &Its,
    location: usize,
    ts: &[usize],
    solver: &mut dyn Solver,
) -> Option<TwnLoop> {
    let loops: Vec<_> = ts.iter().map(|&i| &its.transitions[i]).collect();
    let first = loops.first()?;
    let update = first.update();
    if loops.iter().any(|t| {
        t.source != location
            || t.targets.len() != 1
            || t.target() != location
            || t.update() != update
            || !t.temps.is_empty()
    }) {
        return None;
    }
    let var = |w: usize| smt::int_var("v", w);
    let mut state: Vec<Poly> = (0..its.arity()).map(Poly::var).collect();
    let mut steps: Vec<Term> = Vec::new();
    for k in 1..=MAX_STEPS {
        // Step k − 1 from the values `state` after k − 1 steps: one of the guards holds.
        let mut some_guard = Vec::new();
        for t in &loops {
            let mut atoms = Vec::new();
            for a in &t.guard {
                let poly = substitute(&a.poly, &state)?;
                atoms.push(smt::atom_term(&Atom { poly, rel: a.rel }, &var));
            }
            some_guard.push(Term::and_all(&atoms));
        }
        steps.push(Term::or_all(&some_guard));
        if k >= 2 && matches!(solver.must_be_true(&steps, &Term::ff()), Ok(true)) {
            return Some(TwnLoop {
                location,
                transitions: ts.to_vec(),
                factors: BTreeMap::new(),
                bound: Poly::constant(k as i128 - 1),
                change: Vec::new(),
                unrolled: false,
            });
        }
        state = update
            .iter()
            .map(|p| substitute(p, &state))
            .collect::<Option<_>>()?;
    }
    None
}

/// `p` at the values `state` (overflow or too many terms: `None`).
fn substitute(p: &Poly, state: &[Poly]) -> Option<Poly> {
    let mut out = Poly::default();
    for (m, c) in p.terms() {
        let mut prod = Poly::constant(c);
        for &(v, e) in m {
            for _ in 0..e {
                prod = prod.checked_mul(state.get(v)?)?;
                if prod.terms().count() > MAX_TERMS {
                    return None;
                }
            }
        }
        out = out.checked_add(&prod)?;
    }
    (out.terms().count() <= MAX_TERMS).then_some(out)
}
