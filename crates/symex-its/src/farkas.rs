//! Synthesis of linear ranking functions with Farkas' lemma (Podelski & Rybalchenko):
//! the template `f_l(x̄) = a_l·x̄ + a0_l` has unknown integer coefficients; each
//! implication `A·z ≤ b ⇒ c·z ≤ d` over a transition's linear constraints holds when some
//! `λ ≥ 0` has `λA = c` and `λb ≤ d`, which is linear in `λ` and the unknowns together,
//! so one query to Z3 (linear integer arithmetic) finds the coefficients. Over the
//! rationals the condition is also necessary; a rational solution scales to an integer
//! one, so working over ℤ loses nothing.
//!
//! The constraints of a transition keep the linear guard atoms and linear updates; a
//! non-linear atom is dropped and a non-linear update leaves the new value free: the
//! relation only grows, so what is proved for it holds for the transition. Squares in
//! updates are columns of their own with linear facts about them instead
//! ([`crate::monomial_relaxation`]).

use crate::its::{Its, Rel, Transition};
use crate::monomial_relaxation;
use crate::poly::{Monomial, Poly};
use crate::ranking::RankingFunction;
use std::collections::BTreeMap;
use symex_expr::{Sort, Term};
use symex_solver::Solver;

/// The linear constraints of a transition: its guard as rows `row·z ≤ bound` over
/// `z = (x̄, temporaries)`, and each new value `x'_i` as a linear form `row·z + k` of `z`
/// (`None` when the update is not linear: `x'_i` is then free).
///
/// The updates are substituted into the implications rather than added as rows
/// `x'_i − u_i = 0`: the multipliers of those rows are determined by the coefficients of
/// `x'` anyway (each `x'_i` occurs in its row alone), so substituting asks the same
/// question with a Farkas multiplier per guard atom only — on T2's hqr (54 variables,
/// 70 transitions) about 800 multipliers instead of 17 000.
///
/// Rows and updates run over `z` and then the transition's relaxed monomials (`columns`
/// of them, [`monomial_relaxation`]), which no template mentions.
struct Constraints {
    rows: Vec<(Vec<i128>, i128)>,
    updates: Vec<Option<(Vec<i128>, i128)>>,
    columns: usize,
}

/// `p` as a row over `z` (`width` wide) and the relaxed `monomials`, or `None` when it is
/// not linear over them.
fn linear_row(p: &Poly, width: usize, monomials: &[Monomial]) -> Option<(Vec<i128>, i128)> {
    let mut row = vec![0; width + monomials.len()];
    for (m, c) in p.terms() {
        match m.as_slice() {
            [] => {}
            [(v, 1)] => *row.get_mut(*v)? = c,
            _ => row[width + monomials.iter().position(|x| x == m)?] = c,
        }
    }
    Some((row, p.constant_term()))
}

fn constraints(its: &Its, t: &Transition) -> Constraints {
    let width = its.arity() + t.temps.len();
    let monomials = monomial_relaxation::columns(t);
    let mut rows = Vec::new();
    // p ≥ 0 with p = c·z + k is −c·z ≤ k.
    let mut ge0 = |p: &Poly| {
        if let Some((c, k)) = linear_row(p, width, &monomials) {
            rows.push((c.iter().map(|x| -x).collect(), k));
        }
    };
    for (j, m) in monomials.iter().enumerate() {
        for fact in monomial_relaxation::facts(t, m, width + j) {
            ge0(&fact);
        }
    }
    for a in &t.guard {
        match a.rel {
            Rel::Ge => ge0(&a.poly),
            Rel::Eq => {
                ge0(&a.poly);
                ge0(&a.poly.scale(-1));
            }
            Rel::Ne => {}
        }
    }
    let updates = t
        .update()
        .iter()
        .map(|u| linear_row(u, width, &monomials))
        .collect();
    Constraints {
        rows,
        updates,
        columns: monomials.len(),
    }
}

/// Unknown coefficients of the template.
struct Template {
    coeffs: BTreeMap<usize, (Vec<Term>, Term)>,
}

