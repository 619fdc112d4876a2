//! Termination proofs on hand-written ITSs with known answers, checked against the
//! interpreter: every run of a `YES` system ends, and along every run each ranking
//! function behaves as claimed (evaluated on the concrete states, no solver involved).
mod common;

use std::time::{Duration, Instant};
use symex_its::interp::{Interpreter, Rng, RunConfig, RunEnd};
use symex_its::multiphase::Multiphase;
use symex_its::termination::{self, Limits, Termination};
use symex_its::{parse_koat, preprocess, Its, Poly};

fn limits() -> Limits {
    Limits {
        query_timeout: Duration::from_secs(10),
        deadline: Instant::now() + Duration::from_secs(600),
    }
}

fn its(rules: &str, vars: &str) -> Its {
    preprocess::preprocess(&raw(rules, vars), Duration::from_secs(10))
}

fn raw(rules: &str, vars: &str) -> Its {
    let src = format!(
        "(GOAL TERMINATION)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR {vars})\n(RULES\n{rules}\n)\n"
    );
    parse_koat(&src).unwrap()
}

/// Runs from random start values; every run must end, and on every step a ranking
/// function of a step that removed the transition decreases (and is ≥ 1 before it),
/// while every function is non-increasing on the transitions it was found for.
pub fn check_against_runs(its: &Its, proofs: &[termination::SccProof], range: i128) {
    check_runs_from(its, proofs, &mut |rng| {
        (0..its.arity()).map(|_| rng.range(-range, range)).collect()
    });
}

fn check_runs_from(
    its: &Its,
    proofs: &[termination::SccProof],
    start: &mut dyn FnMut(&mut Rng) -> Vec<i128>,
) {
    let mut rng = Rng::new(7);
    for seed in 0..30 {
        let start = start(&mut rng);
        let cfg = RunConfig {
            seed,
            max_steps: 100_000,
            record: true,
            ..RunConfig::default()
        };
        let run = Interpreter::new(its).run(&start, &cfg);
        assert_eq!(
            run.end,
            RunEnd::Terminated,
            "run from {start:?} did not end"
        );
        for (k, &t) in run.taken.iter().enumerate() {
            let (l, before) = &run.trace[k];
            let (l2, after) = &run.trace[k + 1];
            for step in proofs.iter().flat_map(|p| &p.steps) {
                if !step.remaining.contains(&t) {
                    continue;
                }
                if let Some(mp) = &step.multiphase {
                    check_multiphase_step(
                        mp,
                        step.removed.contains(&t),
                        (*l, before),
                        (*l2, after),
                    );
                    continue;
                }
                if let Some(r) = &step.ratio {
                    // num ≥ den ≥ 1 where a lap starts, and num'/den' ≤ (num/den)·d/c after it.
                    let (n0, d0) = (r.num.eval(before).unwrap(), r.den.eval(before).unwrap());
                    let (n1, d1) = (r.num.eval(after).unwrap(), r.den.eval(after).unwrap());
                    assert!(n0 >= d0 && d0 >= 1, "t{t}: {n0}/{d0} not at least 1");
                    assert!(
                        n1 * r.base.0 * d0 <= n0 * r.base.1 * d1,
                        "t{t}: {n0}/{d0} -> {n1}/{d1} does not shrink by {:?}",
                        r.base
                    );
                    continue;
                }
                if let Some(q) = &step.quadratic_guard {
                    // g ≥ 0 where a lap starts, and the lap changes it by its Δ_t exactly.
                    let (g0, g1) = (q.guard.eval(before).unwrap(), q.guard.eval(after).unwrap());
                    assert!(g0 >= 0, "t{t}: the guard value {g0} is negative");
                    let (_, d, _) = q.changes.iter().find(|(i, _, _)| *i == t).unwrap();
                    assert_eq!(g1 - g0, d.eval(before).unwrap(), "t{t}: another change");
                    continue;
                }
                if let Some(ws) = &step.word_size {
                    // w − (trailing zeros of x mod 2^w): non-increasing, and dropping from ≥ 1 on a doubling.
                    let r = |x: i128| {
                        let m = x.rem_euclid(1i128 << ws.width);
                        i128::from(ws.width)
                            - i128::from(if m == 0 { ws.width } else { m.trailing_zeros() })
                    };
                    let (r0, r1) = (r(before[ws.var]), r(after[ws.var]));
                    assert!(r1 <= r0, "t{t}: trailing zeros {r0} -> {r1} increase");
                    if step.removed.contains(&t) {
                        assert!(r0 >= 1 && r1 < r0, "t{t}: {r0} -> {r1} not strict");
                    }
                    continue;
                }
                let f0 = step.function.eval(*l, before).unwrap();
                let f1 = step.function.eval(*l2, after).unwrap();
                assert!(f1 <= f0, "t{t}: {f0} -> {f1} increases");
                if step.removed.contains(&t) {
                    assert!(f0 >= 1 && f1 < f0, "t{t}: {f0} -> {f1} not strict");
                }
            }
        }
    }
}

