//! Unbounded runtime (`symex_its::lower_bound`) on hand-written ITSs: the witnesses are
//! checked by the interpreter (the reference semantics) with the witness's start values
//! and its parameter pinned, and against hand-coded native loops — not by the prover's
//! own replay alone. Systems whose temporaries are bounded by the start values, or feed
//! nothing a loop counts, must get no witness.
mod common;

use std::time::{Duration, Instant};
use symex_its::complexity;
use symex_its::interp::{Interpreter, RunConfig, RunEnd};
use symex_its::lower_bound::{self, Family, Unbounded};
use symex_its::termination::Limits;
use symex_its::{parse_koat, preprocess, Its, Poly};

fn its(start: &str, vars: &str, rules: &str) -> Its {
    let src = format!(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS {start}))\n(VAR {vars})\n(RULES\n{rules}\n)\n"
    );
    parse_koat(&src).unwrap()
}

fn prove(its: &Its) -> Option<Unbounded> {
    lower_bound::prove(
        its,
        Duration::from_secs(10),
        Instant::now() + Duration::from_secs(600),
    )
}

fn family(its: &Its) -> Family {
    match prove(its) {
        Some(Unbounded::Family(f)) => f,
        other => panic!("expected runs of every length, got {other:?}"),
    }
}

/// `its` with the family's parameter replaced by its value for `laps` laps.
fn pinned(its: &Its, f: &Family, laps: i128) -> Its {
    let mut its = its.clone();
    let t = f.path[f.param.0];
    let mut temps: Vec<usize> = f.tied.iter().map(|j| its.arity() + j).collect();
    temps.push(its.arity() + f.param.1);
    let value = Poly::constant(f.param_value(laps).unwrap());
    let sub = |p: &Poly| {
        p.substitute(&|v| {
            if temps.contains(&v) {
                value.clone()
            } else {
                Poly::var(v)
            }
        })
    };
    let tr = &mut its.transitions[t];
    for a in &mut tr.guard {
        a.poly = sub(&a.poly);
    }
    for (_, update) in &mut tr.targets {
        for u in update.iter_mut() {
            *u = sub(u);
        }
    }
    its
}

/// The interpreter's run from the witness's start values with the parameter pinned for
/// `laps` laps: it must cost at least `laps`.
fn interpreted_cost(its: &Its, f: &Family, laps: i128) -> i128 {
    let pinned = pinned(its, f, laps);
    let cfg = RunConfig {
        max_steps: 1_000_000,
        ..RunConfig::default()
    };
    let run = Interpreter::new(&pinned).run(&f.start, &cfg);
    assert_ne!(run.end, RunEnd::Overflow);
    run.cost
}

const MC91: &str = "  f0(A,B) -> Com_1(f1(C,1))
  f1(A,B) -> Com_1(f1(A - 10,B - 1)) :|: B >= 1 && A >= 101
  f1(A,B) -> Com_1(f1(A + 11,B + 1)) :|: B >= 1 && 100 >= A";

/// McCarthy's 91 function as T2 encodes it, natively: the steps from `A = c`, `B = 1`.
fn mc91_steps(c: i128) -> i128 {
    let (mut a, mut b, mut steps) = (c, 1, 0);
    while b >= 1 {
        if a >= 101 {
            a -= 10;
            b -= 1;
        } else {
            a += 11;
            b += 1;
        }
        steps += 1;
    }
    steps
}

#[test]
fn mc91_temporary_sets_the_counter() {
    common::count_not_time();
    let its = its("f0", "A B C", MC91);
    let f = family(&its);
    // The parameter is `C` of the first rule, chosen negative: `A` counts up from it.
    assert_eq!(f.path, vec![0]);
    assert_eq!(f.param, (0, 0));
    assert!(f.scale < 0, "{f:?}");
    assert!(f.cycle.iter().all(|&t| t == 2), "{f:?}");
    for laps in [10, 100, 1000] {
        assert!(mc91_steps(f.param_value(laps).unwrap()) >= laps);
        assert!(interpreted_cost(&its, &f, laps) >= laps);
        assert_eq!(lower_bound::replay_family(&its, &f, laps), Some(true));
    }
}