impl Template {
    /// Unknowns named `{prefix}_{l}_{v}` and `{prefix}0_{l}` (distinct per phase).
    fn named(its: &Its, locs: &[usize], prefix: &str) -> Template {
        Template::over(its, locs, prefix, &vec![true; its.arity()])
    }

    /// As [`Template::named`], with coefficient 0 for each variable `v` without `used[v]`.
    fn over(its: &Its, locs: &[usize], prefix: &str, used: &[bool]) -> Template {
        let coeffs = locs
            .iter()
            .map(|&l| {
                let a = (0..its.arity())
                    .map(|v| match used[v] {
                        true => Term::var(&format!("{prefix}_{l}_{v}"), Sort::Int),
                        false => Term::int(0),
                    })
                    .collect();
                (l, (a, Term::var(&format!("{prefix}0_{l}"), Sort::Int)))
            })
            .collect();
        Template { coeffs }
    }

    /// The polynomials of a model.
    fn read(&self, value: &dyn Fn(&Term) -> i128) -> RankingFunction {
        let at = self
            .coeffs
            .iter()
            .map(|(l, (a, a0))| {
                let mut p = Poly::constant(value(a0));
                for (v, av) in a.iter().enumerate() {
                    p = p.add(&Poly::var(v).scale(value(av)));
                }
                (*l, p)
            })
            .collect();
        RankingFunction { at }
    }
}

/// The locations of the transitions `ts`.
fn locations(its: &Its, ts: &[usize]) -> Vec<usize> {
    let mut locs: Vec<usize> = ts
        .iter()
        .flat_map(|&i| [its.transitions[i].source, its.transitions[i].target()])
        .collect();
    locs.sort_unstable();
    locs.dedup();
    locs
}

fn sum(terms: impl IntoIterator<Item = Term>) -> Term {
    terms.into_iter().fold(Term::int(0), |acc, t| acc.iadd(&t))
}

/// `A·z ≤ b ⇒ c·z ≤ d` by Farkas, for `c` over `(x̄, temporaries, x̄')`: the updates
/// substituted for `x̄'` (a non-linear one must get coefficient 0), then fresh `λ ≥ 0`
/// with `λA = c ∧ λb ≤ d`.
fn implication(cs: &Constraints, c: &[Term], d: &Term, name: &str) -> Vec<Term> {
    let width = c.len() - cs.updates.len();
    let mut pre = c[..width].to_vec();
    // The relaxed monomials are in no template: only the updates bring them in.
    pre.extend((0..cs.columns).map(|_| Term::int(0)));
    let mut d = d.clone();
    let mut out = Vec::new();
    for (ci, update) in c[width..].iter().zip(&cs.updates) {
        if ci.as_int() == Some(0) {
            continue;
        }
        // c_i·x'_i = c_i·(row·z + k).
        match update {
            None => out.push(ci.eq(&Term::int(0))),
            Some((row, k)) => {
                for (p, &r) in pre.iter_mut().zip(row) {
                    if r != 0 {
                        *p = p.iadd(&Term::int(r).imul(ci));
                    }
                }
                if *k != 0 {
                    d = d.isub(&Term::int(*k).imul(ci));
                }
            }
        }
    }
    let lambda: Vec<Term> = (0..cs.rows.len())
        .map(|i| Term::var(&format!("{name}_{i}"), Sort::Int))
        .collect();
    out.extend(lambda.iter().map(|l| Term::int(0).ile(l)));
    for (j, cj) in pre.iter().enumerate() {
        let combo = sum(cs
            .rows
            .iter()
            .zip(&lambda)
            .filter(|((row, _), _)| row[j] != 0)
            .map(|((row, _), l)| Term::int(row[j]).imul(l)));
        if combo.as_int() != Some(0) || cj.as_int() != Some(0) {
            out.push(combo.eq(cj));
        }
    }
    let lb = sum(cs
        .rows
        .iter()
        .zip(&lambda)
        .filter(|((_, b), _)| *b != 0)
        .map(|((_, b), l)| Term::int(*b).imul(l)));
    out.push(lb.ile(&d));
    out
}

/// Templates of more unknowns than this (variables times transitions) only get the
/// variables [`relevant_variables`] keeps.
const LARGE_TEMPLATE: usize = 400;

