//! Block traces: the sequence of basic blocks a run enters, kept as a length and a running hash, so that a
//! symbolic path and the concrete replay of its test can be compared (correctness, King 1976; de Boer &
//! Bonsangue Thm 2.3) and a random concrete run can be matched against the explored paths (completeness,
//! Thm 2.4).

use symex_engine::concrete::Concrete;
use symex_engine::domain::Domain;
use symex_engine::{Checks, End, Halt, Program, State, TestInput};

/// Where a state is: call depth, function, block, and whether the terminator is next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub depth: usize,
    pub func: u32,
    pub block: u32,
    pub at_terminator: bool,
}

/// The position of `st` (none once the entry function returned).
pub fn position<D: Domain>(st: &State<D>, prog: &Program) -> Option<Position> {
    let f = st.frame()?;
    let body = prog.module().func(f.func).body.as_ref()?;
    let b = &body.blocks[f.block.0 as usize];
    Some(Position {
        depth: st.frames().len(),
        func: f.func.0,
        block: f.block.0,
        at_terminator: f.inst as usize >= b.insts.len(),
    })
}

/// The block a step entered, if it entered one: after a terminator or a call into a body, the new frame's
/// first instruction is next.
pub fn entered<D: Domain>(before: Option<Position>, st: &State<D>) -> Option<(u32, u32)> {
    let before = before?;
    let f = st.frame()?;
    if f.inst != 0 {
        return None;
    }
    (before.at_terminator || st.frames().len() > before.depth).then_some((f.func.0, f.block.0))
}

/// A block sequence as its length and an order-sensitive hash.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Trace {
    pub hash: u64,
    pub blocks: u64,
}

impl Trace {
    /// Appends block `b` of function `f`.
    #[inline]
    pub fn push(&mut self, f: u32, b: u32) {
        let x = ((f as u64) << 32 | b as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut h = (self.hash ^ x).wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        self.hash = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        self.blocks += 1;
    }

    /// The trace of a run that starts in `entry`'s first block.
    pub fn start(prog: &Program, entry: &str) -> Trace {
        let mut t = Trace::default();
        if let Some(f) = prog.module().function_by_name(entry) {
            t.push(f.0, 0);
        }
        t
    }
}

/// What a traced concrete run produced.
#[derive(Clone, Debug)]
pub struct ConcreteRun {
    pub end: End,
    pub trace: Trace,
    pub stdout: Vec<u8>,
}

/// Runs `prog` concretely on `inputs` with the reference semantics, recording the blocks it enters.
pub fn run_concrete(
    prog: &Program,
    inputs: &[TestInput],
    entry: &str,
    checks: Checks,
    max_steps: u64,
) -> ConcreteRun {
    let mut st = State::new(prog, Concrete::new(inputs.to_vec()), checks);
    st.set_stdin_size(symex_engine::stdin::stdin_size(inputs));
    symex_engine::symargs::attach_from_inputs(&mut st, inputs);
    let mut trace = Trace::start(prog, entry);
    let end = match st.start(prog, entry) {
        Err(e) => e,
        Ok(()) => loop {
            if st.steps >= max_steps {
                break End::Halt(Halt::Limit(format!(
                    "instruction limit of {max_steps} reached"
                )));
            }
            let before = position(&st, prog);
            if let Err(e) = st.step(prog) {
                break e;
            }
            if let Some((f, b)) = entered(before, &st) {
                trace.push(f, b);
            }
        },
    };
    ConcreteRun {
        end,
        trace,
        stdout: st.take_stdout(),
    }
}