/// The conditions of a multiphase function on one concrete step: every phase
/// non-increasing, or (strict) `f_1` drops by 1, `f_i` by `1 − f_{i−1}` and `f_k ≥ 0`.
fn check_multiphase_step(
    mp: &Multiphase,
    strict: bool,
    (l, x): (usize, &[i128]),
    (l2, y): (usize, &[i128]),
) {
    let before: Vec<i128> = mp.phases.iter().map(|f| f.eval(l, x).unwrap()).collect();
    let after: Vec<i128> = mp.phases.iter().map(|f| f.eval(l2, y).unwrap()).collect();
    if !strict {
        assert!(
            before.iter().zip(&after).all(|(b, a)| a <= b),
            "{x:?} -> {y:?}: a phase increases ({before:?} -> {after:?})"
        );
        return;
    }
    for i in 0..before.len() {
        let prev = if i == 0 { 0 } else { before[i - 1] };
        assert!(
            before[i] - after[i] + prev >= 1,
            "{x:?} -> {y:?}: phase {i} ({before:?} -> {after:?})"
        );
    }
    assert!(*before.last().unwrap() >= 0, "{x:?}: last phase negative");
}

fn yes(its: &Its) -> Vec<termination::SccProof> {
    match termination::prove(its, &limits()) {
        Termination::Yes(p) => p,
        Termination::Maybe(r, _) => panic!("MAYBE: {r}"),
    }
}

#[test]
fn paper_g_increment_bounded_by_umax32() {
    common::count_not_time();
    // [B]'s g: v_inc' = v_inc + 1 under v_inc ≤ umax32; rank umax32 − v_inc.
    let its = its(
        "  l0(V) -> l1(V) :|: V >= 0\n  l1(V) -> l1(V + 1) :|: V <= 4294967295 - 1\n",
        "V",
    );
    let proofs = yes(&its);
    let f = &proofs[0].steps[0].function;
    // At V = 0 the function is a positive multiple of umax32 − V (up to its constant).
    let at = |v: i128| f.eval(1, &[v]).unwrap();
    assert!(
        at(0) > at(1) && at(1) > at(2),
        "decreasing in V: {}",
        f.display(&its)
    );
    assert!(at(4294967294) >= 1);
    // Runs from near umax32 end within the step limit.
    check_runs_from(&its, &proofs, &mut |rng| {
        vec![4294967295 - rng.range(0, 500)]
    });
}

#[test]
fn counting_up_and_down() {
    common::count_not_time();
    let up = its(
        "  l0(X,N) -> l1(X,N)\n  l1(X,N) -> l1(X + 1,N) :|: X < N\n",
        "X N",
    );
    let proofs = yes(&up);
    assert_eq!(proofs.len(), 1);
    // N − X decreases: the function's coefficients of X and N are opposite.
    let f = proofs[0].steps[0].function.get(1);
    assert!(
        f.linear_coeff(0) < 0 && f.linear_coeff(1) == -f.linear_coeff(0),
        "{f:?}"
    );
    check_against_runs(&up, &proofs, 30);

    let down = its("  l0(X) -> l1(X)\n  l1(X) -> l1(X - 2) :|: X > 0\n", "X");
    let proofs = yes(&down);
    check_against_runs(&down, &proofs, 30);
}

#[test]
fn nested_loops() {
    common::count_not_time();
    let nested = its(
        "  l0(I,J,N) -> l1(0,J,N)\n  l1(I,J,N) -> l2(I,0,N) :|: I < N\n  l2(I,J,N) -> l2(I,J + 1,N) :|: J < I\n  l2(I,J,N) -> l1(I + 1,J,N) :|: J >= I\n",
        "I J N",
    );
    let proofs = yes(&nested);
    assert!(
        proofs[0].steps.len() >= 2,
        "needs a lexicographic combination"
    );
    check_against_runs(&nested, &proofs, 15);
}

