//! Recursion beyond the bound, abstracted for TRUE: a call that would start the `K+1`-th nested
//! activation of a function *without side effects* returns a fresh value instead of ending in the
//! unwinding assertion. SV-COMP's `id(x) = x == 0 ? 0 : min(id(x-1) + 1, 2)` over any `x` is then TRUE
//! at `K = 1`: whatever the deeper calls return, the result is at most 2.
//!
//! Without side effects means (checked on the IR, for the function and everything it calls): its loads
//! and stores go to its own stack objects through their own addresses, its calls go to such functions,
//! and it has no division, no input, no other memory access and no `unreachable`. Such a call can only
//! return a value or not return at all, and it reaches no error: so a fresh return value
//! over-approximates it, and a run with those calls abstracted that reaches no error and no bound shows
//! that the program reaches none. Only a TRUE is taken from such a run ([`crate::check`]); its errors may
//! be spurious.

use symex_engine::Program;
use symex_ir::{BinOp, Body, Callee, Inst, Intrinsic, Operand, Terminator};

/// Per function of `prog`: whether it has no side effects, as above.
pub(crate) fn without_side_effects(prog: &Program) -> Vec<bool> {
    let fs = &prog.module().functions;
    let mut ok: Vec<bool> = fs
        .iter()
        .map(|f| !f.is_vararg && f.body.as_ref().is_some_and(local_only))
        .collect();
    // The greatest fixpoint over the calls: a function that calls one with side effects has them.
    loop {
        let mut changed = false;
        for (i, f) in fs.iter().enumerate() {
            let Some(body) = f.body.as_ref().filter(|_| ok[i]) else {
                continue;
            };
            let calls_ok = body
                .blocks
                .iter()
                .flat_map(|b| &b.insts)
                .all(|inst| match inst {
                    Inst::Call(c) => matches!(c.callee, Callee::Direct(g) if ok[g.0 as usize]),
                    _ => true,
                });
            if !calls_ok {
                ok[i] = false;
                changed = true;
            }
        }
        if !changed {
            return ok;
        }
    }
}

/// Whether every instruction of `body` is arithmetic without a trap, or an access to one of its own
/// stack objects through the alloca's own register, or a direct call.
fn local_only(body: &Body) -> bool {
    let allocas: Vec<u32> = body
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter_map(|i| match i {
            Inst::Alloca {
                dst, count: None, ..
            } => Some(dst.0),
            _ => None,
        })
        .collect();
    let own = |p: &Operand| matches!(p, Operand::Slot(s) if allocas.contains(&s.0));
    body.blocks.iter().all(|b| {
        let term = matches!(
            b.term,
            Terminator::Ret(_)
                | Terminator::Br(_)
                | Terminator::CondBr { .. }
                | Terminator::Switch(_)
        );
        term && b.insts.iter().all(|inst| match inst {
            Inst::Bin { op, .. } => {
                !matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem)
            }
            Inst::ICmp { .. }
            | Inst::Cast { .. }
            | Inst::Copy { .. }
            | Inst::Freeze { .. }
            | Inst::Select { .. } => true,
            Inst::Alloca { count, .. } => count.is_none(),
            Inst::Load { ptr, .. } | Inst::Store { ptr, .. } => own(ptr),
            Inst::Call(c) => matches!(c.callee, Callee::Direct(_)),
            // Lifetime markers of its own locals (their pointer cast to `i8*` first).
            Inst::Intrinsic {
                op: Intrinsic::LifetimeStart | Intrinsic::LifetimeEnd,
                ..
            } => true,
            _ => false,
        })
    })
}
