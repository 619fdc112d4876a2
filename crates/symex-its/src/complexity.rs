//! Runtime bounds by KoAT's alternating modular inference (Brockschmidt et al.):
//!
//! * a transition on no cycle runs at most once per run (the SCCs of the location graph
//!   form a DAG that a run passes once);
//! * a transition removed by ranking function `f` from the remaining transitions `T'` of
//!   its SCC runs at most `Σ_{e entering T'} RB(e) · |f_{target(e)}|(SB(e))` times: each
//!   entry starts a stretch inside `T'` on which `f` never increases and drops by at least
//!   one, from at most its value after the entry, on each removed step;
//! * size bounds `SB(t, v)` (of `|v|` after `t`): outside cycles, the update composed with
//!   the sizes before; inside an SCC `C`, per variable: what enters, plus every reset value
//!   (`v' = p` without `v`), plus `RB(t)` times the increment of every additive update
//!   (`v' = v + p`); any other update (`v' = 2·v`, …) has no polynomial bound here.
//!
//! Runtime bounds need size bounds and size bounds need runtime bounds of their SCC, so
//! the steps of an SCC are retried until nothing changes (the alternation).

use crate::bound::Bound;
use crate::exp_size;
use crate::graph;
use crate::its::Its;
use crate::local_size::{
    capped_by_guard, guard_constant, non_growing, non_growing_above, temp_bound, update_bound,
    value_upper_bound, TempBound,
};
use crate::multiphase;
use crate::periodic_size;
use crate::poly::Poly;
use crate::ranking::{self, Decrease};
use crate::recursion::Branches;
use crate::scc_size;
use crate::size_graph::{self, Rvg};
use crate::termination::{self, Limits, SccProof, Termination};
use crate::twn::{self, TwnLoop};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::time::{Duration, Instant};

mod amortised;
mod guard_cap;
mod monomials;
mod multiphase_scc;
mod periodic_rvg;
mod relational_retry;
mod scc_wide_step;
mod sized_ranking;
mod twn_entries;

pub use relational_retry::proof_not_reused;

/// A runtime bound of the whole ITS.
#[derive(Clone, Debug)]
pub struct Complexity {
    /// The bound of the total cost of every run, in the absolute start values.
    pub bound: Bound,
    /// The runtime bound of each transition.
    pub transition_bounds: Vec<Bound>,
    /// The termination proof the bounds come from.
    pub proof: Vec<SccProof>,
    /// The loops bounded by their closed forms instead ([`twn`]).
    pub twn: Vec<TwnLoop>,
    /// Whether a size bound per result variable ([`size_graph`]) was used where the
    /// SCC-wide ones had none ([`infer_refining`] tries that last).
    pub used_size_graph: bool,
    /// Per transition, the ranking function its runtime bound comes from where that is not
    /// the termination proof's own step function (`None`: the proof's step, a closed form,
    /// or another rule named in the proof).
    pub bound_functions: Vec<Option<BoundFunction>>,
}

/// A ranking function found again for a runtime bound, after the termination proof: a
/// runtime bound of `Σ entries · |f|` needs `f` to be strictly decreasing on the bounded
/// transition and non-increasing on `non_increasing_on`, which [`ranking::check`] re-checked.
#[derive(Clone, Debug)]
pub struct BoundFunction {
    pub function: crate::ranking::RankingFunction,
    /// The transitions `function` never increases on (the whole SCC, or the part of it still
    /// open).
    pub non_increasing_on: Vec<usize>,
    pub rule: BoundRule,
}

/// Which rule asked for a [`BoundFunction`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundRule {
    /// Non-increasing on the whole SCC, bounded by the SCC's entries ([`scc_wide_step`] and
    /// [`Ctx::resynthesize`]).
    SccWide,
    /// SCC-wide over the variables of finite size after every entry ([`sized_ranking`]).
    SizedVariables,
    /// Non-increasing on the part of the SCC still open, bounded by that part's entries.
    OpenPart,
}

impl BoundRule {
    /// How the proof names the rule.
    pub fn name(self) -> &'static str {
        match self {
            BoundRule::SccWide => "SCC-wide",
            BoundRule::SizedVariables => "SCC-wide over the sized variables",
            BoundRule::OpenPart => "on the open part",
        }
    }
}

/// Infers a bound, or says why there is none.
pub fn infer(its: &Its, limits: &Limits) -> Result<Complexity, String> {
    infer_with(its, limits, true)
}

/// [`infer`], with sizes per result variable ([`size_graph`]) where the SCC-wide ones are
/// stuck only if `size_graph`.
fn infer_with(its: &Its, limits: &Limits, size_graph: bool) -> Result<Complexity, String> {
    infer_opts(its, limits, size_graph, false)
}

/// The termination proof of an ITS that its bounds are inferred from, with the twn loops that
/// close it where the ranking functions leave some loop.
type TerminationProof = (Vec<SccProof>, Vec<TwnLoop>);

/// The termination proof of `its`, or why there is none.
fn prove_terminating(its: &Its, limits: &Limits) -> Result<TerminationProof, String> {
    let proved = crate::trace::step("ranking", || termination::prove(its, limits));
    match proved {
        Termination::Yes(p) => Ok((p, Vec::new())),
        Termination::Maybe(reason, _) => {
            crate::trace::step("twn", || twn::prove_with_twn(its, limits)).ok_or(reason)
        }
    }
}

/// [`infer_with`] without sizes per result variable, and the termination proof it used (for
/// [`relational_retry`], which reuses it).
fn first_attempt(
    its: &Its,
    limits: &Limits,
) -> (Result<Complexity, String>, Option<TerminationProof>) {
    let (proof, twn) = match prove_terminating(its, limits) {
        Ok(p) => p,
        Err(reason) => return (Err(reason), None),
    };
    let mut ctx = Ctx::new(its, limits);
    ctx.twn = twn.clone();
    ctx.size_graph = false;
    (bounds(ctx, proof.clone()), Some((proof, twn)))
}

/// A bound of the cost of the computation trees of a recursive ITS, from its branch ITS
/// ([`crate::recursion`]); only for a linear recursion, where every entry into an SCC unfolds
/// inside it as a path. The runtime bounds count uses in the tree: a transition on no cycle
/// runs as often as its source is reached, one leaving an SCC as often as its sibling inside it
/// (both are copies of one use), or once per entry into the SCC.
pub fn infer_tree(branches: &Branches, limits: &Limits) -> Result<Complexity, String> {
    let its = &branches.its;
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    for locs in graph::sccs(its, &all) {
        let inside = graph::inside(its, &all, &locs);
        for &i in &inside {
            let siblings = inside
                .iter()
                .filter(|&&j| branches.origin[j] == branches.origin[i])
                .count();
            if siblings > 1 {
                return Err(format!(
                    "a transition calls its own SCC more than once (t{} of the recursive ITS): \
                     no polynomial bound is looked for",
                    branches.origin[i]
                ));
            }
        }
    }
    infer_in(its, limits, false, false, Some(&branches.origin))
}

/// [`infer_with`], with guard caps as resets where an SCC is stuck ([`guard_cap`]) only
/// if `caps`.
fn infer_opts(
    its: &Its,
    limits: &Limits,
    size_graph: bool,
    caps: bool,
) -> Result<Complexity, String> {
    infer_in(its, limits, size_graph, caps, None)
}

/// [`infer_opts`]; counting uses in computation trees when `tree` gives the origin of each
/// transition of a branch ITS ([`infer_tree`]).
fn infer_in(
    its: &Its,
    limits: &Limits,
    size_graph: bool,
    caps: bool,
    tree: Option<&[usize]>,
) -> Result<Complexity, String> {
    let (proof, twn) = prove_terminating(its, limits)?;
    let mut ctx = Ctx::new(its, limits);
    ctx.twn = twn;
    ctx.size_graph = size_graph;
    ctx.caps_allowed = caps;
    ctx.tree = tree.map(<[usize]>::to_vec);
    bounds(ctx, proof)
}

/// The runtime and size bounds of [`infer`] from a termination proof the caller gives
/// (one [`SccProof`] per cyclic SCC, each step's function checked by the caller): a proof
/// whose ranking functions are not those Z3 happens to return first.
pub fn infer_from_proof(
    its: &Its,
    proof: Vec<SccProof>,
    limits: &Limits,
) -> Result<Complexity, String> {
    bounds(Ctx::new(its, limits), proof)
}

/// The runtime and size bounds of every SCC in turn, and the total cost.
fn bounds(mut ctx: Ctx, proof: Vec<SccProof>) -> Result<Complexity, String> {
    let its = ctx.its;
    let _bounds = crate::trace::phase("runtime and size bounds");
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    for locs in graph::sccs(its, &all) {
        let inside = graph::inside(its, &all, &locs);
        if inside.is_empty() {
            ctx.trivial_component(&locs);
        } else {
            let scc = proof
                .iter()
                .find(|p| p.locations == locs)
                .ok_or("no termination proof for an SCC")?;
            let _scc = crate::trace::phase_at(2, || {
                format!(
                    "SCC of {} locations, {} transitions",
                    locs.len(),
                    inside.len()
                )
            });
            let done = ctx.scc(scc);
            if done.is_err() {
                ctx.note_fallback_calls();
            }
            done?;
        }
    }
    ctx.note_fallback_calls();
    let mut total = Bound::constant(0);
    let mut transition_bounds = Vec::new();
    for i in 0..its.transitions.len() {
        let rb = ctx.rb[i].clone().unwrap_or(Bound::Infinite);
        let t = &its.transitions[i];
        let source = t.source;
        let cost = if let Some(c) = t.cost.as_constant() {
            Bound::constant(c)
        } else {
            Bound::of_poly(&t.cost, &mut |v| ctx.var_size(i, source, v))
        };
        total = total.add(&rb.mul(&cost));
        transition_bounds.push(rb);
    }
    Ok(Complexity {
        bound: total,
        transition_bounds,
        proof,
        twn: ctx.twn.clone(),
        used_size_graph: ctx.rvg_used,
        bound_functions: ctx.bound_functions.clone(),
    })
}

/// As [`infer`]; when that finds no finite bound, or one of degree 2 or more, retries on
/// refinements of the ITS (same runs, same costs) and keeps the best bound ([`better`]): partial evaluation of the SCCs without a proof
/// ([`crate::preprocess::refine_by_partial_evaluation`]), then unfolding by the last
/// transition ([`crate::preprocess::refine`]). Returns the ITS the result's transition
/// indices refer to. The retries after a first polynomial bound get about twice the first
/// attempt's time ([`Limits::for_retry`]); [`infer_lowest`] counts them instead.
pub fn infer_refining(its: &Its, limits: &Limits) -> (Its, Result<Complexity, String>) {
    let mut report = |_: &Its, _: &Complexity| 1;
    search(its, limits, &mut report, false)
}

