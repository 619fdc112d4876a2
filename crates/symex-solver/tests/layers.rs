//! Each layer on queries chosen to show its behaviour.

use std::sync::Arc;
use std::time::Duration;

use symex_expr::{Model, Sort, Term};
use symex_solver::{
    CexCache, Independence, LayerStats, QueryCache, QueryLog, SatResult, Solver, Validating,
    Z3Solver,
};

fn byte(i: usize) -> Term {
    Term::var(&format!("b{i}"), Sort::bv(8))
}

fn k(v: u128) -> Term {
    Term::bv(v, 8)
}

/// Records every query it is asked and answers through Z3.
struct Spy {
    z3: Z3Solver,
    seen: Vec<Vec<Term>>,
}

impl Solver for Spy {
    fn check(&mut self, constraints: &[Term]) -> SatResult {
        self.seen.push(constraints.to_vec());
        self.z3.check(constraints)
    }
    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        self.z3.collect_stats(out)
    }
    fn set_timeout(&mut self, t: Option<Duration>) {
        self.z3.set_timeout(t)
    }
}

fn spy() -> Spy {
    Spy {
        z3: Z3Solver::new(),
        seen: Vec::new(),
    }
}

#[test]
fn independence_solves_groups_apart_and_merges_models() {
    let mut s = Independence::new(spy());
    let pc = vec![
        byte(0).bvugt(&k(10)),
        byte(1).eq(&k(7)),
        byte(0).bvult(&k(20)),
        byte(2).bvadd(&byte(1)).eq(&k(9)),
    ];
    let SatResult::Sat(m) = s.check(&pc) else {
        panic!("satisfiable")
    };
    assert_eq!(m.satisfies(&pc), Ok(true));
    // {b0 > 10, b0 < 20} and {b1 = 7, b2 + b1 = 9} share nothing.
    let seen = &s.inner().seen;
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0], vec![pc[0].clone(), pc[2].clone()]);
    assert_eq!(seen[1], vec![pc[1].clone(), pc[3].clone()]);
    let mut unsat = pc.clone();
    unsat.push(byte(2).eq(&k(3)));
    assert_eq!(s.check(&unsat), SatResult::Unsat);
}

#[test]
fn query_cache_answers_repeats_without_the_solver() {
    let mut s = QueryCache::new(spy());
    let pc = vec![byte(0).bvugt(&k(10)), byte(0).bvult(&k(12))];
    let first = s.check(&pc);
    let reordered = vec![pc[1].clone(), pc[0].clone(), pc[1].clone()];
    let second = s.check(&reordered);
    assert_eq!(first, second);
    assert_eq!(s.inner().seen.len(), 1);
    assert_eq!(s.stats()[0].hits, 1);
}

#[test]
fn cex_cache_reuses_models_and_unsat_subsets() {
    let mut s = CexCache::new(spy());
    let (a, b, c) = (
        byte(0).bvugt(&k(10)),
        byte(0).bvult(&k(100)),
        byte(0).eq(&k(50)),
    );
    // {a, b} is solved; its model satisfies {a} (a subset) and maybe {a, b, x ≠ model}.
    let SatResult::Sat(m) = s.check(&[a.clone(), b.clone()]) else {
        panic!("satisfiable")
    };
    assert!(matches!(
        s.check(std::slice::from_ref(&a)),
        SatResult::Sat(_)
    ));
    assert_eq!(
        s.inner().seen.len(),
        1,
        "a superset's model answers a subset"
    );
    // The branch the model already takes is answered by evaluation.
    let v = m.value_of(&byte(0));
    let same_side = byte(0).eq(&v.to_term().unwrap());
    assert!(matches!(
        s.check(&[a.clone(), b.clone(), same_side]),
        SatResult::Sat(_)
    ));
    assert_eq!(
        s.inner().seen.len(),
        1,
        "the model satisfies the new branch"
    );
    // An unsatisfiable set makes every superset unsatisfiable.
    assert_eq!(s.check(&[c.clone(), byte(0).eq(&k(51))]), SatResult::Unsat);
    let n = s.inner().seen.len();
    assert_eq!(s.check(&[a, c, b, byte(0).eq(&k(51))]), SatResult::Unsat);
    assert_eq!(
        s.inner().seen.len(),
        n,
        "an unsat subset answers a superset"
    );
    assert!(s.stats()[0].hits >= 3);
}

