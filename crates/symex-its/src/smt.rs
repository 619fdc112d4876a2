//! Guards and polynomials as `symex-expr` integer terms, and the solver questions the
//! provers ask (through `symex-solver`, i.e. Z3).

use crate::its::{Atom, Rel};
use crate::poly::Poly;
use std::time::Duration;
use symex_expr::{Sort, Term};
use symex_solver::{Solver, SolverConfig};

/// The term of `p`, with `var(v)` for variable `v`.
pub fn poly_term(p: &Poly, var: &dyn Fn(usize) -> Term) -> Term {
    let mut sum = Term::int(0);
    for (m, c) in p.terms() {
        let mut prod = Term::int(c);
        for (v, e) in m {
            for _ in 0..*e {
                prod = prod.imul(&var(*v));
            }
        }
        sum = sum.iadd(&prod);
    }
    sum
}

/// The term of an atom.
pub fn atom_term(a: &Atom, var: &dyn Fn(usize) -> Term) -> Term {
    let p = poly_term(&a.poly, var);
    let zero = Term::int(0);
    match a.rel {
        Rel::Ge => zero.ile(&p),
        Rel::Eq => p.eq(&zero),
        Rel::Ne => p.eq(&zero).not(),
    }
}

/// An integer variable named `prefix` + `v`.
pub fn int_var(prefix: &str, v: usize) -> Term {
    Term::var(&format!("{prefix}{v}"), Sort::Int)
}

/// A solver for the provers: Z3 with a per-call time limit, no caches (every query of a
/// proof is new).
pub fn solver(timeout: Duration) -> Box<dyn Solver> {
    SolverConfig::bare().timeout(Some(timeout)).build()
}
