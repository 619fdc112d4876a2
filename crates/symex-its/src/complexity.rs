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
    guard_constant, non_growing, non_growing_above, temp_bound, update_bound, value_upper_bound,
    TempBound,
};
use crate::multiphase;
use crate::poly::Poly;
use crate::ranking::{self, Decrease};
use crate::scc_size;
use crate::termination::{self, Limits, SccProof, Termination};
use crate::twn::{self, TwnLoop};
use std::collections::HashMap;
use std::time::{Duration, Instant};

mod twn_entries;

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
}

/// Infers a bound, or says why there is none.
pub fn infer(its: &Its, limits: &Limits) -> Result<Complexity, String> {
    let (proof, twn) = match termination::prove(its, limits) {
        Termination::Yes(p) => (p, Vec::new()),
        Termination::Maybe(reason, _) => twn::prove_with_twn(its, limits).ok_or(reason)?,
    };
    let mut ctx = Ctx::new(its, limits);
    ctx.twn = twn.clone();
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
            ctx.scc(scc)?;
        }
    }
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
        twn,
    })
}

/// As [`infer`]; when that finds no finite bound, retries on refinements of the ITS (same
/// runs, same costs): partial evaluation of the SCCs without a proof
/// ([`crate::preprocess::refine_by_partial_evaluation`]), then unfolding by the last
/// transition ([`crate::preprocess::refine`]). Returns the ITS the result's transition
/// indices refer to.
pub fn infer_refining(its: &Its, limits: &Limits) -> (Its, Result<Complexity, String>) {
    let started = Instant::now();
    let first = infer(its, limits);
    if rank(&first) == 2 {
        return (its.clone(), first);
    }
    // The retries get about twice the time of the first attempt (at least a second or
    // two): on large systems that no refinement helps, the answer stays quick.
    let budget = started.elapsed() * 2 + Duration::from_secs(2);
    let retry = Limits {
        query_timeout: limits.query_timeout.min(budget),
        deadline: limits.deadline.min(Instant::now() + budget),
    };
    let mode = std::env::var("ITS_REFINE").unwrap_or_else(|_| "pe,unfold".into());
    // The targets refer to the original ITS's transitions: computed before a refinement wins.
    let targets = mode
        .split(',')
        .any(|how| how == "pe")
        .then(|| refinement_targets(its, &first, &retry));
    let mut best = (its.clone(), first);
    for how in mode.split(',') {
        let refined = match (how, &targets) {
            ("pe", Some(sccs)) => crate::preprocess::refine_by_partial_evaluation(
                its,
                sccs,
                retry.query_timeout,
                retry.deadline,
            ),
            ("unfold", _) => crate::preprocess::refine(its, retry.query_timeout),
            _ => None,
        };
        let Some(refined) = refined else { continue };
        let c = infer(&refined, &retry);
        // A refinement's bound is taken when it is better: polynomial before exponential.
        if rank(&c) > rank(&best.1) {
            best = (refined, c);
            if rank(&best.1) == 2 {
                break;
            }
        }
    }
    best
}

/// How good an inference's answer is: 2 polynomial, 1 finite (exponential), 0 none.
fn rank(r: &Result<Complexity, String>) -> u8 {
    match r {
        Ok(c) if c.bound.is_polynomial() => 2,
        Ok(c) if c.bound != Bound::Infinite => 1,
        _ => 0,
    }
}

/// The SCCs a refinement should work on after `first` failed: those with a transition
/// without a finite runtime bound, else those without a termination proof, else every
/// cyclic SCC (runtime and size bounds that wait for each other).
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
    let unproved = termination::unproved_sccs(its, limits);
    if unproved.is_empty() {
        cyclic
    } else {
        unproved
    }
}

/// The time all fallback queries of one inference may take together.
const FALLBACK_BUDGET: Duration = Duration::from_secs(4);

struct Ctx<'a> {
    its: &'a Its,
    /// Runtime bound per transition.
    rb: Vec<Option<Bound>>,
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
    solver: Box<dyn symex_solver::Solver>,
    /// When the proof gives up.
    deadline: Instant,
    /// A solver with a short time limit, and the time left for its fallback queries
    /// ([`Ctx::invariant_size`], [`Ctx::resynthesize`]): on large SCCs with many
    /// unbounded variables they would otherwise take most of the time.
    quick: Box<dyn symex_solver::Solver>,
    fallback_left: Duration,
    /// The loops bounded by their closed forms ([`twn_entries`]).
    twn: Vec<TwnLoop>,
}

