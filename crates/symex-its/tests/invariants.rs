//! Interval invariants hold on every state the interpreter visits (runs of the original
//! ITS from random start values), on hand-written systems and a benchmark sample.
mod common;

use std::time::Duration;
use symex_its::interp::{Interpreter, Rng, RunConfig};
use symex_its::preprocess::{interval_invariants, linear_invariants};
use symex_its::Atom;
use symex_its::{parse_koat, Its};

fn check_on_runs(its: &Its, name: &str) -> bool {
    let Some(inv) = interval_invariants(its, Duration::from_secs(10)) else {
        return false;
    };
    holds_on_runs(its, &inv, name);
    true
}

fn check_linear_on_runs(its: &Its, name: &str) -> bool {
    let Some(inv) = linear_invariants(its, Duration::from_secs(10)) else {
        return false;
    };
    holds_on_runs(its, &inv, name);
    true
}

/// Runs the ITS from random start values and asserts every invariant on every state.
fn holds_on_runs(its: &Its, inv: &[Vec<Atom>], name: &str) {
    let mut rng = Rng::new(3);
    for seed in 0..10 {
        let start: Vec<i128> = (0..its.arity()).map(|_| rng.range(-8, 8)).collect();
        let cfg = RunConfig {
            seed,
            max_steps: 300,
            record: true,
            tries: 10,
            use_solver: false,
            ..RunConfig::default()
        };
        let run = Interpreter::new(its).run(&start, &cfg);
        for (l, values) in &run.trace {
            for a in &inv[*l] {
                assert_eq!(
                    a.holds(values),
                    Some(true),
                    "{name}: invariant {a:?} fails at {} with {values:?}",
                    its.locations[*l]
                );
            }
        }
    }
}

#[test]
fn loop_counter_stays_in_its_interval() {
    common::count_not_time();
    let its = parse_koat(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR A B)\n(RULES\n  l0(A,B) -> l1(A,B) :|: A >= 1\n  l1(A,B) -> l1(A + 1,B - A) :|: B >= 1\n  l1(A,B) -> l2(0,B) :|: B <= 0\n)\n",
    )
    .unwrap();
    let inv = interval_invariants(&its, Duration::from_secs(10)).expect("invariants");
    // Hand-derived: A ≥ 1 at l1; A = 0 and B ≤ 0 at l2.
    let holds = |l: usize, values: &[i128]| inv[l].iter().all(|a| a.holds(values) == Some(true));
    assert!(!holds(1, &[0, 5]), "A >= 1 at l1: {:?}", inv[1]);
    assert!(holds(1, &[1, -100]));
    assert!(!holds(2, &[1, 0]) && !holds(2, &[0, 1]) && holds(2, &[0, -3]));
    assert!(check_on_runs(&its, "hand"));
}

#[test]
fn benchmark_sample_invariants_hold_on_runs() {
    common::count_not_time();
    let Some(dir) = common::koat_dir() else {
        return;
    };
    let mut with = 0;
    for f in common::koat_files(&dir).iter().step_by(25) {
        let its = parse_koat(&std::fs::read_to_string(f).unwrap()).unwrap();
        with += usize::from(check_on_runs(&its, &f.display().to_string()));
    }
    eprintln!("{with} sampled files had invariants");
}

#[test]
fn difference_bound_of_a_counting_loop() {
    common::count_not_time();
    // X counts up to Y from 0: X ≤ Y at l1 (a difference bound no interval expresses),
    // while the loop guard X < Y itself is not invariant (it fails at the exit).
    let its = parse_koat(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR X Y)\n(RULES\n  l0(X,Y) -> l1(0,Y) :|: Y >= 0\n  l1(X,Y) -> l1(X + 1,Y) :|: X < Y\n  l1(X,Y) -> l2(X,Y) :|: X >= Y\n)\n",
    )
    .unwrap();
    let inv = linear_invariants(&its, Duration::from_secs(10)).expect("invariants");
    let holds = |l: usize, values: &[i128]| inv[l].iter().all(|a| a.holds(values) == Some(true));
    // Hand-derived: 0 ≤ X ≤ Y at l1; X = Y at l2 is reachable.
    assert!(holds(1, &[5, 5]) && holds(1, &[0, 7]));
    assert!(!holds(1, &[6, 5]), "X <= Y at l1: {:?}", inv[1]);
    assert!(holds(2, &[3, 3]));
    assert!(inv[0].is_empty(), "nothing is assumed at the start");
    assert!(check_linear_on_runs(&its, "count"));
}

