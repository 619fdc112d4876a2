//! Runtime bounds of twn loops (`x' = c·x`, `x' = c·x + d`, `symex_its::twn`) from their
//! closed forms: hand-written loops with hand-computed costs, a loop that does not stop (no bound
//! may be claimed), and the competition's Lommen files whose bounds use a twn loop, all
//! checked against the interpreter's runs.
mod common;

use std::time::{Duration, Instant};
use symex_its::complexity::{self, Complexity};
use symex_its::interp::Rng;
use symex_its::termination::Limits;
use symex_its::{parse_koat, preprocess, Its};

fn analyse(src: &str) -> (Its, Result<Complexity, String>) {
    let its = parse_koat(src).unwrap();
    let pre = preprocess::preprocess(&its, Duration::from_secs(10));
    let limits = Limits {
        query_timeout: Duration::from_secs(10),
        deadline: Instant::now() + Duration::from_secs(30),
    };
    let (_, c) = complexity::infer_refining(&pre, &limits);
    (its, c)
}

fn koat(rules: &str, vars: &str) -> String {
    format!(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR {vars})\n(RULES\n{rules}\n)\n"
    )
}

/// Runs from random start values in `-r..=r` (and `1..=r` scaled by 10, where the loops
/// run longest); no run may cost more than the bound. Returns the runs checked.
fn check_runs(its: &Its, c: &Complexity, r: i128, runs: u64) -> usize {
    let mut rng = Rng::new(3);
    let starts = (0..runs)
        .map(|seed| {
            let start = (0..its.arity())
                .map(|_| {
                    if seed % 2 == 0 {
                        rng.range(-r, r)
                    } else {
                        10 * rng.range(1, r)
                    }
                })
                .collect();
            (seed, start)
        })
        .collect();
    common::bound_holds_on_runs(its, c, starts, "twn")
}

#[test]
fn faster_growth_overtakes_the_bound() {
    // Lommen's twn01: A' = 3A, B' = 2B while 0 < A < B. From A = 1, B = 10 the pairs
    // are (1,10), (3,20), (9,40), (27,80), (81,160), (243,320), (729,640): 6 iterations,
    // plus the entry: cost 7.
    let (its, c) = analyse(&koat(
        "  l0(A,B) -> l1(A,B) :|: A > 0\n  l1(A,B) -> l1(3 * A,2 * B) :|: A < B\n",
        "A B",
    ));
    let c = c.unwrap();
    assert_eq!(c.twn.len(), 1);
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(n)"));
    assert!(c.bound.eval(&[1, 10]).unwrap() >= 7);
    assert!(check_runs(&its, &c, 9, 80) > 60);
}

#[test]
fn equal_growth_does_not_stop() {
    // A' = 2A, B' = 2B keeps 0 < A < B forever: no twn bound may be claimed.
    let (_, c) = analyse(&koat(
        "  l0(A,B) -> l1(A,B) :|: A > 0\n  l1(A,B) -> l1(2 * A,2 * B) :|: A < B\n",
        "A B",
    ));
    assert!(c.is_err(), "{:?}", c.map(|c| c.bound));
}

#[test]
fn lommen_twn_bounds_hold_on_runs() {
    let Some(dir) = common::koat_dir() else {
        return;
    };
    // The files of Lommen_22/24 with twn loops of this form (the whole folders take half a
    // minute on a loaded machine).
    let names = [
        "Lommen_22/twn01",
        "Lommen_22/twn02",
        "Lommen_22/twn08",
        "Lommen_22/twn20",
        "Lommen_24/non_linear02",
        "Lommen_24/non_linear03",
        "Lommen_24/non_linear04",
        "Lommen_24/non_linear13",
        "Lommen_24/non_linear16",
        "Lommen_24/non_linear17",
    ];
    let mut with_twn = 0;
    for f in common::koat_files(&dir) {
        let name = f.display().to_string();
        if !names.iter().any(|n| name.contains(&format!("{n}.koat"))) {
            continue;
        }
        let (its, c) = analyse(&std::fs::read_to_string(&f).unwrap());
        let Some(c) = c.ok().filter(|c| !c.twn.is_empty()) else {
            continue;
        };
        with_twn += 1;
        check_runs(&its, &c, 6, 30);
    }
    assert!(
        with_twn >= 7,
        "only {with_twn} of {} files used a twn loop",
        names.len()
    );
}
