//! Interval invariants: per location and program variable, bounds that hold in every
//! reachable state, by abstract interpretation over intervals (guards with one variable
//! refine, updates are evaluated in interval arithmetic, widening after a few rounds,
//! then two narrowing rounds). Before they are used, Z3 checks them inductive
//! (`inv(l) ∧ guard ⇒ inv(l')(ū)` for every transition, and nothing is assumed at the
//! start location); if any check fails, no invariant is added. Each invariant is then
//! added to the guards of the transitions leaving its location: the runs stay the same.

use crate::its::{Atom, Its, Rel, Transition};
use crate::poly::Poly;
use crate::smt;
use std::time::Duration;
use symex_expr::Term;

/// An interval; `None` bounds are infinite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Interval {
    lo: Option<i128>,
    hi: Option<i128>,
}

const TOP: Interval = Interval { lo: None, hi: None };

impl Interval {
    fn point(c: i128) -> Interval {
        Interval {
            lo: Some(c),
            hi: Some(c),
        }
    }

    fn join(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.zip(o.lo).map(|(a, b)| a.min(b)),
            hi: self.hi.zip(o.hi).map(|(a, b)| a.max(b)),
        }
    }

    fn meet_lo(&mut self, lo: i128) {
        self.lo = Some(self.lo.map_or(lo, |l| l.max(lo)));
    }

    fn meet_hi(&mut self, hi: i128) {
        self.hi = Some(self.hi.map_or(hi, |h| h.min(hi)));
    }

    fn is_empty(&self) -> bool {
        matches!((self.lo, self.hi), (Some(l), Some(h)) if l > h)
    }

    fn add(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.zip(o.lo).and_then(|(a, b)| a.checked_add(b)),
            hi: self.hi.zip(o.hi).and_then(|(a, b)| a.checked_add(b)),
        }
    }

    fn scale(self, c: i128) -> Interval {
        let m = |x: Option<i128>| x.and_then(|x| x.checked_mul(c));
        match c.cmp(&0) {
            std::cmp::Ordering::Equal => Interval::point(0),
            std::cmp::Ordering::Greater => Interval {
                lo: m(self.lo),
                hi: m(self.hi),
            },
            std::cmp::Ordering::Less => Interval {
                lo: m(self.hi),
                hi: m(self.lo),
            },
        }
    }
}

/// The interval of a polynomial (linear parts exactly, any non-linear monomial: top).
fn eval(p: &Poly, env: &[Interval]) -> Interval {
    let mut sum = Interval::point(0);
    for (m, c) in p.terms() {
        let term = match m.as_slice() {
            [] => Interval::point(c),
            [(v, 1)] => env[*v].scale(c),
            _ => TOP,
        };
        sum = sum.add(term);
    }
    sum
}

/// Refines `env` (program variables and temporaries) by the guard's linear atoms; `None`
/// when an interval becomes empty. Each atom `c·v + r ≥ 0` bounds each of its variables `v`
/// by the interval of the rest `r` (interval constraint propagation): `C + H ≥ 1` with
/// `H = 0` gives `C ≥ 1` (T2's `eric2`, where `C' = C + H − 1` stays non-negative only so).
fn refine(t: &Transition, env: &mut [Interval]) -> Option<()> {
    for _ in 0..2 {
        for a in &t.guard {
            if a.rel == Rel::Ne || !a.poly.is_linear() {
                continue;
            }
            for v in a.poly.vars() {
                narrow(a, v, env)?;
            }
        }
    }
    Some(())
}

/// Narrows `env[v]` by the linear atom `a` (`c·v + r ≥ 0`, or `= 0`), given the interval of
/// the rest `r`; `None` when it becomes empty.
fn narrow(a: &Atom, v: usize, env: &mut [Interval]) -> Option<()> {
    let c = a.poly.linear_coeff(v);
    let rest = eval(&a.poly.sub(&Poly::var(v).scale(c)), env);
    // c·v ≥ −hi(r), and for an equation also c·v ≤ −lo(r).
    let at_least = rest.hi.and_then(|h| h.checked_neg());
    let at_most = match a.rel {
        Rel::Eq => rest.lo.and_then(|l| l.checked_neg()),
        _ => None,
    };
    for (bound, lower) in [(at_least, true), (at_most, false)] {
        // c·v ≥ b (lower) or c·v ≤ b, as v ≥ b'/m or v ≤ b'/m with m = |c| (rounded inwards).
        let Some(b) = bound else { continue };
        let (b, lower) = match (c > 0, b.checked_neg()) {
            (true, _) => (b, lower),
            (false, Some(nb)) => (nb, !lower),
            (false, None) => continue,
        };
        let (m, q) = (c.abs(), b.div_euclid(c.abs()));
        if lower {
            env[v].meet_lo(q + i128::from(b.rem_euclid(m) != 0));
        } else {
            env[v].meet_hi(q);
        }
    }
    (!env[v].is_empty()).then_some(())
}

fn post(its: &Its, t: &Transition, pre: &[Interval]) -> Option<Vec<Interval>> {
    let mut env = pre.to_vec();
    env.resize(its.arity() + t.temps.len(), TOP);
    refine(t, &mut env)?;
    Some(t.update().iter().map(|u| eval(u, &env)).collect())
}

