//! Property: every smart-constructor rewrite preserves meaning. A random term built exactly
//! as chosen and the same term built through the smart constructors evaluate alike under
//! random assignments. (That Z3 proves them equivalent is checked in symex-solver's
//! property tests, which reuse this generator.)
//!
//! An assignment under which either term does not evaluate (e.g. an uninterpreted function
//! outside the generated interpretation) is skipped, and counted: each test prints how many
//! comparisons it made and skipped, and fails when it skipped as many as it made.

mod gen;

use gen::{Choices, Gen, G, WIDTHS};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::sync::atomic::{AtomicU64, Ordering};
use symex_expr::{free_vars, Model, Term, TermMap};

fn sorts() -> impl Strategy<Value = G> {
    prop_oneof![
        Just(G::Bool),
        Just(G::Bv(8)),
        (0..WIDTHS.len()).prop_map(|i| G::Bv(WIDTHS[i])),
        Just(G::Int),
        Just(G::Mem),
    ]
}

/// Comparisons made and skipped by one property.
#[derive(Default)]
struct Tally {
    compared: AtomicU64,
    skipped: AtomicU64,
}

impl Tally {
    /// Compares `a` under `ma` with `b` under `mb`, or counts the case as skipped.
    fn compare(&self, ma: &Model, a: &Term, mb: &Model, b: &Term) -> Result<(), TestCaseError> {
        match (ma.eval(a), mb.eval(b)) {
            (Ok(x), Ok(y)) => {
                self.compared.fetch_add(1, Ordering::Relaxed);
                prop_assert_eq!(x, y, "original {} rewritten {}", a, b);
            }
            _ => {
                self.skipped.fetch_add(1, Ordering::Relaxed);
            }
        }
        Ok(())
    }

    fn report(&self, name: &str) {
        let compared = self.compared.load(Ordering::Relaxed);
        let skipped = self.skipped.load(Ordering::Relaxed);
        eprintln!("{name}: {compared} comparisons, {skipped} skipped (did not evaluate)");
        assert!(
            skipped < compared,
            "{name}: {skipped} of {} cases skipped",
            compared + skipped
        );
    }
}

fn runner(cases: u32) -> TestRunner {
    // As `proptest!` does: failures are kept in, and replayed from, this file's `.proptest-regressions`.
    TestRunner::new(Config {
        cases,
        source_file: Some(file!()),
        ..Config::default()
    })
}

#[test]
fn simplified_terms_evaluate_like_raw_terms() {
    let tally = Tally::default();
    let strategy = (
        sorts(),
        proptest::collection::vec(any::<u8>(), 0..160),
        proptest::collection::vec(any::<u8>(), 0..400),
    );
    let r = runner(2000).run(&strategy, |(g, shape, values)| {
        let gen = Gen {
            vars_per_sort: 2,
            uninterpreted: true,
            widths: &WIDTHS,
        };
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
            tally.compare(&m, &p.raw, &m, &p.simp)?;
        }
        Ok(())
    });
    if let Err(e) = r {
        panic!("{e}");
    }
    tally.report("simplified_terms_evaluate_like_raw_terms");
}

#[test]
fn rebuilding_a_term_through_the_constructors_keeps_its_meaning() {
    // Each variable renamed to a fresh one (`x` to `x'`) forces the whole term to be rebuilt through
    // the smart constructors; the rebuilt term under the renamed assignment must mean what the
    // original means under the original one.
    let tally = Tally::default();
    let strategy = (
        proptest::collection::vec(any::<u8>(), 0..120),
        proptest::collection::vec(any::<u8>(), 0..200),
    );
    let r = runner(1000).run(&strategy, |(shape, values)| {
        let gen = Gen {
            vars_per_sort: 2,
            uninterpreted: true,
            widths: &WIDTHS,
        };
        let p = gen.term(G::Bool, 5, &mut Choices::new(&shape));
        let vars = p.raw.free_vars();
        let mut map = TermMap::default();
        for v in &vars {
            let name = format!("{}'", v.as_var().expect("a variable"));
            map.insert(v.clone(), Term::var(&name, v.sort()));
        }
        let rebuilt = p.raw.substitute(&map);
        let m = gen.model(&vars, &mut Choices::new(&values));
        let mut renamed = m.clone();
        for v in &vars {
            renamed.insert(&map[v], m.value_of(v));
        }
        tally.compare(&m, &p.raw, &renamed, &rebuilt)
    });
    if let Err(e) = r {
        panic!("{e}");
    }
    tally.report("rebuilding_a_term_through_the_constructors_keeps_its_meaning");
}
