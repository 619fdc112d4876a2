//! The generational search against independent ground: the lecture's table of `top()` (16 inputs, the
//! 5 with at least three of "bad!"'s letters abort), a guarded parser whose bug the search must reach, and
//! `symex run`'s set of block sequences.

use std::path::{Path, PathBuf};
use symex_engine::{BugKind, End, Program};
use symex_explore::trace::Trace;
use symex_explore::{Control, Explorer, Limits, Options, SearcherKind, SolverCtx};
use symex_fuzz::mutate::{dictionary, havoc, Rng};
use symex_fuzz::{concolic_run, concrete_run, Event, FuzzOptions, Fuzzer, RunConfig};
use symex_solver::SolverConfig;

fn example(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(rel)
}

fn load(path: &Path) -> Program {
    let m = symex_ir::load(path, &symex_ir::FrontendOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Program::new(m)
}

/// Runs the search; returns every input run with how it ended.
fn fuzz<'p>(
    prog: &'p Program,
    opts: FuzzOptions,
    seed: &[u8],
) -> (Fuzzer<'p>, Vec<(Vec<u8>, End)>) {
    let mut f = Fuzzer::new(prog, opts);
    let mut runs = Vec::new();
    f.generate_inputs(&[seed.to_vec()], &mut |e| {
        if let Event::Ran { run, .. } = e {
            runs.push((run.bytes.clone(), run.end.clone()));
        }
    });
    (f, runs)
}

/// The 16 inputs of the lecture's table, computed independently: each letter is `good`'s or `bad!`'s.
fn table() -> Vec<(Vec<u8>, bool)> {
    (0..16u32)
        .map(|m| {
            let bytes: Vec<u8> = (0..4)
                .map(|i| {
                    if m >> i & 1 == 1 {
                        b"bad!"[i]
                    } else {
                        b"good"[i]
                    }
                })
                .collect();
            (bytes, m.count_ones() >= 3)
        })
        .collect()
}

#[test]
fn top_from_good_runs_the_sixteen_inputs_of_the_table_in_sixteen_runs() {
    let prog = load(&example("run/top.c"));
    let (f, runs) = fuzz(&prog, FuzzOptions::default(), b"good");
    assert!(f.stats.exhausted);
    assert!(runs.len() <= 16, "{} runs", runs.len());
    let mut got: Vec<(Vec<u8>, bool)> = runs
        .iter()
        .map(|(b, e)| {
            (
                b.clone(),
                matches!(e, End::Bug(bug) if bug.kind == BugKind::Abort),
            )
        })
        .collect();
    got.sort();
    let mut want = table();
    want.sort();
    assert_eq!(got, want);
    assert!(got.contains(&(b"bad!".to_vec(), true)));
    // One call of abort() at one line under one call stack: one distinct crash.
    assert_eq!(f.crashes.len(), 1);
    assert_eq!(f.crashes[0].bug.kind, BugKind::Abort);
    assert_eq!(f.stats.divergences, 0);
}

/// Every path `symex run` explores, as block sequences, and whether the exploration was complete.
fn run_traces(prog: &Program, stdin: usize) -> (Vec<Trace>, bool) {
    let ctx = SolverCtx::new(SolverConfig::default().build(), None);
    let opts = Options {
        searcher: SearcherKind::Dfs,
        stdin,
        // A count, not a clock: the exploration is complete or not whatever the load.
        limits: Limits {
            max_instructions: Some(10_000_000),
            ..Limits::default()
        },
        ..Options::default()
    };
    let mut traces = Vec::new();
    let sum = Explorer::new(prog, opts, ctx)
        .run(
            &mut |p| {
                traces.push(p.trace);
                Control::Continue
            },
            &mut |_| {},
        )
        .expect("the program starts");
    (traces, sum.complete)
}

#[test]
fn concolic_block_sequences_are_those_of_symex_run_and_equal_on_top() {
    let prog = load(&example("run/top.c"));
    let (f, _) = fuzz(&prog, FuzzOptions::default(), b"good");
    let (mut run, complete) = run_traces(&prog, 0);
    assert!(complete);
    run.sort_by_key(|t| (t.hash, t.blocks));
    run.dedup();
    let mut fz: Vec<_> = f.traces.iter().copied().collect();
    fz.sort_by_key(|t| (t.hash, t.blocks));
    assert_eq!(fz, run);
}