impl<'a> Ctx<'a> {
    fn new(its: &'a Its, limits: &Limits) -> Ctx<'a> {
        Ctx {
            its,
            rb: vec![None; its.transitions.len()],
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
            solver: crate::smt::solver(limits.query_timeout),
            deadline: limits.deadline,
            quick: crate::smt::solver(limits.query_timeout.min(termination::QUICK_TIMEOUT)),
            fallback_left: FALLBACK_BUDGET,
            twn: Vec::new(),
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
            let key = (e, w);
            if !self.temp_bounds.contains_key(&key) {
                let tb = temp_bound(self.solver.as_mut(), &self.its.transitions[e], n, w);
                self.temp_bounds.insert(key, tb);
            }
            let Some(tb) = self.temp_bounds[&key].clone() else {
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
            Some((locs, _)) if locs.contains(&source) => self.scc_var_size(w),
            _ => None,
        }
    }

    fn trivial_component(&mut self, locs: &[usize]) {
        for &l in locs {
            for v in 0..self.its.arity() {
                let s = self.entry_size(&[l], v).unwrap_or(Bound::Infinite);
                self.pre[l][v] = Some(s);
            }
            for i in 0..self.its.transitions.len() {
                if self.its.transitions[i].source == l {
                    self.rb[i] = Some(Bound::constant(1));
                }
            }
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
        if result == Some(Bound::Infinite) {
            // Variables updated from each other: bounded together.
            // (Waiting for a runtime bound it needs is not cached.)
            if let Some(b) = self.group_size(&locs, &inside, v) {
                result = b;
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
        if !self.invariant_tried.insert(v) || !self.fallback_time_left() {
            return None;
        }
        let its = self.its;
        let started = Instant::now();
        let g = scc_size::invariant_bound(its, inside, v, self.quick.as_mut());
        self.fallback_left = self.fallback_left.saturating_sub(started.elapsed());
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
                let step = exp_size::group_max_step(t, &group, &mut keeps).map(|(f, mut r)| {
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
            if let Some(copies) = copies {
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
        match self.guard_reset(i, v) {
            Some(Some(b)) if b != Bound::Infinite => Some((Bound::constant(1), b)),
            Some(None) if !growing => None,
            _ => from_update,
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
        let mut done = vec![false; proof.steps.len()];
        while done.iter().any(|d| !d) || self.twn_open(proof) {
            let mut progress = self.twn_progress(proof);
            for (k, step) in proof.steps.iter().enumerate() {
                if done[k] {
                    continue;
                }
                if let Some(b) = self.step_bound(step) {
                    for &t in &step.removed {
                        self.rb[t] = Some(b.clone());
                    }
                    done[k] = true;
                    progress = true;
                }
            }
            if !progress {
                progress = self.resynthesize(proof, &mut done);
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
                return Err(format!(
                    "runtime and size bounds of an SCC depend on each other (no bound for {})",
                    open.join(", ")
                ));
            }
        }
        // Sizes at the SCC's locations, for the transitions leaving it.
        for v in 0..self.its.arity() {
            let s = self.scc_var_size(v).unwrap_or(Bound::Infinite);
            for &l in &proof.locations {
                self.pre[l][v] = Some(s.clone());
            }
        }
        for i in 0..self.its.transitions.len() {
            let t = &self.its.transitions[i];
            if proof.locations.contains(&t.source) && !proof.transitions.contains(&i) {
                self.rb[i] = Some(Bound::constant(1));
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
            if !self.fallback_time_left() {
                return None;
            }
            let started = Instant::now();
            let t = &self.its.transitions[e];
            let after = f.substitute(&|w| t.update()[w].clone());
            let b = value_upper_bound(self.quick.as_mut(), t, self.its.arity(), &after);
            self.fallback_left = self.fallback_left.saturating_sub(started.elapsed());
            self.upper_bounds.insert(key.clone(), b);
        }
        let ub = self.upper_bounds[&key].clone()?;
        self.compose_sizes_before(e, &ub)
            .filter(|b| *b != Bound::Infinite)
    }

    /// `Σ_{e entering T'} RB(e) · |f_{target(e)}|(SB(e))`, or `None` if some part is not
    /// known yet.
    fn step_bound(&mut self, step: &termination::RankingStep) -> Option<Bound> {
        if step.multiphase.is_none() && step.two_phase.is_none() && self.is_scc_wide(step) {
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
                if self.rb[t].is_some() || !self.fallback_time_left() {
                    continue;
                }
                let started = Instant::now();
                let f = crate::farkas::synthesize_strict_on(
                    its,
                    &proof.transitions,
                    &[t],
                    self.quick.as_mut(),
                );
                let checked = f.as_ref().is_some_and(|f| {
                    proof.transitions.iter().all(|&i| {
                        let d = ranking::check(self.solver.as_mut(), f, &its.transitions[i]);
                        d == Decrease::Strict || (i != t && d == Decrease::Weak)
                    })
                });
                self.fallback_left = self.fallback_left.saturating_sub(started.elapsed());
                if let Some(f) = f.filter(|_| checked) {
                    self.rb[t] = self.scc_wide_bound(&f);
                }
                if self.rb[t].is_none() {
                    self.resynthesize_inner(proof, t);
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
            if weak.len() == proof.transitions.len() || !self.fallback_time_left() {
                continue;
            }
            let started = Instant::now();
            let f =
                crate::farkas::synthesize_strict_on(self.its, &weak, &strict, self.quick.as_mut());
            let checked = f.as_ref().is_some_and(|f| {
                weak.iter().all(|&i| {
                    let d = ranking::check(self.solver.as_mut(), f, &self.its.transitions[i]);
                    d == Decrease::Strict || (!strict.contains(&i) && d == Decrease::Weak)
                })
            });
            self.fallback_left = self.fallback_left.saturating_sub(started.elapsed());
            let Some(f) = f.filter(|_| checked) else {
                continue;
            };
            let step = termination::RankingStep {
                function: f,
                remaining: weak,
                removed: strict.clone(),
                two_phase: None,
                multiphase: None,
            };
            if let Some(b) = self.entries_bound(&step) {
                for &i in &strict {
                    if self.rb[i].is_none() {
                        self.rb[i] = Some(b.clone());
                    }
                }
                return;
            }
        }
    }

    fn fallback_time_left(&self) -> bool {
        self.fallback_left > Duration::ZERO && Instant::now() < self.deadline
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
