//! Loops that end because of the word size: a `w`-bit value multiplied by an even constant (shifted
//! left, doubled) on every lap reaches 0 within `w` laps, whatever it started as. No linear (or
//! polynomial) ranking function shows it — `x ↦ 2x mod 2^w` goes up as often as down — but the number
//! of trailing zero bits does: `r(x) = w − ν₂(x)` (ν₂ the 2-adic valuation, `ν₂(0) = w`) is at most `w`,
//! and at least 1 where a lap may start (`1 ≤ x`).
//!
//! An ITS transition is a *doubling* of the variable `x` when its guard entails `1 ≤ x ≤ 2^w − 1`,
//! `0 ≤ x' ≤ 2^w − 1` and `2^w | (x' − c·x)` for an even `c`: then `x' ≡ c·x (mod 2^w)`, so
//! `ν₂(x') ≥ min(w, ν₂(x) + 1)`, and `r` drops by at least 1. A transition that leaves `x` as it is
//! keeps `r`. When every transition of an SCC is one or the other and some are doublings, those run at
//! most `w` times per entry into the SCC: a lexicographic removal step whose bound is the constant `w`
//! ([`WordSize`]). Each entailment is a solver query ([`check`]), independent of how the candidate
//! `(x, w, c)` was picked from the guard's constants.

use crate::its::{Its, Rel, Transition};
use crate::poly::Poly;
use crate::smt;
use symex_expr::Term;
use symex_solver::Solver;

/// The removal of the doublings of `var` (`width` bits) in an SCC: each removed transition multiplies
/// `var` by the even `multipliers[i]` modulo `2^width`; the others leave it unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordSize {
    pub var: usize,
    pub width: u32,
    /// `(transition, c)` per removed transition.
    pub multipliers: Vec<(usize, i128)>,
}

impl WordSize {
    /// `trailing zeros of X (8 bits): X' = 2·X mod 2^8 on t1`, in `its`'s names.
    pub fn display(&self, its: &Its) -> String {
        let laps: Vec<String> = self
            .multipliers
            .iter()
            .map(|(t, c)| format!("t{t}: {c}·{}", its.vars[self.var]))
            .collect();
        format!(
            "word size: {v} ({w} bits) multiplied by an even number modulo 2^{w} ({}), unchanged otherwise: at most {w} times per entry (ranked by {w} − trailing zeros of {v})",
            laps.join(", "),
            v = its.vars[self.var],
            w = self.width
        )
    }
}

/// How one transition treats the candidate variable.
enum Lap {
    Doubling(i128),
    Unchanged,
}

/// A word-size removal for the transitions `remaining` (one SCC), if some variable is doubled by some
/// of them and left unchanged by the others, every claim checked by `solver`.
pub fn synthesize(its: &Its, remaining: &[usize], solver: &mut dyn Solver) -> Option<WordSize> {
    let transitions: Vec<&Transition> = remaining.iter().map(|&i| &its.transitions[i]).collect();
    if transitions.iter().any(|t| t.targets.len() != 1) {
        return None;
    }
    for var in 0..its.arity() {
        for width in widths(&transitions) {
            if let Some(ws) = try_var(its, remaining, var, width, solver) {
                return Some(ws);
            }
        }
    }
    None
}

fn try_var(
    its: &Its,
    remaining: &[usize],
    var: usize,
    width: u32,
    solver: &mut dyn Solver,
) -> Option<WordSize> {
    let mut multipliers = Vec::new();
    for &i in remaining {
        let t = &its.transitions[i];
        match lap(t, var, width, solver)? {
            Lap::Doubling(c) => multipliers.push((i, c)),
            Lap::Unchanged => {}
        }
    }
    (!multipliers.is_empty()).then_some(WordSize {
        var,
        width,
        multipliers,
    })
}

/// How `t` treats `var`: unchanged (the same polynomial), a doubling by one of the even coefficients
/// its guard gives `var` (or 2), or neither (`None`).
fn lap(t: &Transition, var: usize, width: u32, solver: &mut dyn Solver) -> Option<Lap> {
    let u = &t.update()[var];
    if *u == Poly::var(var) {
        return Some(Lap::Unchanged);
    }
    let mut candidates: Vec<i128> = t
        .guard
        .iter()
        .flat_map(|a| a.poly.terms().map(|(_, c)| c.abs()).collect::<Vec<_>>())
        .filter(|c| *c > 0 && c % 2 == 0)
        .collect();
    candidates.push(2);
    candidates.sort_unstable();
    candidates.dedup();
    candidates
        .into_iter()
        .find(|&c| check(t, var, width, c, solver))
        .map(Lap::Doubling)
}

