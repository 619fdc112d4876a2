//! Re-running answers on the reference interpreter (`symex_engine`, the semantics of
//! `symex replay`), independent of the symbolic rules:
//!
//! * a `NO` witness must run into the instruction limit (`symex replay --max-instructions N`
//!   shows it looping);
//! * a `YES` is checked on random inputs (small magnitudes and boundary values): a run that
//!   ends in undefined behaviour the proof excluded contradicts it; a run that reaches the
//!   instruction limit is reported (a terminating program may need more steps, e.g. `g` from
//!   `j = 1` runs 2³² iterations), never hidden.
//!
//! Under `--math-int` a C run is a run of the mathematical-integer model as long as no value
//! leaves the 32-bit (the type's) range — provided every operation whose C result could differ
//! from ℤ's is one the interpreter's signed-overflow check stops at ([`math_int_faithful`]).
//! So the YES runs use small inputs, and a run that overflows is counted (`overflowed`): it is
//! neither a counterexample nor evidence. A NO's witness must loop without overflowing.

use crate::{Answer, Options, Report};
use std::time::Instant;
use symex_engine::{BugKind, Checks, End, Halt, Program, RunOptions, TestFile, TestInput};
use symex_ir::{BinOp, CastOp, Inst, IntPred, Module};

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
    /// `--math-int`: runs stopped by a signed overflow (outside the model's runs on C).
    pub overflowed: usize,
    /// `--math-int`: why C runs cannot stand for the model's runs (then there are none).
    pub unfaithful: Option<String>,
    /// The deadline passed before all the runs asked for were made.
    pub cut_by_time: bool,
}

