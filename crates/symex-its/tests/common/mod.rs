//! Shared helpers of the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Z3's resource limit per query in the tests whose outcome must not depend on the load.
pub const RLIMIT: u32 = 5_000_000;

/// The deadline of an analysis whose queries end by counts ([`count_not_time`]): only a guard
/// against a hang.
pub const BACKSTOP: std::time::Duration = std::time::Duration::from_secs(600);

/// Makes this thread's solver queries end by Z3's step count instead of a time limit, and the
/// provers' retries take no time budget of their own: the test's outcome is then the same on
/// a loaded machine (its `Limits` deadline is only a backstop against a hang).
pub fn count_not_time() {
    symex_its::smt::set_rlimit(Some(RLIMIT));
}

/// The competition's ITS benchmarks, or `None` (with a message) when `../shared` is absent.
pub fn koat_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../../shared/benchmarks/tpdb/Complexity_ITS");
    let dir = if dir.is_dir() {
        dir
    } else {
        PathBuf::from("/work/shared/benchmarks/tpdb/Complexity_ITS")
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: ../shared/benchmarks/tpdb/Complexity_ITS is absent");
        None
    }
}

/// Every `.koat` file under `dir`, sorted.
pub fn koat_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "koat") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Random start values in `-r..=r` for `runs` runs, each with its run's seed (the sequence
/// the tests have always drawn from `Rng::new(rng_seed)`).
pub fn random_starts(rng_seed: u64, arity: usize, r: i128, runs: u64) -> Vec<(u64, Vec<i128>)> {
    let mut rng = symex_its::interp::Rng::new(rng_seed);
    (0..runs)
        .map(|seed| (seed, (0..arity).map(|_| rng.range(-r, r)).collect()))
        .collect()
}

/// Runs the original (not preprocessed) ITS from each start and checks every run's cost
/// against the bound evaluated there (a bound too large for `i128` skips the start; a run
/// that overflows or cannot choose its temporaries is not counted). Returns the runs checked.
pub fn bound_holds_on_runs(
    its: &symex_its::Its,
    c: &symex_its::complexity::Complexity,
    starts: Vec<(u64, Vec<i128>)>,
    name: &str,
) -> usize {
    use symex_its::interp::{Interpreter, RunConfig, RunEnd};
    let mut checked = 0;
    for (seed, start) in starts {
        let Some(bound) = c.bound.eval(&start) else {
            continue;
        };
        // A run longer than the bound is cut just after it, and then is a violation.
        let cfg = RunConfig {
            seed,
            max_steps: (bound as usize).saturating_add(2).min(200_000),
            tries: 20,
            ..RunConfig::default()
        };
        let run = Interpreter::new(its).run(&start, &cfg);
        if matches!(run.end, RunEnd::Overflow | RunEnd::Unknown) {
            continue;
        }
        assert!(
            run.cost <= bound,
            "{name}: run from {start:?} costs {} > bound {} = {} ({:?})",
            run.cost,
            c.bound.display(&its.vars),
            bound,
            run.end
        );
        checked += 1;
    }
    checked
}

/// Whether every atom of `t`'s guard holds at `values` (program variables, then temporaries),
/// evaluated here rather than by the solver.
pub fn guard_holds(t: &symex_its::Transition, values: &[i128]) -> bool {
    t.guard.iter().all(|a| {
        let v = a.poly.eval(values).unwrap();
        match a.rel {
            symex_its::Rel::Ge => v >= 0,
            symex_its::Rel::Eq => v == 0,
            symex_its::Rel::Ne => v != 0,
        }
    })
}

