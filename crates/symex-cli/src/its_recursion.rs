//! `symex its` on a recursive ITS (a `Com_k` right-hand side with k ≥ 2): its runs are trees.
//! Termination is decided on the branch ITS; bounds count uses in the trees
//! ([`symex_its::recursion`]).
use crate::its::{
    linear_family_json, lower_side, lower_side_json, named_values_json, print_linear_family,
    print_lower_side, print_proof, proof_json, termination_answer, timeout_or,
    wait_for_watchdog_unless_first, worst_case, ItsArgs, LowerSide,
};
use serde_json::{json, Value};
use std::time::Instant;
use symex_its::complexity::{self, Complexity};
use symex_its::recursion::{self, Branches, Charge, ExponentialFamily};
use symex_its::termination::Limits;
use symex_its::{preprocess, print, Goal, Its};

/// Answers `goal` for the recursive `its`; returns the exit status.
pub fn answer(
    args: &ItsArgs,
    name: &str,
    goal: Goal,
    its: &Its,
    limits: &Limits,
    started: Instant,
) -> i32 {
    match goal {
        // A tree is finite iff its branches are: the branch ITS terminates iff `its` does.
        Goal::Termination => {
            let branches = recursion::branches(its, Charge::Every);
            let its = preprocess::preprocess(&branches.its, limits.query_timeout);
            termination_answer(args, name, &its, limits, started)
        }
        Goal::Complexity => complexity_answer(args, name, its, limits, started),
    }
}

fn complexity_answer(
    args: &ItsArgs,
    name: &str,
    its: &Its,
    limits: &Limits,
    started: Instant,
) -> i32 {
    let linear = recursion::is_linear(its);
    let counted = recursion::branches(its, Charge::First);
    let result = if linear {
        complexity::infer_tree(&counted, limits)
    } else {
        Err("a transition calls its own SCC more than once (a branching recursion)".into())
    };
    let finite = result
        .as_ref()
        .ok()
        .and_then(|c| c.bound.asymptotic().map(|a| (c, a)));
    let exponential = match finite {
        None => recursion::exponential_family(its, limits.deadline),
        Some(_) => None,
    };
    let charged = recursion::branches(its, Charge::Every);
    let lower = match &finite {
        Some((c, _)) => lower_side(&charged.its, &c.bound, limits.deadline),
        None => LowerSide::None,
    };
    let time = started.elapsed().as_secs_f64();
    wait_for_watchdog_unless_first();
    let kind = if linear { "linear" } else { "branching" };
    if let Some(e) = &exponential {
        print_exponential(args, name, its, &charged, e, kind, time);
        return 1;
    }
    let Some((c, a)) = finite else {
        let reason = match &result {
            Err(r) => timeout_or(r, limits),
            Ok(_) => timeout_or("no polynomial size bound for some variable", limits),
        };
        if args.json {
            let out = json!({"command": "its", "goal": "complexity", "file": name, "time_s": time,
                             "bound": "MAYBE", "recursion": kind, "reason": reason});
            println!("{out}");
        } else {
            println!("MAYBE");
            if !args.quiet {
                println!("recursion: {kind}");
                println!("reason: {reason}");
            }
        }
        return 3;
    };
    let first = worst_case(&c.bound, &lower).to_string();
    if args.json {
        let mut out = json!({"command": "its", "goal": "complexity", "file": name, "time_s": time,
                             "answer": first, "bound": a, "recursion": kind,
                             "expression": c.bound.display(&counted.its.vars),
                             "proof": proof_json(&counted.its, &c.proof),
                             "branch_its": print::to_koat(&counted.its)});
        lower_side_json(&mut out, &charged.its, &lower);
        println!("{out}");
    } else {
        println!("{first}");
        if !args.quiet {
            print_tree_bound(&counted.its, c, &a);
            print_lower_side(&charged.its, &lower);
        }
    }
    0
}

fn print_tree_bound(branches: &Its, c: &Complexity, class: &str) {
    println!("recursion: linear (each call of a transition's own SCC unfolds as a path)");
    println!("class: {class}");
    println!(
        "bound: {} (uses in the computation tree)",
        c.bound.display(&branches.vars)
    );
    print_proof(branches, &c.proof);
    for (i, b) in c.transition_bounds.iter().enumerate() {
        println!("  runtime bound of t{i}: {}", b.display(&branches.vars));
    }
}

/// `WORST_CASE(NON_POLY, ?)` from complete binary trees.
fn print_exponential(
    args: &ItsArgs,
    name: &str,
    its: &Its,
    charged: &Branches,
    e: &ExponentialFamily,
    kind: &str,
    time: f64,
) {
    let depths: Vec<String> = recursion::REPLAY_DEPTHS
        .iter()
        .map(|d| d.to_string())
        .collect();
    let t = &its.transitions[e.transition];
    let (origin, charged) = (&charged.origin, &charged.its);
    if args.json {
        let mut witness: Value = linear_family_json(charged, &e.family);
        witness["transition"] = json!(e.transition);
        witness["twins"] = json!([e.twins.0, e.twins.1]);
        witness["rule"] = json!(print::rule(its, t));
        witness["temps"] = named_values_json(&t.temps, &e.family.cycle_temps[0]);
        // The path as (rule, target) of the file: rule `i` is the file's `i`-th.
        witness["path_origin"] = json!(e
            .family
            .path
            .iter()
            .map(|&i| json!([origin[i], target_index(origin, i)]))
            .collect::<Vec<_>>());
        let out = json!({"command": "its", "goal": "complexity", "file": name, "time_s": time,
                         "bound": null, "answer": "WORST_CASE(NON_POLY, ?)", "recursion": kind,
                         "lower_bound": "NON_POLY", "tree_witness": witness});
        println!("{out}");
        return;
    }
    println!("WORST_CASE(NON_POLY, ?)");
    if args.quiet {
        return;
    }
    println!("recursion: {kind}");
    print_linear_family(
        charged,
        &e.family,
        "lower bound: NON_POLY, complete binary trees of depth `laps` below the runs",
    );
    println!(
        "  every lap is t{} = {}, whose targets {} and {} are the same call: each node has two \
         children in the same state, so the tree has at least 2^laps - 1 nodes of cost >= 1; \
         built node by node for laps = {}",
        e.transition,
        print::rule(its, t),
        e.twins.0 + 1,
        e.twins.1 + 1,
        depths.join(", ")
    );
}

/// Which target of its transition the branch-ITS transition `i` is.
fn target_index(origin: &[usize], i: usize) -> usize {
    (0..i).filter(|&j| origin[j] == origin[i]).count()
}
