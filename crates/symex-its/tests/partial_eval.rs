//! Control-flow refinement by partial evaluation (`preprocess/partial_eval.rs`): the
//! refined ITS must have every run of the original with the same cost, and loops with
//! phases must get bounds after it. The oracle for the runs is the interpreter on the
//! original and a solver replay of each recorded step on the refined ITS (some copy of
//! the step's transition, from the version the replay is at, reaches the same values).
mod common;

use std::time::{Duration, Instant};
use symex_expr::Term;
use symex_its::complexity;
use symex_its::interp::{Interpreter, Rng, Run, RunConfig, RunEnd};
use symex_its::termination::{self, Limits};
use symex_its::{parse_koat, preprocess, smt, Its};

fn limits() -> Limits {
    Limits {
        query_timeout: Duration::from_secs(10),
        deadline: Instant::now() + common::BACKSTOP,
    }
}

fn koat(rules: &str, vars: &str) -> String {
    format!(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR {vars})\n(RULES\n{rules}\n)\n"
    )
}

/// The cyclic SCCs of `its`.
fn cyclic_sccs(its: &Its) -> Vec<Vec<usize>> {
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    symex_its::graph::sccs(its, &all)
        .into_iter()
        .filter(|l| !symex_its::graph::inside(its, &all, l).is_empty())
        .collect()
}

/// Replays runs of `its` from random start values in `-r..=r` on `refined` (`origin[j]`
/// is the original transition copied by refined transition `j`): at each step some copy
/// of the taken transition leaves the current version, and a solver finds temporaries
/// for it that give the recorded next values. Costs are the original's by the check
/// that each copy's cost polynomial is its original's. Returns the steps replayed.
fn replay(its: &Its, refined: &Its, origin: &[usize], r: i128, runs: u64) -> usize {
    for (j, t) in refined.transitions.iter().enumerate() {
        assert_eq!(t.cost, its.transitions[origin[j]].cost, "cost of copy t{j}");
    }
    let mut solver = smt::solver(Duration::from_secs(10));
    let mut rng = Rng::new(5);
    let mut replayed = 0;
    let n = its.arity();
    for seed in 0..runs {
        let start: Vec<i128> = (0..n).map(|_| rng.range(-r, r)).collect();
        let cfg = RunConfig {
            seed,
            max_steps: 300,
            record: true,
            ..RunConfig::default()
        };
        let run = Interpreter::new(its).run(&start, &cfg);
        if matches!(run.end, RunEnd::Overflow | RunEnd::Unknown) {
            continue;
        }
        let mut at = refined.start;
        for (k, &i) in run.taken.iter().enumerate() {
            let (x, y) = (&run.trace[k].1, &run.trace[k + 1].1);
            let next = (0..refined.transitions.len()).find(|&j| {
                let t = &refined.transitions[j];
                origin[j] == i && t.source == at && {
                    let var = |v| smt::int_var("v", v);
                    let mut q: Vec<Term> =
                        t.guard.iter().map(|a| smt::atom_term(a, &var)).collect();
                    for v in 0..n {
                        q.push(var(v).eq(&Term::int(x[v])));
                        let u = smt::poly_term(&t.update()[v], &var);
                        q.push(u.eq(&Term::int(y[v])));
                    }
                    matches!(solver.is_sat(&q), Ok(true))
                }
            });
            let Some(j) = next else {
                panic!("step {k} (t{i}) from {x:?} has no copy at version {at}; start {start:?}");
            };
            at = refined.transitions[j].target();
            replayed += 1;
        }
    }
    replayed
}

/// The two phases of SPEED's `cyclic` at one location: `C` counts up from `A + 1` to
/// `B`, is reset to 0 and counts up to `A`. No linear (or multiphase) ranking function
/// covers the loop (the reset undoes the count), but the phases exclude each other.
const CYCLIC: &str = "  l0(A,B,C) -> l1(A,B,A + 1) :|: A >= 0 && B >= A + 1\n  l1(A,B,C) -> l1(A,B,C + 1) :|: C >= A + 1 && B >= C\n  l1(A,B,C) -> l1(A,B,0) :|: C >= A + 1 && C >= B + 1\n  l1(A,B,C) -> l1(A,B,C + 1) :|: A >= C + 1 && B >= C\n";

