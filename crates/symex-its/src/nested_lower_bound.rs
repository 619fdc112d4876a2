//! Quadratic lower bounds (`Omega(n^2)` in the competition's grammar) for nested loops, after the
//! idea of LoAT's metering functions (Frohn et al., "Lower Runtime Bounds for Integer Programs",
//! IJCAR 2016): an inner cycle is accelerated — its number of laps from a state `x` is an affine
//! function `m(x)` read off the guard atom it counts down — and the outer cycle, with the inner
//! cycle's `m(x)` laps inside each of its own laps, then has a closed form.
//!
//! The family: the start state `s(L)` gives some variables values `scale_v·L + offset_v` (one
//! variable, or all the variables the cycles depend on, tied to `L`) and every other one a
//! constant; the run takes `path` to the shared location, then `L` outer laps, each
//! made of `m(x_t)` laps of `inner` and one of `outer`. When one outer lap maps the state affinely
//! to the next and, after the first lap, moves it by a constant step (`x_t = x_1 + (t − 1)·d`, an
//! identity of polynomials checked exactly), `m(x_t) = α·L + β·t + γ` and Z3 proves for all
//! `L ≥ 1`, `t < L`, `k < m(x_t)` that every guard on the way holds and every inner lap costs at
//! least 1. The run then costs at least `Σ_t m(x_t)`, which grows like `(α + β/2)·L²` while the
//! start state's size grows like `L`: `Omega(n^2)` when `2α + β > 0`.
//!
//! Every family is replayed by plain evaluation before it is reported ([`replay`]).

use crate::its::{Atom, Its, Rel};
use crate::linear_lower_bound::paths_to;
use crate::lower_bound::{
    self, compose, pull_back, relevant_vars, sample_runs, simple_cycles, step_terms, Lap,
    MODEL_BOUND, PROBE, QUERY_TIMEOUT, SHIFTS,
};
use crate::poly::Poly;
use crate::smt;
use std::time::Instant;
use symex_expr::Term;
use symex_solver::Solver;

/// Runs whose cost grows quadratically with the start value of `var` (see the module's text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NestedFamily {
    /// The start value of each variable is `start_scale[v]·L + start_offset[v]`.
    pub start_scale: Vec<i128>,
    pub start_offset: Vec<i128>,
    /// From the start location to the location the two cycles share, with temporaries.
    pub path: Vec<usize>,
    pub path_temps: Vec<Vec<i128>>,
    /// The inner cycle, from the shared location, with the temporaries of every lap.
    pub inner: Vec<usize>,
    pub inner_temps: Vec<Vec<i128>>,
    /// The rest of an outer lap, from the shared location back to it.
    pub outer: Vec<usize>,
    pub outer_temps: Vec<Vec<i128>>,
    /// The inner cycle's laps from the state at the start of an outer lap (over the program
    /// variables).
    pub inner_laps: Poly,
    /// Twice the least cost of the run with `L` outer laps, a polynomial of degree 2 in `L`
    /// (variable 0).
    pub twice_cost: Poly,
}

impl NestedFamily {
    /// The start state of the run with `laps` outer laps.
    pub fn start_for(&self, laps: i128) -> Option<Vec<i128>> {
        self.start_scale
            .iter()
            .zip(&self.start_offset)
            .map(|(&a, &b)| a.checked_mul(laps)?.checked_add(b))
            .collect()
    }
}

/// The outer laps [`replay`] runs the family for.
pub const REPLAY_LAPS: [i128; 3] = [5, 20, 60];

/// (Nest, path, parameters) triples tried at most: each try is a probe and up to 5 proof
/// queries per acceleration and shift, and the linear family is looked for after this search.
const MAX_NEST_TRIES: usize = 40;