/// [`infer_refining`] for a caller that can answer with the best bound found so far when its
/// deadline passes (`symex its`' watchdog): `report` gets each better finite bound (of the ITS
/// it names) as soon as it is found and returns the degree no bound can go below — that of a
/// lower bound it proved —, where the search stops (`O(n)` beside `Omega(n^1)`; beside
/// `Omega(1)` a constant bound is looked for). The retries are budgeted by solver queries
/// alone (twice the first attempt's plus [`REFINEMENT_EXTRA_QUERIES`], within `limits`), so
/// that the degree found does not depend on the machine's load: a time budget cut SAS10's `complex` to `O(n²)` under load and
/// `O(n)` alone. Such retries may run into the deadline; what `report` got is the answer then.
pub fn infer_lowest(
    its: &Its,
    limits: &Limits,
    report: &mut dyn FnMut(&Its, &Complexity) -> u32,
) -> (Its, Result<Complexity, String>) {
    search(its, limits, report, true)
}

/// [`infer_refining`] and [`infer_lowest`]: `counted` says whether the retries after a first
/// polynomial bound are budgeted by queries alone.
fn search(
    its: &Its,
    limits: &Limits,
    report: &mut dyn FnMut(&Its, &Complexity) -> u32,
    counted: bool,
) -> (Its, Result<Complexity, String>) {
    let _counted = counted.then(termination::count_retries);
    let started = Instant::now();
    let asked = crate::smt::queries();
    // Without the graph's sizes first: a bound that needs them may be coarser than one a
    // refinement finds with the SCC-wide sizes (a loop that only runs in the first round).
    let (first, proof) = crate::trace::step("first attempt", || first_attempt(its, limits));
    let open = first.clone();
    let attempt = First {
        took: started.elapsed(),
        asked: crate::smt::queries() - asked,
    };
    let mut best = Best::new(its, first, report);
    if best.settled() {
        return best.into_pair();
    }
    if relational_retry::stuck_on_sizes(&open) {
        relational_retry::infer_with_relational_invariants(its, limits, attempt, proof, &mut best);
    }
    refine_and_infer(its, limits, attempt, &mut best);
    if !best.settled() && Instant::now() < limits.deadline {
        // Then with the graph's sizes, on the ITS as given, within the whole budget.
        let _phase = crate::trace::phase("sizes per result variable");
        let c = infer_with(its, limits, true);
        best.offer(its, c);
    }
    if !best.settled() && Instant::now() < limits.deadline {
        last_resorts(its, limits, attempt, &mut best);
    }
    // Only for a file still without a polynomial bound: it chains whole loop bodies, and the
    // files it bounds have no other.
    if rank(&best.result) < 2
        && Instant::now() < limits.deadline
        && refinements().any(|r| r == "cases")
    {
        case_split(its, limits, attempt, &open, &mut best);
    }
    best.into_pair()
}

/// The refinements to try, in order: `ITS_REFINE` (comma-separated), by default
/// `pe,unfold,wide,merged,cases` (`consts` only when asked for).
fn refinements() -> impl Iterator<Item = String> {
    std::env::var("ITS_REFINE")
        .unwrap_or_else(|_| "pe,unfold,wide,merged,cases".into())
        .split(',')
        .map(str::to_string)
        .collect::<Vec<_>>()
        .into_iter()
}

/// The last try of a [`search`] without a polynomial bound: the SCCs without a bound after the
/// first attempt `first`
/// chained to one head each and split on phase atoms
/// ([`crate::preprocess::refine_by_case_split`]: T2's `fun5`, Loopus' `Example2`), within the
/// budget of a retry after `attempt`. Last, because it chains whole loop bodies and asks
/// one query per lap and candidate atom: the other refinements and fallbacks, which bound
/// more files, keep their time.
fn case_split(
    its: &Its,
    limits: &Limits,
    attempt: First,
    first: &Result<Complexity, String>,
    best: &mut Best,
) {
    let retry = attempt.limits(limits);
    // The chaining, the laps' invariants and the closedness queries (one per lap and candidate
    // atom, per split) ask more than a retry's inference: a budget of their own, and one more
    // for the inference on the result (where retries are counted: with a retry's budget of
    // 1 000 queries beyond twice the first attempt's, the tests' `fun5` and `Example2` got no
    // bound).
    let refined = {
        let _budget = termination::retries_counted().then(|| {
            crate::smt::query_budget(attempt.asked.saturating_mul(2) + CASE_SPLIT_QUERIES)
        });
        let targets = refinement_targets(its, first, &retry);
        crate::preprocess::refine_by_case_split(its, &targets, retry.query_timeout, retry.deadline)
    };
    if let Some(refined) = refined {
        let retry = attempt.limits(limits);
        let _budget = attempt.budget();
        let c = infer_with(&refined, &retry, false);
        best.offer(&refined, c);
    }
}

/// The queries [`case_split`]'s refinement may ask beyond twice the first attempt's, where
/// retries are counted ([`termination::retries_counted`]).
const CASE_SPLIT_QUERIES: u64 = 6000;

/// The best answer of a [`search`] so far, and whom to tell of a better one.
struct Best<'r> {
    /// The ITS the result's transition indices refer to.
    its: Its,
    result: Result<Complexity, String>,
    /// The degree at which the search stops (`report`'s last answer; 1 before any).
    floor: u32,
    report: &'r mut dyn FnMut(&Its, &Complexity) -> u32,
}

impl<'r> Best<'r> {
    /// The first answer `first` of `its`, reported when it is finite.
    fn new(
        its: &Its,
        first: Result<Complexity, String>,
        report: &'r mut dyn FnMut(&Its, &Complexity) -> u32,
    ) -> Best<'r> {
        crate::trace::note(|| outcome(&first));
        let mut best = Best {
            its: its.clone(),
            result: first,
            floor: 1,
            report,
        };
        best.tell();
        best
    }

    /// Keeps `result` (of `its`) when it is [`better`], and reports it when it is finite.
    fn offer(&mut self, its: &Its, result: Result<Complexity, String>) {
        crate::trace::note(|| outcome(&result));
        if better(&result, &self.result) {
            self.its = its.clone();
            self.result = result;
            self.tell();
        }
    }

    /// Reports the result when it is finite and takes the floor the caller answers.
    fn tell(&mut self) {
        if let Ok(c) = &self.result {
            if rank(&self.result) > 0 {
                self.floor = (self.report)(&self.its, c);
            }
        }
    }

    /// Whether the search can stop: a polynomial bound of degree at most the floor.
    fn settled(&self) -> bool {
        degree(&self.result).is_some_and(|d| d <= self.floor)
    }

    fn into_pair(self) -> (Its, Result<Complexity, String>) {
        (self.its, self.result)
    }
}

/// The first attempt of a [`search`], which budgets its retries: it took `took` and asked
/// `asked` solver queries. A retry gets about twice the first attempt's time
/// ([`Limits::for_retry`]), or, where retries are counted ([`termination::retries_counted`]:
/// [`infer_lowest`], and under a resource limit), twice its queries plus
/// [`REFINEMENT_EXTRA_QUERIES`].
#[derive(Clone, Copy)]
struct First {
    took: Duration,
    asked: u64,
}

/// Why a first attempt has no bound when an SCC's runtime and size bounds wait for each
/// other ([`Ctx::scc`]); [`relational_retry`] retries such an attempt.
const STUCK_SIZES: &str = "runtime and size bounds of an SCC depend on each other";

/// The solver queries a retry may ask beyond twice the first attempt's, where retries are
/// counted, whether the first attempt found a polynomial bound or not. Their time budget (twice
/// the first attempt's time plus 2 s) was worth about this many small queries on a quiet
/// machine, and the refinements ask for about that many: partial evaluation of
/// Flores-Montoya's `realheapsort` asks 1 547 queries before its inference, T2's `spctrm`
/// 2 300, Loopus' `Example1` (first bound `O(n²)`, `O(n)` from the refinement) 1 559 and
/// T2's `ud` (`O(n)`, then `O(1)`) 1 540. With 1 000 the first two lost their bound and the
/// last two the tighter one (`tests/retry_budget.rs`).
const REFINEMENT_EXTRA_QUERIES: u64 = 10_000;

impl First {
    /// The limits of a retry.
    fn limits(&self, limits: &Limits) -> Limits {
        limits.for_retry(self.took)
    }

    /// The query budget of a retry (none: the limits bound it).
    fn budget(&self) -> Option<crate::smt::QueryBudget> {
        refinement_budget(self.asked)
    }
}

/// The query budget of a retry of [`infer_lowest`] after a first attempt that asked
/// `first_queries` solver queries, where retries are counted ([`termination::retries_counted`]):
/// twice as many plus [`REFINEMENT_EXTRA_QUERIES`]; otherwise `None` (the retry's limits from
/// [`Limits::for_retry`] bound it).
pub fn refinement_budget(first_queries: u64) -> Option<crate::smt::QueryBudget> {
    termination::retries_counted().then(|| {
        crate::smt::query_budget(first_queries.saturating_mul(2) + REFINEMENT_EXTRA_QUERIES)
    })
}

/// The refinements of a [`search`] after a first answer without a bound of degree at most the
/// floor: partial evaluation, unfolding, wide unfolding, merged exits, each kept when it ranks better, each
/// within the budget of a retry after `attempt` ([`First`]).
fn refine_and_infer(its: &Its, limits: &Limits, attempt: First, best: &mut Best) {
    let mut retry = attempt.limits(limits);
    let mut budget = attempt.budget();
    // `consts` is not in the default: on T2's `broydn…fixed` it ended with `O(n^4)` where
    // the default finds `O(n^3)`, and it costs files without a bound one more retry.
    let mode: Vec<String> = refinements().collect();
    // The targets refer to the original ITS's transitions: computed before a refinement wins.
    let targets = mode
        .iter()
        .any(|how| how == "pe" || how == "consts")
        .then(|| {
            let _phase = crate::trace::phase("refinement targets");
            refinement_targets(its, &best.result, &retry)
        });
    for how in mode.iter().map(String::as_str) {
        let _phase = crate::trace::phase_at(1, || format!("retry {how}"));
        let refine = crate::trace::phase("refine");
        let refined = match (how, &targets) {
            ("pe", Some(sccs)) => crate::preprocess::refine_by_partial_evaluation(
                its,
                sccs,
                retry.query_timeout,
                retry.deadline,
            ),
            ("unfold", _) => crate::preprocess::refine(its, retry.query_timeout),
            ("wide", _) => crate::preprocess::refine_wide(its, retry.query_timeout),
            // Cheap, and last: its own budget, so that the earlier retries running long
            // (under load) do not leave it none (counterex1a).
            ("merged", _) => {
                retry.deadline = attempt.limits(limits).deadline;
                drop(budget.take());
                budget = attempt.budget();
                crate::preprocess::refine_merged(its, retry.query_timeout)
            }
            // Last (when asked for), with its own budget too: versions by the constants the
            // SCCs assign (Flores-Montoya's `sipmamergesort`), when all properties at once
            // were too many.
            ("consts", Some(sccs)) => {
                retry.deadline = attempt.limits(limits).deadline;
                drop(budget.take());
                budget = attempt.budget();
                crate::preprocess::refine_by_constants(
                    its,
                    sccs,
                    retry.query_timeout,
                    retry.deadline,
                )
            }
            _ => None,
        };
        drop(refine);
        let Some(refined) = refined else { continue };
        if how == "consts" {
            // Its versions' invariants cost more queries than the inference on them
            // (`sipmamergesort`: 1200 against 50): the inference gets a budget of its own.
            retry.deadline = attempt.limits(limits).deadline;
            drop(budget.take());
            budget = attempt.budget();
        }
        // A refinement's bound is taken when it is better: polynomial before exponential.
        // The versions by constants copy an outer loop's sizes into many locations: their
        // inner loops need the sizes per result variable (`sipmamergesort`).
        let c = crate::trace::step("infer", || infer_with(&refined, &retry, how == "consts"));
        best.offer(&refined, c);
        if best.settled() {
            break;
        }
    }
}

