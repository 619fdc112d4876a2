//! Examples of hash-consing, rewriting, evaluation and printing.

use symex_expr::{Func, Model, Op, Sort, Term, TermMap, Value};

fn bv8(name: &str) -> Term {
    Term::var(name, Sort::bv(8))
}

fn k8(v: u128) -> Term {
    Term::bv(v, 8)
}

#[test]
fn structurally_equal_terms_are_one_node() {
    let (x, y) = (bv8("x"), bv8("y"));
    let a = x.bvmul(&y).bvadd(&k8(3));
    let b = x.bvmul(&y).bvadd(&k8(3));
    assert_eq!(a, b);
    assert_eq!(a.id(), b.id());
    // Commutative operators are ordered canonically.
    assert_eq!(x.bvand(&y), y.bvand(&x));
    assert_eq!(x.bvult(&y).and(&y.bvult(&x)), y.bvult(&x).and(&x.bvult(&y)));
}

#[test]
fn terms_are_send_and_sync_and_shared_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Term>();
    let here = bv8("shared").bvadd(&k8(1));
    let there = std::thread::spawn(|| bv8("shared").bvadd(&k8(1)))
        .join()
        .unwrap();
    assert_eq!(here, there);
}

#[test]
fn constants_fold_with_smtlib_semantics() {
    assert_eq!(k8(200).bvadd(&k8(100)), k8(44));
    assert_eq!(k8(7).bvudiv(&k8(0)), k8(255));
    assert_eq!(k8(7).bvurem(&k8(0)), k8(7));
    assert_eq!(
        Term::bv_signed(-7, 8).bvsdiv(&k8(2)),
        Term::bv_signed(-3, 8)
    );
    assert_eq!(Term::bv_signed(-7, 8).bvsmod(&k8(2)), k8(1));
    assert_eq!(k8(0x80).bvashr(&k8(9)), k8(0xff));
    assert_eq!(k8(0xab).concat(&k8(0xcd)), Term::bv(0xabcd, 16));
    assert_eq!(Term::bv(0xabcd, 16).extract(11, 4), k8(0xbc));
    assert!(k8(3).bvslt(&Term::bv_signed(-1, 8)).is_false());
    assert_eq!(Term::int(-7).idiv(&Term::int(2)), Term::int(-4));
    assert_eq!(Term::int(-7).imod(&Term::int(2)), Term::int(1));
    // Folding that would overflow i128 keeps the term symbolic.
    let big = Term::int(i128::MAX).iadd(&Term::int(1));
    assert_eq!(big.op(), &Op::IntAdd);
}

#[test]
fn neutral_and_absorbing_elements() {
    let x = bv8("x");
    assert_eq!(x.bvadd(&k8(0)), x);
    assert_eq!(x.bvmul(&k8(1)), x);
    assert_eq!(x.bvmul(&k8(0)), k8(0));
    assert_eq!(x.bvand(&k8(0xff)), x);
    assert_eq!(x.bvor(&k8(0xff)), k8(0xff));
    assert_eq!(x.bvxor(&x), k8(0));
    assert_eq!(x.bvsub(&x), k8(0));
    let p = Term::var("p", Sort::Bool);
    assert_eq!(p.and(&Term::tt()), p);
    assert!(p.and(&p.not()).is_false());
    assert!(p.or(&p.not()).is_true());
    assert_eq!(p.not().not(), p);
    assert_eq!(x.bvnot().bvnot(), x);
}

#[test]
fn constants_gather_on_the_left() {
    let x = bv8("x");
    let t = x.bvadd(&k8(3)).bvadd(&k8(4));
    assert_eq!(t, k8(7).bvadd(&x));
    assert_eq!(t.arg(0), &k8(7));
    // x - 3 becomes 253 + x, and 10 = 253 + x becomes 13 = x.
    assert_eq!(x.bvsub(&k8(3)), k8(253).bvadd(&x));
    assert_eq!(x.bvsub(&k8(3)).eq(&k8(10)), k8(13).eq(&x));
}