/// Answers `Unsat` to everything: the validating layer must catch it.
struct Liar;

impl Solver for Liar {
    fn check(&mut self, _: &[Term]) -> SatResult {
        SatResult::Unsat
    }
    fn collect_stats(&self, _: &mut Vec<LayerStats>) {}
    fn set_timeout(&mut self, _: Option<Duration>) {}
}

/// Answers `Sat` with an empty model to everything.
struct Flatterer;

impl Solver for Flatterer {
    fn check(&mut self, _: &[Term]) -> SatResult {
        SatResult::Sat(Arc::new(Model::new()))
    }
    fn collect_stats(&self, _: &mut Vec<LayerStats>) {}
    fn set_timeout(&mut self, _: Option<Duration>) {}
}

#[test]
fn validating_layer_catches_wrong_answers_and_wrong_models() {
    let sat = vec![byte(0).eq(&k(3))];
    let mut v = Validating::new(Liar, Z3Solver::new());
    assert!(
        matches!(v.check(&sat), SatResult::Sat(_)),
        "the oracle's answer wins"
    );
    assert_eq!(v.mismatches().len(), 1);
    assert!(v.mismatches()[0].query.contains("(assert (= #x03 b0))"));
    let mut v = Validating::new(Flatterer, Z3Solver::new());
    v.check(&sat);
    assert!(v.mismatches()[0].what.contains("does not satisfy"));
    assert_eq!(v.stats()[0].mismatches, 1);
    let mut honest = Validating::new(Z3Solver::new(), Z3Solver::new());
    honest.check(&sat);
    honest.check(&[byte(0).eq(&k(3)), byte(0).eq(&k(4))]);
    assert!(honest.mismatches().is_empty());
}

#[test]
fn query_log_writes_runnable_smtlib() {
    let dir = std::env::temp_dir().join(format!("symex-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("queries.smt2");
    let mut s = symex_solver::SolverConfig::bare()
        .log(Some(path.clone()))
        .try_build()
        .unwrap();
    s.check(&[byte(0).bvult(&k(4))]);
    s.check(&[byte(0).bvult(&k(0))]);
    drop(s);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("(check-sat)").count(), 2);
    assert!(text.contains("(assert false)"));
    assert!(text.contains("(push 1)\n(declare-fun b0 () (_ BitVec 8))"));
    assert!(text.contains("; answer: sat"));
    std::fs::remove_dir_all(&dir).unwrap();
    // A log that cannot be created is an error from try_build.
    let bad = symex_solver::SolverConfig::default().log(Some("/nonexistent/dir/q.smt2".into()));
    assert!(bad.try_build().is_err());
    let _ = QueryLog::new(Z3Solver::new(), Box::new(std::io::sink()));
}

/// A group answered from the counterexample cache with a model of a larger set must not bring that
/// set's values of other groups' variables into the merged model.
#[test]
fn independence_merges_only_each_groups_own_assignments() {
    let mut s = Independence::new(CexCache::new(Z3Solver::new()));
    // Remembered: {b1 = 7, b0 + b1 = 12}, one group, model b0 = 5, b1 = 7.
    let first = vec![byte(1).eq(&k(7)), byte(0).bvadd(&byte(1)).eq(&k(12))];
    assert!(matches!(s.check(&first), SatResult::Sat(_)));
    // Now {b0 = 1} and {b1 = 7} are independent; the second is a subset of the remembered set.
    let q = vec![byte(0).eq(&k(1)), byte(1).eq(&k(7))];
    let SatResult::Sat(m) = s.check(&q) else {
        panic!("satisfiable")
    };
    assert_eq!(m.satisfies(&q), Ok(true), "merged model {m:?}");
}