#[test]
fn the_guarded_parser_bug_is_reached_within_a_bounded_number_of_runs() {
    let prog = load(&example("fuzz/magic.c"));
    let opts = FuzzOptions {
        run: RunConfig {
            stdin: true,
            ..RunConfig::default()
        },
        max_runs: Some(300),
        ..FuzzOptions::default()
    };
    let seed = std::fs::read(example("fuzz/magic.seed")).unwrap();
    let (f, runs) = fuzz(&prog, opts, &seed);
    let first = runs
        .iter()
        .position(|(_, e)| matches!(e, End::Bug(b) if b.kind == BugKind::Abort));
    let first = first.unwrap_or_else(|| panic!("no abort in {} runs: {:?}", runs.len(), f.stats));
    eprintln!("first crash at run {}: {:?}", first + 1, f.stats);
    // Measured: run 25 (magic byte by byte, then the length, the loop count and the checksum solved).
    assert!(first < 60, "first crash at run {}", first + 1);
    // The crash input satisfies the guards, checked here on its bytes, not by the program.
    let b = &f.crashes[0].bytes;
    assert_eq!(&b[..4], b"SYMX");
    let rd = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let len = rd(4) as usize;
    assert!(len >= 3 && len <= b.len() - 12);
    let sum = b[12..12 + len]
        .iter()
        .fold(0u32, |s, &x| s.wrapping_mul(31).wrapping_add(x as u32));
    assert_eq!(sum, rd(8));
    assert_eq!(&b[12..15], b"BUG");
}

/// On every example of `symex run` that it explores completely, each block sequence a concolic run follows
/// (from all-zero input, stdin examples with 3 bytes as `run --stdin 3`) is one of `run`'s paths.
#[test]
fn concolic_block_sequences_are_paths_of_symex_run_on_the_run_examples() {
    let dir = example("run");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    let mut checked = 0;
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let stdin = if name.starts_with("stdin_") { 3 } else { 0 };
        let prog = load(&file);
        let (run, complete) = run_traces(&prog, stdin);
        if !complete {
            eprintln!("{name}: skipped, symex run does not explore it completely");
            continue;
        }
        let opts = FuzzOptions {
            run: RunConfig {
                stdin: stdin > 0,
                max_instructions: 1_000_000,
                ..RunConfig::default()
            },
            max_runs: Some(64),
            ..FuzzOptions::default()
        };
        let mut f = Fuzzer::new(&prog, opts);
        let mut bad = Vec::new();
        f.generate_inputs(&[vec![0; stdin]], &mut |e| {
            if let Event::Ran { run: r, .. } = e {
                let halted = matches!(r.end, End::Halt(_));
                if !halted && !run.contains(&r.trace) {
                    bad.push((r.bytes.clone(), r.end.clone()));
                }
            }
        });
        assert!(
            bad.is_empty(),
            "{name}: runs off symex run's paths: {bad:?}"
        );
        eprintln!(
            "{name}: {} runs, {} sequences, {} divergences",
            f.stats.runs,
            f.traces.len(),
            f.stats.divergences
        );
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} examples checked");
}

/// `--jobs 2`: the parallel search still runs exactly the lecture's 16 inputs of `top()` (the children of
/// an input do not depend on which worker expands it, and the inputs run are shared, so none runs twice).
#[test]
fn top_with_two_workers_runs_the_sixteen_inputs_of_the_table() {
    let prog = load(&example("run/top.c"));
    let mut f = Fuzzer::new(&prog, FuzzOptions::default());
    f.set_jobs(2);
    let mut runs = Vec::new();
    f.generate_inputs(&[b"good".to_vec()], &mut |e| {
        if let Event::Ran { run, .. } = e {
            let abort = matches!(&run.end, End::Bug(b) if b.kind == BugKind::Abort);
            runs.push((run.bytes.clone(), abort));
        }
    });
    assert!(f.stats.exhausted);
    assert!(runs.len() <= 16, "{} runs", runs.len());
    runs.sort();
    let mut want = table();
    want.sort();
    assert_eq!(runs, want);
    assert_eq!(f.crashes.len(), 1);
    assert_eq!(f.crashes[0].bytes.len(), 4);
    eprintln!("top, 2 workers: {:?}", f.stats);
}

/// The distinct crashes (kind, location) of a search run to exhaustion with `jobs` workers, or `None` when
/// a limit stopped it.
fn crash_set(prog: &Program, opts: FuzzOptions, seed: &[u8], jobs: usize) -> Option<Vec<String>> {
    let mut f = Fuzzer::new(prog, opts);
    f.set_jobs(jobs);
    f.generate_inputs(&[seed.to_vec()], &mut |_| {});
    let s = &f.stats;
    eprintln!(
        "  {jobs} worker(s): {} runs, {} reruns, {} duplicates, exhausted {}",
        s.runs, s.reruns, s.duplicates, s.exhausted
    );
    if !f.stats.exhausted {
        return None;
    }
    let mut set: Vec<String> = f
        .crashes
        .iter()
        .map(|c| {
            let l = &c.bug.loc;
            format!(
                "{} {}:{} {}",
                c.bug.kind.as_str(),
                l.file,
                l.line,
                l.function
            )
        })
        .collect();
    set.sort();
    set.dedup();
    Some(set)
}

