//! A query the solver cannot settle ends the member as inconclusive instead of running forever.
//! The limit is Z3's resource count, not a time: the outcome is the same on a loaded machine.
use symex_idf::verify::validity::Status;
use symex_idf::verify::Config;

/// Z3's steps per query: the trivial queries here take a few thousand.
const RLIMIT: u32 = 500_000;

/// Fermat's Last Theorem for cubes: true, but no decision procedure proves it, and Z3 searches
/// on without answering (this ran for minutes before each query had a limit).
const FERMAT: &str = "class A {
  void m(int x, int y, int z)
    requires x > 0 && y > 0 && z > 0;
  { assert x * x * x + y * y * y != z * z * z; }
}";

#[test]
fn an_unanswered_query_is_inconclusive() {
    let config = Config {
        query_rlimit: Some(RLIMIT),
        ..Config::default()
    };
    let report = symex_idf::verify_source(FERMAT, config).expect("the program checks");
    let Status::Failed(f) = &report.members[0].status else {
        panic!("the assertion verified: {:?}", report.members[0]);
    };
    assert!(f.inconclusive, "{f:?}");
    assert!(f.message.starts_with("assertion might not hold"), "{f:?}");
    assert!(report.inconclusive() && !report.verified());
}

/// A member that fails whatever the solver says, then the undecidable one.
const DEFINITE_THEN_FERMAT: &str = "class B {
  void n(int x)
    requires x > 0;
  { assert x < 0; }
}
class A {
  void m(int x, int y, int z)
    requires x > 0 && y > 0 && z > 0;
  { assert x * x * x + y * y * y != z * z * z; }
}";

#[test]
fn an_unknown_does_not_make_a_definite_failure_undecided() {
    let config = Config {
        query_rlimit: Some(RLIMIT),
        ..Config::default()
    };
    let report =
        symex_idf::verify_source(DEFINITE_THEN_FERMAT, config).expect("the program checks");
    assert_eq!(report.definitely_failed(), 1, "{:?}", report.members);
    assert_eq!(report.undecided(), 1, "{:?}", report.members);
    let Status::Failed(f) = &report.members[0].status else {
        panic!("B.n verified: {:?}", report.members[0]);
    };
    assert!(!f.inconclusive, "{f:?}");
}
