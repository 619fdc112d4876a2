//! Ranking functions over the sized variables (`complexity/sized_ranking.rs`).
//!
//! T2's `ndes` in small: an outer loop counts `Q` from 1 to 4 in three cases on `G`, which a
//! free temporary sets before the loop and the loop never changes (`G = 1` keeps it 1); each
//! lap runs a count-down, a count-up, a loop that sets `W` to free values and a count-down of
//! `W` from 4. Farkas' lemma returns `18 − G − Q`-like functions for the cases, whose value
//! after the entry is unbounded (`G` is free there), so the SCC had no finite bound, nor did
//! any refinement; `4 − Q` bounds it. The worst case is searched over the ITS's own semantics
//! from every start of a grid, temporaries in −2..=2 (each of the three cases), and matches a
//! brute force written apart from symex (Python, the same rules: 46 steps).
mod common;

const CASES_ON_A_FREE_VALUE: &str = "(GOAL COMPLEXITY)\n\
(STARTTERM (FUNCTIONSYMBOLS start))\n\
(VAR Q G W E)\n\
(RULES\n\
  start(Q,G,W,E) -> outer(1,T,W,E)\n\
  outer(Q,G,W,E) -> inner(Q,1,2,E) :|: 3 >= Q && G = 1\n\
  outer(Q,G,W,E) -> inner(Q,G,2,E) :|: 3 >= Q && 0 >= G\n\
  outer(Q,G,W,E) -> inner(Q,G,2,E) :|: 3 >= Q && G >= 2\n\
  inner(Q,G,W,E) -> inner(Q,G,W - 1,E) :|: W >= 1\n\
  inner(Q,G,W,E) -> count(Q,G,1,E) :|: 0 >= W\n\
  count(Q,G,W,E) -> count(Q,G,W + 1,E) :|: 2 >= W\n\
  count(Q,G,W,E) -> free(Q,G,W,2) :|: W >= 3\n\
  free(Q,G,W,E) -> free(Q,G,U,E - 1) :|: E >= 1\n\
  free(Q,G,W,E) -> down(Q,G,4,E) :|: 0 >= E\n\
  down(Q,G,W,E) -> down(Q,G,W - 1,E) :|: W >= 1\n\
  down(Q,G,W,E) -> outer(Q + 1,G,W,E) :|: 0 >= W\n\
)\n";

#[test]
fn a_loop_split_on_a_free_value_is_ranked_without_it() {
    let (its, c) = common::bounded(CASES_ON_A_FREE_VALUE, "cases on a free value");
    assert_eq!(
        c.bound.asymptotic().as_deref(),
        Some("O(1)"),
        "{}",
        c.bound.display(&its.vars)
    );
    // Q, G, W in [−2, 2], E in [−2, 2].
    let starts: Vec<Vec<i128>> = common::cube(2)
        .into_iter()
        .flat_map(|s| (-2..=2).map(move |e| [s.clone(), vec![e]].concat()))
        .collect();
    assert_eq!(common::check_worst_case(&its, &c, &starts, 2), 46);
}