#[test]
fn differences_cancel_common_addends() {
    let (x, y) = (bv8("x"), bv8("y"));
    // (5 + x + y) - (9 + x) cancels x; the same without constants; nothing common stays a subtraction.
    let t = k8(5).bvadd(&x).bvadd(&y).bvsub(&k8(9).bvadd(&x));
    let u = y.bvadd(&x).bvsub(&x);
    let v = x.bvadd(&k8(1)).bvsub(&y);
    assert!(!t.free_vars().contains(&x), "{t:?}");
    assert_eq!(u, y);
    // Their values agree with wrapping u8 arithmetic on every x, y (the oracle is Rust's, not the rewrite).
    for xv in (0..=255u8).step_by(7) {
        for yv in (0..=255u8).step_by(5) {
            let mut m = Model::new();
            m.insert(
                &x,
                Value::Bv {
                    value: xv as u128,
                    width: 8,
                },
            );
            m.insert(
                &y,
                Value::Bv {
                    value: yv as u128,
                    width: 8,
                },
            );
            let val = |t: &Term| match m.eval(t).unwrap() {
                Value::Bv { value, .. } => value as u8,
                other => panic!("{other:?}"),
            };
            let a = 5u8.wrapping_add(xv).wrapping_add(yv);
            assert_eq!(val(&t), a.wrapping_sub(9u8.wrapping_add(xv)));
            assert_eq!(val(&v), xv.wrapping_add(1).wrapping_sub(yv));
        }
    }
}

#[test]
fn comparisons_of_a_term_with_itself_and_the_range_ends() {
    let x = bv8("x");
    assert!(x.bvult(&x).is_false());
    assert!(x.bvule(&x).is_true());
    assert!(x.bvult(&k8(0)).is_false());
    assert!(k8(0).bvule(&x).is_true());
    assert!(x.eq(&x).is_true());
    let i = Term::var("i", Sort::Int);
    assert!(i.ile(&i).is_true());
}

#[test]
fn extract_concat_and_extension_algebra() {
    let (x, y) = (bv8("x"), bv8("y"));
    let xy = x.concat(&y);
    assert_eq!(xy.extract(7, 0), y);
    assert_eq!(xy.extract(15, 8), x);
    assert_eq!(xy.extract(11, 8), x.extract(3, 0));
    assert_eq!(x.extract(7, 4).concat(&x.extract(3, 0)), x);
    assert_eq!(x.zext(8).extract(7, 0), x);
    assert_eq!(x.zext(8).extract(15, 8), k8(0));
    assert_eq!(x.zext(8).eq(&Term::bv(0x100, 16)), Term::ff());
    assert_eq!(x.zext(8).eq(&Term::bv(0x42, 16)), k8(0x42).eq(&x));
    assert_eq!(x.sext(8).eq(&Term::bv(0xff80, 16)), k8(0x80).eq(&x));
    assert_eq!(k8(0).concat(&x), x.zext(8));
}

#[test]
fn ite_with_constant_or_equal_branches() {
    let (c, x, y) = (Term::var("c", Sort::Bool), bv8("x"), bv8("y"));
    assert_eq!(Term::tt().ite(&x, &y), x);
    assert_eq!(c.ite(&x, &x), x);
    assert_eq!(c.not().ite(&x, &y), c.ite(&y, &x));
    assert_eq!(c.ite(&Term::tt(), &Term::ff()), c);
    assert_eq!(c.bool_to_bv1().eq(&Term::bv(1, 1)), c);
}

#[test]
fn select_over_store() {
    let mem = Term::var("mem", Sort::array(32, 8));
    let (i, j) = (Term::bv(4, 32), Term::bv(5, 32));
    let v = bv8("v");
    let m = mem.store(&i, &v);
    assert_eq!(m.select(&i), v);
    assert_eq!(m.select(&j), mem.select(&j));
    let zero = Term::const_array(Sort::array(32, 8), &k8(0));
    assert_eq!(zero.store(&i, &v).select(&j), k8(0));
    assert_eq!(m.store(&i, &k8(1)), mem.store(&i, &k8(1)));
    let sym = Term::var("k", Sort::bv(32));
    assert_eq!(m.select(&sym).op(), &Op::Select);
}

