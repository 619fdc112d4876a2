//! What `--trace` records on a failing path: the steps' labels (a callee's contract, the old
//! state, inferred ghost operations) and the goal that failed.
use symex_idf::verify::validity::Status;
use symex_idf::verify::{Config, Failure};

fn failure(src: &str, member: &str) -> Box<Failure> {
    let report = symex_idf::verify_source(src, Config::default()).expect("the program checks");
    let m = report
        .members
        .iter()
        .find(|m| m.name == member)
        .unwrap_or_else(|| panic!("no member {member}"));
    match &m.status {
        Status::Failed(f) => f.clone(),
        Status::Verified => panic!("{member} verified"),
    }
}

fn last_label(f: &Failure) -> String {
    f.trace
        .last()
        .and_then(|s| s.label.clone())
        .unwrap_or_default()
}

#[test]
fn a_failure_in_the_old_state_says_so() {
    // `old(this.y)` needs `acc(this.y)` in the heap at entry, which the precondition does not give.
    let f = failure(
        "class A { int x; int y;
           void m() requires acc(this.x); ensures acc(this.x) * this.x = old(this.y); { } }",
        "A.m",
    );
    assert!(f.message.contains("no permission to read this.y"), "{f:?}");
    assert!(last_label(&f).contains("old state"), "{f:?}");
}

#[test]
fn a_failure_in_a_callees_contract_says_so_and_names_its_goal() {
    let f = failure(
        "class A { int x;
           void set(int v) requires acc(this.x) * v > 0; ensures acc(this.x); { this.x := v; }
           void caller(int n) requires acc(this.x); { this.set(n); } }",
        "A.caller",
    );
    assert!(
        f.message.starts_with("precondition of `this.set(n)`"),
        "{f:?}"
    );
    assert!(last_label(&f).contains("callee's contract"), "{f:?}");
    // The goal is the callee's conjunct with the argument for `v`.
    let goal = symex_idf::verify::pretty::term(f.goal.as_ref().expect("a goal"));
    assert!(
        goal.starts_with("(0 < n#") || goal.starts_with("(n#"),
        "{goal}"
    );
}

#[test]
fn inferred_ghost_operations_are_steps_of_their_own() {
    // The postcondition needs `valid()` closed again by inference (§4.1), then fails after it.
    let f = failure(
        "class Cell { int x;
           predicate valid() { return acc(this.x); }
           void setX(int v) requires valid(); ensures valid() * v = 1; { open valid(); this.x := v; } }",
        "Cell.setX",
    );
    let labels: Vec<String> = f.trace.iter().filter_map(|s| s.label.clone()).collect();
    assert!(
        labels.iter().any(|l| l == "inferred: close valid()"),
        "{labels:?}"
    );
    assert!(f.goal.is_some(), "{f:?}");
}
