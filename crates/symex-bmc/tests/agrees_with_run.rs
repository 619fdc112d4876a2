//! `symex bmc` against `symex run` on generated programs (the generator of `symex-explore`'s property
//! test, copied: test code of another crate cannot be imported). Both must give the same verdict — `run`
//! explores every path, so its answer is the ground truth here — and every `false` of BMC must replay,
//! in the concrete interpreter (checked before BMC reports it) and in the native sanitizer build.
//! The programs' only loops run at most 3 times, so at `--unwind 4` BMC must answer `true` or `false`.

#[path = "../../symex-explore/tests/generator/mod.rs"]
mod generator;

use generator::generate;
use std::path::Path;
use symex_bmc::{Class, Options, Verdict};
use symex_engine::{Program, TestFile};
use symex_explore::{Control, Explorer, PathEnd, SolverCtx};
use symex_native::{BuildOptions, RunOptions};
use symex_solver::{SolverConfig, Z3Mode};

/// Generated programs checked (fixed seeds: the suite's time stays predictable).
const SEEDS: u64 = 40;

fn load(path: &Path) -> Program {
    let m = symex_ir::load(path, &symex_ir::FrontendOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    Program::new(m)
}

/// `run`'s verdict: whether some path ends in a bug (`None` when the exploration is incomplete).
fn run_finds_a_bug(prog: &Program) -> Option<bool> {
    let ctx = SolverCtx::new(SolverConfig::default().build(), None);
    let mut bug = false;
    let s = Explorer::new(prog, symex_explore::Options::default(), ctx)
        .run(
            &mut |p| {
                bug |= matches!(p.end, PathEnd::Error(_));
                Control::Continue
            },
            &mut |_| {},
        )
        .expect("starts");
    s.complete.then_some(bug)
}

#[test]
fn bmc_and_run_agree_on_generated_programs() {
    let dir = tempfile::tempdir().unwrap();
    let (mut compared, mut falses) = (0, 0);
    for seed in 1..=SEEDS {
        let src = generate(seed);
        let path = dir.path().join(format!("gen{seed}.c"));
        std::fs::write(&path, &src).unwrap();
        let prog = load(&path);
        let Some(bug) = run_finds_a_bug(&prog) else {
            continue;
        };
        let ctx = SolverCtx::new(
            SolverConfig::default().z3_mode(Z3Mode::Bitblast).build(),
            None,
        );
        let opts = Options {
            unwind: 4,
            ..Options::default()
        };
        let r = symex_bmc::check(&prog, &opts, &|_| Class::Violation, ctx).expect("starts");
        match (&r.verdict, bug) {
            (Verdict::True, false) => {}
            (Verdict::False { inputs, .. }, true) => {
                let build = symex_native::build(&path, &BuildOptions::default())
                    .unwrap_or_else(|e| panic!("{e}"));
                let test = TestFile {
                    inputs: inputs.clone(),
                    ..TestFile::default()
                };
                let run = symex_native::run(&build, &test, &RunOptions::default());
                assert_eq!(
                    run.outcome.kind, "abort",
                    "seed {seed}: the counterexample {inputs:?} ends natively as {:?}\n{src}",
                    run.outcome
                );
                falses += 1;
            }
            (v, bug) => panic!("seed {seed}: bmc says {v:?}, run found a bug: {bug}\n{src}"),
        }
        compared += 1;
    }
    assert!(
        compared >= SEEDS as usize * 3 / 4,
        "only {compared} programs compared"
    );
    assert!(
        falses > 0 && falses < compared,
        "{falses} of {compared} false: both verdicts must be exercised"
    );
}