#[test]
fn non_terminating_loop_is_not_yes() {
    common::count_not_time();
    // X = 0 loops forever; no proof may claim otherwise.
    let loop0 = its(
        "  l0(X) -> l1(X)\n  l1(X) -> l1(X) :|: X = 0\n  l1(X) -> l1(X - 1) :|: X > 0\n",
        "X",
    );
    assert!(matches!(
        termination::prove(&loop0, &limits()),
        Termination::Maybe(..)
    ));
}

#[test]
fn loop_non_terminating_for_one_start_value_gets_that_witness() {
    common::count_not_time();
    // Only X = 5 loops (t1 forever); every other start value ends after at most 2 steps.
    let its = its(
        "  l0(X,Y) -> l1(X,0)\n  l1(X,Y) -> l1(X,Y + 1) :|: X = 5\n  l1(X,Y) -> l2(X,Y) :|: X != 5\n",
        "X Y",
    );
    assert!(matches!(
        termination::prove(&its, &limits()),
        Termination::Maybe(..)
    ));
    let w = symex_its::nontermination::prove(&its, Duration::from_secs(10)).expect("a witness");
    assert_eq!(w.start[0], 5, "the only non-terminating start value");
    assert!(symex_its::nontermination::replay(&its, &w, 10_000));
    // The interpreter agrees: from the witness it passes the step limit, from every other
    // small start value it ends.
    let cfg = RunConfig {
        max_steps: 5_000,
        ..RunConfig::default()
    };
    let run = Interpreter::new(&its).run(&w.start, &cfg);
    assert_eq!(run.end, RunEnd::StepLimit);
    for x in -20..=20 {
        if x != 5 {
            let run = Interpreter::new(&its).run(&[x, 0], &cfg);
            assert_eq!(run.end, RunEnd::Terminated, "X = {x}");
        }
    }
}

#[test]
fn two_phase_loop_needs_a_multiphase_ranking_function() {
    common::count_not_time();
    // while (x >= 0) { x = x + y; y = y - 1; }: x first may grow (phase 1, while y > 0),
    // then falls. No linear ranking function exists; (y + 1; x) is a two-phase one.
    let its = its(
        "  l0(X,Y) -> l1(X,Y)\n  l1(X,Y) -> l1(X + Y,Y - 1) :|: X >= 0\n",
        "X Y",
    );
    let proofs = yes(&its);
    let step = &proofs[0].steps[0];
    let tp = step.two_phase.as_ref().expect("a two-phase function");
    // The conditions on concrete steps of runs (no solver).
    let mut rng = Rng::new(5);
    for seed in 0..30 {
        let start = vec![rng.range(-5, 30), rng.range(-5, 30)];
        let cfg = RunConfig {
            seed,
            record: true,
            ..RunConfig::default()
        };
        let run = Interpreter::new(&its).run(&start, &cfg);
        assert_eq!(run.end, RunEnd::Terminated);
        for k in 1..run.taken.len() {
            let (_, x) = &run.trace[k];
            let (_, y) = &run.trace[k + 1];
            let (f1, g1) = (tp.f1.eval(x).unwrap(), tp.f1.eval(y).unwrap());
            let (f2, g2) = (tp.f2.eval(x).unwrap(), tp.f2.eval(y).unwrap());
            assert!(
                f1 - g1 >= 1 && f2 - g2 + f1 >= 1 && f2 >= 0,
                "{x:?} -> {y:?}"
            );
        }
    }
}

#[test]
fn three_phase_loop_needs_a_three_phase_function() {
    common::count_not_time();
    // while (x >= 0) { x = x + y; y = y + z; z = z - 1; }: z falls first, then y, then x.
    // No linear or two-phase function exists; (z + 1; y + 1; x) is a three-phase one.
    let its = its(
        "  l0(X,Y,Z) -> l1(X,Y,Z)\n  l1(X,Y,Z) -> l1(X + Y,Y + Z,Z - 1) :|: X >= 0\n",
        "X Y Z",
    );
    let proofs = yes(&its);
    let mp = proofs[0].steps[0]
        .multiphase
        .as_ref()
        .expect("a multiphase function");
    assert_eq!(mp.phases.len(), 3, "{}", mp.display(&its));
    check_against_runs(&its, &proofs, 8);
}

