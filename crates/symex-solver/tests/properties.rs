//! Properties checked against Z3 on random terms (the generator is symex-expr's):
//! (a) Z3 proves every simplified term equivalent to the term built as chosen;
//! (b) our evaluator agrees with Z3's semantics: with the variables pinned to random values,
//!     the term can only take the value we compute;
//! (c) every solver layer, alone and stacked, gives the bare backend's sat/unsat answers,
//!     and every model it returns satisfies the constraints under our evaluator.

#[path = "../../symex-expr/tests/gen/mod.rs"]
mod gen;

use gen::{Choices, Gen, G, WIDTHS};
use proptest::prelude::*;
use symex_expr::{free_vars, Term};
use symex_solver::{SatResult, Solver, SolverConfig, Z3Mode, Z3Solver};

fn sorts() -> impl Strategy<Value = G> {
    prop_oneof![
        Just(G::Bool),
        Just(G::Bv(8)),
        (0..WIDTHS.len()).prop_map(|i| G::Bv(WIDTHS[i])),
        Just(G::Int),
        Just(G::Mem),
    ]
}

fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..max)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    #[test]
    fn z3_proves_simplification_sound(g in sorts(), shape in bytes(120)) {
        let gen = Gen { vars_per_sort: 2, uninterpreted: true, widths: &WIDTHS };
        let p = gen.term(g, 4, &mut Choices::new(&shape));
        let mut z3 = Z3Solver::new();
        let differ = p.raw.ne(&p.simp);
        // Build the disequality raw too, so that nothing is simplified away before Z3.
        let differ_raw = Term::new_raw(symex_expr::Op::Not, &[
            Term::new_raw(symex_expr::Op::Eq, &[p.raw.clone(), p.simp.clone()])
        ]);
        // A generous limit only guards CI against a pathological case; running out is no
        // evidence either way, a model of the disequality is a counterexample.
        z3.set_timeout(Some(std::time::Duration::from_secs(20)));
        let r = z3.check(&[differ_raw]);
        prop_assert!(!matches!(r, SatResult::Sat(_)), "{} differs from {}", p.raw, p.simp);
        prop_assert!(!differ.is_true());
    }

    #[test]
    fn evaluation_agrees_with_z3(g in sorts(), shape in bytes(120), values in bytes(300)) {
        let gen = Gen { vars_per_sort: 2, uninterpreted: false, widths: &WIDTHS };
        let t = gen.term(g, 4, &mut Choices::new(&shape)).raw;
        let vars = free_vars(std::slice::from_ref(&t));
        let m = gen.model(&vars, &mut Choices::new(&values));
        let Ok(v) = m.eval(&t) else { return Ok(()); };
        let mut pinned: Vec<Term> = vars
            .iter()
            .map(|x| x.eq(&m.value_of(x).to_term().expect("pinnable value")))
            .collect();
        let vt = v.to_term().expect("value as a term");
        let mut z3 = Z3Solver::new();
        pinned.push(Term::new_raw(symex_expr::Op::Eq, &[t.clone(), vt.clone()]));
        prop_assert!(matches!(z3.check(&pinned), SatResult::Sat(_)), "{} should be {}", t, v);
        pinned.pop();
        pinned.push(Term::new_raw(symex_expr::Op::Not, &[
            Term::new_raw(symex_expr::Op::Eq, &[t.clone(), vt])
        ]));
        prop_assert_eq!(z3.check(&pinned), SatResult::Unsat, "{} can differ from {}", t, v);
    }
}

/// Path-condition-shaped query sequences: prefixes of a branch list, each with the next
/// branch taken and not taken, then everything again (so caches are exercised).
fn query_sequence(constraints: &[Term]) -> Vec<Vec<Term>> {
    let mut qs = Vec::new();
    for k in 0..constraints.len() {
        let prefix = &constraints[..k];
        let mut taken = prefix.to_vec();
        taken.push(constraints[k].clone());
        let mut not_taken = prefix.to_vec();
        not_taken.push(constraints[k].not());
        qs.push(taken);
        qs.push(not_taken);
    }
    let again: Vec<Vec<Term>> = qs.iter().rev().cloned().collect();
    qs.extend(again);
    qs
}

