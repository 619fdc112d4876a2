//! Constant expressions that do not fold: their value depends on where the model places an object
//! (`urem (ptrtoint @g), 128`, an address compared after masking its bits), which the lowering does
//! not know. They become the instructions they stand for, placed just before the instruction that
//! uses them, so the engine computes them as it computes the same code written with registers — as
//! KLEE evaluates constant expressions at run time against the addresses it gave the globals.

use super::func::FnLower;
use crate::ir::*;
use llvm_ir::instruction as i;
use llvm_ir::{Constant, ConstantRef, Instruction, Name};

/// The instruction key materialised expressions are lowered under: no LLVM instruction has it, so
/// no fact recorded for a real instruction (flags, names) is attached to one.
const SYNTHETIC_KEY: (u32, u32) = (u32::MAX, u32::MAX);

impl FnLower<'_, '_> {
    /// The operand for a constant expression that did not fold: a fresh slot computed by the
    /// instructions [`Self::take_materialised`] hands out. `None` for what is not such an expression
    /// (or, inside it, something that cannot be computed either), so the caller reports the fold's
    /// own error.
    pub(super) fn materialise(&mut self, c: &ConstantRef) -> Option<Operand> {
        if !self.materialise_allowed {
            return None;
        }
        let dest = Name::Name(Box::new(format!("symex.cexpr.{}", self.slot_types.len())));
        let inst = expr_instruction(self, c, dest.clone())?;
        let ty = self.ctx.ty(&self.ctx.llm.type_of(c)).ok()?;
        let slot = self.declare_slot(&dest, ty);
        let mut own = Vec::new();
        // Operands of `inst` that are themselves unfoldable expressions are put in `pending` by
        // this call, before `inst`'s own instructions are appended: definitions precede uses.
        self.inst(&inst, SYNTHETIC_KEY, &mut own).ok()?;
        self.pending.extend(own);
        Some(Operand::Slot(slot))
    }

    /// The instructions materialised since the last call, in the order they must run.
    pub(super) fn take_materialised(&mut self) -> Vec<Inst> {
        std::mem::take(&mut self.pending)
    }
}

/// The instruction a constant expression stands for, writing `dest`; `None` for any other constant
/// (and for floating point, which symex does not run).
fn expr_instruction(fl: &FnLower<'_, '_>, c: &ConstantRef, dest: Name) -> Option<Instruction> {
    let op = |x: &ConstantRef| llvm_ir::Operand::ConstantOperand(x.clone());
    macro_rules! bin {
        ($k:ident, $b:expr) => {
            Instruction::$k(i::$k {
                operand0: op(&$b.operand0),
                operand1: op(&$b.operand1),
                dest,
                debugloc: None,
            })
        };
    }
    macro_rules! cast {
        ($k:ident, $u:expr) => {
            Instruction::$k(i::$k {
                operand: op(&$u.operand),
                to_type: $u.to_type.clone(),
                dest,
                debugloc: None,
            })
        };
    }
    Some(match c.as_ref() {
        Constant::Add(b) => bin!(Add, b),
        Constant::Sub(b) => bin!(Sub, b),
        Constant::Mul(b) => bin!(Mul, b),
        Constant::UDiv(b) => bin!(UDiv, b),
        Constant::SDiv(b) => bin!(SDiv, b),
        Constant::URem(b) => bin!(URem, b),
        Constant::SRem(b) => bin!(SRem, b),
        Constant::And(b) => bin!(And, b),
        Constant::Or(b) => bin!(Or, b),
        Constant::Xor(b) => bin!(Xor, b),
        Constant::Shl(b) => bin!(Shl, b),
        Constant::LShr(b) => bin!(LShr, b),
        Constant::AShr(b) => bin!(AShr, b),
        Constant::Trunc(u) => cast!(Trunc, u),
        Constant::ZExt(u) => cast!(ZExt, u),
        Constant::SExt(u) => cast!(SExt, u),
        Constant::PtrToInt(u) => cast!(PtrToInt, u),
        Constant::IntToPtr(u) => cast!(IntToPtr, u),
        Constant::BitCast(u) => cast!(BitCast, u),
        Constant::ICmp(x) => Instruction::ICmp(i::ICmp {
            predicate: x.predicate,
            operand0: op(&x.operand0),
            operand1: op(&x.operand1),
            dest,
            debugloc: None,
        }),
        Constant::Select(s) => Instruction::Select(i::Select {
            condition: op(&s.condition),
            true_value: op(&s.true_value),
            false_value: op(&s.false_value),
            dest,
            debugloc: None,
        }),
        Constant::GetElementPtr(g) => {
            let llvm_ir::Type::PointerType { pointee_type, .. } =
                fl.ctx.llm.type_of(&g.address).as_ref().clone()
            else {
                return None;
            };
            Instruction::GetElementPtr(i::GetElementPtr {
                address: op(&g.address),
                indices: g.indices.iter().map(op).collect(),
                dest,
                in_bounds: g.in_bounds,
                debugloc: None,
                source_element_type: pointee_type,
            })
        }
        _ => return None,
    })
}