/// The ITS of `rules` over `vars`, preprocessed, which the termination prover cannot prove
/// without a refinement (asserted), and its cyclic SCCs.
fn unproved(rules: &str, vars: &str) -> (Its, Its, Vec<Vec<usize>>) {
    let its = parse_koat(&koat(rules, vars)).unwrap();
    let pre = preprocess::preprocess(&its, Duration::from_secs(10));
    let direct = termination::prove(&pre, &limits());
    assert!(
        matches!(direct, termination::Termination::Maybe(..)),
        "needs the refinement: {direct:?}"
    );
    let sccs = cyclic_sccs(&pre);
    (its, pre, sccs)
}

#[test]
fn phases_become_versions_and_get_a_linear_bound() {
    common::count_not_time();
    let (its, pre, sccs) = unproved(CYCLIC, "A B C");
    let (refined, origin) =
        preprocess::partial_evaluate(&pre, &sccs, Duration::from_secs(10), limits().deadline)
            .expect("the loop is split into its phases");
    let steps = replay(&pre, &refined, &origin, 8, 60);
    assert!(steps > 60, "{steps} steps replayed");
    let refined = preprocess::refine_by_partial_evaluation(
        &pre,
        &sccs,
        Duration::from_secs(10),
        limits().deadline,
    )
    .unwrap();
    let c = complexity::infer(&refined, &limits()).expect("bounded after the refinement");
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(n)"));
    // Hand-computed cost for A ≥ 0, B ≥ A + 1: 1 + (B − A) + 1 + A = B + 2 (deterministic).
    for (a, b) in [(0, 1), (3, 9), (5, 6), (2, 40)] {
        let run = Interpreter::new(&its).run(&[a, b, 0], &RunConfig::default());
        assert_eq!(run.cost, b + 2, "A = {a}, B = {b}");
        assert!(c.bound.eval(&[a, b, 0]).unwrap() >= b + 2);
    }
    // What `symex its` does: the retry finds the same class.
    let (_, c) = complexity::infer_refining(&pre, &limits());
    assert_eq!(c.unwrap().bound.asymptotic().as_deref(), Some("O(n)"));
}

#[test]
fn counter_that_wraps_once_is_bounded_after_the_termination_refinement() {
    common::count_not_time();
    // `D` counts from `B + 1` up past `C`, is reset to 0 once and counts up to `B`; a
    // temporary `A = 0` may leave early (T2's `sumit`). Only the termination prover's
    // refinement (relational invariants, then partial evaluation) separates the phases.
    let its = parse_koat(&koat(
        "  l0(A,B,C,D) -> Com_1(l4(A,B,C,B + 1)) :|: B >= 0 && C >= B\n  l4(A,B,C,D) -> Com_1(l6(E,B,C,D)) :|: B >= D + 1\n  l4(A,B,C,D) -> Com_1(l6(E,B,C,D)) :|: D >= B + 1\n  l6(A,B,C,D) -> Com_1(l7(A,B,C,D)) :|: A >= 1\n  l6(A,B,C,D) -> Com_1(l7(A,B,C,D)) :|: 0 >= A + 1\n  l7(A,B,C,D) -> Com_1(l4(A,B,C,D + 1)) :|: C >= D\n  l7(A,B,C,D) -> Com_1(l4(A,B,C,0)) :|: D >= C + 1\n  l6(A,B,C,D) -> Com_1(l9(A,B,C,D)) :|: A = 0\n  l4(A,B,C,D) -> Com_1(l9(A,B,C,D)) :|: B = D\n",
        "A B C D E",
    ))
    .unwrap();
    let pre = preprocess::preprocess(&its, Duration::from_secs(10));
    let direct = complexity::infer(&pre, &limits());
    assert!(
        !direct.is_ok_and(|c| c.bound.asymptotic().is_some()),
        "needs the refinement"
    );
    let (_, c) = complexity::infer_refining(&pre, &limits());
    let c = c.expect("bounded after the refinement");
    // The retry that merges dead-end exits now bounds it first, with O(n²); the termination
    // refinement alone gives O(n) (`112·|B| + 16·|C| + 122`). Either is polynomial.
    assert!(c.bound.is_polynomial(), "{:?}", c.bound.asymptotic());
    // The longest run never leaves early (`A ≠ 0`): 1 + 3·(C − B + 1) + 3·B + 1 steps
    // for 0 ≤ B ≤ C, each of cost 1 (counted by hand from the rules).
    for (b, cc) in [(0, 0), (2, 5), (7, 7), (3, 30)] {
        let longest = 1 + 3 * (cc - b + 1) + 3 * b + 1;
        assert!(
            c.bound.eval(&[0, b, cc, 0]).unwrap() >= longest,
            "B = {b}, C = {cc}"
        );
    }
    let starts = common::random_starts(3, its.arity(), 12, 200);
    assert!(common::bound_holds_on_runs(&its, &c, starts, "wrapping counter") > 50);
}

