//! Vector instructions (clang emits them at -O2 when it vectorises loops).

use super::common::*;
use symex_ir::*;

#[test]
fn vector_operations_from_llvm_text() {
    let m = ll(r#"
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare <4 x i32> @llvm.smax.v4i32(<4 x i32>, <4 x i32>)
define i32 @f(<4 x i32>* %p, i32 %x) {
  %v = load <4 x i32>, <4 x i32>* %p, align 16
  %w = add nsw <4 x i32> %v, <i32 1, i32 2, i32 3, i32 4>
  %i = insertelement <4 x i32> undef, i32 %x, i64 0
  %s = shufflevector <4 x i32> %i, <4 x i32> undef, <4 x i32> zeroinitializer
  %c = icmp sgt <4 x i32> %w, %s
  %m = select <4 x i1> %c, <4 x i32> %w, <4 x i32> %s
  %n = call <4 x i32> @llvm.smax.v4i32(<4 x i32> %m, <4 x i32> %v)
  %z = zext <4 x i1> %c to <4 x i32>
  %b = bitcast <4 x i32> %z to i128
  %t = trunc i128 %b to i32
  %e = extractelement <4 x i32> %n, i32 2
  %r = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %n)
  %q = add i32 %r, %e
  %u = add i32 %q, %t
  ret i32 %u
}"#);
    let is = insts(&m, "f");
    assert!(matches!(
        is[0],
        Inst::Load {
            size: 16,
            align: 16,
            ..
        }
    ));
    let vs: Vec<&VectorInst> = is
        .iter()
        .filter_map(|i| match i {
            Inst::Vector(v) => Some(&**v),
            _ => None,
        })
        .collect();
    assert!(matches!(
        vs[0],
        VectorInst::Bin {
            op: BinOp::Add,
            flags: ArithFlags::NSW,
            elem_width: 32,
            lanes: 4,
            ..
        }
    ));
    assert!(matches!(
        vs[1],
        VectorInst::InsertElement {
            index_width: 64,
            lanes: 4,
            ..
        }
    ));
    assert!(
        matches!(vs[2], VectorInst::Shuffle { mask, lanes_in: 4, .. } if mask == &vec![Some(0); 4])
    );
    assert!(matches!(
        vs[3],
        VectorInst::ICmp {
            pred: IntPred::Sgt,
            ..
        }
    ));
    assert!(matches!(
        vs[4],
        VectorInst::Select {
            lanes: 4,
            elem_width: 32,
            ..
        }
    ));
    assert!(matches!(
        vs[5],
        VectorInst::LaneIntrinsic {
            op: Intrinsic::MinMax {
                op: MinMaxOp::SMax,
                width: 32
            },
            lanes: 4,
            ..
        }
    ));
    assert!(matches!(
        vs[6],
        VectorInst::Cast {
            op: CastOp::ZExt,
            from: 1,
            to: 32,
            lanes: 4,
            ..
        }
    ));
    assert!(matches!(
        vs[7],
        VectorInst::Bitcast {
            to: TypeId::I128,
            ..
        }
    ));
    assert!(matches!(
        vs[8],
        VectorInst::ExtractElement {
            index_width: 32,
            ..
        }
    ));
    assert!(matches!(
        vs[9],
        VectorInst::Reduce {
            op: ReduceOp::Add,
            lanes: 4,
            elem_width: 32,
            ..
        }
    ));
    let Inst::Vector(add) = is[1] else { panic!() };
    let VectorInst::Bin { rhs, .. } = &**add else {
        panic!()
    };
    let Const::Aggregate { data, .. } = konst(&m, *rhs) else {
        panic!()
    };
    assert_eq!(data.bytes, [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]);
}

#[test]
fn clang_vectorised_loops_lower() {
    let m = c_with(
        "int a[1024]; int f(void) { int s = 0; for (int i = 0; i < 1024; i++) s += a[i] * 3; return s; }",
        &o2(),
    );
    assert!(
        insts(&m, "f").iter().any(|i| matches!(i, Inst::Vector(_))),
        "clang -O2 vectorises this loop"
    );
}
