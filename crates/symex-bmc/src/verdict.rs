//! The verdict of bounded model checking (the lecture's workflow): one query per property on its error
//! formula; if satisfiable, a counterexample — the model's inputs along its path — that the concrete
//! interpreter must reproduce before `false` is reported; else, if the unwinding assertions cannot fail,
//! `true`; else `bounded-true` (no error within the bound). `unknown` when the solver gives no answer, a
//! counterexample does not replay, or some run reached something not modelled.

use crate::confirm::Replay;
use crate::guarded::{Shared, ADDRESS_PREFIX};
use crate::unwind::{ErrorRecord, Formulas, Options};
use std::cell::RefCell;
use std::rc::Rc;
use symex_engine::{Bug, BugKind, Program, TestFile, TestInput};
use symex_expr::{Model, Term, Value};
use symex_solver::SatResult;

/// What a bug means for the property being checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A violation of the property.
    Violation,
    /// The program ends there, correctly.
    End,
    /// Undefined behaviour outside the property: no verdict `true` while it is reachable.
    Undecided,
}

/// The answer of `symex bmc`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A violation with its replayed test, and how it was replayed.
    False {
        bug: Bug,
        inputs: Vec<TestInput>,
        replay: Replay,
    },
    /// No violation, and no run is longer than the bound.
    True,
    /// No violation within the bound; some run is longer.
    BoundedTrue {
        loops: Vec<String>,
    },
    Unknown(String),
}

impl Verdict {
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::False { .. } => "false",
            Verdict::True => "true",
            Verdict::BoundedTrue { .. } => "bounded-true",
            Verdict::Unknown(_) => "unknown",
        }
    }
}

/// The verdict and what it cost.
#[derive(Clone, Debug)]
pub struct Report {
    pub verdict: Verdict,
    /// Queries of the verdict (one per property, plus the unwinding assertion's and the unmodelled runs').
    pub queries: u64,
    /// Queries asked while unwinding (values of symbolic pointers and sizes).
    pub aux_queries: u64,
    pub joins: u64,
    pub steps: u64,
    /// `--k-induction`: what became of the inductive step (`None`: not attempted).
    pub induction: Option<String>,
    /// With a `true` from the inductive step: the loop invariants it assumed, each proven to hold at the
    /// first arrival and to be preserved by an iteration (empty otherwise).
    pub invariants: Vec<symex_engine::LoopInvariant>,
    /// `--k-induction`: the inductive steps tried (under `--unwind auto`, one per bound while they make
    /// progress).
    pub steps_tried: u32,
    /// The FALSE came from a run with loop acceleration (`Options::accelerate`).
    pub accelerated: bool,
    /// The TRUE came from a run in which calls beyond the recursion bound of functions without side
    /// effects returned fresh values (`crate::recursion`).
    pub recursion_abstracted: bool,
}

fn check(shared: &Rc<RefCell<Shared>>, queries: &mut u64, f: Term) -> SatResult {
    if f.is_false() {
        return SatResult::Unsat;
    }
    *queries += 1;
    shared.borrow_mut().check(&[f])
}

/// Decides the verdict from the formulas of `prog` unwound with `opts`.
pub fn decide(
    prog: &Program,
    opts: &Options,
    f: &Formulas,
    classify: &dyn Fn(BugKind) -> Class,
    shared: &Rc<RefCell<Shared>>,
) -> Verdict {
    decide_counting(prog, opts, f, classify, shared, &mut 0)
}

