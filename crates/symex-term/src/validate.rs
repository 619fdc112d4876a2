//! Re-running answers on the reference interpreter (`symex_engine`, the semantics of
//! `symex replay`), independent of the symbolic rules:
//!
//! * a `NO` witness must run into the instruction limit (`symex replay --max-instructions N`
//!   shows it looping);
//! * a `YES` is checked on random inputs (small magnitudes and boundary values): a run that
//!   ends in undefined behaviour the proof excluded contradicts it; a run that reaches the
//!   instruction limit is reported (a terminating program may need more steps, e.g. `g` from
//!   `j = 1` runs 2³² iterations), never hidden.

use crate::{Answer, Options, Report};
use symex_engine::{BugKind, Checks, End, Halt, Program, RunOptions, TestFile, TestInput};
use symex_ir::Module;

/// Instructions a witness of non-termination must run without ending.
pub const WITNESS_LIMIT: u64 = 5_000_000;
/// Instructions per random run of a YES check.
pub const RUN_LIMIT: u64 = 2_000_000;

#[derive(Clone, Debug, Default)]
pub struct Check {
    /// Why the answer cannot stand.
    pub contradiction: Option<String>,
    pub runs: usize,
    pub finished: usize,
    pub limit_reached: usize,
    /// The witness ran `WITNESS_LIMIT` instructions without ending.
    pub witness_replayed: Option<bool>,
}

impl Check {
    pub fn summary(&self) -> String {
        let mut s = format!(
            "check on the reference interpreter: {} random runs, {} ended, {} reached {} instructions",
            self.runs, self.finished, self.limit_reached, RUN_LIMIT
        );
        if let Some(w) = self.witness_replayed {
            s.push_str(&format!(
                "; the witness {} {WITNESS_LIMIT} instructions without ending",
                if w { "ran" } else { "did NOT run" }
            ));
        }
        if let Some(c) = &self.contradiction {
            s.push_str(&format!("; CONTRADICTION: {c}"));
        }
        s
    }

    pub fn to_json(&self) -> String {
        self.summary()
    }
}

/// The test file of an input list (little-endian bytes, as `symex replay` reads them).
pub fn test_file(entry: &str, inputs: &[(String, u32, i128)]) -> TestFile {
    TestFile {
        program: None,
        entry: Some(entry.to_string()),
        inputs: inputs
            .iter()
            .map(|(name, w, v)| TestInput {
                name: name.clone(),
                bytes: v.to_le_bytes()[..(*w as usize).div_ceil(8)].to_vec(),
            })
            .collect(),
        outcome: None,
    }
}

fn run(prog: &Program, opts: &Options, test: &TestFile, limit: u64) -> End {
    let ro = RunOptions {
        entry: opts.entry.clone(),
        checks: Checks {
            overflow: !opts.sem.signed_wrap,
            leaks: false,
            ..Checks::default()
        },
        max_instructions: limit,
        max_time: None,
    };
    symex_engine::run(prog, test, &ro).end
}

/// Bugs a YES excludes (the SEG is complete: no undefined behaviour on any path).
fn excluded(kind: BugKind) -> bool {
    !matches!(
        kind,
        BugKind::Assertion | BugKind::ReachError | BugKind::Abort | BugKind::MemoryLeak
    )
}

pub fn check(plain: &Module, opts: &Options, report: &Report, runs: usize) -> Check {
    let mut c = Check::default();
    if opts.sem.math_int {
        // The mathematical-integer model is not C: its answers are not checked against C runs.
        return c;
    }
    let prog = Program::new(plain.clone());
    if let (Answer::No, Some(w)) = (report.answer, &report.witness) {
        let end = run(
            &prog,
            opts,
            &test_file(&opts.entry, &w.inputs),
            WITNESS_LIMIT,
        );
        let looped = matches!(end, End::Halt(Halt::Limit(_)));
        c.witness_replayed = Some(looped);
        if !looped {
            c.contradiction = Some(format!("the witness run ended: {end:?}"));
        }
    }
    if report.answer != Answer::Yes {
        return c;
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..runs {
        let inputs: Vec<(String, u32, i128)> = (0..32)
            .map(|_| {
                let r = next();
                let v: i128 = match r % 4 {
                    0 => (r >> 8) as i128 % 65 - 32,
                    1 => -((r >> 8) as i128 % 16) - 1,
                    2 => (1i128 << 31) - 1 - ((r >> 8) as i128 % 16),
                    _ => (r >> 8) as i128 % 1000,
                };
                ("__VERIFIER_nondet_int".to_string(), 64, v)
            })
            .collect();
        let end = run(&prog, opts, &test_file(&opts.entry, &inputs), RUN_LIMIT);
        c.runs += 1;
        match end {
            End::Halt(Halt::Limit(_)) => c.limit_reached += 1,
            End::Bug(b) if excluded(b.kind) => {
                c.contradiction = Some(format!("a random run ended in {b}"));
                return c;
            }
            _ => c.finished += 1,
        }
    }
    c
}
