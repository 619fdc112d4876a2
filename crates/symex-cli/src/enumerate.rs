//! `check`'s exhaustive concrete runs: when the program's inputs are few and narrow (SV-COMP's `gcd_2`
//! reads two `signed char`s, 65,536 runs of a few hundred instructions), every value of every input is
//! run on the concrete interpreter, input by input as the runs ask for them (a depth-first search over
//! the values, each prefix run once more per value of the next input). A violating run is a `FALSE`
//! whose test is that run; `TRUE` when every run ends without one. The search gives up — leaving the
//! verdict to the exploration — as soon as an input is wider than 16 bits (a `_Bool` counts 1 bit),
//! the all-zero run's inputs have more value combinations than [`MAX_RUNS`], the runs would exceed
//! [`MAX_RUNS`] or [`MAX_INSTRUCTIONS`] or `--max-time`, an input is not a `__VERIFIER_nondet_*` value
//! or uninitialised memory, or a run ends in undefined behaviour outside the property, an unsupported
//! construct or a limit. Where the solver struggles with the arithmetic (a chain of remainders) the
//! runs decide at the interpreter's speed.

use crate::portfolio::Answer;
use crate::property::{meaning, Meaning, Property};
use std::path::Path;
use std::time::Instant;
use symex_engine::interp::RunOptions;
use symex_engine::{Bug, Checks, End, Halt, Program, TestFile, TestInput};

/// Most runs of one search.
pub const MAX_RUNS: u64 = 1 << 18;

/// Most instructions of all runs together (about half a second of the release build's interpreter).
pub const MAX_INSTRUCTIONS: u64 = 1 << 26;

/// The widest input enumerated, in bits.
const MAX_INPUT_BITS: u32 = 16;

/// Why the search stopped early.
enum Stop {
    /// The violation, its SV-COMP subproperty and the run's inputs.
    Violation(Box<(Bug, Option<&'static str>, Vec<TestInput>)>),
    GiveUp,
}

struct Search<'p> {
    prog: &'p Program,
    property: Property,
    entry: &'p str,
    checks: Checks,
    runs: u64,
    instructions: u64,
    /// `--max-time`'s end: the search gives up there, leaving the exploration its answer.
    deadline: Option<Instant>,
}

/// The verdict of the exhaustive runs of `prog` (its violation's test written to `dir/name`), or
/// `None` when the search gave up.
pub fn answer(
    prog: &Program,
    property: Property,
    entry: &str,
    checks: Checks,
    dir: &Path,
    program: &str,
) -> Option<Answer> {
    if matches!(property, Property::Termination | Property::DefBehavior) {
        return None;
    }
    let mut s = Search {
        prog,
        property,
        entry,
        checks,
        runs: 0,
        instructions: 0,
        deadline: crate::limits::process_deadline(),
    };
    // The all-zero run's inputs: when their values alone multiply to more than the budget, no search.
    let (_, asked) = s.run(&[]).ok()?;
    let mut runs = 1u64;
    for input in &asked {
        runs = runs.saturating_mul(domain(input)?);
    }
    if runs > MAX_RUNS {
        return None;
    }
    match s.dfs(&mut Vec::new()) {
        Ok(()) => Some(Answer::True(Vec::new())),
        Err(Stop::GiveUp) => None,
        Err(Stop::Violation(v)) => {
            let (bug, sub, inputs) = *v;
            let end = End::Bug(bug.clone());
            let name = "enumeration-counterexample.json";
            let test = crate::bmc::write_test(dir, name, program, entry, &inputs, &end).ok();
            Some(Answer::False {
                bug,
                sub,
                test,
                replay: None,
            })
        }
    }
}

impl Search<'_> {
    /// Every run whose inputs start with `prefix`.
    fn dfs(&mut self, prefix: &mut Vec<TestInput>) -> Result<(), Stop> {
        let (end, asked) = self.run(prefix)?;
        let Some(next) = asked.get(prefix.len()) else {
            return self.judge(end, asked);
        };
        let values = domain(next).ok_or(Stop::GiveUp)?;
        // The runs still to come at least: one per value.
        if self.runs.saturating_add(values) > MAX_RUNS {
            return Err(Stop::GiveUp);
        }
        for v in 0..values {
            let bytes = (v as u128).to_le_bytes()[..next.bytes.len()].to_vec();
            prefix.push(TestInput {
                name: next.name.clone(),
                bytes,
            });
            let r = self.dfs(prefix);
            prefix.pop();
            r?;
        }
        Ok(())
    }

    /// One run on `prefix` (missing inputs are zero): how it ended and the inputs it asked for.
    fn run(&mut self, prefix: &[TestInput]) -> Result<(End, Vec<TestInput>), Stop> {
        self.runs += 1;
        let left = MAX_INSTRUCTIONS.saturating_sub(self.instructions);
        let now = Instant::now();
        if self.runs > MAX_RUNS || left == 0 || self.deadline.is_some_and(|d| now >= d) {
            return Err(Stop::GiveUp);
        }
        let test = TestFile {
            inputs: prefix.to_vec(),
            ..TestFile::default()
        };
        let r = symex_engine::interp::run(
            self.prog,
            &test,
            &RunOptions {
                entry: self.entry.to_string(),
                checks: self.checks,
                max_instructions: left,
                max_time: self.deadline.map(|d| d.saturating_duration_since(now)),
            },
        );
        self.instructions += r.instructions;
        Ok((r.end, r.inputs))
    }

    /// A complete run: fine, a violation, or a reason to give up.
    fn judge(&self, end: End, inputs: Vec<TestInput>) -> Result<(), Stop> {
        match end {
            End::Exit(_)
            | End::Halt(Halt::AssumptionViolated(_))
            | End::Halt(Halt::SilentExit(_)) => Ok(()),
            End::Bug(b) => match meaning(self.property, b.kind) {
                Meaning::Violation(sub) => Err(Stop::Violation(Box::new((b, sub, inputs)))),
                Meaning::End => Ok(()),
                Meaning::Undecided => Err(Stop::GiveUp),
            },
            End::Halt(_) => Err(Stop::GiveUp),
        }
    }
}

/// The number of values of `input`: a `__VERIFIER_nondet_*` value or uninitialised memory of at most
/// [`MAX_INPUT_BITS`] bits (two for a `_Bool`, whose byte is 0 or 1); `None` otherwise.
fn domain(input: &TestInput) -> Option<u64> {
    let name = &input.name;
    if !(name.starts_with("__VERIFIER_nondet_") || name.starts_with("uninit:")) {
        return None;
    }
    if name.to_ascii_lowercase().contains("bool") && input.bytes.len() == 1 {
        return Some(2);
    }
    let bits = 8 * input.bytes.len() as u32;
    (bits <= MAX_INPUT_BITS).then(|| 1u64 << bits)
}