const COUSOT9: &str = "  start(A,B,C) -> Com_1(entry(A,B,C))
  entry(A,B,C) -> Com_1(bb3(D,C,C))
  bb3(A,B,C) -> Com_1(bb(A,B,C)) :|: B >= 1
  bb3(A,B,C) -> Com_1(ret(A,B,C)) :|: 0 >= B
  bb(A,B,C) -> Com_1(bb1(A,B,C)) :|: A >= 1
  bb(A,B,C) -> Com_1(bb2(A,B,C)) :|: 0 >= A
  bb1(A,B,C) -> Com_1(bb3(A - 1,B,C))
  bb2(A,B,C) -> Com_1(bb3(C,B - 1,C))";

/// WTC's `cousot9` natively: the steps from `A = d`, `B = C = c`.
fn cousot9_steps(d: i128, c: i128) -> i128 {
    let (mut a, mut b, mut steps) = (d, c, 2);
    while b >= 1 {
        steps += 2;
        if a >= 1 {
            a -= 1;
        } else {
            a = c;
            b -= 1;
        }
    }
    steps + 1
}

#[test]
fn cousot9_temporary_sets_the_inner_counter() {
    common::count_not_time();
    let its = its("start", "A B C D", COUSOT9);
    let f = family(&its);
    assert_eq!(f.path[..2], [0, 1], "{f:?}");
    assert_eq!(f.param, (1, 0));
    // The cycle through `bb1` counts `A` down by one per lap.
    assert!(f.cycle.contains(&6), "{f:?}");
    assert!(f.steps.contains(&(0, Some(-1))), "{f:?}");
    assert!(f.start[2] >= 1, "the outer loop must be entered: {f:?}");
    for laps in [10, 100, 1000] {
        let d = f.param_value(laps).unwrap();
        // `c` small: the runs are long because of `d` alone.
        assert!(cousot9_steps(d, f.start[2]) >= laps);
        assert!(interpreted_cost(&its, &f, laps) >= laps);
    }
}

#[test]
fn alternating_cycles_keep_a_variable_in_range() {
    common::count_not_time();
    // T2's randomwalk_withassume: `F` must stay in 1..=2, so laps alternate up and down
    // (the temporary `G` picks the direction), while `C` (a temporary at the start)
    // counts down once per step at `l1`.
    let its = its(
        "l0",
        "C F G H",
        "  l0(C,F,G) -> Com_1(l1(H,1,G)) :|: H >= 0
  l1(C,F,G) -> Com_1(l2(C - 1,F,H)) :|: H >= 0 && 1 >= H && C >= 1 && F >= 1 && 2 >= F
  l2(C,F,G) -> Com_1(l1(C,F - 1,G)) :|: 0 >= G
  l2(C,F,G) -> Com_1(l1(C,F + 1,G)) :|: G >= 1",
    );
    let f = family(&its);
    assert_eq!(f.cycle.len(), 4, "{f:?}");
    assert!(f.steps.contains(&(0, Some(-2))), "{f:?}");
    for laps in [10, 100, 1000] {
        // Natively, with the strategy up, down, up, …: each step at l1 takes one from C.
        let (mut c, mut fv, mut cost) = (f.param_value(laps).unwrap(), 1, 1);
        let mut up = true;
        while c >= 1 && (1..=2).contains(&fv) {
            c -= 1;
            fv += if up { 1 } else { -1 };
            up = !up;
            cost += 2;
        }
        assert!(cost >= laps);
        assert_eq!(lower_bound::replay_family(&its, &f, laps), Some(true));
    }
}