/// Which variables the ranking template for `ts` (over `locs` locations) gets a
/// coefficient for: all of them, except in an SCC of one location or a large query,
/// where only the [`relevant_variables`].
fn template_variables(its: &Its, ts: &[usize], locs: usize) -> Vec<bool> {
    if locs == 1 || its.arity() * ts.len() > LARGE_TEMPLATE {
        relevant_variables(its, ts)
    } else {
        vec![true; its.arity()]
    }
}

/// The variables of the linear guard atoms of `ts`, closed under the linear updates of
/// `ts` (a variable whose new value depends on `w` makes `w` relevant).
///
/// At a single location this loses no ranking function: a strict transition's guard must
/// imply `f ≥ 1`, and by Farkas `f`'s coefficients are then a combination of that guard's
/// (linear) atoms, so every variable outside all guards has coefficient 0. Across several
/// locations a function may carry a value through variables no guard reads (`f_l1 = v`
/// with `x' = v` on `l1 → l2`, `f_l2 = x`); the closure under the updates keeps those
/// that flow into a guard variable, and large SCCs (T2's slayer-3: 100 variables, 328
/// loops; hqr: 53, 79) are only searched over these, which makes their queries a
/// fraction of the size.
fn relevant_variables(its: &Its, ts: &[usize]) -> Vec<bool> {
    let n = its.arity();
    let mut used = vec![false; n];
    for &i in ts {
        for a in &its.transitions[i].guard {
            if a.poly.is_linear() && a.rel != Rel::Ne {
                for v in a.poly.vars().into_iter().filter(|&v| v < n) {
                    used[v] = true;
                }
            }
        }
    }
    loop {
        let mut changed = false;
        for &i in ts {
            for (v, u) in its.transitions[i].update().iter().enumerate() {
                if !used[v] || !monomial_relaxation::is_linear_over_columns(u) {
                    continue;
                }
                for w in u.vars().into_iter().filter(|&w| w < n) {
                    changed |= !used[w];
                    used[w] = true;
                }
            }
        }
        if !changed {
            return used;
        }
    }
}

/// Finds a linear ranking function for the transitions `ts` (indices, single targets):
/// non-increasing on all of them and strictly decreasing and bounded on at least one.
/// `None` when there is none (or the solver cannot tell). With `constant_only`, every
/// `a_l` is 0: the function only orders locations, and its bound needs no size bounds.
pub fn synthesize(
    its: &Its,
    ts: &[usize],
    solver: &mut dyn Solver,
    constant_only: bool,
) -> Option<RankingFunction> {
    synthesize_with(its, ts, &[], solver, constant_only)
}

/// As [`synthesize`], and strictly decreasing and bounded on every transition of
/// `strict` (a subset of `ts`): a function for those transitions that never increases on
/// the others, e.g. on a whole SCC.
pub fn synthesize_strict_on(
    its: &Its,
    ts: &[usize],
    strict: &[usize],
    solver: &mut dyn Solver,
) -> Option<RankingFunction> {
    synthesize_with(its, ts, strict, solver, false)
}

fn synthesize_with(
    its: &Its,
    ts: &[usize],
    strict: &[usize],
    solver: &mut dyn Solver,
    constant_only: bool,
) -> Option<RankingFunction> {
    synthesize_slack(its, ts, strict, &[], solver, constant_only, None).map(|(f, _)| f)
}

/// As [`synthesize_strict_on`], with coefficient 0 for every variable `v` without `vars[v]`
/// (`complexity`'s sized variables: a function reading a variable of unbounded size after an
/// entry gets no finite bound from that entry).
pub fn synthesize_strict_over(
    its: &Its,
    ts: &[usize],
    strict: &[usize],
    vars: &[bool],
    solver: &mut dyn Solver,
) -> Option<RankingFunction> {
    synthesize_slack(its, ts, strict, &[], solver, false, Some(vars)).map(|(f, _)| f)
}

/// The most a transition of `slack` may raise the function in [`synthesize_with_slack`].
const MAX_SLACK: i128 = 64;