/// The last tries of a [`search`], each while the search is not settled: the ITS
/// the termination prover's own refinement proves terminating (relational invariants
/// before the partial evaluation: T2's `sumit`), then the ITS with its non-linear monomials of
/// unchanged variables as variables ([`monomials`]), then the ITS as given with guard caps
/// ([`guard_cap`]: SAS10's `counterex1`). Each gets the budget of a retry after `attempt`
/// ([`First`]). Caps come last: where a refinement bounds the ITS, its bound is tighter.
fn last_resorts(its: &Its, limits: &Limits, attempt: First, best: &mut Best) {
    let limits_now = || attempt.limits(limits);
    let last = limits_now();
    let budget = attempt.budget();
    let phase = crate::trace::phase("last resort: termination prover's refinement");
    if let (refined, Termination::Yes(_)) = termination::prove_refining(its, &last) {
        if refined != *its {
            let c = infer_with(&refined, &last, false);
            best.offer(&refined, c);
        }
    }
    drop(budget);
    drop(phase);
    // Monomials of unchanged variables as variables ([`monomials`]: ABC's `ex04`, `B³ − 2·A`).
    if !best.settled() && Instant::now() < limits.deadline {
        if let Some(lifted) = monomials::lift(its) {
            let _phase = crate::trace::phase("last resort: monomials");
            let _budget = attempt.budget();
            let c = infer_with(&lifted.its, &limits_now(), false);
            if let Ok(Some(c)) = c.map(|c| lifted.lower_complexity(c)) {
                best.offer(&lifted.its, Ok(c));
            }
        }
    }
    // Sign cases of powers in guards ([`crate::preprocess::split_power_signs`]: VMCAI'05's
    // `poly3`, `B³ ≥ C`), then unfolded: the case `B ≤ −1` cannot follow itself there.
    if !best.settled() && Instant::now() < limits.deadline {
        if let Some(split) = crate::preprocess::split_power_signs(its) {
            let _budget = attempt.budget();
            let now = limits_now();
            let c = infer_with(&split, &now, false);
            best.offer(&split, c);
            if !best.settled() && Instant::now() < limits.deadline {
                if let Some(unfolded) = crate::preprocess::refine(&split, now.query_timeout) {
                    let c = infer_with(&unfolded, &now, false);
                    best.offer(&unfolded, c);
                }
            }
        }
    }
    // Phases of a non-increasing variable ([`crate::preprocess::split_monotone_phases`]:
    // T2's `polyrank4`, `C ≥ 0` then `C ≤ −1`).
    if !best.settled() && Instant::now() < limits.deadline {
        let now = limits_now();
        if let Some(split) = crate::preprocess::split_monotone_phases(its, now.query_timeout) {
            let _budget = attempt.budget();
            let c = infer_with(&split, &now, false);
            best.offer(&split, c);
        }
    }
    if !best.settled() && Instant::now() < limits.deadline {
        let _phase = crate::trace::phase("last resort: guard caps");
        let _budget = attempt.budget();
        let c = infer_opts(its, &limits_now(), true, true);
        best.offer(its, c);
    }
}

/// An inference's answer in a line of the trace ([`crate::trace`]).
fn outcome(r: &Result<Complexity, String>) -> String {
    match r {
        Ok(c) => format!(
            "bound {}",
            c.bound.asymptotic().unwrap_or_else(|| "none".into())
        ),
        Err(reason) => format!("no bound: {reason}"),
    }
}

/// How good an inference's answer is: 2 polynomial, 1 finite (exponential), 0 none.
fn rank(r: &Result<Complexity, String>) -> u8 {
    match r {
        Ok(c) if c.bound.is_polynomial() => 2,
        Ok(c) if c.bound != Bound::Infinite => 1,
        _ => 0,
    }
}

/// The degree of a polynomial answer.
fn degree(r: &Result<Complexity, String>) -> Option<u32> {
    match r {
        Ok(Complexity {
            bound: Bound::Poly(p),
            ..
        }) => Some(p.degree()),
        _ => None,
    }
}

/// Whether `a` is better than `b`: a higher [`rank`], or a polynomial of a lower degree (the
/// first polynomial found need not be the tightest one a refinement proves: T2's `sumit`).
fn better(a: &Result<Complexity, String>, b: &Result<Complexity, String>) -> bool {
    rank(a) > rank(b) || matches!((degree(a), degree(b)), (Some(x), Some(y)) if x < y)
}

/// The SCCs a refinement should work on after `first` failed: those with a transition
/// without a finite runtime bound, else those without a termination proof by linear and
/// multiphase functions, else every cyclic SCC (runtime and size bounds that wait for each
/// other). A proof by a positive-part function ([`crate::clamped_ranking`]) does not count:
/// its bound is coarse where no linear function ranks, the part a refinement should work on as
/// if it had no proof. Flores-Montoya's `realheapsort`, bounded by the first attempt with such a
/// step: refining that SCC alone gets `O(n^2)` with 1 639 queries, every cyclic SCC 2 467.
fn refinement_targets(
    its: &Its,
    first: &Result<Complexity, String>,
    limits: &Limits,
) -> Vec<Vec<usize>> {
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    let cyclic: Vec<Vec<usize>> = graph::sccs(its, &all)
        .into_iter()
        .filter(|locs| !graph::inside(its, &all, locs).is_empty())
        .collect();
    if let Ok(c) = first {
        let open: Vec<Vec<usize>> = cyclic
            .iter()
            .filter(|locs| {
                graph::inside(its, &all, locs)
                    .iter()
                    .any(|&i| c.transition_bounds[i] == Bound::Infinite)
            })
            .cloned()
            .collect();
        if !open.is_empty() {
            return open;
        }
    }
    let unproved = {
        let _off = crate::clamped_ranking::switched_off();
        termination::unproved_sccs(its, limits)
    };
    if unproved.is_empty() {
        cyclic
    } else {
        unproved
    }
}

/// The fallback calls (a size bound of an SCC invariant, a ranking function found again, a
/// multiphase or amortised step, each with its checks) one inference may make. A count, not
/// a time, so that what they prove is the same on a quiet and on a loaded machine: with 4 s
/// of wall time for them all, T2's `svdcmp…fixed` was left with 7 open transitions at load 7
/// and 19 at load 12 (256 queries of bounds instead of 591). 200 is what the 4 s stood for
/// under a resource limit, where each call was charged 20 ms.
const FALLBACK_CALLS: u32 = 200;

struct Ctx<'a> {
    its: &'a Its,
    /// Runtime bound per transition.
    rb: Vec<Option<Bound>>,
    /// Per transition, the function found again for its runtime bound ([`BoundFunction`]).
    bound_functions: Vec<Option<BoundFunction>>,
    /// Size bound per location and variable, before leaving the location.
    pre: Vec<Vec<Option<Bound>>>,
    /// The SCC being processed: its locations and transitions.
    current: Option<(Vec<usize>, Vec<usize>)>,
    /// Size bounds of the current SCC's variables, and those being computed.
    scc_size: HashMap<usize, Bound>,
    in_progress: Vec<usize>,
    /// Variables of the current SCC whose [`Ctx::invariant_size`] was tried.
    invariant_tried: std::collections::HashSet<usize>,
    temp_bounds: HashMap<(usize, usize), Option<TempBound>>,
    /// Per (transition, variable): [`update_bound`]'s bound of the new value.
    update_bounds: HashMap<(usize, usize), Option<TempBound>>,
    /// Per (entry, ranking function): [`value_upper_bound`]'s bound of the function after
    /// the entry.
    upper_bounds: HashMap<(usize, Poly), Option<TempBound>>,
    /// Per (transition, variable): [`non_growing_above`]'s `k`.
    growth_caps: HashMap<(usize, usize), Option<i128>>,
    /// Per (transition, variable): whether the update never grows `|v|`.
    non_growing: HashMap<(usize, usize), bool>,
    /// Per ranking step (its removed transitions): whether its function is
    /// non-increasing on every transition of the current SCC.
    scc_wide: HashMap<Vec<usize>, bool>,
    /// The result variable graph of the current SCC ([`size_graph`]), the bound of each of
    /// its SCCs computed so far, those still waiting for a runtime bound (valid while the
    /// number of known runtime bounds stays the one recorded), and the sizes per
    /// (location, variable) from it.
    rvg: Option<Rc<Rvg>>,
    rvg_bounds: HashMap<usize, Bound>,
    rvg_waiting: (usize, HashSet<usize>),
    rvg_at: HashMap<(usize, usize), Bound>,
    /// Whether [`pick_size`] takes the graph's bound where the SCC-wide one waits.
    rvg_eager: bool,
    /// Whether [`Ctx::local_change`] takes guard caps ([`guard_cap`]) where a change waits.
    caps_eager: bool,
    /// Whether [`Ctx::scc`] may turn to guard caps at all.
    caps_allowed: bool,
    /// Whether [`Ctx::scc`] may turn to the graph's sizes at all.
    size_graph: bool,
    /// Whether an infinite runtime bound of a step is taken (once the SCC is stuck
    /// without: waiting lets [`Ctx::resynthesize`] look for a better function first).
    accept_infinite: bool,
    /// How deep [`Ctx::rvg_guard_cap`] calls are nested, and whether one was refused.
    rvg_cap_depth: usize,
    rvg_cap_refused: bool,
    /// Whether [`pick_size`] took a bound of the graph.
    rvg_used: bool,
    /// Per (transition, variable): [`capped_by_guard`]'s bound.
    guard_caps: HashMap<(usize, usize), Option<TempBound>>,
    solver: Box<dyn symex_solver::Solver>,
    /// When the proof gives up.
    deadline: Instant,
    /// A solver with a short time limit, and the time left for its fallback queries
    /// ([`Ctx::invariant_size`], [`Ctx::resynthesize`]): on large SCCs with many
    /// unbounded variables they would otherwise take most of the time.
    quick: Box<dyn symex_solver::Solver>,
    /// The fallback calls left ([`FALLBACK_CALLS`]).
    fallback_calls_left: u32,
    /// The loops bounded by their closed forms ([`twn_entries`]).
    twn: Vec<TwnLoop>,
    /// For a branch ITS, the transition of the recursive ITS each transition was split from:
    /// runtime bounds then count uses in the computation trees ([`infer_tree`]).
    tree: Option<Vec<usize>>,
    /// Per (ranking step's removed transitions, transition): how the step's function
    /// changes there ([`amortised`]).
    amortised: HashMap<(Vec<usize>, usize), amortised::Change>,
}

