//! Unfolding a loop head after merging its dead-end exits (`preprocess::refine_merged`):
//! Flores-Montoya's counterex1c counts `y` up while `b = 0` and down while `b = 1`, `x`
//! dropping on each switch back; the two loops need a split head, which its 16
//! chained-away exits prevented. The bound is checked against the worst case over all runs
//! from small start values (exhaustive search over every choice).
mod common;

use std::time::Duration;
use symex_its::{parse_koat, preprocess};

#[test]
fn counterex1c_gets_a_bound_after_merging_its_exits() {
    common::count_not_time();
    let Some(dir) = common::koat_dir() else {
        return;
    };
    let src = std::fs::read_to_string(dir.join("Flores-Montoya_16/counterex1c.c.koat")).unwrap();
    let its = parse_koat(&src).unwrap();
    let pre = preprocess::preprocess(&its, Duration::from_secs(10));
    assert!(preprocess::merge_dead_end_exits(&pre).is_some());
    let (_, c) = common::infer_preprocessed(&pre);
    let c = c.unwrap();
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    let var = |name: &str| its.vars.iter().position(|v| v == name).unwrap();
    let (n, b, x, y) = (var("v_n"), var("v_b"), var("v_x"), var("v_y"));
    let mut starts = Vec::new();
    for vn in 0..=3 {
        for vb in 0..=1 {
            for vx in 0..=2 {
                for vy in 0..=vn {
                    let mut s = vec![0; its.arity()];
                    (s[n], s[b], s[x], s[y]) = (vn, vb, vx, vy);
                    starts.push(s);
                }
            }
        }
    }
    // The temporaries only choose branches (`> 0` or not).
    assert!(common::check_worst_case(&its, &c, &starts, 1) >= 20);
}
