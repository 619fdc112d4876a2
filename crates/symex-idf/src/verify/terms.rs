//! The logic of the paper's §3.2: sorts `ref`, `int`, `bool`, `snapshot`, the built-in
//! functions `unit`, `combine`, `first`, `second`, `fromT`/`toT` for each value sort and
//! `null`, and one function per pure method.
//!
//! The prelude (`first(combine(l, r)) = l`, `second(combine(l, r)) = r`,
//! `toT(fromT(v)) = v`, `fromT(toT(s)) = s`) is applied as rewrite rules when terms are
//! built, so every term the verifier holds is already in prelude normal form and the solver
//! needs no quantifiers. `combine(first(s), second(s)) = s` is added in the same spirit: a
//! snapshot always has the shape its assertion gives it, so an `open` followed by a `close`
//! gives back the very same snapshot and pure-method values are framed syntactically.
//!
//! Arrays (an addition): an `acc(a.elems)` chunk holds the array's contents, a value of the
//! solver's array sort `Int -> T` (its theory gives read-over-write and extensionality, so
//! writing back what was read leaves the contents, and so the snapshot, unchanged); a fresh
//! array is the constant array of `T`'s default. `len` gives the (immutable) length of an
//! array.
use crate::ir::{self, Sort as VSort};
use std::sync::OnceLock;
use symex_expr::{Func, Op, Sort, Term};

/// A sort or function symbol built once: looking one up by name hashes the name,
/// and the verifier asks for them at every rule.
macro_rules! once {
    ($ty:ty, $init:expr) => {{
        static CELL: OnceLock<$ty> = OnceLock::new();
        CELL.get_or_init(|| $init).clone()
    }};
}

pub fn ref_sort() -> Sort {
    once!(Sort, Sort::uninterpreted("Ref"))
}

pub fn snap_sort() -> Sort {
    once!(Sort, Sort::uninterpreted("Snap"))
}

fn elems_sort(elem: VSort) -> Sort {
    Sort::map(Sort::Int, sort(elem))
}

/// The term sort of a program value sort.
pub fn sort(s: VSort) -> Sort {
    match s {
        VSort::Int => Sort::Int,
        VSort::Bool => Sort::Bool,
        VSort::Ref => ref_sort(),
    }
}

/// The value sort of a term sort, if it is one.
pub fn value_sort(s: Sort) -> Option<VSort> {
    if s == Sort::Int {
        Some(VSort::Int)
    } else if s == Sort::Bool {
        Some(VSort::Bool)
    } else if s == ref_sort() {
        Some(VSort::Ref)
    } else {
        None
    }
}

// `null` and `unit` are looked up afresh (not kept alive): when they are built decides their
// term ids, and so the order of the arguments of the equalities they occur in.
pub fn null() -> Term {
    Term::var("null", ref_sort())
}

pub fn unit() -> Term {
    Term::var("unit", snap_sort())
}

/// The default value of a variable or fresh field (Figure 8's `new` and `C x;`).
pub fn default_value(s: VSort) -> Term {
    match s {
        VSort::Int => Term::int(0),
        VSort::Bool => Term::ff(),
        VSort::Ref => null(),
    }
}

pub fn fresh(prefix: &str, s: Sort) -> Term {
    Term::fresh_var(prefix, s)
}

fn combine_f() -> Func {
    once!(
        Func,
        Func::new("combine", &[snap_sort(), snap_sort()], snap_sort())
    )
}
fn first_f() -> Func {
    once!(Func, Func::new("first", &[snap_sort()], snap_sort()))
}
fn second_f() -> Func {
    once!(Func, Func::new("second", &[snap_sort()], snap_sort()))
}

fn value_tag(s: Sort) -> String {
    match (value_sort(s), s) {
        (Some(VSort::Int), _) => "Int".into(),
        (Some(VSort::Bool), _) => "Bool".into(),
        (Some(VSort::Ref), _) => "Ref".into(),
        (None, Sort::Map(m)) => format!("Elems{}", value_tag(m.element())),
        (None, _) => s_name(s),
    }
}

fn s_name(s: Sort) -> String {
    match s {
        Sort::Uninterpreted(u) => u.name().to_string(),
        other => format!("{other:?}"),
    }
}

fn from_f(s: Sort) -> Func {
    conversion(s).0
}
fn to_f(s: Sort) -> Func {
    conversion(s).1
}

