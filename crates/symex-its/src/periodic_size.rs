//! Sizes under a periodic linear update: `B' = 3B + 2C, C' = −5B − 3C` (Lommen's size10)
//! turns the pair, `M² = −I`, so `(B, C)` only ever takes the values `±x` and `±M·x`
//! however often it runs — where the column-sum factor of [`crate::exp_size::group_step`]
//! (8) would grow `|B| + |C|` exponentially. When every step of an SCC that changes a group
//! of variables has the linear part `I` (adding a rest), `0` (a reset) or one matrix `M`
//! with `M^p = ±I` (`p ≤ MAX_PERIOD`), each value of the group is
//! `M^a·x + Σ_i M^{b_i}·d_i` after the last reset, so `Σ|u| ≤ K·(Σ|x| + Σ_i Σ|d_i|)` with
//! `K = max_{j<p} ‖M^j‖₁` (the largest column sum of a power): the sum's bound with factor
//! 1 for the turning steps, times `K`.

use crate::its::Transition;
use crate::poly::Poly;
use std::collections::BTreeSet;

type Matrix = Vec<Vec<i128>>;

/// The longest period tried.
const MAX_PERIOD: usize = 12;

/// The steps `(t, (F_t, [r_u]))` for [`crate::exp_size::group_step`]'s bound with the
/// factor 1 for the turning steps, and `K`; `None` unless the steps have the form above.
#[allow(clippy::type_complexity)]
pub fn periodic_steps(
    steps: &[(usize, &Transition)],
    group: &BTreeSet<usize>,
) -> Option<(i128, Vec<(usize, (i128, Vec<Poly>))>)> {
    let k = group.len();
    let identity: Matrix = (0..k)
        .map(|i| (0..k).map(|j| i128::from(i == j)).collect())
        .collect();
    let zero: Matrix = vec![vec![0; k]; k];
    let mut turn: Option<Matrix> = None;
    let mut out = Vec::new();
    for (i, t) in steps {
        let (m, rests) = linear_part(t, group)?;
        let factor = if m == identity {
            1
        } else if m == zero {
            0
        } else {
            match &turn {
                Some(a) if *a != m => return None,
                _ => turn = Some(m),
            }
            1
        };
        out.push((*i, (factor, rests)));
    }
    let norm = max_power_norm(&turn?)?;
    Some((norm, out))
}

/// `(K, [r_u])` when `t` updates the group by one turning matrix: `u' = Σ_w M_{u,w}·w +
/// r_u` with `M^p = ±I`, `r_u` free of the group.
pub fn periodic_update(t: &Transition, group: &BTreeSet<usize>) -> Option<(i128, Vec<Poly>)> {
    let (m, rests) = linear_part(t, group)?;
    Some((max_power_norm(&m)?, rests))
}

/// The coefficients `a_{u,w}` of the group's variables in the group's updates (rows `u`)
/// and the rests; `None` when a group variable occurs non-linearly.
fn linear_part(t: &Transition, group: &BTreeSet<usize>) -> Option<(Matrix, Vec<Poly>)> {
    let mut m = Vec::new();
    let mut rests = Vec::new();
    for &u in group {
        let mut r = t.update()[u].clone();
        let mut row = Vec::new();
        for &w in group {
            let a = r.linear_coeff(w);
            row.push(a);
            r = r.sub(&Poly::var(w).scale(a));
        }
        if r.vars().iter().any(|w| group.contains(w)) {
            return None;
        }
        m.push(row);
        rests.push(r);
    }
    Some((m, rests))
}

/// `max_{j<p} ‖M^j‖₁` when `M^p = ±I` for some `p ≤ MAX_PERIOD`.
fn max_power_norm(m: &Matrix) -> Option<i128> {
    let k = m.len();
    let mut power: Matrix = (0..k)
        .map(|i| (0..k).map(|j| i128::from(i == j)).collect())
        .collect();
    let mut norm: i128 = 1;
    for _ in 0..MAX_PERIOD {
        let mut next = vec![vec![0i128; k]; k];
        for (i, row) in next.iter_mut().enumerate() {
            for (j, slot) in row.iter_mut().enumerate() {
                for (l, ml) in m.iter().enumerate() {
                    *slot = slot.checked_add(power[i][l].checked_mul(ml[j])?)?;
                }
            }
        }
        power = next;
        let sign = power[0][0];
        let scalar = sign.abs() == 1
            && (0..k).all(|i| (0..k).all(|j| power[i][j] == if i == j { sign } else { 0 }));
        if scalar {
            return Some(norm);
        }
        // The largest column sum of this power.
        for j in 0..k {
            let mut col: i128 = 0;
            for row in &power {
                col = col.checked_add(row[j].checked_abs()?)?;
            }
            norm = norm.max(col);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turning_matrices_and_their_norms() {
        // size10's M = [[3, 2], [−5, −3]]: M² = −I, ‖I‖₁ = 1, ‖M‖₁ = 8.
        assert_eq!(max_power_norm(&vec![vec![3, 2], vec![-5, -3]]), Some(8));
        // A swap: period 2, norm 1; a doubling never repeats.
        assert_eq!(max_power_norm(&vec![vec![0, 1], vec![1, 0]]), Some(1));
        assert_eq!(max_power_norm(&vec![vec![2, 0], vec![0, 1]]), None);
        // twn18's M = [[3, −4], [4, −3]]: M² = −7·I is no period.
        assert_eq!(max_power_norm(&vec![vec![3, -4], vec![4, -3]]), None);
    }

    #[test]
    fn turned_values_stay_within_the_norm() {
        // Brute force: from every small (B, C), 40 turns of size10's update never exceed
        // K·(|B| + |C|) in |B| + |C|.
        let k = max_power_norm(&vec![vec![3, 2], vec![-5, -3]]).unwrap();
        for b0 in -6..=6i128 {
            for c0 in -6..=6i128 {
                let (mut b, mut c) = (b0, c0);
                for _ in 0..40 {
                    (b, c) = (3 * b + 2 * c, -5 * b - 3 * c);
                    assert!(b.abs() + c.abs() <= k * (b0.abs() + c0.abs()));
                }
            }
        }
    }
}
