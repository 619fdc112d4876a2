//! The paper's `h` and `g` ([B] Fig. 1, 9, §5) with bounds in the paper's form `a·|j| + c`,
//! where `a` is the per-iteration weight in symex's IR, and the instruction counts of the
//! reference interpreter (what `symex replay` reports) compared with the bound.

use std::path::{Path, PathBuf};
use std::time::Duration;
use symex_cost::measure::{self, run_once};
use symex_cost::{analyse, program, Found, Input, Options, SizeMode};
use symex_engine::{End, Program};
use symex_ir::{FrontendOptions, Module};
use symex_term::rules::Semantics;

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/cost")
        .join(name)
}

/// The module `symex cost` analyses: promoted by mem2reg, input functions renamed.
/// Z3's resource limit per query: the bounds found must not depend on the load.
const RLIMIT: u32 = 5_000_000;

/// Only a guard against a hang: the analysis ends by counts ([`count_not_time`]).
const BACKSTOP: Duration = Duration::from_secs(600);

/// Makes this thread's queries end by Z3's step count and the back end's retries by query
/// counts, so a bound is found or not the same way on an idle and a loaded machine.
fn count_not_time() {
    symex_its::smt::set_rlimit(Some(RLIMIT));
}

fn load(path: &Path) -> Module {
    let m = symex_ir::load(path, &FrontendOptions::default().with_simplify()).expect("compiles");
    program::inputs_as_nondet(&m).0
}

fn bound_of(module: &Module, path: &Path, entry: &str) -> Found {
    let src = std::fs::read_to_string(path).expect("source");
    let n = module
        .func(module.function_by_name(entry).expect("entry"))
        .params
        .len();
    count_not_time();
    let opts = Options {
        sem: Semantics::default(),
        entry: entry.into(),
        max_time: BACKSTOP,
        param_names: program::parameter_names(&src, entry, n),
    };
    let r = analyse(module, &opts);
    r.found
        .unwrap_or_else(|| panic!("no bound: {:?}", r.reason))
}

/// The bound at `j` (and the size variables at their constants).
fn at(found: &Found, j: i128) -> i128 {
    found
        .eval(&|i| match i {
            Input::Param { .. } => j,
            Input::Size(s) => s.value(),
            Input::Nondet { .. } => 0,
        })
        .expect("finite")
}

/// Instructions of the interpreter's run of `entry(j)`, which must end.
fn measured(prog: &Program, entry: &str, j: u32) -> i128 {
    let (end, n) = run_once(prog, entry, &[j as i128], &[], false, 100_000_000);
    assert!(matches!(end, End::Exit(_)), "j = {j}: {end:?}");
    n as i128
}

#[test]
fn h_costs_four_instructions_per_iteration() {
    let path = example("h.c");
    let module = load(&path);
    assert_eq!(program::entry(&module, None).as_deref(), Ok("h"));
    let found = bound_of(&module, &path, "h");
    assert_eq!(found.class, "O(n)");
    assert_eq!(found.mode, SizeMode::Free, "no size variable is needed");
    assert!(
        found.expression().starts_with("4*|j| + "),
        "{}",
        found.expression()
    );
    // Measured: exactly 4 per iteration plus 4 (the entry's `br`; `icmp`, `br`, `ret` at the
    // end): the bound's slope is the measured one, its constant at most one iteration more.
    let prog = Program::new(module.clone());
    for j in (0..40).chain([1000, 123_457]) {
        let m = measured(&prog, "h", j);
        assert_eq!(m, 4 * j as i128 + 4, "j = {j}");
        let b = at(&found, j as i128);
        assert!(m <= b && b - m <= 4, "j = {j}: measured {m}, bound {b}");
    }
}