impl<'a> Ctx<'a> {
    fn new(its: &'a Its, limits: &Limits) -> Ctx<'a> {
        Ctx {
            its,
            rb: vec![None; its.transitions.len()],
            bound_functions: vec![None; its.transitions.len()],
            pre: vec![vec![None; its.arity()]; its.locations.len()],
            current: None,
            scc_size: HashMap::new(),
            in_progress: Vec::new(),
            invariant_tried: Default::default(),
            temp_bounds: HashMap::new(),
            update_bounds: HashMap::new(),
            upper_bounds: HashMap::new(),
            growth_caps: HashMap::new(),
            non_growing: HashMap::new(),
            scc_wide: HashMap::new(),
            rvg: None,
            rvg_bounds: HashMap::new(),
            rvg_waiting: (0, HashSet::new()),
            rvg_at: HashMap::new(),
            rvg_eager: false,
            caps_eager: false,
            caps_allowed: false,
            accept_infinite: false,
            size_graph: true,
            rvg_cap_depth: 0,
            rvg_cap_refused: false,
            rvg_used: false,
            guard_caps: HashMap::new(),
            solver: crate::smt::solver(limits.query_timeout),
            deadline: limits.deadline,
            quick: crate::smt::solver(limits.query_timeout.min(termination::QUICK_TIMEOUT)),
            fallback_calls_left: FALLBACK_CALLS,
            twn: Vec::new(),
            tree: None,
            amortised: HashMap::new(),
        }
    }

    /// Sizes entering location set `locs` from outside (and the start values if the start
    /// location is among them).
    fn entry_size(&mut self, locs: &[usize], v: usize) -> Option<Bound> {
        let mut s = Bound::constant(0);
        if locs.contains(&self.its.start) {
            s = Bound::start_var(v);
        }
        for e in 0..self.its.transitions.len() {
            let t = &self.its.transitions[e];
            if !locs.contains(&t.source) && locs.contains(&t.target()) {
                s = s.add(&self.post_size(e, v)?);
            }
        }
        Some(s)
    }

    /// `SB(e, v)`: a bound of `|v|` after transition `e`: the update composed with the
    /// sizes before, for the update or an equal form under the guard's equalities
    /// (`B − 1` with `B = A` is also `A − 1`), whichever gives a finite bound first.
    fn post_size(&mut self, e: usize, v: usize) -> Option<Bound> {
        let t = &self.its.transitions[e];
        let source = t.source;
        let mut pending = false;
        for p in guard_variants(t, &t.update()[v]) {
            match self.compose(e, source, &p) {
                Some(Bound::Infinite) => {}
                Some(b) => return Some(b),
                None => pending = true,
            }
        }
        (!pending).then_some(Bound::Infinite)
    }

    /// `|p|` with the sizes of its variables at `e`; `None` when one is not known yet.
    fn compose(&mut self, e: usize, source: usize, p: &Poly) -> Option<Bound> {
        let mut missing = false;
        let b = Bound::of_poly(p, &mut |w| match self.var_size_opt(e, source, w) {
            Some(b) => b,
            None => {
                missing = true;
                Bound::Infinite
            }
        });
        (!missing).then_some(b)
    }

    /// The size of variable `w` of transition `e` (program variable at `source`, or
    /// temporary), `Infinite` when unknown for good.
    fn var_size(&mut self, e: usize, source: usize, w: usize) -> Bound {
        self.var_size_opt(e, source, w).unwrap_or(Bound::Infinite)
    }

    /// As [`Ctx::var_size`]; `None` when it depends on a runtime bound not known yet.
    fn var_size_opt(&mut self, e: usize, source: usize, w: usize) -> Option<Bound> {
        let n = self.its.arity();
        if w >= n {
            let Some(tb) = self.cached_temp_bound(e, w) else {
                return Some(Bound::Infinite);
            };
            return self.compose_sizes(e, source, &tb);
        }
        // The guard of `e` may bound `w` by a constant where `e` is taken.
        if let Some(k) = guard_constant(&self.its.transitions[e], w) {
            return Some(Bound::constant(k));
        }
        if let Some(b) = &self.pre[source][w] {
            return Some(b.clone());
        }
        match &self.current {
            Some((locs, _)) if locs.contains(&source) => {
                // One bound for the whole SCC, else per location from the result
                // variable graph.
                let scc_wide = self.scc_var_size(w);
                if scc_wide.as_ref().is_some_and(|b| *b != Bound::Infinite) {
                    return scc_wide;
                }
                if !self.rvg_eager {
                    return scc_wide;
                }
                let per_location = self.rvg_pre_size(e, w);
                let finite = per_location.as_ref().is_some_and(|b| *b != Bound::Infinite);
                self.rvg_used |= finite;
                pick_size(scc_wide, per_location, self.rvg_eager)
            }
            _ => None,
        }
    }

    /// [`temp_bound`] of temporary `w` of transition `e` (cached).
    fn cached_temp_bound(&mut self, e: usize, w: usize) -> Option<TempBound> {
        let key = (e, w);
        if !self.temp_bounds.contains_key(&key) {
            let n = self.its.arity();
            let tb = temp_bound(self.solver.as_mut(), &self.its.transitions[e], n, w);
            self.temp_bounds.insert(key, tb);
        }
        self.temp_bounds[&key].clone()
    }

    fn trivial_component(&mut self, locs: &[usize]) {
        for &l in locs {
            for v in 0..self.its.arity() {
                let s = self.entry_size(&[l], v).unwrap_or(Bound::Infinite);
                self.pre[l][v] = Some(s);
            }
            let reached = self.times_reached(&[l]);
            for i in 0..self.its.transitions.len() {
                if self.its.transitions[i].source == l {
                    self.rb[i] = Some(reached.clone());
                }
            }
        }
    }

    /// How often a run reaches the component `locs` (on no cycle with the rest): once on a path;
    /// in a computation tree ([`Ctx::tree`]) once per use of a transition entering it, plus the
    /// root.
    fn times_reached(&self, locs: &[usize]) -> Bound {
        if self.tree.is_none() {
            return Bound::constant(1);
        }
        let mut n = Bound::constant(if locs.contains(&self.its.start) { 1 } else { 0 });
        for (e, t) in self.its.transitions.iter().enumerate() {
            if locs.contains(&t.target()) && !locs.contains(&t.source) {
                n = n.add(self.rb[e].as_ref().unwrap_or(&Bound::Infinite));
            }
        }
        n
    }

    /// How often a transition `i` leaving the SCC `locs` runs: once on a path; in a computation
    /// tree as often as a copy of the same use inside the SCC, else once per entry.
    fn exit_times(&self, i: usize, locs: &[usize], inside: &[usize]) -> Bound {
        let Some(origin) = &self.tree else {
            return Bound::constant(1);
        };
        match inside.iter().find(|&&j| origin[j] == origin[i]) {
            Some(&j) => self.rb[j].clone().unwrap_or(Bound::Infinite),
            None => self.times_reached(locs),
        }
    }

    /// The size bound of `v` inside the current SCC; `None` while a runtime bound it
    /// needs is unknown.
    fn scc_var_size(&mut self, v: usize) -> Option<Bound> {
        if let Some(b) = self.scc_size.get(&v) {
            return Some(b.clone());
        }
        if self.in_progress.contains(&v) {
            // A cycle of dependencies between resets and increments.
            return Some(Bound::Infinite);
        }
        let (locs, inside) = self.current.clone()?;
        self.in_progress.push(v);
        let mut result = self.scc_var_size_uncached(&locs, &inside, v);
        if !result.as_ref().is_some_and(Bound::is_polynomial) {
            // No bound from the updates (yet): one from a non-increasing function that
            // bounds |v| needs no runtime bound of this SCC.
            if let Some(b) = self.invariant_size(&locs, &inside, v) {
                result = Some(b);
            }
        }
        let exponential = matches!(result, Some(Bound::Exp(_) | Bound::DoubleExp(_)));
        if result == Some(Bound::Infinite) || exponential {
            // Variables updated from each other: bounded together (an exponential bound
            // only gives way to a polynomial one: a turning pair, `periodic_size`).
            // (Waiting for a runtime bound it needs is not cached.)
            if let Some(b) = self.group_size(&locs, &inside, v) {
                if !exponential || b.as_ref().is_some_and(Bound::is_polynomial) {
                    result = b;
                }
            }
        }
        self.in_progress.retain(|x| *x != v);
        if let Some(b) = &result {
            self.scc_size.insert(v, b.clone());
        }
        result
    }

    /// `|v|` inside the current SCC from [`scc_size::invariant_bound`]'s `g`: at most `g`
    /// after the entry of each visit (`Σ_{e entering} |g_{target(e)}|(SB(e))`, and
    /// `|g_start|` of the start values if the run starts inside), and at most the sizes
    /// entering on the entry itself.
    fn invariant_size(&mut self, locs: &[usize], inside: &[usize], v: usize) -> Option<Bound> {
        if !self.invariant_tried.insert(v) || !self.fallback_left() {
            return None;
        }
        let its = self.its;
        let g = scc_size::invariant_bound(its, inside, v, self.quick.as_mut());
        self.charge_fallback();
        let g = g?;
        let mut total = self.entry_size(locs, v)?;
        if locs.contains(&its.start) {
            total = total.add(&Bound::of_poly(&g.get(its.start), &mut Bound::start_var));
        }
        for e in 0..its.transitions.len() {
            let t = &its.transitions[e];
            if !locs.contains(&t.source) && locs.contains(&t.target()) {
                total = total.add(&self.entry_value(e, &g.get(t.target()))?);
            }
        }
        Some(total)
    }

    /// `|v|` inside the current SCC: `M · (entry + Σ resets + Σ_t RB(t)·|r_t|)` where a
    /// transition updates `v' = a·v + r_t` (`|a| ≤ 1` adds `|r_t|`, a reset adds its value
    /// once) and `M = Π_{|a_t| ≥ 2} |a_t|^RB(t)`: divided by the factors applied so far,
    /// `|v|` only grows by the added parts, and each reset starts it anew.
    fn scc_var_size_uncached(
        &mut self,
        locs: &[usize],
        inside: &[usize],
        v: usize,
    ) -> Option<Bound> {
        let size = self.additive_size(locs, inside, v);
        if size == Some(Bound::Infinite) {
            // A power (`B' = B²`) may still have a doubly exponential bound.
            if let Some(power) = self.power_size(locs, inside, v) {
                return power;
            }
        }
        size
    }

    /// [`Ctx::scc_var_size_uncached`] from resets, additive and multiplicative updates.
    fn additive_size(&mut self, locs: &[usize], inside: &[usize], v: usize) -> Option<Bound> {
        let mut size = self.entry_size(locs, v)?;
        let mut growth = Bound::constant(1);
        for &i in inside {
            let its = self.its;
            if its.transitions[i].update()[v] == Poly::var(v) || self.is_non_growing(i, v) {
                // |v| does not grow: the step stays within the bound of what came before.
                continue;
            }
            if let Some(k) = self.growth_cap(i, v) {
                // |v'| ≤ max(|v|, k): like a reset to k.
                size = size.add(&Bound::constant(k));
                continue;
            }
            let (factor, change) = self.local_change(i, v)?;
            size = size.add(&change);
            growth = growth.mul(&factor);
        }
        Some(growth.mul(&size))
    }

    /// `|v|` in an SCC where a transition raises `v` to a power (`v' = a·v^k + r`, `k ≥ 2`,
    /// `r` free of `v`: size14's `B' = B²`), doubly exponential. With `C ≥ 2` above every
    /// `|a_t| + |r_t|` and every cap `k` of a step `|v'| ≤ max(|v|, k)`, `w = max(|v|, C)`
    /// changes on a step `v' = a·v^k + r` (`k ≥ 1`) to at most `(|a| + |r|)·w^k ≤ w^(k+1)`
    /// (`w^k` for `v' = ±v^k`), on a reset (`a = 0`) to `C ≤ w`, and not on a step that does
    /// not grow `|v|`. So after the SCC's steps `w ≤ w_0^(Π_t e_t^RB(t)) ≤
    /// 2^(w_0·2^(Σ_t ⌈log₂ e_t⌉·RB(t)))` (`log₂ w_0 ≤ w_0`), `w_0 ≤ entry + C`. `None` when no
    /// transition is such a power or one changes `v` in another way; `Some(None)` while a
    /// runtime bound or size it needs is unknown.
    fn power_size(&mut self, locs: &[usize], inside: &[usize], v: usize) -> Option<Option<Bound>> {
        let its = self.its;
        let powers = inside.iter().any(|&i| {
            exp_size::split_power(&its.transitions[i].update()[v], v)
                .is_some_and(|(a, k, _)| a != 0 && k >= 2)
        });
        if !powers {
            return None;
        }
        let mut c = Bound::constant(2);
        let mut exponent = Bound::constant(0);
        for &i in inside {
            let t = &its.transitions[i];
            let update = &t.update()[v];
            if *update == Poly::var(v) || self.is_non_growing(i, v) {
                continue;
            }
            if let Some(k) = self.growth_cap(i, v) {
                c = c.add(&Bound::constant(k));
                continue;
            }
            let (a, k, r) = exp_size::split_power(update, v)?;
            let Some(rest) = self.compose(i, t.source, &r) else {
                return Some(None);
            };
            c = c.add(&Bound::constant(a.abs())).add(&rest);
            if a == 0 {
                continue;
            }
            let e = if a.abs() == 1 && r.is_zero() {
                k
            } else {
                k + 1
            };
            let Some(rb) = self.rb[i].clone() else {
                return Some(None);
            };
            let log = crate::exp_bound::log2_ceil(i128::from(e));
            exponent = exponent.add(&rb.mul(&Bound::constant(i128::from(log))));
        }
        let Some(entry) = self.entry_size(locs, v) else {
            return Some(None);
        };
        Some(Some(entry.add(&c).mul(&exponent.pow2()).pow2()))
    }

    /// `|v| ≤ S = Σ_{u∈G} |u|` for `v`'s [`exp_size::dependency_group`] `G`: with
    /// `S' ≤ F_t·S + P_t` on each transition ([`exp_size::group_step`]),
    /// `S ≤ Π_{F_t ≥ 2} F_t^RB(t) · (S at the entries + Σ_t RB(t)·P_t)` (a transition
    /// with `F_t = 0` resets `S` and adds `P_t` once, one leaving the group unchanged
    /// nothing); when the steps only copy group variables ([`exp_size::group_max_step`]),
    /// the same with `M = max_{u∈G} |u|` and `F_t = 1`. `None` when `v` is alone or an
    /// update is not linear in the group;
    /// `Some(None)` while a runtime bound it needs is unknown.
    fn group_size(&mut self, locs: &[usize], inside: &[usize], v: usize) -> Option<Option<Bound>> {
        let its = self.its;
        let ts: Vec<_> = inside.iter().map(|&i| &its.transitions[i]).collect();
        let group = exp_size::dependency_group(&ts, its.arity(), v);
        if group.len() < 2 {
            return None;
        }
        let mut steps = Vec::new();
        for &i in inside {
            let t = &its.transitions[i];
            // A step that grows no |u| (`B' = B − 1` under `B ≥ 1`) does not grow S.
            if group
                .iter()
                .all(|&u| t.update()[u] == Poly::var(u) || self.is_non_growing(i, u))
            {
                continue;
            }
            steps.push((i, exp_size::group_step(t, &group)?));
        }
        // Only copies between the group's variables: the maximum grows by the added parts
        // alone (factor 1, or 0 for copies and resets), which keeps the bound polynomial.
        if steps.iter().any(|(_, (f, _))| *f >= 2) {
            // A turning update (`M² = −I`) keeps the sum within a constant factor.
            let ts: Vec<_> = steps
                .iter()
                .map(|(i, _)| (*i, &its.transitions[*i]))
                .collect();
            if let Some((k, turned)) = periodic_size::periodic_steps(&ts, &group) {
                let b = self.group_bound(locs, &group, &turned);
                return Some(b.map(|b| b.mul(&Bound::constant(k))));
            }
            let mut copies = Some(Vec::new());
            for (i, _) in &steps {
                let t = &its.transitions[*i];
                // |u'| ≤ max(|u|, k_u) ([`Ctx::growth_cap`]) is a copy plus a reset to k_u.
                let caps: Vec<Option<i128>> = group
                    .iter()
                    .map(|&u| {
                        if self.is_non_growing(*i, u) {
                            None
                        } else {
                            self.growth_cap(*i, u)
                        }
                    })
                    .collect();
                let mut keeps = |u: usize| {
                    let k = group.iter().position(|&w| w == u).and_then(|p| caps[p]);
                    k.is_some() || self.is_non_growing(*i, u)
                };
                // Else the maximum's linear growth (`D' = B + C` doubles it).
                let step = exp_size::group_max_step(t, &group, &mut keeps);
                let step = step.or_else(|| exp_size::group_max_linear_step(t, &group, &mut keeps));
                let step = step.map(|(f, mut r)| {
                    for (r, k) in r.iter_mut().zip(&caps) {
                        if let Some(k) = k {
                            *r = Poly::constant(*k);
                        }
                    }
                    (f, r)
                });
                copies = copies.zip(step).map(|(mut c, s)| {
                    c.push((*i, s));
                    c
                });
            }
            // The maximum where fewer steps multiply it (never more than the sum's).
            let growing =
                |s: &[(usize, (i128, Vec<Poly>))]| s.iter().filter(|(_, (f, _))| *f >= 2).count();
            if let Some(copies) = copies.filter(|c| growing(c) < growing(&steps)) {
                steps = copies;
            }
        }
        Some(self.group_bound(locs, &group, &steps))
    }

    /// The bound of [`Ctx::group_size`] from the steps `(t, (F_t, [r_u]))`.
    fn group_bound(
        &mut self,
        locs: &[usize],
        group: &std::collections::BTreeSet<usize>,
        steps: &[(usize, (i128, Vec<Poly>))],
    ) -> Option<Bound> {
        let mut size = Bound::constant(0);
        for &u in group {
            size = size.add(&self.entry_size(locs, u)?);
        }
        let mut growth = Bound::constant(1);
        for (i, (f, rests)) in steps {
            let source = self.its.transitions[*i].source;
            let mut added = Bound::constant(0);
            for r in rests {
                added = added.add(&self.compose(*i, source, r)?);
            }
            if *f == 0 {
                size = size.add(&added);
                continue;
            }
            if *f == 1 && added == Bound::constant(0) {
                continue;
            }
            let rb = self.rb[*i].clone()?;
            size = size.add(&rb.mul(&added));
            growth = growth.mul(&rb.base_pow(*f));
        }
        Some(growth.mul(&size))
    }

    /// How transition `i` changes `|v|`: `(|a|^RB, added)` for `v' = a·v + r` (the first
    /// form among the guard's variants with a finite bound); `None` while a runtime bound
    /// it needs is unknown.
    fn local_change(&mut self, i: usize, v: usize) -> Option<(Bound, Bound)> {
        let from_update = self.update_change(i, v);
        if matches!(&from_update, Some((f, c)) if *f == Bound::constant(1) && *c != Bound::Infinite)
        {
            return from_update;
        }
        // Growing, waiting for a runtime bound, or unbounded: a bound of the new value from
        // the guard alone, like a reset, needs neither.
        let growing =
            matches!(&from_update, Some((f, c)) if *f != Bound::Infinite && *c != Bound::Infinite);
        let reset = match self.guard_reset(i, v) {
            Some(Some(b)) if b != Bound::Infinite => return Some((Bound::constant(1), b)),
            Some(None) if !growing => None,
            _ => from_update,
        };
        if growing || !self.caps_eager {
            return reset;
        }
        // Waiting or unbounded: a cap from the guard (`|v'| ≤ max(|v|, cap)`) is also
        // like a reset to the cap ([`guard_cap`]).
        match self.scc_guard_cap(i, v) {
            Some(Some(cap)) if cap != Bound::Infinite => Some((Bound::constant(1), cap)),
            _ => reset,
        }
    }

    /// [`local_size::update_bound`] composed with the sizes before `i` (cached per
    /// transition and variable); `None` without one, `Some(None)` while a size it needs
    /// is unknown.
    fn guard_reset(&mut self, i: usize, v: usize) -> Option<Option<Bound>> {
        let key = (i, v);
        if !self.update_bounds.contains_key(&key) {
            let t = &self.its.transitions[i];
            let b = update_bound(self.solver.as_mut(), t, self.its.arity(), v, &t.update()[v]);
            self.update_bounds.insert(key, b);
        }
        let ub = self.update_bounds[&key].clone()?;
        Some(self.compose_sizes_before(i, &ub))
    }

    /// `ub` with the size bounds of its variables before transition `i`; `None` while one
    /// of them is unknown.
    fn compose_sizes_before(&mut self, i: usize, ub: &TempBound) -> Option<Bound> {
        let source = self.its.transitions[i].source;
        self.compose_sizes(i, source, ub)
    }

    /// `ub` with [`Ctx::var_size_opt`]`(i, source, ·)` for its variables; `None` while one
    /// of them is unknown.
    fn compose_sizes(&mut self, i: usize, source: usize, ub: &TempBound) -> Option<Bound> {
        let mut missing = false;
        let b = ub.compose(&mut |w| match self.var_size_opt(i, source, w) {
            Some(b) => b,
            None => {
                missing = true;
                Bound::Infinite
            }
        });
        (!missing).then_some(b)
    }

    /// [`Ctx::local_change`] from the update's form alone.
    fn update_change(&mut self, i: usize, v: usize) -> Option<(Bound, Bound)> {
        let t = &self.its.transitions[i];
        let source = t.source;
        let mut result = Some((Bound::constant(1), Bound::Infinite));
        for p in guard_variants(t, &t.update()[v]) {
            let b = match exp_size::split_linear(&p, v) {
                // A reset: the new value does not depend on v.
                Some((0, r)) => self.compose(i, source, &r).map(|r| (Bound::constant(1), r)),
                // v' = a·v + r, at most RB(t) times.
                Some((a, r)) => match (self.compose(i, source, &r), self.rb[i].clone()) {
                    (Some(incr), Some(rb)) => Some((rb.base_pow(a), rb.mul(&incr))),
                    _ => None,
                },
                None => Some((Bound::constant(1), Bound::Infinite)),
            };
            match b {
                Some((f, c)) if f != Bound::Infinite && c != Bound::Infinite => {
                    return Some((f, c));
                }
                Some(_) => {}
                None => result = None,
            }
        }
        result
    }

    /// [`non_growing_above`]'s `k` for the update of `v` on `i` (cached).
    fn growth_cap(&mut self, i: usize, v: usize) -> Option<i128> {
        if let Some(k) = self.growth_caps.get(&(i, v)) {
            return *k;
        }
        let t = &self.its.transitions[i];
        let k = non_growing_above(self.quick.as_mut(), t, v, &t.update()[v]);
        self.growth_caps.insert((i, v), k);
        k
    }

    fn is_non_growing(&mut self, i: usize, v: usize) -> bool {
        if let Some(b) = self.non_growing.get(&(i, v)) {
            return *b;
        }
        let t = &self.its.transitions[i];
        let b = non_growing(self.solver.as_mut(), t, v, &t.update()[v]);
        self.non_growing.insert((i, v), b);
        b
    }

    fn scc(&mut self, proof: &SccProof) -> Result<(), String> {
        self.current = Some((proof.locations.clone(), proof.transitions.clone()));
        self.scc_size.clear();
        self.invariant_tried.clear();
        self.rvg = Some(Rc::new(Rvg::new(self.its, &proof.transitions)));
        self.rvg_bounds.clear();
        self.rvg_waiting = (0, HashSet::new());
        self.rvg_at.clear();
        self.rvg_eager = false;
        self.caps_eager = false;
        self.accept_infinite = false;
        let mut done = vec![false; proof.steps.len()];
        while done.iter().any(|d| !d) || self.twn_open(proof) {
            let mut progress = self.twn_progress(proof);
            for (k, step) in proof.steps.iter().enumerate() {
                if done[k] {
                    continue;
                }
                // An infinite bound is final only once nothing else is left to try.
                let bound = self
                    .step_bound(step)
                    .filter(|b| *b != Bound::Infinite || self.accept_infinite)
                    .map(|b| self.scc_wide_choice(proof, step, b));
                if let Some(b) = bound {
                    for &t in &step.removed {
                        self.rb[t] = Some(b.clone());
                    }
                    done[k] = true;
                    progress = true;
                }
            }
            if !progress && !self.rvg_eager && self.size_graph {
                // Stuck: sizes per result variable where the SCC-wide ones wait.
                self.rvg_eager = true;
                continue;
            }
            if !progress && self.caps_allowed && !self.caps_eager {
                // Stuck: guard caps as resets where an update's change waits
                // ([`guard_cap`]); not earlier, a runtime bound may give a smaller size.
                self.caps_eager = true;
                continue;
            }
            if !progress {
                progress = self.resynthesize(proof, &mut done);
            }
            if !progress {
                progress = self.amortised_progress(proof, &mut done);
            }
            if !progress {
                progress = self.amortised_multiphase_progress(proof, &mut done);
            }
            if !progress && !self.accept_infinite {
                self.accept_infinite = true;
                continue;
            }
            if !progress {
                self.current = None;
                let open: Vec<String> = proof
                    .steps
                    .iter()
                    .zip(&done)
                    .filter(|(_, d)| !**d)
                    .flat_map(|(s, _)| s.removed.iter().map(|i| format!("t{i}")))
                    .collect();
                return Err(format!("{STUCK_SIZES} (no bound for {})", open.join(", ")));
            }
        }
        // Sizes at the SCC's locations, for the transitions leaving it.
        for v in 0..self.its.arity() {
            let s = self.scc_var_size(v);
            for &l in &proof.locations {
                if s.as_ref().is_some_and(|b| *b != Bound::Infinite) {
                    self.pre[l][v] = s.clone();
                    continue;
                }
                let at = self.rvg_at_location(l, v);
                self.rvg_used |= at.as_ref().is_some_and(|b| *b != Bound::Infinite);
                self.pre[l][v] = Some(pick_size(s.clone(), at, true).unwrap_or(Bound::Infinite));
            }
        }
        self.rvg = None;
        for i in 0..self.its.transitions.len() {
            let t = &self.its.transitions[i];
            if proof.locations.contains(&t.source) && !proof.transitions.contains(&i) {
                self.rb[i] = Some(self.exit_times(i, &proof.locations, &proof.transitions));
            }
        }
        self.current = None;
        Ok(())
    }

    /// `|f|(SB(e))`: a bound of `f` after entry `e`.
    fn entry_value(&mut self, e: usize, f: &Poly) -> Option<Bound> {
        let mut sizes = Vec::new();
        for v in 0..self.its.arity() {
            sizes.push(if f.vars().contains(&v) {
                Some(self.post_size(e, v)?)
            } else {
                None
            });
        }
        Some(Bound::of_poly(f, &mut |v| {
            sizes[v].clone().unwrap_or(Bound::Infinite)
        }))
    }

    /// An upper bound of `f` after entry `e` from `e`'s guard
    /// ([`local_size::value_upper_bound`], cached), composed with the sizes before `e`;
    /// `None` without one or while a size it needs is unknown.
    fn entry_upper_bound(&mut self, e: usize, f: &Poly) -> Option<Bound> {
        let key = (e, f.clone());
        if !self.upper_bounds.contains_key(&key) {
            // A fallback query: the quick solver, within the fallback budget.
            if !self.fallback_left() {
                return None;
            }
            let t = &self.its.transitions[e];
            let after = f.substitute(&|w| t.update()[w].clone());
            let b = value_upper_bound(self.quick.as_mut(), t, self.its.arity(), &after);
            self.charge_fallback();
            self.upper_bounds.insert(key.clone(), b);
        }
        let ub = self.upper_bounds[&key].clone()?;
        self.compose_sizes_before(e, &ub)
            .filter(|b| *b != Bound::Infinite)
    }

    /// `Σ_{e entering T'} RB(e) · |f_{target(e)}|(SB(e))`, or `None` if some part is not
    /// known yet.
    fn step_bound(&mut self, step: &termination::RankingStep) -> Option<Bound> {
        // A word-size, ratio or quadratic-guard removal bounds each stretch of its transitions anew (a step
        // ranked earlier may reset the doubled value or the quotient), so its entries from
        // inside the SCC count too: its constant or `1 + q·num` is no function that only
        // decreases over the whole SCC.
        if step.is_plain() && self.is_scc_wide(step) {
            return self.scc_wide_bound(&step.function);
        }
        self.entries_bound(step)
    }

    /// [`Ctx::step_bound`] from the entries of the step's `T'` alone.
    fn entries_bound(&mut self, step: &termination::RankingStep) -> Option<Bound> {
        let its = self.its;
        let mut locs: Vec<usize> = step
            .remaining
            .iter()
            .flat_map(|&i| [its.transitions[i].source, its.transitions[i].target()])
            .collect();
        locs.sort_unstable();
        locs.dedup();
        let mut total = Bound::constant(0);
        if locs.contains(&its.start) {
            total = total.add(&match (&step.multiphase, &step.two_phase) {
                (Some(mp), _) => {
                    let values: Vec<Bound> = mp
                        .phases
                        .iter()
                        .map(|f| Bound::of_poly(&f.get(its.start), &mut Bound::start_var))
                        .collect();
                    multiphase::steps_bound(&values)
                }
                (None, Some(tp)) => {
                    let f1 = Bound::of_poly(&tp.f1, &mut Bound::start_var);
                    let f2 = Bound::of_poly(&tp.f2, &mut Bound::start_var);
                    f1.add(&f1.mul(&f1)).add(&f2).add(&Bound::constant(1))
                }
                (None, None) => {
                    Bound::of_poly(&step.function.get(its.start), &mut Bound::start_var)
                }
            });
        }
        for e in 0..its.transitions.len() {
            let t = &its.transitions[e];
            if step.remaining.contains(&e) || !locs.contains(&t.target()) {
                continue;
            }
            let rb = self.rb[e].clone()?;
            if let Some(mp) = &step.multiphase {
                // k·(Σ F_i + 2) strict steps per entry (see `multiphase`).
                let mut values = Vec::new();
                for f in &mp.phases {
                    values.push(self.entry_value(e, &f.get(t.target()))?);
                }
                total = total.add(&rb.mul(&multiphase::steps_bound(&values)));
                continue;
            }
            if let Some(tp) = &step.two_phase {
                // F1 + F1² + F2 + 1 steps per entry (see `multiphase`).
                let f1 = self.entry_value(e, &tp.f1)?;
                let f2 = self.entry_value(e, &tp.f2)?;
                let value = f1.add(&f1.mul(&f1)).add(&f2).add(&Bound::constant(1));
                total = total.add(&rb.mul(&value));
                continue;
            }
            let f = step.function.get(t.target());
            if step.quadratic_guard.is_some() {
                // A bound in absolute values: with the sizes after the entry alone (an upper
                // bound of its value from the entry's guard would not bound the laps).
                let value = self.entry_value(e, &f).filter(|b| *b != Bound::Infinite)?;
                total = total.add(&rb.mul(&value));
                continue;
            }
            // Unknown or unbounded sizes: the guard of the entry may still bound `f`; for an
            // entry from inside the SCC (whose sizes are coarse) a constant bound from the
            // guard is taken over one from the sizes.
            let inner = self
                .current
                .as_ref()
                .is_some_and(|(l, _)| l.contains(&t.source));
            let sized = self.entry_value(e, &f);
            let value = match sized.clone().filter(|b| *b != Bound::Infinite) {
                Some(b) if !inner || b.vars().is_empty() => Some(b),
                Some(b) => Some(
                    self.entry_upper_bound(e, &f)
                        .filter(|u| u.vars().is_empty())
                        .unwrap_or(b),
                ),
                None => self.entry_upper_bound(e, &f).or(sized),
            }?;
            total = total.add(&rb.mul(&value));
        }
        Some(total)
    }
}

impl Ctx<'_> {
    /// Whether `f`, a Farkas answer, is re-checked by [`ranking::check`] as strictly decreasing
    /// on the transitions `strict` and non-increasing on every other transition of `scc`.
    fn ranks_scc(
        &mut self,
        f: &crate::ranking::RankingFunction,
        scc: &[usize],
        strict: &[usize],
    ) -> bool {
        let its = self.its;
        scc.iter().all(|&i| {
            let d = ranking::check(self.solver.as_mut(), f, &its.transitions[i]);
            d == Decrease::Strict || (!strict.contains(&i) && d == Decrease::Weak)
        })
    }

