//! symex's own check of Spacer's invariant, before any `true` rests on it: with `J` the interpretation
//! of the loop head's predicate, each clause must hold with `J` in its place —
//!
//! * initiation: `g₀ ∧ ¬J(v₀)` unsatisfiable,
//! * consecution: `gᵢ ∧ J(c) ∧ ¬J(vᵢ)` unsatisfiable for each state an iteration brings back,
//! * safety: `eⱼ ∧ J(c)` unsatisfiable for each violation from the head, `eₖ` for those before it.
//!
//! The queries go through the same solver chain as BMC's verdicts, not through Spacer.

use crate::clauses::{satisfiable, Clauses};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;
use symex_bmc::guarded::Shared;
use symex_expr::Term;

/// The check's outcome: `Ok(queries)`, or the first clause `J` fails (or the solver could not decide).
pub fn recheck(c: &Clauses, inv: &Term, shared: &Rc<RefCell<Shared>>) -> Result<u64, String> {
    let at = |args: &[Term]| c.at(inv, args);
    let mut queries = 0;
    let mut unsat = |what: &str, q: Term| -> Result<(), String> {
        match satisfiable(shared, q, &mut queries) {
            Ok(false) => Ok(()),
            Ok(true) => Err(format!("Spacer's invariant fails {what}")),
            Err(u) => Err(format!("the solver could not check {what}: {u}")),
        }
    };
    for (g, args) in &c.init {
        unsat("initiation", g.and(&at(args).not()))?;
    }
    for (g, args) in &c.steps {
        unsat("consecution", g.and(inv).and(&at(args).not()))?;
    }
    for g in &c.bad {
        unsat("safety", g.and(inv))?;
    }
    for g in &c.bad_prefix {
        unsat("safety before the loop", g.clone())?;
    }
    Ok(queries)
}

/// When Spacer's invariant `inv` fails the re-check (an invariant of the integer clauses without
/// wrap-around often leaves out the bound that keeps a step from wrapping), its largest inductive part:
/// Houdini's fixpoint over `inv`'s conjuncts and the facts the first arrival states about the cells no
/// step changes (`n <= 1000000` for an input `n` the loop only reads) — drop each candidate initiation
/// violates, then each that one step under all kept candidates violates, until none changes — and
/// the conjunction of the survivors if it implies safety. `Ok((J, queries))` as [`recheck`]'s.
pub fn strengthen(
    c: &Clauses,
    inv: &Term,
    shared: &Rc<RefCell<Shared>>,
) -> Result<(Term, u64), String> {
    let mut kept: Vec<Term> = conjuncts(inv);
    for f in frozen_facts(c) {
        if !kept.contains(&f) {
            kept.push(f);
        }
    }
    let at = |j: &Term, args: &[Term]| c.at(j, args);
    let mut queries = 0;
    let mut sat = |q: Term| {
        satisfiable(shared, q, &mut queries)
            .map_err(|u| format!("the solver could not strengthen: {u}"))
    };
    let mut survivors = Vec::new();
    for k in kept {
        if !c.init.iter().try_fold(false, |bad, (g, args)| {
            Ok::<bool, String>(bad || sat(g.and(&at(&k, args).not()))?)
        })? {
            survivors.push(k);
        }
    }
    let mut kept = survivors;
    loop {
        let all = Term::and_all(&kept);
        let mut next = Vec::new();
        for k in &kept {
            let mut bad = false;
            for (g, args) in &c.steps {
                if sat(g.and(&all).and(&at(k, args).not()))? {
                    bad = true;
                    break;
                }
            }
            if !bad {
                next.push(k.clone());
            }
        }
        if next.len() == kept.len() {
            break;
        }
        kept = next;
    }
    let j = Term::and_all(&kept);
    for g in &c.bad {
        if sat(g.and(&j))? {
            return Err("the inductive part does not imply safety".into());
        }
    }
    for g in &c.bad_prefix {
        if sat(g.clone())? {
            return Err("a violation before the loop is reachable".into());
        }
    }
    Ok((j, queries))
}

/// The top-level conjuncts of `t`.
fn conjuncts(t: &Term) -> Vec<Term> {
    match t.op() {
        symex_expr::Op::And => t.args().iter().flat_map(conjuncts).collect(),
        _ => vec![t.clone()],
    }
}

/// The conjuncts of the first arrival's guard over the values of cells that no step changes, written
/// over the cells' parameters.
pub fn frozen_facts(c: &Clauses) -> Vec<Term> {
    let mut out = Vec::new();
    for (guard, args) in &c.init {
        let mut map = FxHashMap::default();
        for (i, (p, a)) in c.params.iter().zip(args).enumerate() {
            // The arrival's value may be a term over inputs (an `unsigned int` read byte by byte is
            // their concatenation): the term itself is replaced by the parameter.
            let frozen = c.steps.iter().all(|(_, next)| next[i] == *p);
            if frozen && !a.free_vars().is_empty() {
                map.insert(a.clone(), p.clone());
            }
        }
        for k in conjuncts(guard) {
            let j = k.substitute(&map);
            let vars = j.free_vars();
            if !vars.is_empty() && vars.iter().all(|v| c.params.contains(v)) {
                out.push(j);
            }
        }
    }
    out
}
