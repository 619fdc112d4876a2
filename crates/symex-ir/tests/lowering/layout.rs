//! Type layout against clang's own `sizeof`, `_Alignof` and `offsetof`.

use super::common::*;
use symex_ir::*;

/// For each type, a global of that type and a global holding clang's size/alignment of it.
#[test]
fn sizes_and_alignments_match_clang() {
    let types = [
        "char",
        "short",
        "int",
        "long",
        "__int128",
        "void *",
        "struct { char c; }",
        "struct { char c; int i; char d; }",
        "struct { char c; __int128 x; char d; }",
        "struct { short s[3]; char c; }",
        "struct { char c; struct { long l; char d; } in; int tail; }",
        "union { char c[5]; int i; }",
        "struct { int a : 3; int b : 7; char c; long long d : 40; }",
        "struct __attribute__((packed)) { char c; int i; }",
        "struct { char c; _Alignas(32) int i; }",
        "int[3][5]",
    ];
    let mut src = String::new();
    for (i, t) in types.iter().enumerate() {
        src += &format!("typedef __typeof__({t}) T{i};\nT{i} v{i};\nunsigned long info{i}[2] = {{ sizeof(T{i}), _Alignof(T{i}) }};\n");
    }
    let m = c(&src);
    for (i, t) in types.iter().enumerate() {
        let g = m.global(m.global_by_name(&format!("v{i}")).unwrap());
        let info = m
            .global(m.global_by_name(&format!("info{i}")).unwrap())
            .init
            .as_ref()
            .unwrap();
        let size = u64::from_le_bytes(info.bytes[0..8].try_into().unwrap());
        let align = u64::from_le_bytes(info.bytes[8..16].try_into().unwrap());
        assert_eq!(g.size, size, "sizeof({t})");
        assert!(g.align >= align, "alignment of {t}: {} < {align}", g.align);
    }
}