/// The depths of a multiphase synthesis are bounded by their count, not by a time for all of
/// them together: with every query waiting 2.1 s first (a loaded machine), the three-phase
/// loop still gets its function after the depth-2 query found none, with the same queries as
/// without the wait. (A time of 2 s for all depths ended the search after depth 2.) No
/// resource limit here: under one the old budget was not a time either.
#[test]
fn multiphase_depths_on_a_slow_machine() {
    // while (x >= 0) { x = x + y; y = y + z; z = z - 1; }: (z + 1; y + 1; x) by hand.
    let its = its(
        "  l0(X,Y,Z) -> l1(X,Y,Z)\n  l1(X,Y,Z) -> l1(X + Y,Y + Z,Z - 1) :|: X >= 0\n",
        "X Y Z",
    );
    let lap = (0..its.transitions.len())
        .find(|&i| its.transitions[i].source == its.transitions[i].target())
        .expect("the loop");
    let per_query = Duration::from_secs(10);
    let synthesize = || {
        let mut checker = symex_its::smt::solver(per_query);
        let asked = symex_its::smt::queries();
        let found = symex_its::multiphase::synthesize_checked(
            &its,
            &[lap],
            &[lap],
            termination::MAX_DEPTH,
            checker.as_mut(),
            // What the provers pass: a quick query's limit (a small query here).
            termination::QUICK_TIMEOUT,
        );
        (found, symex_its::smt::queries() - asked)
    };
    let (quick, quick_queries) = synthesize();
    symex_its::smt::delay_queries(Duration::from_millis(2100));
    let (slow, slow_queries) = synthesize();
    symex_its::smt::delay_queries(Duration::ZERO);
    let (mp, strict) = slow.expect("a multiphase function on the slow machine");
    assert_eq!(Some((&mp, &strict)), quick.as_ref().map(|(m, s)| (m, s)));
    assert_eq!(slow_queries, quick_queries);
    assert_eq!(mp.phases.len(), 3, "{}", mp.display(&its));
    assert_eq!(strict, [lap]);
    // Every step of the loop from a grid of states: strict for the function found.
    let l = its.transitions[lap].source;
    for x in 0..=6 {
        for y in -6..=6 {
            for z in -6..=6 {
                let before = [x, y, z];
                let after = [x + y, y + z, z - 1];
                check_multiphase_step(&mp, true, (l, &before), (l, &after));
            }
        }
    }
}

#[test]
fn multiphase_function_across_locations() {
    common::count_not_time();
    // The two-phase loop with its body split over two locations and an inner counter
    // loop at the second: the phases are per location, and the counter is removed by a
    // linear function afterwards (or before).
    let its = its(
        "  l0(X,Y,K) -> l1(X,Y,K)\n  l1(X,Y,K) -> l2(X + Y,Y,0) :|: X >= 0\n  l2(X,Y,K) -> l2(X,Y,K + 1) :|: K < 3\n  l2(X,Y,K) -> l1(X,Y - 1,K) :|: K >= 3\n",
        "X Y K",
    );
    let proofs = yes(&its);
    assert!(
        proofs
            .iter()
            .flat_map(|p| &p.steps)
            .any(|s| s.multiphase.is_some()),
        "needs a multiphase function"
    );
    check_against_runs(&its, &proofs, 10);
}

#[test]
fn five_phase_single_loop() {
    common::count_not_time();
    // Hark's ex001: A' = A + B, B' = B + C, C' = C + D, D' = D + E, E' = E − 1 while
    // A ≥ 1: one phase per variable, E first.
    let its = its(
        "  l0(A,B,C,D,E) -> l1(A,B,C,D,E)\n  l1(A,B,C,D,E) -> l1(A + B,B + C,C + D,D + E,E - 1) :|: A >= 1\n",
        "A B C D E",
    );
    let proofs = yes(&its);
    let mp = proofs[0].steps[0]
        .multiphase
        .as_ref()
        .expect("a multiphase function");
    assert_eq!(mp.phases.len(), 5, "{}", mp.display(&its));
    check_against_runs(&its, &proofs, 4);
}