/// `fromT` and `toT` for sort `s`: those of the value sorts and their array contents are
/// built once.
fn conversion(s: Sort) -> (Func, Func) {
    let build = |s: Sort| {
        let tag = value_tag(s);
        (
            Func::new(&format!("from{tag}"), &[s], snap_sort()),
            Func::new(&format!("to{tag}"), &[snap_sort()], s),
        )
    };
    let common = once!(
        Vec<(Sort, (Func, Func))>,
        [Sort::Int, Sort::Bool, ref_sort()]
            .into_iter()
            .chain([VSort::Int, VSort::Bool, VSort::Ref].map(elems_sort))
            .map(|s| (s, build(s)))
            .collect()
    );
    match common.iter().find(|(t, _)| *t == s) {
        Some((_, fs)) => *fs,
        None => build(s),
    }
}

/// `f(args)` if the term is an application of `f`.
fn as_apply(t: &Term, f: Func) -> Option<&[Term]> {
    match t.op() {
        Op::Apply(g) if *g == f => Some(t.args()),
        _ => None,
    }
}

pub fn combine(l: &Term, r: &Term) -> Term {
    if let (Some([a]), Some([b])) = (as_apply(l, first_f()), as_apply(r, second_f())) {
        if a == b {
            return a.clone();
        }
    }
    Term::apply(combine_f(), &[l.clone(), r.clone()])
}

pub fn first(s: &Term) -> Term {
    match as_apply(s, combine_f()) {
        Some([l, _]) => l.clone(),
        _ => Term::apply(first_f(), std::slice::from_ref(s)),
    }
}

pub fn second(s: &Term) -> Term {
    match as_apply(s, combine_f()) {
        Some([_, r]) => r.clone(),
        _ => Term::apply(second_f(), std::slice::from_ref(s)),
    }
}

/// `fromT(v)`: the snapshot of one location holding `v`.
pub fn from_value(v: &Term) -> Term {
    let s = v.sort();
    match as_apply(v, to_f(s)) {
        Some([snap]) => snap.clone(),
        _ => Term::apply(from_f(s), std::slice::from_ref(v)),
    }
}

/// `a = b` for two snapshots, decomposed where the prelude makes the functions injective
/// (`toT(fromT(v)) = v`, `first`/`second` of `combine`): `fromT(x) = fromT(y)` is `x = y`, so that
/// the solver, which is not given the prelude's axioms, still learns what `untouched` says
/// about the locations' values.
pub fn snap_eq(a: &Term, b: &Term) -> Term {
    if a == b {
        return Term::tt();
    }
    if a.sort() == snap_sort() && b.sort() == snap_sort() {
        if let (Some([a1, a2]), Some([b1, b2])) =
            (as_apply(a, combine_f()), as_apply(b, combine_f()))
        {
            return snap_eq(a1, b1).and(&snap_eq(a2, b2));
        }
        let value_sorts = [Sort::Int, Sort::Bool, ref_sort()]
            .into_iter()
            .chain([VSort::Int, VSort::Bool, VSort::Ref].map(elems_sort));
        for s in value_sorts {
            // `fromT(toT(s)) = s` makes `s = fromT(y)` the same as `toT(s) = y`.
            match (as_apply(a, from_f(s)), as_apply(b, from_f(s))) {
                (Some([x]), Some([y])) => return x.eq(y),
                (Some([x]), None) => return to_value(b, s).eq(x),
                (None, Some([y])) => return to_value(a, s).eq(y),
                _ => {}
            }
        }
    }
    a.eq(b)
}

/// `a = b` for two snapshots as a fact to assume: [`snap_eq`], and where one side is a
/// `combine(l, r)` the other is not, also `first`/`second` of the other equal to `l`/`r` (the
/// prelude's `first(combine(l, r)) = l`, which the solver is not given): so that after
/// `untouched(p())` a caller still knows the value of each location of `p`'s body when it
/// opens `p` (Figure 10's pattern).
pub fn snap_eq_fact(a: &Term, b: &Term) -> Term {
    let eq = snap_eq(a, b);
    if a.sort() != snap_sort() {
        return eq;
    }
    let decomposed = |pair: &[Term], other: &Term| {
        snap_eq_fact(&pair[0], &first(other)).and(&snap_eq_fact(&pair[1], &second(other)))
    };
    match (as_apply(a, combine_f()), as_apply(b, combine_f())) {
        (Some(pa), None) => eq.and(&decomposed(pa, b)),
        (None, Some(pb)) => eq.and(&decomposed(pb, a)),
        _ => eq,
    }
}

