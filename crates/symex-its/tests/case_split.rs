//! Control-flow refinement by case splits on phase atoms
//! ([`symex_its::preprocess::split_phases`]): a loop body that picks a case per location, chained
//! into laps of its head, runs in phases because some guard atom keeps its sign once it has
//! it. Neither file has a linear ranking function for its loop, nor one per version of partial
//! evaluation (the properties a lap establishes leave the sign open); both are linear. Each
//! bound must cover the worst run from every start of a grid (exhaustive search over the ITS's
//! own semantics), and that worst case must be the one counted independently (a Python model of
//! the programs, every choice explored).
mod common;

/// T2's `fun5`: `D` moves one step toward `B/2 + 1`, `E` one toward `(D + A)/2`, per lap of
/// `f1 → f2 → f3`, while either moves.
const FUN5: &str = "(GOAL COMPLEXITY)\n\
(STARTTERM (FUNCTIONSYMBOLS f0))\n\
(VAR A B C D E F G)\n\
(RULES\n\
  f0(A,B,C,D,E,F,G) -> Com_1(f1(A,B,C,D,E,F,G)) :|: A >= 0 && 3 >= A && B >= 0 && 3 >= B && 3 >= C && D >= 0 && 3 >= E && E >= 0\n\
  f1(A,B,C,D,E,F,G) -> Com_1(f2(A,B,C,D,E,D + 1,G)) :|: 1 + B >= 2*D\n\
  f1(A,B,C,D,E,F,G) -> Com_1(f2(A,B,C,D,E,D - 1,G)) :|: 2*D >= 4 + B\n\
  f1(A,B,C,D,E,F,G) -> Com_1(f2(A,B,C,D,E,D,G)) :|: B + 2 = 2*D\n\
  f1(A,B,C,D,E,F,G) -> Com_1(f2(A,B,C,D,E,D,G)) :|: B + 3 = 2*D\n\
  f2(A,B,C,D,E,F,G) -> Com_1(f3(A,B,C,D,E,F,E + 1)) :|: D + A >= 2*E + 1\n\
  f2(A,B,C,D,E,F,G) -> Com_1(f3(A,B,C,D,E,F,E - 1)) :|: 2*E >= 2 + D + A\n\
  f2(A,B,C,D,E,F,G) -> Com_1(f3(A,B,C,D,E,F,E)) :|: D + A = 2*E\n\
  f2(A,B,C,D,E,F,G) -> Com_1(f3(A,B,C,D,E,F,E)) :|: D + A + 1 = 2*E\n\
  f3(A,B,C,D,E,F,G) -> Com_1(f1(A,B,C,F,G,F,G)) :|: D >= F + 1\n\
  f3(A,B,C,D,E,F,G) -> Com_1(f1(A,B,C,F,G,F,G)) :|: F >= D + 1\n\
  f3(A,B,C,D,E,F,G) -> Com_1(f1(A,B,C,F,G,F,G)) :|: E >= G + 1\n\
  f3(A,B,C,D,E,F,G) -> Com_1(f1(A,B,C,F,G,F,G)) :|: G >= E + 1\n\
)\n";
/// Loopus' `Example2` (binary search with step size 4: the step is halved at every turn of
/// direction after the first, `B` the flag, `A` the direction, `D` the position).
const EXAMPLE2: &str = "(GOAL COMPLEXITY)\n\
(STARTTERM (FUNCTIONSYMBOLS evalbinsearchStepSize2start))\n\
(VAR A B C D E F G H I J)\n\
(RULES\n\
  evalbinsearchStepSize2start(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2entryin(A,B,C,D,E,F,G,H,I))\n\
  evalbinsearchStepSize2entryin(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bbin(0,0,4,A,E,F,G,H,I))\n\
  evalbinsearchStepSize2bbin(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2returnin(A,B,C,D,E,F,G,H,I)) :|: C = 1\n\
  evalbinsearchStepSize2bbin(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb1in(A,B,C,D,J,F,G,H,I)) :|: 0 >= C\n\
  evalbinsearchStepSize2bbin(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb1in(A,B,C,D,J,F,G,H,I)) :|: C >= 2\n\
  evalbinsearchStepSize2bb1in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb2in(A,B,C,D,E,F,G,H,I)) :|: 0 >= B + 1\n\
  evalbinsearchStepSize2bb1in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb2in(A,B,C,D,E,F,G,H,I)) :|: B >= 1\n\
  evalbinsearchStepSize2bb1in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb3in(A,B,C,D,E,C,G,H,I)) :|: B = 0\n\
  evalbinsearchStepSize2bb2in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb3in(A,B,C,D,E,0,G,H,I)) :|: C = 0\n\
  evalbinsearchStepSize2bb2in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb3in(A,B,C,D,E,J,G,H,I)) :|: C >= 1 && J >= 0 && C >= 2*J && 1 + 2*J >= C\n\
  evalbinsearchStepSize2bb2in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb3in(A,B,C,D,E,J,G,H,I)) :|: 0 >= C + 1 && 0 >= J && 2*J >= C && 1 + C >= 2*J\n\
  evalbinsearchStepSize2bb3in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb4in(A,B,C,D,E,F,G,H,I)) :|: E >= G + 1\n\
  evalbinsearchStepSize2bb3in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb9in(A,B,C,D,E,F,G,H,I)) :|: G >= E\n\
  evalbinsearchStepSize2bb4in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb6in(A,B,C,D,E,F,G,H,I)) :|: A = 1 && B = 0\n\
  evalbinsearchStepSize2bb4in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb7in(A,B,C,D,E,F,G,B,F)) :|: 0 >= A\n\
  evalbinsearchStepSize2bb4in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb7in(A,B,C,D,E,F,G,B,F)) :|: A >= 2\n\
  evalbinsearchStepSize2bb4in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb7in(A,B,C,D,E,F,G,B,F)) :|: 0 >= B + 1\n\
  evalbinsearchStepSize2bb4in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb7in(A,B,C,D,E,F,G,B,F)) :|: B >= 1\n\
  evalbinsearchStepSize2bb6in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb7in(A,B,C,D,E,F,G,1,0)) :|: F = 0\n\
  evalbinsearchStepSize2bb6in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb7in(A,B,C,D,E,F,G,1,J)) :|: F >= 1 && J >= 0 && F >= 2*J && 1 + 2*J >= F\n\
  evalbinsearchStepSize2bb6in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb7in(A,B,C,D,E,F,G,1,J)) :|: 0 >= F + 1 && 0 >= J && 2*J >= F && 1 + F >= 2*J\n\
  evalbinsearchStepSize2bb7in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2returnin(A,B,C,D,E,F,G,H,I)) :|: D + I >= 256\n\
  evalbinsearchStepSize2bb7in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bbin(2,H,I,D + I,E,F,G,H,I)) :|: 255 >= D + I\n\
  evalbinsearchStepSize2bb9in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb10in(A,B,C,D,E,F,G,H,I)) :|: G >= E + 1\n\
  evalbinsearchStepSize2bb9in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2returnin(A,B,C,D,E,F,G,H,I)) :|: E >= G\n\
  evalbinsearchStepSize2bb10in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb12in(A,B,C,D,E,F,G,H,I)) :|: A = 2 && B = 0\n\
  evalbinsearchStepSize2bb10in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb13in(A,B,C,D,E,F,G,B,F)) :|: 1 >= A\n\
  evalbinsearchStepSize2bb10in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb13in(A,B,C,D,E,F,G,B,F)) :|: A >= 3\n\
  evalbinsearchStepSize2bb10in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb13in(A,B,C,D,E,F,G,B,F)) :|: 0 >= B + 1\n\
  evalbinsearchStepSize2bb10in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb13in(A,B,C,D,E,F,G,B,F)) :|: B >= 1\n\
  evalbinsearchStepSize2bb12in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb13in(A,B,C,D,E,F,G,1,0)) :|: F = 0\n\
  evalbinsearchStepSize2bb12in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb13in(A,B,C,D,E,F,G,1,J)) :|: F >= 1 && J >= 0 && F >= 2*J && 1 + 2*J >= F\n\
  evalbinsearchStepSize2bb12in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bb13in(A,B,C,D,E,F,G,1,J)) :|: 0 >= F + 1 && 0 >= J && 2*J >= F && 1 + F >= 2*J\n\
  evalbinsearchStepSize2bb13in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2returnin(A,B,C,D,E,F,G,H,I)) :|: I >= D + 1\n\
  evalbinsearchStepSize2bb13in(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2bbin(1,H,I,D - I,E,F,G,H,I)) :|: D >= I\n\
  evalbinsearchStepSize2returnin(A,B,C,D,E,F,G,H,I) -> Com_1(evalbinsearchStepSize2stop(A,B,C,D,E,F,G,H,I))\n\
)\n";