/// Looks for a [`NestedFamily`] within a third of the time left before `deadline` (and a fixed
/// number of tries), so that the linear search after it keeps most of the time; only a family
/// that [`replay`] confirms is returned.
pub fn prove(its: &Its, deadline: Instant) -> Option<NestedFamily> {
    if its.has_multi_targets() {
        return None;
    }
    let now = Instant::now();
    let deadline = now + deadline.saturating_duration_since(now) / 3;
    let mut solver = smt::solver(QUERY_TIMEOUT);
    let solver = solver.as_mut();
    let runs = sample_runs(its);
    let cycles = simple_cycles(its, &mut |_| true);
    let mut tries = 0;
    for a in &cycles {
        for b in &cycles {
            let Some((inner, outer)) = nest(its, a, b) else {
                continue;
            };
            let at = its.transitions[inner[0]].source;
            let both = [inner.as_slice(), &outer].concat();
            let counted = pull_back(its, &relevant_vars(its, &both), its.start, at);
            // One parameter, or all the counted variables tied to it (`n` and `m` of `i < n`,
            // `j < m`), each with either sign.
            let mut params: Vec<Vec<usize>> = counted.iter().map(|&v| vec![v]).collect();
            if counted.len() > 1 {
                params.insert(0, counted.iter().copied().collect());
            }
            for path in paths_to(its, at, &runs) {
                for vars in &params {
                    tries += 1;
                    if tries > MAX_NEST_TRIES || Instant::now() >= deadline || smt::out_of_time() {
                        return None;
                    }
                    for sign in [1, -1] {
                        let shape = Shape {
                            path: &path,
                            params: vars,
                            inner: &inner,
                            outer: &outer,
                            sign,
                        };
                        let f = try_family(its, solver, &shape).filter(|f| replay(its, f));
                        if f.is_some() {
                            return f;
                        }
                    }
                }
            }
        }
    }
    None
}

/// `inner` and `outer` as a nest: no transition in common, rotated to start at the first
/// location of `inner` that `outer` passes through.
fn nest(its: &Its, inner: &[usize], outer: &[usize]) -> Option<(Vec<usize>, Vec<usize>)> {
    if inner.iter().any(|i| outer.contains(i)) {
        return None;
    }
    let source = |i: &usize| its.transitions[*i].source;
    let ki = (0..inner.len()).find(|&k| outer.iter().any(|o| source(o) == source(&inner[k])))?;
    let at = source(&inner[ki]);
    let ko = outer.iter().position(|o| source(o) == at)?;
    Some((
        [&inner[ki..], &inner[..ki]].concat(),
        [&outer[ko..], &outer[..ko]].concat(),
    ))
}

/// What a family is tried for.
struct Shape<'a> {
    path: &'a [usize],
    /// The variables whose start values grow with `L`.
    params: &'a [usize],
    inner: &'a [usize],
    outer: &'a [usize],
    sign: i128,
}

/// The values of a model of the path, then the inner cycle twice, with the parameters at
/// `sign·PROBE` plus a small offset each (free when several are tied), and the outer part's temporaries from a model of one outer lap from any state
/// (the outer part follows the inner cycle's last lap, which the probe cannot reach when the
/// parameter is large).
struct Probed {
    /// Start values (the parameters' minus `sign·PROBE`: their offsets).
    start: Vec<i128>,
    path_temps: Vec<Vec<i128>>,
    inner_temps: Vec<Vec<i128>>,
    outer_temps: Vec<Vec<i128>>,
}

/// Bound on a tied parameter's offset.
const OFFSET_BOUND: i128 = 1000;

