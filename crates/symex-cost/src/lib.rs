//! `symex cost`: runtime bounds of C programs ([B] §5: Hensel, Giesl, Frohn, Ströder, JLAMP
//! 2018, seed 004). The SEG of `symex-term` is translated as a whole into an ITS whose
//! transitions weigh the IR instructions they stand for ([`whole_its`]), with type-range
//! constants as size variables ([`size_vars`]); `symex-its`'s complexity analysis bounds
//! it. The unit is the `instructions` count of `symex replay`, so every bound is checked by
//! running the program ([`measure`]).
//!
//! * [`program`]: the entry function, parameter names, `nondet()`/`random()` as inputs.
//! * [`whole_its`]: the weighted ITS of the whole SEG, its start variables ([`Input`]).
//! * [`measure`]: concrete runs of the reference interpreter against a bound.

pub mod measure;
pub mod program;
pub mod size_vars;
pub mod whole_its;

use std::time::{Duration, Instant};
use symex_ir::{Module, Slot};
use symex_its::complexity::{self, Complexity};
use symex_its::recursion::{self, Charge};
use symex_its::termination::Limits;
use symex_its::{preprocess, Its};
use symex_term::kb::Kb;
use symex_term::rules::{Exec, Semantics};
use symex_term::seg::{self, Seg, Stop};
pub use whole_its::{Input, SizeMode, WholeIts};

#[derive(Clone, Debug)]
pub struct Options {
    pub sem: Semantics,
    pub entry: String,
    pub max_time: Duration,
    /// The C names of the entry's parameters, when known.
    pub param_names: Option<Vec<String>>,
}

/// A bound found.
#[derive(Clone, Debug)]
pub struct Found {
    pub complexity: Complexity,
    /// The ITS the bound and the proof refer to (preprocessed, maybe refined).
    pub its: Its,
    /// What the ITS's start variables are.
    pub inputs: Vec<Input>,
    /// `O(1)`, `O(n)`, `O(n^k)`.
    pub class: String,
    /// Whether the size variables were free or inputs (step 5's two attempts).
    pub mode: SizeMode,
}

impl Found {
    /// The bound over the inputs' absolute start values, e.g. `4*|j| + 4`.
    pub fn expression(&self) -> String {
        self.complexity.bound.display(&self.its.vars)
    }

    /// The bound at the inputs' values (`value(i)` for `inputs[i]`); `None` on overflow.
    pub fn eval(&self, value: &dyn Fn(&Input) -> i128) -> Option<i128> {
        let start: Vec<i128> = self
            .its
            .vars
            .iter()
            .map(|name| {
                self.inputs
                    .iter()
                    .find(|i| i.name() == *name)
                    .map_or(0, value)
            })
            .collect();
        self.complexity.bound.eval(&start)
    }

    /// The start variables the bound mentions, by name.
    pub fn variables(&self) -> Vec<String> {
        let vars = self.complexity.bound.vars();
        vars.iter().map(|v| self.its.vars[*v].clone()).collect()
    }

    /// Whether the bound mentions a size variable.
    pub fn uses_size_variables(&self) -> bool {
        let vars = self.variables();
        self.inputs
            .iter()
            .any(|i| matches!(i, Input::Size(_)) && vars.contains(&i.name()))
    }
}

/// Everything `symex cost` prints.
#[derive(Debug, Default)]
pub struct Report {
    pub found: Option<Found>,
    /// Why there is no bound.
    pub reason: Option<String>,
    pub seg: Option<Seg>,
    /// The weighted ITS of the last attempt (before preprocessing).
    pub whole: Option<WholeIts>,
    /// Where a run may reach undefined behaviour (an `nsw` overflow): such runs end there,
    /// as the interpreter's overflow check ends them, and the bound counts them up to it.
    pub undefined_behaviour: Vec<String>,
    pub solver_queries: u64,
}

/// The entry's integer parameters as the SEG's start state numbers them: one fresh variable
/// per integer parameter, in order (as `symex_term::seg` creates them).
fn params(ex: &Exec, entry: symex_ir::FuncId) -> whole_its::Params {
    let mut out = Vec::new();
    for i in 0..ex.module.func(entry).params.len() {
        let s = Slot(i as u32);
        if let Some(w) = ex.slot_width(entry, s) {
            out.push((i, w, ex.class.reading(entry, s), out.len()));
        }
    }
    out
}

