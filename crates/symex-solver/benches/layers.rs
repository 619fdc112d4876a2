//! What each solver layer buys, on path-condition-shaped queries.
//!
//! A "program" is a sequence of branch conditions over 8 symbolic input bytes and two
//! 32-bit words read from them (little-endian), as a symbolic executor produces for code
//! that parses its input. Exploring it forks at every branch whose both sides are
//! feasible (two `may_be_true` queries per branch) until a query budget is spent. Each
//! configuration explores the same programs from a cold solver.
//!
//! Run: `cargo bench -p symex-solver --bench layers` (prints a statistics table with wall
//! and CPU time per configuration first, then criterion's timings; with
//! `LAYERS_REPORT_ONLY=1` only the table).

use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion};
use symex_expr::{Sort, Term};
use symex_solver::{Solver, SolverConfig, Z3Mode};

/// A small deterministic generator (xorshift64*), so every run explores the same programs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

struct Program {
    branches: Vec<Term>,
}

fn program(seed: u64, depth: usize) -> Program {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let bytes: Vec<Term> = (0..8)
        .map(|i| Term::var(&format!("in{i}"), Sort::bv(8)))
        .collect();
    let word = |k: usize| {
        let b = &bytes[4 * k..4 * k + 4];
        b[3].concat(&b[2]).concat(&b[1]).concat(&b[0])
    };
    let words = [word(0), word(1)];
    let mut branches = Vec::new();
    for _ in 0..depth {
        let b = &bytes[rng.below(8) as usize];
        let b2 = &bytes[rng.below(8) as usize];
        let w = &words[rng.below(2) as usize];
        let c8 = Term::bv(u128::from(rng.below(256)), 8);
        let c32 = Term::bv(u128::from(rng.next() as u32 >> rng.below(24)), 32);
        let cond = match rng.below(7) {
            0 => b.eq(&c8),
            1 => b.bvult(&c8),
            2 => w.bvult(&c32),
            3 => w
                .bvadd(&b.zext(24))
                .bvand(&Term::bv(0xff, 32))
                .eq(&c8.zext(24)),
            4 => b.sext(24).bvslt(&b2.sext(24)),
            5 => b.bvadd(b2).eq(&c8),
            _ => w
                .bvurem(&Term::bv(u128::from(rng.below(13) + 2), 32))
                .eq(&Term::bv(1, 32)),
        };
        branches.push(cond);
    }
    Program { branches }
}

/// Depth-first exploration with a query budget; returns the number of completed paths.
fn explore(solver: &mut dyn Solver, p: &Program, budget: usize) -> usize {
    let mut stack: Vec<(usize, Vec<Term>)> = vec![(0, Vec::new())];
    let mut queries = 0;
    let mut paths = 0;
    while let Some((d, pc)) = stack.pop() {
        if d == p.branches.len() {
            paths += 1;
            continue;
        }
        if queries >= budget {
            break;
        }
        let cond = &p.branches[d];
        let t = solver.may_be_true(&pc, cond).unwrap_or(true);
        let f = solver.may_be_true(&pc, &cond.not()).unwrap_or(true);
        queries += 2;
        match (t, f) {
            (true, true) => {
                let mut pt = pc.clone();
                pt.push(cond.clone());
                let mut pf = pc;
                pf.push(cond.not());
                stack.push((d + 1, pf));
                stack.push((d + 1, pt));
            }
            // A forced branch adds nothing to the path condition.
            (true, false) | (false, true) => stack.push((d + 1, pc)),
            (false, false) => {}
        }
    }
    paths
}

const PROGRAMS: u64 = 4;
const DEPTH: usize = 14;
const BUDGET: usize = 80;

/// The configurations timed by criterion (Z3 in its default, incremental mode).
fn configs() -> Vec<(&'static str, SolverConfig)> {
    let bare = SolverConfig::bare();
    vec![
        ("bare", bare.clone()),
        ("independence", bare.clone().independence(true)),
        ("query-cache", bare.clone().query_cache(true)),
        ("cex-cache", bare.clone().cex_cache(true)),
        ("all", SolverConfig::default()),
    ]
}

/// The other ways of driving Z3, only in the report (fresh is too slow to time repeatedly).
fn mode_configs() -> Vec<(&'static str, SolverConfig)> {
    vec![
        ("bare-fresh", SolverConfig::bare().z3_mode(Z3Mode::Fresh)),
        ("all-fresh", SolverConfig::default().z3_mode(Z3Mode::Fresh)),
        (
            "bare-bitblast",
            SolverConfig::bare().z3_mode(Z3Mode::Bitblast),
        ),
        (
            "all-bitblast",
            SolverConfig::default().z3_mode(Z3Mode::Bitblast),
        ),
        (
            "bare-assumptions",
            SolverConfig::bare().z3_mode(Z3Mode::Assumptions),
        ),
        (
            "all-assumptions",
            SolverConfig::default().z3_mode(Z3Mode::Assumptions),
        ),
    ]
}

/// CPU time of this thread (Linux), which unlike wall time does not depend on what else
/// runs on the machine; `None` elsewhere.
fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn run(config: &SolverConfig) -> (Box<dyn Solver>, usize) {
    let mut s = config.build();
    let mut paths = 0;
    for seed in 0..PROGRAMS {
        paths += explore(&mut *s, &program(seed, DEPTH), BUDGET);
    }
    (s, paths)
}

/// One run per configuration, printing what every layer saw.
fn report() {
    println!("corpus: {PROGRAMS} programs, {DEPTH} branches each, {BUDGET} queries per program");
    for (name, config) in configs().into_iter().chain(mode_configs()) {
        let start = Instant::now();
        let cpu_start = thread_cpu_time();
        let (s, paths) = run(&config);
        let elapsed = start.elapsed();
        let cpu = thread_cpu_time().zip(cpu_start).map(|(b, a)| b - a);
        let stats = s.stats();
        let queries = stats[0].queries.max(1) as f64;
        let z3_calls = stats.last().map(|l| l.queries).unwrap_or(0);
        print!(
            "\n== {name}: {paths} paths, {queries} queries, {z3_calls} reach Z3; wall {:.1} ms ({:.3} ms/query)",
            elapsed.as_secs_f64() * 1e3,
            elapsed.as_secs_f64() * 1e3 / queries
        );
        match cpu {
            Some(c) => println!(
                ", cpu {:.1} ms ({:.3} ms/query)",
                c.as_secs_f64() * 1e3,
                c.as_secs_f64() * 1e3 / queries
            ),
            None => println!(),
        }
        for l in &stats {
            println!("   {l}");
        }
    }
    println!();
}

fn main() {
    report();
    if std::env::var_os("LAYERS_REPORT_ONLY").is_some() {
        return;
    }
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(4))
        .configure_from_args();
    let mut group = c.benchmark_group("explore");
    for (name, config) in configs() {
        group.bench_with_input(BenchmarkId::from_parameter(name), &config, |b, config| {
            b.iter(|| run(config).1)
        });
    }
    group.finish();
    c.final_summary();
}
