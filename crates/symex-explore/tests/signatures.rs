//! Path signatures: each finished path's decisions from the root name it (no two paths share one, and
//! an exhaustive exploration finds the same set whatever its search order), and rebuild its state on
//! the same program.

mod common;

use common::{example, explore, load, options};
use symex_explore::signature::Answer;
use symex_explore::{Explorer, Options, PathSignature, SearcherKind, SolverCtx};
use symex_solver::SolverConfig;

fn signatures(prog: &symex_engine::Program, search: SearcherKind) -> Vec<PathSignature> {
    let opts = Options {
        signatures: true,
        ..options(search)
    };
    let (summary, paths) = explore(prog, opts);
    assert!(summary.complete, "{:?}", summary.incomplete_reasons);
    let mut sigs: Vec<PathSignature> = paths
        .iter()
        .map(|p| p.signature.clone().expect("a signature"))
        .collect();
    sigs.sort();
    sigs
}

#[test]
fn paths_have_distinct_signatures_independent_of_the_search_order() {
    for name in ["top.c", "switch.c", "arrays.c", "power.c"] {
        let prog = load(&example(name));
        let dfs = signatures(&prog, SearcherKind::Dfs);
        let mut unique = dfs.clone();
        unique.dedup();
        assert_eq!(
            unique.len(),
            dfs.len(),
            "{name}: two paths share a signature"
        );
        for search in [SearcherKind::Bfs, SearcherKind::RandomPath] {
            assert_eq!(signatures(&prog, search), dfs, "{name}: {search:?}");
        }
    }
}

#[test]
fn a_signature_rebuilds_its_path_and_only_a_real_prefix_rebuilds() {
    for name in ["top.c", "switch.c", "arrays.c"] {
        let prog = load(&example(name));
        let sigs = signatures(&prog, SearcherKind::Dfs);
        let ctx = SolverCtx::new(SolverConfig::default().build(), None);
        let mut ex = Explorer::new(&prog, options(SearcherKind::Dfs), ctx);
        let mut rebuilt = 0;
        for sig in &sigs {
            let printed: PathSignature = sig.to_string().parse().expect("parses back");
            // A path whose last decision is in its last step (a checked division that fails, a
            // branch to `abort`) has nothing left to rebuild.
            match ex.rebuild(&printed, None) {
                Ok(ps) => {
                    assert_eq!(&ps.st.dom.trail.signature(), sig);
                    rebuilt += 1;
                }
                Err(e) => assert!(e.ends_with("nothing of it is left to explore"), "{e}"),
            }
            // A finished path makes no further decision: one more answer is not a path.
            let mut longer = sig.clone();
            longer.answers.push(Answer::Bool(true));
            assert!(
                ex.rebuild(&longer, None).is_err(),
                "{name}: {longer} rebuilt"
            );
        }
        // A branch answer where the path chose a value is no path of the program.
        if let Some(sig) = sigs
            .iter()
            .find(|s| s.answers.iter().any(|a| matches!(a, Answer::Value(_))))
        {
            let mut wrong = sig.clone();
            for a in &mut wrong.answers {
                if matches!(a, Answer::Value(_)) {
                    *a = Answer::Bool(true);
                    break;
                }
            }
            assert!(ex.rebuild(&wrong, None).is_err(), "{name}: {wrong} rebuilt");
        }
        assert!(rebuilt > 0, "{name}: no path rebuilt");
        let no_root = PathSignature {
            root: 1,
            answers: Vec::new(),
        };
        assert!(ex.rebuild(&no_root, None).is_err());
    }
}
