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
    let holds = |l: usize, values: &[i128]| all_hold(&inv, l, values);
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
    let holds = |l: usize, values: &[i128]| all_hold(&inv, l, values);
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
    let holds = |values: &[i128]| all_hold(&inv, last, values);
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
    let holds = |l: usize, values: &[i128]| all_hold(&quick, l, values);
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

/// Whether every invariant of location `l` holds at `values`.
fn all_hold(inv: &[Vec<Atom>], l: usize, values: &[i128]) -> bool {
    inv[l].iter().all(|a| a.holds(values) == Some(true))
}

#[test]
fn intervals_narrowed_by_guards_over_several_variables() {
    common::count_not_time();
    // C counts down by C + H − 1 under C + H ≥ 1, with H = 0 after the start: C ≥ 1 before
    // each step only through H's interval, so C ≥ 0 at l1 and C = 0 at l2 (by hand).
    let its = parse_koat(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR C H N)\n(RULES\n  l0(C,H,N) -> l1(N,0,N) :|: N >= 1\n  l1(C,H,N) -> l1(C + H - 1,H,N) :|: C + H >= 1\n  l1(C,H,N) -> l2(C,H,N) :|: 0 >= C + H\n)\n",
    )
    .unwrap();
    let inv = interval_invariants(&its, Duration::from_secs(10)).expect("invariants");
    let at = |name: &str| its.locations.iter().position(|l| l == name).unwrap();
    let (l1, l2) = (at("l1"), at("l2"));
    assert!(all_hold(&inv, l1, &[0, 0, 5]) && all_hold(&inv, l1, &[7, 0, 5]));
    assert!(
        !all_hold(&inv, l1, &[-1, 0, 5]),
        "C >= 0 at l1: {:?}",
        inv[l1]
    );
    assert!(
        !all_hold(&inv, l1, &[3, 1, 5]),
        "H = 0 at l1: {:?}",
        inv[l1]
    );
    assert!(all_hold(&inv, l2, &[0, 0, 5]));
    assert!(
        !all_hold(&inv, l2, &[-1, 0, 5]),
        "C = 0 at l2: {:?}",
        inv[l2]
    );
    assert!(check_on_runs(&its, "narrowed"));
}

#[test]
fn intervals_beyond_the_candidate_limit() {
    common::count_not_time();
    // Twelve variables B..M and Z are 0 after the start and take part in the loop's guard:
    // the difference bounds of the guard's variables fill l1's candidates before any interval,
    // yet only `B = … = M = Z = 0` make A + B + … + Z − 1 a decrease (by hand: A ≥ 0 and
    // every other variable but N is 0 at l1).
    let pads = "B C D E F G H I J K L M";
    let all = format!("A {pads} Z N");
    let args = all.replace(' ', ",");
    let sum = all
        .split(' ')
        .filter(|v| *v != "N")
        .collect::<Vec<_>>()
        .join(" + ");
    let zeros = vec!["0"; 13].join(",");
    let kept = format!("{},Z,N", pads.replace(' ', ","));
    let src = format!(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR {all})\n(RULES\n  l0({args}) -> l1(N,{zeros},N) :|: N >= 1\n  l1({args}) -> l1({sum} - 1,{kept}) :|: {sum} >= 1\n  l1({args}) -> l2({args}) :|: 0 >= {sum}\n)\n"
    );
    let its = parse_koat(&src).unwrap();
    let inv = linear_invariants(&its, Duration::from_secs(10)).expect("invariants");
    let l1 = its.locations.iter().position(|l| l == "l1").unwrap();
    let state = |v: usize, x: i128| {
        let mut s = vec![0; 15];
        (s[0], s[14], s[v]) = (3, 5, x);
        s
    };
    assert!(all_hold(&inv, l1, &state(0, 3)));
    for v in 1..=13 {
        assert!(
            !all_hold(&inv, l1, &state(v, 1)),
            "variable {v} = 0 at l1: {:?}",
            inv[l1]
        );
        assert!(
            !all_hold(&inv, l1, &state(v, -1)),
            "variable {v} = 0 at l1: {:?}",
            inv[l1]
        );
    }
    assert!(check_linear_on_runs(&its, "beyond the limit"));
}
