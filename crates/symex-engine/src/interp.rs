//! The concrete interpreter: runs a program on the inputs of a test file with the reference semantics
//! and the concrete domain (what `symex replay` does).

use crate::bug::{End, Halt};
use crate::concrete::Concrete;
use crate::program::Program;
use crate::state::{Checks, State};
use crate::testfile::{Outcome, TestFile, TestInput};
use std::time::{Duration, Instant};

/// How to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub entry: String,
    pub checks: Checks,
    /// Stop after this many instructions.
    pub max_instructions: u64,
    /// Stop after this much time.
    pub max_time: Option<Duration>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            entry: "main".into(),
            checks: Checks::default(),
            max_instructions: u64::MAX,
            max_time: None,
        }
    }
}

/// What a concrete run produced.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub end: End,
    pub stdout: Vec<u8>,
    /// Instructions executed.
    pub instructions: u64,
    /// The inputs the program asked for, with the bytes it got.
    pub inputs: Vec<TestInput>,
    /// Test inputs the program never asked for.
    pub unused_inputs: usize,
    /// Notes about inputs that did not fit (sizes, missing inputs).
    pub warnings: Vec<String>,
    /// Time spent executing (loading the program not included).
    pub elapsed: Duration,
    /// Processor time this process spent executing: unlike `elapsed`, barely affected by other
    /// processes competing for the machine (what the interpreter benchmark reports).
    pub cpu_time: Duration,
}

/// Processor time of this process so far.
fn process_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant the kernel knows.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) } == 0;
    if ok {
        Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    } else {
        Duration::ZERO
    }
}

/// Instructions between two looks at the clock.
const SLICE: u64 = 1 << 20;

/// Runs `prog` concretely on the inputs of `test`.
pub fn run(prog: &Program, test: &TestFile, opts: &RunOptions) -> RunResult {
    let mut st = State::new(prog, Concrete::new(test.inputs.clone()), opts.checks);
    // The test's `stdin` input says how many bytes stdin held on its path.
    st.set_stdin_size(crate::stdin::stdin_size(&test.inputs));
    crate::symargs::attach_from_inputs(&mut st, &test.inputs);
    let start = Instant::now();
    let cpu_start = process_cpu_time();
    let end = match st.start(prog, &opts.entry) {
        Err(e) => e,
        Ok(()) => loop {
            let until = st.steps.saturating_add(SLICE).min(opts.max_instructions);
            match st.run(prog, until) {
                End::Halt(Halt::Limit(_)) if st.steps < opts.max_instructions => {}
                End::Halt(Halt::Limit(msg)) => break End::Halt(Halt::Limit(msg)),
                e => break e,
            }
            if let Some(t) = opts.max_time {
                if start.elapsed() >= t {
                    break End::Halt(Halt::Limit(format!(
                        "time limit of {:.1} s reached",
                        t.as_secs_f64()
                    )));
                }
            }
        },
    };
    RunResult {
        end,
        stdout: st.take_stdout(),
        instructions: st.steps,
        unused_inputs: st.dom.unused_inputs(),
        inputs: std::mem::take(&mut st.dom.consumed),
        warnings: std::mem::take(&mut st.dom.warnings),
        elapsed: start.elapsed(),
        cpu_time: process_cpu_time().saturating_sub(cpu_start),
    }
}

/// The test-file form of how a run ended.
pub fn outcome(end: &End) -> Outcome {
    let blank = Outcome::default();
    match end {
        End::Exit(code) => Outcome {
            kind: "exit".into(),
            code: Some(*code),
            ..blank
        },
        End::Bug(b) => Outcome {
            kind: b.kind.as_str().into(),
            file: Some(b.loc.file.clone()),
            line: Some(b.loc.line),
            function: Some(b.loc.function.clone()),
            message: Some(b.message.clone()),
            ..blank
        },
        End::Halt(Halt::AssumptionViolated(loc)) => Outcome {
            kind: "assumption-violated".into(),
            file: Some(loc.file.clone()),
            line: Some(loc.line),
            function: Some(loc.function.clone()),
            message: Some("an assumption of the program does not hold for these inputs".into()),
            ..blank
        },
        End::Halt(Halt::SilentExit(loc)) => Outcome {
            kind: "silent-exit".into(),
            file: Some(loc.file.clone()),
            line: Some(loc.line),
            function: Some(loc.function.clone()),
            message: Some("klee_silent_exit: the path ends without a test".into()),
            ..blank
        },
        End::Halt(Halt::StackLimit(loc)) => Outcome {
            kind: "early".into(),
            file: Some(loc.file.clone()),
            line: Some(loc.line),
            function: Some(loc.function.clone()),
            message: Some(crate::bug::STACK_LIMIT_MESSAGE.into()),
            ..blank
        },
        End::Halt(Halt::Limit(msg)) => Outcome {
            kind: "limit".into(),
            message: Some(msg.clone()),
            ..blank
        },
        End::Halt(Halt::Unsupported { what, loc }) => Outcome {
            kind: "unsupported".into(),
            file: Some(loc.file.clone()),
            line: Some(loc.line),
            function: Some(loc.function.clone()),
            message: Some(what.clone()),
            ..blank
        },
    }
}
