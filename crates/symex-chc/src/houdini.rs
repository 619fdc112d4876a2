//! Candidate invariants that another analysis proposes (the abstract states of `symex term`), kept only
//! when symex's own queries show them inductive on the Horn clauses of [`crate::clauses`], which say what
//! the engine's bit-precise semantics says: Houdini's fixpoint — drop each candidate the first arrival
//! can violate, then each that one iteration from the head, under all candidates still kept, can
//! violate, until nothing changes (over every loop head's predicate at once,
//! [`crate::recheck::inductive_part`]). The survivors are together inductive invariants of the loop
//! heads (not necessarily ones that imply safety: nothing is concluded about the property from them).
//!
//! A candidate over `n` variables `Σ cᵢ·xᵢ + c ≥ 0` is evaluated on 128-bit two's complement values
//! (each variable extended by its reading), where it cannot overflow: its meaning over ℤ is kept.

use crate::clauses;
use crate::cut::{CellKind, CutPoint};
use crate::recheck;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;
use symex_bmc::guarded::Shared;
use symex_bmc::{Class, Options};
use symex_engine::{BugKind, LinearCandidate, LoopInvariant, Program};
use symex_explore::SolverCtx;
use symex_expr::{Sort, Term};

/// The width candidates are evaluated in.
const WIDE: u32 = 128;

/// The candidates that survived, as loop invariants, and the work it took.
#[derive(Clone, Debug)]
pub struct Confirmed {
    /// Per loop head with survivors, the conjunction of their C expressions.
    pub invariants: Vec<LoopInvariant>,
    /// Candidates of the entry function's loop heads offered, and kept.
    pub offered: usize,
    pub kept: usize,
    pub queries: u64,
}

/// Confirms `candidates` at the loop heads of `prog`'s entry function (those of other functions are
/// not offered). `Err` when the function cannot be encoded (see [`clauses::encode`]) or a query is
/// undecided.
pub fn confirm(
    prog: &Program,
    opts: &Options,
    classify: &dyn Fn(BugKind) -> Class,
    ctx: Rc<RefCell<SolverCtx>>,
    candidates: &[LinearCandidate],
) -> Result<Confirmed, String> {
    let shared = Shared::new(ctx);
    shared.borrow_mut().deadline = opts.max_time.map(|t| std::time::Instant::now() + t);
    let (cps, c) = clauses::encode(prog, opts, classify, &shared)?;
    let offered_per: Vec<Vec<(&LinearCandidate, Term)>> = cps
        .iter()
        .map(|cp| {
            let names = variables(cp);
            candidates
                .iter()
                .filter(|k| k.function == cp.function && k.line == cp.line)
                .filter(|k| k.c_expression().is_some())
                .filter_map(|k| Some((k, formula(k, &names)?)))
                .collect()
        })
        .collect();
    let offered = offered_per.iter().map(Vec::len).sum();
    let mut queries = 0;
    let kept = recheck::inductive_part(&c, offered_per, &shared, &mut queries)
        .map_err(|w| w.replace("strengthen", "decide a candidate"))?;
    let mut invariants = Vec::new();
    for (cp, ks) in cps.iter().zip(&kept) {
        // A survivor implied by a stronger one over the same sum (`Σ + c ≥ 0` by `Σ + c' ≥ 0`,
        // c' ≤ c) is not written.
        let strongest: Vec<String> = ks
            .iter()
            .filter(|(k, _)| {
                !ks.iter().any(|(j, _)| {
                    !j.equality && !k.equality && j.terms == k.terms && j.constant < k.constant
                })
            })
            .filter_map(|(k, _)| k.c_expression())
            .collect();
        if !strongest.is_empty() {
            invariants.push(LoopInvariant {
                function: cp.function.clone(),
                line: cp.line,
                expression: strongest.join(" && "),
            });
        }
    }
    Ok(Confirmed {
        invariants,
        offered,
        kept: kept.iter().map(Vec::len).sum(),
        queries,
    })
}

/// Per cut point, its candidates as formulas over its variables (those over a variable the head does
/// not name, or of another width, are left out): hints for [`crate::recheck::strengthen`].
pub fn formulas(cps: &[CutPoint], candidates: &[LinearCandidate]) -> Vec<Vec<Term>> {
    cps.iter()
        .map(|cp| {
            let names = variables(cp);
            candidates
                .iter()
                .filter(|k| k.function == cp.function && k.line == cp.line)
                .filter_map(|k| formula(k, &names))
                .collect()
        })
        .collect()
}

/// The program's variables at the head by name: the named cells.
fn variables(cp: &CutPoint) -> FxHashMap<String, Term> {
    let mut m = FxHashMap::default();
    for c in &cp.cells {
        if let CellKind::Object { name, .. } = &c.kind {
            if !name.is_empty() {
                m.insert(name.clone(), c.var.clone());
            }
        }
    }
    m
}
/// `k` as a formula over the head's variables (`None` when a variable is unknown or of another width).
fn formula(k: &LinearCandidate, names: &FxHashMap<String, Term>) -> Option<Term> {
    let mut sum = Term::bv(k.constant as u128, WIDE);
    for t in &k.terms {
        let v = names.get(&t.variable)?;
        if v.sort() != Sort::bv(t.width) {
            return None;
        }
        let wide = if t.signed {
            v.sext_to(WIDE)
        } else {
            v.zext_to(WIDE)
        };
        sum = sum.bvadd(&wide.bvmul(&Term::bv(t.coefficient as u128, WIDE)));
    }
    let zero = Term::bv(0, WIDE);
    Some(if k.equality {
        sum.eq(&zero)
    } else {
        sum.bvsge(&zero)
    })
}
