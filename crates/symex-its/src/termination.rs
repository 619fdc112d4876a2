//! Termination by lexicographic transition removal (KoAT/AProVE style): per SCC of the
//! location graph, find a linear ranking function non-increasing on all remaining
//! transitions and strictly decreasing and bounded on some, check it, remove those, repeat
//! until none remain; when no linear function exists, a multiphase one (depth 2 to
//! [`MAX_DEPTH`], [`multiphase`]) may remove some. Every removal is justified by a
//! function that passed [`ranking::check`] (or [`multiphase::check_step`]), a solver query
//! independent of the synthesis.

use crate::clamped_ranking;
use crate::farkas;
use crate::graph;
use crate::its::Its;
use crate::multiphase::{self, Multiphase, TwoPhase};
use crate::poly::Poly;
use crate::quadratic_guard::{self, QuadraticGuard};
use crate::ranking::{self, Decrease, RankingFunction};
use crate::ratio::{self, Ratio};
use crate::word_size::{self, WordSize};
use std::time::{Duration, Instant};

/// One removal: `function` is non-increasing on `remaining` and strictly decreasing and
/// bounded on `removed` (a subset).
#[derive(Clone, Debug)]
pub struct RankingStep {
    /// The ranking function.
    pub function: RankingFunction,
    /// The transitions it was found for (all of them non-increasing).
    pub remaining: Vec<usize>,
    /// The transitions it removes (strictly decreasing and bounded).
    pub removed: Vec<usize>,
    /// For a two-phase ranking function of a single loop, both phases (`function` is
    /// then the second phase at the loop's location).
    pub two_phase: Option<TwoPhase>,
    /// For a multiphase ranking function (depth 2 to [`MAX_DEPTH`], or
    /// [`SINGLE_LOOP_MAX_DEPTH`] for one transition), its phases:
    /// `remaining` are its weak or strict steps, `removed` the strict ones, and
    /// `function` is its last phase. A two-phase function of a single loop also fills
    /// `two_phase`.
    pub multiphase: Option<Multiphase>,
    /// For a word-size removal ([`word_size`]): the variable doubled modulo `2^w`; `function` is then
    /// the constant `w` at the SCC's locations (its bound per entry), not a ranking function.
    pub word_size: Option<WordSize>,
    /// For a ratio removal ([`ratio`]): the quotient that shrinks by a constant factor per lap;
    /// `function` is then its bound per entry `1 + q·num` at the SCC's locations, not a ranking
    /// function, and it bounds each stretch of `remaining` (every entry into them counts).
    pub ratio: Option<Ratio>,
    /// For a quadratic-guard removal ([`quadratic_guard`]): the guard value whose change is a
    /// negative definite form in the transitions' counts; `function` is then its bound per
    /// entry in absolute values (composed with size bounds only), not a ranking function, and
    /// it bounds each stretch of `remaining` (every entry into them counts).
    pub quadratic_guard: Option<QuadraticGuard>,
    /// Whether `function` ranks by its positive part ([`clamped_ranking`]): on a weak
    /// transition `f' ≤ f` or `f' ≤ 0`, so `max(f, 0)` never rises.
    pub clamped: bool,
}

impl RankingStep {
    /// Whether `function` is a ranking function of one phase over the whole step (not a
    /// multiphase or two-phase function, nor the bound per stretch of a word-size, ratio or
    /// quadratic-guard removal): what the rules that reuse a step's function need.
    pub fn is_plain(&self) -> bool {
        self.multiphase.is_none()
            && self.two_phase.is_none()
            && self.word_size.is_none()
            && self.ratio.is_none()
            && self.quadratic_guard.is_none()
    }

    /// A removal of `removed` bounded per stretch of `remaining` by `per_entry` at each of
    /// `locs` (a word-size, ratio or quadratic-guard removal fills in its own field).
    fn per_stretch(
        locs: &[usize],
        per_entry: &Poly,
        remaining: &[usize],
        removed: Vec<usize>,
    ) -> RankingStep {
        RankingStep {
            function: RankingFunction {
                at: locs.iter().map(|&l| (l, per_entry.clone())).collect(),
            },
            remaining: remaining.to_vec(),
            removed,
            two_phase: None,
            multiphase: None,
            word_size: None,
            ratio: None,
            quadratic_guard: None,
            clamped: false,
        }
    }
}