    /// When the steps of an SCC wait for each other's runtime bounds: for each transition
    /// of an open step, a new linear ranking function strictly decreasing on it and
    /// non-increasing on *every* transition of the SCC (found by Farkas, re-checked by
    /// [`ranking::check`]) bounds it by the SCC's entries alone ([`Ctx::scc_wide_bound`]).
    /// Marks the steps whose transitions all got a bound; whether any did.
    fn resynthesize(&mut self, proof: &SccProof, done: &mut [bool]) -> bool {
        let its = self.its;
        let mut progress = false;
        for (k, step) in proof.steps.iter().enumerate() {
            if done[k] {
                continue;
            }
            for &t in &step.removed {
                if self.rb[t].is_some() || !self.fallback_left() {
                    continue;
                }
                let f = crate::farkas::synthesize_strict_on(
                    its,
                    &proof.transitions,
                    &[t],
                    self.quick.as_mut(),
                );
                let checked = f
                    .as_ref()
                    .is_some_and(|f| self.ranks_scc(f, &proof.transitions, &[t]));
                self.charge_fallback();
                if let Some(f) = f.filter(|_| checked) {
                    self.rb[t] = self.scc_wide_bound(&f);
                    if self.rb[t].as_ref().is_some_and(|b| *b != Bound::Infinite) {
                        self.bound_functions[t] = Some(BoundFunction {
                            function: f,
                            non_increasing_on: proof.transitions.clone(),
                            rule: BoundRule::SccWide,
                        });
                    }
                }
                if self.rb[t] == Some(Bound::Infinite) {
                    // The function reads a variable of unbounded size: one over the others.
                    if let Some(b) = self.sized_scc_wide_bound(proof, t) {
                        self.rb[t] = Some(b);
                    }
                }
                if self.rb[t].is_none() {
                    self.resynthesize_inner(proof, t);
                }
                if self.rb[t].is_none() {
                    self.rb[t] = self.multiphase_scc_bound(proof, t);
                }
            }
            if step.removed.iter().all(|&t| self.rb[t].is_some()) {
                done[k] = true;
                progress = true;
            }
        }
        progress
    }

