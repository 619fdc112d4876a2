//! Which operands an instruction or a terminator reads: the uses of a value, for analyses such as
//! "does `main` read `argc`". The matches are exhaustive, so a new operand position is a compile error
//! here rather than a use silently missed.

use crate::ir::{Block, Call, Callee, Edge, Inst, Operand, Slot, Terminator, VectorInst};

/// Calls `f` on every operand `inst` reads.
pub fn inst_operands<'a>(inst: &'a Inst, f: &mut impl FnMut(&'a Operand)) {
    match inst {
        Inst::Bin { lhs, rhs, .. } | Inst::ICmp { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        Inst::Cast { src, .. } | Inst::Copy { src, .. } | Inst::Freeze { src, .. } => f(src),
        Inst::Select {
            cond,
            on_true,
            on_false,
            ..
        } => {
            f(cond);
            f(on_true);
            f(on_false);
        }
        Inst::Gep { base, indices, .. } => {
            f(base);
            indices.iter().for_each(|i| f(&i.index));
        }
        Inst::Load { ptr, .. } => f(ptr),
        Inst::Store { ptr, val, .. } => {
            f(ptr);
            f(val);
        }
        Inst::Alloca { count, .. } => count.iter().for_each(&mut *f),
        Inst::Call(call) => call_operands(call, f),
        Inst::Intrinsic { args, .. } => args.iter().for_each(&mut *f),
        Inst::ExtractValue { agg, .. } => f(agg),
        Inst::InsertValue { agg, val, .. } => {
            f(agg);
            f(val);
        }
        Inst::Vector(v) => vector_operands(v, f),
    }
}

fn call_operands<'a>(call: &'a Call, f: &mut impl FnMut(&'a Operand)) {
    if let Callee::Indirect(p) = &call.callee {
        f(p);
    }
    call.args.iter().for_each(f);
}

fn vector_operands<'a>(v: &'a VectorInst, f: &mut impl FnMut(&'a Operand)) {
    match v {
        VectorInst::Bin { lhs, rhs, .. } | VectorInst::ICmp { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        VectorInst::Cast { src, .. }
        | VectorInst::Reduce { src, .. }
        | VectorInst::Bitcast { src, .. } => f(src),
        VectorInst::Select {
            cond,
            on_true,
            on_false,
            ..
        } => {
            f(cond);
            f(on_true);
            f(on_false);
        }
        VectorInst::LaneIntrinsic { args, .. } => args.iter().for_each(&mut *f),
        VectorInst::ExtractElement { vec, index, .. } => {
            f(vec);
            f(index);
        }
        VectorInst::InsertElement {
            vec, elem, index, ..
        } => {
            f(vec);
            f(elem);
            f(index);
        }
        VectorInst::Shuffle { a, b, .. } => {
            f(a);
            f(b);
        }
    }
}

/// Calls `f` on every operand the terminator reads, phi moves of its edges included.
pub fn terminator_operands<'a>(term: &'a Terminator, f: &mut impl FnMut(&'a Operand)) {
    let edge = |e: &'a Edge, f: &mut dyn FnMut(&'a Operand)| e.moves.iter().for_each(|m| f(&m.src));
    match term {
        Terminator::Ret(v) => v.iter().for_each(&mut *f),
        Terminator::Br(e) => edge(e, f),
        Terminator::CondBr {
            cond,
            if_true,
            if_false,
        } => {
            f(cond);
            edge(if_true, f);
            edge(if_false, f);
        }
        Terminator::Switch(s) => {
            f(&s.value);
            edge(&s.default, f);
            s.cases.iter().for_each(|(_, e)| edge(e, f));
        }
        Terminator::Unreachable => {}
    }
}

/// How many times the blocks read slot `s` (phi moves included; a phi's own incoming list is the same
/// uses as its edges' moves and is not counted twice).
pub fn slot_uses(blocks: &[Block], s: Slot) -> usize {
    let mut n = 0;
    let mut count = |o: &Operand| {
        if *o == Operand::Slot(s) {
            n += 1;
        }
    };
    for b in blocks {
        b.insts.iter().for_each(|i| inst_operands(i, &mut count));
        terminator_operands(&b.term, &mut count);
    }
    n
}
