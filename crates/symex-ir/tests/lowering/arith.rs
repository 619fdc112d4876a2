//! Integer arithmetic, comparisons, casts, select, freeze; flags and wide constants.

use super::common::*;
use symex_ir::*;

#[test]
fn signed_arithmetic_keeps_nsw_and_unsigned_has_none() {
    let m = c("int s(int a, int b) { return a + b; }\n unsigned u(unsigned a, unsigned b) { return a * b; }");
    let flags_of = |f: &str| {
        insts(&m, f)
            .iter()
            .find_map(|i| match i {
                Inst::Bin {
                    op, flags, width, ..
                } => Some((*op, *flags, *width)),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(flags_of("s"), (BinOp::Add, ArithFlags::NSW, 32));
    assert_eq!(flags_of("u"), (BinOp::Mul, ArithFlags::NONE, 32));
}

#[test]
fn every_binary_operator_and_flag_is_lowered() {
    let m = ll(r#"
define i64 @f(i64 %a, i64 %b) {
  %1 = add nuw nsw i64 %a, %b
  %2 = sub nuw i64 %1, %b
  %3 = mul nsw i64 %2, %b
  %4 = udiv exact i64 %3, %b
  %5 = sdiv i64 %4, %b
  %6 = urem i64 %5, %b
  %7 = srem i64 %6, %b
  %8 = shl nuw i64 %7, 3
  %9 = lshr exact i64 %8, 1
  %10 = ashr i64 %9, 1
  %11 = and i64 %10, %a
  %12 = or i64 %11, %a
  %13 = xor i64 %12, -1
  ret i64 %13
}"#);
    let got: Vec<(BinOp, ArithFlags)> = insts(&m, "f")
        .iter()
        .map(|i| match i {
            Inst::Bin {
                op,
                flags,
                width: 64,
                ..
            } => (*op, *flags),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    use ArithFlags as F;
    use BinOp::*;
    assert_eq!(
        got,
        vec![
            (Add, F::NUW.with(F::NSW)),
            (Sub, F::NUW),
            (Mul, F::NSW),
            (UDiv, F::EXACT),
            (SDiv, F::NONE),
            (URem, F::NONE),
            (SRem, F::NONE),
            (Shl, F::NUW),
            (LShr, F::EXACT),
            (AShr, F::NONE),
            (And, F::NONE),
            (Or, F::NONE),
            (Xor, F::NONE),
        ]
    );
    let Inst::Bin { rhs, .. } = insts(&m, "f")[12] else {
        panic!()
    };
    assert_eq!(
        int_const(&m, *rhs),
        u64::MAX as u128,
        "-1 is masked to 64 bits"
    );
}

#[test]
fn int128_constants_keep_all_their_bits() {
    let m = c(r#"
unsigned __int128 f(unsigned __int128 x) { return x * ((unsigned __int128)0x123456789abcdefULL << 64 | 7) + ~(unsigned __int128)0; }
__int128 g(__int128 x) { return x / -3; }"#);
    let consts: Vec<u128> = insts(&m, "f")
        .iter()
        .filter_map(|i| match i {
            Inst::Bin {
                rhs: Operand::Const(k),
                width: 128,
                ..
            } => Some(int_const(&m, Operand::Const(*k))),
            _ => None,
        })
        .collect();
    assert_eq!(consts, vec![(0x123456789abcdef_u128 << 64) | 7, u128::MAX]);
    let div = insts(&m, "g")
        .into_iter()
        .find_map(|i| match i {
            Inst::Bin {
                op: BinOp::SDiv,
                rhs,
                width: 128,
                ..
            } => Some(int_const(&m, *rhs)),
            _ => None,
        })
        .unwrap();
    assert_eq!(div as i128, -3);
}

#[test]
fn wide_constants_with_the_same_low_half_are_told_apart_per_instruction() {
    let m = ll(r#"
@g = global [2 x i128] [i128 18446744073709551616, i128 36893488147419103232]
define i128 @f(i128 %a) {
  %1 = add i128 %a, 18446744073709551615
  %2 = add i128 %1, 340282366920938463463374607431768211455
  %3 = mul i128 %2, 18446744073709551616
  ret i128 %3
}"#);
    let consts: Vec<u128> = insts(&m, "f")
        .iter()
        .map(|i| match i {
            Inst::Bin { rhs, .. } => int_const(&m, *rhs),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(consts, vec![u64::MAX as u128, u128::MAX, 1u128 << 64]);
    let g = m
        .global(m.global_by_name("g").unwrap())
        .init
        .as_ref()
        .unwrap();
    assert_eq!(
        u128::from_le_bytes(g.bytes[0..16].try_into().unwrap()),
        1u128 << 64
    );
    assert_eq!(
        u128::from_le_bytes(g.bytes[16..32].try_into().unwrap()),
        2u128 << 64
    );
    // Within one instruction two such constants cannot be told apart: refused, never confused.
    let err = try_ll(
        r#"
define i128 @f(i1 %c) {
  %1 = select i1 %c, i128 18446744073709551615, i128 -1
  ret i128 %1
}"#,
    )
    .unwrap_err();
    assert!(err.to_string().contains("equal low 64 bits"), "{err}");
}

#[test]
fn comparisons_on_integers_and_pointers() {
    let m = c("int f(int a, int b, int *p, int *q) { return (a < b) + (p == q) + ((unsigned)a >= (unsigned)b); }");
    let cmps: Vec<(IntPred, u32)> = insts(&m, "f")
        .iter()
        .filter_map(|i| match i {
            Inst::ICmp { pred, width, .. } => Some((*pred, *width)),
            _ => None,
        })
        .collect();
    assert_eq!(
        cmps,
        vec![(IntPred::Slt, 32), (IntPred::Eq, 64), (IntPred::Uge, 32)]
    );
}

#[test]
fn casts_between_widths_and_pointers() {
    let m = c(r#"
long f(char c, unsigned short s, long l, int *p) {
  return (long)c + (unsigned long)s + (char)l + (long)p + (long)(int *)(long)l + (long)(char *)p;
}"#);
    let casts: Vec<(CastOp, u32, u32)> = insts(&m, "f")
        .iter()
        .filter_map(|i| match i {
            Inst::Cast { op, from, to, .. } => Some((*op, *from, *to)),
            _ => None,
        })
        .collect();
    use CastOp::*;
    assert_eq!(
        casts,
        vec![
            (SExt, 8, 64),
            (ZExt, 16, 64),
            (Trunc, 64, 8),
            (SExt, 8, 64),
            (PtrToInt, 64, 64),
            (IntToPtr, 64, 64),
            (PtrToInt, 64, 64),
            (PtrToInt, 64, 64)
        ]
    );
    assert!(
        insts(&m, "f")
            .iter()
            .any(|i| matches!(i, Inst::Copy { .. })),
        "pointer bitcast is a copy"
    );
}

#[test]
fn select_and_freeze() {
    let m = ll(r#"
define i32 @f(i1 %c, i32 %a, i32 %b) {
  %x = select i1 %c, i32 %a, i32 %b
  %y = freeze i32 %x
  ret i32 %y
}"#);
    let is = insts(&m, "f");
    assert!(matches!(
        is[0],
        Inst::Select {
            cond: Operand::Slot(Slot(0)),
            on_true: Operand::Slot(Slot(1)),
            on_false: Operand::Slot(Slot(2)),
            dst: Slot(3)
        }
    ));
    assert!(matches!(
        is[1],
        Inst::Freeze {
            dst: Slot(4),
            src: Operand::Slot(Slot(3))
        }
    ));
}

#[test]
fn undef_and_poison_operands_are_explicit() {
    let m = ll("define i32 @f() {\n  %x = add i32 undef, poison\n  ret i32 %x\n}");
    let Inst::Bin { lhs, rhs, .. } = insts(&m, "f")[0] else {
        panic!()
    };
    assert_eq!(konst(&m, *lhs), &Const::Undef(TypeId::I32));
    assert_eq!(konst(&m, *rhs), &Const::Undef(TypeId::I32));
}
