//! symex's own check of Spacer's invariants, before any `true` rests on them: with `J_h` the
//! interpretation of loop head `h`'s predicate, each clause must hold with the `J`s in their place —
//!
//! * initiation: `g ∧ ¬J_h(v)` unsatisfiable,
//! * consecution: `g ∧ J_h(c) ∧ ¬J_k(v)` unsatisfiable for each run from `h` that arrives at `k`,
//! * safety: `e ∧ J_h(c)` unsatisfiable for each violation from `h`, `e` for those before any head.
//!
//! The queries go through the same solver chain as BMC's verdicts, not through Spacer.

use crate::clauses::{satisfiable, Clauses, Kind};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;
use symex_bmc::guarded::Shared;
use symex_expr::Term;

/// The clauses' kinds in the order they are checked (the cheap ones first).
const ORDER: [Kind; 4] = [
    Kind::Initiation,
    Kind::Consecution,
    Kind::Safety,
    Kind::SafetyBeforeLoops,
];

/// The check's outcome: `Ok(queries)`, or the first clause the `invs` fail (or the solver could not
/// decide).
pub fn recheck(c: &Clauses, invs: &[Term], shared: &Rc<RefCell<Shared>>) -> Result<u64, String> {
    let mut queries = 0;
    for kind in ORDER {
        let what = match kind {
            Kind::Initiation => "initiation",
            Kind::Consecution => "consecution",
            Kind::Safety => "safety",
            Kind::SafetyBeforeLoops => "safety before the loop",
        };
        for r in c.rules.iter().filter(|r| r.kind() == kind) {
            match satisfiable(shared, c.violated(r, invs), &mut queries) {
                Ok(false) => {}
                Ok(true) => return Err(format!("Spacer's invariant fails {what}")),
                Err(u) => return Err(format!("the solver could not check {what}: {u}")),
            }
        }
    }
    Ok(queries)
}

/// Houdini's fixpoint over candidate conjuncts per predicate: drop each candidate some clause into its
/// predicate violates (with every candidate still kept in place of the clause's body), until nothing
/// changes. The survivors are together inductive (each clause into a predicate keeps them); the tag of
/// each candidate comes back with it.
pub fn inductive_part<T>(
    c: &Clauses,
    mut kept: Vec<Vec<(T, Term)>>,
    shared: &Rc<RefCell<Shared>>,
    queries: &mut u64,
) -> Result<Vec<Vec<(T, Term)>>, String> {
    loop {
        let mut changed = false;
        for r in &c.rules {
            let Some((k, args)) = &r.to else {
                continue;
            };
            let body = r
                .from
                .map_or_else(Term::tt, |p| Term::and_all(kept[p].iter().map(|x| &x.1)));
            let pre = r.guard.and(&body);
            let mut survivors = Vec::new();
            for cand in std::mem::take(&mut kept[*k]) {
                let q = pre.and(&c.at(*k, &cand.1, args).not());
                if satisfiable(shared, q, queries)
                    .map_err(|u| format!("the solver could not strengthen: {u}"))?
                {
                    changed = true;
                } else {
                    survivors.push(cand);
                }
            }
            kept[*k] = survivors;
        }
        if !changed {
            return Ok(kept);
        }
    }
}

/// When Spacer's invariants `invs` fail the re-check (an invariant of the integer clauses without
/// wrap-around often leaves out the bound that keeps a step from wrapping), their largest inductive
/// part: Houdini's fixpoint ([`inductive_part`]) over their conjuncts and the facts the arrivals from
/// elsewhere state about the cells no step of the loop changes (`n <= 1000000` for an input `n` the
/// loop only reads), and the conjunction of the survivors if it implies safety. `Ok((J, queries))`
/// as [`recheck`]'s.
pub fn strengthen(
    c: &Clauses,
    invs: &[Term],
    shared: &Rc<RefCell<Shared>>,
) -> Result<(Vec<Term>, u64), String> {
    let frozen = frozen_facts(c);
    let candidates: Vec<Vec<((), Term)>> = invs
        .iter()
        .zip(frozen)
        .map(|(inv, fs)| {
            let mut ks = conjuncts(inv);
            for f in fs {
                if !ks.contains(&f) {
                    ks.push(f);
                }
            }
            ks.into_iter().map(|k| ((), k)).collect()
        })
        .collect();
    let mut queries = 0;
    let kept = inductive_part(c, candidates, shared, &mut queries)?;
    let js: Vec<Term> = kept
        .iter()
        .map(|ks| Term::and_all(ks.iter().map(|k| &k.1)))
        .collect();
    for r in c.rules.iter().filter(|r| r.to.is_none()) {
        let q = c.violated(r, &js);
        if satisfiable(shared, q, &mut queries)
            .map_err(|u| format!("the solver could not strengthen: {u}"))?
        {
            return Err(if r.from.is_some() {
                "the inductive part does not imply safety".into()
            } else {
                "a violation before the loop is reachable".into()
            });
        }
    }
    Ok((js, queries))
}

