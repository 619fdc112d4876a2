//! Proofs for unbounded loops with constrained Horn clauses (CHCs) and Z3's Spacer (IC3/PDR for
//! software, as SeaHorn's and Ultimate's Horn back ends use it).
//!
//! Every loop head of the entry function (loops in sequence and nested loops alike) is a cut point: one
//! predicate each over the state there (the registers and scalar variables that can differ between
//! arrivals, and the inputs it depends on). The clauses — one per run between two cut points — are
//! built from the merging executor of `symex-bmc` (the engine's instruction semantics and memory
//! model), Spacer solves them, and:
//!
//! * *safe* is reported only after symex's own solver has checked Spacer's invariant against every
//!   clause ([`recheck`]); it comes with the invariant per loop head as C expressions ([`cexpr`]);
//! * *unsafe* names the violations the clauses reach; a counterexample with inputs comes from BMC
//!   (the caller's), replayed concretely as every FALSE is;
//! * anything else, or any construct the encoding does not model, is *unknown* with the reason.
//!
//! * [`cut`]: the loop heads, the state that stands for every arrival at each, and its cells;
//! * [`clauses`]: the Horn clauses;
//! * [`spacer`]: the SMT-LIB script for a `HORN` solver and the invariant read back;
//! * [`recheck`]: the invariant re-checked clause by clause;
//! * [`cexpr`]: the invariant as C expressions;
//! * [`affine`]: candidate invariants `dy·x − dx·y == c` for variables stepped by constants, and
//!   `x == y` for variables a clause copies;
//! * [`congruence`]: candidate invariants `x ≡ c (mod 2^k)`, which Spacer over integers does not find;
//! * [`guards`]: candidate invariants from the comparisons between cells (`x <= y` from `x < y`);
//! * [`parity`]: candidate invariants over GF(2) between the cells' parities (`par(v1) ⊕ par(p) ==
//!   par(v)` where a loop clears one bit of `v1` per iteration while `p` toggles);
//! * [`values`]: candidate invariants that a cell holds one of the few constants it is given.

pub mod affine;
pub mod cexpr;
pub mod clauses;
pub mod congruence;
pub mod cut;
pub mod guards;
pub mod houdini;
pub mod integers;
pub mod parity;
pub mod recheck;
pub mod spacer;
pub mod values;

pub use spacer::Budget;

use cut::{CellKind, CutPoint};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;
use symex_bmc::guarded::Shared;
use symex_bmc::{Class, Options};
use symex_engine::{Bug, BugKind, Program};
use symex_explore::SolverCtx;
use symex_expr::Term;

/// The invariant at one loop head.
#[derive(Clone, Debug)]
pub struct LoopInvariant {
    /// The function and the source position of the loop head (its first located instruction).
    pub function: String,
    pub line: u32,
    pub col: u32,
    /// The invariant over the cells' variables, as checked.
    pub formula: Term,
    /// Its conjuncts as C expressions over the program's variables.
    pub c_conjuncts: Vec<String>,
    /// Conjuncts left out of `c_conjuncts` (over values without a name, or without a C form).
    pub omitted: usize,
}

impl LoopInvariant {
    /// The C conjunction (`1` when nothing could be written).
    pub fn c_expression(&self) -> String {
        if self.c_conjuncts.is_empty() {
            "1".into()
        } else {
            self.c_conjuncts.join(" && ")
        }
    }
}

/// What the Horn-clause engine concludes.
#[derive(Clone, Debug)]
pub enum Answer {
    /// Spacer's invariants, each re-checked by symex's own queries (`queries` of them).
    Safe {
        invariants: Vec<LoopInvariant>,
        queries: u64,
    },
    /// Spacer derived `false`: some of these violations is reachable (no inputs yet).
    Unsafe {
        violations: Vec<Bug>,
    },
    Unknown(String),
}

/// The most solver queries the encoding may ask for the values of symbolic pointers and sizes (over
/// all its runs between cut points). A count, not a time: without one, a loop that copies a large
/// buffer through a pointer its head makes symbolic asks one query per chunk (64 MiB: tens of
/// thousands, for minutes even when each query is bounded), while the clauses of the loops Spacer can
/// prove need a few dozen.
pub const ENCODING_QUERIES: u64 = 1000;

