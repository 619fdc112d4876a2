//! Candidate invariants of a finite set of values: a cell that every clause into the head gives one of
//! a few constants (directly, or through if-then-else among constants), or leaves as it is, holds one
//! of them there — `x == c₁ ∨ … ∨ x == cₘ`. A flag that a loop toggles (`p = (p == 0) ? 1 : 0`) is
//! such a cell: [`crate::parity`]'s relation over its parity holds only while the flag is 0 or 1, and
//! Spacer over integers states such a range only beside what it proves. Checked as every candidate by
//! [`crate::recheck::strengthen`]'s Houdini.

use crate::clauses::Clauses;
use symex_expr::{Op, Term};

/// The most values in one candidate.
const MAX_VALUES: usize = 4;

/// Per predicate of `c`, the candidate sets of values of the parameters `named` marks.
pub fn candidates(c: &Clauses, named: &[Vec<bool>]) -> Vec<Vec<Term>> {
    (0..c.params.len())
        .map(|k| {
            let mut out = Vec::new();
            for (i, p) in c.params[k].iter().enumerate() {
                if !named[k].get(i).copied().unwrap_or(false) || p.sort() == symex_expr::Sort::Bool
                {
                    continue;
                }
                let Some(values) = given(c, k, i) else {
                    continue;
                };
                if !values.is_empty() && values.len() <= MAX_VALUES {
                    let w = p.width();
                    let each: Vec<Term> = values.iter().map(|&v| p.eq(&Term::bv(v, w))).collect();
                    out.push(Term::or_all(&each));
                }
            }
            out
        })
        .collect()
}

/// The constants the clauses into predicate `k` give its parameter `i` (a back edge may also leave
/// it unchanged); `None` when some clause gives it anything else.
fn given(c: &Clauses, k: usize, i: usize) -> Option<Vec<u128>> {
    let p = &c.params[k][i];
    let mut out = Vec::new();
    for r in &c.rules {
        let Some((to, args)) = &r.to else {
            continue;
        };
        if *to == k && !constants(&args[i], (r.from == Some(k)).then_some(p), &mut out) {
            return None;
        }
    }
    Some(out)
}

/// Adds the constants `t` may take to `out`: `t` a constant, `same` (the parameter itself, on a back
/// edge), an if-then-else of such terms, or a change of width of one without `same`; `false` for any
/// other term.
fn constants(t: &Term, same: Option<&Term>, out: &mut Vec<u128>) -> bool {
    if same == Some(t) {
        return true;
    }
    if let Some(v) = t.as_bv() {
        if !out.contains(&v) {
            out.push(v);
        }
        return true;
    }
    let a = t.args();
    match t.op() {
        Op::Ite => constants(&a[1], same, out) && constants(&a[2], same, out),
        // A flag computed in `int` and stored in a `char`: the width changes of each constant.
        Op::Extract { .. } | Op::ZeroExt(_) | Op::SignExt(_) => {
            let mut inner = Vec::new();
            if !constants(&a[0], None, &mut inner) {
                return false;
            }
            for v in inner {
                let Some(c) = Term::try_new(t.op().clone(), &[Term::bv(v, a[0].width())])
                    .ok()
                    .and_then(|c| c.as_bv())
                else {
                    return false;
                };
                if !out.contains(&c) {
                    out.push(c);
                }
            }
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clauses::fixtures::{bv, one_loop, var};

    /// A flag set to 0, toggled between 1 and 0, beside a counter: `p == 0 || p == 1`, and nothing for
    /// the counter.
    #[test]
    fn a_toggled_flag_takes_two_values() {
        let (x, p) = (var("x"), var("p"));
        let c = one_loop(
            &[x.clone(), p.clone()],
            vec![bv(0), bv(0)],
            x.bvult(&bv(10)),
            vec![x.bvadd(&bv(1)), p.eq(&bv(0)).ite(&bv(1), &bv(0))],
        );
        let ks = candidates(&c, &[vec![true, true]]);
        assert_eq!(ks[0], vec![p.eq(&bv(0)).or(&p.eq(&bv(1)))]);
    }

    /// The same flag as a `char` that the step computes as an `int`: the constants truncated.
    #[test]
    fn a_truncated_flag_takes_two_values() {
        let p = Term::var("p", symex_expr::Sort::bv(8));
        let byte = |v: u128| Term::bv(v, 8);
        let c = one_loop(
            std::slice::from_ref(&p),
            vec![byte(0)],
            Term::tt(),
            vec![p.eq(&byte(0)).ite(&bv(1), &bv(0)).extract(7, 0)],
        );
        let ks = candidates(&c, &[vec![true]]);
        assert_eq!(ks[0], vec![p.eq(&byte(0)).or(&p.eq(&byte(1)))]);
    }
}