#[test]
fn three_phases_for_two_variables() {
    common::count_not_time();
    // Hark's ex006: A' = 2A, B' = 3B while B ≤ A ≤ 4B: A − B may first grow, B outgrows
    // A; more phases than variables.
    let its = its(
        "  l0(A,B) -> l1(A,B)\n  l1(A,B) -> l1(A + A,B + B + B) :|: B + B + B + B >= A && A >= B && A >= 1 && B >= 1\n",
        "A B",
    );
    let proofs = yes(&its);
    let mp = proofs[0].steps[0]
        .multiphase
        .as_ref()
        .expect("a multiphase function");
    assert!(mp.phases.len() >= 3, "{}", mp.display(&its));
    check_against_runs(&its, &proofs, 30);
}

/// Follows a witness by plain evaluation (this test's own, not the prover's `replay`):
/// every guard of the path and of `laps` laps of the cycle holds with the recorded
/// temporaries, and each step leaves the location the next one starts from.
fn follow(its: &Its, w: &symex_its::nontermination::Witness, laps: usize) -> bool {
    let mut at = its.start;
    let mut x = w.start.clone();
    let mut take = |i: usize, temps: &[Poly]| {
        let t = &its.transitions[i];
        let mut values = x.clone();
        let temps: Option<Vec<i128>> = temps.iter().map(|p| p.eval(&x)).collect();
        let Some(temps) = temps else {
            return false;
        };
        values.extend_from_slice(&temps);
        let enabled = t.source == at
            && t.temps.len() == temps.len()
            && t.guard.iter().all(|a| a.holds(&values) == Some(true));
        let next: Option<Vec<i128>> = t.update().iter().map(|u| u.eval(&values)).collect();
        match (enabled, next) {
            (true, Some(next)) => {
                x = next;
                at = t.target();
                true
            }
            _ => false,
        }
    };
    let path = w.path.iter().zip(&w.path_temps).all(|(&i, temps)| {
        let temps: Vec<Poly> = temps.iter().map(|&c| Poly::constant(c)).collect();
        take(i, &temps)
    });
    if w.first_enabled {
        // A strategy: each step takes the first transition of the cycle that is enabled
        // at the current location with its temporaries.
        return path
            && (0..laps * w.cycle.len()).all(|_| {
                w.cycle
                    .iter()
                    .zip(&w.cycle_temps)
                    .any(|(&i, temps)| take(i, temps))
            });
    }
    path && !w.cycle.is_empty()
        && (0..laps).all(|_| {
            w.cycle
                .iter()
                .zip(&w.cycle_temps)
                .all(|(&i, temps)| take(i, temps))
        })
}

#[test]
fn loop_that_needs_an_invariant_of_its_entry_gets_a_witness() {
    common::count_not_time();
    // T2's non_term: `A' = A − B` stays ≥ 0 only because the entry made `B ≤ −2` (and `B`
    // never changes); the loop guard alone is not closed. An exit is always enabled.
    let its = its(
        "  l0(A,B) -> l1(A,B) :|: 0 >= A + B + 1 && A >= 1\n  l1(A,B) -> l1(A - B,B) :|: A >= 0\n  l1(A,B) -> l2(A,B) :|: 0 >= A + 1\n",
        "A B",
    );
    let w = symex_its::nontermination::prove(&its, Duration::from_secs(10)).expect("a witness");
    assert!(follow(&its, &w, 1_000), "{w:?}");
}

#[test]
fn two_location_cycle_with_temporaries_gets_a_witness() {
    common::count_not_time();
    // T2's stored: `l1 → l2 → l1` with a fresh value each time and an exit at both
    // locations when it is 0; choosing non-zero values forever does not end.
    let its = its(
        "  l0(A,B) -> l1(C,B)\n  l1(A,B) -> l2(A,C) :|: A >= 1\n  l1(A,B) -> l2(A,C) :|: 0 >= A + 1\n  l1(A,B) -> l3(A,B) :|: A = 0\n  l2(A,B) -> l1(C,B) :|: B >= 1\n  l2(A,B) -> l1(C,B) :|: 0 >= B + 1\n  l2(A,B) -> l3(A,B) :|: B = 0\n",
        "A B C",
    );
    let w = symex_its::nontermination::prove(&its, Duration::from_secs(10)).expect("a witness");
    assert!(w.cycle.len() >= 2, "a cycle through both locations: {w:?}");
    assert!(follow(&its, &w, 1_000), "{w:?}");
}