/// Encodes `prog`'s entry function as CHCs and asks Spacer within `budget`. `hints` gives candidate
/// invariants another analysis proposes (`symex term`'s abstract states), and [`congruence`] adds its
/// own (`x & 1 == 0`): they join each of Spacer's
/// invariants that fails the re-check, and their inductive part alone is tried after the first way of
/// asking Spacer (nothing unchecked is used). It is called once, and only when the clauses exist: a
/// program without a loop, or with one the encoding does not model, costs no other analysis.
pub fn prove(
    prog: &Program,
    opts: &Options,
    classify: &dyn Fn(BugKind) -> Class,
    ctx: Rc<RefCell<SolverCtx>>,
    budget: Budget,
    hints: &dyn Fn() -> Vec<symex_engine::LinearCandidate>,
) -> Answer {
    let shared = Shared::new(ctx);
    shared.borrow_mut().deadline = opts.max_time.map(|t| std::time::Instant::now() + t);
    shared.borrow_mut().aux_limit = Some(ENCODING_QUERIES);
    let (cps, c) = match clauses::encode(prog, opts, classify, &shared) {
        Ok(x) => x,
        Err(why) if shared.borrow().aux_queries >= ENCODING_QUERIES => {
            return Answer::Unknown(format!(
                "the encoding exceeds its count of {ENCODING_QUERIES} solver queries for the values of symbolic pointers and sizes ({why})"
            ))
        }
        Err(why) => return Answer::Unknown(why),
    };
    let start = std::time::Instant::now();
    let shares: u32 = spacer::VARIANTS.iter().map(|(_, s)| s).sum();
    let mut why: Vec<String> = Vec::new();
    // The candidates the clauses themselves suggest, per loop head, over the program's named
    // variables only (as term's): a conjunct over a register without a name could not be written in
    // C (nor in a witness).
    let named: Vec<Vec<bool>> = cps
        .iter()
        .map(|cp| {
            cp.cells
                .iter()
                .map(|x| matches!(&x.kind, CellKind::Object { name, .. } if !name.is_empty()))
                .collect()
        })
        .collect();
    let mut own: Vec<Vec<Term>> = vec![Vec::new(); cps.len()];
    for family in [
        affine::candidates(&c, &named),
        affine::copies(&c, &named),
        congruence::candidates(&c, &named),
        guards::candidates(&c, &named),
        values::candidates(&c, &named),
        parity::candidates(&c, &named),
    ] {
        for (ks, more) in own.iter_mut().zip(family) {
            ks.extend(more);
        }
    }
    // Their inductive part first, with the arrivals' facts about the variables no step changes: a few
    // bit-vector queries, before Spacer and before term's SEG is built (`x + y == n`, `(x & 1) == 0`,
    // or no invariant at all where the check after the loop follows from its exit).
    let own_conj: Vec<Term> = own.iter().map(Term::and_all).collect();
    if let Ok((invs, queries)) = recheck::strengthen(&c, &own_conj, &shared) {
        return safe(&cps, invs, queries);
    }
    // Then with term's candidates, beside Spacer.
    let mut candidates = houdini::formulas(&cps, &hints());
    // Without term's, the candidates' inductive part is known not to imply safety.
    let hinted = candidates.iter().any(|ks| !ks.is_empty());
    for (ks, more) in candidates.iter_mut().zip(own) {
        ks.extend(more);
    }
    let hints: Vec<Term> = candidates.iter().map(Term::and_all).collect();
    let mut hints_tried = false;
    for (i, (variant, share)) in spacer::VARIANTS.iter().enumerate() {
        // Each variant gets its share of the time; the last one what is left.
        let timeout = budget.timeout.map(|t| {
            let left = t.saturating_sub(start.elapsed());
            if i + 1 == spacer::VARIANTS.len() {
                left
            } else {
                (t * *share / shares).min(left)
            }
        });
        if timeout.is_some_and(|t| t.is_zero()) {
            break;
        }
        let b = Budget {
            rlimit: budget.rlimit,
            timeout,
        };
        let reason = match spacer::solve(&c, *variant, b) {
            spacer::Said::Unknown(w) => w,
            // A derivation of `false` is only a hint (the caller looks for inputs): no other variant
            // could turn it into a proof.
            spacer::Said::Unsafe if !variant.trusts_unsafe() => {
                format!("Spacer derived false with {variant:?}, which is not trusted")
            }
            spacer::Said::Unsafe => {
                // Over integers, what the encoding cannot translate (`x % 2`, `x & 1`) is any value,
                // so a derivation of `false` may stand on it: the candidates first, whose inductive
                // part is checked on the bit-vectors.
                if hinted && !hints_tried {
                    if let Ok((invs, queries)) = recheck::strengthen(&c, &hints, &shared) {
                        return safe(&cps, invs, queries);
                    }
                }
                return Answer::Unsafe {
                    violations: c.violations.iter().map(|e| e.bug.clone()).collect(),
                };
            }
            spacer::Said::Safe(readings) => match first_that_holds(&c, readings, &hints, &shared) {
                Err(w) => w,
                Ok((invs, queries)) => return safe(&cps, invs, queries),
            },
        };
        if !why.contains(&reason) {
            why.push(reason);
        }
        // After the first (quick) variant, the hints' inductive part alone (Houdini): relations such
        // as `i == y` that the octagons of `term` state and Spacer's invariants leave out.
        if i == 0 && hinted {
            hints_tried = true;
            match recheck::strengthen(&c, &hints, &shared) {
                Ok((invs, queries)) => return safe(&cps, invs, queries),
                Err(w) => why.push(format!("term's candidates: {w}")),
            }
        }
    }
    Answer::Unknown(if why.is_empty() {
        "Spacer gave no answer (timeout)".into()
    } else {
        why.join("; ")
    })
}

