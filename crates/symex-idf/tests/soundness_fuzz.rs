//! Soundness fuzzer: generated programs that the verifier accepts must run without a violation
//! in the concrete executor (`symex_idf::run`, written separately from the verifier).
//!
//! A generated program has a class `A` (fields, a predicate, two pure methods whose bodies use
//! `opening` and pure calls, a mutator `m(int v, bool b)` with a random body and postcondition)
//! and a driver `Main.test(int k0, int k1, int k2, bool b1)` that builds two `A`s, calls `m` and
//! asserts things. The verifier proves `test` for all inputs, so `main { … d.test(K…); }` verifies
//! for every choice of constants (`test` requires `true`); each verified program is then run on
//! several sampled constant tuples. A run that violates an assertion, a contract, a permission or
//! pure-method termination is a verifier unsoundness, and the test fails with the (shrunk)
//! program.
//!
//! Each class of issue 9's holes is a feature of the generator, switched on in its own test:
//! - `assign_params`: bodies assign the parameters (`v := …`, `b := !b`, loops counting `v` down),
//! - `untouched_cond`: `untouched(c ? acc(x) : acc(y))` in postconditions,
//! - `recursive_pure`: pure bodies call themselves or later pure methods (inside `opening`).
//!
//! Later classes: `use_pure` (`use` and `using` of pure methods, with recursion) and `arrays`
//! (a mutator `w` writing an `int[]` at two indices, with `untouched(acc(a.elems))` and element
//! facts in its postcondition, called by the driver on an array it then reads).
//!
//! The baseline (none of them, 200 programs) and the three hole classes (100 each) run in CI; on
//! the verifier before issue 9's fixes each hole class found its hole (README). Cases and seed:
//! `SOUNDNESS_FUZZ_CASES` (for every class), `SOUNDNESS_FUZZ_SEED` (default 1).
//! `cargo test -p symex-idf --test soundness_fuzz -- --nocapture` prints how many programs and
//! runs each class checked.
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use symex_idf::run::{Outcome, RunConfig};
use symex_idf::verify::validity::Status;

#[derive(Clone, Copy, Debug, Default)]
struct Features {
    assign_params: bool,
    untouched_cond: bool,
    recursive_pure: bool,
    /// `use a.f()` statements and `using this.f() in …` in pure bodies, including a body that
    /// uses itself or the other pure method (self- and mutual recursion).
    use_pure: bool,
    /// The array mutator `w` and driver statements calling it and reading the array.
    arrays: bool,
}

/// An `int` expression of `m`'s body.
#[derive(Clone, Debug)]
enum E {
    V,
    X,
    Y,
    K(i8),
    VPlus1,
    XPlusV,
}

#[derive(Clone, Debug)]
enum S {
    AssignX(E),
    AssignY(E),
    YFromF,
    YFromG,
    IfB(Vec<S>, Vec<S>),
    IfV(i8, Vec<S>, Vec<S>),
    /// Parameter assignments (feature `assign_params`).
    AssignV(E),
    FlipB,
    /// `while (v > 0) invariant acc(x) * acc(y) [* v >= 0]; { v := v - 1; [y := y + 1;] }`
    CountDown(bool, bool),
    /// `if (true) { int i := 0; while (i < k) invariant acc(x) * acc(y) * (i >= 0); { i := i + 1; [y := y + 1;] } }`
    LocalLoop(i8, bool),
}

/// A permission-carrying assertion inside `untouched`.
#[derive(Clone, Debug)]
enum U {
    X,
    Y,
    P,
    /// `b ? acc(x) : acc(y)` and `v > 0 ? acc(x) : acc(y)` (feature `untouched_cond`).
    CondB,
    CondV,
    /// `this.x > 0 ? acc(this.y) : acc(this.x)`: the body may change the condition.
    CondX,
}

#[derive(Clone, Debug)]
enum Post {
    XEqV,
    YEqV,
    XEqOldX,
    YEqOldY,
    XEqOldXPlusV,
    B,
    NotB,
    CondXV,
    XGeV,
    FEqOldF,
    YEqG,
    Untouched(U),
}

/// A pure expression.
#[derive(Clone, Debug)]
enum PE {
    X,
    K(i8),
    G,
    F,
    Plus1(Box<PE>),
    Cond(i8, Box<PE>, Box<PE>),
    /// `(using this.f() in e)`, `(using this.g() in e)` (feature `use_pure`).
    UsingF(Box<PE>),
    UsingG(Box<PE>),
}

/// A pure body: an expression, inside `opening this.p() in …` or not (nested `opening`s of the
/// same instance are rejected by every verifier and only waste cases).
#[derive(Clone, Debug)]
struct PureBody {
    opening: bool,
    expr: PE,
}

#[derive(Clone, Copy, Debug)]
enum Pre {
    Acc,
    P,
}

#[derive(Clone, Copy, Debug)]
enum PBody {
    True,
    XGe0,
    XNe(i8),
}

/// A statement of the driver after `a.m(k1, b1)`.
#[derive(Clone, Debug)]
enum T {
    AssertXK1,
    AssertYK1,
    AssertXK0,
    AssertYK2,
    AssertFalse,
    AssertFX,
    CallF,
    CallG,
    CloseP,
    OpenP,
    CallMAgain,
    /// On a second object, created before `a`.
    CallMOther,
    AssertOtherX,
    /// `a.n(a, o)`, `a.n(o, a)`, `a.n(o, o)`.
    MoveAO,
    MoveOA,
    MoveOO,
    /// `use a.f();`, `use a.g();` (feature `use_pure`).
    UseF,
    UseG,
    /// `a.w(c, i, j, k1);` and `assert c[i] = k…;` (feature `arrays`; `c` holds k0, k1, k2).
    CallW(u8, u8),
    AssertC(u8, u8),
}