#[test]
fn refinement_keeps_runs_with_temporaries_and_exits() {
    common::count_not_time();
    // Nondeterministic choices by a temporary, an exit from inside the SCC, and the
    // start location inside the SCC: every run maps to the refined ITS.
    let its = parse_koat(&koat(
        "  l0(X,Y) -> l0(X - 1,Y + T) :|: X >= 1 && T >= 0 && T <= 2\n  l0(X,Y) -> l1(X,Y - 1) :|: X <= 0 && Y >= 1\n  l1(X,Y) -> l1(X,Y - 1) :|: Y >= 1\n  l1(X,Y) -> l0(X + 2,Y) :|: Y <= 0 && X <= -5\n  l1(X,Y) -> l2(X,Y) :|: Y <= 0\n",
        "X Y",
    ))
    .unwrap();
    let sccs = cyclic_sccs(&its);
    let (refined, origin) =
        preprocess::partial_evaluate(&its, &sccs, Duration::from_secs(10), limits().deadline)
            .expect("split");
    assert!(refined.locations.len() > its.locations.len());
    assert!(replay(&its, &refined, &origin, 7, 60) > 300);
}

#[test]
fn benchmark_refinements_keep_runs() {
    common::count_not_time();
    let Some(dir) = common::koat_dir() else {
        return;
    };
    // Phases (SPEED's Example4, cyclic), LICS04's choice, and a sample of the set.
    let files = common::koat_files(&dir);
    let named = [
        "PLDI09/Example4.koat",
        "PLDI09/cyclic.koat",
        "LICS04/choice.koat",
    ];
    let mut refined_count = 0;
    for (k, f) in files.iter().enumerate() {
        let name = f.display().to_string();
        if k % 60 != 0 && !named.iter().any(|n| name.ends_with(n)) {
            continue;
        }
        let its = parse_koat(&std::fs::read_to_string(f).unwrap()).unwrap();
        let pre = preprocess::preprocess(&its, Duration::from_secs(10));
        let sccs = cyclic_sccs(&pre);
        let deadline = Instant::now() + Duration::from_secs(120);
        let Some((refined, origin)) =
            preprocess::partial_evaluate(&pre, &sccs, Duration::from_secs(5), deadline)
        else {
            continue;
        };
        refined_count += 1;
        replay(&pre, &refined, &origin, 5, 6);
    }
    assert!(refined_count >= 3, "only {refined_count} refined");
}

#[test]
fn termination_retries_on_the_refinement_and_its_functions_hold_on_runs() {
    common::count_not_time();
    let its = parse_koat(&koat(CYCLIC, "A B C")).unwrap();
    let pre = preprocess::preprocess(&its, Duration::from_secs(10));
    let (refined, result) = termination::prove_refining(&pre, &limits());
    let termination::Termination::Yes(proof) = result else {
        panic!("no proof after the refinement: {result:?}");
    };
    // Every linear function on concrete runs of the refined ITS: non-increasing on the
    // transitions it was found for, and ≥ 1 and dropping by 1 on those it removes.
    let mut checked = 0;
    let mut rng = Rng::new(3);
    for seed in 0..40 {
        // Mostly entries that pass the guard `A ≥ 0 ∧ B ≥ A + 1`.
        let a = rng.range(-1, 6);
        let start = vec![a, a + rng.range(0, 12), rng.range(-3, 3)];
        let cfg = RunConfig {
            seed,
            max_steps: 500,
            record: true,
            ..RunConfig::default()
        };
        let run = Interpreter::new(&refined).run(&start, &cfg);
        checked += check_steps_of_run(&proof, &run);
    }
    assert!(checked > 200, "{checked} checks");
}

/// Checks each linear ranking step of `proof` on runs of `its` from start values in
/// `lo..=hi`: non-increasing on its transitions, ≥ 1 and dropping on those it removes.
/// Returns the number of steps checked.
fn check_functions_on_runs(
    its: &Its,
    proof: &[termination::SccProof],
    (lo, hi): (i128, i128),
) -> usize {
    let mut checked = 0;
    let mut rng = Rng::new(11);
    for seed in 0..40 {
        let start: Vec<i128> = (0..its.arity()).map(|_| rng.range(lo, hi)).collect();
        let cfg = RunConfig {
            seed,
            max_steps: 2_000,
            record: true,
            ..RunConfig::default()
        };
        let run = Interpreter::new(its).run(&start, &cfg);
        assert_eq!(run.end, RunEnd::Terminated, "from {start:?}");
        checked += check_steps_of_run(proof, &run);
    }
    checked
}