/// The safe answer with `invs[k]` at the loop head `cps[k]`, written in C.
fn safe(cps: &[CutPoint], invs: Vec<Term>, queries: u64) -> Answer {
    let invariants = cps
        .iter()
        .zip(invs)
        .map(|(cp, inv)| {
            let inv = without_weaker_disjunctions(&inv);
            let (c_conjuncts, omitted) = cexpr::conjuncts(&inv, &names(cp));
            LoopInvariant {
                function: cp.function.clone(),
                line: cp.line,
                col: cp.col,
                formula: inv,
                c_conjuncts,
                omitted,
            }
        })
        .collect();
    Answer::Safe {
        invariants,
        queries,
    }
}

/// `inv` without the conjuncts `a || q` whose disjunct `q` is itself a conjunct (candidates that
/// survived beside a stronger one): the same formula, shorter to read.
fn without_weaker_disjunctions(inv: &Term) -> Term {
    let cs = recheck::conjuncts(inv);
    let kept: Vec<&Term> = cs
        .iter()
        .filter(|t| {
            !(matches!(t.op(), symex_expr::Op::Or)
                && recheck::disjuncts(t).iter().any(|d| cs.contains(d)))
        })
        .collect();
    Term::and_all(kept)
}

/// The first reading of Spacer's invariants that symex's re-check confirms, with the queries of its
/// check.
fn first_that_holds(
    c: &clauses::Clauses,
    readings: Vec<Vec<Term>>,
    hints: &[Term],
    shared: &Rc<RefCell<Shared>>,
) -> Result<(Vec<Term>, u64), String> {
    let mut why = String::from("Spacer gave no invariant");
    // Each reading with the facts of the arrivals from elsewhere about the cells no step changes
    // (`n <= 1000000`): an invariant of the integer clauses without wrap-around leaves them out, and
    // without them its consecution fails on the bit-vectors (a query Z3 needs long to show
    // satisfiable). The re-check decides whether they hold.
    let frozen: Vec<Term> = recheck::frozen_facts(c).iter().map(Term::and_all).collect();
    let readings: Vec<Vec<Term>> = readings
        .into_iter()
        .map(|r| r.iter().zip(&frozen).map(|(j, f)| j.and(f)).collect())
        .collect();
    for invs in &readings {
        match recheck::recheck(c, invs, shared) {
            Ok(q) => return Ok((invs.clone(), q)),
            Err(w) => why = w,
        }
    }
    // None holds as it is: the inductive part of one, with the facts of the arrivals and the hints.
    for invs in &readings {
        let with_hints: Vec<Term> = invs.iter().zip(hints).map(|(j, h)| j.and(h)).collect();
        match recheck::strengthen(c, &with_hints, shared) {
            Ok((j, q)) => return Ok((j, q)),
            Err(w) => why = format!("{why}; {w}"),
        }
    }
    Err(why)
}

/// The program's names of the cells' variables.
fn names(cp: &CutPoint) -> FxHashMap<Term, String> {
    let mut m = FxHashMap::default();
    for c in &cp.cells {
        match &c.kind {
            CellKind::Object { name, .. } if !name.is_empty() => {
                m.insert(c.var.clone(), name.clone());
            }
            _ => {}
        }
    }
    m
}