/// On the fuzz examples and every `symex run` example the search exhausts, `--jobs 2` finds the same
/// distinct crashes as `--jobs 1`.
#[test]
fn two_workers_find_the_crashes_of_one_worker_on_the_examples() {
    let with = |run: RunConfig| FuzzOptions {
        run: RunConfig {
            max_instructions: 1_000_000,
            ..run
        },
        max_runs: Some(400),
        ..FuzzOptions::default()
    };
    let mut cases: Vec<(String, FuzzOptions, Vec<u8>)> = vec![
        (
            "fuzz/magic.c".into(),
            with(RunConfig {
                stdin: true,
                ..RunConfig::default()
            }),
            std::fs::read(example("fuzz/magic.seed")).unwrap(),
        ),
        (
            "fuzz/filemagic.c".into(),
            with(RunConfig {
                file: Some("input.bin".into()),
                ..RunConfig::default()
            }),
            std::fs::read(example("fuzz/filemagic.seed")).unwrap(),
        ),
        (
            "fuzz/args.c".into(),
            with(RunConfig {
                args: vec![3, 2],
                ..RunConfig::default()
            }),
            vec![0; 5],
        ),
    ];
    let mut run_examples: Vec<PathBuf> = std::fs::read_dir(example("run"))
        .unwrap()
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    run_examples.sort();
    for file in run_examples {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let stdin = if name.starts_with("stdin_") { 3 } else { 0 };
        let opts = with(RunConfig {
            stdin: stdin > 0,
            ..RunConfig::default()
        });
        let seed = if name == "top.c" {
            b"good".to_vec()
        } else {
            vec![0; stdin]
        };
        cases.push((format!("run/{name}"), opts, seed));
    }
    let (mut compared, mut with_crashes) = (0, 0);
    for (name, opts, seed) in cases {
        let prog = load(&example(&name));
        let Some(one) = crash_set(&prog, opts.clone(), &seed, 1) else {
            eprintln!("{name}: skipped, one worker does not exhaust the search");
            continue;
        };
        let two = crash_set(&prog, opts, &seed, 2).unwrap_or_else(|| {
            panic!("{name}: two workers stopped where one exhausted the search")
        });
        assert_eq!(one, two, "{name}");
        eprintln!("{name}: {one:?}");
        compared += 1;
        with_crashes += usize::from(!one.is_empty());
    }
    // Measured: all 28 searched to exhaustion, 15 of them crash.
    assert!(compared >= 28, "only {compared} examples compared");
    assert!(with_crashes >= 15, "only {with_crashes} examples crash");
}

/// A mutant's concrete run (no term built) is the concolic run without its path condition: the same
/// end, blocks, block sequence and inputs, on each stdin example of `examples/fuzz` from its seed and
/// 64 of its mutants.
#[test]
fn a_concrete_run_is_the_concolic_run_without_terms() {
    let ctx = SolverCtx::new(SolverConfig::default().build(), None);
    for name in ["magic", "checksum", "keywords", "hashtree", "longlines"] {
        let prog = load(&example(&format!("fuzz/{name}.c")));
        let seed = std::fs::read(example(&format!("fuzz/{name}.seed"))).unwrap();
        let cfg = RunConfig {
            stdin: true,
            ..RunConfig::default()
        };
        let dict = dictionary(prog.module());
        let mut rng = Rng::new(11);
        let mut inputs = vec![seed.clone()];
        inputs.extend((0..64).map(|_| havoc(&mut rng, &seed, &seed, &dict)));
        for input in &inputs {
            let a = concolic_run(&prog, &cfg, &ctx, input);
            let b = concrete_run(&prog, &cfg, &ctx, input);
            assert!(b.pc.is_empty(), "{name}");
            assert_eq!(a.end, b.end, "{name}: {input:?}");
            assert_eq!(a.blocks, b.blocks, "{name}: {input:?}");
            assert!(a.trace == b.trace, "{name}: {input:?}");
            assert_eq!(a.bytes, b.bytes, "{name}: {input:?}");
            assert_eq!(a.stack, b.stack, "{name}: {input:?}");
        }
    }
}