/// The largest cost of a run from `state` at `loc`, over every enabled transition and every
/// choice of its temporaries in `-box_..=box_`; `None` past `depth` steps (a run that long
/// is not expected from the small starts used here).
pub fn worst_cost(
    its: &symex_its::Its,
    loc: usize,
    state: &[i128],
    box_: i128,
    depth: usize,
    memo: &mut std::collections::HashMap<(usize, Vec<i128>), i128>,
) -> Option<i128> {
    if let Some(c) = memo.get(&(loc, state.to_vec())) {
        return Some(*c);
    }
    if depth == 0 {
        return None;
    }
    let mut best = 0;
    for t in its.transitions.iter().filter(|t| t.source == loc) {
        let k = t.temps.len();
        let mut temps = vec![-box_; k];
        loop {
            let mut values = state.to_vec();
            values.extend(&temps);
            if guard_holds(t, &values) {
                let (target, update) = &t.targets[0];
                let next: Vec<i128> = update.iter().map(|u| u.eval(&values).unwrap()).collect();
                let cost = t.cost.eval(&values).unwrap();
                let rest = worst_cost(its, *target, &next, box_, depth - 1, memo)?;
                best = best.max(cost + rest);
            }
            // The next choice of temporaries (odometer order), or done.
            let Some(i) = (0..k).find(|&i| temps[i] < box_) else {
                break;
            };
            temps[i] += 1;
            for x in &mut temps[..i] {
                *x = -box_;
            }
        }
    }
    memo.insert((loc, state.to_vec()), best);
    Some(best)
}

/// Checks the bound against [`worst_cost`] from every start in `starts`; returns the
/// largest worst case seen (so a test can tell that the runs were not all trivial).
pub fn check_worst_case(
    its: &symex_its::Its,
    c: &symex_its::complexity::Complexity,
    starts: &[Vec<i128>],
    box_: i128,
) -> i128 {
    let mut largest = 0;
    for start in starts {
        let mut memo = std::collections::HashMap::new();
        let worst = worst_cost(its, its.start, start, box_, 400, &mut memo)
            .unwrap_or_else(|| panic!("a run from {start:?} is longer than 400 steps"));
        let bound = c.bound.eval(start).unwrap();
        assert!(
            worst <= bound,
            "a run from {start:?} costs {worst} > bound {} = {bound}",
            c.bound.display(&its.vars)
        );
        largest = largest.max(worst);
    }
    largest
}

/// The bound `complexity::infer_refining` finds for `its` after preprocessing (10 s per
/// preprocessing step and per query, [`BACKSTOP`] overall), and the ITS the bound refers to.
pub fn infer_refining(
    its: &symex_its::Its,
) -> (
    symex_its::Its,
    Result<symex_its::complexity::Complexity, String>,
) {
    let pre = symex_its::preprocess::preprocess(its, std::time::Duration::from_secs(10));
    infer_preprocessed(&pre)
}

/// The ITS written in `src` and the bound [`infer_refining`] finds for it, with the queries
/// ended by counts ([`count_not_time`]); panics naming `what` when there is no bound.
pub fn bounded(src: &str, what: &str) -> (symex_its::Its, symex_its::complexity::Complexity) {
    count_not_time();
    let its = symex_its::parse_koat(src).unwrap();
    let (_, c) = infer_refining(&its);
    let c = c.unwrap_or_else(|e| panic!("no bound for {what}: {e}"));
    (its, c)
}

/// [`infer_refining`] on an ITS the test has already preprocessed (10 s per query,
/// [`BACKSTOP`] overall).
pub fn infer_preprocessed(
    pre: &symex_its::Its,
) -> (
    symex_its::Its,
    Result<symex_its::complexity::Complexity, String>,
) {
    use std::time::{Duration, Instant};
    let limits = symex_its::termination::Limits {
        query_timeout: Duration::from_secs(10),
        deadline: Instant::now() + BACKSTOP,
    };
    symex_its::complexity::infer_refining(pre, &limits)
}

/// Every start in `[-r, r]^3`, the exhaustive grid of the tests on three-variable loops.
pub fn cube(r: i128) -> Vec<Vec<i128>> {
    let r = -r..=r;
    r.clone()
        .flat_map(|a| {
            let r = r.clone();
            r.clone()
                .flat_map(move |b| r.clone().map(move |c| vec![a, b, c]))
        })
        .collect()
}