#[test]
fn evaluation_completes_missing_variables_and_follows_division_by_zero() {
    let (x, y) = (bv8("x"), bv8("y"));
    let mut m = Model::new();
    m.insert(&x, Value::Bv { value: 9, width: 8 });
    assert_eq!(
        m.eval(&x.bvudiv(&y)),
        Ok(Value::Bv {
            value: 255,
            width: 8
        })
    );
    assert_eq!(m.eval(&x.bvurem(&y)), Ok(Value::Bv { value: 9, width: 8 }));
    let i = Term::var("i", Sort::Int);
    assert!(m.eval(&Term::int(3).idiv(&i)).is_err());
}

#[test]
fn evaluation_of_arrays_and_uninterpreted_functions() {
    let r = Sort::uninterpreted("ref");
    let f = Func::new("val", &[r], Sort::Int);
    let (a, b) = (Term::var("a", r), Term::var("b", r));
    let fa = Term::apply(f, std::slice::from_ref(&a));
    let fb = Term::apply(f, std::slice::from_ref(&b));
    let mut m = Model::new();
    m.insert(
        &b,
        Value::Uninterpreted {
            sort: symex_expr::USort::new("ref"),
            index: 1,
        },
    );
    let mut entries = std::collections::BTreeMap::new();
    entries.insert(
        vec![Value::Uninterpreted {
            sort: symex_expr::USort::new("ref"),
            index: 1,
        }],
        Value::Int(5),
    );
    m.insert_func(
        f,
        symex_expr::FuncInterp {
            entries,
            default: Value::Int(-1),
        },
    );
    assert_eq!(m.eval(&fa), Ok(Value::Int(-1)));
    assert_eq!(m.eval(&fb), Ok(Value::Int(5)));
    assert_eq!(m.eval_bool(&a.eq(&b)), Ok(false));

    let mem = Term::var("mem", Sort::array(8, 8));
    let t = mem.store(&bv8("i"), &k8(7)).select(&k8(0));
    assert_eq!(m.eval(&t), Ok(Value::Bv { value: 7, width: 8 }));
}

#[test]
fn deep_terms_are_built_evaluated_printed_and_freed_without_recursion() {
    let x = Term::var("deep", Sort::bv(32));
    let mut t = x.clone();
    for i in 0..200_000u128 {
        t = t.bvmul(&x).bvxor(&Term::bv(i, 32));
    }
    assert!(t.dag_size() > 200_000);
    let m = Model::new();
    assert!(m.eval(&t).is_ok());
    let smt = symex_expr::to_smtlib2(&[t.eq(&x)]);
    assert!(smt.contains("define-fun"));
    assert!(t.to_string().starts_with("(let (("));
    drop(t);
}

#[test]
fn smtlib_printing_declares_everything() {
    let r = Sort::uninterpreted("ref");
    let f = Func::new("next", &[r], r);
    let a = Term::var("a", r);
    let x = Term::var("x y", Sort::bv(4));
    let shared = x.bvadd(&Term::bv(1, 4));
    let q = [
        Term::apply(f, std::slice::from_ref(&a)).eq(&a).not(),
        shared.bvult(&shared.bvmul(&shared)),
    ];
    let s = symex_expr::to_smtlib2(&q);
    assert!(s.contains("(declare-sort ref 0)"));
    assert!(s.contains("(declare-fun next (ref) ref)"));
    assert!(s.contains("(declare-fun |x y| () (_ BitVec 4))"));
    assert!(s.contains("(define-fun ?t"));
    assert!(s.ends_with("(check-sat)\n"));
}

#[test]
fn substitution_resimplifies() {
    let (x, y) = (bv8("x"), bv8("y"));
    let t = x.bvadd(&y).bvult(&k8(10));
    let mut map = TermMap::default();
    map.insert(x.clone(), k8(3));
    map.insert(y.clone(), k8(4));
    assert!(t.substitute(&map).is_true());
    assert_eq!(t.free_vars(), vec![x, y]);
}

#[test]
fn ill_sorted_applications_are_errors() {
    let x = bv8("x");
    let y = Term::var("y16", Sort::bv(16));
    assert!(Term::try_new(Op::BvAdd, &[x.clone(), y]).is_err());
    assert!(Term::try_new(Op::Extract { hi: 8, lo: 0 }, &[x]).is_err());
}

