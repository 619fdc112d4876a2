//! Candidate invariants that another analysis proposes (the abstract states of `symex term`), kept only
//! when symex's own queries show them inductive on the Horn clauses of [`crate::clauses`], which say what
//! the engine's bit-precise semantics says: Houdini's fixpoint — drop each candidate the first arrival
//! can violate, then each that one iteration from the head, under all candidates still kept, can
//! violate, until nothing changes. The survivors are together an inductive invariant of the loop head
//! (not necessarily one that implies safety: nothing is concluded about the property from them).
//!
//! A candidate over `n` variables `Σ cᵢ·xᵢ + c ≥ 0` is evaluated on 128-bit two's complement values
//! (each variable extended by its reading), where it cannot overflow: its meaning over ℤ is kept.

use crate::clauses;
use crate::cut::{CellKind, CutPoint};
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

/// The candidates that survived, as one loop invariant, and the work it took.
#[derive(Clone, Debug)]
pub struct Confirmed {
    /// The conjunction of the survivors' C expressions (`None` when none survived).
    pub invariant: Option<LoopInvariant>,
    /// Candidates of this loop head offered, and kept.
    pub offered: usize,
    pub kept: usize,
    pub queries: u64,
}

/// Confirms `candidates` at the loop head of `prog`'s entry function (those of other loops are not
/// offered). `Err` when the loop cannot be encoded (see [`CutPoint::find`]) or a query is undecided.
pub fn confirm(
    prog: &Program,
    opts: &Options,
    classify: &dyn Fn(BugKind) -> Class,
    ctx: Rc<RefCell<SolverCtx>>,
    candidates: &[LinearCandidate],
) -> Result<Confirmed, String> {
    let shared = Shared::new(ctx);
    shared.borrow_mut().deadline = opts.max_time.map(|t| std::time::Instant::now() + t);
    let cp = CutPoint::find(prog, opts, &shared)?;
    let c = clauses::encode(prog, opts, &cp, classify, &shared)?;
    let names = variables(&cp);
    let mut kept: Vec<(&LinearCandidate, String, Term)> = candidates
        .iter()
        .filter(|k| k.function == cp.function && k.line == cp.line)
        .filter_map(|k| Some((k, k.c_expression()?, formula(k, &names)?)))
        .collect();
    let offered = kept.len();
    let mut queries = 0;
    let mut sat = |q: Term| {
        clauses::satisfiable(&shared, q, &mut queries)
            .map_err(|u| format!("the solver could not decide a candidate: {u}"))
    };
    let at = |t: &Term, args: &[Term]| c.at(t, args);
    let mut init_ok = Vec::new();
    for k in kept.drain(..) {
        let mut holds = true;
        for (g, args) in &c.init {
            if sat(g.and(&at(&k.2, args).not()))? {
                holds = false;
                break;
            }
        }
        if holds {
            init_ok.push(k);
        }
    }
    kept = init_ok;
    loop {
        let all = Term::and_all(kept.iter().map(|k| &k.2));
        let before = kept.len();
        let mut next = Vec::new();
        for k in kept.drain(..) {
            let mut holds = true;
            for (g, args) in &c.steps {
                if sat(g.and(&all).and(&at(&k.2, args).not()))? {
                    holds = false;
                    break;
                }
            }
            if holds {
                next.push(k);
            }
        }
        kept = next;
        if kept.len() == before {
            break;
        }
    }
    // A survivor implied by a stronger one over the same sum (`Σ + c ≥ 0` by `Σ + c' ≥ 0`, c' ≤ c) is
    // not written.
    let strongest: Vec<_> = kept
        .iter()
        .filter(|k| {
            !kept.iter().any(|j| {
                !j.0.equality
                    && !k.0.equality
                    && j.0.terms == k.0.terms
                    && j.0.constant < k.0.constant
            })
        })
        .collect();
    let invariant = (!strongest.is_empty()).then(|| LoopInvariant {
        function: cp.function.clone(),
        line: cp.line,
        expression: strongest
            .iter()
            .map(|k| k.1.as_str())
            .collect::<Vec<_>>()
            .join(" && "),
    });
    Ok(Confirmed {
        invariant,
        offered,
        kept: kept.len(),
        queries,
    })
}

/// The candidates of `cp`'s loop head as formulas over its variables (those over a variable the
/// head does not name, or of another width, are left out): hints for [`crate::recheck::strengthen`].
pub fn formulas(cp: &CutPoint, candidates: &[LinearCandidate]) -> Vec<Term> {
    let names = variables(cp);
    candidates
        .iter()
        .filter(|k| k.function == cp.function && k.line == cp.line)
        .filter_map(|k| formula(k, &names))
        .collect()
}

/// The program's variables at the head by name: the named cells, and the variables the loop does not
/// write (their value at the first arrival).
fn variables(cp: &CutPoint) -> FxHashMap<String, Term> {
    let mut m = FxHashMap::default();
    for c in &cp.cells {
        if let CellKind::Object { name, .. } = &c.kind {
            if !name.is_empty() {
                m.insert(name.clone(), c.var.clone());
            }
        }
    }
    for (name, t) in &cp.constants {
        m.entry(name.clone()).or_insert_with(|| t.clone());
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