#[test]
fn terminating_loops_with_exits_get_no_witness() {
    common::count_not_time();
    // Counting down, and a nested count whose inner loop resets: every run ends.
    for (rules, vars) in [
        (
            "  l0(A,B) -> l1(A,B)\n  l1(A,B) -> l1(A - 1,C) :|: A >= 1\n  l1(A,B) -> l2(A,B)\n",
            "A B C",
        ),
        (
            "  l0(A,B) -> l1(A,B)\n  l1(A,B) -> l2(A,A) :|: A >= 1\n  l2(A,B) -> l2(A,B - 1) :|: B >= 1\n  l2(A,B) -> l1(A - 1,B) :|: 0 >= B\n",
            "A B",
        ),
    ] {
        let its = its(rules, vars);
        assert!(symex_its::nontermination::prove(&its, Duration::from_secs(10)).is_none());
    }
}

#[test]
fn loop_whose_temporary_must_follow_a_variable_gets_a_witness() {
    common::count_not_time();
    // T2's ex2: `C` counts up while a fresh `E` is above it; no constant `E` does that
    // forever, `E = C + k` does (the witness's temporary is a polynomial in `C`).
    let its = its(
        "  l0(C) -> l1(0)\n  l1(C) -> l1(C + 1) :|: E >= C + 1\n  l1(C) -> l2(C) :|: C >= E\n",
        "C E",
    );
    let w = symex_its::nontermination::prove(&its, Duration::from_secs(10)).expect("a witness");
    assert!(follow(&its, &w, 1_000), "{w:?}");
}

#[test]
fn invariant_of_the_first_transition_passed_along_the_loop() {
    common::count_not_time();
    // T2's eric: `A ≥ B` (the entry's guard, never compared again) holds at f2 and f3;
    // without it `C ≥ A + 1 ∧ B ≥ C + 1` looks feasible and resets `C` below `B` forever.
    let rules = "  l0(A,B,C) -> l1(A,B,B + 1) :|: A >= B && A >= 1 && B >= 1\n  l1(A,B,C) -> l2(A,B,C) :|: B >= C + 1\n  l1(A,B,C) -> l2(A,B,C) :|: C >= B + 1\n  l2(A,B,C) -> l1(A,B,0) :|: A + 1 >= 0 && C >= 1 && C >= A + 1\n  l2(A,B,C) -> l1(A,B,C + 1) :|: A >= C && C + 1 >= 0\n";
    let its = its(rules, "A B C");
    let inv = preprocess::relational_invariants(&raw(rules, "A B C"), Duration::from_secs(10))
        .expect("invariants");
    let a_ge_b = symex_its::its::Atom::ge0(Poly::var(0).sub(&Poly::var(1)));
    assert!(
        inv[1].contains(&a_ge_b) && inv[2].contains(&a_ge_b),
        "{inv:?}"
    );
    let (refined, result) = termination::prove_refining(&its, &limits());
    let Termination::Yes(proofs) = result else {
        panic!("MAYBE")
    };
    check_runs_from(&refined, &proofs, &mut |rng| {
        let b = rng.range(1, 8);
        vec![b + rng.range(0, 8), b, 0]
    });
}

#[test]
fn invariant_of_an_assignment_bounds_the_outer_counter() {
    common::count_not_time();
    // T2's new_ex: `C' = A − 1` on the way into l2, then `A` and `C` drop together or
    // `C` alone: `A ≥ C + 1` there, so `A` is bounded where `C ≥ 1` and ranks the steps
    // that decrease it.
    let rules = "  l0(A,B,C) -> l1(D,0,C)\n  l1(A,B,C) -> l2(A - 1,B + 1,C) :|: A >= 1\n  l2(A,B,C) -> l3(A,B - 1,A - 1) :|: B >= 1\n  l3(A,B,C) -> l3(A,B,C - 1) :|: C >= 1\n  l3(A,B,C) -> l3(A - 1,B + 1,C - 1) :|: C >= 1\n  l3(A,B,C) -> l2(A,B,C) :|: 0 >= C\n  l2(A,B,C) -> l1(A,B,C) :|: 0 >= B\n";
    let plain = raw(rules, "A B C D");
    let inv =
        preprocess::relational_invariants(&plain, Duration::from_secs(10)).expect("invariants");
    let l3 = plain.locations.iter().position(|l| l == "l3").unwrap();
    let a_gt_c = symex_its::its::Atom::ge0(Poly::var(0).sub(&Poly::var(2)).sub(&Poly::constant(1)));
    assert!(inv[l3].contains(&a_gt_c), "{:?}", inv[l3]);
    // The first preprocessing keeps the plain candidates; the retry adds these.
    let its = its(rules, "A B C D");
    let (refined, result) = termination::prove_refining(&its, &limits());
    let Termination::Yes(proofs) = result else {
        panic!("MAYBE")
    };
    check_against_runs(&refined, &proofs, 12);
}