fn probe(its: &Its, solver: &mut dyn Solver, s: &Shape<'_>) -> Option<Probed> {
    let n = its.arity();
    let big = Term::int(MODEL_BOUND);
    let bounded = |v: &Term| [big.ineg().ile(v), v.ile(&big)];
    let offsets: Vec<Term> = (0..n).map(|v| smt::int_var("nlb_d", v)).collect();
    let start: Vec<Term> = (0..n)
        .map(|v| {
            if s.params.contains(&v) {
                Term::int(s.sign * PROBE).iadd(&offsets[v])
            } else {
                smt::int_var("nlb_s", v)
            }
        })
        .collect();
    let temps_of = |ts: &[usize], prefix: &str| -> Vec<Vec<Term>> {
        ts.iter()
            .enumerate()
            .map(|(k, &i)| {
                (0..its.transitions[i].temps.len())
                    .map(|j| smt::int_var(&format!("{prefix}{k}_"), j))
                    .collect()
            })
            .collect()
    };
    let path_temps = temps_of(s.path, "nlb_p");
    let inner_temps = temps_of(s.inner, "nlb_i");
    let outer_temps = temps_of(s.outer, "nlb_o");
    let walk = |ts: &[usize], temps: &[Vec<Term>], x: &mut Vec<Term>, out: &mut Vec<Term>| {
        for (&i, temps) in ts.iter().zip(temps) {
            let (guard, next) = step_terms(its, &its.transitions[i], x, temps);
            out.extend(guard);
            *x = next;
        }
    };
    let small = Term::int(if s.params.len() > 1 { OFFSET_BOUND } else { 0 });
    let mut constraints: Vec<Term> = (0..n)
        .flat_map(|v| {
            if s.params.contains(&v) {
                vec![small.ineg().ile(&offsets[v]), offsets[v].ile(&small)]
            } else {
                bounded(&start[v]).to_vec()
            }
        })
        .collect();
    for t in path_temps.iter().chain(&inner_temps) {
        constraints.extend(t.iter().flat_map(bounded));
    }
    let mut x = start.clone();
    walk(s.path, &path_temps, &mut x, &mut constraints);
    walk(s.inner, &inner_temps, &mut x, &mut constraints);
    walk(s.inner, &inner_temps, &mut x, &mut constraints);
    let mut outer: Vec<Term> = outer_temps.iter().flatten().flat_map(bounded).collect();
    let mut y: Vec<Term> = (0..n).map(|v| smt::int_var("nlb_y", v)).collect();
    walk(s.outer, &outer_temps, &mut y, &mut outer);
    let model = solver.model(&constraints).ok()??;
    let outer_model = solver.model(&outer).ok()??;
    let values = |m: &dyn Fn(&Term) -> Option<i128>, ts: &[Vec<Term>]| -> Option<Vec<Vec<i128>>> {
        ts.iter()
            .map(|t| t.iter().map(m).collect::<Option<Vec<_>>>())
            .collect()
    };
    let value = |t: &Term| model.eval(t).ok().and_then(|v| v.as_int());
    let outer_value = |t: &Term| outer_model.eval(t).ok().and_then(|v| v.as_int());
    let start = (0..n)
        .map(|v| {
            if s.params.contains(&v) {
                value(&offsets[v])
            } else {
                value(&start[v])
            }
        })
        .collect::<Option<_>>()?;
    Some(Probed {
        start,
        path_temps: values(&value, &path_temps)?,
        inner_temps: values(&value, &inner_temps)?,
        outer_temps: values(&outer_value, &outer_temps)?,
    })
}

/// The accelerated inner cycle: its constant step per lap and the number of laps it makes
/// from a state.
struct Accelerated {
    lap: Lap,
    delta: Vec<i128>,
    laps: Poly,
}

/// The inner cycle's acceleration when every variable moves by a constant per lap and one guard
/// atom `g ≥ 0` falls by exactly 1 per lap (then it allows `g + 1` laps); one candidate per such
/// atom.
fn accelerations(its: &Its, inner: &[usize], temps: &[Vec<i128>]) -> Vec<Accelerated> {
    let Some(lap) = compose(its, inner, temps) else {
        return Vec::new();
    };
    let n = its.arity();
    let Some(delta) = (0..n)
        .map(|v| lap.update[v].sub(&Poly::var(v)).as_constant())
        .collect::<Option<Vec<i128>>>()
    else {
        return Vec::new();
    };
    let moved = |p: &Poly| p.substitute(&|v| Poly::var(v).add(&Poly::constant(delta[v])));
    let mut out = Vec::new();
    for a in &lap.guard {
        if a.rel != Rel::Ge || !a.poly.is_linear() {
            continue;
        }
        if moved(&a.poly).sub(&a.poly).as_constant() == Some(-1) {
            let laps = a.poly.add(&Poly::constant(1));
            out.push(Accelerated {
                lap: Lap {
                    guard: lap.guard.clone(),
                    update: lap.update.clone(),
                    cost: lap.cost.clone(),
                },
                delta: delta.clone(),
                laps,
            });
        }
    }
    out
}