fn configs() -> Vec<(&'static str, SolverConfig)> {
    let bare = SolverConfig::bare();
    vec![
        ("independence", bare.clone().independence(true)),
        ("query-cache", bare.clone().query_cache(true)),
        ("cex-cache", bare.clone().cex_cache(true)),
        ("fresh", bare.clone().z3_mode(Z3Mode::Fresh)),
        (
            "assumptions",
            SolverConfig::default().z3_mode(Z3Mode::Assumptions),
        ),
        // Every layer, its answers also cross-checked by the validating layer.
        ("all+validate", SolverConfig::default().validate(true)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 30, ..ProptestConfig::default() })]

    #[test]
    fn layers_agree_with_the_bare_backend(shapes in proptest::collection::vec(bytes(60), 2..6)) {
        // Narrow words: wide multiplications and divisions are slow to bit-blast, and this
        // property is about the layers, not about Z3.
        let gen = Gen { vars_per_sort: 3, uninterpreted: true, widths: &[1, 4, 8] };
        let constraints: Vec<Term> = shapes
            .iter()
            .map(|s| gen.term(G::Bool, 3, &mut Choices::new(s)).simp)
            .collect();
        let queries = query_sequence(&constraints);
        let mut bare = Z3Solver::new();
        let expected: Vec<Result<bool, _>> = queries.iter().map(|q| bare.check(q).is_sat()).collect();
        for (name, config) in configs() {
            let mut s = config.build();
            for (q, want) in queries.iter().zip(&expected) {
                let got = s.check(q);
                if let (Ok(a), Ok(b)) = (got.is_sat(), want) {
                    prop_assert_eq!(a, *b, "layer {} on {:?}", name, q);
                }
                if let SatResult::Sat(m) = &got {
                    prop_assert_eq!(m.satisfies(q), Ok(true), "layer {} model on {:?}", name, q);
                }
            }
            let stats = s.stats();
            prop_assert!(stats.iter().all(|l| l.mismatches == 0), "{:?}", stats);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20, ..ProptestConfig::default() })]

    /// `values` and `unsigned_range` through the whole chain, checked by a bare backend:
    /// every value is feasible, a short list is complete, and the range is tight.
    #[test]
    fn values_and_ranges_are_exact(pc_shape in bytes(60), t_shape in bytes(40)) {
        let gen = Gen { vars_per_sort: 2, uninterpreted: true, widths: &[1, 4, 8] };
        let pc = vec![gen.term(G::Bool, 3, &mut Choices::new(&pc_shape)).simp];
        let t = gen.term(G::Bv(8), 3, &mut Choices::new(&t_shape)).simp;
        let mut chain = SolverConfig::default().build();
        let mut oracle = Z3Solver::new();
        let (Ok(values), Ok(range)) = (chain.values(&pc, &t, 8), chain.unsigned_range(&pc, &t)) else {
            return Ok(());
        };
        let Ok(feasible) = oracle.is_sat(&pc) else { return Ok(()); };
        prop_assert_eq!(range.is_some(), feasible);
        prop_assert_eq!(values.is_empty(), !feasible);
        let as_terms: Vec<Term> = values.iter().map(|v| v.to_term().unwrap()).collect();
        for v in &as_terms {
            prop_assert_eq!(oracle.may_be_true(&pc, &t.eq(v)), Ok(true), "{} = {} infeasible", t, v);
        }
        if values.len() < 8 {
            let any = Term::or_all(as_terms.iter().map(|v| t.eq(v)).collect::<Vec<_>>().iter());
            prop_assert_eq!(oracle.must_be_true(&pc, &any), Ok(true), "{} has other values", t);
        }
        if let Some((lo, hi)) = range {
            let (lo, hi) = (Term::bv(lo, 8), Term::bv(hi, 8));
            prop_assert_eq!(oracle.must_be_true(&pc, &lo.bvule(&t).and(&t.bvule(&hi))), Ok(true));
            prop_assert_eq!(oracle.may_be_true(&pc, &t.eq(&lo)), Ok(true));
            prop_assert_eq!(oracle.may_be_true(&pc, &t.eq(&hi)), Ok(true));
        }
    }
}