#[test]
fn benchmark_sample_linear_invariants_hold_on_runs() {
    common::count_not_time();
    let Some(dir) = common::koat_dir() else {
        return;
    };
    let mut with = 0;
    for f in common::koat_files(&dir).iter().step_by(25) {
        let its = parse_koat(&std::fs::read_to_string(f).unwrap()).unwrap();
        with += usize::from(check_linear_on_runs(&its, &f.display().to_string()));
    }
    eprintln!("{with} sampled files had linear invariants");
}

/// T2's loop3 in small: `B := 2` at the start, then `loops` loops one after the other, each
/// counting `C` up by `B` to a constant and handing over to the next.
fn chain_of_loops(loops: usize) -> Its {
    let mut rules = String::from("  l0(B,C) -> Com_1(l1(2,0))\n");
    for k in 1..=loops {
        rules.push_str(&format!("  l{k}(B,C) -> Com_1(l{k}(B,C + B)) :|: 4 >= C\n"));
        rules.push_str(&format!(
            "  l{k}(B,C) -> Com_1(l{}(B,0)) :|: C >= 5\n",
            k + 1
        ));
    }
    parse_koat(&format!(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR B C)\n(RULES\n{rules})\n"
    ))
    .unwrap()
}

#[test]
fn chain_of_many_loops_keeps_its_invariants_to_the_end() {
    common::count_not_time();
    // T2's loop3 in small: `B := 2` at the start, then 40 loops one after the other, each
    // counting `C` up by `B` to a constant and handing over to the next. `B = 2` holds
    // everywhere (the interpreter's runs check it too), also at the last loop, which the
    // analysis reaches only after about two rounds per loop.
    let loops = 40;
    let its = chain_of_loops(loops);
    let inv = interval_invariants(&its, Duration::from_secs(10)).expect("invariants");
    let last = its
        .locations
        .iter()
        .position(|l| l == &format!("l{loops}"))
        .unwrap();
    let holds = |values: &[i128]| inv[last].iter().all(|a| a.holds(values) == Some(true));
    assert!(holds(&[2, 0]) && holds(&[2, 6]));
    assert!(
        !holds(&[1, 0]) && !holds(&[3, 0]),
        "B = 2 at the last loop: {:?}",
        inv[last]
    );
    assert!(check_on_runs(&its, "chain"));
}

#[test]
fn houdini_finds_the_same_invariants_on_a_slow_machine() {
    // No resource limit, as `symex its` runs by default: Houdini's budget was then its
    // per-query time limit for all its queries together (20 s), and under load it ran out
    // and fell back to the interval invariants (T2's svdcmp: 561 queries instead of 1 117).
    // Here each query waits 20 ms (a loaded machine): the invariants and the number of
    // queries must be those of the quick run; with the time budget the slow run ran out
    // after 2 s (about 100 queries; the chain asks more).
    let loops = 12;
    let its = chain_of_loops(loops);
    let per_query = Duration::from_secs(2);
    let asked = symex_its::smt::queries();
    let quick = linear_invariants(&its, per_query).expect("invariants");
    let quick_queries = symex_its::smt::queries() - asked;
    symex_its::smt::delay_queries(Duration::from_millis(20));
    let asked = symex_its::smt::queries();
    let slow = linear_invariants(&its, per_query);
    let slow_queries = symex_its::smt::queries() - asked;
    symex_its::smt::delay_queries(Duration::ZERO);
    assert!(
        quick_queries > 100,
        "{quick_queries} queries wait less than 2 s"
    );
    assert_eq!(slow.as_ref(), Some(&quick), "the slow run's invariants");
    assert_eq!(slow_queries, quick_queries);
    // Hand-derived: B = 2 at every loop and at the end (set at the start, never changed).
    let holds = |l: usize, values: &[i128]| quick[l].iter().all(|a| a.holds(values) == Some(true));
    for k in 1..=loops + 1 {
        let l = its
            .locations
            .iter()
            .position(|n| *n == format!("l{k}"))
            .unwrap();
        assert!(holds(l, &[2, 0]), "l{k}: {:?}", quick[l]);
        assert!(
            !holds(l, &[3, 0]) && !holds(l, &[1, 0]),
            "B = 2 at l{k}: {:?}",
            quick[l]
        );
    }
    assert!(check_linear_on_runs(&its, "slow chain"));
}