#[test]
fn fun5_falls_apart_into_phases() {
    let (its, c) = common::bounded(FUN5, "fun5");
    assert_eq!(
        c.bound.asymptotic().as_deref(),
        Some("O(n)"),
        "{}",
        c.bound.display(&its.vars)
    );
    // A, B, E in 0..=3 (the start's guard), C = 0, D in 0..=12; F and G are set before use.
    let starts: Vec<Vec<i128>> = (0..4)
        .flat_map(|a| (0..4).flat_map(move |b| (0..4).map(move |e| (a, b, e))))
        .flat_map(|(a, b, e)| (0..=12).map(move |d| vec![a, b, 0, d, e, 0, 0]))
        .collect();
    let worst = common::check_worst_case(&its, &c, &starts, 0);
    // 3·D + 3 from D = 12 (the Python model: 15, 27, 39 for D = 4, 8, 12).
    assert_eq!(
        worst, 39,
        "the worst case of the grid, counted independently"
    );
}

#[test]
fn binary_search_with_turns_falls_apart_into_directions() {
    let (its, c) = common::bounded(EXAMPLE2, "Example2");
    assert_eq!(
        c.bound.asymptotic().as_deref(),
        Some("O(n)"),
        "{}",
        c.bound.display(&its.vars)
    );
    // The start position A in 0..=48, all else 0; the temporaries (the comparison, the
    // halved step) range over -2..=2.
    let starts: Vec<Vec<i128>> = (0..=48)
        .map(|a| {
            let mut s = vec![0; its.arity()];
            s[0] = a;
            s
        })
        .collect();
    let worst = common::check_worst_case(&its, &c, &starts, 2);
    // From position 0: 63 laps up by 4, then the turn (the Python model: 333).
    assert_eq!(
        worst, 333,
        "the worst case of the grid, counted independently"
    );
}
