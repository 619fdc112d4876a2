//! One concolic run (the lecture's `Run&Check` and `SymbolicExecution` at once): the interpreter's step
//! function over the [`Concolic`] domain, recording the blocks entered and labelling each new conjunct of
//! the path condition with the block whose step decided it.

use crate::concolic::{Concolic, Conjunct};
use std::cell::RefCell;
use std::rc::Rc;
use symex_engine::{Checks, End, Halt, Program, State, TestInput};
use symex_explore::trace::{entered, position, Trace};
use symex_explore::SolverCtx;

/// How to run the program.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub entry: String,
    pub checks: Checks,
    /// The input stream is standard input (its size is the input's length).
    pub stdin: bool,
    /// The input bytes are the file the program opens by this path (`--file NAME`).
    pub file: Option<String>,
    /// The input's first bytes are `argv` strings of these lengths (`--arg N`), the rest feeds the
    /// other inputs.
    pub args: Vec<usize>,
    /// Cut a run after this many instructions.
    pub max_instructions: u64,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            entry: "main".into(),
            checks: Checks::default(),
            stdin: false,
            file: None,
            args: Vec::new(),
            max_instructions: 10_000_000,
        }
    }
}

/// What a concolic run produced.
#[derive(Clone, Debug)]
pub struct ConcolicRun {
    pub end: End,
    /// The path condition, in the order of the decisions.
    pub pc: Vec<Conjunct>,
    /// The blocks entered, in order (function, block).
    pub blocks: Vec<(u32, u32)>,
    /// The block sequence as `symex run`'s traces hash it.
    pub trace: Trace,
    /// The input bytes the run consumed (the input, zero-extended to what the program asked for).
    pub bytes: Vec<u8>,
    /// The inputs as a test file names them.
    pub inputs: Vec<TestInput>,
    /// Functions on the call stack when the run ended, outermost first.
    pub stack: Vec<String>,
    pub instructions: u64,
    /// Values fixed to the run's value.
    pub concretised: usize,
}

/// Runs `prog` on `input`, concretely, with the path condition recorded.
pub fn concolic_run(
    prog: &Program,
    cfg: &RunConfig,
    ctx: &Rc<RefCell<SolverCtx>>,
    input: &[u8],
) -> ConcolicRun {
    run_in(prog, cfg, input.len(), Concolic::new(ctx.clone(), input))
}

/// Runs `prog` on `input` concretely only: the same run (end, blocks, inputs) without a term or a
/// path condition, for a run whose only use is its coverage and its crash.
pub fn concrete_run(
    prog: &Program,
    cfg: &RunConfig,
    ctx: &Rc<RefCell<SolverCtx>>,
    input: &[u8],
) -> ConcolicRun {
    run_in(
        prog,
        cfg,
        input.len(),
        Concolic::concrete(ctx.clone(), input),
    )
}

fn run_in(prog: &Program, cfg: &RunConfig, input_len: usize, dom: Concolic) -> ConcolicRun {
    let mut st = State::new(prog, dom, cfg.checks);
    st.set_sym_args(&cfg.args);
    let rest = input_len.saturating_sub(cfg.args.iter().sum());
    if cfg.stdin {
        st.set_stdin_size(rest);
    }
    if let Some(path) = &cfg.file {
        st.set_sym_file(path, rest);
    }
    let mut trace = Trace::start(prog, &cfg.entry);
    let mut blocks = Vec::new();
    if let Some(f) = prog.module().function_by_name(&cfg.entry) {
        blocks.push((f.0, 0));
    }
    let mut labelled = 0;
    let end = match st.start(prog, &cfg.entry) {
        Err(e) => e,
        Ok(()) => loop {
            if st.steps >= cfg.max_instructions {
                break End::Halt(Halt::Limit(format!(
                    "instruction limit of {} reached",
                    cfg.max_instructions
                )));
            }
            let before = position(&st, prog);
            let r = st.step(prog);
            let site = before.map(|p| (p.func, p.block));
            for c in &mut st.dom.pc[labelled..] {
                c.site = site;
            }
            labelled = st.dom.pc.len();
            if let Err(e) = r {
                break e;
            }
            if let Some((f, b)) = entered(before, &st) {
                trace.push(f, b);
                blocks.push((f, b));
            }
        },
    };
    let stack = st
        .frames()
        .iter()
        .map(|f| prog.module().func(f.func).name.clone())
        .collect();
    ConcolicRun {
        end,
        pc: std::mem::take(&mut st.dom.pc),
        blocks,
        trace,
        bytes: std::mem::take(&mut st.dom.consumed_bytes),
        inputs: std::mem::take(&mut st.dom.consumed),
        stack,
        instructions: st.steps,
        concretised: st.dom.concretised,
    }
}
