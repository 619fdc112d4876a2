//! Candidate invariants of affine relations over GF(2) between the cells' parities: `par(x) ⊕ par(y)
//! ⊕ … = c`, where `par(x)` is the XOR of `x`'s bits. King and Søndergaard ("Automatic abstraction for
//! congruences", VMCAI 2010) find the affine relations over GF(2) among a program's bits with a SAT
//! solver; the relation a loop that counts set bits keeps (`v1 &= v1 - 1` clears one bit while a flag
//! toggles: `par(v1) ⊕ par(flag) = par(v)`) is one among the parities of whole cells, which neither
//! Spacer over integers nor the linear candidates can state. Each relation of two or three cells whose
//! sum is the same constant at every arrival from elsewhere is a candidate; [`crate::recheck::strengthen`]'s
//! Houdini keeps it only if the bit-vector queries show it inductive.
//!
//! They are tried only where a loop steps a cell by a bitwise operation of two non-constant values
//! (`v1 & (v1 - 1)`, `x ^ y`): elsewhere parities are not what a loop keeps, and each candidate costs
//! queries.

use crate::clauses::Clauses;
use symex_expr::{Op, Sort, Term};

/// The most cells whose parities are related (the candidates grow as their cube).
const MAX_CELLS: usize = 8;

/// The most cells in one relation.
const MAX_TERMS: usize = 3;

/// Per predicate of `c`, its parity relations over the values [`features`] picks.
pub fn candidates(c: &Clauses, named: &[Vec<bool>]) -> Vec<Vec<Term>> {
    (0..c.params.len())
        .map(|k| {
            if !bitwise_step(c, k) {
                return Vec::new();
            }
            let values: Vec<Term> = features(c, k, &named[k]);
            let mut out = Vec::new();
            for set in subsets(values.len(), MAX_TERMS) {
                let terms: Vec<&Term> = set.iter().map(|&i| &values[i]).collect();
                let Some(value) = on_arrival(c, k, &terms) else {
                    continue;
                };
                let sum = terms
                    .iter()
                    .map(|t| parity(t))
                    .reduce(|a, b| a.bvxor(&b))
                    .expect("a relation of two or more values");
                out.push(sum.eq(&Term::bv(u128::from(value), 1)));
            }
            out
        })
        .collect()
}

/// The values whose parities are related at predicate `k`'s head: its bit-vector parameters that are
/// named (`named`) or that an iteration changes (a variable whose name the front end could not
/// trust is still a cell; the witness leaves a conjunct over it out), and each value that arrives
/// from elsewhere written over parameters that no iteration changes (an input read byte by byte is
/// the concatenation of its bytes, each a parameter of its own).
fn features(c: &Clauses, k: usize, named: &[bool]) -> Vec<Term> {
    let params = &c.params[k];
    let still: Vec<&Term> = crate::recheck::unchanged(c, k);
    let mut out: Vec<Term> = params
        .iter()
        .zip(named)
        .filter(|(p, n)| matches!(p.sort(), Sort::BitVec(_)) && (**n || !still.contains(p)))
        .map(|(p, _)| p.clone())
        .collect();
    for r in c.rules.iter().filter(|r| r.from != Some(k)) {
        let Some((to, args)) = &r.to else {
            continue;
        };
        for a in args.iter().filter(|_| *to == k) {
            let vars = a.free_vars();
            let over_still = !vars.is_empty() && vars.iter().all(|v| still.contains(&v));
            if over_still && !params.contains(a) && !out.contains(a) {
                out.push(a.clone());
            }
        }
    }
    out.truncate(MAX_CELLS);
    out
}

/// The XOR of `x`'s bits, as one bit.
pub fn parity(x: &Term) -> Term {
    (0..x.width())
        .map(|b| x.extract(b, b))
        .reduce(|a, b| a.bvxor(&b))
        .expect("a bit-vector of width at least one")
}