/// As [`synthesize_strict_on`], but each transition of `slack` (a subset of `ts`) may also
/// *raise* the function by a constant `c_t ≤ MAX_SLACK`: `f_l'(ū) − f_l(x̄) ≤ c_t` under
/// its guard. Returns the function and each `(t, c_t)` of the model (an amortised bound
/// counts `RB(t)·c_t` more strict steps, see `complexity::amortised`; the caller
/// re-checks every property).
pub fn synthesize_with_slack(
    its: &Its,
    ts: &[usize],
    strict: &[usize],
    slack: &[usize],
    solver: &mut dyn Solver,
) -> Option<(RankingFunction, Vec<(usize, i128)>)> {
    let (f, deltas) = synthesize_slack(its, ts, strict, slack, solver, false, None)?;
    let raised = ts
        .iter()
        .zip(deltas)
        .filter(|(i, d)| slack.contains(i) && *d < 0)
        .map(|(&i, d)| (i, -d))
        .collect();
    Some((f, raised))
}

/// [`synthesize_with`] with the transitions of `slack` allowed to raise the function by
/// a constant; also returns each transition's `δ` of the model (`f` drops by at least `δ`).
/// With `only`, the template has no coefficient for a variable `v` without `only[v]`.
fn synthesize_slack(
    its: &Its,
    ts: &[usize],
    strict: &[usize],
    slack: &[usize],
    solver: &mut dyn Solver,
    constant_only: bool,
    only: Option<&[bool]>,
) -> Option<(RankingFunction, Vec<i128>)> {
    let n = its.arity();
    let locs = locations(its, ts);
    // A function of the locations alone decreases on no self-loop.
    if constant_only
        && ts
            .iter()
            .all(|&i| its.transitions[i].source == its.transitions[i].target())
    {
        return None;
    }
    let mut used = template_variables(its, ts, locs.len());
    if let Some(only) = only {
        used.iter_mut().zip(only).for_each(|(u, o)| *u &= *o);
    }
    let tpl = Template::over(its, &locs, "a", &used);
    let mut query = Vec::new();
    if constant_only {
        for (a, _) in tpl.coeffs.values() {
            query.extend(a.iter().map(|x| x.eq(&Term::int(0))));
        }
    }
    let mut deltas = Vec::new();
    for &i in ts {
        let t = &its.transitions[i];
        let cs = constraints(its, t);
        let m = t.temps.len();
        let (a, a0) = &tpl.coeffs[&t.source];
        let (b, b0) = &tpl.coeffs[&t.target()];
        // f_l'(x') − f_l(x) ≤ −δ:  c = (−a, 0, b), d = a0 − b0 − δ.
        let delta = Term::var(&format!("delta_{i}"), Sort::Int);
        let low = if strict.contains(&i) {
            1
        } else if slack.contains(&i) {
            -MAX_SLACK
        } else {
            0
        };
        query.push(Term::int(low).ile(&delta));
        query.push(delta.ile(&Term::int(1)));
        let mut c: Vec<Term> = a.iter().map(|x| x.ineg()).collect();
        c.extend((0..m).map(|_| Term::int(0)));
        c.extend(b.iter().cloned());
        let d = a0.isub(b0).isub(&delta);
        query.extend(implication(&cs, &c, &d, &format!("lam_{i}")));
        // δ = 1 ⇒ f_l(x) ≥ 1.
        let (cb, db) = at_least(&tpl.coeffs[&t.source], m, n, 1);
        let bounded = implication(&cs, &cb, &db, &format!("mu_{i}"));
        query.push(delta.eq(&Term::int(1)).implies(&Term::and_all(&bounded)));
        deltas.push(delta);
    }
    if slack.is_empty() {
        query.push(Term::int(1).ile(&sum(deltas.clone())));
    }
    let model = solver.model(&query).ok()??;
    let value = |t: &Term| model.value_of(t).as_int().unwrap_or(0);
    Some((tpl.read(&value), deltas.iter().map(value).collect()))
}

