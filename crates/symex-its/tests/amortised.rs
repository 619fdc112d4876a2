//! Amortised runtime bounds (a ranking function that other loops of the SCC raise by a
//! bounded amount): a hand-written ITS after Flores-Montoya's `aaron3` and his `rank3` file, each
//! bound checked against the worst case over *all* runs from small start values (every
//! transition choice, temporaries from a small box), computed by exhaustive search here.
use common::check_worst_case;
use symex_its::complexity::Complexity;
use symex_its::{parse_koat, Its};

mod common;

fn analyse(rules: &str, vars: &str) -> (Its, Complexity) {
    let src = format!(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR {vars})\n(RULES\n{rules}\n)\n"
    );
    let its = parse_koat(&src).unwrap();
    let (_, c) = common::infer_refining(&its);
    (its, c.unwrap())
}

fn grid(dims: usize, lo: i128, hi: i128) -> Vec<Vec<i128>> {
    let mut out = vec![Vec::new()];
    for _ in 0..dims {
        out = out
            .into_iter()
            .flat_map(|p| {
                (lo..=hi).map(move |x| {
                    let mut q = p.clone();
                    q.push(x);
                    q
                })
            })
            .collect();
    }
    out
}

#[test]
fn raised_counter_of_aaron3_is_bounded() {
    common::count_not_time();
    // while (x ≥ y) { either z--, x := any value ≤ x + z − 1; or y++ }: y counts up to x,
    // which the first branch raises by at most z − 1 each time (z counts down).
    let (its, c) = analyse(
        "  l0(X,Y,Z) -> l1(X,Y,Z)\n  l1(X,Y,Z) -> l1(T,Y,Z - 1) :|: X >= Y && X + Z >= T + 1\n  l1(X,Y,Z) -> l1(X,Y + 1,Z) :|: X >= Y\n",
        "X Y Z T",
    );
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    // Temporaries in -4..=4: x can be raised to at most 4 before y must catch up.
    let starts = grid(3, -2, 3);
    assert!(check_worst_case(&its, &c, &starts, 4) >= 8);
}

#[test]
fn rank3_outer_loop_raised_by_the_innermost_loop_is_bounded() {
    common::count_not_time();
    // Flores-Montoya's rank3: x = y = m; while (x ≥ 2) { x--; y += x;
    //   while (y ≥ x + 1 && *) { y--; while (y ≥ x + 3 && *) { x++; y -= 2; } y--; }
    //   x--; y -= x; }: the outer loop's `x` is raised by the innermost loop, whose runtime
    // bound is known first; after chaining, only a new function raised by a constant on
    // the inner loops bounds the outer one.
    let Some(dir) = common::koat_dir() else {
        return;
    };
    let src = std::fs::read_to_string(dir.join("Flores-Montoya_16/rank3.c.koat")).unwrap();
    let its = parse_koat(&src).unwrap();
    let (_, c) = common::infer_refining(&its);
    let c = c.unwrap();
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    let m = its.vars.iter().position(|v| v == "v_m").unwrap();
    let starts: Vec<Vec<i128>> = (0..=7)
        .map(|k| {
            let mut s = vec![0; its.arity()];
            s[m] = k;
            s
        })
        .collect();
    // The temporaries only choose branches (`> 0` or not).
    assert!(check_worst_case(&its, &c, &starts, 1) >= 30);
}
