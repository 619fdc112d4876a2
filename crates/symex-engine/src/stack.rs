//! The call stack of a state as KLEE prints it in its error files: one line per activation, innermost
//! first, `#N <position> in f(i=symbolic, k=12) at file.c:7`.

use crate::domain::Domain;
use crate::program::Program;
use crate::regs::RegisterFile;
use crate::state::State;

/// One activation of a stack trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackFrame {
    pub function: String,
    /// Each parameter's name (empty when unnamed) and value when it is a constant (`None`: symbolic).
    pub args: Vec<(String, Option<u128>)>,
    pub file: String,
    pub line: u32,
    /// The position of the instruction in the function's IR (blocks laid out in order), standing for
    /// KLEE's line number in `assembly.ll`.
    pub inst: u32,
}

impl StackFrame {
    /// KLEE's line for this activation (`ExecutionState::dumpStack`): index, instruction position padded
    /// to 8 digits, constant arguments in decimal and symbolic ones as `symbolic`.
    pub fn klee_line(&self, index: usize) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|(name, v)| {
                let v = v.map_or_else(|| "symbolic".to_string(), |v| v.to_string());
                if name.is_empty() {
                    v
                } else {
                    format!("{name}={v}")
                }
            })
            .collect();
        let at = if self.file.is_empty() || self.line == 0 {
            String::new()
        } else {
            format!(" at {}:{}", self.file, self.line)
        };
        format!(
            "#{index}{:08} in {}({}){at}",
            self.inst,
            self.function,
            args.join(", ")
        )
    }
}

impl<D: Domain> State<D> {
    /// The stack, innermost activation first. A caller's position is its call instruction (the frame's
    /// cursor has already moved past it).
    pub fn stack_trace(&self, prog: &Program) -> Vec<StackFrame> {
        let n = self.frames().len();
        self.frames_with_regs()
            .enumerate()
            .rev()
            .map(|(k, (f, regs))| {
                let func = prog.module().func(f.func);
                let inner = k + 1 == n;
                let at = if inner {
                    f.inst
                } else {
                    f.inst.saturating_sub(1)
                };
                let mut loc = func.loc;
                let mut inst = 0u32;
                if let Some(body) = &func.body {
                    for b in &body.blocks[..f.block.0 as usize] {
                        inst += b.insts.len() as u32 + 1;
                    }
                    inst += at;
                    let b = &body.blocks[f.block.0 as usize];
                    let l = b.locs.get(at as usize).copied().unwrap_or(b.term_loc);
                    if l.is_known() {
                        loc = l;
                    }
                }
                let args = func
                    .params
                    .iter()
                    .enumerate()
                    .map(|(i, _)| {
                        let name = func.param_names.get(i).cloned().unwrap_or_default();
                        (name, regs.get(i).and_then(|v| self.dom.as_const(v)))
                    })
                    .collect();
                StackFrame {
                    function: func.name.clone(),
                    args,
                    file: if loc.is_known() {
                        prog.module().file_name(loc).to_string()
                    } else {
                        String::new()
                    },
                    line: loc.line,
                    inst,
                }
            })
            .collect()
    }
}
