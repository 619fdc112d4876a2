//! Soundness by measurement: the program runs on the reference interpreter (`symex_engine`,
//! the semantics and instruction count of `symex replay`) on random inputs — small and
//! large magnitudes, both signs, the type's boundary values — and no run may execute more
//! instructions than the bound evaluated at its inputs. The oracle is the interpreter, not
//! the SEG rules the bound comes from.
//!
//! `symex replay` starts a non-`main` entry function with zero arguments; here the entry's
//! parameters get the run's values (the same interpreter, started the same way, with the
//! parameter registers set before the first instruction). Input functions read the test's
//! values in call order.

use crate::whole_its::Input;
use crate::Found;
use std::time::Instant;
use symex_engine::concrete::Concrete;
use symex_engine::domain::Domain;
use symex_engine::{Checks, End, Halt, Program, State, TestInput};
use symex_ir::Module;
use symex_term::state::convert_const;

/// Instructions a run may take when the bound is larger (the run is then not judged if it
/// does not end: a bound in `b_umax32` allows billions).
pub const RUN_CAP: u64 = 2_000_000;

/// Input-function values a run offers (later calls read zeros).
const NONDET_VALUES: usize = 64;

/// One run's inputs and what it measured.
#[derive(Clone, Debug)]
pub struct Run {
    /// Raw values of the entry's parameters, in parameter order (integer parameters only).
    pub params: Vec<i128>,
    /// Raw values of the input functions, in call order.
    pub nondet: Vec<i128>,
    pub instructions: u64,
    /// The bound at these inputs (`None`: it overflows `i128`).
    pub bound: Option<i128>,
    pub end: End,
}

impl Run {
    /// The inputs in words, for messages.
    pub fn describe(&self, found: &Found) -> String {
        let mut parts = Vec::new();
        for i in &found.inputs {
            match i {
                Input::Param { .. } | Input::Nondet { .. } => {
                    parts.push(format!("{} = {}", i.name(), value_of(i, self)))
                }
                Input::Size(_) => {}
            }
        }
        parts.join(", ")
    }
}

#[derive(Clone, Debug, Default)]
pub struct Measurement {
    pub runs: usize,
    /// Runs that ended within the bound.
    pub within: usize,
    /// Runs that executed more instructions than the bound: the bound is wrong.
    pub violations: Vec<Run>,
    /// Runs stopped at [`RUN_CAP`] below a larger bound (not judged).
    pub capped: usize,
    /// Runs that ended in a bug or an unsupported construct (judged all the same).
    pub bugs: usize,
    /// The largest `instructions / bound` seen (how tight the bound is on the sample).
    pub max_ratio: f64,
    /// The deadline passed before all the runs asked for were made (a run cut by it is not
    /// counted).
    pub cut_by_time: bool,
}

impl Measurement {
    pub fn summary(&self) -> String {
        format!(
            "check by measurement: {} runs, {} within the bound (largest instructions/bound {:.3}), {} violated, {} stopped at {} instructions under a larger bound, {} ended in a bug",
            self.runs,
            self.within,
            self.max_ratio,
            self.violations.len(),
            self.capped,
            RUN_CAP,
            self.bugs
        ) + if self.cut_by_time {
            "; the time limit (--max-time) ended the runs early"
        } else {
            ""
        }
    }
}

/// The value of a start variable in the run (in the reading the SEG gave it).
fn value_of(input: &Input, run: &Run) -> i128 {
    match input {
        Input::Param {
            index,
            width,
            reading,
            ..
        } => run
            .params
            .get(*index)
            .map_or(0, |&v| convert_const(v, *width, *reading)),
        Input::Nondet {
            k, width, reading, ..
        } => run
            .nondet
            .get(*k)
            .map_or(0, |&v| convert_const(v, *width, *reading)),
        Input::Size(s) => s.value(),
    }
}

/// A xorshift generator: runs are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value for a `width`-bit input: small, moderate, negative, or at the type's edges.
    fn value(&mut self, width: u32) -> i128 {
        let r = self.next();
        let m = (r >> 8) as i128;
        let umax = (1i128 << width.min(64)) - 1;
        let smax = umax >> 1;
        match r % 8 {
            0..=2 => m % 17 - 8,
            3 => m % 100,
            4 => m % 1000,
            5 => -(m % 100) - 1,
            6 => (if (r >> 5) & 1 == 0 { umax } else { smax }) - m % 4,
            _ => -smax - 1 + m % 4,
        }
    }
}