/// Whether a run from predicate `k`'s head computes a bitwise AND, OR or XOR of two non-constant
/// values.
fn bitwise_step(c: &Clauses, k: usize) -> bool {
    let roots = c.terms_of(|r| r.from == Some(k));
    let mut found = false;
    symex_expr::visit::postorder(&roots, |t| {
        found |= matches!(t.op(), Op::BvAnd | Op::BvOr | Op::BvXor)
            && t.args().iter().all(|a| a.as_bv().is_none());
    });
    found
}

/// The subsets of `0..n` with two to `max` elements.
fn subsets(n: usize, max: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new()];
    for i in 0..n {
        let more: Vec<Vec<usize>> = out
            .iter()
            .filter(|s| s.len() < max)
            .map(|s| [s.as_slice(), &[i]].concat())
            .collect();
        out.extend(more);
    }
    out.retain(|s| s.len() >= 2);
    out
}

/// The sum over GF(2) of the parities of `terms` (over predicate `k`'s parameters) on every arrival
/// at `k` from elsewhere, when it is one constant: each value is its parity if constant and a
/// symbol otherwise, and a symbol counted twice cancels (`v1 = v` beside `v` itself).
fn on_arrival(c: &Clauses, k: usize, terms: &[&Term]) -> Option<bool> {
    let mut value = None;
    for r in c.rules.iter().filter(|r| r.from != Some(k)) {
        let Some((to, args)) = &r.to else {
            continue;
        };
        if *to != k {
            continue;
        }
        let mut constant = false;
        let mut symbols: Vec<Term> = Vec::new();
        for t in terms {
            let a = c.at(k, t, args);
            match a.as_bv() {
                Some(v) => constant ^= v.count_ones() % 2 == 1,
                None => match symbols.iter().position(|s| *s == a) {
                    Some(p) => {
                        symbols.swap_remove(p);
                    }
                    None => symbols.push(a),
                },
            }
        }
        if !symbols.is_empty() || value.is_some_and(|v| v != constant) {
            return None;
        }
        value = Some(constant);
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clauses::fixtures::{bv, one_loop, var};

    /// `v1 = v; p = 0; while (v1 != 0) { p = p == 0 ? 1 : 0; v1 &= v1 - 1; }`: the one relation whose
    /// sum is constant on arrival is `par(v1) ⊕ par(p) ⊕ par(v) = 0`, and one of two cells
    /// (`par(v1) ⊕ par(v) = 0`).
    #[test]
    fn clearing_bits_beside_a_flag_suggests_the_parity_relation() {
        let (v1, p, v, input) = (var("v1"), var("p"), var("v"), var("input"));
        let toggled = p.eq(&bv(0)).ite(&bv(1), &bv(0));
        let c = one_loop(
            &[v1.clone(), p.clone(), v.clone()],
            vec![input.clone(), bv(0), input.clone()],
            v1.ne(&bv(0)),
            vec![v1.bvand(&v1.bvsub(&bv(1))), toggled, v.clone()],
        );
        let ks = candidates(&c, &[vec![true, true, true]]);
        let zero = Term::bv(0, 1);
        let two = parity(&v1).bvxor(&parity(&v)).eq(&zero);
        let three = parity(&v1).bvxor(&parity(&p)).bvxor(&parity(&v)).eq(&zero);
        assert_eq!(ks[0], vec![two, three]);
    }

    /// The same loop stepping `v1` by a constant instead: no bitwise step, no candidate.
    #[test]
    fn an_arithmetic_step_suggests_no_parity() {
        let (v1, v, input) = (var("v1"), var("v"), var("input"));
        let c = one_loop(
            &[v1.clone(), v.clone()],
            vec![input.clone(), input.clone()],
            v1.ne(&bv(0)),
            vec![v1.bvsub(&bv(1)), v.clone()],
        );
        assert!(candidates(&c, &[vec![true, true]])[0].is_empty());
    }

    /// `par` of a constant is the parity of its set bits.
    #[test]
    fn the_parity_of_a_constant_counts_its_bits() {
        assert_eq!(parity(&bv(0b1011)).as_bv(), Some(1));
        assert_eq!(parity(&bv(0b1001)).as_bv(), Some(0));
    }
}