impl Check {
    pub fn summary(&self) -> String {
        let mut s = format!(
            "check on the reference interpreter: {} random runs, {} ended, {} reached {} instructions",
            self.runs, self.finished, self.limit_reached, RUN_LIMIT
        );
        if self.overflowed > 0 && self.witness_replayed.is_none() {
            s.push_str(&format!(
                ", {} left their type's range (signed overflow: not runs of the --math-int model, neither evidence nor counterexample)",
                self.overflowed
            ));
        }
        if let Some(u) = &self.unfaithful {
            s.push_str(&format!(
                "; no --math-int run on C: {u} (its C result may differ from the integers' without an overflow check)"
            ));
        }
        if let Some(w) = self.witness_replayed {
            s.push_str(&format!(
                "; the witness {} {WITNESS_LIMIT} instructions without ending",
                if w { "ran" } else { "did NOT run" }
            ));
            if !w && self.overflowed > 0 {
                s.push_str(" (it left its type's range first, without ending: inconclusive under --math-int, the NO rests on its proof)");
            }
        }
        if self.cut_by_time {
            s.push_str("; the time limit (--max-time) ended the runs early");
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

fn run(
    prog: &Program,
    opts: &Options,
    test: &TestFile,
    limit: u64,
    deadline: Option<Instant>,
) -> End {
    let ro = RunOptions {
        entry: opts.entry.clone(),
        checks: Checks {
            // Under `--math-int` the check marks where a C run leaves the model.
            overflow: opts.sem.math_int || !opts.sem.signed_wrap,
            leaks: false,
            ..Checks::default()
        },
        max_instructions: limit,
        max_time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
    };
    symex_engine::run(prog, test, &ro).end
}

fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// Bugs a YES excludes (the SEG is complete: no undefined behaviour on any path).
fn excluded(kind: BugKind) -> bool {
    !matches!(
        kind,
        BugKind::Assertion | BugKind::ReachError | BugKind::Abort | BugKind::MemoryLeak
    )
}

/// Whether a C run that the signed-overflow check does not stop computes what the
/// mathematical-integer model computes: `Err` names the first operation that wraps or reads
/// bits without that check (an `add`/`sub`/`mul`/`shl` without `nsw`, a truncation, an
/// unsigned division, remainder, shift or comparison — `x <u 10` of `x = -1` is false in C and
/// true in ℤ). Bitwise operations and signed division agree with C on values in range.
pub fn math_int_faithful(module: &Module) -> Result<(), String> {
    for f in &module.functions {
        let Some(body) = &f.body else { continue };
        for b in &body.blocks {
            for (inst, loc) in b.insts.iter().zip(&b.locs) {
                let why = match inst {
                    Inst::Bin {
                        op, flags, width, ..
                    } if *width > 1 => match op {
                        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl if !flags.nsw() => {
                            "arithmetic without `nsw`"
                        }
                        BinOp::UDiv | BinOp::URem | BinOp::LShr => "unsigned division or shift",
                        _ => continue,
                    },
                    Inst::ICmp { pred, width, .. }
                        if *width > 1
                            && matches!(
                                pred,
                                IntPred::Ugt | IntPred::Uge | IntPred::Ult | IntPred::Ule
                            ) =>
                    {
                        "an unsigned comparison"
                    }
                    Inst::Cast {
                        op: CastOp::Trunc, ..
                    } => "a truncation",
                    _ => continue,
                };
                return Err(format!("{} at {}", why, module.describe_loc(*loc)));
            }
        }
    }
    Ok(())
}

/// Inputs of a random run: small magnitudes and boundary values (under `--math-int` only
/// small ones: a boundary value overflows at the first step and shows nothing).
fn random_inputs(next: &mut impl FnMut() -> u64, math_int: bool) -> Vec<(String, u32, i128)> {
    (0..32)
        .map(|_| {
            let r = next();
            let kind = if math_int {
                [0, 3][(r % 2) as usize]
            } else {
                r % 4
            };
            let v: i128 = match kind {
                0 => (r >> 8) as i128 % 65 - 32,
                1 => -((r >> 8) as i128 % 16) - 1,
                2 => (1i128 << 31) - 1 - ((r >> 8) as i128 % 16),
                _ => (r >> 8) as i128 % 1000,
            };
            ("__VERIFIER_nondet_int".to_string(), 64, v)
        })
        .collect()
}

pub fn check(plain: &Module, opts: &Options, report: &Report, runs: usize) -> Check {
    check_until(plain, opts, report, runs, None)
}

/// [`check`] within a deadline: no run starts after it, and a run still going then is cut.
pub fn check_until(
    plain: &Module,
    opts: &Options,
    report: &Report,
    runs: usize,
    deadline: Option<Instant>,
) -> Check {
    let mut c = Check::default();
    if opts.sem.math_int {
        if let Err(why) = math_int_faithful(plain) {
            // A NO rests on its witness run: without a faithful replay it cannot stand. A
            // YES keeps its solver-checked ranking functions; the runs are skipped (reported).
            if report.answer == Answer::No {
                c.contradiction = Some(format!(
                    "the --math-int witness cannot be replayed on C: {why}"
                ));
            }
            c.unfaithful = Some(why);
            return c;
        }
    }
    let prog = Program::new(plain.clone());
    if let (Answer::No, Some(w)) = (report.answer, &report.witness) {
        let end = run(
            &prog,
            opts,
            &test_file(&opts.entry, &w.inputs),
            WITNESS_LIMIT,
            deadline,
        );
        if past(deadline) {
            // A witness cut by the clock has not shown that it loops: the NO cannot stand.
            c.cut_by_time = true;
            c.contradiction = Some(format!(
                "the time limit (--max-time) ended the witness run before {WITNESS_LIMIT} instructions"
            ));
            return c;
        }
        let looped = matches!(end, End::Halt(Halt::Limit(_)));
        c.witness_replayed = Some(looped);
        match end {
            _ if looped => {}
            // `--math-int`: the C run left its type's range (`x = 2·x` from 2 does after 30
            // iterations) without ending: the model's run goes on there, unseen; counted.
            End::Bug(b) if opts.sem.math_int && b.kind == BugKind::SignedOverflow => {
                c.overflowed += 1
            }
            _ => c.contradiction = Some(format!("the witness run ended: {end:?}")),
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
        if past(deadline) {
            c.cut_by_time = true;
            break;
        }
        let inputs = random_inputs(&mut next, opts.sem.math_int);
        let end = run(
            &prog,
            opts,
            &test_file(&opts.entry, &inputs),
            RUN_LIMIT,
            deadline,
        );
        if past(deadline) {
            c.cut_by_time = true;
            break;
        }
        c.runs += 1;
        match end {
            End::Halt(Halt::Limit(_)) => c.limit_reached += 1,
            // The model has no overflow: this run left it (and stopped there).
            End::Bug(b) if opts.sem.math_int && b.kind == BugKind::SignedOverflow => {
                c.overflowed += 1
            }
            End::Bug(b) if excluded(b.kind) => {
                c.contradiction = Some(format!("a random run ended in {b}"));
                return c;
            }
            _ => c.finished += 1,
        }
    }
    c
}