    /// [`Ctx::resynthesize`] for a transition `t` no SCC-wide function bounds: a function
    /// non-increasing only on the part `W` of the SCC still waiting for a bound (the open
    /// transitions, with or without those bounded by functions that are not SCC-wide: the
    /// inner loops), strictly decreasing on `t` or on all of `W`, bounded by the entries of
    /// `W` ([`Ctx::entries_bound`]). The outer loop's entry then often leaves it small
    /// ([`Ctx::entry_upper_bound`]): `D − C` for an inner loop whose outer loop sets
    /// `C' = C − 10, D' = D + 2` under `C ≥ D`, where the found `8 − C` grows with `C`.
    fn resynthesize_inner(&mut self, proof: &SccProof, t: usize) {
        let open: Vec<usize> = proof
            .transitions
            .iter()
            .copied()
            .filter(|&i| self.rb[i].is_none())
            .collect();
        let outer: Vec<usize> = proof
            .steps
            .iter()
            .filter(|s| self.scc_wide.get(&s.removed) == Some(&true))
            .flat_map(|s| s.removed.iter().copied())
            .collect();
        let inner: Vec<usize> = proof
            .transitions
            .iter()
            .copied()
            .filter(|i| !outer.contains(i))
            .collect();
        let mut candidates = vec![(inner.clone(), inner.clone()), (inner, vec![t])];
        if open.len() < candidates[0].0.len() {
            candidates.push((open, vec![t]));
        }
        for (weak, strict) in candidates {
            if weak.len() == proof.transitions.len() || !self.fallback_left() {
                continue;
            }
            let f =
                crate::farkas::synthesize_strict_on(self.its, &weak, &strict, self.quick.as_mut());
            let checked = f.as_ref().is_some_and(|f| {
                weak.iter().all(|&i| {
                    let d = ranking::check(self.solver.as_mut(), f, &self.its.transitions[i]);
                    d == Decrease::Strict || (!strict.contains(&i) && d == Decrease::Weak)
                })
            });
            self.charge_fallback();
            let Some(f) = f.filter(|_| checked) else {
                continue;
            };
            let step = termination::RankingStep {
                function: f,
                remaining: weak,
                removed: strict.clone(),
                two_phase: None,
                multiphase: None,
                word_size: None,
                ratio: None,
                quadratic_guard: None,
                clamped: false,
            };
            if let Some(b) = self.entries_bound(&step) {
                for &i in &strict {
                    if self.rb[i].is_none() {
                        self.rb[i] = Some(b.clone());
                        self.bound_functions[i] = Some(BoundFunction {
                            function: step.function.clone(),
                            non_increasing_on: step.remaining.clone(),
                            rule: BoundRule::OpenPart,
                        });
                    }
                }
                return;
            }
        }
    }

