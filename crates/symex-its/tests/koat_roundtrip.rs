//! Every competition `.koat` file parses, and printing it gives the same ITS back: the same
//! structure, and the same runs of the interpreter.
mod common;

use symex_its::interp::{Interpreter, Rng, RunConfig};
use symex_its::parse_koat;
use symex_its::print::{to_dot, to_koat};

#[test]
fn every_benchmark_parses_and_round_trips() {
    let Some(dir) = common::koat_dir() else {
        return;
    };
    let files = common::koat_files(&dir);
    assert_eq!(files.len(), 838, "the set has 838 files");
    for (k, f) in files.iter().enumerate() {
        let src = std::fs::read_to_string(f).unwrap();
        let its = parse_koat(&src).unwrap_or_else(|e| panic!("{}:{e}", f.display()));
        let printed = to_koat(&its);
        let back = parse_koat(&printed)
            .unwrap_or_else(|e| panic!("{} printed:\n{printed}\n{e}", f.display()));
        for (t, u) in its.transitions.iter().zip(&back.transitions) {
            assert!(
                t == u,
                "{}: `{}` printed back as `{}`",
                f.display(),
                symex_its::print::rule(&its, t),
                symex_its::print::rule(&back, u)
            );
        }
        assert!(its == back, "{} differs after printing", f.display());
        assert!(to_dot(&its).starts_with("digraph"));
        // Runs agree on a sample (temporaries by random choice only: the same seed must
        // give the same run).
        if k % 20 == 0 {
            let mut rng = Rng::new(k as u64);
            let cfg = RunConfig {
                max_steps: 200,
                use_solver: false,
                ..RunConfig::default()
            };
            for seed in 0..3 {
                let start: Vec<i128> = (0..its.arity()).map(|_| rng.range(-5, 20)).collect();
                let cfg = RunConfig {
                    seed,
                    ..cfg.clone()
                };
                let a = Interpreter::new(&its).run(&start, &cfg);
                let b = Interpreter::new(&back).run(&start, &cfg);
                assert_eq!(
                    (a.steps, a.cost, a.end),
                    (b.steps, b.cost, b.end),
                    "{}",
                    f.display()
                );
            }
        }
    }
}