/// What `w(int[] a, int i, int j, int v)` requires of `i` and `j` besides being indices.
#[derive(Clone, Copy, Debug)]
enum Rel {
    Any,
    Same,
    Different,
}

/// A statement of `w`'s body.
#[derive(Clone, Debug)]
enum AS {
    /// `a[i] := a[i];`
    ReadBack,
    CopyJToI,
    CopyIToJ,
    SetI,
    SetJPlus1,
    /// `a[0] := a[0] + 1;`
    Bump0,
    /// `int t := a[i]; a[i] := a[j]; a[j] := t;` (in a block of its own).
    Swap,
    /// `int t := a[j]; a[j] := v; a[j] := t;`
    WriteAndRestore,
    IfV(i8, Vec<AS>, Vec<AS>),
}

/// A clause of `w`'s postcondition.
#[derive(Clone, Debug)]
enum AP {
    Untouched,
    IEqV,
    JEqOldJ,
    IEqOldJ,
    JEqOldI,
    ZeroEqOld,
    LengthEqOld,
}

#[derive(Clone, Debug)]
struct ArrayMutator {
    rel: Rel,
    body: Vec<AS>,
    post: Vec<AP>,
}

/// A mutator `n(A o, A q)` moving permissions between two objects: its precondition and
/// postcondition are `acc` of `o.y`, `q.y` or both; its body writes through them and, with
/// `assign_params`, reassigns them (issue 9: `o := q` let a caller hold `acc(a.y)` twice).
#[derive(Clone, Copy, Debug)]
enum Accs {
    O,
    Q,
    Both,
}

#[derive(Clone, Debug)]
enum NS {
    WriteO,
    WriteQ,
    OFromQ,
    QFromO,
}

#[derive(Clone, Debug)]
struct Mover {
    pre: Accs,
    post: Accs,
    body: Vec<NS>,
}

#[derive(Clone, Debug)]
struct Prog {
    n: Mover,
    pbody: PBody,
    g_pre: Pre,
    g_body: PureBody,
    f_pre: Pre,
    f_body: PureBody,
    v_nonneg: bool,
    body: Vec<S>,
    post: Vec<Post>,
    test: Vec<T>,
    samples: Vec<(i8, i8, i8, bool)>,
    w: Option<ArrayMutator>,
}

fn konst() -> impl Strategy<Value = i8> {
    -2i8..4
}

fn expr() -> impl Strategy<Value = E> {
    prop_oneof![
        Just(E::V),
        Just(E::X),
        Just(E::Y),
        konst().prop_map(E::K),
        Just(E::VPlus1),
        Just(E::XPlusV),
    ]
}

fn stmt(f: Features) -> BoxedStrategy<S> {
    let mut leaf = vec![
        expr().prop_map(S::AssignX).boxed(),
        expr().prop_map(S::AssignY).boxed(),
        Just(S::YFromF).boxed(),
        Just(S::YFromG).boxed(),
        (konst(), any::<bool>())
            .prop_map(|(k, y)| S::LocalLoop(k, y))
            .boxed(),
    ];
    if f.assign_params {
        leaf.push(expr().prop_map(S::AssignV).boxed());
        leaf.push(Just(S::FlipB).boxed());
        leaf.push(
            (any::<bool>(), any::<bool>())
                .prop_map(|(a, b)| S::CountDown(a, b))
                .boxed(),
        );
    }
    let leaf = proptest::strategy::Union::new(leaf).boxed();
    leaf.prop_recursive(2, 8, 3, |inner| {
        let block = prop::collection::vec(inner, 0..3);
        prop_oneof![
            (block.clone(), block.clone()).prop_map(|(a, b)| S::IfB(a, b)),
            (konst(), block.clone(), block).prop_map(|(k, a, b)| S::IfV(k, a, b)),
        ]
    })
    .boxed()
}

fn post(f: Features) -> BoxedStrategy<Post> {
    let mut us = vec![
        (1, Just(U::X).boxed()),
        (1, Just(U::Y).boxed()),
        (1, Just(U::P).boxed()),
    ];
    if f.untouched_cond {
        us.push((3, Just(U::CondB).boxed()));
        us.push((2, Just(U::CondV).boxed()));
        us.push((2, Just(U::CondX).boxed()));
    }
    let u = proptest::strategy::Union::new_weighted(us);
    // `untouched` and the boolean facts it might leak come often, so that a clause after an
    // `untouched` can depend on what it assumed.
    prop_oneof![
        1 => Just(Post::XEqV),
        1 => Just(Post::YEqV),
        1 => Just(Post::XEqOldX),
        1 => Just(Post::YEqOldY),
        1 => Just(Post::XEqOldXPlusV),
        2 => Just(Post::B),
        2 => Just(Post::NotB),
        1 => Just(Post::CondXV),
        1 => Just(Post::XGeV),
        1 => Just(Post::FEqOldF),
        1 => Just(Post::YEqG),
        4 => u.prop_map(Post::Untouched),
    ]
    .boxed()
}

/// A pure body; `calls_f` allows `f()` (in `f` itself, or in `g` which precedes `f`);
/// `using` allows `using` of either method.
fn pure_body(calls_g: bool, calls_f: bool, using: bool) -> BoxedStrategy<PureBody> {
    (any::<bool>(), pure_expr(calls_g, calls_f, using))
        .prop_map(|(opening, expr)| PureBody { opening, expr })
        .boxed()
}