/// `f_l'(x') − f_l(x) − g_l(x) ≤ −k` as `c·z ≤ d` over `z = (x̄, temporaries, x̄')`, with
/// `f = (a, a0)` at the source, `(b, b0)` at the target and `g = (ga, ga0)` (optional) at
/// the source.
fn difference(
    (a, a0): &(Vec<Term>, Term),
    (b, b0): &(Vec<Term>, Term),
    g: Option<&(Vec<Term>, Term)>,
    m: usize,
    k: i128,
) -> (Vec<Term>, Term) {
    let mut c: Vec<Term> = match g {
        Some((ga, _)) => a.iter().zip(ga).map(|(x, y)| x.ineg().isub(y)).collect(),
        None => a.iter().map(|x| x.ineg()).collect(),
    };
    c.extend((0..m).map(|_| Term::int(0)));
    c.extend(b.iter().cloned());
    let mut d = a0.isub(b0).isub(&Term::int(k));
    if let Some((_, ga0)) = g {
        d = d.iadd(ga0);
    }
    (c, d)
}

/// `f_l(x) ≥ k` as `c·z ≤ d` over `z = (x̄, temporaries, x̄')`: `c = (−a, 0, 0)`, `d = a0 − k`,
/// with `f = (a, a0)` at the source and `m` temporaries (the bound part of a strict step).
fn at_least((a, a0): &(Vec<Term>, Term), m: usize, n: usize, k: i128) -> (Vec<Term>, Term) {
    let mut c: Vec<Term> = a.iter().map(|x| x.ineg()).collect();
    c.extend((0..m + n).map(|_| Term::int(0)));
    let d = if k == 0 {
        a0.clone()
    } else {
        a0.isub(&Term::int(k))
    };
    (c, d)
}

/// Finds a linear function `f` (per location) whose positive part `max(f, 0)` ranks the
/// transitions `ts` ([`crate::clamped_ranking`]): on each transition either `f` is strictly
/// decreasing and bounded (`f ≥ 1`, `f' ≤ f − 1`, as in [`synthesize`]) or *clamped weak* —
/// `f' ≤ f` or `f' ≤ 0`, one of the two by Farkas, the solver choosing which — and at least
/// one transition is strict. `None` when there is none (or the solver cannot tell).
pub fn synthesize_clamped(
    its: &Its,
    ts: &[usize],
    solver: &mut dyn Solver,
) -> Option<RankingFunction> {
    let n = its.arity();
    let locs = locations(its, ts);
    let used = template_variables(its, ts, locs.len());
    let tpl = Template::over(its, &locs, "a", &used);
    let mut query = Vec::new();
    let mut stricts = Vec::new();
    for &i in ts {
        let t = &its.transitions[i];
        let cs = constraints(its, t);
        let m = t.temps.len();
        let (src, tgt) = (&tpl.coeffs[&t.source], &tpl.coeffs[&t.target()]);
        let (c, d) = difference(src, tgt, None, m, 1);
        let mut strict = implication(&cs, &c, &d, &format!("cs_{i}"));
        let (cb, db) = at_least(src, m, n, 1);
        strict.extend(implication(&cs, &cb, &db, &format!("cb_{i}")));
        let (c, d) = difference(src, tgt, None, m, 0);
        let weak = implication(&cs, &c, &d, &format!("cw_{i}"));
        // f_l'(x') ≤ 0: c = (0, 0, b), d = −b0.
        let mut c: Vec<Term> = (0..n + m).map(|_| Term::int(0)).collect();
        c.extend(tgt.0.iter().cloned());
        let clamped = implication(&cs, &c, &tgt.1.ineg(), &format!("cz_{i}"));
        let s = Term::var(&format!("strict_{i}"), Sort::Bool);
        query.push(s.implies(&Term::and_all(&strict)));
        query.push(
            s.not()
                .implies(&Term::and_all(&weak).or(&Term::and_all(&clamped))),
        );
        stricts.push(s);
    }
    query.push(Term::or_all(&stricts));
    let model = solver.model(&query).ok()??;
    Some(tpl.read(&|t: &Term| model.value_of(t).as_int().unwrap_or(0)))
}