#[test]
fn field_offsets_match_offsetof() {
    let m = c(r#"
#include <stddef.h>
struct S { char c; short s; long l; char d; int a[3]; __int128 w; };
struct S v;
unsigned long offs[] = { offsetof(struct S, c), offsetof(struct S, s), offsetof(struct S, l), offsetof(struct S, d), offsetof(struct S, a), offsetof(struct S, w) };
"#);
    let g = m.global(m.global_by_name("v").unwrap());
    let TypeKind::Struct { offsets, .. } = &m.ty(g.ty).kind else {
        panic!()
    };
    let want: Vec<u64> = m
        .global(m.global_by_name("offs").unwrap())
        .init
        .as_ref()
        .unwrap()
        .bytes
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // clang may add explicit padding fields; every C field offset must be one of ours.
    for w in want {
        assert!(offsets.contains(&w), "offset {w} missing from {offsets:?}");
    }
}

#[test]
fn llvm14_integer_and_vector_alignment_rules() {
    let m = ll(r#"
%s = type { i8, i128 }
%v = type { i8, <4 x i32> }
%p = type <{ i8, i64 }>
%w = type { i8, i24 }
@a = global %s zeroinitializer
@b = global %v zeroinitializer
@c = global %p zeroinitializer
@d = global %w zeroinitializer
@e = global <3 x i16> zeroinitializer
"#);
    let layout = |n: &str| {
        let g = m.global(m.global_by_name(n).unwrap());
        let t = m.ty(g.ty);
        let offs = match &t.kind {
            TypeKind::Struct { offsets, .. } => offsets.clone(),
            _ => vec![],
        };
        (t.alloc_size, t.align, offs)
    };
    assert_eq!(
        layout("a"),
        (24, 8, vec![0, 8]),
        "LLVM 14 gives i128 the alignment of i64"
    );
    assert_eq!(
        layout("b"),
        (32, 16, vec![0, 16]),
        "vectors are naturally aligned"
    );
    assert_eq!(layout("c"), (9, 1, vec![0, 1]), "packed");
    assert_eq!(
        layout("d"),
        (8, 4, vec![0, 4]),
        "i24 stores 3 bytes, aligned like i32"
    );
    let e = m.ty(m.global(m.global_by_name("e").unwrap()).ty);
    assert_eq!((e.store_size, e.alloc_size, e.align), (6, 8, 8));
}

/// `-m32` (i386): clang's own `sizeof`/`_Alignof`/`offsetof`, folded into 4-byte `size_t` globals, against
/// the lowered types — pointers are 4 bytes, `long` 4, `long long` 4-aligned, structs with pointers shrink.
fn m32() -> FrontendOptions {
    FrontendOptions {
        cflags: vec!["-m32".into()],
        ..FrontendOptions::default()
    }
}

/// The 32-bit words of a global's initialiser (clang's folded numbers).
fn words32(m: &Module, name: &str) -> Vec<u64> {
    let g = m.global(m.global_by_name(name).unwrap());
    g.init
        .as_ref()
        .unwrap()
        .read(0, g.size)
        .chunks(4)
        .map(|c| u64::from(u32::from_le_bytes(c.try_into().unwrap())))
        .collect()
}

#[test]
fn m32_sizes_and_alignments_match_clang() {
    let types = [
        "int",
        "long",
        "long long",
        "void *",
        "int (*)(int)",
        "struct { char c; void *p; }",
        "struct { char c; long long q; int *p; }",
        "struct { void *next; void *prev; int data; }",
        "union { void *p; int i; }",
        "union { void *p; long long q; }",
        "struct { char c; struct { void *p; char d; } in; short tail; }",
        "void *[5]",
        "struct { int a : 3; long long b : 40; char *s; }",
    ];
    let mut src = String::new();
    for (i, t) in types.iter().enumerate() {
        src += &format!("typedef __typeof__({t}) T{i};\nT{i} v{i};\n__SIZE_TYPE__ info{i}[2] = {{ sizeof(T{i}), _Alignof(T{i}) }};\n");
    }
    let m = c_with(&src, &m32());
    assert_eq!(m.target.pointer_bytes, 4);
    assert!(m.target.triple.starts_with("i386"), "{}", m.target.triple);
    for (i, t) in types.iter().enumerate() {
        let g = m.global(m.global_by_name(&format!("v{i}")).unwrap());
        let info = words32(&m, &format!("info{i}"));
        assert_eq!(g.size, info[0], "sizeof({t}) with -m32");
        assert!(
            g.align >= info[1],
            "alignment of {t}: {} < {}",
            g.align,
            info[1]
        );
        let ty = m.ty(g.ty);
        assert_eq!(ty.alloc_size, info[0], "alloc size of {t} with -m32");
    }
}

#[test]
fn m32_field_offsets_match_offsetof() {
    let m = c_with(
        r#"
#include <stddef.h>
struct S { char c; void *p; long long q; short s; int *a[3]; long l; char d; };
struct S v;
size_t offs[] = { offsetof(struct S, c), offsetof(struct S, p), offsetof(struct S, q), offsetof(struct S, s), offsetof(struct S, a), offsetof(struct S, l), offsetof(struct S, d), sizeof(struct S) };
"#,
        &m32(),
    );
    let g = m.global(m.global_by_name("v").unwrap());
    let ty = m.ty(g.ty);
    let TypeKind::Struct { offsets, .. } = &ty.kind else {
        panic!()
    };
    let mut want = words32(&m, "offs");
    let size = want.pop().unwrap();
    assert_eq!(ty.alloc_size, size, "sizeof(struct S)");
    for w in want {
        assert!(offsets.contains(&w), "offset {w} missing from {offsets:?}");
    }
}

/// A pointer inside a global's image is a 4-byte relocation at clang's `offsetof`.
#[test]
fn m32_pointer_fields_of_globals_are_four_byte_relocations() {
    let m = c_with(
        r#"
#include <stddef.h>
int x[4];
struct P { char c; int *p; int *q; } s = { 1, &x[1], &x[3] };
size_t where[] = { offsetof(struct P, p), offsetof(struct P, q) };
"#,
        &m32(),
    );
    let s = m.global(m.global_by_name("s").unwrap());
    let data = s.init.as_ref().unwrap();
    let want = words32(&m, "where");
    let got: Vec<(u64, u32, i64)> = data
        .relocs
        .iter()
        .map(|r| (r.offset, r.width, r.addend))
        .collect();
    assert_eq!(got, vec![(want[0], 4, 4), (want[1], 4, 12)]);
}