fn pure_expr(calls_g: bool, calls_f: bool, using: bool) -> BoxedStrategy<PE> {
    let mut leaves = vec![Just(PE::X).boxed(), konst().prop_map(PE::K).boxed()];
    if calls_g {
        leaves.push(Just(PE::G).boxed());
    }
    if calls_f {
        leaves.push(Just(PE::F).boxed());
    }
    proptest::strategy::Union::new(leaves)
        .prop_recursive(2, 6, 2, move |inner| {
            let mut wrapped = vec![
                inner.clone().prop_map(|e| PE::Plus1(Box::new(e))).boxed(),
                (konst(), inner.clone(), inner.clone())
                    .prop_map(|(k, a, b)| PE::Cond(k, Box::new(a), Box::new(b)))
                    .boxed(),
            ];
            if using {
                wrapped.push(inner.clone().prop_map(|e| PE::UsingF(Box::new(e))).boxed());
                wrapped.push(inner.prop_map(|e| PE::UsingG(Box::new(e))).boxed());
            }
            proptest::strategy::Union::new(wrapped)
        })
        .boxed()
}

fn pre() -> impl Strategy<Value = Pre> {
    prop_oneof![Just(Pre::Acc), Just(Pre::P)]
}

fn test_stmt(f: Features) -> BoxedStrategy<T> {
    if f.arrays {
        return prop_oneof![
            4 => call_w(),
            // Mostly the element's value before the calls, which `untouched` keeps.
            3 => (0u8..3).prop_map(|i| T::AssertC(i, i)),
            1 => (0u8..3, 0u8..3).prop_map(|(i, k)| T::AssertC(i, k)),
            1 => Just(T::CallMAgain),
            1 => Just(T::AssertFalse),
        ]
        .boxed();
    }
    if f.use_pure {
        return prop_oneof![
            3 => Just(T::UseF),
            3 => Just(T::UseG),
            2 => Just(T::CallF),
            2 => Just(T::CallG),
            1 => Just(T::AssertFX),
            1 => Just(T::AssertXK0),
            1 => Just(T::CallMAgain),
            1 => Just(T::AssertFalse),
        ]
        .boxed();
    }
    prop_oneof![
        1 => Just(T::AssertXK1),
        1 => Just(T::AssertYK1),
        1 => Just(T::AssertXK0),
        1 => Just(T::AssertYK2),
        1 => Just(T::AssertFalse),
        1 => Just(T::AssertFX),
        3 => Just(T::CallF),
        3 => Just(T::CallG),
        1 => Just(T::CloseP),
        1 => Just(T::OpenP),
        2 => Just(T::CallMAgain),
        1 => Just(T::CallMOther),
        1 => Just(T::AssertOtherX),
        1 => Just(T::MoveAO),
        1 => Just(T::MoveOA),
        1 => Just(T::MoveOO),
    ]
    .boxed()
}

/// `a.w(c, i, j, k1)`, half the time with `i = j`.
fn call_w() -> BoxedStrategy<T> {
    prop_oneof![
        (0u8..3).prop_map(|i| T::CallW(i, i)),
        (0u8..3, 0u8..3).prop_map(|(i, j)| T::CallW(i, j)),
    ]
    .boxed()
}

/// The driver's statements after `a.m(k1, b1)`; with `arrays`, a call of `w` comes first.
fn driver(f: Features) -> BoxedStrategy<Vec<T>> {
    if !f.arrays {
        return prop::collection::vec(test_stmt(f), 0..4).boxed();
    }
    (call_w(), prop::collection::vec(test_stmt(f), 0..5))
        .prop_map(|(call, rest)| std::iter::once(call).chain(rest).collect())
        .boxed()
}

fn accs() -> impl Strategy<Value = Accs> {
    prop_oneof![Just(Accs::O), Just(Accs::Q), Just(Accs::Both)]
}

fn mover(f: Features) -> BoxedStrategy<Mover> {
    let mut stmts = vec![Just(NS::WriteO).boxed(), Just(NS::WriteQ).boxed()];
    if f.assign_params {
        stmts.push(Just(NS::OFromQ).boxed());
        stmts.push(Just(NS::QFromO).boxed());
    }
    let stmt = proptest::strategy::Union::new(stmts);
    (accs(), accs(), prop::collection::vec(stmt, 0..3))
        .prop_map(|(pre, post, body)| Mover { pre, post, body })
        .boxed()
}

fn array_stmt() -> BoxedStrategy<AS> {
    // The writes that leave the contents as they were (for some `i`, `j`) come more often.
    let leaf = prop_oneof![
        2 => Just(AS::ReadBack),
        2 => Just(AS::CopyJToI),
        1 => Just(AS::CopyIToJ),
        1 => Just(AS::SetI),
        1 => Just(AS::SetJPlus1),
        1 => Just(AS::Bump0),
        2 => Just(AS::Swap),
        2 => Just(AS::WriteAndRestore),
    ];
    leaf.prop_recursive(1, 4, 2, |inner| {
        let block = prop::collection::vec(inner, 0..3);
        (konst(), block.clone(), block).prop_map(|(k, a, b)| AS::IfV(k, a, b))
    })
    .boxed()
}

