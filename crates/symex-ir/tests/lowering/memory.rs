//! GEP offsets, loads and stores, allocas (static and dynamic), stack save/restore, aggregates.

use super::common::*;
use symex_ir::*;

#[test]
fn gep_folds_constant_indices_and_scales_variable_ones() {
    let m = c(r#"
struct In { char c; int a[5]; };
struct Out { long l; struct In in[3]; };
int *f(struct Out *o, long i, int j) { return &o[1].in[i].a[j]; }
int *g(struct Out *o) { return &o->in[2].a[3]; }"#);
    // struct In: c@0, a@4, size 24; struct Out: l@0, in@8, size 8 + 3*24 = 80.
    let geps: Vec<(i64, Vec<(u32, i64)>)> = insts(&m, "f")
        .iter()
        .filter_map(|i| match i {
            Inst::Gep {
                offset, indices, ..
            } => Some((
                *offset,
                indices.iter().map(|g| (g.width, g.scale)).collect(),
            )),
            _ => None,
        })
        .collect();
    let total_const: i64 = geps.iter().map(|(o, _)| o).sum();
    assert_eq!(total_const, 80 + 8 + 4, "o[1] + .in + .a");
    let scales: Vec<(u32, i64)> = geps.iter().flat_map(|(_, s)| s.clone()).collect();
    assert_eq!(
        scales,
        vec![(64, 24), (64, 4)],
        "in[i] steps 24 bytes, a[j] (sign-extended to i64) 4"
    );
    let g_total: i64 = insts(&m, "g")
        .iter()
        .map(|i| match i {
            Inst::Gep {
                offset, indices, ..
            } => {
                assert!(indices.is_empty());
                *offset
            }
            _ => 0,
        })
        .sum();
    assert_eq!(g_total, 8 + 2 * 24 + 4 + 3 * 4);
}

#[test]
fn loads_and_stores_carry_type_size_and_alignment() {
    let m = c(r#"
struct P { char c; short s; long l; };
long f(struct P *p, __int128 *q) { p->s = 3; *q = 1; return p->l + p->c; }"#);
    let accesses: Vec<(bool, u32, u32)> = insts(&m, "f")
        .iter()
        .filter_map(|i| match i {
            Inst::Load { size, align, .. } => Some((true, *size, *align)),
            Inst::Store { size, align, .. } => Some((false, *size, *align)),
            _ => None,
        })
        .collect();
    assert!(accesses.contains(&(false, 2, 2)), "p->s = 3: {accesses:?}");
    assert!(
        accesses.contains(&(false, 16, 16)),
        "*q = 1 (clang aligns __int128 to 16): {accesses:?}"
    );
    assert!(
        accesses.contains(&(true, 1, 8)) || accesses.contains(&(true, 1, 1)),
        "p->c: {accesses:?}"
    );
}

#[test]
fn whole_struct_loads_and_stores_are_kept_as_aggregates() {
    let m = ll(r#"
%pair = type { i8, i64 }
define void @f(%pair* %p, %pair* %q) {
  %v = load %pair, %pair* %p, align 8
  %w = insertvalue %pair %v, i64 7, 1
  %x = extractvalue %pair %w, 1
  store %pair %w, %pair* %q, align 8
  ret void
}"#);
    let is = insts(&m, "f");
    let Inst::Load {
        ty,
        size: 16,
        align: 8,
        ..
    } = is[0]
    else {
        panic!("{:?}", is[0])
    };
    assert!(
        matches!(m.ty(*ty).kind, TypeKind::Struct { ref offsets, .. } if offsets == &vec![0, 8])
    );
    assert!(matches!(
        is[1],
        Inst::InsertValue {
            offset: 8,
            ty: TypeId::I64,
            ..
        }
    ));
    assert!(matches!(
        is[2],
        Inst::ExtractValue {
            offset: 8,
            ty: TypeId::I64,
            ..
        }
    ));
    assert!(matches!(
        is[3],
        Inst::Store {
            size: 16,
            align: 8,
            ..
        }
    ));
}

#[test]
fn static_and_dynamic_allocas_and_stack_save_restore() {
    let m = c(r#"
int f(int n) { int a[7]; long x; { int vla[n]; vla[0] = 1; a[0] = vla[0]; } x = a[0]; return (int)x; }"#);
    let is = insts(&m, "f");
    let allocas: Vec<(u64, bool, u32)> = is
        .iter()
        .filter_map(|i| match i {
            Inst::Alloca {
                elem_size,
                count,
                align,
                ..
            } => Some((*elem_size, count.is_some(), *align)),
            _ => None,
        })
        .collect();
    assert!(allocas.contains(&(28, false, 16)), "int a[7]: {allocas:?}");
    assert!(allocas.contains(&(8, false, 8)), "long x: {allocas:?}");
    assert!(allocas.contains(&(4, true, 16)), "int vla[n]: {allocas:?}");
    let dynamic = is.iter().find_map(|i| match i {
        Inst::Alloca {
            count: Some(_),
            count_width,
            ..
        } => Some(*count_width),
        _ => None,
    });
    assert_eq!(dynamic, Some(64));
    assert!(is.iter().any(|i| matches!(
        i,
        Inst::Intrinsic {
            op: Intrinsic::StackSave,
            dst: Some(_),
            ..
        }
    )));
    assert!(is.iter().any(|i| matches!(
        i,
        Inst::Intrinsic {
            op: Intrinsic::StackRestore,
            dst: None,
            ..
        }
    )));
}

#[test]
fn memcpy_memset_memmove_are_intrinsics_with_their_flags() {
    let m = c(r#"
#include <string.h>
struct Big { int a[20]; };
void f(struct Big *d, struct Big *s, char *p) { *d = *s; memset(p, 0, 64); memmove(p, p + 1, 10); }
void g(volatile struct Big *d, struct Big *s) { *d = *s; }"#);
    let ops: Vec<Intrinsic> = insts(&m, "f")
        .iter()
        .filter_map(|i| match i {
            Inst::Intrinsic { op, args, .. } => {
                assert_eq!(args.len(), 3);
                Some(*op)
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        ops,
        vec![
            Intrinsic::Memcpy {
                len_width: 64,
                volatile: false
            },
            Intrinsic::Memset {
                len_width: 64,
                volatile: false
            },
            Intrinsic::Memmove {
                len_width: 64,
                volatile: false
            },
        ]
    );
    assert!(insts(&m, "g").iter().any(|i| matches!(
        i,
        Inst::Intrinsic {
            op: Intrinsic::Memcpy { volatile: true, .. },
            ..
        }
    )));
}

#[test]
fn debug_intrinsics_are_dropped_and_lifetimes_lowered() {
    let src = "int f(int x) { { int a[4]; a[x & 3] = x; x = a[1]; } return x; }";
    for opts in [FrontendOptions::default(), o2()] {
        let m = c_with(src, &opts);
        let is = insts(&m, "f");
        assert!(
            is.iter().all(|i| !matches!(i, Inst::Call(_))),
            "no call survives: {is:?}"
        );
        // The block-scoped array's lifetime begins and ends, at -O0 too.
        for marker in [Intrinsic::LifetimeStart, Intrinsic::LifetimeEnd] {
            assert!(
                is.iter()
                    .any(|i| matches!(i, Inst::Intrinsic { op, .. } if *op == marker)),
                "{marker:?} missing: {is:?}"
            );
        }
    }
}

#[test]
fn slots_are_dense_and_typed() {
    let m = c("long f(int a, char *p) { long s = a; s += p[a]; return s; }");
    let b = body(&m, "f");
    assert_eq!(b.slot_types.len() as u32, b.num_slots);
    assert_eq!(b.slot_types[0], TypeId::I32);
    assert_eq!(b.slot_types[1], TypeId::PTR);
    let mut defined = vec![false; b.num_slots as usize];
    defined[0] = true;
    defined[1] = true;
    for blk in &b.blocks {
        for i in &blk.insts {
            if let Some(d) = i.dst() {
                assert!(!defined[d.0 as usize], "slot {d:?} defined twice");
                defined[d.0 as usize] = true;
            }
        }
    }
    assert!(
        defined.iter().all(|d| *d),
        "every slot is defined by a parameter or an instruction"
    );
}