#[test]
fn oscillating_loop_behind_dead_end_exits_gets_a_witness() {
    common::count_not_time();
    // Flores-Montoya's catmouse: `x` climbs to `m + 1`, falls to `m`, climbs again while
    // `x ≤ n`; the start location also has exits to dead ends (chaining leaves them),
    // which runs must not prefer.
    let mut rules = String::from("  l0(M,N,X) -> l1(M,N,0)\n");
    for k in 2..10 {
        rules.push_str(&format!("  l0(M,N,X) -> l{k}(M,N,X)\n"));
    }
    rules.push_str("  l1(M,N,X) -> l1(M,N,X + 1) :|: X <= N && X <= M\n  l1(M,N,X) -> l1(M,N,X - 1) :|: X <= N && X > M\n  l1(M,N,X) -> l10(M,N,X) :|: X > N\n");
    let its = its(&rules, "M N X");
    let w = symex_its::nontermination::prove(&its, Duration::from_secs(10)).expect("a witness");
    assert!(follow(&its, &w, 1_000), "{w:?}");
    assert!(w.start[0] < w.start[1], "only m < n loops: {w:?}");
}

#[test]
fn growing_loop_whose_temporary_is_pinned_gets_a_witness() {
    common::count_not_time();
    // T2's p-46: `A' = 3·A + 1` with a temporary `F` the guard pins to `A` (`A ≥ F ∧ F ≥
    // A`) and another `G` below `A / 2`: `F = A`, `G` a constant keep it enabled forever
    // (the values leave the i128 range after about 80 laps).
    let its = its(
        "  l0(A) -> l1(A)\n  l1(A) -> l1(3*A + 1) :|: A >= 1 && A >= 2*G + 1 && A >= F && F >= A && F >= 1\n  l1(A) -> l1(F) :|: F >= 1 && A = 2*F\n  l1(A) -> l2(A) :|: 0 >= A\n",
        "A F G",
    );
    let w = symex_its::nontermination::prove(&its, Duration::from_secs(10)).expect("a witness");
    assert!(follow(&its, &w, 30), "{w:?}");
    assert!(symex_its::nontermination::replay(&its, &w, 10_000));
    // Plain evaluation overflows long before 200 laps: the replay accepts the witness
    // because its first 40 laps all hold.
    assert!(!follow(&its, &w, 200), "the values leave the i128 range");
}

#[test]
fn loops_that_never_follow_each_other_at_a_busy_head_are_proved_apart() {
    common::count_not_time();
    // Flores-Montoya's counterex1a: `y` counts up while `b = 0`, down while `b ≠ 0`, and
    // only the steps that switch `b` decrease `x`; the loop head also has many exits
    // (here eight), too many pairs to unfold the whole location.
    let mut rules = String::from("  l0(B,X,Y,N) -> l1(B,X,Y,N)\n");
    let inside = "X >= 0 && Y >= 0 && N >= Y";
    for (guard, update) in [
        ("B = 0", "1,X,Y + 1,N"),
        ("B = 0", "B,X,Y + 1,N"),
        ("B >= 1", "0,X - 1,Y - 1,N"),
        ("B >= 1", "B,X,Y - 1,N"),
        ("0 >= B + 1", "0,X - 1,Y - 1,N"),
        ("0 >= B + 1", "B,X,Y - 1,N"),
    ] {
        rules.push_str(&format!(
            "  l1(B,X,Y,N) -> l1({update}) :|: {inside} && {guard}\n"
        ));
    }
    for k in 0..8 {
        rules.push_str(&format!(
            "  l1(B,X,Y,N) -> l{}(B,X,Y,N) :|: 0 >= X + {k}\n",
            k + 2
        ));
    }
    let its = its(&rules, "B X Y N");
    assert!(matches!(
        termination::prove(&its, &limits()),
        Termination::Maybe(..)
    ));
    let (refined, result) = termination::prove_refining(&its, &limits());
    let Termination::Yes(proofs) = result else {
        panic!("MAYBE")
    };
    // The refinement keeps the cycles only: runs start at each of their locations.
    for l in 0..refined.locations.len() {
        if refined.transitions.iter().any(|t| t.source == l) {
            let mut at = refined.clone();
            at.start = l;
            check_against_runs(&at, &proofs, 6);
        }
    }
}

