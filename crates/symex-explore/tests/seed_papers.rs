//! The seed papers' examples with exact expectations (King 1976; the lecture's `foo` and `power`; SAGE's
//! `top`), under every searcher: the set of paths must not depend on the order they are explored in.

mod common;

use common::*;
use symex_engine::BugKind;
use symex_explore::{PathEnd, SearcherKind};

const SEARCHERS: [SearcherKind; 5] = [
    SearcherKind::Dfs,
    SearcherKind::Bfs,
    SearcherKind::RandomPath,
    SearcherKind::CoverageNew,
    SearcherKind::Default,
];

#[test]
fn king_sum_has_one_path_returning_a_plus_b_plus_c() {
    for s in SEARCHERS {
        let (_, sum, paths) = explore_file(&example("sum.c"), options(s));
        assert!(sum.complete);
        assert_eq!((sum.completed, sum.errors, sum.cut), (1, 0, 0));
        assert!(matches!(paths[0].end, PathEnd::Exit(0)));
    }
}

#[test]
fn lecture_foo_has_three_paths() {
    for s in SEARCHERS {
        let (_, sum, paths) = explore_file(&example("foo.c"), options(s));
        assert!(sum.complete);
        assert_eq!((sum.completed, sum.errors, sum.cut), (3, 0, 0), "{s:?}");
        // The three paths are distinct block sequences.
        let mut traces: Vec<_> = paths.iter().map(|p| p.trace).collect();
        traces.sort_by_key(|t| (t.blocks, t.hash));
        traces.dedup();
        assert_eq!(traces.len(), 3);
        // Exactly one path asks for the third input (y - x > 7).
        assert_eq!(paths.iter().filter(|p| p.inputs.len() == 3).count(), 1);
    }
}

#[test]
fn lecture_power_with_x_at_most_5_has_six_paths() {
    for s in SEARCHERS {
        let (_, sum, _) = explore_file(&example("power.c"), options(s));
        assert!(sum.complete);
        // x <= 0, then x = 1 .. 5: one path per loop count.
        assert_eq!((sum.completed, sum.errors, sum.cut), (6, 0, 0), "{s:?}");
    }
}

#[test]
fn power_without_a_bound_is_cut_by_the_loop_limit_and_incomplete() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("power-unbounded.c");
    std::fs::write(
        &path,
        "int __VERIFIER_nondet_int(void);\nint main(void){int x=__VERIFIER_nondet_int();int z=1;\
         while(x>0){x=x-1;z=2*z;}return z&0;}\n",
    )
    .unwrap();
    let mut o = options(SearcherKind::Dfs);
    o.limits.max_loop_iterations = Some(4);
    let (_, sum, _) = explore_file(&path, o);
    assert!(!sum.complete);
    assert!(sum.cut >= 1);
    // The loop header is entered once more than the body: x <= 0 and x = 1 .. 3 complete.
    assert_eq!(sum.completed, 4);
}

#[test]
fn sage_top_has_sixteen_paths_five_of_which_abort() {
    for s in SEARCHERS {
        let (_, sum, paths) = explore_file(&example("top.c"), options(s));
        assert!(sum.complete);
        assert_eq!((sum.completed, sum.errors, sum.cut), (11, 5, 0), "{s:?}");
        for p in &paths {
            if let PathEnd::Error(b) = &p.end {
                assert_eq!(b.kind, BugKind::Abort);
                assert_eq!(b.loc.line, 11);
                // The aborting inputs match at least three of "bad!".
                let bytes = &p.inputs[0].bytes;
                let hits = bytes.iter().zip(b"bad!").filter(|(a, b)| a == b).count();
                assert!(hits >= 3, "{bytes:?}");
            }
        }
    }
}