#[test]
fn g_needs_the_type_maximum_as_a_size_variable() {
    let path = example("g.c");
    let module = load(&path);
    let found = bound_of(&module, &path, "g");
    assert_eq!(found.class, "O(n)");
    // [B] §5: no bound with b free, one with b as an input.
    assert_eq!(found.mode, SizeMode::Inputs);
    assert!(found.uses_size_variables());
    let e = found.expression();
    assert!(e.contains("4*|b_umax32|") && e.contains("4*|j|"), "{e}");
    // From j = UINT_MAX − k the loop runs k + 1 iterations of 4 instructions; measured.
    let prog = Program::new(module.clone());
    let mut last = None;
    for k in 0..60u32 {
        let j = u32::MAX - k;
        let m = measured(&prog, "g", j);
        if let Some(prev) = last {
            assert_eq!(m - prev, 4, "one more iteration costs 4 (k = {k})");
        }
        last = Some(m);
        assert!(m <= at(&found, j as i128), "j = {j}");
    }
    // j = 0 leaves at once.
    assert!(measured(&prog, "g", 0) <= at(&found, 0));
}

#[test]
fn random_runs_stay_within_the_bounds_of_the_examples() {
    for (file, entry) in [
        ("h.c", "h"),
        ("g.c", "g"),
        ("nested.c", "nested"),
        ("two_loops.c", "main"),
        ("sum.c", "sum"),
    ] {
        let path = example(file);
        let module = load(&path);
        assert_eq!(program::entry(&module, None).as_deref(), Ok(entry));
        let found = bound_of(&module, &path, entry);
        let m = measure::check(&module, entry, &found, false, 40);
        assert!(m.violations.is_empty(), "{file}: {}", m.summary());
        // Enough runs end below the cap to judge the bound.
        assert!(m.within >= 8, "{file}: {}", m.summary());
    }
}

#[test]
fn an_overflow_ends_the_run_and_the_bound_counts_it_up_to_there() {
    let path = example("sum.c");
    let module = load(&path);
    let src = std::fs::read_to_string(&path).expect("source");
    count_not_time();
    let opts = Options {
        sem: Semantics::default(),
        entry: "sum".into(),
        max_time: BACKSTOP,
        param_names: program::parameter_names(&src, "sum", 1),
    };
    let r = analyse(&module, &opts);
    assert!(
        r.undefined_behaviour
            .iter()
            .any(|u| u.contains("sum.c:7") && u.contains("signed overflow")),
        "{:?}",
        r.undefined_behaviour
    );
    let found = r.found.expect("a bound");
    assert_eq!(found.class, "O(n)");
    // n = 70000: the sum overflows (at i = 65536); the interpreter's overflow check ends the
    // run there, within the bound at n.
    let prog = Program::new(module.clone());
    let (end, n) = run_once(&prog, "sum", &[70_000], &[], false, 10_000_000);
    assert!(matches!(end, End::Bug(_)), "{end:?}");
    assert!((n as i128) <= at(&found, 70_000));
    let (end, m) = run_once(&prog, "sum", &[1000], &[], false, 10_000_000);
    assert!(matches!(end, End::Exit(_)), "{end:?}");
    assert!((m as i128) <= at(&found, 1000) && m < n);
}

/// `run_once` counts what `symex replay` counts: `examples/term/h.c` calls `h` from `main`
/// with a `__VERIFIER_nondet_uint()` value; `symex_engine::run` (replay's interpreter, from
/// a test file) reports `main`'s count, which is `h`'s count started directly plus the same
/// three instructions of `main` (the input call, the call of `h`, `ret`) for every `j`.
#[test]
fn the_count_of_a_started_entry_is_the_count_replay_reports() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/term/h.c");
    let module = load(&path);
    let prog = Program::new(module);
    let mut overheads = Vec::new();
    for j in [0u32, 1, 7, 1000, 54_321] {
        let test = symex_engine::TestFile {
            program: None,
            entry: Some("main".into()),
            inputs: vec![symex_engine::TestInput {
                name: "__VERIFIER_nondet_uint".into(),
                bytes: j.to_le_bytes().to_vec(),
            }],
            outcome: None,
        };
        let replayed = symex_engine::run(&prog, &test, &symex_engine::RunOptions::default());
        assert!(matches!(replayed.end, End::Exit(0)), "{:?}", replayed.end);
        let direct = measured(&prog, "h", j);
        overheads.push(replayed.instructions as i128 - direct);
    }
    assert!(
        overheads.iter().all(|o| *o == overheads[0]),
        "{overheads:?}"
    );
    assert_eq!(overheads[0], 3, "{overheads:?}");
}