/// Whether the guard of `t` entails that `t` doubles `var` by `c` modulo `2^width` (the three facts of
/// the module's comment), each a solver query.
pub fn check(t: &Transition, var: usize, width: u32, c: i128, solver: &mut dyn Solver) -> bool {
    if c % 2 != 0 || width == 0 || width > 64 {
        return false;
    }
    let v = |i: usize| smt::int_var("v", i);
    let guard = smt::guard_terms(&t.guard, &v);
    let m = Term::int(1i128 << width);
    let top = Term::int((1i128 << width) - 1);
    let x = v(var);
    let after = smt::poly_term(&t.update()[var], &v);
    let facts = [
        Term::int(1).ile(&x).and(&x.ile(&top)),
        Term::int(0).ile(&after).and(&after.ile(&top)),
        after
            .isub(&Term::int(c).imul(&x))
            .imod(&m)
            .eq(&Term::int(0)),
    ];
    facts
        .iter()
        .all(|f| matches!(solver.must_be_true(&guard, f), Ok(true)))
}

/// The widths worth trying: `w` where the guards bound a value by `2^w − 1` or multiply by `2^w`.
fn widths(transitions: &[&Transition]) -> Vec<u32> {
    let mut ws: Vec<u32> = transitions
        .iter()
        .flat_map(|t| t.guard.iter())
        .flat_map(|a| {
            let mut cs: Vec<i128> = a.poly.terms().map(|(_, c)| c.abs()).collect();
            if a.rel != Rel::Eq {
                cs.push(a.poly.constant_term().abs());
            }
            cs
        })
        .filter_map(|c| {
            let p = if c > 0 && c & (c - 1) == 0 {
                c
            } else {
                c.checked_add(1)?
            };
            (p > 1 && p & (p - 1) == 0).then(|| p.trailing_zeros())
        })
        .filter(|w| (1..=64).contains(w))
        .collect();
    ws.sort_unstable();
    ws.dedup();
    ws
}

/// `width`, the removal's bound per entry into the SCC (`ν₂` rises by at least 1 per doubling, from at
/// least 0 to at most `width`).
pub fn bound(ws: &WordSize) -> Poly {
    Poly::constant(i128::from(ws.width))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_koat as parse;
    use crate::smt;

    fn prove(src: &str) -> Option<WordSize> {
        let its = parse(src).unwrap();
        let all: Vec<usize> = its
            .transitions
            .iter()
            .enumerate()
            .filter(|(_, t)| t.source == t.target())
            .map(|(i, _)| i)
            .collect();
        let mut s = smt::counted_solver();
        synthesize(&its, &all, s.as_mut())
    }

    const HEAD: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS start))\n(VAR X T M)\n(RULES\n  start(X) -> h(T) :|: T >= 0 && 255 >= T\n";

    #[test]
    fn a_doubling_modulo_the_word_is_removed_in_at_most_width_laps() {
        let ws = prove(&format!(
            "{HEAD}  h(X) -> h(T) :|: X >= 1 && 255 >= X && T >= 0 && 255 >= T && T + 256*M = 6*X\n)\n"
        ))
        .expect("a word-size removal");
        assert_eq!(
            (ws.var, ws.width, ws.multipliers.clone()),
            (0, 8, vec![(1, 6)])
        );
    }

    #[test]
    fn an_odd_multiplier_or_a_lap_from_zero_is_not_a_doubling() {
        // 3·x mod 256 cycles (x = 1 never reaches 0).
        assert_eq!(
            prove(&format!(
                "{HEAD}  h(X) -> h(T) :|: X >= 1 && 255 >= X && T >= 0 && 255 >= T && T + 256*M = 3*X\n)\n"
            )),
            None
        );
        // Without `x ≥ 1` the lap from 0 repeats forever.
        assert_eq!(
            prove(&format!(
                "{HEAD}  h(X) -> h(T) :|: X >= 0 && 255 >= X && T >= 0 && 255 >= T && T + 256*M = 2*X\n)\n"
            )),
            None
        );
        // Not modulo the word the guard bounds: 2x mod 512 within [0, 511] while x ≤ 255 is allowed
        // to be, e.g., 256 → 0 only after more laps than the 8 bits x starts in (checked: no claim of 8).
        let ws = prove(&format!(
            "{HEAD}  h(X) -> h(T) :|: X >= 1 && 511 >= X && T >= 0 && 511 >= T && T + 512*M = 2*X\n)\n"
        ))
        .expect("a 9-bit removal");
        assert_eq!(ws.width, 9);
    }
}