#[test]
fn temporary_reaches_the_counter_through_the_path() {
    common::count_not_time();
    // `A := T`, then on the way to the loop `C := A − 1`, and the loop counts `C` down
    // (T2's `new_ex`): the loop never reads `A`, but `T` sets its counter.
    let its = its(
        "l0",
        "A C T",
        "  l0(A,C) -> Com_1(l1(T,C)) :|: T >= 1\n  l1(A,C) -> Com_1(l2(A,A - 1))\n  l2(A,C) -> Com_1(l2(A,C - 1)) :|: C >= 1",
    );
    let f = family(&its);
    assert_eq!(f.path, vec![0, 1]);
    assert_eq!(f.cycle, vec![2]);
    for laps in [10, 100, 1000] {
        // Natively: from `A = T` the loop runs `T − 1` times, after two steps.
        let t = f.param_value(laps).unwrap();
        assert!(t - 1 + 2 >= laps);
        assert!(interpreted_cost(&its, &f, laps) >= laps);
    }
}

#[test]
fn non_terminating_loop_is_unbounded() {
    common::count_not_time();
    let its = its(
        "l0",
        "X Y",
        "  l0(X,Y) -> Com_1(l1(X,Y))\n  l1(X,Y) -> Com_1(l1(X + 1,Y)) :|: X >= Y",
    );
    let Some(ref u @ Unbounded::NonTerminating(ref w)) = prove(&its) else {
        panic!("expected a non-terminating witness");
    };
    assert!(w.start[0] >= w.start[1], "{w:?}");
    assert_eq!(w.cycle, vec![1]);
    assert!(lower_bound::replay(&its, u));
    // The interpreter agrees: from those start values the run does not stop.
    let cfg = RunConfig {
        max_steps: 10_000,
        ..RunConfig::default()
    };
    assert_eq!(
        Interpreter::new(&its).run(&w.start, &cfg).end,
        RunEnd::StepLimit
    );
}

#[test]
fn non_terminating_loop_that_overflows_is_unbounded() {
    common::count_not_time();
    // `A' = 3·A + 1` under `A ≥ 1` runs forever from every `A ≥ 1`, but its values leave
    // the `i128` range after about 80 laps, long before the cost reaches 10 000 (T2's
    // `p-46`); each lap costs 1.
    let its = its(
        "l0",
        "A",
        "  l0(A) -> Com_1(l1(A))\n  l1(A) -> Com_1(l1(3*A + 1)) :|: A >= 1",
    );
    let Some(ref u @ Unbounded::NonTerminating(ref w)) = prove(&its) else {
        panic!("expected a non-terminating witness");
    };
    assert!(lower_bound::replay(&its, u));
    // Independently: from `A ≥ 1` the guard keeps holding (3·A + 1 > A ≥ 1), and the
    // interpreter runs 60 steps without stopping.
    assert!(w.start[0] >= 1, "{w:?}");
    let cfg = RunConfig {
        max_steps: 60,
        ..RunConfig::default()
    };
    assert_eq!(
        Interpreter::new(&its).run(&w.start, &cfg).end,
        RunEnd::StepLimit
    );
    // With a cycle of cost 0 the overflow does not count as unbounded cost.
    let free = its_with_cost_zero(&its);
    assert!(!lower_bound::replay(&free, u));
}

/// `its` with every transition's cost set to 0.
fn its_with_cost_zero(its: &Its) -> Its {
    let mut its = its.clone();
    for t in &mut its.transitions {
        t.cost = Poly::constant(0);
    }
    its
}

#[test]
fn temporary_bounded_by_start_values_is_not_unbounded() {
    common::count_not_time();
    // `A := D` with `0 ≤ D ≤ B`: at most `B` laps, a bound exists.
    let its = its(
        "l0",
        "A B D",
        "  l0(A,B) -> Com_1(l1(D,B)) :|: 0 <= D && D <= B\n  l1(A,B) -> Com_1(l1(A - 1,B)) :|: A >= 1",
    );
    assert!(prove(&its).is_none());
}

