//! A lap that walks a chain of locations whose length grows with a counter (T2's `cover`: the
//! lap at `C = c` walks `c` locations `f1, f2, …` and leaves the chain at `fc` with `C := c + 1`).
//! Each chain location also has an exit that only the invariant `C ≥ 1` shows dead, so chaining
//! before the dead exits are removed stops at every location; and a chained lap carries the
//! guards of all its steps. The preprocessed ITS must have the chain bypassed and short guards,
//! and the bound must hold on every run (checked by exhaustive search over the original ITS).
mod common;

use symex_its::{parse_koat, preprocess};

/// The chain of `n` locations; `C` counts the laps from 0 to `n`, `A` is an unused input.
fn chain_lap(n: usize) -> String {
    let mut rules = vec![
        "  f0(A,C) -> Com_1(g(A,0)) :|: A >= 0".to_string(),
        "  g(A,C) -> Com_1(g(A,1)) :|: C = 0".to_string(),
        format!("  g(A,C) -> Com_1(f1(A,C)) :|: C >= 1 && {} >= C", n - 1),
        // Dead once the invariant C ≥ 1 is known: the entry of the chain has C ≥ 1.
        "  g(A,C) -> Com_1(f1(A,C)) :|: 0 >= C + 1".to_string(),
        format!("  g(A,C) -> Com_1(h(A,C)) :|: C >= {n}"),
    ];
    for i in 1..n {
        if i + 1 < n {
            rules.push(format!(
                "  f{i}(A,C) -> Com_1(f{}(A,C)) :|: C >= {}",
                i + 1,
                i + 1
            ));
            rules.push(format!("  f{i}(A,C) -> Com_1(f{}(A,C)) :|: 0 >= C", i + 1));
        }
        rules.push(format!("  f{i}(A,C) -> Com_1(g(A,{})) :|: C = {i}", i + 1));
    }
    format!(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS f0))\n(VAR A C)\n(RULES\n{}\n)\n",
        rules.join("\n")
    )
}

#[test]
fn a_chain_with_exits_dead_by_the_invariants_is_bypassed_with_short_guards() {
    common::count_not_time();
    let its = parse_koat(&chain_lap(30)).unwrap();
    let pre = preprocess::preprocess(&its, std::time::Duration::from_secs(10));
    // Only f0 and g have successors left: every chain location is bypassed.
    for t in &pre.transitions {
        let name = &pre.locations[t.source];
        assert!(name == "f0" || name == "g", "{name} still has a successor");
    }
    // A chained lap of up to 29 steps keeps at most 24 atoms (longer guards lose the atoms that
    // another implies), not two per step.
    let longest = pre.transitions.iter().map(|t| t.guard.len()).max().unwrap();
    assert!(longest <= 24, "a guard of {longest} atoms");
}

#[test]
fn the_bound_of_the_chained_laps_holds_on_every_run() {
    let src = chain_lap(12);
    let (its, c) = common::bounded(&src, "chain lap");
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(1)"));
    // The only input that matters is A ≥ 0; every run from A in 0..=3 is walked to its end.
    let starts: Vec<Vec<i128>> = (0..=3).map(|a| vec![a, 0]).collect();
    let worst = common::check_worst_case(&its, &c, &starts, 0);
    // 1 + 1 + Σ_{c=1}^{11} (1 + c) + 1 = 80 steps: the laps were walked.
    assert_eq!(worst, 80);
}