/// The deepest multiphase ranking functions tried.
pub const MAX_DEPTH: usize = 4;

/// The deepest tried for a single transition (small queries; polynomial loops such as
/// `A' = A + B, B' = B + C, …, E' = E − 1` need one phase per variable).
pub const SINGLE_LOOP_MAX_DEPTH: usize = 6;

/// Multiphase functions are searched for at most this many transitions at once: larger
/// queries (11 and 18 transitions of 36 variables in T2's fun6) take seconds and have
/// not been seen to succeed.
pub const MULTIPHASE_MAX_TRANSITIONS: usize = 8;

/// The time limit of queries that may well fail (multiphase functions, size bounds from
/// non-increasing functions) when they are only a fallback.
pub const QUICK_TIMEOUT: Duration = Duration::from_secs(2);

/// The proof for one SCC.
#[derive(Clone, Debug)]
pub struct SccProof {
    /// Its locations.
    pub locations: Vec<usize>,
    /// Its transitions.
    pub transitions: Vec<usize>,
    /// The removals, in order; together they remove every transition.
    pub steps: Vec<RankingStep>,
}

/// The answer of the termination prover.
#[derive(Clone, Debug)]
pub enum Termination {
    /// Every SCC was emptied: every run is finite.
    Yes(Vec<SccProof>),
    /// No proof; the reason, and the SCCs that were proved.
    Maybe(String, Vec<SccProof>),
}

/// Limits of the prover.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Per solver call.
    pub query_timeout: Duration,
    /// When the whole proof gives up.
    pub deadline: Instant,
}

impl Limits {
    /// The limits of the retries after a first attempt that took `first_took`: about twice its
    /// time plus two seconds, within these limits, so that where no refinement helps the
    /// answer stays quick. Where retries are counted ([`retries_counted`]: under a resource
    /// limit, or inside [`count_retries`]) they get these limits unchanged: a budget measured
    /// in time would make the answer depend on the machine's load.
    pub fn for_retry(&self, first_took: Duration) -> Limits {
        if retries_counted() {
            // The budget is counted instead ([`retry_budget`]).
            return self.clone();
        }
        let budget = first_took * 2 + Duration::from_secs(2);
        Limits {
            query_timeout: self.query_timeout.min(budget),
            deadline: self.deadline.min(Instant::now() + budget),
        }
    }
}

/// The solver queries a retry may ask beyond twice its first attempt's (the count-based
/// form of [`Limits::for_retry`]'s two extra seconds).
pub const RETRY_EXTRA_QUERIES: u64 = 1000;

/// The budget of a retry after a first attempt that asked `first_queries` solver queries.
/// Where retries are counted ([`retries_counted`]) it may ask about twice as many plus
/// [`RETRY_EXTRA_QUERIES`] (a retry's time budget, counted so that it does not depend on the
/// load); otherwise `None`: the retry's limits from [`Limits::for_retry`] bound it.
pub fn retry_budget(first_queries: u64) -> Option<crate::smt::QueryBudget> {
    retries_counted()
        .then(|| crate::smt::query_budget(first_queries.saturating_mul(2) + RETRY_EXTRA_QUERIES))
}