#[test]
fn temporary_the_loop_does_not_count_is_not_unbounded() {
    common::count_not_time();
    // `B := D`, but the loop counts `A` (a start value) only.
    let its = its(
        "l0",
        "A B D",
        "  l0(A,B) -> Com_1(l1(A,D))\n  l1(A,B) -> Com_1(l1(A - 1,B + 1)) :|: A >= 1",
    );
    assert!(prove(&its).is_none());
}

#[test]
fn zero_cost_cycle_is_not_unbounded() {
    common::count_not_time();
    // Runs of every length, but the laps cost nothing: the cost is bounded.
    let its = its(
        "l0",
        "A D",
        "  l0(A) -> Com_1(l1(D))\n  l1(A) -{0}> Com_1(l1(A - 1)) :|: A >= 1",
    );
    assert!(prove(&its).is_none());
}

#[test]
fn benchmark_sample_never_both_bounded_and_unbounded() {
    common::count_not_time();
    let Some(dir) = common::koat_dir() else {
        return;
    };
    let files = common::koat_files(&dir);
    // ITS_LOWER_BOUND_STEP=1 checks every file (slow); CI samples every 40th.
    let step = std::env::var("ITS_LOWER_BOUND_STEP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let mut unbounded = 0;
    for f in files.iter().step_by(step) {
        let its = parse_koat(&std::fs::read_to_string(f).unwrap()).unwrap();
        let its = preprocess::preprocess(&its, Duration::from_secs(5));
        let Some(u) = lower_bound::prove(
            &its,
            Duration::from_secs(5),
            Instant::now() + Duration::from_secs(10),
        ) else {
            continue;
        };
        unbounded += 1;
        assert!(lower_bound::replay(&its, &u), "{}", f.display());
        // The upper-bound prover must not find a bound where runs of every cost exist.
        let limits = Limits {
            query_timeout: Duration::from_secs(5),
            deadline: Instant::now() + Duration::from_secs(10),
        };
        if let Ok(c) = complexity::infer(&its, &limits) {
            assert!(
                c.bound.asymptotic().is_none(),
                "{}: bound {:?} and a witness of unbounded runtime {u:?}",
                f.display(),
                c.bound.asymptotic()
            );
        }
    }
    eprintln!(
        "{unbounded} of {} sampled files proven unbounded, none also bounded",
        files.len().div_ceil(step)
    );
}

#[test]
fn counting_cycle_found_behind_many_impossible_ones() {
    common::count_not_time();
    // T2's firewire in small: `F := T` (free) at the start, then a cycle through three
    // locations that counts `F` down while `D = E` — where most of the 4·3·3 cycles
    // through them cannot run twice (a reset of `F` to a fresh temporary only when
    // `F = 0`, a flag that ends the loop): the one that counts must still be reached.
    let mut rules = String::from("  f0(A,D,E,F,H,I) -> Com_1(f9(0,0,0,T,H,I)) :|: T >= 1\n");
    for k in 0..3 {
        rules.push_str(&format!(
            "  f9(A,D,E,F,H,I) -> Com_1(f20(A + 1,D,D,T,{k},{k})) :|: F = 0 && A <= 2 && T >= 1 && D = E\n"
        ));
    }
    rules.push_str("  f9(A,D,E,F,H,I) -> Com_1(f20(A,D,D,F - 1,T,U)) :|: F >= 1 && D = E\n");
    for (guard, d) in [("I = 0", 0), ("I >= 1", 1), ("0 >= I + 1", 1)] {
        rules.push_str(&format!(
            "  f20(A,D,E,F,H,I) -> Com_1(f32(A,{d},E,F,H,I)) :|: {guard}\n"
        ));
    }
    for (guard, e) in [("H = 0", 0), ("H >= 1", 1), ("0 >= H + 1", 1)] {
        rules.push_str(&format!(
            "  f32(A,D,E,F,H,I) -> Com_1(f9(A,D,{e},F,H,I)) :|: {guard}\n"
        ));
    }
    rules.push_str("  f9(A,D,E,F,H,I) -> Com_1(f38(A,D,E,F,H,I)) :|: D >= E + 1\n");
    rules.push_str("  f9(A,D,E,F,H,I) -> Com_1(f38(A,D,E,F,H,I)) :|: E >= D + 1");
    let its = its("f0", "A D E F H I T U", &rules);
    let f = family(&its);
    assert_eq!(f.path, vec![0], "{f:?}");
    assert!(f.steps.contains(&(3, Some(-1))), "F counts down: {f:?}");
    for laps in [10, 100, 1000] {
        // The interpreter's random choices of `T`, `U` leave the loop early; natively,
        // with both 0 on every lap, the run is long.
        assert!(firewire_steps(f.param_value(laps).unwrap()) >= laps);
        assert_eq!(lower_bound::replay_family(&its, &f, laps), Some(true));
    }
}

/// The ITS of [`counting_cycle_found_behind_many_impossible_ones`] natively from
/// `F = t`, choosing `T = U = 0` on every lap that counts `F` down: its steps.
fn firewire_steps(t: i128) -> i128 {
    let (mut d, mut e, mut f, mut steps) = (0, 0, t, 1);
    while f >= 1 && d == e {
        f -= 1;
        let (h, i) = (0, 0);
        d = i128::from(i != 0);
        e = i128::from(h != 0);
        steps += 3;
    }
    steps
}

/// A loop through two locations with no exit, each a case split that covers every
/// value (T2's `bio` in small); `uncovered` leaves out the case `A = 0` at `l2`.
fn inescapable_its(uncovered: bool) -> Its {
    let zero_case = if uncovered { "0 >= A + 1" } else { "0 >= A" };
    its(
        "l0",
        "A B",
        &format!(
            "  l0(A,B) -> Com_1(l1(A,B))
  l1(A,B) -> Com_1(l2(A,B + 1)) :|: A >= B + 1
  l1(A,B) -> Com_1(l2(A,B - 1)) :|: B >= A + 1
  l1(A,B) -> Com_1(l2(B,B)) :|: A = B
  l2(A,B) -> Com_1(l1(A - 1,B)) :|: A >= 1
  l2(A,B) -> Com_1(l1(A + 1,B)) :|: {zero_case}"
        ),
    )
}

#[test]
fn scc_without_exit_or_uncovered_case_never_stops() {
    common::count_not_time();
    let its = inescapable_its(false);
    let mut solver = symex_its::smt::solver(Duration::from_secs(10));
    let w = symex_its::inescapable::prove(&its, solver.as_mut(), Instant::now() + common::BACKSTOP)
        .expect("a witness");
    assert!(w.first_enabled && w.path == vec![0], "{w:?}");
    // The interpreter (random choices) never stops either, from the witness's start or
    // from others.
    for start in [w.start.clone(), vec![5, -3], vec![-7, 0]] {
        let cfg = RunConfig {
            max_steps: 5000,
            ..RunConfig::default()
        };
        let run = Interpreter::new(&its).run(&start, &cfg);
        assert_eq!(run.end, RunEnd::StepLimit, "from {start:?}");
    }
    assert!(matches!(prove(&its), Some(Unbounded::NonTerminating(_))));
}

#[test]
fn scc_with_an_uncovered_case_gets_no_inescapable_witness() {
    common::count_not_time();
    // With `A = 0` uncovered at `l2` every run stops: `A` moves to 0 and stays there
    // (the interpreter confirms), so there must be no witness.
    let its = inescapable_its(true);
    for start in [vec![5, -3], vec![-7, 0], vec![0, 0]] {
        let run = Interpreter::new(&its).run(&start, &RunConfig::default());
        assert_eq!(run.end, RunEnd::Terminated, "from {start:?}");
    }
    let mut solver = symex_its::smt::solver(Duration::from_secs(10));
    let w = symex_its::inescapable::prove(&its, solver.as_mut(), Instant::now() + common::BACKSTOP);
    assert!(w.is_none(), "{w:?}");
    assert!(prove(&its).is_none());
}

#[test]
fn two_temporaries_of_one_step_count_together() {
    common::count_not_time();
    // T2's n_firewire in small: the start sets `C := H` and `G := I` (both free); the
    // cycle `l1 -> l2 -> l1` lowers `C` twice and `G` once per lap and needs both
    // positive, so neither temporary alone makes the runs long: both take the value.
    let rules = "  l0(C,G) -> Com_1(l1(H,I)) :|: H >= 0 && I >= 1
  l1(C,G) -> Com_1(l2(C - 1,G)) :|: C >= 1 && G >= 1
  l2(C,G) -> Com_1(l1(C - 1,G - 1)) :|: C >= 1
  l1(C,G) -> Com_1(l3(C,G)) :|: 0 >= G";
    let its = its("l0", "C G H I", rules);
    let f = family(&its);
    assert_eq!(f.path, vec![0], "{f:?}");
    assert!(!f.tied.is_empty(), "{f:?}");
    for laps in [10, 100, 1000] {
        let v = f.param_value(laps).unwrap();
        // Natively, from C = G = v: the loop runs while C ≥ 2 and G ≥ 1.
        let (mut c, mut g, mut steps) = (v, v, 1);
        while c >= 1 && g >= 1 {
            c -= 1;
            steps += 1;
            if c < 1 {
                break;
            }
            c -= 1;
            g -= 1;
            steps += 1;
        }
        assert!(steps >= laps, "{steps} steps for {laps} laps");
        assert!(interpreted_cost(&its, &f, laps) >= laps);
        assert_eq!(lower_bound::replay_family(&its, &f, laps), Some(true));
    }
}

fn prove_counted(its: &Its, queries: u64) -> (Option<Unbounded>, bool) {
    lower_bound::prove_counted(
        its,
        Duration::from_secs(10),
        Instant::now() + Duration::from_secs(600),
        queries,
    )
}

/// The search `symex its` asks before the upper bound: within its count it finds the
/// witnesses of mc91 and of a loop that never stops (checked natively above), and says
/// the search ended; a bounded system gets no witness and a search that ended; without
/// queries nothing is found and the search did not end (the CLI asks again later).
#[test]
fn counted_search_finds_witnesses_within_its_count() {
    common::count_not_time();
    let mc91 = its("f0", "A B C", MC91);
    let (found, ended) = prove_counted(&mc91, lower_bound::FIRST_QUERIES);
    let Some(Unbounded::Family(f)) = found else {
        panic!("expected mc91's family");
    };
    assert!(ended);
    assert!(mc91_steps(f.param_value(1000).unwrap()) >= 1000);
    let spin = its(
        "l0",
        "X Y",
        "  l0(X,Y) -> Com_1(l1(X,Y))\n  l1(X,Y) -> Com_1(l1(X + 1,Y)) :|: X >= Y",
    );
    let (found, ended) = prove_counted(&spin, lower_bound::FIRST_QUERIES);
    assert!(matches!(found, Some(Unbounded::NonTerminating(_))) && ended);
    let bounded = its(
        "l0",
        "A B D",
        "  l0(A,B) -> Com_1(l1(D,B)) :|: 0 <= D && D <= B\n  l1(A,B) -> Com_1(l1(A - 1,B)) :|: A >= 1",
    );
    let (found, ended) = prove_counted(&bounded, lower_bound::FIRST_QUERIES);
    assert!(found.is_none() && ended);
    let (found, ended) = prove_counted(&mc91, 0);
    assert!(found.is_none() && !ended);
}

/// A first look whose queries come back unknown has not looked everywhere: it must not say
/// that it ended, or `symex its` would not ask again once no bound is found. Under a
/// resource limit too small for any answer mc91's search finds nothing, within its count.
#[test]
fn counted_search_with_unknown_answers_did_not_end() {
    symex_its::smt::set_rlimit(Some(1));
    let mc91 = its("f0", "A B C", MC91);
    let (found, ended) = prove_counted(&mc91, lower_bound::FIRST_QUERIES);
    common::count_not_time();
    assert!(found.is_none(), "no answer under a resource limit of 1");
    assert!(!ended, "a search with unknown answers did not end");
}

/// A first look its count cut goes on beside the upper-bound search (`symex its` gives it
/// the whole time): with no queries at all the first look finds nothing and has not ended,
/// and the search that goes on finds mc91's family and hands it to the caller's `found`.
#[test]
fn a_first_look_cut_by_its_count_goes_on() {
    common::count_not_time();
    let mc91 = its("f0", "A B C", MC91);
    let (send, receive) = std::sync::mpsc::channel();
    let until = Instant::now() + common::BACKSTOP;
    let go_on = lower_bound::GoOn {
        until,
        found: Box::new(move |u: &Unbounded| send.send(u.clone()).unwrap()),
    };
    let look = lower_bound::look_first(
        &mc91,
        Duration::from_secs(10),
        Instant::now() + Duration::from_secs(600),
        0,
        Some(go_on),
    );
    assert!(look.found.is_none() && !look.ended);
    let Ok(Unbounded::Family(f)) = receive.recv_timeout(common::BACKSTOP) else {
        panic!("expected mc91's family from the search that went on");
    };
    assert!(mc91_steps(f.param_value(1000).unwrap()) >= 1000);
    // A first look that ended does not go on.
    let spin = its(
        "l0",
        "X Y",
        "  l0(X,Y) -> Com_1(l1(X,Y))\n  l1(X,Y) -> Com_1(l1(X + 1,Y)) :|: X >= Y",
    );
    let go_on = lower_bound::GoOn {
        until,
        found: Box::new(|_: &Unbounded| panic!("nothing goes on after a witness")),
    };
    let look = lower_bound::look_first(
        &spin,
        Duration::from_secs(10),
        until,
        lower_bound::FIRST_QUERIES,
        Some(go_on),
    );
    assert!(look.found.is_some() && look.ended);
}

/// A first look cut by its count goes on where it is: the search that finds mc91's family
/// after the cut has asked exactly the queries of one uninterrupted search (counted on the
/// search's own thread, under a resource limit), not the cut look's plus a new search's.
/// Before, the cut look ran its loops to their end with unknown answers, and the search
/// that went on started again from scratch.
#[test]
fn a_first_look_cut_by_its_count_goes_on_where_it_is() {
    common::count_not_time();
    let mc91 = its("f0", "A B C", MC91);
    let rlimit = symex_its::smt::rlimit();
    let whole = {
        let mc91 = mc91.clone();
        std::thread::spawn(move || {
            symex_its::smt::set_rlimit(rlimit);
            assert!(prove(&mc91).is_some());
            symex_its::smt::queries()
        })
        .join()
        .unwrap()
    };
    assert!(whole > 2, "mc91's search asks {whole} queries");
    let (send, receive) = std::sync::mpsc::channel();
    let go_on = lower_bound::GoOn {
        until: Instant::now() + common::BACKSTOP,
        found: Box::new(move |_: &Unbounded| send.send(symex_its::smt::queries()).unwrap()),
    };
    let look = lower_bound::look_first(
        &mc91,
        Duration::from_secs(10),
        Instant::now() + Duration::from_secs(600),
        whole / 2,
        Some(go_on),
    );
    assert!(
        look.found.is_none() && !look.ended,
        "cut at {} of {whole}",
        whole / 2
    );
    let asked = receive.recv_timeout(common::BACKSTOP).unwrap();
    assert_eq!(
        asked, whole,
        "the search that went on asked {asked} queries in all"
    );
}