/// Runs `module` from `entry` `runs` times and compares the instructions with the bound.
pub fn check(
    module: &Module,
    entry: &str,
    found: &Found,
    signed_wrap: bool,
    runs: usize,
) -> Measurement {
    check_until(module, entry, found, signed_wrap, runs, None)
}

/// [`check`] within a deadline: no run starts after it, and a run still going then is dropped.
pub fn check_until(
    module: &Module,
    entry: &str,
    found: &Found,
    signed_wrap: bool,
    runs: usize,
    deadline: Option<Instant>,
) -> Measurement {
    let mut m = Measurement::default();
    let prog = Program::new(module.clone());
    let Some(f) = module.function_by_name(entry) else {
        return m;
    };
    let widths: Vec<Option<u32>> = module
        .func(f)
        .params
        .iter()
        .map(|t| match module.ty(*t).kind {
            symex_ir::TypeKind::Int(w) => Some(w),
            _ => None,
        })
        .collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..runs {
        let params: Vec<i128> = widths
            .iter()
            .map(|w| w.map_or(0, |w| rng.value(w)))
            .collect();
        let nondet: Vec<i128> = (0..NONDET_VALUES).map(|_| rng.value(32)).collect();
        let mut run = Run {
            params,
            nondet,
            instructions: 0,
            bound: None,
            end: End::Exit(0),
        };
        run.bound = found.eval(&|i| value_of(i, &run));
        let limit = match run.bound {
            Some(b) if b >= 0 && (b as u128) < RUN_CAP as u128 => b as u64 + 1,
            _ => RUN_CAP,
        };
        let Some((end, instructions)) = run_once_until(
            &prog,
            entry,
            (&run.params, &run.nondet),
            signed_wrap,
            limit,
            deadline,
        ) else {
            m.cut_by_time = true;
            break;
        };
        run.end = end;
        run.instructions = instructions;
        m.runs += 1;
        let over = run.bound.is_some_and(|b| instructions as i128 > b);
        if over {
            m.violations.push(run);
            continue;
        }
        if matches!(run.end, End::Halt(Halt::Limit(_))) {
            m.capped += 1;
            continue;
        }
        if matches!(run.end, End::Bug(_) | End::Halt(Halt::Unsupported { .. })) {
            m.bugs += 1;
        }
        m.within += 1;
        if let Some(b) = run.bound.filter(|b| *b > 0) {
            m.max_ratio = m.max_ratio.max(instructions as f64 / b as f64);
        }
    }
    m
}

/// One run: the interpreter started at `entry` with its integer parameters set to `params`
/// (raw values, in parameter order) and the input functions returning `nondet` in call
/// order; how it ended and the instructions it executed (terminators included, as `symex
/// replay` counts), at most `limit`.
pub fn run_once(
    prog: &Program,
    entry: &str,
    params: &[i128],
    nondet: &[i128],
    signed_wrap: bool,
    limit: u64,
) -> (End, u64) {
    run_once_until(prog, entry, (params, nondet), signed_wrap, limit, None)
        .expect("a run without a deadline ends")
}

/// Instructions between two looks at the clock in [`run_once_until`].
const SLICE: u64 = 1 << 16;

/// [`run_once`] within a deadline: `None` if it passes first.
fn run_once_until(
    prog: &Program,
    entry: &str,
    (params, nondet): (&[i128], &[i128]),
    signed_wrap: bool,
    limit: u64,
    deadline: Option<Instant>,
) -> Option<(End, u64)> {
    let inputs = nondet
        .iter()
        .map(|v| TestInput {
            name: "__VERIFIER_nondet_int".into(),
            bytes: v.to_le_bytes()[..8].to_vec(),
        })
        .collect();
    let checks = Checks {
        overflow: !signed_wrap,
        ..Checks::default()
    };
    let mut st = State::new(prog, Concrete::new(inputs), checks);
    if let Err(end) = st.start(prog, entry) {
        return Some((end, 0));
    }
    let module = prog.module();
    let f = st.frames()[0].func;
    for (i, (t, v)) in module.func(f).params.iter().zip(params).enumerate() {
        if let symex_ir::TypeKind::Int(w) = module.ty(*t).kind {
            let bits = (*v as u128) & (u128::MAX >> (128 - w));
            let c = st.dom.constant(w, bits);
            st.regs_mut(0).expect("the entry's frame")[i] = c;
        }
    }
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let until = st.steps.saturating_add(SLICE).min(limit);
        match st.run(prog, until) {
            End::Halt(Halt::Limit(_)) if st.steps < limit => {}
            end => return Some((end, st.steps)),
        }
    }
}