#[test]
fn display_binds_shared_subterms_with_let() {
    let x = bv8("x");
    let mut t = x.clone();
    // 40 doublings: printed as a tree this would have 2^40 leaves.
    for _ in 0..40 {
        t = t.bvmul(&t.bvadd(&k8(1)));
    }
    let text = t.to_string();
    assert!(text.len() < 20_000, "{} characters", text.len());
    let s = x.bvadd(&k8(1));
    assert_eq!(
        s.bvmul(&s).to_string(),
        format!(
            "(let ((?t{} (bvadd #x01 x))) (bvmul ?t{} ?t{}))",
            s.id(),
            s.id(),
            s.id()
        )
    );
    assert_eq!(x.bvult(&k8(3)).to_string(), "(bvult x #x03)");
}

#[test]
fn comparisons_of_extended_bytes_are_decided_on_the_byte() {
    let c = bv8("c");
    let int = |v: i128| Term::bv_signed(v, 32);
    assert!(c.zext(24).bvult(&int(256)).is_true());
    assert!(c.zext(24).bvugt(&int(300)).is_false());
    assert_eq!(c.zext(24).bvult(&int(100)), c.bvult(&k8(100)));
    assert!(c.sext(24).bvslt(&int(-129)).is_false());
    assert!(c.sext(24).bvsle(&int(127)).is_true());
    assert_eq!(c.sext(24).bvslt(&int(-5)), c.bvslt(&Term::bv_signed(-5, 8)));
    let d = bv8("d");
    assert_eq!(c.zext(24).bvult(&d.zext(24)), c.bvult(&d));
}

#[test]
fn widths_from_input_are_checked_without_panicking() {
    assert_eq!(Sort::try_bv(256), None);
    assert_eq!(Sort::try_bv(0), None);
    assert_eq!(Term::try_bv(5, 128), Some(Term::bv(5, 128)));
    assert_eq!(Term::try_bv(5, 129), None);
}

#[test]
fn arrays_between_any_sorts_evaluate_print_and_rewrite() {
    let r = Sort::uninterpreted("ref");
    let ints = Sort::map(Sort::Int, Sort::Int);
    assert_eq!(ints, Sort::map(Sort::Int, Sort::Int));
    assert_ne!(ints, Sort::map(Sort::Int, r));
    assert_eq!(ints.to_string(), "(Array Int Int)");
    let zero = Term::const_array(ints, &Term::int(0));
    let (e, i) = (Term::var("e", ints), Term::var("i", Sort::Int));
    // The rewrites of bit-vector arrays apply: a read through a store at a distinct
    // constant, a write of what is read at the same index.
    let a = zero.store(&Term::int(1), &Term::int(7));
    assert_eq!(a.select(&Term::int(1)), Term::int(7));
    assert_eq!(a.select(&Term::int(2)), Term::int(0));
    assert_eq!(e.store(&i, &e.select(&i)), e);
    let b = e.store(&i, &Term::int(5)).select(&Term::int(3));
    assert_eq!(b.sort(), Sort::Int);
    let mut m = Model::new();
    m.insert(&i, Value::Int(3));
    m.insert(&e, Value::default_of(ints));
    assert_eq!(m.eval(&b), Ok(Value::Int(5)));
    // Equal contents are equal values, whatever the order of the writes.
    let twice = |x: i128, y: i128| {
        zero.store(&i, &Term::int(x))
            .store(&Term::int(9), &Term::int(y))
    };
    assert_eq!(m.eval(&twice(1, 2).eq(&twice(1, 2))), Ok(Value::Bool(true)));
    assert_eq!(
        m.eval(&twice(1, 0).eq(&zero.store(&Term::int(3), &Term::int(1)))),
        Ok(Value::Bool(true))
    );
    let v = m.eval(&twice(1, 2)).unwrap();
    assert_eq!(
        v.to_string(),
        "(store (store ((as const (Array Int Int)) 0) 3 1) 9 2)"
    );
    assert_eq!(m.eval(&v.to_term().unwrap()), Ok(v));
    let refs = Term::var("refs", Sort::map(Sort::Int, r));
    let smt = symex_expr::to_smtlib2(&[refs.select(&i).eq(&refs.select(&Term::int(0)))]);
    assert!(smt.contains("(declare-sort ref 0)"), "{smt}");
    assert!(Term::try_new(Op::Select, &[refs.clone(), Term::bool(true)]).is_err());
}
