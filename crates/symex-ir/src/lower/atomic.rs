//! Atomic instructions. Programs run on one thread, so each is the plain memory operation it
//! orders: `atomicrmw` a load, the operation and a store (the old value is the result), `cmpxchg` a
//! load, a compare and a store of the chosen value (the result is `{old, equal}`), `fence` nothing.

use super::func::{FnLower, Shape};
use crate::error::{FrontendError, Result};
use crate::ir::*;
use llvm_ir::instruction::{AtomicRMW, CmpXchg, RMWBinOp};
use llvm_ir::{Constant, ConstantRef};

impl FnLower<'_, '_> {
    pub(super) fn atomic_rmw(&mut self, a: &AtomicRMW, out: &mut Vec<Inst>) -> Result<()> {
        let dst = self.dst(&a.dest)?;
        let ty = self.slot_types[dst.0 as usize];
        let width = match self.shape(ty) {
            Shape::Int(w) => w,
            Shape::Ptr => 64,
            _ => {
                return Err(FrontendError::unsupported(
                    "`atomicrmw` on a non-integer type",
                ))
            }
        };
        let (size, align) = self.access(ty, 0)?;
        let ptr = self.op(&a.address)?;
        let val = self.op(&a.value)?;
        out.push(Inst::Load {
            dst,
            ptr,
            ty,
            size,
            align,
            volatile: a.volatile,
            promoted: None,
        });
        let old = Operand::Slot(dst);
        let new = match a.operation {
            RMWBinOp::Xchg => val,
            RMWBinOp::Add => self.rmw_bin(BinOp::Add, width, ty, old, val, out),
            RMWBinOp::Sub => self.rmw_bin(BinOp::Sub, width, ty, old, val, out),
            RMWBinOp::And => self.rmw_bin(BinOp::And, width, ty, old, val, out),
            RMWBinOp::Or => self.rmw_bin(BinOp::Or, width, ty, old, val, out),
            RMWBinOp::Xor => self.rmw_bin(BinOp::Xor, width, ty, old, val, out),
            RMWBinOp::Nand => {
                let and = self.rmw_bin(BinOp::And, width, ty, old, val, out);
                let ones = self.int_const(width, u128::MAX)?;
                self.rmw_bin(BinOp::Xor, width, ty, and, ones, out)
            }
            RMWBinOp::Max => self.rmw_pick(IntPred::Sgt, width, ty, old, val, out)?,
            RMWBinOp::Min => self.rmw_pick(IntPred::Slt, width, ty, old, val, out)?,
            RMWBinOp::UMax => self.rmw_pick(IntPred::Ugt, width, ty, old, val, out)?,
            RMWBinOp::UMin => self.rmw_pick(IntPred::Ult, width, ty, old, val, out)?,
            _ => {
                return Err(FrontendError::unsupported(
                    "floating-point `atomicrmw` (no floating point)",
                ))
            }
        };
        out.push(Inst::Store {
            ptr,
            val: new,
            ty,
            size,
            align,
            volatile: a.volatile,
            promoted: None,
        });
        Ok(())
    }

    pub(super) fn cmpxchg(&mut self, c: &CmpXchg, out: &mut Vec<Inst>) -> Result<()> {
        let dst = self.dst(&c.dest)?;
        let ty = self.op_ty(&c.expected)?;
        let width = match self.shape(ty) {
            Shape::Int(w) => w,
            Shape::Ptr => 64,
            _ => {
                return Err(FrontendError::unsupported(
                    "`cmpxchg` on a non-integer type",
                ))
            }
        };
        let (size, align) = self.access(ty, 0)?;
        let ptr = self.op(&c.address)?;
        let expected = self.op(&c.expected)?;
        let replacement = self.op(&c.replacement)?;
        let old = self.fresh_slot(ty);
        out.push(Inst::Load {
            dst: old,
            ptr,
            ty,
            size,
            align,
            volatile: c.volatile,
            promoted: None,
        });
        let bool_ty = self.ctx.ty(&self.ctx.llm.types.bool())?;
        let equal = self.fresh_slot(bool_ty);
        out.push(Inst::ICmp {
            pred: IntPred::Eq,
            width,
            dst: equal,
            lhs: Operand::Slot(old),
            rhs: expected,
        });
        let stored = self.fresh_slot(ty);
        out.push(Inst::Select {
            dst: stored,
            cond: Operand::Slot(equal),
            on_true: replacement,
            on_false: Operand::Slot(old),
        });
        out.push(Inst::Store {
            ptr,
            val: Operand::Slot(stored),
            ty,
            size,
            align,
            volatile: c.volatile,
            promoted: None,
        });
        // The result `{ old, equal }`, built on an undefined pair.
        let pair_ty = self.ctx.llm.types.struct_of(
            vec![self.ctx.llm.type_of(&c.expected), self.ctx.llm.types.bool()],
            false,
        );
        let undef = Operand::Const(
            self.ctx
                .const_id(&ConstantRef::new(Constant::Undef(pair_ty)))?,
        );
        let dst_ty = self.slot_types[dst.0 as usize];
        let first = self.fresh_slot(dst_ty);
        let (flag_offset, _) = self.aggregate_path(dst_ty, &[1])?;
        out.push(Inst::InsertValue {
            dst: first,
            agg: undef,
            val: Operand::Slot(old),
            offset: 0,
            ty,
        });
        out.push(Inst::InsertValue {
            dst,
            agg: Operand::Slot(first),
            val: Operand::Slot(equal),
            offset: flag_offset,
            ty: bool_ty,
        });
        Ok(())
    }

    fn rmw_bin(
        &mut self,
        op: BinOp,
        width: u32,
        ty: TypeId,
        lhs: Operand,
        rhs: Operand,
        out: &mut Vec<Inst>,
    ) -> Operand {
        let dst = self.fresh_slot(ty);
        out.push(Inst::Bin {
            op,
            flags: ArithFlags::NONE,
            width,
            dst,
            lhs,
            rhs,
        });
        Operand::Slot(dst)
    }

    /// `old pred val ? old : val` (the `max`/`min` family).
    fn rmw_pick(
        &mut self,
        pred: IntPred,
        width: u32,
        ty: TypeId,
        old: Operand,
        val: Operand,
        out: &mut Vec<Inst>,
    ) -> Result<Operand> {
        let bool_ty = self.ctx.ty(&self.ctx.llm.types.bool())?;
        let keep = self.fresh_slot(bool_ty);
        out.push(Inst::ICmp {
            pred,
            width,
            dst: keep,
            lhs: old,
            rhs: val,
        });
        let dst = self.fresh_slot(ty);
        out.push(Inst::Select {
            dst,
            cond: Operand::Slot(keep),
            on_true: old,
            on_false: val,
        });
        Ok(Operand::Slot(dst))
    }

    /// The `width`-bit integer constant `bits` (masked).
    fn int_const(&mut self, width: u32, bits: u128) -> Result<Operand> {
        let masked = if width >= 128 {
            bits
        } else {
            bits & ((1u128 << width) - 1)
        };
        let c = Constant::Int {
            bits: width,
            value: masked as u64,
        };
        Ok(Operand::Const(self.ctx.const_id(&ConstantRef::new(c))?))
    }
}