fn array_mutator(f: Features) -> BoxedStrategy<Option<ArrayMutator>> {
    if !f.arrays {
        return Just(None).boxed();
    }
    let rel = prop_oneof![1 => Just(Rel::Any), 2 => Just(Rel::Same), 1 => Just(Rel::Different)];
    let clause = prop_oneof![
        4 => Just(AP::Untouched),
        1 => Just(AP::IEqV),
        1 => Just(AP::JEqOldJ),
        1 => Just(AP::IEqOldJ),
        1 => Just(AP::JEqOldI),
        1 => Just(AP::ZeroEqOld),
        1 => Just(AP::LengthEqOld),
    ];
    // Most postconditions start with `untouched`, and a third of the bodies are empty, so that
    // callers often rely on `untouched` (the repairs drop the clauses a body breaks).
    (
        rel,
        prop_oneof![1 => Just(Vec::new()), 2 => prop::collection::vec(array_stmt(), 1..3)],
        prop::option::weighted(0.75, Just(AP::Untouched)),
        prop::collection::vec(clause, 0..3),
    )
        .prop_map(|(rel, body, first, rest)| {
            let post = first.into_iter().chain(rest).collect();
            Some(ArrayMutator { rel, body, post })
        })
        .boxed()
}

fn program(f: Features) -> impl Strategy<Value = Prog> {
    let pbody = prop_oneof![
        Just(PBody::True),
        Just(PBody::XGe0),
        konst().prop_map(PBody::XNe)
    ];
    (
        (pbody, pre(), pure_body(false, f.recursive_pure, f.use_pure)),
        (
            pre(),
            pure_body(true, f.recursive_pure, f.use_pure),
            any::<bool>(),
        ),
        prop::collection::vec(stmt(f), 0..4),
        (leading_untouched(f), prop::collection::vec(post(f), 0..4)),
        driver(f),
        (
            prop::collection::vec((konst(), konst(), konst(), any::<bool>()), 1..5),
            mover(f),
            array_mutator(f),
        ),
    )
        .prop_map(
            move |(
                (pbody, g_pre, g_body),
                (f_pre, f_body, v_nonneg),
                body,
                (first, rest),
                test,
                (samples, n, w),
            )| Prog {
                n,
                pbody,
                g_pre,
                g_body,
                f_pre,
                f_body,
                v_nonneg,
                body,
                post: first.into_iter().chain(rest).collect(),
                test,
                samples,
                w,
            },
        )
        .prop_map(move |p| if f.arrays { only_arrays(p) } else { p })
}

/// The program without what the `arrays` class does not call: `m`'s body and postcondition,
/// the pure bodies (their failures would use up the repairs).
fn only_arrays(p: Prog) -> Prog {
    let simple = PureBody {
        opening: false,
        expr: PE::X,
    };
    Prog {
        body: Vec::new(),
        post: Vec::new(),
        g_pre: Pre::Acc,
        g_body: simple.clone(),
        f_pre: Pre::Acc,
        f_body: simple,
        ..p
    }
}

/// With `untouched_cond`, half the postconditions start with a conditional `untouched`, so that
/// the clauses after it are checked in what it leaves assumed.
fn leading_untouched(f: Features) -> BoxedStrategy<Option<Post>> {
    if !f.untouched_cond {
        return Just(None).boxed();
    }
    prop::option::of(prop_oneof![
        Just(Post::Untouched(U::CondB)),
        Just(Post::Untouched(U::CondV))
    ])
    .boxed()
}

fn render_e(e: &E) -> String {
    match e {
        E::V => "v".into(),
        E::X => "this.x".into(),
        E::Y => "this.y".into(),
        E::K(k) => k.to_string(),
        E::VPlus1 => "v + 1".into(),
        E::XPlusV => "this.x + v".into(),
    }
}

fn render_s(s: &S, out: &mut String, indent: usize) {
    let pad = "  ".repeat(indent);
    let block = |b: &[S], out: &mut String| {
        for s in b {
            render_s(s, out, indent + 1);
        }
    };
    match s {
        S::AssignX(e) => out.push_str(&format!("{pad}this.x := {};\n", render_e(e))),
        S::AssignY(e) => out.push_str(&format!("{pad}this.y := {};\n", render_e(e))),
        S::YFromF => out.push_str(&format!("{pad}this.y := this.f();\n")),
        S::YFromG => out.push_str(&format!("{pad}this.y := this.g();\n")),
        S::AssignV(e) => out.push_str(&format!("{pad}v := {};\n", render_e(e))),
        S::FlipB => out.push_str(&format!("{pad}b := !b;\n")),
        S::IfB(a, b) | S::IfV(_, a, b) => {
            let cond = match s {
                S::IfV(k, ..) => format!("v > {k}"),
                _ => "b".into(),
            };
            out.push_str(&format!("{pad}if ({cond}) {{\n"));
            block(a, out);
            out.push_str(&format!("{pad}}} else {{\n"));
            block(b, out);
            out.push_str(&format!("{pad}}}\n"));
        }
        S::LocalLoop(k, y) => {
            let y = if *y { " this.y := this.y + 1;" } else { "" };
            out.push_str(&format!(
                "{pad}if (true) {{ int i := 0; while (i < {k}) invariant acc(this.x) * acc(this.y) * (i >= 0); {{ i := i + 1;{y} }} }}\n"
            ));
        }
        S::CountDown(nonneg, y) => {
            let inv = if *nonneg { " * (v >= 0)" } else { "" };
            let y = if *y { " this.y := this.y + 1;" } else { "" };
            out.push_str(&format!(
                "{pad}while (v > 0) invariant acc(this.x) * acc(this.y){inv}; {{ v := v - 1;{y} }}\n"
            ));
        }
    }
}