    /// The fallback calls made, on the trace (how close an inference came to the count).
    fn note_fallback_calls(&self) {
        crate::trace::note(|| {
            format!(
                "fallback calls {} of {FALLBACK_CALLS}",
                FALLBACK_CALLS - self.fallback_calls_left
            )
        });
    }

    /// Takes one call off the fallback budget ([`FALLBACK_CALLS`]).
    fn charge_fallback(&mut self) {
        self.fallback_calls_left = self.fallback_calls_left.saturating_sub(1);
    }

    /// Whether a fallback call may still be made: calls are left and the deadline has not
    /// passed.
    fn fallback_left(&self) -> bool {
        self.fallback_calls_left > 0 && Instant::now() < self.deadline
    }

    /// Whether the function of `step` is non-increasing on every transition of the
    /// current SCC (checked by [`ranking::check`] on those outside the step's `T'`).
    fn is_scc_wide(&mut self, step: &termination::RankingStep) -> bool {
        if let Some(b) = self.scc_wide.get(&step.removed) {
            return *b;
        }
        let Some((_, inside)) = self.current.clone() else {
            return false;
        };
        let its = self.its;
        let b = inside
            .iter()
            .filter(|i| !step.remaining.contains(i))
            .all(|&i| {
                ranking::check(self.solver.as_mut(), &step.function, &its.transitions[i])
                    != Decrease::Fails
            });
        self.scc_wide.insert(step.removed.clone(), b);
        b
    }

    /// The bound of a step whose function `f` never increases inside the SCC: in one
    /// visit of the SCC `f` starts at most at its value after the entry and each removed
    /// step needs `f ≥ 1` and lowers it by one, so the removed transitions run at most
    /// `Σ_{e entering the SCC} RB(e) · |f_{target(e)}|(SB(e))` times (plus `|f_start|` of
    /// the start values if the run starts inside). The entries come from earlier SCCs,
    /// whose bounds are known: no runtime bound of this SCC is needed.
    fn scc_wide_bound(&mut self, f: &crate::ranking::RankingFunction) -> Option<Bound> {
        let its = self.its;
        let (locs, _) = self.current.clone()?;
        let mut total = Bound::constant(0);
        if locs.contains(&its.start) {
            total = Bound::of_poly(&f.get(its.start), &mut Bound::start_var);
        }
        for e in 0..its.transitions.len() {
            let t = &its.transitions[e];
            if locs.contains(&t.source) || !locs.contains(&t.target()) {
                continue;
            }
            let rb = self.rb[e].clone()?;
            let value = self.entry_value(e, &f.get(t.target()))?;
            total = total.add(&rb.mul(&value));
        }
        Some(total)
    }
}

/// The size bound from the SCC-wide `scc` and the per-location `rvg` (`None`: waiting for
/// a runtime bound): `scc` unless `eager` (the SCC's steps are stuck without `rvg`), so
/// that everything the SCC-wide bounds prove comes out as before; then `scc` when finite,
/// else a finite `rvg`, else waiting while `rvg` waits.
fn pick_size(scc: Option<Bound>, rvg: Option<Bound>, eager: bool) -> Option<Bound> {
    let finite = |b: &Option<Bound>| b.as_ref().is_some_and(|b| *b != Bound::Infinite);
    match scc {
        Some(b) if b != Bound::Infinite || !eager => Some(b),
        None if !eager => None,
        _ if finite(&rvg) => rvg,
        Some(_) if eager && rvg.is_none() => None,
        other => other,
    }
}

/// `p` and the forms equal to it under the guard's linear equalities `±w + r = 0`
/// (substituting `w` by `∓r`, up to two rounds): candidates for a tighter size bound.
fn guard_variants(t: &crate::its::Transition, p: &Poly) -> Vec<Poly> {
    let mut out = vec![p.clone()];
    let eqs: Vec<(usize, Poly)> = t
        .guard
        .iter()
        .filter(|a| a.rel == crate::its::Rel::Eq && a.poly.is_linear())
        .flat_map(|a| {
            a.poly.vars().into_iter().filter_map(move |w| {
                let c = a.poly.linear_coeff(w);
                (c.abs() == 1).then(|| (w, a.poly.sub(&Poly::var(w).scale(c)).scale(-c)))
            })
        })
        .collect();
    for _ in 0..2 {
        let mut next = Vec::new();
        for q in &out {
            for (w, r) in &eqs {
                if q.vars().contains(w) {
                    let sub = q.substitute(&|x| if x == *w { r.clone() } else { Poly::var(x) });
                    if !out.contains(&sub) && !next.contains(&sub) && out.len() + next.len() < 12 {
                        next.push(sub);
                    }
                }
            }
        }
        out.extend(next);
    }
    out
}

