//! Property: every smart-constructor rewrite preserves meaning. A random term built exactly
//! as chosen and the same term built through the smart constructors evaluate alike under
//! random assignments. (That Z3 proves them equivalent is checked in symex-solver's
//! property tests, which reuse this generator.)

mod gen;

use gen::{Choices, Gen, G, WIDTHS};
use proptest::prelude::*;
use symex_expr::{free_vars, Term};

fn sorts() -> impl Strategy<Value = G> {
    prop_oneof![
        Just(G::Bool),
        Just(G::Bv(8)),
        (0..WIDTHS.len()).prop_map(|i| G::Bv(WIDTHS[i])),
        Just(G::Int),
        Just(G::Mem),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn simplified_terms_evaluate_like_raw_terms(
        g in sorts(),
        shape in proptest::collection::vec(any::<u8>(), 0..160),
        values in proptest::collection::vec(any::<u8>(), 0..400),
    ) {
        let gen = Gen { vars_per_sort: 2, uninterpreted: true, widths: &WIDTHS };
        let p = gen.term(g, 5, &mut Choices::new(&shape));
        let vars = free_vars(&[p.raw.clone(), p.simp.clone()]);
        // Simplification never invents variables.
        let raw_vars = p.raw.free_vars();
        prop_assert!(p.simp.free_vars().iter().all(|v| raw_vars.contains(v)));
        for round in 0..4u8 {
            let mut bytes = values.clone();
            bytes.push(round);
            let n = bytes.len();
            bytes.rotate_left(usize::from(round) * 7 % n);
            let m = gen.model(&vars, &mut Choices::new(&bytes));
            if let (Ok(a), Ok(b)) = (m.eval(&p.raw), m.eval(&p.simp)) {
                prop_assert_eq!(a, b, "raw {} simplified {}", p.raw, p.simp);
            }
        }
    }

    #[test]
    fn simplifying_twice_changes_nothing_in_meaning(
        shape in proptest::collection::vec(any::<u8>(), 0..120),
        values in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        // Rebuilding a simplified term through the smart constructors (substitution with
        // an empty map re-runs nothing; substituting a variable by itself forces a rebuild).
        let gen = Gen { vars_per_sort: 2, uninterpreted: true, widths: &WIDTHS };
        let p = gen.term(G::Bool, 5, &mut Choices::new(&shape));
        let vars = p.raw.free_vars();
        let mut map = symex_expr::TermMap::default();
        for v in &vars {
            map.insert(v.clone(), v.clone());
        }
        let again = p.raw.substitute(&map);
        let m = gen.model(&vars, &mut Choices::new(&values));
        if let (Ok(a), Ok(b)) = (m.eval(&p.raw), m.eval(&again)) {
            prop_assert_eq!(a, b);
        }
        let _ = Term::tt();
    }
}