fn render_u(u: &U) -> &'static str {
    match u {
        U::X => "acc(this.x)",
        U::Y => "acc(this.y)",
        U::P => "this.p()",
        U::CondB => "b ? acc(this.x) : acc(this.y)",
        U::CondV => "v > 0 ? acc(this.x) : acc(this.y)",
        U::CondX => "this.x > 0 ? acc(this.y) : acc(this.x)",
    }
}

fn render_post(p: &Post) -> String {
    match p {
        Post::XEqV => "this.x = v".into(),
        Post::YEqV => "this.y = v".into(),
        Post::XEqOldX => "this.x = old(this.x)".into(),
        Post::YEqOldY => "this.y = old(this.y)".into(),
        Post::XEqOldXPlusV => "this.x = old(this.x) + v".into(),
        Post::B => "b".into(),
        Post::NotB => "!b".into(),
        Post::CondXV => "(b ? this.x = v : this.y = v)".into(),
        Post::XGeV => "this.x >= v".into(),
        Post::FEqOldF => "this.f() = old(this.f())".into(),
        Post::YEqG => "this.y = this.g()".into(),
        Post::Untouched(u) => format!("untouched({})", render_u(u)),
    }
}

fn render_pe(e: &PE) -> String {
    match e {
        PE::X => "this.x".into(),
        PE::K(k) => k.to_string(),
        PE::G => "this.g()".into(),
        PE::F => "this.f()".into(),
        PE::Plus1(e) => format!("{} + 1", render_pe(e)),
        PE::Cond(k, a, b) => format!("(this.x > {k} ? {} : {})", render_pe(a), render_pe(b)),
        PE::UsingF(e) => format!("(using this.f() in {})", render_pe(e)),
        PE::UsingG(e) => format!("(using this.g() in {})", render_pe(e)),
    }
}

fn render_body(b: &PureBody) -> String {
    if b.opening {
        format!("opening this.p() in {}", render_pe(&b.expr))
    } else {
        render_pe(&b.expr)
    }
}

fn render_as(s: &AS, out: &mut String) {
    let block = |b: &[AS], out: &mut String| b.iter().for_each(|s| render_as(s, out));
    match s {
        AS::ReadBack => out.push_str(" a[i] := a[i];"),
        AS::CopyJToI => out.push_str(" a[i] := a[j];"),
        AS::CopyIToJ => out.push_str(" a[j] := a[i];"),
        AS::SetI => out.push_str(" a[i] := v;"),
        AS::SetJPlus1 => out.push_str(" a[j] := v + 1;"),
        AS::Bump0 => out.push_str(" a[0] := a[0] + 1;"),
        AS::Swap => out.push_str(" if (true) { int t := a[i]; a[i] := a[j]; a[j] := t; }"),
        AS::WriteAndRestore => out.push_str(" if (true) { int t := a[j]; a[j] := v; a[j] := t; }"),
        AS::IfV(k, a, b) => {
            out.push_str(&format!(" if (v > {k}) {{"));
            block(a, out);
            out.push_str(" } else {");
            block(b, out);
            out.push_str(" }");
        }
    }
}

fn render_ap(p: &AP) -> &'static str {
    match p {
        AP::Untouched => "untouched(acc(a.elems))",
        AP::IEqV => "(a[i] = v)",
        AP::JEqOldJ => "(a[j] = old(a[j]))",
        AP::IEqOldJ => "(a[i] = old(a[j]))",
        AP::JEqOldI => "(a[j] = old(a[i]))",
        AP::ZeroEqOld => "(a[0] = old(a[0]))",
        AP::LengthEqOld => "(a.length = old(a.length))",
    }
}

/// `w(int[] a, int i, int j, int v)`: writes `a` at two valid indices.
fn render_w(w: &ArrayMutator) -> String {
    let rel = match w.rel {
        Rel::Any => "",
        Rel::Same => " * (i = j)",
        Rel::Different => " * (i != j)",
    };
    let mut post = String::from("acc(a.elems)");
    for c in &w.post {
        post.push_str(" * ");
        post.push_str(render_ap(c));
    }
    let mut body = String::new();
    w.body.iter().for_each(|s| render_as(s, &mut body));
    format!(
        "  void w(int[] a, int i, int j, int v)\n\
         \x20   requires a != null * acc(a.elems) * (0 <= i && i < a.length && 0 <= j && j < a.length){rel};\n\
         \x20   ensures {post};\n  {{{body} }}\n"
    )
}

fn render_accs(a: Accs) -> &'static str {
    match a {
        Accs::O => "acc(o.y)",
        Accs::Q => "acc(q.y)",
        Accs::Both => "acc(o.y) * acc(q.y)",
    }
}

fn render_mover(n: &Mover) -> String {
    let body: Vec<&str> = n
        .body
        .iter()
        .map(|s| match s {
            NS::WriteO => "o.y := 1;",
            NS::WriteQ => "q.y := 2;",
            NS::OFromQ => "o := q;",
            NS::QFromO => "q := o;",
        })
        .collect();
    format!(
        "  void n(A o, A q) requires (o != null) * (q != null) * {}; ensures {}; {{ {} }}\n",
        render_accs(n.pre),
        render_accs(n.post),
        body.join(" ")
    )
}

fn render_pre(p: Pre) -> &'static str {
    match p {
        Pre::Acc => "acc(this.x)",
        Pre::P => "this.p()",
    }
}

