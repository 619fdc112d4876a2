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
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("symbolic-write-oob.c");
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

fn explore_source(
    name: &str,
    src: &str,
) -> (symex_explore::Summary, Vec<symex_explore::FinishedPath>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, src).unwrap();
    let (_, sum, paths) = explore_file(&path, options(SearcherKind::Dfs));
    (sum, paths)
}

/// A symbolic allocation size is explored one size per path, smallest first: a bounded size is explored
/// completely.
#[test]
fn a_bounded_symbolic_malloc_size_gets_one_path_per_size() {
    let (sum, paths) = explore_source(
        "symex-malloc-sizes.c",
        "#include <stdlib.h>\nunsigned __VERIFIER_nondet_uint(void);\nvoid __VERIFIER_assume(int);\n\
         int main(void){unsigned n=__VERIFIER_nondet_uint();__VERIFIER_assume(n>=1&&n<=4);\
         char *p=malloc(n);if(!p)return 2;p[n-1]=7;int r=p[n-1];free(p);return r==7?0:1;}\n",
    );
    assert!(sum.complete, "{:?}", sum.incomplete_reasons);
    assert_eq!((sum.completed, sum.errors, sum.cut), (4, 0, 0));
    let mut sizes: Vec<u8> = paths.iter().map(|p| p.inputs[0].bytes[0]).collect();
    sizes.sort();
    assert_eq!(sizes, vec![1, 2, 3, 4]);
}

/// A bug that needs a variable-length array of at least three elements is found (a size fixed to its least
/// value would miss it).
#[test]
fn a_bug_at_a_larger_vla_size_is_found() {
    let (sum, paths) = explore_source(
        "symex-vla-sizes.c",
        "int __VERIFIER_nondet_int(void);\nvoid __VERIFIER_assume(int);\nvoid abort(void);\n\
         int main(void){int m=__VERIFIER_nondet_int();__VERIFIER_assume(m>0&&m<6);char a[m];\
         for(int i=0;i<m;i++)a[i]=(char)i;if(a[m-1]==2)abort();return 0;}\n",
    );
    assert!(sum.complete, "{:?}", sum.incomplete_reasons);
    assert_eq!((sum.completed, sum.errors), (4, 1));
    let bug = paths
        .iter()
        .find(|p| matches!(&p.end, PathEnd::Error(b) if b.kind == BugKind::Abort))
        .unwrap();
    assert_eq!(bug.inputs[0].bytes[0], 3);
}