/// Size bounds per result variable ([`size_graph`]).
impl Ctx<'_> {
    /// `|w|` before transition `e`, whose source is in the current SCC: a constant the
    /// guard gives, else [`Ctx::rvg_at_location`]; `None` while waiting for a runtime bound.
    fn rvg_pre_size(&mut self, e: usize, w: usize) -> Option<Bound> {
        let t = &self.its.transitions[e];
        if let Some(k) = guard_constant(t, w) {
            return Some(Bound::constant(k));
        }
        self.rvg_at_location(t.source, w)
    }

    /// `|w|` at location `l` of the current SCC: the start value if the run starts there,
    /// the sizes after the transitions entering `l` from outside, and those after the
    /// SCC's transitions into `l` (their result variables).
    fn rvg_at_location(&mut self, l: usize, w: usize) -> Option<Bound> {
        if let Some(b) = self.rvg_at.get(&(l, w)) {
            return Some(b.clone());
        }
        let rvg = self.rvg.clone()?;
        let s = self.rvg_into(&rvg, l, w, None)?;
        self.rvg_at.insert((l, w), s.clone());
        Some(s)
    }

    /// The sum of `|w|` over the ways into location `l`: the start value if the run starts
    /// there, the sizes after the transitions entering `l` from outside the SCC and the
    /// result variables of the graph's transitions into `l` — except those in the graph's
    /// SCC `skip` (their sizes are what is being bounded).
    fn rvg_into(&mut self, rvg: &Rvg, l: usize, w: usize, skip: Option<usize>) -> Option<Bound> {
        let its = self.its;
        let mut s = Bound::constant(0);
        if l == its.start {
            s = Bound::start_var(w);
        }
        for e in 0..its.transitions.len() {
            let t = &its.transitions[e];
            if t.target() != l {
                continue;
            }
            let size = match rvg.position(e) {
                Some(j) if skip == Some(rvg.comp_of[j * rvg.n + w]) => continue,
                Some(_) => self.rvg_node(e, w)?,
                None if self.in_current(t.source) => Bound::Infinite,
                None => self.post_size(e, w)?,
            };
            s = s.add(&size);
        }
        Some(s)
    }

    fn in_current(&self, l: usize) -> bool {
        self.current
            .as_ref()
            .is_some_and(|(locs, _)| locs.contains(&l))
    }

    /// The size bound of result variable `(e, w)`, `e` a transition of the current SCC:
    /// the SCCs of the graph it depends on are bounded in topological order (each once,
    /// or again after a new runtime bound if it waited for one).
    fn rvg_node(&mut self, e: usize, w: usize) -> Option<Bound> {
        let rvg = self.rvg.clone()?;
        let Some(k) = rvg.position(e) else {
            return Some(Bound::Infinite);
        };
        let c = rvg.comp_of[k * rvg.n + w];
        if let Some(b) = self.rvg_bounds.get(&c) {
            return Some(b.clone());
        }
        let known = self.rb.iter().filter(|b| b.is_some()).count();
        if self.rvg_waiting.0 != known {
            self.rvg_waiting = (known, HashSet::new());
        }
        if self.rvg_waiting.1.contains(&c) {
            return None;
        }
        let order = rvg.ancestors(c, &|d| {
            self.rvg_bounds.contains_key(&d) || self.rvg_waiting.1.contains(&d)
        });
        for d in order {
            if self.rvg_bounds.contains_key(&d) || self.rvg_waiting.1.contains(&d) {
                continue;
            }
            let refused = std::mem::replace(&mut self.rvg_cap_refused, false);
            let b = self.rvg_component(&rvg, d);
            // Computed without a cap it could not take here: not final.
            let b = b.filter(|_| !self.rvg_cap_refused);
            self.rvg_cap_refused |= refused;
            match b {
                Some(b) => {
                    self.rvg_bounds.insert(d, b);
                }
                None => {
                    self.rvg_waiting.1.insert(d);
                }
            }
        }
        self.rvg_bounds.get(&c).cloned()
    }

    /// The bound of every node of the graph's SCC `d`. A node on no cycle: its update
    /// composed with the sizes before. On a cycle, each node `(t, v)` must take its value
    /// from one variable `w` of the cycle (`v' = a·w + r`, `r` free of the cycle's
    /// variables); following a value back along the cycle to where it entered, each step
    /// of `t` multiplies by `|a|` and adds `|r|`, at most `RB(t)` times, so every node is
    /// bounded by `Π |a_t|^RB(t) · (entering + Σ_t RB(t)·|r_t|)` — with nothing added
    /// by steps that never grow `|v|` and copies (`|a| = 1`, `r = 0`), and `k` once for
    /// `|v'| ≤ max(|v|, k)` ([`non_growing_above`]). Other cycles (sums of the cycle's
    /// variables) get no bound here; `None` while waiting for a runtime bound.
    fn rvg_component(&mut self, rvg: &Rvg, d: usize) -> Option<Bound> {
        let its = self.its;
        let n = rvg.n;
        if !rvg.cyclic[d] {
            let x = rvg.comps[d][0];
            let t = rvg.inside[x / n];
            return self.rvg_compose(t, &its.transitions[t].update()[x % n]);
        }
        if let Some(b) = self.rvg_periodic(rvg, d) {
            return b;
        }
        let mut entering = Bound::constant(0);
        let mut added = Bound::constant(0);
        let mut growth = Bound::constant(1);
        for &x in &rvg.comps[d] {
            let (k, v) = (x / n, x % n);
            let t = rvg.inside[k];
            let tr = &its.transitions[t];
            let cycle = rvg.cycle_vars(k, v);
            let Some(&w) = cycle.iter().next().filter(|_| cycle.len() == 1) else {
                return Some(Bound::Infinite);
            };
            let p = &tr.update()[v];
            let Some((a, r)) = exp_size::split_linear(p, w) else {
                return Some(Bound::Infinite);
            };
            if size_graph::poly_deps(tr, n, &r).contains(&w) {
                return Some(Bound::Infinite);
            }
            entering = entering.add(&self.rvg_entering(rvg, d, k, w)?);
            if w == v && (*p == Poly::var(v) || self.is_non_growing(t, v)) {
                continue;
            }
            if w == v {
                if let Some(cap) = self.growth_cap(t, v) {
                    added = added.add(&Bound::constant(cap));
                    continue;
                }
                if let Some(cap) = self.rvg_guard_cap(rvg, d, k, v) {
                    added = added.add(&cap?);
                    continue;
                }
            }
            if a.abs() == 1 && r.is_zero() {
                continue;
            }
            let rb = self.rb[t].clone()?;
            let incr = self.rvg_compose(t, &r)?;
            added = added.add(&rb.mul(&incr));
            if a.abs() >= 2 {
                growth = growth.mul(&rb.base_pow(a));
            }
        }
        Some(growth.mul(&entering.add(&added)))
    }

    /// [`capped_by_guard`]'s bound `K + Σ_W |w|` of node `(k, v)` of the graph's SCC `d`,
    /// composed with the sizes before; only when no size it needs depends on `d` (`W` is
    /// not among the node's edges, so the graph's order does not guarantee that).
    /// `None` without one, `Some(None)` while waiting for a runtime bound.
    fn rvg_guard_cap(&mut self, rvg: &Rvg, d: usize, k: usize, v: usize) -> Option<Option<Bound>> {
        let t = rvg.inside[k];
        let cap = match self.guard_caps.get(&(t, v)) {
            Some(c) => c.clone(),
            None => {
                let tr = &self.its.transitions[t];
                let n = self.its.arity();
                let c = capped_by_guard(self.quick.as_mut(), tr, n, v, &tr.update()[v]);
                self.guard_caps.insert((t, v), c.clone());
                c
            }
        }?;
        if self.rvg_cap_depth > 0 {
            // A cap inside a cap's sizes could need the SCC being bounded (caps are not
            // edges of the graph): not taken, and what is bounded without it not kept.
            self.rvg_cap_refused = true;
            return None;
        }
        let earlier = cap.vars.iter().all(|&u| {
            guard_constant(&self.its.transitions[t], u).is_some()
                || rvg.preds[k]
                    .iter()
                    .all(|&j| !rvg.depends_on(rvg.comp_of[j * rvg.n + u], d))
        });
        if !earlier {
            return None;
        }
        let mut wait = false;
        self.rvg_cap_depth += 1;
        let b = cap.compose(&mut |u| {
            self.rvg_pre_size(t, u).unwrap_or_else(|| {
                wait = true;
                Bound::Infinite
            })
        });
        self.rvg_cap_depth -= 1;
        Some((!wait).then_some(b))
    }

    /// `|w|` before the `k`-th transition of the graph from outside its SCC `d`: the
    /// start value, the entries into the location SCC and the graph's other SCCs.
    fn rvg_entering(&mut self, rvg: &Rvg, d: usize, k: usize, w: usize) -> Option<Bound> {
        let l = self.its.transitions[rvg.inside[k]].source;
        self.rvg_into(rvg, l, w, Some(d))
    }

    /// `|p|` over the variables before transition `t` of the current SCC, with the sizes
    /// of [`Ctx::rvg_pre_size`] (temporaries by [`temp_bound`] over those).
    fn rvg_compose(&mut self, t: usize, p: &Poly) -> Option<Bound> {
        let n = self.its.arity();
        let mut missing = false;
        let b = Bound::of_poly(p, &mut |w| {
            let size = if w < n {
                self.rvg_pre_size(t, w)
            } else {
                match self.cached_temp_bound(t, w) {
                    Some(tb) => {
                        let mut wait = false;
                        let b = tb.compose(&mut |u| {
                            self.rvg_pre_size(t, u).unwrap_or_else(|| {
                                wait = true;
                                Bound::Infinite
                            })
                        });
                        (!wait).then_some(b)
                    }
                    None => Some(Bound::Infinite),
                }
            };
            size.unwrap_or_else(|| {
                missing = true;
                Bound::Infinite
            })
        });
        (!missing).then_some(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fallback call costs one of [`FALLBACK_CALLS`] however long it takes: here each query
    /// waits 700 ms (a loaded machine), and seven upper bounds of `A + k` after the entry
    /// `A ≤ 5` (one query each) are all found — `5 + k`, by hand. With the former 4 s of
    /// time for all fallback calls the seventh found none.
    #[test]
    fn slow_fallback_calls_cost_one_call_each() {
        let its = crate::parse_koat(
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR A)\n(RULES\n  l0(A) -> Com_1(l1(A)) :|: 5 >= A\n  l1(A) -> Com_1(l1(A - 1)) :|: A >= 1\n)\n",
        )
        .unwrap();
        crate::smt::set_rlimit(None);
        let limits = Limits {
            query_timeout: Duration::from_secs(10),
            deadline: Instant::now() + Duration::from_secs(600),
        };
        let mut ctx = Ctx::new(&its, &limits);
        ctx.trivial_component(&[its.start]);
        let a = Poly::var(0);
        crate::smt::delay_queries(Duration::from_millis(700));
        let bounds: Vec<Option<Bound>> = (0..7)
            .map(|k| ctx.entry_upper_bound(0, &a.add(&Poly::constant(k))))
            .collect();
        crate::smt::delay_queries(Duration::ZERO);
        let expected: Vec<Option<Bound>> = (0..7).map(|k| Some(Bound::constant(5 + k))).collect();
        assert_eq!(bounds, expected);
        assert_eq!(ctx.fallback_calls_left, FALLBACK_CALLS - 7);
        assert!(ctx.fallback_left());
    }

    /// pasta's a.10 (two loops at `l1` that exclude each other: only `max(A − B, 0)`, then
    /// `B − A`, rank them) and after it a countdown at `l2`. The first attempt is bounded, with
    /// a positive-part step at `l1`: a refinement works on `l1` alone, as when that SCC had no
    /// proof, not on every cyclic SCC. The countdown's proof is taken from the first attempt's
    /// (no positive-part step), so only `l1` is proved again without the rule.
    #[test]
    fn an_scc_ranked_by_a_positive_part_is_refined_alone() {
        let its = crate::parse_koat(
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR A B C)\n(RULES\n  \
             l0(A,B,C) -> l1(A,B,C)\n  \
             l1(A,B,C) -> l1(A,B + 1,C) :|: A >= B + 1\n  \
             l1(A,B,C) -> l1(A + 1,B,C) :|: B >= A + 1\n  \
             l1(A,B,C) -> l2(A,B,C) :|: A >= B && B >= A\n  \
             l2(A,B,C) -> l2(A,B,C - 1) :|: C >= 1\n)\n",
        )
        .unwrap();
        crate::smt::set_rlimit(Some(5_000_000));
        let limits = Limits {
            query_timeout: Duration::from_secs(10),
            deadline: Instant::now() + Duration::from_secs(600),
        };
        let first = infer(&its, &limits);
        let c = first.as_ref().expect("a.10 and a countdown are bounded");
        let clamped_at: Vec<&Vec<usize>> = c
            .proof
            .iter()
            .filter(|p| p.steps.iter().any(|s| s.clamped))
            .map(|p| &p.locations)
            .collect();
        let l1 = its.locations.iter().position(|l| l == "l1").unwrap();
        assert_eq!(clamped_at, vec![&vec![l1]], "the positive part ranks l1");
        let targets = refinement_targets(&its, &first, &limits);
        assert_eq!(targets, vec![vec![l1]]);
        // Asked again: every answer comes from the proofs found before.
        let asked = crate::smt::queries();
        assert_eq!(refinement_targets(&its, &first, &limits), targets);
        assert_eq!(crate::smt::queries(), asked);
    }
}
