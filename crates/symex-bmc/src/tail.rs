//! The bug-free tail of a program: points from which no run can reach any bug, because everything
//! that can still execute — the rest of the current block and every block reachable from it, then the
//! rest of each caller after its call — is arithmetic without traps, accesses to the function's own
//! stack objects, input, and calls of functions built only of the same. The merging executor drops a
//! state that arrives at such a point (CBMC slices away what follows the last assertion): it can only
//! end normally, be cut by an assumption or run forever, so neither an error nor an unwinding assertion
//! there changes a verdict. A loop after the program's last check (SV-COMP's `trex01-2`, whose second
//! loop runs as long as its inputs say) then no longer keeps BMC at `bounded-true`.
//!
//! Only where nothing happens at the program's end either: not under the leak and cleanup checks
//! (a block lost before `main` returns is a bug there), signed-overflow, shift or UBSan checks, and
//! not in a program that registers `atexit` handlers. The stack-frame limit is no concern: a run
//! dropped here that would reach it is cut by symex, not by the program.

use symex_engine::{Checks, Program, State};
use symex_ir::{BinOp, Body, Callee, Inst, Intrinsic, Operand, Terminator};

/// Input functions: they return a fresh value and reach no bug.
const INPUT_PREFIX: &str = "__VERIFIER_nondet_";

/// Per function, per block: the first instruction from which the rest of the block is clean, and
/// whether its terminator is clean and every block it may go to is wholly clean with all it reaches.
pub(crate) struct Tail {
    clean_from: Vec<Vec<usize>>,
    rest: Vec<Vec<bool>>,
}

impl Tail {
    /// The tail of `prog` under `checks`; `None` when the checks or the program put bugs at its end.
    pub(crate) fn of(prog: &Program, checks: &Checks) -> Option<Tail> {
        if checks.leaks
            || checks.cleanup
            || checks.overflow
            || checks.overshift
            || checks.ubsan_runtime
        {
            return None;
        }
        let fs = &prog.module().functions;
        if fs
            .iter()
            .any(|f| matches!(&*f.name, "atexit" | "__cxa_atexit" | "on_exit"))
        {
            return None;
        }
        let clean_fn = clean_functions(prog);
        let mut rest = Vec::new();
        let mut clean_from = Vec::new();
        for f in fs {
            let Some(body) = &f.body else {
                rest.push(Vec::new());
                clean_from.push(Vec::new());
                continue;
            };
            let own = own_allocas(body);
            let from: Vec<usize> = body
                .blocks
                .iter()
                .map(|b| {
                    b.insts
                        .iter()
                        .rposition(|i| !clean_inst(i, &own, &clean_fn))
                        .map_or(0, |p| p + 1)
                })
                .collect();
            rest.push(rest_clean(prog, body, &own, &from));
            clean_from.push(from);
        }
        Some(Tail { clean_from, rest })
    }

    /// Whether no run from `st` can reach a bug: every frame's rest is clean.
    pub(crate) fn holds<D: symex_engine::domain::Domain>(&self, st: &State<D>) -> bool {
        !st.frames().is_empty()
            && st.frames().iter().all(|f| {
                let (func, block) = (f.func.0 as usize, f.block.0 as usize);
                let from = self.clean_from[func].get(block).copied();
                from.is_some_and(|c| f.inst as usize >= c) && self.rest[func][block]
            })
    }
}

