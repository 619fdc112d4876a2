//! The reports of clang's `-fsanitize=` checks: the shift checks read as SV-COMP's `no-overflow`
//! reads them, and every check as KLEE's UBSan runtime reports it (`runtime_report`).
//!
//! Both checks call one handler, `__ubsan_handle_shift_out_of_bounds(data, lhs, rhs)`, for left and
//! right shifts, signed and unsigned. Only a signed left shift is an arithmetic overflow: `x << n`
//! with `n` outside `0..width` or `x·2ⁿ` outside the type has no representable result (C11 6.5.7p4;
//! UBSan: "shift exponent 32 is too large for 32-bit type 'int'"). An unsigned shift, or a right
//! shift, by too much is undefined too, but not an overflow: the handler then lets the run go on, as
//! UBSan's recoverable handler does.

use crate::bug::{BugKind, End};
use crate::domain::{Decision, Domain};
use crate::program::Program;
use crate::state::State;
use symex_ir::{AddrBase, BinOp, BlockId, Call, Const, FuncId, Inst, Module, Operand, Terminator};

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
    let bytes = descriptor.read(0, 4);
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

/// The UBSan handlers whose report does not depend on symex's reading of overflow: each is the
/// check KLEE's UBSan runtime (`--ubsan-runtime`) reports, whatever symex's options.
pub(super) fn is_runtime_handler(handler: &str) -> bool {
    matches!(
        handler,
        "__ubsan_handle_builtin_unreachable"
            | "__ubsan_handle_missing_return"
            | "__ubsan_handle_vla_bound_not_positive"
            | "__ubsan_handle_load_invalid_value"
            | "__ubsan_handle_out_of_bounds"
            | "__ubsan_handle_invalid_builtin"
            | "__ubsan_handle_nonnull_return_v1"
            | "__ubsan_handle_nullability_return_v1"
            | "__ubsan_handle_nonnull_arg"
            | "__ubsan_handle_nullability_arg"
            | "__ubsan_handle_alignment_assumption"
            | "__ubsan_handle_type_mismatch_v1"
            | "__ubsan_handle_pointer_overflow"
            | "__ubsan_handle_implicit_conversion"
            | "__ubsan_handle_float_cast_overflow"
    )
}

/// The report of a UBSan check as KLEE's UBSan runtime gives it: the check's name as UBSan
/// summarises it (`unsigned-integer-overflow`, `null-pointer-use`, ...) and the extension of KLEE's
/// error file (`overflow.err`, `ptr.err`, ...). The handler's static data and arguments tell the
/// checks of one handler apart, as the runtime's handlers do.
pub(super) fn runtime_report<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    call: &Call,
    args: &[D::Val],
) -> End {
    let name = super::callee_name(prog, call).trim_end_matches("_abort");
    let handler = name.strip_prefix("__ubsan_handle_").unwrap_or(name);
    let module = prog.module();
    let pb = u64::from(module.target.pointer_bytes);
    // Every handler's data starts with a `SourceLocation { const char *file; u32 line, column; }`.
    let after_location = pb + 8;
    let (check, suffix) = match handler {
        "add_overflow" | "sub_overflow" | "mul_overflow" | "negate_overflow" => {
            match call.args.first().and_then(|d| lhs_is_signed(module, d)) {
                Some(false) => ("unsigned-integer-overflow", "overflow.err"),
                _ => ("signed-integer-overflow", "overflow.err"),
            }
        }
        "divrem_overflow" => ("integer division overflow", "overflow.err"),
        "shift_out_of_bounds" => ("shift out of bounds", "overflow.err"),
        "type_mismatch_v1" => {
            // `TypeMismatchData { loc; const TypeDescriptor *type; u8 log_alignment; u8 kind; }`
            let log_align = call
                .args
                .first()
                .and_then(|d| data_byte(module, d, after_location + pb))
                .unwrap_or(0);
            match chosen(st, args.get(1)) {
                0 => ("null-pointer-use", "ptr.err"),
                p if p & ((1u128 << log_align) - 1) != 0 => ("misaligned-pointer-use", "ptr.err"),
                _ => ("insufficient-object-size", "ptr.err"),
            }
        }
        "pointer_overflow" => match (chosen(st, args.get(1)), chosen(st, args.get(2))) {
            (0, 0) => ("nullptr-with-offset", "ptr.err"),
            (0, _) => ("nullptr-with-nonzero-offset", "ptr.err"),
            (_, 0) => ("nullptr-after-nonzero-offset", "ptr.err"),
            _ => ("pointer-overflow", "ptr.err"),
        },
        "implicit_conversion" => {
            // `ImplicitConversionData { loc; const TypeDescriptor *from, *to; u8 kind; }`
            let kind = call
                .args
                .first()
                .and_then(|d| data_byte(module, d, after_location + 2 * pb));
            match kind {
                Some(1) => (
                    "implicit-unsigned-integer-truncation",
                    "implicit_truncation.err",
                ),
                Some(3) => ("implicit-integer-sign-change", "implicit_conversion.err"),
                Some(4) => (
                    "implicit-signed-integer-truncation-or-sign-change",
                    "implicit_conversion.err",
                ),
                _ => (
                    "implicit-signed-integer-truncation",
                    "implicit_truncation.err",
                ),
            }
        }
        "builtin_unreachable" => ("unreachable-call", "unreachable_call.err"),
        "missing_return" => ("missing-return", "missing_return.err"),
        "vla_bound_not_positive" => ("non-positive-vla-index", "ptr.err"),
        "load_invalid_value" => ("load invalid value", "invalid_load.err"),
        "out_of_bounds" => ("out-of-bounds-index", "ptr.err"),
        "invalid_builtin" => ("invalid-builtin-use", "invalid_builtin_use.err"),
        "nonnull_return_v1" | "nullability_return_v1" => {
            ("invalid-null-return", "nullable_attribute.err")
        }
        "nonnull_arg" | "nullability_arg" => ("invalid-null-argument", "nullable_attribute.err"),
        "alignment_assumption" => ("alignment-assumption", "ptr.err"),
        "float_cast_overflow" => ("float-cast-overflow", "overflow.err"),
        _ => ("undefined-behavior", "exec.err"),
    };
    let mut end = st.bug(prog, BugKind::Reported, check);
    if let End::Bug(b) = &mut end {
        b.suffix = Some(suffix.to_string());
    }
    end
}

/// One value the path allows for a handler's argument (the path already says the check failed).
fn chosen<D: Domain>(st: &mut State<D>, v: Option<&D::Val>) -> u128 {
    v.map_or(0, |v| st.dom.choose(Decision::Output, v, 64))
}

/// The byte at `offset` of a handler's static data (a constant global).
fn data_byte(module: &Module, data: &Operand, offset: u64) -> Option<u8> {
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
    let global = module.global(*g);
    let init = global.init.as_ref()?;
    (offset < global.size).then(|| init.byte(offset))
}