/// Checks each linear ranking step of `proof` on every step of `run`: non-increasing on its
/// transitions, ≥ 1 and dropping on those it removes. Returns the number of checks.
fn check_steps_of_run(proof: &[termination::SccProof], run: &Run) -> usize {
    let mut checked = 0;
    for (k, &j) in run.taken.iter().enumerate() {
        let (l, x) = &run.trace[k];
        let (m, y) = &run.trace[k + 1];
        for step in proof.iter().flat_map(|p| &p.steps) {
            if step.multiphase.is_some()
                || step.word_size.is_some()
                || step.ratio.is_some()
                || step.quadratic_guard.is_some()
                || !step.remaining.contains(&j)
            {
                continue;
            }
            let before = step.function.eval(*l, x).unwrap();
            let after = step.function.eval(*m, y).unwrap();
            assert!(after <= before, "t{j} increases {:?}", step.function);
            if step.removed.contains(&j) {
                assert!(before >= 1 && after < before, "t{j} not strict");
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn changes_of_unknown_sign_are_split_into_phases() {
    common::count_not_time();
    // T2's polyrank3: `A` grows while `B` (or `C`) is positive and shrinks after; nothing
    // in a guard tells the phases apart, the signs of the changes do. A quadratic guard
    // (`A ≥ 1` falls by a negative definite form in the counts) proves it without the
    // refinement: switched off, the refinement is tested.
    let _off = symex_its::quadratic_guard::switched_off();
    let its = parse_koat(&koat(
        "  l0(A,B,C) -> l1(A,B,C)\n  l1(A,B,C) -> l1(A + B,B - 1,C) :|: A >= 1\n  l1(A,B,C) -> l1(A + C,B,C - 1) :|: A >= 1\n",
        "A B C",
    ))
    .unwrap();
    let pre = preprocess::preprocess(&its, Duration::from_secs(10));
    assert!(matches!(
        termination::prove(&pre, &limits()),
        termination::Termination::Maybe(..)
    ));
    let sccs = cyclic_sccs(&pre);
    let (refined, origin) =
        preprocess::partial_evaluate(&pre, &sccs, Duration::from_secs(10), limits().deadline)
            .expect("split by the signs of B and C");
    let steps = replay(&pre, &refined, &origin, 6, 40);
    assert!(steps > 100, "{steps} steps replayed");
    let (refined, result) = termination::prove_refining(&pre, &limits());
    let termination::Termination::Yes(proof) = result else {
        panic!("no proof after the refinement: {result:?}");
    };
    let checked = check_functions_on_runs(&refined, &proof, (-6, 6));
    assert!(checked > 50, "{checked} checks");
}

#[test]
fn invariants_of_a_swapping_entry_reach_the_chained_loop() {
    common::count_not_time();
    // WTC's gcd: the entry swaps `A` and `B` after checking both ≥ 1; the chained loop
    // `A' = A − B` / `B' = B − A` needs `A ≥ 1 ∧ B ≥ 1` for `A + B` to decrease.
    let its = parse_koat(&koat(
        "  l0(A,B) -> l1(B,A) :|: A >= 1 && B >= 1\n  l1(A,B) -> l2(A,B) :|: A >= B + 1\n  l2(A,B) -> l1(A - B,B)\n  l1(A,B) -> l3(A,B) :|: B >= A + 1\n  l3(A,B) -> l1(A,B - A)\n  l1(A,B) -> l4(A,B) :|: A = B\n",
        "A B",
    ))
    .unwrap();
    let pre = preprocess::preprocess(&its, Duration::from_secs(10));
    let (refined, result) = termination::prove_refining(&pre, &limits());
    let termination::Termination::Yes(proof) = result else {
        panic!("no proof: {result:?}");
    };
    let checked = check_functions_on_runs(&refined, &proof, (1, 30));
    assert!(checked > 50, "{checked} checks");
    // Hand-computed cost: Euclid by subtraction from (7, 3): (3,7) → (3,4) → (3,1) →
    // (2,1) → (1,1), four subtractions of two steps each, plus entry and exit.
    let c = complexity::infer_refining(&pre, &limits())
        .1
        .expect("a bound");
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(n)"));
    let run = Interpreter::new(&its).run(&[7, 3], &RunConfig::default());
    assert_eq!(run.cost, 10);
    assert!(c.bound.eval(&[7, 3]).unwrap() >= 10);
}

/// The loop nest of Flores-Montoya's `sipmamergesort`: chunks of width `2P` are merged while
/// `M ≥ P` (`V` is what is left after the chunk), the merge counts `Q` and `R` down, two
/// copy loops count `R3` and `Q3` down, and `M := V` goes back to the chunk loop only while
/// `V ≥ 1`; then `P` doubles below `N`. The last chunk sets `V := 0`, so its runs never get
/// back to `bb2` but through the doubling: with that split the chunk loop has the ranking
/// function `M` at `bb2`, `V + 1` after it. Without it no linear function exists (`M` may be
/// negative when the last chunk is entered).
const MERGESORT: &str = "  l0(P,M,N,V,Q,R,S,T) -> bb1(1,M,N,V,Q,R,S,T)
  bb1(P,M,N,V,Q,R,S,T) -> bb2(P,N,N,V,Q,R,S,T) :|: P >= 1
  bb2(P,M,N,V,Q,R,S,T) -> bb3(P,M,N,M - 2*P,P,P,S,T) :|: M >= 2*P && P >= 1
  bb2(P,M,N,V,Q,R,S,T) -> bb3(P,M,N,0,P,M - P,S,T) :|: M >= P && 2*P >= M + 1 && P >= 1
  bb2(P,M,N,V,Q,R,S,T) -> bb3(P,M,N,0,M,0,S,T) :|: P >= M + 1 && P >= 1
  bb3(P,M,N,V,Q,R,S,T) -> bb3(P,M,N,V,Q - 1,R,S,T) :|: Q >= 1 && R >= 1 && X >= Y + 1
  bb3(P,M,N,V,Q,R,S,T) -> bb3(P,M,N,V,Q,R - 1,S,T) :|: Q >= 1 && R >= 1 && Y >= X
  bb3(P,M,N,V,Q,R,S,T) -> bb7(P,M,N,V,Q,R,R,T) :|: 0 >= Q
  bb3(P,M,N,V,Q,R,S,T) -> bb7(P,M,N,V,Q,R,R,T) :|: 0 >= R
  bb7(P,M,N,V,Q,R,S,T) -> bb7(P,M,N,V,Q,R,S - 1,T) :|: S >= 1
  bb7(P,M,N,V,Q,R,S,T) -> bb9(P,M,N,V,Q,R,S,Q) :|: 0 >= S
  bb9(P,M,N,V,Q,R,S,T) -> bb9(P,M,N,V,Q,R,S,T - 1) :|: T >= 1
  bb9(P,M,N,V,Q,R,S,T) -> bb11(P,M,N,V,Q,R,S,T) :|: 0 >= T
  bb11(P,M,N,V,Q,R,S,T) -> bb2(P,V,N,V,Q,R,S,T) :|: V >= 1
  bb11(P,M,N,V,Q,R,S,T) -> bb12(P,M,N,V,Q,R,S,T) :|: 0 >= V
  bb12(P,M,N,V,Q,R,S,T) -> bb1(2*P,M,N,V,Q,R,S,T) :|: N >= 2*P + 1
  bb12(P,M,N,V,Q,R,S,T) -> stop(P,M,N,V,Q,R,S,T) :|: 2*P >= N
";

#[test]
fn constants_that_close_the_way_back_split_the_merge_loop() {
    common::count_not_time();
    // The positive part of `M − P` at `bb2`, `V` after it, ranks the chunk loop without the
    // split (tests/clamped_ranking.rs): switched off, the split is tested.
    let _off = symex_its::clamped_ranking::switched_off();
    let (its, pre, sccs) = unproved(MERGESORT, "P M N V Q R S T X Y");
    let (split, origin) = preprocess::partial_evaluate_constants(
        &pre,
        &sccs,
        Duration::from_secs(10),
        limits().deadline,
    )
    .expect("versions by V = 0");
    let steps = replay(&pre, &split, &origin, 6, 40);
    assert!(steps > 100, "{steps} steps replayed");
    let refined =
        preprocess::refine_by_constants(&pre, &sccs, Duration::from_secs(10), limits().deadline)
            .unwrap();
    let c = complexity::infer(&refined, &limits()).expect("bounded after the refinement");
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    // The bound against the costliest run, over every choice of the merge's temporaries
    // (only `N` matters: the other values are set before they are read).
    let mut memo = std::collections::HashMap::new();
    for n in -2..=12 {
        let start = [0, 0, n, 0, 0, 0, 0, 0];
        let worst =
            common::worst_cost(&its, its.start, &start, 1, 10_000, &mut memo).expect("runs end");
        assert!(worst >= 2, "N = {n}: {worst}");
        let bound = c.bound.eval(&start).unwrap();
        assert!(worst <= bound, "N = {n}: a run costs {worst} > {bound}");
    }
}