fn render_t(i: usize, t: &T) -> String {
    let s = match t {
        T::AssertXK1 => "assert a.x = k1;",
        T::AssertYK1 => "assert a.y = k1;",
        T::AssertXK0 => "assert a.x = k0;",
        T::AssertYK2 => "assert a.y = k2;",
        T::AssertFalse => "assert false;",
        T::AssertFX => "assert a.f() = a.x;",
        T::CallF => return format!("int r{i} := a.f();"),
        T::CallG => return format!("int s{i} := a.g();"),
        T::CloseP => "close a.p();",
        T::OpenP => "open a.p();",
        T::CallMAgain => "a.m(k2, !b1);",
        T::CallMOther => "o.m(k0, b1);",
        T::AssertOtherX => "assert o.x = k1;",
        T::MoveAO => "a.n(a, o);",
        T::MoveOA => "a.n(o, a);",
        T::MoveOO => "a.n(o, o);",
        T::UseF => "use a.f();",
        T::UseG => "use a.g();",
        T::CallW(i, j) => return format!("a.w(c, {i}, {j}, k1);"),
        T::AssertC(i, k) => return format!("assert c[{i}] = k{k};"),
    };
    s.to_string()
}

/// The program with `main` calling the driver on one sample.
fn render(p: &Prog, sample: (i8, i8, i8, bool)) -> String {
    let pbody = match p.pbody {
        PBody::True => String::new(),
        PBody::XGe0 => " * (this.x >= 0)".into(),
        PBody::XNe(k) => format!(" * (this.x != {k})"),
    };
    let mut body = String::new();
    for s in &p.body {
        render_s(s, &mut body, 2);
    }
    let mut post = String::from("acc(this.x) * acc(this.y)");
    for c in &p.post {
        // Parenthesised: `x >= v * x = v` would be a multiplication.
        post.push_str(&format!(" * ({})", render_post(c)));
    }
    let vpre = if p.v_nonneg { " * (v >= 0)" } else { "" };
    let assume = if p.v_nonneg { "assume k1 >= 0; " } else { "" };
    let test: Vec<String> = p
        .test
        .iter()
        .enumerate()
        .map(|(i, t)| render_t(i, t))
        .collect();
    let (k0, k1, k2, b1) = sample;
    let (w, array) = match &p.w {
        Some(w) => (
            render_w(w),
            " int[] c := new int[3]; c[0] := k0; c[1] := k1; c[2] := k2;",
        ),
        None => (String::new(), ""),
    };
    format!(
        "class A {{\n  int x; int y;\n\
         \x20 predicate p() {{ return acc(this.x){pbody}; }}\n\
         \x20 pure int g() requires {}; {{ return {}; }}\n\
         \x20 pure int f() requires {}; {{ return {}; }}\n\
         \x20 void m(int v, bool b) requires acc(this.x) * acc(this.y){vpre};\n\
         \x20   ensures {post};\n  {{\n{body}  }}\n{}{w}}}\n\
         class Main {{\n  void test(int k0, int k1, int k2, bool b1) {{\n\
         \x20   {assume}A o := new A; o.x := k1; A a := new A; a.x := k0; a.y := k2; a.m(k1, b1);{array}\n    {}\n  }}\n}}\n\
         main {{ Main d := new Main; d.test({k0}, {k1}, {k2}, {b1}); }}\n",
        render_pre(p.g_pre),
        render_body(&p.g_body),
        render_pre(p.f_pre),
        render_body(&p.f_body),
        render_mover(&p.n),
        test.join(" "),
    )
}

#[derive(Default, Debug)]
struct Counts {
    programs: u64,
    /// Whether a program the front end rejects is skipped (a hole class) or a failure (baseline).
    rejected_allowed: bool,
    rejected: u64,
    /// The number of the first program whose run violated a check (shrinking follows).
    first_violation: Option<u64>,
    verifications: u64,
    verified: u64,
    /// Verified programs whose `w` ensures `untouched(acc(a.elems))` and whose driver calls `w`
    /// and then reads the array (feature `arrays`).
    untouched_arrays_read: u64,
    runs: u64,
    completed: u64,
    blocked: u64,
    limits: u64,
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect()
}

/// Whether a statement of the driver is the failing part (or contains it), spaces ignored.
fn same_statement(stmt: &str, part: &str) -> bool {
    let (a, b) = (squash(stmt), squash(part));
    !b.is_empty() && (a.contains(&b) || b.contains(&a))
}

/// Whether a (parenthesised) clause of the postcondition is the failing part.
fn same_clause(clause: &str, part: &str) -> bool {
    let (a, b) = (squash(clause), squash(part));
    a == b || format!("({a})") == b || format!("({b})") == a
}

fn drop_pure_calls(body: &mut Vec<S>) {
    body.retain(|s| !matches!(s, S::YFromF | S::YFromG));
    for s in body {
        if let S::IfB(a, b) | S::IfV(_, a, b) = s {
            drop_pure_calls(a);
            drop_pure_calls(b);
        }
    }
}

