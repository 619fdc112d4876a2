//! Accesses at symbolic offsets with exact expectations: reads and writes inside small initialised objects
//! do not fork (the read is a multiplexer over the offsets, the write updates each byte it may reach), so
//! the paths are those of the program's own branches; every test replays along its path.

mod common;

use common::*;
use symex_engine::BugKind;
use symex_explore::{PathEnd, SearcherKind};

#[test]
fn a_symbolic_write_then_read_forks_only_at_the_branch() {
    for s in [SearcherKind::Dfs, SearcherKind::Default] {
        let (_, sum, paths) = explore_file(&example("arrays.c"), options(s));
        assert!(sum.complete);
        assert_eq!((sum.completed, sum.errors, sum.cut), (1, 1, 0), "{s:?}");
        let abort = paths
            .iter()
            .find(|p| matches!(&p.end, PathEnd::Error(b) if b.kind == BugKind::Abort))
            .expect("the abort path");
        // Its test names the same element twice.
        let int = |k: usize| i32::from_le_bytes(abort.inputs[k].bytes[..4].try_into().unwrap());
        assert_eq!(int(0) & 7, int(1) & 7);
    }
}

#[test]
fn a_symbolic_write_past_the_end_is_an_out_of_bounds_error() {
    let path = std::env::temp_dir().join("symex-symbolic-write-oob.c");
    std::fs::write(
        &path,
        "int __VERIFIER_nondet_int(void);\nint main(void){int a[4]={0};int i=__VERIFIER_nondet_int();\
         a[i&7]=1;return a[i&3];}\n",
    )
    .unwrap();
    let (_, sum, paths) = explore_file(&path, options(SearcherKind::Dfs));
    assert!(sum.complete);
    // i & 7 <= 3: in bounds, no fork over the four offsets; i & 7 > 3: out of bounds.
    assert_eq!((sum.completed, sum.errors), (1, 1));
    assert!(paths
        .iter()
        .any(|p| matches!(&p.end, PathEnd::Error(b) if b.kind == BugKind::OutOfBounds)));
}