#[test]
fn set_closed_under_loops_of_growing_length_gets_a_witness() {
    common::count_not_time();
    // The inner loop at l2 runs `X` times, then `X` grows: no cycle of fixed length
    // repeats, but `{Y ≤ X, Y ≥ 0}` at l2 and `{X ≥ 0, N ≥ 0}` at l1 are closed under
    // all four transitions and one of them is always enabled.
    let its = its(
        "  l0(X,Y,N) -> l1(0,Y,N)\n  l1(X,Y,N) -> l2(X,X,N) :|: N >= 0\n  l1(X,Y,N) -> l3(X,Y,N) :|: 0 >= N + 1\n  l2(X,Y,N) -> l2(X,Y - 1,N) :|: Y >= 1\n  l2(X,Y,N) -> l1(X + 1,Y,N) :|: 0 >= Y\n",
        "X Y N",
    );
    let w = symex_its::nontermination::prove(&its, Duration::from_secs(10)).expect("a witness");
    assert!(w.first_enabled, "a strategy, not one cycle: {w:?}");
    assert!(w.start[2] >= 0, "only N ≥ 0 loops: {w:?}");
    assert!(follow(&its, &w, 1_000), "{w:?}");
}

#[test]
fn retry_on_the_cycles_keeps_runs_that_start_inside_them() {
    common::count_not_time();
    // `B = 0` counts `Y` up forever; `B ≥ 1` counts it down. The two loops never follow
    // each other, so the retry splits the head — and must keep the runs that are already
    // at the head (a refinement that lost them proved this YES).
    let its = its(
        "  l0(B,Y) -> l1(B,Y)\n  l1(B,Y) -> l1(B,Y + 1) :|: B = 0\n  l1(B,Y) -> l1(B,Y - 1) :|: B >= 1 && Y >= 1\n  l1(B,Y) -> l2(B,Y) :|: 0 >= B + 1\n",
        "B Y",
    );
    let (_, result) = termination::prove_refining(&its, &limits());
    assert!(matches!(result, Termination::Maybe(..)));
    let w = symex_its::nontermination::prove(&its, Duration::from_secs(10)).expect("a witness");
    assert_eq!(w.start[0], 0, "only B = 0 loops: {w:?}");
}

#[test]
fn cycles_retried_alone_keep_their_entries() {
    common::count_not_time();
    // symex term's ITS of `unsigned char x, j = 0; while (j <= x) j++;` (the brute-force
    // test of symex-term caught it): for x = 255 `j`
    // wraps to 0 and the loop never ends. The retry on the cycles alone once dropped the
    // start transition, found every location unreachable and answered YES.
    let rules = "  l0(X0,X1) -> l1(T0,1) :|: T0 >= 0 && 255 >= T0\n  l1(X0,X1) -> l1(X0,T4) :|: X0 >= 0 && 255 >= X0 && X1 >= 0 && 255 >= X1 && X0 + X1 >= 1 && X0 + 1 >= X1 && X1 + 255 >= X0 && X0 + 255 >= X1 && X0 >= X1 && X1 >= 255 && T4 >= 0 && 255 >= T4 && T4 + 255 = X1\n  l1(X0,X1) -> l1(X0,T3) :|: X0 >= 0 && 255 >= X0 && X1 >= 0 && 255 >= X1 && X0 + X1 >= 1 && X0 + 1 >= X1 && X1 + 255 >= X0 && X0 + 255 >= X1 && X0 >= X1 && X1 + 1 >= 0 && 254 >= X1 && T3 >= 0 && 255 >= T3 && T3 = X1 + 1\n";
    let its = its(rules, "X0 X1 T0 T3 T4");
    let (_, result) = termination::prove_refining(&its, &limits());
    assert!(!matches!(result, Termination::Yes(_)), "{result:?}");
}