/// Finds a nested multiphase ranking function `(f_1, …, f_depth)` (per location) for the
/// transitions `ts`, in one query: on every transition either every phase is
/// non-increasing, or the step is *strict* — `f_1` drops by at least 1, each `f_i`
/// (`i ≥ 2`) drops by at least `1 − f_{i−1}(x̄)`, and `f_depth(x̄) ≥ 0` — and at least one
/// transition is strict, and every one of `forced` is. See [`crate::multiphase`] for why
/// this bounds the strict steps. `Ok(None)` when there is none, `Err` when the solver
/// cannot tell.
pub fn synthesize_multiphase(
    its: &Its,
    ts: &[usize],
    forced: &[usize],
    depth: usize,
    solver: &mut dyn Solver,
) -> Result<Option<Vec<RankingFunction>>, symex_solver::Unknown> {
    let n = its.arity();
    let locs = locations(its, ts);
    let phases: Vec<Template> = (0..depth)
        .map(|p| Template::named(its, &locs, &format!("m{p}")))
        .collect();
    let mut query = Vec::new();
    let mut deltas = Vec::new();
    for &i in ts {
        let t = &its.transitions[i];
        let cs = constraints(its, t);
        let m = t.temps.len();
        let (src, tgt) = (t.source, t.target());
        let mut weak = Vec::new();
        let mut strict = Vec::new();
        for (p, tpl) in phases.iter().enumerate() {
            let (f, f2) = (&tpl.coeffs[&src], &tpl.coeffs[&tgt]);
            let (c, d) = difference(f, f2, None, m, 0);
            weak.extend(implication(&cs, &c, &d, &format!("mw{p}_{i}")));
            let prev = p.checked_sub(1).map(|q| &phases[q].coeffs[&src]);
            let (c, d) = difference(f, f2, prev, m, 1);
            strict.extend(implication(&cs, &c, &d, &format!("ms{p}_{i}")));
        }
        // f_depth(x) ≥ 0.
        let (c, d) = at_least(&phases[depth - 1].coeffs[&src], m, n, 0);
        strict.extend(implication(&cs, &c, &d, &format!("mb_{i}")));
        let delta = Term::var(&format!("delta_{i}"), Sort::Bool);
        query.push(delta.not().implies(&Term::and_all(&weak)));
        query.push(delta.implies(&Term::and_all(&strict)));
        if forced.contains(&i) {
            query.push(delta.clone());
        }
        deltas.push(delta);
    }
    query.push(Term::or_all(&deltas));
    let Some(model) = solver.model(&query)? else {
        return Ok(None);
    };
    let value = |t: &Term| model.value_of(t).as_int().unwrap_or(0);
    Ok(Some(phases.iter().map(|tpl| tpl.read(&value)).collect()))
}

/// The Farkas query of a two-phase ranking function for the self-loop `t`.
pub(crate) struct TwoPhaseQuery {
    pub query: Vec<Term>,
    pub f1: (Vec<Term>, Term),
    pub f2: (Vec<Term>, Term),
}

pub(crate) fn two_phase_query(its: &Its, t: &Transition, n: usize) -> TwoPhaseQuery {
    let cs = constraints(its, t);
    let m = t.temps.len();
    let unknowns = |name: &str| {
        let a: Vec<Term> = (0..n)
            .map(|v| Term::var(&format!("{name}_{v}"), Sort::Int))
            .collect();
        (a, Term::var(&format!("{name}_0c"), Sort::Int))
    };
    let (a, a0) = unknowns("p1");
    let (b, b0) = unknowns("p2");
    let zeros = |k: usize| (0..k).map(|_| Term::int(0)).collect::<Vec<_>>();
    let mut query = Vec::new();
    // f1(x') − f1(x) ≤ −1: c = (−a, 0, a), d = −1 (constants cancel).
    let mut c: Vec<Term> = a.iter().map(|x| x.ineg()).collect();
    c.extend(zeros(m));
    c.extend(a.iter().cloned());
    query.extend(implication(&cs, &c, &Term::int(-1), "np1"));
    // f2(x') − f2(x) − f1(x) ≤ −1: c = (−b − a, 0, b), d = a0 − 1.
    let mut c: Vec<Term> = b.iter().zip(&a).map(|(x, y)| x.ineg().isub(y)).collect();
    c.extend(zeros(m));
    c.extend(b.iter().cloned());
    query.extend(implication(&cs, &c, &a0.isub(&Term::int(1)), "np2"));
    // f2(x) ≥ 0.
    let f2 = (b, b0);
    let (c, d) = at_least(&f2, m, n, 0);
    query.extend(implication(&cs, &c, &d, "np3"));
    TwoPhaseQuery {
        query,
        f1: (a, a0),
        f2,
    }
}

