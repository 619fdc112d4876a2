//! The arguments `main(argc, argv, envp)` starts with, one harness for every engine of `check` and for
//! `bmc` (and `bmc --engine chc`): a `main` that reads `argc` runs with any `argc >= 0` (C11
//! 5.1.2.2.1p2; SV-COMP's harness, like CBMC's, may pass any arguments), `argv` staying `{program,
//! NULL}` unread. One that reads `argv` or `envp` would need their strings modelled for every `argc`
//! (bounded string lengths cannot be complete): it is not decided.
//!
//! A parameter is read when its value reaches anything but a spill into a stack slot that is only
//! loaded to be passed on, or a direct call whose callee does not read that parameter in turn (`main`
//! handing `argv` to a function that ignores it).

use std::collections::HashSet;
use symex_engine::Program;
use symex_ir::{Callee, FuncId, Inst, Operand, Slot};

/// How deep the walk follows a value into callees before taking it as read.
const MAX_CALL_DEPTH: usize = 8;

/// Which of `main(argc, argv, envp)`'s parameters the program reads.
fn main_parameters_read(prog: &Program) -> Vec<usize> {
    let Some(f) = prog.module().function_by_name("main") else {
        return Vec::new();
    };
    let func = prog.module().func(f);
    (0..func.params.len().min(3))
        .filter(|&p| reads(prog, f, Slot(p as u32), 0, &mut HashSet::new()))
        .collect()
}

/// Whether `main`'s `argc` must be explored as an input (`Ok(true)`) when the run starts at `entry`, or
/// why no engine can cover every run of `main(argc, argv, envp)` (`Err`). Another entry function
/// starts with its parameters zero, as before.
pub fn symbolic_argc(prog: &Program, entry: &str) -> Result<bool, String> {
    if entry != "main" {
        return Ok(false);
    }
    let read = main_parameters_read(prog);
    let names = ["argc", "argv", "envp"];
    match read.iter().find(|&&p| p > 0) {
        Some(&p) => Err(format!(
            "`main` reads its parameter {} ({}), whose strings symex does not model",
            p + 1,
            names[p]
        )),
        None => Ok(read.contains(&0)),
    }
}

/// Whether function `f` reads the value of its slot `s`. `seen` holds the (function, slot) pairs on the
/// walk: a value that only goes round a recursion is not read by it.
fn reads(
    prog: &Program,
    f: FuncId,
    s: Slot,
    depth: usize,
    seen: &mut HashSet<(FuncId, Slot)>,
) -> bool {
    if !seen.insert((f, s)) {
        return false;
    }
    let Some(body) = prog.module().func(f).body.as_ref() else {
        return true;
    };
    let is_s = |o: &Operand| *o == Operand::Slot(s);
    let mut through: Vec<(FuncId, Slot)> = Vec::new();
    let mut other = 0;
    for b in &body.blocks {
        for i in &b.insts {
            match i {
                Inst::Store {
                    ptr: Operand::Slot(a),
                    val,
                    ..
                } if is_s(val) && *a != s && is_alloca(body, *a) => match loads_of(body, *a) {
                    Some(loaded) => through.extend(loaded.into_iter().map(|d| (f, d))),
                    None => return true,
                },
                Inst::Call(c) => {
                    let Callee::Direct(g) = c.callee else {
                        other += count(i, s);
                        continue;
                    };
                    let params = prog.module().func(g).params.len();
                    for (k, a) in c.args.iter().enumerate() {
                        if is_s(a) {
                            if k < params && depth < MAX_CALL_DEPTH {
                                through.push((g, Slot(k as u32)));
                            } else {
                                return true;
                            }
                        }
                    }
                }
                _ => other += count(i, s),
            }
        }
        symex_ir::uses::terminator_operands(&b.term, &mut |o| other += usize::from(is_s(o)));
    }
    other > 0
        || through.into_iter().any(|(g, t)| {
            let deeper = depth + usize::from(g != f);
            reads(prog, g, t, deeper, seen)
        })
}

/// How many times `inst` reads slot `s`.
fn count(inst: &Inst, s: Slot) -> usize {
    let mut n = 0;
    symex_ir::uses::inst_operands(inst, &mut |o| n += usize::from(*o == Operand::Slot(s)));
    n
}

/// Whether slot `a` is the address of a stack object of the body.
fn is_alloca(body: &symex_ir::Body, a: Slot) -> bool {
    body.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .any(|i| matches!(i, Inst::Alloca { dst, .. } if *dst == a))
}

/// The slots loaded from the stack object at `a`, when its address is used by nothing but loads and
/// stores into it (`None`: it escapes, so what is stored there may be read anywhere).
fn loads_of(body: &symex_ir::Body, a: Slot) -> Option<Vec<Slot>> {
    let here = Operand::Slot(a);
    let mut loaded = Vec::new();
    for b in &body.blocks {
        for i in &b.insts {
            match i {
                Inst::Load { dst, ptr, .. } if *ptr == here => loaded.push(*dst),
                Inst::Store { ptr, val, .. } if *ptr == here && *val != here => {}
                i if count(i, a) > 0 => return None,
                _ => {}
            }
        }
        let mut escapes = false;
        symex_ir::uses::terminator_operands(&b.term, &mut |o| escapes |= *o == here);
        if escapes {
            return None;
        }
    }
    Some(loaded)
}