fn analyse(its: &Its) -> Vec<Option<Vec<Interval>>> {
    let n = its.arity();
    let mut inv: Vec<Option<Vec<Interval>>> = vec![None; its.locations.len()];
    inv[its.start] = Some(vec![TOP; n]);
    let step = |inv: &Vec<Option<Vec<Interval>>>| {
        let mut next: Vec<Option<Vec<Interval>>> = vec![None; its.locations.len()];
        next[its.start] = Some(vec![TOP; n]);
        for t in &its.transitions {
            let Some(pre) = &inv[t.source] else { continue };
            let Some(out) = post(its, t, pre) else {
                continue;
            };
            let slot = &mut next[t.target()];
            *slot = Some(match slot.take() {
                None => out,
                Some(old) => old.iter().zip(&out).map(|(a, b)| a.join(*b)).collect(),
            });
        }
        next
    };
    // Ascending with widening: a bound that moves after three rounds becomes infinite.
    // Each round passes the values one transition further, and a loop's exit may open
    // only once its counter has grown for a round or two: a chain of loops needs a few
    // rounds per loop (T2's loop3: 120 loops one after the other; past the 32nd, 60 rounds
    // left them without invariants and ranking functions). The fixed point usually comes
    // first: widening lets each bound move only a few times.
    for round in 0..60 + 4 * its.locations.len() {
        let next = step(&inv);
        let mut joined = inv.clone();
        for l in 0..its.locations.len() {
            joined[l] = match (&inv[l], &next[l]) {
                (None, x) | (x, None) => x.clone(),
                (Some(a), Some(b)) => Some(
                    a.iter()
                        .zip(b)
                        .map(|(x, y)| {
                            let j = x.join(*y);
                            if round < 3 {
                                j
                            } else {
                                Interval {
                                    lo: if j.lo == x.lo { x.lo } else { None },
                                    hi: if j.hi == x.hi { x.hi } else { None },
                                }
                            }
                        })
                        .collect(),
                ),
            };
        }
        if joined == inv {
            break;
        }
        inv = joined;
    }
    // Narrowing: the post of a post-fixed point is still one, and tighter.
    for _ in 0..2 {
        inv = step(&inv);
    }
    inv
}

fn atoms(iv: &[Interval]) -> Vec<Atom> {
    let mut out = Vec::new();
    for (v, i) in iv.iter().enumerate() {
        if let Some(lo) = i.lo {
            out.push(Atom::ge0(Poly::var(v).sub(&Poly::constant(lo))));
        }
        if let Some(hi) = i.hi {
            out.push(Atom::ge0(Poly::constant(hi).sub(&Poly::var(v))));
        }
    }
    out
}

/// Whether the invariants are inductive, checked by Z3.
pub(super) fn inductive(its: &Its, inv: &[Vec<Atom>], timeout: Duration) -> bool {
    let mut solver = smt::solver(timeout);
    if !inv[its.start].is_empty() {
        return false;
    }
    for t in &its.transitions {
        let var = |v: usize| smt::int_var("v", v);
        let mut pc: Vec<Term> = t.guard.iter().map(|a| smt::atom_term(a, &var)).collect();
        pc.extend(inv[t.source].iter().map(|a| smt::atom_term(a, &var)));
        let next: Vec<Term> = t.update().iter().map(|u| smt::poly_term(u, &var)).collect();
        let post = |v: usize| next[v].clone();
        let goal: Vec<Term> = inv[t.target()]
            .iter()
            .map(|a| smt::atom_term(a, &post))
            .collect();
        if goal.is_empty() {
            continue;
        }
        if !matches!(solver.must_be_true(&pc, &Term::and_all(&goal)), Ok(true)) {
            return false;
        }
    }
    true
}

/// The (unchecked) interval bounds of the analysis per location, as atoms: candidates
/// for [`super::linear_invariants`].
pub(super) fn interval_candidates(its: &Its) -> Vec<Vec<Atom>> {
    analyse(its)
        .iter()
        .map(|iv| iv.as_ref().map(|iv| atoms(iv)).unwrap_or_default())
        .collect()
}

/// Checked interval invariants per location (as guard atoms over the program
/// variables), or `None` when there are none or they cannot be checked.
pub fn interval_invariants(its: &Its, timeout: Duration) -> Option<Vec<Vec<Atom>>> {
    if its.has_multi_targets() {
        return None;
    }
    let inv: Vec<Vec<Atom>> = analyse(its)
        .iter()
        .map(|iv| iv.as_ref().map(|iv| atoms(iv)).unwrap_or_default())
        .collect();
    if inv.iter().all(|a| a.is_empty()) || !inductive(its, &inv, timeout) {
        return None;
    }
    Some(inv)
}

/// Adds checked interval invariants to the guards of the transitions leaving their
/// location (the ITS is returned unchanged when there are none).
pub fn add_interval_invariants(its: &Its, timeout: Duration) -> Its {
    let Some(inv) = interval_invariants(its, timeout) else {
        return its.clone();
    };
    let mut out = its.clone();
    for t in &mut out.transitions {
        for a in &inv[t.source] {
            if !t.guard.contains(a) {
                t.guard.push(a.clone());
            }
        }
    }
    out
}