fn try_family(its: &Its, solver: &mut dyn Solver, s: &Shape<'_>) -> Option<NestedFamily> {
    let p = probe(its, solver, s)?;
    let outer = compose(its, s.outer, &p.outer_temps)?;
    let steps = (0..its.arity())
        .filter_map(|v| outer.update[v].sub(&Poly::var(v)).as_constant())
        .map(i128::abs)
        .max()
        .unwrap_or(1)
        .max(1);
    let scale = s.sign * steps;
    let n = its.arity();
    for acc in accelerations(its, s.inner, &p.inner_temps) {
        for shift in SHIFTS {
            let is_param = |v: usize| s.params.contains(&v);
            let start_scale: Vec<i128> = (0..n)
                .map(|v| if is_param(v) { scale } else { 0 })
                .collect();
            let start_offset: Vec<i128> = (0..n)
                .map(|v| {
                    if is_param(v) {
                        scale * shift + p.start[v]
                    } else {
                        p.start[v]
                    }
                })
                .collect();
            let x0: Vec<Poly> = (0..n)
                .map(|v| {
                    Poly::var(L)
                        .scale(start_scale[v])
                        .add(&Poly::constant(start_offset[v]))
                })
                .collect();
            let Some(twice_cost) = proved(its, solver, s, &p, &acc, &outer, x0) else {
                continue;
            };
            return Some(NestedFamily {
                start_scale,
                start_offset,
                path: s.path.to_vec(),
                path_temps: p.path_temps.clone(),
                inner: s.inner.to_vec(),
                inner_temps: p.inner_temps.clone(),
                outer: s.outer.to_vec(),
                outer_temps: p.outer_temps.clone(),
                inner_laps: acc.laps.clone(),
                twice_cost,
            });
        }
    }
    None
}

/// Variables of the polynomials over the family's parameters.
const L: usize = 0;
const T: usize = 1;
const K: usize = 2;

/// Proves the family from `x0` (the start state, polynomials in `L`) and returns twice its least
/// cost as a polynomial in `L`, or `None`.
fn proved(
    its: &Its,
    solver: &mut dyn Solver,
    s: &Shape<'_>,
    p: &Probed,
    acc: &Accelerated,
    outer: &Lap,
    x0: Vec<Poly>,
) -> Option<Poly> {
    let n = its.arity();
    // The path: its guards (and costs ≥ 0) at the start state, and the state it reaches.
    let mut x = x0;
    let mut must: Vec<Atom> = Vec::new();
    for (&i, temps) in s.path.iter().zip(&p.path_temps) {
        let t = &its.transitions[i];
        let at = |v: usize| {
            if v < n {
                x[v].clone()
            } else {
                Poly::constant(temps[v - n])
            }
        };
        must.extend(t.guard.iter().map(|a| substituted(a, &at)));
        must.push(Atom::ge0(t.cost.substitute(&at)));
        x = t.update().iter().map(|u| u.substitute(&at)).collect();
    }
    let laps_at = |x: &[Poly]| acc.laps.substitute(&|v| x[v].clone());
    let after_inner = |x: &[Poly]| -> Vec<Poly> {
        let m = laps_at(x);
        (0..n).map(|v| x[v].add(&m.scale(acc.delta[v]))).collect()
    };
    let lap = |x: &[Poly]| -> Vec<Poly> {
        let y = after_inner(x);
        outer
            .update
            .iter()
            .map(|u| u.substitute(&|v| y[v].clone()))
            .collect()
    };
    let x_first = x;
    let x1 = lap(&x_first);
    let x2 = lap(&x1);
    let t_minus_1 = Poly::var(T).sub(&Poly::constant(1));
    let xt: Vec<Poly> = (0..n)
        .map(|v| x1[v].add(&x2[v].sub(&x1[v]).mul(&t_minus_1)))
        .collect();
    let next: Vec<Poly> = xt
        .iter()
        .map(|e| {
            e.substitute(&|v| {
                if v == T {
                    Poly::var(T).add(&Poly::constant(1))
                } else {
                    Poly::var(v)
                }
            })
        })
        .collect();
    if lap(&xt).iter().zip(&next).any(|(a, b)| !a.sub(b).is_zero()) {
        return None;
    }
    let m0 = laps_at(&x_first);
    let mt = laps_at(&xt);
    if !m0.is_linear() || !mt.is_linear() || mt.vars().iter().any(|&v| v > T) {
        return None;
    }
    let (alpha, beta, gamma) = (mt.linear_coeff(L), mt.linear_coeff(T), mt.constant_term());
    if 2 * alpha + beta <= 0 {
        return None;
    }
    // Obligations at the first outer lap (from x_first) and at every later one (from x_t,
    // 1 ≤ t ≤ L − 1): the inner laps' guards for every k < m, each inner lap costing ≥ 1, m ≥ 0,
    // the outer part's guards after the inner laps, its cost ≥ 0.
    let lap_atoms = |x: &[Poly]| -> Vec<Atom> {
        let at_k: Vec<Poly> = (0..n)
            .map(|v| x[v].add(&Poly::var(K).scale(acc.delta[v])))
            .collect();
        let at = |v: usize| at_k[v].clone();
        let mut atoms: Vec<Atom> = acc.lap.guard.iter().map(|a| substituted(a, &at)).collect();
        atoms.push(Atom::ge0(
            acc.lap.cost.substitute(&at).sub(&Poly::constant(1)),
        ));
        atoms
    };
    let outer_atoms = |x: &[Poly]| -> Vec<Atom> {
        let y = after_inner(x);
        let at = |v: usize| y[v].clone();
        let mut atoms: Vec<Atom> = outer.guard.iter().map(|a| substituted(a, &at)).collect();
        atoms.push(Atom::ge0(outer.cost.substitute(&at)));
        atoms.push(Atom::ge0(laps_at(x)));
        atoms
    };
    let names = ["nlb_L", "nlb_t", "nlb_k"];
    let var = |v: usize| smt::int_var(names[v.min(2)], 0);
    let term = |p: &Poly| smt::poly_term(p, &var);
    let all = |atoms: &[Atom]| Term::and_all(&smt::guard_terms(atoms, &var));
    let one = Term::int(1);
    let zero = Term::int(0);
    let (lt, tt, kt) = (var(L), var(T), var(K));
    let inner_range = |m: &Poly| [zero.ile(&kt), kt.iadd(&one).ile(&term(m))];
    let later = [one.ile(&tt), tt.iadd(&one).ile(&lt)];
    let first_inner = [&[one.ile(&lt)][..], &inner_range(&m0)].concat();
    let later_inner = [&later[..], &inner_range(&mt)].concat();
    let obligations: [(&[Term], Term); 5] = [
        (&[one.ile(&lt)], all(&must)),
        (&first_inner, all(&lap_atoms(&x_first))),
        (&[one.ile(&lt)], all(&outer_atoms(&x_first))),
        (&later_inner, all(&lap_atoms(&xt))),
        (&later, all(&outer_atoms(&xt))),
    ];
    for (premises, goal) in &obligations {
        if !matches!(solver.must_be_true(premises, goal), Ok(true)) {
            return None;
        }
    }
    // 2·Σ_{t<L} m_t = 2·m_0 + (L − 1)·(2αL + 2γ) + β·L·(L − 1).
    let l = Poly::var(L);
    let l_minus_1 = l.sub(&Poly::constant(1));
    let later_sum = l_minus_1.mul(
        &l.scale(2 * alpha)
            .add(&Poly::constant(2 * gamma))
            .add(&l.scale(beta)),
    );
    Some(m0.scale(2).add(&later_sum))
}

