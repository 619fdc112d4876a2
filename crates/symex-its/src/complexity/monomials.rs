//! Ranking over non-linear monomials of variables that no transition changes: ABC's `ex04`
//! runs its outer loop about `B³/2` times (`A` counts up to a temporary `E` with
//! `2·E ≤ B³`), and `B³ − 2·A` ranks it. Such a function is linear in the monomial `B³`: a
//! polynomial ranking function whose non-linear monomials are fixed in advance (Bradley,
//! Manna & Sipma, "The polyranking principle", ICALP 2005 / "Termination of polynomial
//! programs", VMCAI 2005, search over templates of monomials).
//!
//! Each such monomial `m` of a guard, update or cost becomes a fresh program variable `M`
//! that every transition keeps (`M' = M`). A run of the ITS is a run of the lifted ITS from
//! `M = m(x̄)`, since the variables of `m` never change; so a bound of the lifted ITS — in
//! the absolute start values, valid for every start value of `M` — bounds the ITS once
//! `|M|` is replaced by `|m|(|x̄|) = Π|x_v|^e`. The linear machinery (Farkas' lemma, sizes)
//! then sees `M` as a constant of the run.

use super::Complexity;
use crate::bound::Bound;
use crate::its::{Atom, Its, Transition};
use crate::poly::{Monomial, Poly};

/// The ITS with its monomials as variables `arity..arity + monomials.len()`.
pub(super) struct Lifted {
    pub(super) its: Its,
    arity: usize,
    monomials: Vec<Monomial>,
}

/// Whether every target of every transition keeps `v` (`v' = v`).
fn unchanged(its: &Its, v: usize) -> bool {
    its.transitions
        .iter()
        .all(|t| t.targets.iter().all(|(_, u)| u[v] == Poly::var(v)))
}

/// `Π var(rename(v))^e`.
fn monomial_poly(m: &Monomial, rename: &dyn Fn(usize) -> usize) -> Poly {
    m.iter().fold(Poly::constant(1), |p, &(v, e)| {
        p.mul(&Poly::var(rename(v)).pow(e))
    })
}

/// The ITS with each non-linear monomial over unchanged program variables as a kept
/// variable; `None` when there is none.
pub(super) fn lift(its: &Its) -> Option<Lifted> {
    let n = its.arity();
    let kept: Vec<bool> = (0..n).map(|v| unchanged(its, v)).collect();
    let mut monomials: Vec<Monomial> = Vec::new();
    for t in &its.transitions {
        let polys = t
            .guard
            .iter()
            .map(|a| &a.poly)
            .chain(t.targets.iter().flat_map(|(_, u)| u.iter()))
            .chain(std::iter::once(&t.cost));
        for p in polys {
            for (m, _) in p.terms() {
                let degree: u32 = m.iter().map(|&(_, e)| e).sum();
                if degree >= 2 && m.iter().all(|&(v, _)| v < n && kept[v]) && !monomials.contains(m)
                {
                    monomials.push(m.clone());
                }
            }
        }
    }
    if monomials.is_empty() {
        return None;
    }
    let k = monomials.len();
    // Temporaries move up past the new variables.
    let shift = |v: usize| if v < n { v } else { v + k };
    let rewrite = |p: &Poly| -> Poly {
        p.terms().fold(Poly::default(), |acc, (m, c)| {
            let term = match monomials.iter().position(|x| x == m) {
                Some(i) => Poly::var(n + i),
                None => monomial_poly(m, &shift),
            };
            acc.add(&term.scale(c))
        })
    };
    let transitions = its
        .transitions
        .iter()
        .map(|t| Transition {
            source: t.source,
            targets: t
                .targets
                .iter()
                .map(|(l, u)| {
                    let mut u: Vec<Poly> = u.iter().map(&rewrite).collect();
                    u.extend((n..n + k).map(Poly::var));
                    (*l, u)
                })
                .collect(),
            guard: t
                .guard
                .iter()
                .map(|a| Atom {
                    poly: rewrite(&a.poly),
                    rel: a.rel,
                })
                .collect(),
            cost: rewrite(&t.cost),
            temps: t.temps.clone(),
            com: t.com,
        })
        .collect();
    let mut vars = its.vars.clone();
    for m in &monomials {
        let mut name: String = m
            .iter()
            .map(|&(v, e)| {
                format!(
                    "{}{}",
                    its.vars[v],
                    if e > 1 { e.to_string() } else { String::new() }
                )
            })
            .collect::<Vec<_>>()
            .join("_");
        name.insert_str(0, "M_");
        while vars.contains(&name) {
            name.push('_');
        }
        vars.push(name);
    }
    Some(Lifted {
        its: Its {
            vars,
            transitions,
            ..its.clone()
        },
        arity: n,
        monomials,
    })
}

impl Lifted {
    /// `b` with `|M|` replaced by `Π|x_v|^e`; `None` for an exponential bound over `M`.
    fn lower(&self, b: &Bound) -> Option<Bound> {
        match b {
            Bound::Poly(p) => Some(Bound::Poly(p.substitute(&|v| {
                if v < self.arity {
                    Poly::var(v)
                } else {
                    monomial_poly(&self.monomials[v - self.arity], &|w| w)
                }
            }))),
            b if b.vars().iter().all(|&v| v < self.arity) => Some(b.clone()),
            _ => None,
        }
    }

    /// A complexity of the lifted ITS as one of the original: its bounds over the original
    /// start values (the proof still names the monomials' variables).
    pub(super) fn lower_complexity(&self, c: Complexity) -> Option<Complexity> {
        Some(Complexity {
            bound: self.lower(&c.bound)?,
            transition_bounds: c
                .transition_bounds
                .iter()
                .map(|b| self.lower(b))
                .collect::<Option<_>>()?,
            ..c
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn its(rules: &str) -> Its {
        crate::parse_koat(rules).expect("parses")
    }

    /// `B³` becomes a kept variable in guards; `A`, which changes, is never part of one; a
    /// bound over it comes back as `|B|³`.
    #[test]
    fn monomials_of_unchanged_variables_become_kept_variables() {
        let its = its(
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS f))\n(VAR A B C)\n(RULES\n\
             f(A,B) -> Com_1(g(0,B))\n\
             g(A,B) -> Com_1(g(A + 1,B)) :|: B*B*B >= 2*A + 2 && A*A >= 0\n)\n",
        );
        let l = lift(&its).expect("B^3 is lifted");
        assert_eq!(l.monomials, vec![vec![(1, 3)]]);
        assert_eq!(l.its.vars, vec!["A", "B", "M_B3"]);
        let g = &l.its.transitions[1];
        assert_eq!(
            g.guard[0].poly,
            Poly::var(2)
                .sub(&Poly::var(0).scale(2))
                .add(&Poly::constant(-2))
        );
        assert_eq!(g.update()[2], Poly::var(2));
        let b = l
            .lower(&Bound::Poly(Poly::var(2).add(&Poly::constant(1))))
            .unwrap();
        assert_eq!(b, Bound::Poly(Poly::var(1).pow(3).add(&Poly::constant(1))));
    }
}