/// Bounds the runtime of `opts.entry` in `module` (lowered after `mem2reg`).
pub fn analyse(module: &Module, opts: &Options) -> Report {
    let started = Instant::now();
    let deadline = started + opts.max_time;
    let query_timeout = opts.max_time.min(Duration::from_secs(10));
    let mut report = Report::default();
    let Some(entry) = module.function_by_name(&opts.entry) else {
        report.reason = Some(format!("no function `{}`", opts.entry));
        return report;
    };
    if module.func(entry).body.is_none() {
        report.reason = Some(format!("`{}` has no body", opts.entry));
        return report;
    }
    let mut ex = Exec::new(module, opts.sem, Kb::new(query_timeout));
    // A C run has no meaning after undefined behaviour: its cost is counted up to it.
    ex.ub_ends_run = true;
    let limits = seg::Limits {
        max_states: 50_000,
        max_rounds: 200,
        deadline,
    };
    let seg = match seg::build(&mut ex, entry, &limits) {
        Ok(seg) => seg,
        Err(stop) => {
            report.reason = Some(match stop {
                Stop::Err(r) => format!("ERR state: {r}"),
                Stop::Unsupported(r) => r,
                Stop::Limit(r) => format!("limit: {r}"),
            });
            report.solver_queries = ex.kb.queries;
            return report;
        }
    };
    report.solver_queries = ex.kb.queries;
    report.undefined_behaviour = std::mem::take(&mut ex.ub_cut);
    report.undefined_behaviour.sort();
    report.undefined_behaviour.dedup();
    let params = params(&ex, entry);
    let mut reasons = Vec::new();
    for mode in [SizeMode::Free, SizeMode::Inputs] {
        let whole = whole_its::build(&seg, &params, opts.param_names.as_deref(), mode);
        let has_sizes = whole.inputs.iter().any(|i| matches!(i, Input::Size(_)));
        if mode == SizeMode::Inputs && !has_sizes {
            // Without size variables the second attempt would repeat the first.
            break;
        }
        if Instant::now() > deadline {
            reasons.push("time limit reached".into());
            break;
        }
        let limits = Limits {
            query_timeout,
            deadline,
        };
        let (its, result) = if whole.lost_calls {
            let r = "a recursive call's chain is missing from the SEG".to_string();
            (whole.its.clone(), Err(r))
        } else if whole.its.has_multi_targets() {
            tree_bound(&whole.its, &limits)
        } else {
            let pre = preprocess::preprocess(&whole.its, query_timeout);
            complexity::infer_refining(&pre, &limits)
        };
        let inputs = whole.inputs.clone();
        report.whole = Some(whole);
        match result {
            Ok(c) => match c.bound.asymptotic() {
                Some(class) => {
                    report.found = Some(Found {
                        complexity: c,
                        its,
                        inputs,
                        class,
                        mode,
                    });
                    break;
                }
                None => reasons.push("no polynomial size bound for some variable".to_string()),
            },
            Err(r) => reasons.push(r),
        }
    }
    if report.found.is_none() {
        reasons.dedup();
        report.reason = Some(format!(
            "the ITS back end found no bound: {}",
            reasons.join("; ")
        ));
    }
    report.seg = Some(seg);
    report
}

/// The bound of a recursive program's ITS, whose runs are trees: counted in the branch ITS
/// ([`recursion::branches`]) when the recursion is linear (each call of an SCC unfolds as a
/// path); a branching recursion (`fib`) has no polynomial bound in general.
fn tree_bound(its: &Its, limits: &Limits) -> (Its, Result<Complexity, String>) {
    let counted = recursion::branches(its, Charge::First);
    if !recursion::is_linear(its) {
        let r = "a transition calls its own SCC more than once (a branching recursion)";
        return (counted.its, Err(r.into()));
    }
    let result = complexity::infer_tree(&counted, limits);
    (counted.its, result)
}