/// Removes the part a verification failure names: a statement of the driver, a clause of `m`'s
/// postcondition, pure calls in `m`'s body, a pure method's body. Random programs rarely verify
/// whole; this keeps every part the verifier accepted (the ones that exercise a hole).
fn repair(p: &mut Prog, member: &str, part: &str) -> bool {
    match member {
        "Main.test" => {
            let before = p.test.len();
            p.test.retain(|t| !same_statement(&render_t(0, t), part));
            if p.test.len() == before {
                p.test.clear();
            }
            before > 0
        }
        "A.m" => {
            let before = (p.post.len(), p.body.len());
            p.post.retain(|c| !same_clause(&render_post(c), part));
            if p.post.len() == before.0 {
                if part.contains("f()") || part.contains("g()") {
                    drop_pure_calls(&mut p.body);
                } else {
                    p.body.clear();
                    p.post.clear();
                    p.v_nonneg = false;
                }
            }
            before != (p.post.len(), p.body.len()) || before.0 > 0
        }
        "A.w" => {
            let Some(w) = &mut p.w else {
                return false;
            };
            let before = w.post.len();
            w.post.retain(|c| !same_clause(render_ap(c), part));
            if w.post.len() == before {
                w.body.clear();
                w.post.clear();
            }
            true
        }
        "A.n" => {
            p.n = Mover {
                pre: Accs::O,
                post: Accs::O,
                body: Vec::new(),
            };
            true
        }
        "A.f" | "A.g" => {
            let simple = PureBody {
                opening: false,
                expr: PE::X,
            };
            if member == "A.f" {
                p.f_pre = Pre::Acc;
                p.f_body = simple;
            } else {
                p.g_pre = Pre::Acc;
                p.g_body = simple;
            }
            true
        }
        _ => false,
    }
}

/// The program the verifier accepts after at most a few repairs, if any.
fn verified_version(p: &Prog, counts: &mut Counts) -> Result<Option<Prog>, TestCaseError> {
    let mut p = p.clone();

    for _ in 0..6 {
        let src = render(&p, p.samples[0]);
        counts.verifications += 1;
        // A front end that rejects a construct (e.g. assigning a parameter, should the verifier
        // forbid it) leaves nothing to run; the count is printed, and the baseline needs none.
        let report = match symex_idf::verify_source(&src, Default::default()) {
            Ok(report) => report,
            Err(_) if counts.rejected_allowed => {
                counts.rejected += 1;
                return Ok(None);
            }
            Err(d) => {
                return Err(TestCaseError::fail(format!(
                    "generated program does not check: {d:?}\n{src}"
                )))
            }
        };
        let failed: Vec<_> = report
            .members
            .iter()
            .filter_map(|m| match &m.status {
                Status::Failed(f) => Some((m.name.clone(), f.clone())),
                Status::Verified => None,
            })
            .collect();
        if failed.is_empty() {
            return Ok(Some(p));
        }
        let mut changed = false;
        for (member, f) in failed {
            if f.inconclusive {
                return Ok(None);
            }
            let part = format!(
                "{} {}",
                src.get(f.span.start..f.span.end).unwrap_or(""),
                f.message
            );
            let part = src
                .get(f.span.start..f.span.end)
                .filter(|t| !t.is_empty())
                .map_or(part, str::to_string);
            changed |= repair(&mut p, &member, &part);
        }
        if !changed {
            return Ok(None);
        }
    }
    Ok(None)
}

fn reads_an_untouched_array(p: &Prog) -> bool {
    let untouched =
        p.w.as_ref()
            .is_some_and(|w| w.post.iter().any(|c| matches!(c, AP::Untouched)));
    let call = p.test.iter().position(|t| matches!(t, T::CallW(..)));
    untouched && call.is_some_and(|c| p.test[c..].iter().any(|t| matches!(t, T::AssertC(..))))
}

/// Verifies the program (repairing it as above) and, when it verifies, runs it on every sample:
/// a violation is a failure of the case.
fn check(p: &Prog, counts: &mut Counts) -> Result<(), TestCaseError> {
    counts.programs += 1;
    let Some(p) = verified_version(p, counts)? else {
        return Ok(());
    };
    counts.verified += 1;
    if reads_an_untouched_array(&p) {
        counts.untouched_arrays_read += 1;
    }
    let config = RunConfig {
        max_steps: 100_000,
        max_depth: 200,
    };
    for sample in &p.samples {
        let src = render(&p, *sample);
        let run = symex_idf::run::run_source(&src, config.clone())
            .map_err(|d| TestCaseError::fail(format!("{d:?}")))?;
        counts.runs += 1;
        match run.outcome {
            Outcome::Completed => counts.completed += 1,
            Outcome::Blocked(_) => counts.blocked += 1,
            Outcome::Limit(..) => counts.limits += 1,
            Outcome::Violation(v) => {
                let (line, _) = symex_idf::diagnostics::line_col(&src, v.span.start);
                return Err(TestCaseError::fail(format!(
                    "the verifier accepts this program, but its run violates the {} of {} at line {line}: {} {:?}\n{src}",
                    v.check, v.member, v.message, v.notes
                )));
            }
        }
    }
    Ok(())
}