fn substituted(a: &Atom, at: &dyn Fn(usize) -> Poly) -> Atom {
    Atom {
        poly: a.poly.substitute(at),
        rel: a.rel,
    }
}

/// Runs the family for `laps` outer laps by plain evaluation: whether every guard holds and the
/// cost reaches half of [`NestedFamily::twice_cost`] (`None` on overflow or a malformed family).
pub fn replay_laps(its: &Its, f: &NestedFamily, laps: i128) -> Option<bool> {
    let mut x = f.start_for(laps)?;
    let mut cost: i128 = 0;
    let mut run = |ts: &[usize], temps: &[Vec<i128>], x: &mut Vec<i128>| -> Option<bool> {
        for (&i, temps) in ts.iter().zip(temps) {
            let Some((next, c)) = lower_bound::step(&its.transitions[i], x, temps) else {
                return Some(false);
            };
            *x = next;
            cost = cost.checked_add(c)?;
        }
        Some(true)
    };
    if !run(&f.path, &f.path_temps, &mut x)? {
        return Some(false);
    }
    for _ in 0..laps {
        let m = f.inner_laps.eval(&x)?;
        for _ in 0..m {
            if !run(&f.inner, &f.inner_temps, &mut x)? {
                return Some(false);
            }
        }
        if !run(&f.outer, &f.outer_temps, &mut x)? {
            return Some(false);
        }
    }
    Some(cost.checked_mul(2)? >= f.twice_cost.eval(&[laps])?)
}

/// Whether the family reaches its claimed cost for each number of outer laps of
/// [`REPLAY_LAPS`].
pub fn replay(its: &Its, f: &NestedFamily) -> bool {
    f.twice_cost.degree() == 2
        && REPLAY_LAPS
            .iter()
            .all(|&l| replay_laps(its, f, l) == Some(true))
}
