//! The reports of clang's `-fsanitize=shift-base,shift-exponent` checks, read as SV-COMP's
//! `no-overflow` reads them.
//!
//! Both checks call one handler, `__ubsan_handle_shift_out_of_bounds(data, lhs, rhs)`, for left and
//! right shifts, signed and unsigned. Only a signed left shift is an arithmetic overflow: `x << n`
//! with `n` outside `0..width` or `x·2ⁿ` outside the type has no representable result (C11 6.5.7p4;
//! UBSan: "shift exponent 32 is too large for 32-bit type 'int'"). An unsigned shift, or a right
//! shift, by too much is undefined too, but not an overflow: the handler then lets the run go on, as
//! UBSan's recoverable handler does.

use symex_ir::{AddrBase, BinOp, BlockId, Const, FuncId, Inst, Module, Operand, Terminator};

/// What the report of the shift check whose handler block is `handler` (in `func`) means: `Some`
/// message for a signed left shift, `None` for a shift that does not overflow.
pub(super) fn shift_overflow(
    module: &Module,
    func: FuncId,
    handler: BlockId,
    data: &Operand,
) -> Option<&'static str> {
    if lhs_is_signed(module, data) == Some(false) {
        return None;
    }
    match guarded_shift(module, func, handler) {
        Some(BinOp::LShr | BinOp::AShr) => None,
        _ => Some(
            "signed left shift overflows (C11 6.5.7p4: the exponent is negative or not below the width, or the value times 2^exponent is not representable)",
        ),
    }
}

/// Whether the left operand's type descriptor (`ShiftOutOfBoundsData { SourceLocation, const
/// TypeDescriptor *LHSType, *RHSType }`, the second pointer of the data) says signed: bit 0 of
/// `TypeInfo`, the `u16` after `TypeKind` (0: integer).
fn lhs_is_signed(module: &Module, data: &Operand) -> Option<bool> {
    let Operand::Const(c) = data else {
        return None;
    };
    let Const::Addr {
        base: AddrBase::Global(g),
        offset: 0,
    } = module.konst(*c)
    else {
        return None;
    };
    let init = module.global(*g).init.as_ref()?;
    let mut relocs: Vec<_> = init.relocs.iter().collect();
    relocs.sort_by_key(|r| r.offset);
    let AddrBase::Global(lhs_type) = relocs.get(1)?.target else {
        return None;
    };
    let descriptor = module.global(lhs_type).init.as_ref()?;
    let bytes = descriptor.bytes.get(..4)?;
    let kind = u16::from_le_bytes([bytes[0], bytes[1]]);
    let info = u16::from_le_bytes([bytes[2], bytes[3]]);
    (kind == 0).then_some(info & 1 == 1)
}

/// The first shift after the check that branches to `handler`: the operation it guards.
fn guarded_shift(module: &Module, func: FuncId, handler: BlockId) -> Option<BinOp> {
    let blocks = &module.func(func).body.as_ref()?.blocks;
    let cont = blocks.iter().find_map(|b| match &b.term {
        Terminator::CondBr {
            if_true, if_false, ..
        } if if_false.to == handler => Some(if_true.to),
        Terminator::CondBr {
            if_true, if_false, ..
        } if if_true.to == handler => Some(if_false.to),
        _ => None,
    })?;
    // The shift sits in the continuation, possibly after an unconditional hop.
    let mut at = cont;
    for _ in 0..4 {
        let block = blocks.get(at.0 as usize)?;
        let shift = block.insts.iter().find_map(|i| match i {
            Inst::Bin {
                op: op @ (BinOp::Shl | BinOp::LShr | BinOp::AShr),
                ..
            } => Some(*op),
            _ => None,
        });
        if shift.is_some() {
            return shift;
        }
        match &block.term {
            Terminator::Br(e) => at = e.to,
            _ => return None,
        }
    }
    None
}