/// The top-level conjuncts of `t`.
pub fn conjuncts(t: &Term) -> Vec<Term> {
    match t.op() {
        symex_expr::Op::And => t.args().iter().flat_map(conjuncts).collect(),
        _ => vec![t.clone()],
    }
}

/// The top-level disjuncts of `t`.
pub fn disjuncts(t: &Term) -> Vec<Term> {
    match t.op() {
        symex_expr::Op::Or => t.args().iter().flat_map(disjuncts).collect(),
        _ => vec![t.clone()],
    }
}

/// The parameters of predicate `k` that every clause from its head back to it leaves as they are.
pub fn unchanged(c: &Clauses, k: usize) -> Vec<&Term> {
    c.params[k]
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            c.rules.iter().all(|r| match (&r.from, &r.to) {
                (Some(f), Some((t, args))) if *f == k && *t == k => args[*i] == **p,
                _ => true,
            })
        })
        .map(|(_, p)| p)
        .collect()
}

/// Per predicate, the conjuncts of the guards of the clauses that arrive from elsewhere over the values
/// of cells that no clause from the head back to itself changes, written over the cells' parameters,
/// and the values such cells arrive with written over the others.
pub fn frozen_facts(c: &Clauses) -> Vec<Vec<Term>> {
    let mut facts = arrival_facts(c);
    // Facts carried along the clauses between two heads, over the cells such a clause copies as they
    // are (`s < 31` at an inner loop's head from the outer's, and back): Houdini keeps them only if
    // every head on the way does.
    for _ in 0..2 {
        for r in &c.rules {
            let (Some(h), Some((k, args))) = (r.from, &r.to) else {
                continue;
            };
            if h == *k {
                continue;
            }
            let map: FxHashMap<Term, Term> = args
                .iter()
                .zip(&c.params[*k])
                .filter(|(a, _)| c.params[h].contains(a))
                .map(|(a, p)| (a.clone(), p.clone()))
                .collect();
            for f in facts[h].clone() {
                let g = f.substitute(&map);
                let vars = g.free_vars();
                if vars.iter().all(|v| c.params[*k].contains(v)) && !facts[*k].contains(&g) {
                    facts[*k].push(g);
                }
            }
        }
    }
    facts
}

/// [`frozen_facts`] of the clauses that arrive at each head from elsewhere.
fn arrival_facts(c: &Clauses) -> Vec<Vec<Term>> {
    (0..c.params.len())
        .map(|k| {
            let params = &c.params[k];
            let still = unchanged(c, k);
            let mut out = Vec::new();
            for r in c.rules.iter().filter(|r| r.from != Some(k)) {
                let Some((_, args)) = r.to.as_ref().filter(|(q, _)| *q == k) else {
                    continue;
                };
                let mut map = FxHashMap::default();
                for (p, a) in params.iter().zip(args) {
                    // The arrival's value may be a term over inputs (an `unsigned int` read byte by
                    // byte is their concatenation): the term itself is replaced by the parameter.
                    if still.contains(&p) && !a.free_vars().is_empty() {
                        map.insert(a.clone(), p.clone());
                    }
                }
                // What the arrival defines a cell as, over the others (`d == (1 << s) - 1`): the
                // guards about `1 << s` say nothing about `d` without it.
                let mut facts = conjuncts(&r.guard);
                for (p, a) in params.iter().zip(args) {
                    if map.get(a) == Some(p) && !a.is_const() && !params.contains(a) {
                        let mut others = map.clone();
                        others.remove(a);
                        facts.push(p.eq(&a.substitute(&others)));
                    }
                }
                for g in facts {
                    let j = g.substitute(&map);
                    let vars = j.free_vars();
                    if !vars.is_empty()
                        && vars.iter().all(|v| params.contains(v))
                        && !out.contains(&j)
                    {
                        out.push(j);
                    }
                }
            }
            out
        })
        .collect()
}