/// Per block: whether its terminator is clean and every block it may go to is quiet (its instructions,
/// terminator and successors all clean: the greatest fixpoint, so a loop of clean blocks is quiet).
fn rest_clean(prog: &Program, body: &Body, own: &[u32], from: &[usize]) -> Vec<bool> {
    let n = body.blocks.len();
    let succs: Vec<Vec<u32>> = body
        .blocks
        .iter()
        .map(|b| live_successors(prog, body, own, &b.term))
        .collect();
    let mut quiet: Vec<bool> = (0..n)
        .map(|i| from[i] == 0 && clean_term(&body.blocks[i].term))
        .collect();
    loop {
        let mut changed = false;
        for i in 0..n {
            if quiet[i] && !succs[i].iter().all(|&s| quiet[s as usize]) {
                quiet[i] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (0..n)
        .map(|i| clean_term(&body.blocks[i].term) && succs[i].iter().all(|&s| quiet[s as usize]))
        .collect()
}

/// The blocks `term` may go to. A `switch` over a value loaded from one of the function's own locals,
/// whose every store puts a constant among the cases and whose address goes nowhere else, never takes
/// its default: clang's `cleanup.dest.slot` (a `return` inside a scope), whose default is `unreachable`.
fn live_successors(prog: &Program, body: &Body, own: &[u32], term: &Terminator) -> Vec<u32> {
    let all = || term.successors().iter().map(|s| s.0).collect();
    let Terminator::Switch(sw) = term else {
        return all();
    };
    let Operand::Slot(v) = sw.value else {
        return all();
    };
    let insts = || body.blocks.iter().flat_map(|b| &b.insts);
    let local = insts().find_map(|i| match i {
        Inst::Load {
            dst,
            ptr: Operand::Slot(a),
            ..
        } if *dst == v && own.contains(&a.0) => Some(*a),
        _ => None,
    });
    let Some(a) = local else {
        return all();
    };
    let mask = if sw.width >= 128 {
        u128::MAX
    } else {
        (1u128 << sw.width) - 1
    };
    let mut accesses = 0;
    let only_cases = insts().all(|i| match i {
        Inst::Load {
            ptr: Operand::Slot(p),
            ..
        } if *p == a => {
            accesses += 1;
            true
        }
        Inst::Store {
            ptr: Operand::Slot(p),
            val,
            ..
        } if *p == a => {
            accesses += 1;
            matches!(val, Operand::Const(c) if matches!(
                prog.module().consts[c.0 as usize],
                symex_ir::Const::Int { value, .. } if sw.cases.iter().any(|(k, _)| *k == value & mask)
            ))
        }
        Inst::Intrinsic {
            op: Intrinsic::LifetimeStart | Intrinsic::LifetimeEnd,
            args,
            ..
        } if args.contains(&Operand::Slot(a)) => {
            accesses += 1;
            true
        }
        _ => true,
    });
    let escapes = symex_ir::uses::slot_uses(&body.blocks, a) != accesses;
    if !only_cases || escapes {
        return all();
    }
    sw.cases.iter().map(|(_, e)| e.to.0).collect()
}

fn clean_term(t: &Terminator) -> bool {
    matches!(
        t,
        Terminator::Ret(_) | Terminator::Br(_) | Terminator::CondBr { .. } | Terminator::Switch(_)
    )
}

/// The registers of `body`'s fixed-size allocas.
fn own_allocas(body: &Body) -> Vec<u32> {
    body.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter_map(|i| match i {
            Inst::Alloca {
                dst, count: None, ..
            } => Some(dst.0),
            _ => None,
        })
        .collect()
}

/// Whether `inst` can reach no bug: arithmetic without division, an access to one of the function's
/// own stack objects through the alloca's register, a call of an input function or of a clean one.
fn clean_inst(inst: &Inst, own: &[u32], clean_fn: &[bool]) -> bool {
    let own_ptr = |p: &Operand| matches!(p, Operand::Slot(s) if own.contains(&s.0));
    match inst {
        Inst::Bin { op, .. } => {
            !matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem)
        }
        Inst::ICmp { .. }
        | Inst::Cast { .. }
        | Inst::Copy { .. }
        | Inst::Freeze { .. }
        | Inst::Select { .. } => true,
        Inst::Alloca { count, .. } => count.is_none(),
        Inst::Load { ptr, .. } | Inst::Store { ptr, .. } => own_ptr(ptr),
        Inst::Call(c) => matches!(c.callee, Callee::Direct(g) if clean_fn[g.0 as usize]),
        // Scopes of the function's own locals (clang marks them even at -O0): the accesses above go
        // through the local's own name, which C only lets the program use inside its scope.
        Inst::Intrinsic {
            op: Intrinsic::LifetimeStart | Intrinsic::LifetimeEnd,
            ..
        } => true,
        _ => false,
    }
}

/// Per function: whether a call of it reaches no bug. An input function (declared, `__VERIFIER_nondet_*`)
/// does not; a defined one does not when all its instructions and terminators are clean (the greatest
/// fixpoint over the calls) and it is not one of the functions the engine gives a meaning of its own
/// (`reach_error`, `__VERIFIER_*`, `klee_*`, the C library's).
fn clean_functions(prog: &Program) -> Vec<bool> {
    let fs = &prog.module().functions;
    let mut ok: Vec<bool> = fs
        .iter()
        .map(|f| match &f.body {
            None => f.name.starts_with(INPUT_PREFIX),
            Some(_) => {
                !f.is_vararg
                    && !f.name.starts_with("__VERIFIER_")
                    && !f.name.starts_with("klee_")
                    && !f.name.starts_with("__")
                    && !matches!(&*f.name, "reach_error" | "abort" | "exit" | "main")
            }
        })
        .collect();
    loop {
        let mut changed = false;
        for (i, f) in fs.iter().enumerate() {
            let Some(body) = f.body.as_ref().filter(|_| ok[i]) else {
                continue;
            };
            let own = own_allocas(body);
            let clean = body.blocks.iter().all(|b| {
                clean_term(&b.term) && b.insts.iter().all(|inst| clean_inst(inst, &own, &ok))
            });
            if !clean {
                ok[i] = false;
                changed = true;
            }
        }
        if !changed {
            return ok;
        }
    }
}