pub(crate) fn decide_counting(
    prog: &Program,
    opts: &Options,
    f: &Formulas,
    classify: &dyn Fn(BugKind) -> Class,
    shared: &Rc<RefCell<Shared>>,
    queries: &mut u64,
) -> Verdict {
    let mut doubts: Vec<String> = Vec::new();
    // One property per bug kind and location.
    let mut props: Vec<(&Bug, Vec<&ErrorRecord>)> = Vec::new();
    let mut undecided = Vec::new();
    for e in &f.errors {
        match classify(e.bug.kind) {
            Class::Violation => match props
                .iter_mut()
                .find(|(b, _)| b.kind == e.bug.kind && b.loc == e.bug.loc)
            {
                Some((_, v)) => v.push(e),
                None => props.push((&e.bug, vec![e])),
            },
            Class::End => {}
            Class::Undecided => undecided.push(e.guard.clone()),
        }
    }
    for (bug, records) in &props {
        let formula = Term::or_all(records.iter().map(|r| &r.guard));
        match check(shared, queries, formula) {
            SatResult::Unsat => {}
            SatResult::Unknown(u) => doubts.push(format!("the solver gave no answer: {u}")),
            SatResult::Sat(_) if mentions_addresses(records) => doubts.push(format!(
                "a violation ({} at {}:{}) depends on numeric addresses of objects, which the model places",
                bug.kind.as_str(),
                bug.loc.file,
                bug.loc.line
            )),
            SatResult::Sat(m) => match counterexample(prog, opts, &m, records, bug) {
                Ok(v) => return v,
                Err(why) => doubts.push(why),
            },
        }
    }
    let mut unmodelled: Vec<Term> = undecided;
    unmodelled.extend(f.incomplete.iter().map(|(_, g)| g.clone()));
    if !unmodelled.is_empty() {
        match check(shared, queries, Term::or_all(&unmodelled)) {
            SatResult::Unsat => {}
            SatResult::Unknown(u) => doubts.push(format!("the solver gave no answer: {u}")),
            SatResult::Sat(_) => {
                let mut why: Vec<&str> = f.incomplete.iter().map(|(w, _)| w.as_str()).collect();
                why.sort();
                why.dedup();
                if why.is_empty() {
                    why.push("a run reaches undefined behaviour outside the property");
                }
                doubts.push(why.join("; "));
            }
        }
    }
    if !doubts.is_empty() {
        return Verdict::Unknown(doubts.join("; "));
    }
    if f.bounds.is_empty() {
        return Verdict::True;
    }
    match check(
        shared,
        queries,
        Term::or_all(f.bounds.iter().map(|b| &b.guard)),
    ) {
        SatResult::Unsat => Verdict::True,
        SatResult::Sat(m) => {
            let mut loops: Vec<String> = f
                .bounds
                .iter()
                .filter(|b| m.eval_bool(&b.guard) == Ok(true))
                .map(|b| format!("{}:{}", b.function, b.line))
                .collect();
            loops.sort();
            loops.dedup();
            Verdict::BoundedTrue { loops }
        }
        SatResult::Unknown(u) => Verdict::Unknown(format!("the solver gave no answer: {u}")),
    }
}

/// Whether an error formula mentions an integer made from an address (`ptrtoint`): its counterexample then
/// replays on the model's placement of objects, which a real run need not share (as `run` marks such paths).
fn mentions_addresses(records: &[&ErrorRecord]) -> bool {
    records.iter().any(|r| {
        r.guard
            .free_vars()
            .iter()
            .any(|v| v.as_var().is_some_and(|n| n.starts_with(ADDRESS_PREFIX)))
    })
}

fn byte(v: Option<&Value>) -> u8 {
    match v {
        Some(Value::Bv { value, .. }) => *value as u8,
        _ => 0,
    }
}

/// The test of the run `m` describes (the inputs of the events its path asked, in order), confirmed
/// ([`crate::confirm`]): it must end in a bug of the same kind at the same place.
fn counterexample(
    prog: &Program,
    opts: &Options,
    m: &Model,
    records: &[&ErrorRecord],
    bug: &Bug,
) -> Result<Verdict, String> {
    let record = records
        .iter()
        .find(|r| m.eval_bool(&r.guard) == Ok(true))
        .ok_or("internal: no error state satisfied by the model")?;
    let inputs: Vec<TestInput> = record
        .events
        .iter()
        .filter(|e| m.eval_bool(&e.guard) == Ok(true))
        .map(|e| TestInput {
            name: e.name.clone(),
            bytes: e.bytes.iter().map(|b| byte(m.get(b))).collect(),
        })
        .collect();
    let test = TestFile {
        program: None,
        entry: None,
        inputs: inputs.clone(),
        outcome: None,
    };
    let (bug, replay) = crate::confirm::confirm(prog, opts, &test, bug)?;
    Ok(Verdict::False {
        bug,
        inputs,
        replay,
    })
}
