//! `symex bmc` against `symex run` on generated programs (the generator of `symex-explore`'s property
//! test, copied: test code of another crate cannot be imported). Both must give the same verdict — `run`
//! explores every path, so its answer is the ground truth here — and every `false` of BMC must replay,
//! in the concrete interpreter (checked before BMC reports it) and in the native sanitizer build.
//! The programs' only loops run at most 3 times, so at `--unwind 4` BMC must answer `true` or `false`.

use std::path::Path;
use symex_bmc::{Class, Options, Verdict};
use symex_engine::{Program, TestFile};
use symex_explore::searcher::Rng;
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

// ---- the generator of crates/symex-explore/tests/properties.rs ----

fn generate(seed: u64) -> String {
    let mut g = Gen {
        rng: Rng::new(seed),
        out: String::new(),
    };
    g.out.push_str(
        "#include <stdlib.h>\nint __VERIFIER_nondet_int(void);\n\
         static const int table[4] = {5, -3, 8, 0};\n\
         int main(void) {\n  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int(), \
         c = __VERIFIER_nondet_int();\n  int arr[4] = {1, -2, 3, 0};\n",
    );
    g.block(2, 4);
    g.out.push_str("  return 0;\n}\n");
    g.out
}

struct Gen {
    rng: Rng,
    out: String,
}

const VARS: [&str; 3] = ["a", "b", "c"];

impl Gen {
    fn var(&mut self) -> &'static str {
        VARS[self.rng.below(3)]
    }

    fn expr(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.below(3) == 0 {
            return match self.rng.below(3) {
                0 => (self.rng.below(21) as i64 - 10).to_string(),
                _ => self.var().to_string(),
            };
        }
        let (l, r) = (self.expr(depth - 1), self.expr(depth - 1));
        match self.rng.below(8) {
            0 => format!("({l} + {r})"),
            1 => format!("({l} - {r})"),
            2 => format!("({l} * {})", self.rng.below(7) as i64 - 3),
            3 => format!("({l} & {r})"),
            4 => format!("({l} ^ {r})"),
            5 => format!("({l} / ((({r}) & 7) + 1))"),
            6 => format!("table[({l}) & 3]"),
            _ => format!("arr[({l}) & 3]"),
        }
    }

    fn cond(&mut self) -> String {
        let ops = ["<", "<=", "==", "!=", ">", ">="];
        let op = ops[self.rng.below(ops.len())];
        format!("{} {op} {}", self.expr(2), self.expr(1))
    }

    fn block(&mut self, depth: u32, len: usize) {
        let n = 1 + self.rng.below(len);
        for _ in 0..n {
            self.stmt(depth);
        }
    }

    fn stmt(&mut self, depth: u32) {
        let pad = "  ".repeat(4 - depth as usize);
        match if depth == 0 { 0 } else { self.rng.below(6) } {
            0 | 1 => {
                let v = self.var();
                let e = self.expr(2);
                self.out.push_str(&format!("{pad}{v} = {e};\n"));
            }
            2 | 3 => {
                let c = self.cond();
                self.out.push_str(&format!("{pad}if ({c}) {{\n"));
                self.block(depth - 1, 3);
                self.out.push_str(&format!("{pad}}} else {{\n"));
                self.block(depth - 1, 3);
                self.out.push_str(&format!("{pad}}}\n"));
            }
            4 if self.rng.below(2) == 0 => {
                let (i, e) = (self.expr(1), self.expr(2));
                self.out.push_str(&format!("{pad}arr[({i}) & 3] = {e};\n"));
            }
            4 => {
                let (v, w) = (self.var(), self.var());
                self.out.push_str(&format!(
                    "{pad}for (int i = 0; i < ({w} & 3); i++) {{ {v} = {v} + i; }}\n"
                ));
            }
            _ => {
                let c = self.cond();
                self.out.push_str(&format!("{pad}if ({c}) abort();\n"));
            }
        }
    }
}
