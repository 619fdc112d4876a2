//! Direct, indirect and variadic calls; declarations the engine models; bit intrinsics.

use super::common::*;
use symex_ir::*;

fn calls(m: &Module, f: &str) -> Vec<Call> {
    insts(m, f)
        .iter()
        .filter_map(|i| match i {
            Inst::Call(c) => Some((**c).clone()),
            _ => None,
        })
        .collect()
}

fn callee_name(m: &Module, c: &Call) -> String {
    match c.callee {
        Callee::Direct(f) => m.func(f).name.clone(),
        Callee::Indirect(_) => "<indirect>".into(),
    }
}

#[test]
fn verifier_and_klee_functions_are_calls_to_declarations() {
    let m = c(r#"
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
void klee_make_symbolic(void *, unsigned long, const char *);
int main(void) {
  int x = __VERIFIER_nondet_int(); unsigned char c = __VERIFIER_nondet_uchar();
  int y; klee_make_symbolic(&y, sizeof y, "y");
  __VERIFIER_assume(x > 0);
  if (x + c + y == 12345) reach_error();
  return 0;
}"#);
    let names: Vec<String> = calls(&m, "main")
        .iter()
        .map(|c| callee_name(&m, c))
        .collect();
    assert_eq!(
        names,
        [
            "__VERIFIER_nondet_int",
            "__VERIFIER_nondet_uchar",
            "klee_make_symbolic",
            "__VERIFIER_assume",
            "reach_error"
        ]
    );
    for n in &names {
        assert!(m.func(m.function_by_name(n).unwrap()).is_declaration());
    }
    let nondet = m.func(m.function_by_name("__VERIFIER_nondet_uchar").unwrap());
    assert_eq!(nondet.ret, TypeId::I8);
    let ks = &calls(&m, "main")[2];
    assert_eq!(ks.arg_types, vec![TypeId::PTR, TypeId::I64, TypeId::PTR]);
    assert_eq!(ks.dst, None);
    assert_eq!(ks.ret, TypeId::VOID);
}

#[test]
fn function_pointers_are_indirect_calls_and_address_constants() {
    let m = c(r#"
static int inc(int x) { return x + 1; }
int apply(int (*f)(int), int x) { return f(x); }
int main(void) { return apply(inc, 1); }"#);
    let ind = &calls(&m, "apply")[0];
    assert!(matches!(ind.callee, Callee::Indirect(Operand::Slot(_))));
    let direct = &calls(&m, "main")[0];
    assert_eq!(callee_name(&m, direct), "apply");
    let inc = m.function_by_name("inc").unwrap();
    assert_eq!(
        konst(&m, direct.args[0]),
        &Const::Addr {
            base: AddrBase::Function(inc),
            offset: 0
        }
    );
}

#[test]
fn variadic_definitions_use_va_start_and_calls_pass_extra_arguments() {
    let m = c(r#"
#include <stdarg.h>
int sum(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
int main(void) { return sum(3, 1, 2L, 3); }"#);
    let f = m.func(m.function_by_name("sum").unwrap());
    assert!(f.is_vararg);
    assert_eq!(f.params, vec![TypeId::I32]);
    let ops: Vec<Intrinsic> = insts(&m, "sum")
        .iter()
        .filter_map(|i| match i {
            Inst::Intrinsic { op, .. } if !is_lifetime(op) => Some(*op),
            _ => None,
        })
        .collect();
    assert_eq!(ops, vec![Intrinsic::VaStart, Intrinsic::VaEnd]);
    let call = &calls(&m, "main")[0];
    assert_eq!(call.args.len(), 4);
    assert_eq!(
        call.arg_types,
        vec![TypeId::I32, TypeId::I32, TypeId::I64, TypeId::I32]
    );
}

#[test]
fn k_and_r_calls_through_a_bitcast_stay_direct() {
    let m = c("int g();\nint f(void) { return g(1, 2); }\nint g(a, b) int a, b; { return a + b; }");
    let call = &calls(&m, "f")[0];
    assert_eq!(callee_name(&m, call), "g");
    assert_eq!(call.args.len(), 2);
}

/// Lifetime markers (every local has them) are left out of the intrinsics these tests look for.
fn is_lifetime(op: &Intrinsic) -> bool {
    matches!(op, Intrinsic::LifetimeStart | Intrinsic::LifetimeEnd)
}

fn intrinsics(m: &Module, f: &str) -> Vec<Intrinsic> {
    insts(m, f)
        .iter()
        .filter_map(|i| match i {
            Inst::Intrinsic { op, .. } if !is_lifetime(op) => Some(*op),
            _ => None,
        })
        .collect()
}

#[test]
fn overflow_builtins_lower_to_with_overflow_and_byte_offsets() {
    let m = c(r#"
int f(int a, int b, long *r) { unsigned u; return __builtin_sadd_overflow(a, b, &u) + __builtin_umull_overflow(a, b, (unsigned long *)r) + __builtin_ssub_overflow(a, b, &u); }"#);
    assert_eq!(
        intrinsics(&m, "f"),
        vec![
            Intrinsic::Overflow {
                op: OverflowOp::SAdd,
                width: 32
            },
            Intrinsic::Overflow {
                op: OverflowOp::UMul,
                width: 64
            },
            Intrinsic::Overflow {
                op: OverflowOp::SSub,
                width: 32
            },
        ]
    );
    let offsets: Vec<u32> = insts(&m, "f")
        .iter()
        .filter_map(|i| match i {
            Inst::ExtractValue {
                offset,
                ty: TypeId::I1,
                ..
            } => Some(*offset),
            _ => None,
        })
        .collect();
    assert_eq!(
        offsets,
        vec![4, 8, 4],
        "the overflow bit follows the result"
    );
}

#[test]
fn bit_builtins_lower_to_their_intrinsics() {
    let m = c(r#"
unsigned f(unsigned x, unsigned long long y) {
  return __builtin_popcount(x) + __builtin_clz(x) + __builtin_ctzll(y) + __builtin_bswap32(x) + (unsigned)__builtin_bswap64(y);
}"#);
    assert_eq!(
        intrinsics(&m, "f"),
        vec![
            Intrinsic::Ctpop { width: 32 },
            Intrinsic::Ctlz {
                width: 32,
                zero_is_poison: true
            },
            Intrinsic::Cttz {
                width: 64,
                zero_is_poison: true
            },
            Intrinsic::Bswap { width: 32 },
            Intrinsic::Bswap { width: 64 },
        ]
    );
}

#[test]
fn optimised_code_uses_abs_and_funnel_shifts() {
    let m = c_with(
        r#"
unsigned rot(unsigned x, unsigned n) { return (x << (n & 31)) | (x >> ((32 - n) & 31)); }
int ab(int a) { return a < 0 ? -a : a; }"#,
        &o2(),
    );
    assert_eq!(intrinsics(&m, "rot"), vec![Intrinsic::Fshl { width: 32 }]);
    assert_eq!(
        intrinsics(&m, "ab"),
        vec![Intrinsic::Abs {
            width: 32,
            int_min_is_poison: true
        }]
    );
}

#[test]
fn remaining_intrinsics_from_llvm_text() {
    let m = ll(r#"
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare i16 @llvm.bitreverse.i16(i16)
declare i8 @llvm.uadd.sat.i8(i8, i8)
declare i64 @llvm.umax.i64(i64, i64)
declare void @llvm.trap()
declare void @llvm.assume(i1)
declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.expect.i32(i32, i32)
define i32 @f(i32 %a, i16 %b, i8 %c, i64 %d) {
  %e = call i32 @llvm.expect.i32(i32 %a, i32 1)
  %m = call i32 @llvm.smin.i32(i32 %e, i32 1)
  %1 = call i32 @llvm.fshr.i32(i32 %a, i32 %a, i32 3)
  %2 = call i16 @llvm.bitreverse.i16(i16 %b)
  %3 = call i8 @llvm.uadd.sat.i8(i8 %c, i8 %c)
  %4 = call i64 @llvm.umax.i64(i64 %d, i64 1)
  %5 = icmp ne i32 %1, 0
  call void @llvm.assume(i1 %5)
  call void @llvm.trap()
  unreachable
}"#);
    assert_eq!(
        intrinsics(&m, "f"),
        vec![
            Intrinsic::MinMax {
                op: MinMaxOp::SMin,
                width: 32
            },
            Intrinsic::Fshr { width: 32 },
            Intrinsic::Bitreverse { width: 16 },
            Intrinsic::Saturating {
                op: SatOp::UAdd,
                width: 8
            },
            Intrinsic::MinMax {
                op: MinMaxOp::UMax,
                width: 64
            },
            Intrinsic::Assume,
            Intrinsic::Trap,
        ]
    );
    assert!(
        matches!(insts(&m, "f")[0], Inst::Copy { .. }),
        "llvm.expect is a copy"
    );
    assert!(
        m.function_by_name("llvm.trap").is_none(),
        "intrinsics are not in the function table"
    );
}

#[test]
fn byval_arguments_are_copied_at_the_call() {
    // At -O2 clang passes the global itself `byval`; the callee owns (and here writes) a copy.
    let src = r#"
struct Big { long a[5]; };
struct Big g = {{1, 2, 3, 4, 5}};
__attribute__((noinline)) long f(struct Big s) { s.a[0] = 100; return s.a[0] + s.a[1]; }
int main(void) { long r = f(g); return (int)(r + g.a[0]); }"#;
    for opts in [FrontendOptions::default(), o2()] {
        let m = c_with(src, &opts);
        let is = insts(&m, "main");
        let call_at = is.iter().position(|i| matches!(i, Inst::Call(_))).unwrap();
        let Inst::Call(call) = is[call_at] else {
            unreachable!()
        };
        let Operand::Slot(copy) = call.args[0] else {
            panic!("{:?}", call.args[0])
        };
        assert!(is[..call_at]
            .iter()
            .any(|i| matches!(i, Inst::Alloca { dst, elem_size: 40, .. } if *dst == copy)));
        assert!(is[..call_at].iter().any(|i| matches!(i,
            Inst::Intrinsic { op: Intrinsic::Memcpy { .. }, args, .. } if args[0] == Operand::Slot(copy))));
        assert!(matches!(
            is[call_at + 1],
            Inst::Intrinsic {
                op: Intrinsic::StackRestore,
                ..
            }
        ));
    }
}

#[test]
fn is_constant_is_false_and_inline_memcpy_is_memcpy() {
    let m = ll(r#"
declare i1 @llvm.is.constant.i32(i32)
declare void @llvm.memcpy.inline.p0i8.p0i8.i64(i8*, i8*, i64, i1)
define i1 @f(i32 %x, i8* %d, i8* %s) {
  call void @llvm.memcpy.inline.p0i8.p0i8.i64(i8* %d, i8* %s, i64 8, i1 false)
  %c = call i1 @llvm.is.constant.i32(i32 %x)
  ret i1 %c
}"#);
    let is = insts(&m, "f");
    assert!(matches!(
        is[0],
        Inst::Intrinsic {
            op: Intrinsic::Memcpy {
                len_width: 64,
                volatile: false
            },
            ..
        }
    ));
    let Inst::Copy { src, .. } = is[1] else {
        panic!("{:?}", is[1])
    };
    assert_eq!(int_const(&m, *src), 0);
}