fn env_u32(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Runs one class: fails with the shrunk program when a verified program's run violates a check.
fn fuzz(class: &str, features: Features, default_cases: u32) {
    let cases = env_u32("SOUNDNESS_FUZZ_CASES", default_cases);
    let seed = env_u32("SOUNDNESS_FUZZ_SEED", 1);
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..4].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 2000,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let counts = std::cell::RefCell::new(Counts {
        rejected_allowed: features.assign_params
            || features.untouched_cond
            || features.recursive_pure
            || features.use_pure
            || features.arrays,
        ..Counts::default()
    });
    let result = runner.run(&program(features), |p| {
        let mut c = counts.borrow_mut();
        let r = check(&p, &mut c);
        if r.is_err() && c.first_violation.is_none() {
            c.first_violation = Some(c.programs);
        }
        r
    });
    let c = counts.into_inner();
    println!(
        "soundness fuzz [{class}] seed {seed}: {} programs generated (shrinking included), {} verifier calls, \
         {} verified, {} runs ({} completed, {} stopped by an assume, {} at a limit)",
        c.programs, c.verifications, c.verified, c.runs, c.completed, c.blocked, c.limits
    );
    if features.arrays {
        println!(
            "soundness fuzz [{class}]: {} verified programs read an array after a call ensuring untouched(acc(a.elems))",
            c.untouched_arrays_read
        );
        assert!(
            c.untouched_arrays_read * 10 >= c.verified,
            "[{class}] too few verified programs rely on untouched(acc(a.elems)): the generator needs repair"
        );
    }
    if c.rejected > 0 {
        println!(
            "soundness fuzz [{class}]: {} programs rejected by the front end",
            c.rejected
        );
    }
    if let Some(n) = c.first_violation {
        println!(
            "soundness fuzz [{class}]: the first violation came with program {n}, then shrinking"
        );
    }
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, _)) => panic!("[{class}] minimal failing program: {why}"),
        Err(e) => panic!("[{class}] {e}"),
    }
    // A fuzzer whose programs never verify checks nothing: most of those the front end accepts
    // must reach a run.
    assert!(
        c.verified * 2 >= c.programs - c.rejected,
        "[{class}] only {} of {} generated programs verified: the generator needs repair",
        c.verified,
        c.programs - c.rejected
    );
}

#[test]
fn baseline_verified_programs_run_without_violations() {
    fuzz("baseline", Features::default(), 200);
}

#[test]
fn hole_1_assigned_parameters() {
    fuzz(
        "assign_params",
        Features {
            assign_params: true,
            ..Features::default()
        },
        100,
    );
}

#[test]
fn hole_2_untouched_with_a_conditional() {
    fuzz(
        "untouched_cond",
        Features {
            untouched_cond: true,
            ..Features::default()
        },
        100,
    );
}

#[test]
fn hole_3_recursive_pure_calls_inside_opening() {
    fuzz(
        "recursive_pure",
        Features {
            recursive_pure: true,
            ..Features::default()
        },
        100,
    );
}

#[test]
fn use_and_using_of_pure_methods_including_recursion() {
    fuzz(
        "use_pure",
        Features {
            use_pure: true,
            ..Features::default()
        },
        100,
    );
}

#[test]
fn untouched_with_a_conditional_and_recursive_use() {
    fuzz(
        "untouched_cond+use_pure",
        Features {
            untouched_cond: true,
            use_pure: true,
            recursive_pure: true,
            ..Features::default()
        },
        60,
    );
}

#[test]
fn arrays_written_at_two_indices_with_untouched_and_element_facts() {
    fuzz(
        "arrays",
        Features {
            arrays: true,
            ..Features::default()
        },
        100,
    );
}

/// Every example of `examples/idf/` that verifies runs without a violation (the hand-written
/// counterpart of the generated programs); at least the paper's Figures 2, 3, 9 and 10 run.
#[test]
fn verified_examples_run_without_violations() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/idf");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("examples/idf exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "idf"))
        .collect();
    paths.sort();
    let mut ran = Vec::new();
    for path in paths {
        let src = std::fs::read_to_string(&path).unwrap();
        let Ok(report) = symex_idf::verify_source(&src, Default::default()) else {
            continue;
        };
        if !report.verified() {
            continue;
        }
        let run = symex_idf::run::run_source(&src, RunConfig::default()).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            matches!(run.outcome, Outcome::Completed | Outcome::Blocked(_)),
            "{name} verifies but its run ends with {:?}",
            run.outcome
        );
        if run.steps > 0 {
            ran.push(name);
        }
    }
    println!("verified examples whose main ran: {}", ran.join(", "));
    for fig in ["cell_fig2", "cell_fig3", "cell_fig9", "iterator_fig10"] {
        assert!(ran.iter().any(|n| n.starts_with(fig)), "{fig} did not run");
    }
}

/// The mutants of the snapshot examples (open/close identity, `fromT`/`toT` injectivity, pair
/// snapshots, `untouched` over a conditional, array contents), of `return` in a loop, `join` in
/// a branch and a pure call after an inferred close fail in the verifier (their `.expected` files)
/// and their runs violate a check: the executor agrees with the verdict on both sides.
#[test]
fn snapshot_mutants_violate_a_check_at_run_time() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/idf");
    for name in [
        "snapshot_open_close",
        "snapshot_injective",
        "snapshot_pair",
        "untouched_cond_values",
        "return_in_loop",
        "join_in_branch",
        "snapshot_arrays",
        "termination_inferred_close",
        "use_across_branches",
    ] {
        let verified = std::fs::read_to_string(dir.join(format!("{name}.idf"))).unwrap();
        let report = symex_idf::verify_source(&verified, Default::default()).unwrap();
        assert!(report.verified(), "{name} does not verify");
        let run = symex_idf::run::run_source(&verified, RunConfig::default()).unwrap();
        assert_eq!(run.outcome, Outcome::Completed, "{name}");
        let mutant = std::fs::read_to_string(dir.join(format!("mutant_{name}.idf"))).unwrap();
        let report = symex_idf::verify_source(&mutant, Default::default()).unwrap();
        assert!(!report.verified(), "mutant_{name} verifies");
        let run = symex_idf::run::run_source(&mutant, RunConfig::default()).unwrap();
        assert!(
            matches!(run.outcome, Outcome::Violation(_)),
            "mutant_{name} runs to {:?}",
            run.outcome
        );
    }
}