/// Finds a linear function `g` (per location) that bounds `|v|` after every transition of
/// `ts` and never increases on them: on each `l → l'`, `g_l'(x̄') ≤ g_l(x̄)`,
/// `v' ≤ g_l'(x̄')` and `−v' ≤ g_l'(x̄')`. Inside a stretch of `ts`, `|v|` is then at most
/// `g` at the stretch's entry, whatever the runtime of the transitions (a size bound
/// that needs no runtime bound). `None` when there is none.
pub fn synthesize_size_bound(
    its: &Its,
    ts: &[usize],
    v: usize,
    solver: &mut dyn Solver,
) -> Option<RankingFunction> {
    let n = its.arity();
    let tpl = Template::named(its, &locations(its, ts), "g");
    let mut query = Vec::new();
    for &i in ts {
        let t = &its.transitions[i];
        let cs = constraints(its, t);
        let m = t.temps.len();
        let (src, tgt) = (&tpl.coeffs[&t.source], &tpl.coeffs[&t.target()]);
        let (c, d) = difference(src, tgt, None, m, 0);
        query.extend(implication(&cs, &c, &d, &format!("gn_{i}")));
        // ±v' − g_l'(x̄') ≤ 0:  c = (0, 0, ±e_v − b), d = b0.
        for (sign, name) in [(1, "gp"), (-1, "gm")] {
            let mut c: Vec<Term> = (0..n + m).map(|_| Term::int(0)).collect();
            c.extend(tgt.0.iter().enumerate().map(|(w, b)| {
                let e = if w == v { sign } else { 0 };
                Term::int(e).isub(b)
            }));
            query.extend(implication(&cs, &c, &tgt.1, &format!("{name}_{i}")));
        }
    }
    let model = solver.model(&query).ok()??;
    Some(tpl.read(&|t: &Term| model.value_of(t).as_int().unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn its(rules: &str) -> Its {
        let src = format!(
            "(GOAL TERMINATION)\n(STARTTERM (FUNCTIONSYMBOLS l1))\n(VAR X V Z)\n(RULES\n{rules})\n"
        );
        crate::parse_koat(&src).unwrap()
    }

    #[test]
    fn relevant_variables_follow_the_updates_into_the_guards() {
        // V reaches the guard variable X through `X' = V`; Z is read by no guard.
        let its =
            its("  l1(X, V, Z) -> l2(V, V, Z + 1)\n  l2(X, V, Z) -> l1(X, X - 1, Z) :|: X >= 1\n");
        assert_eq!(relevant_variables(&its, &[0, 1]), vec![true, true, false]);
        // f_l1 = V, f_l2 = X needs V: found over the relevant variables alone.
        let used = relevant_variables(&its, &[0, 1]);
        let tpl = Template::over(&its, &[0, 1], "a", &used);
        assert!(tpl.coeffs[&0].0[2].as_int() == Some(0));
        let mut solver = crate::smt::counted_solver();
        let f = synthesize(&its, &[0, 1], solver.as_mut(), false).expect("a ranking function");
        use crate::ranking::{check, Decrease};
        assert_ne!(
            check(solver.as_mut(), &f, &its.transitions[0]),
            Decrease::Fails
        );
        assert_eq!(
            check(solver.as_mut(), &f, &its.transitions[1]),
            Decrease::Strict
        );
    }

    #[test]
    fn location_only_functions_are_not_searched_on_self_loops() {
        let its = its("  l1(X, V, Z) -> l1(X - 1, V, Z) :|: X >= 1\n");
        let mut solver = crate::smt::counted_solver();
        assert!(synthesize(&its, &[0], solver.as_mut(), true).is_none());
        let f = synthesize(&its, &[0], solver.as_mut(), false).expect("X");
        // Over X alone (a single location: V and Z are read by no guard).
        assert!(f.get(0).linear_coeff(0) > 0);
        assert_eq!((f.get(0).linear_coeff(1), f.get(0).linear_coeff(2)), (0, 0));
    }
}