/// The prelude's axioms for a snapshot `snap` produced for an assertion of the given shape,
/// which every snapshot consumed from such an assertion satisfies (the solver is given no
/// quantified axioms, so their instances are assumed where snapshots are produced):
/// `fromT(toT(snap)) = snap` for one location of sort `s` (so `toT` is injective on such
/// snapshots, and `x = y` gives `fromT`-snapshots of `x` and `y` equal),
/// `combine(first(snap), second(snap)) = snap` for a pair.
pub fn shape_fact(snap: &Term, shape: Shape) -> Term {
    match shape {
        Shape::Location(s) => {
            if as_apply(snap, from_f(s)).is_some() {
                return Term::tt();
            }
            let v = to_value(snap, s);
            Term::apply(from_f(s), std::slice::from_ref(&v)).eq(snap)
        }
        Shape::Pair => {
            if as_apply(snap, combine_f()).is_some() {
                return Term::tt();
            }
            Term::apply(combine_f(), &[first(snap), second(snap)]).eq(snap)
        }
        Shape::Unit => snap.eq(&unit()),
    }
}

/// What [`shape_fact`] states about a snapshot.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    /// One location holding a value of this sort.
    Location(Sort),
    /// `combine(l, r)`.
    Pair,
    /// No location at all.
    Unit,
}

/// `toT(snap)`: the value of a one-location snapshot, of sort `s`.
pub fn to_value(snap: &Term, s: Sort) -> Term {
    match as_apply(snap, from_f(s)) {
        Some([v]) => v.clone(),
        _ => Term::apply(to_f(s), std::slice::from_ref(snap)),
    }
}

/// The function symbol `C.p` of a pure method: (snapshot, receiver, arguments) → result.
pub fn pure_func(p: &ir::Pure) -> Func {
    let mut domain = vec![snap_sort(), ref_sort()];
    domain.extend(p.params.iter().map(|(_, s)| sort(*s)));
    Func::new(&format!("{}.{}", p.class, p.name), &domain, sort(p.ret))
}

pub fn elems_value_sort(elem: VSort) -> Sort {
    elems_sort(elem)
}

/// The contents of a new array: every element the default value.
pub fn fill(elem: VSort) -> Term {
    Term::const_array(elems_sort(elem), &default_value(elem))
}

pub fn array_get(elems: &Term, index: &Term) -> Term {
    elems.select(index)
}

pub fn array_update(elems: &Term, index: &Term, value: &Term) -> Term {
    elems.store(index, value)
}

/// `oid(o)`: the allocation number of an object allocated by `new` (distinct numbers make
/// distinct objects, with one fact per allocation).
pub fn object_id(o: &Term) -> Term {
    let oid = once!(Func, Func::new("oid", &[ref_sort()], Sort::Int));
    Term::apply(oid, std::slice::from_ref(o))
}

pub fn length(array: &Term) -> Term {
    let len = once!(Func, Func::new("len", &[ref_sort()], Sort::Int));
    Term::apply(len, std::slice::from_ref(array))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prelude_rewrites_apply_when_terms_are_built() {
        let s = fresh("s", snap_sort());
        let v = fresh("v", Sort::Int);
        assert_eq!(first(&combine(&s, &unit())), s);
        assert_eq!(second(&combine(&unit(), &s)), s);
        assert_eq!(to_value(&from_value(&v), Sort::Int), v);
        assert_eq!(from_value(&to_value(&s, Sort::Int)), s);
        assert_eq!(combine(&first(&s), &second(&s)), s);
        // Different value sorts never cancel.
        assert_ne!(to_value(&from_value(&v), Sort::Bool).sort(), Sort::Int);
    }

    #[test]
    fn snapshot_equalities_are_stated_on_values() {
        let (v, w) = (fresh("v", Sort::Int), fresh("w", Sort::Int));
        let s = fresh("s", snap_sort());
        assert_eq!(snap_eq(&from_value(&v), &from_value(&w)), v.eq(&w));
        assert_eq!(snap_eq(&s, &from_value(&w)), to_value(&s, Sort::Int).eq(&w));
        let pair = |a: &Term, b: &Term| combine(&from_value(a), &from_value(b));
        assert_eq!(
            snap_eq(&pair(&v, &w), &pair(&w, &v)),
            v.eq(&w).and(&w.eq(&v))
        );
    }

    #[test]
    fn read_over_write_is_resolved_syntactically_when_indices_are_constants() {
        let e = fill(VSort::Int);
        let e1 = array_update(&e, &Term::int(1), &Term::int(7));
        assert_eq!(array_get(&e1, &Term::int(1)), Term::int(7));
        assert_eq!(array_get(&e1, &Term::int(2)), Term::int(0));
        // Writing back what was read is no write at all.
        let c = fresh("c", elems_sort(VSort::Int));
        let i = fresh("i", Sort::Int);
        assert_eq!(array_update(&c, &i, &array_get(&c, &i)), c);
    }
}