thread_local! {
    /// Whether [`count_retries`] is in force on this thread.
    static COUNTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread's retries are budgeted by solver queries ([`retry_budget`]) instead
/// of time ([`Limits::for_retry`]): under a resource limit ([`crate::smt::rlimit`]), and
/// inside [`count_retries`].
pub fn retries_counted() -> bool {
    crate::smt::rlimit().is_some() || COUNTED.with(std::cell::Cell::get)
}

/// Budgets this thread's retries by solver queries while the returned guard lives, also
/// without a resource limit: `symex its`' search for a bound, whose answer must not depend
/// on the load (Flores-Montoya's `heapsort`, whose first attempt finds no bound, got `O(n)`
/// from a retry on a quiet machine and `MAYBE` at load 8 when its retries were timed).
pub fn count_retries() -> crate::scoped_flag::ScopedFlag {
    crate::scoped_flag::ScopedFlag::set(&COUNTED)
}

/// Proves termination of `its` (already preprocessed).
pub fn prove(its: &Its, limits: &Limits) -> Termination {
    let mut proofs = Vec::new();
    if its.has_multi_targets() {
        return Termination::Maybe(
            "transitions with several targets (Com_k, k > 1) are not supported".into(),
            proofs,
        );
    }
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    for locs in graph::sccs(its, &all) {
        let inside = graph::inside(its, &all, &locs);
        if inside.is_empty() {
            continue;
        }
        match prove_scc_cached(its, &locs, &inside, limits) {
            Ok(p) => proofs.push(p),
            Err(reason) => return Termination::Maybe(reason, proofs),
        }
    }
    Termination::Yes(proofs)
}

/// What a proof of an SCC depends on: the variables' count, the locations (with their names,
/// which a reason names) and the transitions inside, with their indices (which the proof
/// names). Farkas' lemma and the other syntheses read nothing else of the ITS; whether the
/// positive-part functions are in force ([`clamped_ranking::in_force`]) is kept beside the
/// answer ([`Proved`], [`serves`]).
#[derive(PartialEq)]
struct SccKey {
    /// Whether quadratic guards were in force ([`quadratic_guard::in_force`]; only a test
    /// switches them off, so answers are shared only with the same setting).
    quadratic_guard: bool,
    arity: usize,
    locations: Vec<(usize, String)>,
    transitions: Vec<(usize, crate::its::Transition)>,
}

/// A proof or a reason found for an SCC before, the query time limit of a reason, and whether
/// the positive-part functions were in force.
type Proved = (SccKey, Result<SccProof, String>, Duration, bool);

/// Whether an answer found with the positive-part functions in force (`found_with`) or not is
/// the answer [`prove_scc`] gives with them in force (`now`) or not. They are its last fallback
/// before it gives up, so a run without them is the same run up to where they would step in:
/// a proof without a positive-part step is found either way, and no proof with them means none
/// without them. Only a proof with such a step, or a failure without them, is the switch's own
/// (`refinement_targets` asks without them for SCCs the first attempt proved with them: on
/// Flores-Montoya's `realheapsort` every other SCC is answered from here, without a query).
fn serves(found: &Result<SccProof, String>, found_with: bool, now: bool) -> bool {
    match (found, found_with, now) {
        (_, true, true) | (_, false, false) => true,
        (Ok(p), true, false) => !p.steps.iter().any(|s| s.clamped),
        (Err(_), true, false) | (Ok(_), false, true) => true,
        (Err(_), false, true) => false,
    }
}

thread_local! {
    /// The SCCs [`prove_scc_cached`] has proved, or found no proof for within its budget.
    static PROVED: std::cell::RefCell<Vec<Proved>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// How many SCCs [`PROVED`] keeps (the oldest go first).
const PROVED_KEPT: usize = 512;

/// [`prove_scc`], asked once per SCC and thread. The same SCCs come back many times: the
/// twn fallback and the refinement targets ask for the SCCs without a proof after `prove`
/// stopped at one, a refinement leaves most SCCs as they were, and the retries on the ITS as
/// given (sizes per result variable, guard caps) prove it all again; T2's `cover` asked 2 579
/// queries in `prove` and 2 578 more for the same SCCs in the twn fallback. A proof is kept
/// whatever the limits (it was checked); a failure only when neither the deadline nor a query
/// budget cut it, and only for the same query time limit.
fn prove_scc_cached(
    its: &Its,
    locs: &[usize],
    inside: &[usize],
    limits: &Limits,
) -> Result<SccProof, String> {
    let rule = clamped_ranking::in_force();
    let key = SccKey {
        quadratic_guard: quadratic_guard::in_force(),
        arity: its.arity(),
        locations: locs
            .iter()
            .map(|&l| (l, its.locations[l].clone()))
            .collect(),
        transitions: inside
            .iter()
            .map(|&i| (i, its.transitions[i].clone()))
            .collect(),
    };
    let known = PROVED.with(|p| {
        p.borrow()
            .iter()
            .find(|(k, r, timeout, with)| {
                *k == key
                    && (r.is_ok() || *timeout == limits.query_timeout)
                    && serves(r, *with, rule)
            })
            .map(|(_, r, _, _)| r.clone())
    });
    if let Some(r) = known {
        return r;
    }
    let r = prove_scc(its, locs, inside, limits);
    let cut = Instant::now() > limits.deadline || crate::smt::out_of_budget();
    if r.is_ok() || !cut {
        PROVED.with(|p| {
            let mut p = p.borrow_mut();
            if p.len() >= PROVED_KEPT {
                drop(p.remove(0));
            }
            p.push((key, r.clone(), limits.query_timeout, rule));
        });
    }
    r
}

fn prove_scc(
    its: &Its,
    locs: &[usize],
    inside: &[usize],
    limits: &Limits,
) -> Result<SccProof, String> {
    let mut synth = crate::smt::solver(limits.query_timeout);
    let mut checker = crate::smt::solver(limits.query_timeout);
    let mut remaining = inside.to_vec();
    let mut steps = Vec::new();
    let names = |ts: &[usize]| {
        ts.iter()
            .map(|i| format!("t{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    while !remaining.is_empty() {
        if Instant::now() > limits.deadline || crate::smt::out_of_budget() {
            return Err("time limit reached".into());
        }
        // A function of the locations alone first: its runtime bound needs no size
        // bounds, which keeps the alternation of runtime and size bounds from blocking.
        let linear = crate::trace::phase_at(3, || {
            format!("linear ranking over {} transitions", remaining.len())
        });
        let f = farkas::synthesize(its, &remaining, synth.as_mut(), true)
            .or_else(|| farkas::synthesize(its, &remaining, synth.as_mut(), false));
        drop(linear);
        let Some(f) = f else {
            // No single function for all remaining transitions: if they no longer form
            // one SCC, each SCC of them is proved on its own (KoAT's decomposition), and
            // each transition between them runs at most once per entry into its source,
            // which the location-only function `source: 1, target: 0` expresses.
            let parts = graph::sccs(its, &remaining);
            let cyclic: Vec<(Vec<usize>, Vec<usize>)> = parts
                .into_iter()
                .map(|l| {
                    let ts = graph::inside(its, &remaining, &l);
                    (l, ts)
                })
                .filter(|(_, ts)| !ts.is_empty())
                .collect();
            let decomposed = cyclic.len() > 1
                || cyclic
                    .first()
                    .is_some_and(|(_, ts)| ts.len() < remaining.len());
            if decomposed {
                for (l, ts) in cyclic {
                    steps.extend(prove_scc(its, &l, &ts, limits)?.steps);
                }
                let in_parts: Vec<usize> = steps.iter().flat_map(|s| s.removed.clone()).collect();
                for &i in remaining.iter().filter(|i| !in_parts.contains(i)) {
                    let t = &its.transitions[i];
                    let at = [
                        (t.source, Poly::constant(1)),
                        (t.target(), Poly::constant(0)),
                    ];
                    let f = RankingFunction {
                        at: at.into_iter().collect(),
                    };
                    if ranking::check(checker.as_mut(), &f, t) != Decrease::Strict {
                        return Err(format!("t{i} between SCCs failed its check"));
                    }
                    steps.push(RankingStep {
                        function: f,
                        remaining: vec![i],
                        removed: vec![i],
                        two_phase: None,
                        multiphase: None,
                        word_size: None,
                        ratio: None,
                        quadratic_guard: None,
                        clamped: false,
                    });
                }
                break;
            }
            let _fallbacks = crate::trace::phase_at(3, || {
                format!("fallbacks over {} transitions", remaining.len())
            });
            // A value doubled modulo its word size reaches 0 within that many laps (shifting left
            // until zero): no polynomial ranks it, its trailing zero bits do.
            if let Some(ws) = word_size::synthesize(its, &remaining, checker.as_mut()) {
                let removed: Vec<usize> = ws.multipliers.iter().map(|&(i, _)| i).collect();
                let w = word_size::bound(&ws);
                steps.push(RankingStep {
                    word_size: Some(ws),
                    ..RankingStep::per_stretch(locs, &w, &remaining, removed.clone())
                });
                remaining.retain(|i| !removed.contains(i));
                continue;
            }
            // A multiphase function may still exist (loops with phases); it removes its
            // strict transitions, and the lexicographic removal goes on.
            let found = (remaining.len() <= MULTIPHASE_MAX_TRANSITIONS)
                .then(|| {
                    multiphase::synthesize_checked(
                        its,
                        &remaining,
                        &[],
                        max_depth(remaining.len()),
                        checker.as_mut(),
                        // A quick query per depth (a fallback that may well fail), within
                        // the proof's limits.
                        limits
                            .deadline
                            .saturating_duration_since(Instant::now())
                            .min(limits.query_timeout)
                            .min(QUICK_TIMEOUT),
                    )
                })
                .flatten();
            if let Some((mp, strict)) = found {
                steps.push(multiphase_step(its, mp, &remaining, strict.clone()));
                remaining.retain(|i| !strict.contains(i));
                continue;
            }
            // A quotient of two growing values that shrinks by a constant factor per lap
            // (Lommen's `non_linear15`): a logarithmic number of laps per stretch.
            // A fallback: quick queries (as the multiphase search's).
            let mut quick = crate::smt::solver(limits.query_timeout.min(QUICK_TIMEOUT));
            if let Some(r) = ratio::synthesize(its, &remaining, quick.as_mut()) {
                let per_entry = ratio::bound(&r);
                steps.push(RankingStep {
                    ratio: Some(r),
                    ..RankingStep::per_stretch(locs, &per_entry, &remaining, remaining.clone())
                });
                remaining.clear();
                continue;
            }
            // A function whose positive part ranks them: a weak step may also set it to at
            // most 0 (a loop's last lap resetting its counter from a value that may be
            // negative). A fallback: the quick solver.
            let _clamped = crate::trace::phase_at(3, || "positive part".to_string());
            if let Some((f, strict)) = clamped_ranking::in_force()
                .then(|| {
                    clamped_ranking::synthesize_checked(
                        its,
                        &remaining,
                        quick.as_mut(),
                        checker.as_mut(),
                    )
                })
                .flatten()
            {
                steps.push(RankingStep {
                    function: f,
                    remaining: remaining.clone(),
                    removed: strict.clone(),
                    two_phase: None,
                    multiphase: None,
                    word_size: None,
                    ratio: None,
                    quadratic_guard: None,
                    clamped: true,
                });
                remaining.retain(|i| !strict.contains(i));
                continue;
            }
            // A guard value that each transition changes by a linear function of counters
            // stepping by constants (FGPSF09's `poly2`): after k_t uses of each transition it is
            // at most a negative definite form in the counts, so each stretch is short. Last:
            // it only answers where everything else failed.
            if let Some(q) = quadratic_guard::synthesize(its, &remaining, quick.as_mut()) {
                let per_entry = quadratic_guard::bound(&q);
                steps.push(RankingStep {
                    quadratic_guard: Some(q),
                    ..RankingStep::per_stretch(locs, &per_entry, &remaining, remaining.clone())
                });
                remaining.clear();
                continue;
            }
            return Err(format!(
                "no linear ranking function for {{{}}} at {}",
                names(&remaining),
                locs.iter()
                    .map(|l| its.locations[*l].as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        };
        let mut removed = Vec::new();
        for &i in &remaining {
            match ranking::check(checker.as_mut(), &f, &its.transitions[i]) {
                Decrease::Strict => removed.push(i),
                Decrease::Weak => {}
                Decrease::Fails => {
                    return Err(format!(
                        "the ranking function {} failed its check on t{i}",
                        f.display(its)
                    ))
                }
            }
        }
        if removed.is_empty() {
            return Err(format!(
                "the ranking function {} decreases on no transition",
                f.display(its)
            ));
        }
        let before = remaining.clone();
        remaining.retain(|i| !removed.contains(i));
        steps.push(RankingStep {
            function: f,
            remaining: before,
            removed,
            two_phase: None,
            multiphase: None,
            word_size: None,
            ratio: None,
            quadratic_guard: None,
            clamped: false,
        });
    }
    Ok(SccProof {
        locations: locs.to_vec(),
        transitions: inside.to_vec(),
        steps,
    })
}

/// The step of a checked multiphase function `mp` that is strict on `strict`.
fn multiphase_step(
    its: &Its,
    mp: Multiphase,
    remaining: &[usize],
    strict: Vec<usize>,
) -> RankingStep {
    let last = mp.phases.last().cloned().unwrap_or(RankingFunction {
        at: Default::default(),
    });
    // The single-loop two-phase form, for readers of `two_phase`.
    let two_phase = match (&mp.phases[..], remaining) {
        ([f1, f2], [i]) if strict == [*i] => {
            let l = its.transitions[*i].source;
            Some(TwoPhase {
                f1: f1.get(l),
                f2: f2.get(l),
            })
        }
        _ => None,
    };
    RankingStep {
        function: last,
        remaining: remaining.to_vec(),
        removed: strict,
        two_phase,
        multiphase: Some(mp),
        word_size: None,
        ratio: None,
        quadratic_guard: None,
        clamped: false,
    }
}

/// The deepest multiphase function tried for `count` transitions: [`SINGLE_LOOP_MAX_DEPTH`]
/// for one transition and [`MAX_DEPTH`] for more. (Not capped by the number of variables:
/// Hark's ex006, `A' = 2A, B' = 3B` under `A ≤ 4B`, has two variables and three phases.)
fn max_depth(count: usize) -> usize {
    if count == 1 {
        SINGLE_LOOP_MAX_DEPTH
    } else {
        MAX_DEPTH
    }
}

/// Incoming × outgoing pairs up to which the retry on the cycles splits a location (one
/// more incoming, the new entry, than the loop itself has: counterex1a's head has 7 × 6).
const CYCLE_PAIRS: usize = 64;

/// `its` with only the transitions inside its SCCs, entered from a new start location
/// by a transition without guard to each location on a cycle (any state there). For
/// termination alone: an infinite run ends inside one SCC, and from the state it is in
/// there the new ITS has the same run; so when every run of the new ITS ends, every run
/// of `its` does. (The original guards keep their invariants; the new entries assume
/// nothing, so invariants found again on the new ITS hold everywhere they are added.)
fn cycles_only(its: &Its) -> Its {
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    let mut out = its.clone();
    out.transitions.clear();
    let mut heads = Vec::new();
    for locs in graph::sccs(its, &all) {
        let inside = graph::inside(its, &all, &locs);
        if !inside.is_empty() {
            heads.extend(locs);
            out.transitions
                .extend(inside.iter().map(|&i| its.transitions[i].clone()));
        }
    }
    let mut name = String::from("cycles_start");
    while its.locations.contains(&name) {
        name.push('_');
    }
    let start = out.location(&name);
    out.start = start;
    let identity: Vec<Poly> = (0..its.arity()).map(Poly::var).collect();
    for l in heads {
        out.transitions.push(crate::its::Transition {
            source: start,
            targets: vec![(l, identity.clone())],
            guard: Vec::new(),
            cost: Poly::constant(1),
            temps: Vec::new(),
            com: false,
        });
    }
    out
}

/// The cyclic SCCs (location sets) of `its` that [`prove`] finds no proof for, each tried
/// on its own (where `prove` stops at the first): the parts a refinement should work on.
pub fn unproved_sccs(its: &Its, limits: &Limits) -> Vec<Vec<usize>> {
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    graph::sccs(its, &all)
        .into_iter()
        .filter(|locs| {
            let inside = graph::inside(its, &all, locs);
            !inside.is_empty() && prove_scc_cached(its, locs, &inside, limits).is_err()
        })
        .collect()
}

/// As [`prove`]; when that finds no proof, retries on the ITS refined by partial
/// evaluation of the SCCs without one ([`crate::preprocess::refine_by_partial_evaluation`]:
/// same runs), then unfolded by the last transition ([`crate::preprocess::refine`]), within about twice the first attempt's time plus two seconds. Returns the
/// ITS the proof's transition indices refer to.
pub fn prove_refining(its: &Its, limits: &Limits) -> (Its, Termination) {
    let started = Instant::now();
    let asked = crate::smt::queries();
    let first = prove(its, limits);
    if matches!(first, Termination::Yes(_)) {
        return (its.clone(), first);
    }
    let retry = limits.for_retry(started.elapsed());
    let _budget = retry_budget(crate::smt::queries() - asked);
    prove_refined(its, &retry).unwrap_or((its.clone(), first))
}

/// The retries of [`prove_refining`] within `retry`; `None` when none proves termination.
fn prove_refined(its: &Its, retry: &Limits) -> Option<(Its, Termination)> {
    let original = its;
    // The relational invariants first (T2's `new_ex`: `A ≥ C + 1` bounds `A` where
    // `C ≥ 1`), and the refinements on top of them (`eric`'s `A ≥ B`).
    let related = crate::preprocess::add_relational_invariants(its, retry.query_timeout);
    let its = &related;
    if related != *original {
        let second = prove(its, retry);
        if matches!(second, Termination::Yes(_)) {
            return Some((related, second));
        }
    }
    let sccs = unproved_sccs(its, retry);
    let refined = crate::preprocess::refine_by_partial_evaluation(
        its,
        &sccs,
        retry.query_timeout,
        retry.deadline,
    );
    if let Some(refined) = refined {
        let second = prove(&refined, retry);
        if matches!(second, Termination::Yes(_)) {
            return Some((refined, second));
        }
    }
    // Then unfolding by the last transition (as `complexity::infer_refining` does), of
    // the cycles alone: Flores-Montoya's `counterex1a` counts `y` up while `b = 0` and
    // down while `b ≠ 0`, and no step changes `b` — the two loops never follow each
    // other, but the loop head also has a dozen exits that would make the split too large.
    if Instant::now() < retry.deadline && !crate::smt::out_of_budget() {
        if let Some(unfolded) =
            crate::preprocess::refine_with(&cycles_only(its), retry.query_timeout, CYCLE_PAIRS)
        {
            let third = prove(&unfolded, retry);
            if matches!(third, Termination::Yes(_)) {
                return Some((unfolded, third));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inside [`count_retries`] a retry keeps the caller's limits and gets a query budget,
    /// whether or not a resource limit is set; outside it, what held before holds again.
    #[test]
    fn counted_retries_get_queries_not_time() {
        let before = retries_counted();
        let limits = Limits {
            query_timeout: Duration::from_secs(20),
            deadline: Instant::now() + Duration::from_secs(600),
        };
        {
            let _counted = count_retries();
            assert!(retries_counted());
            let retry = limits.for_retry(Duration::from_millis(10));
            assert_eq!(retry.deadline, limits.deadline);
            assert_eq!(retry.query_timeout, limits.query_timeout);
            let asked = crate::smt::queries();
            let budget = retry_budget(5);
            assert!(budget.is_some());
            assert!(!crate::smt::out_of_budget());
            drop(budget);
            assert_eq!(crate::smt::queries(), asked);
        }
        assert_eq!(retries_counted(), before);
        if !before {
            // Timed: about twice the first attempt's time plus two seconds.
            let retry = limits.for_retry(Duration::from_millis(10));
            assert!(retry.deadline < limits.deadline);
            assert!(retry_budget(5).is_none());
        }
    }

    /// The queries [`unproved_sccs`] asks with the positive-part functions switched off, after
    /// [`prove`] with them in force, on a one-loop ITS at `l1`.
    fn asked_without_the_rule_after(loop_at_l1: &str) -> (Vec<Vec<usize>>, u64) {
        let its = crate::parse_koat(&format!(
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR A B)\n(RULES\n  \
             l0(A,B) -> l1(A,B)\n{loop_at_l1})\n"
        ))
        .unwrap();
        crate::smt::set_rlimit(Some(5_000_000));
        let limits = Limits {
            query_timeout: Duration::from_secs(10),
            deadline: Instant::now() + Duration::from_secs(600),
        };
        let _ = prove(&its, &limits);
        let asked = crate::smt::queries();
        let _off = clamped_ranking::switched_off();
        let unproved = unproved_sccs(&its, &limits);
        (unproved, crate::smt::queries() - asked)
    }

    /// A proof without a positive-part step, and a failure with the rule in force, are the
    /// answers without it (the rule is the last fallback): no query. A proof with such a step
    /// (pasta's a.10) is not: that SCC is proved again without the rule, and fails.
    #[test]
    fn answers_with_the_rule_serve_without_it_unless_they_use_it() {
        let countdown = "  l1(A,B) -> l1(A - 1,B) :|: A >= 1\n";
        assert_eq!(asked_without_the_rule_after(countdown), (vec![], 0));
        let forever = "  l1(A,B) -> l1(A + B,B) :|: A >= 1 && B >= 0\n";
        assert_eq!(asked_without_the_rule_after(forever), (vec![vec![1]], 0));
        let exclusive = "  l1(A,B) -> l1(A,B + 1) :|: A >= B + 1\n  \
                         l1(A,B) -> l1(A + 1,B) :|: B >= A + 1\n";
        let (unproved, asked) = asked_without_the_rule_after(exclusive);
        assert_eq!(unproved, vec![vec![1]]);
        assert!(asked > 0, "a.10 was not proved again without the rule");
    }
}
