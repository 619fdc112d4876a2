//! Globals: nested initializers, pointers to globals and functions with offsets, string literals.

use super::common::*;
use symex_ir::*;

fn global<'m>(m: &'m Module, name: &str) -> &'m Global {
    m.global(
        m.global_by_name(name)
            .unwrap_or_else(|| panic!("no global {name}")),
    )
}

#[test]
fn nested_initializers_are_laid_out_with_relocations() {
    let m = c(r#"
struct Inner { short s; int *p; };
struct Outer { char c; struct Inner in[2]; int (*fn)(void); long tail; };
int target[4];
int main(void) { return 0; }
struct Outer o = { 'x', { { 7, &target[2] }, { -1, 0 } }, main, 0x0102030405060708 };"#);
    let o = global(&m, "o");
    // Outer: c@0, in@8 (each Inner: s@0, p@8, size 16), fn@40, tail@48, size 56.
    assert_eq!((o.size, o.align), (56, 8));
    let data = o.init.as_ref().unwrap();
    assert_eq!(data.bytes.len(), 56);
    assert_eq!(data.bytes[0], b'x');
    assert_eq!(&data.bytes[8..10], &7i16.to_le_bytes());
    assert_eq!(&data.bytes[24..26], &(-1i16).to_le_bytes());
    assert_eq!(&data.bytes[48..56], &0x0102030405060708u64.to_le_bytes());
    let target = m.global_by_name("target").unwrap();
    let main = m.function_by_name("main").unwrap();
    assert_eq!(
        data.relocs,
        vec![
            Reloc {
                offset: 16,
                target: AddrBase::Global(target),
                addend: 8,
                width: 8
            },
            Reloc {
                offset: 40,
                target: AddrBase::Function(main),
                addend: 0,
                width: 8
            },
        ]
    );
    assert!(
        data.bytes[16..24].iter().all(|b| *b == 0),
        "pointer bytes are left zero"
    );
}

#[test]
fn string_literals_are_constant_globals_referenced_by_address() {
    let m = c(r#"
int puts(const char *);
const char *msgs[] = { "hi", "there" + 1 };
int main(void) { return puts("hello"); }"#);
    let hello = m
        .globals
        .iter()
        .find(|g| {
            g.init
                .as_ref()
                .is_some_and(|d| d.read(0, g.size) == b"hello\0")
        })
        .expect("the literal");
    assert!(hello.is_constant);
    let msgs = global(&m, "msgs").init.as_ref().unwrap();
    assert_eq!(msgs.relocs.len(), 2);
    assert_eq!(msgs.relocs[1].addend, 1, "\"there\" + 1");
    let Inst::Call(call) = insts(&m, "main")
        .into_iter()
        .find(|i| matches!(i, Inst::Call(_)))
        .unwrap()
    else {
        unreachable!()
    };
    let Const::Addr {
        base: AddrBase::Global(g),
        offset: 0,
    } = konst(&m, call.args[0])
    else {
        panic!("{:?}", konst(&m, call.args[0]))
    };
    let literal = m.global(*g);
    assert_eq!(
        literal.init.as_ref().unwrap().read(0, literal.size),
        b"hello\0"
    );
}

#[test]
fn zero_and_external_globals() {
    let m = c(r#"
#include <stdio.h>
static long zeros[1000];
extern int ext;
int main(void) { fprintf(stderr, "x"); return (int)zeros[3] + ext; }"#);
    let z = global(&m, "zeros");
    assert_eq!(z.size, 8000);
    assert!(
        z.init.as_ref().unwrap().bytes.is_empty(),
        "a zero image is not stored"
    );
    assert!(global(&m, "ext").init.is_none());
    assert!(global(&m, "stderr").init.is_none());
}

#[test]
fn constant_expressions_fold_to_addresses_and_integers() {
    let m = c(r#"
int arr[10];
int *end = arr + 10;
long diff = (char *)&arr[7] - (char *)&arr[2];
int main(void) { return *(end - 1); }"#);
    let arr = m.global_by_name("arr").unwrap();
    let end = global(&m, "end").init.as_ref().unwrap();
    assert_eq!(
        end.relocs,
        vec![Reloc {
            offset: 0,
            target: AddrBase::Global(arr),
            addend: 40,
            width: 8
        }]
    );
    assert_eq!(
        global(&m, "diff").init.as_ref().unwrap().read(0, 8),
        20u64.to_le_bytes()
    );
}

#[test]
fn aliases_denote_their_target() {
    let m = c(r#"
int real_impl(int x) { return x + 1; }
int alias_fn(int) __attribute__((alias("real_impl")));
int counter = 5;
extern int alias_var __attribute__((alias("counter")));
int main(void) { return alias_fn(alias_var); }"#);
    let is = insts(&m, "main");
    let call = is
        .iter()
        .find_map(|i| match i {
            Inst::Call(c) => Some(c),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        call.callee,
        Callee::Direct(m.function_by_name("real_impl").unwrap())
    );
    let counter = m.global_by_name("counter").unwrap();
    assert!(is
        .iter()
        .any(|i| matches!(i, Inst::Load { ptr: Operand::Const(k), .. }
        if m.konst(*k) == &Const::Addr { base: AddrBase::Global(counter), offset: 0 })));
}

#[test]
fn a_global_image_stops_at_its_last_non_zero_byte() {
    let m = c(r#"
int big[100000000] = { 7 };
struct { long a; char *p; long z[1000]; } s = { 0, "x" };
int main(void) { return big[0] + (int)s.a; }"#);
    let big = global(&m, "big");
    assert_eq!(big.size, 400_000_000);
    let data = big.init.as_ref().unwrap();
    assert_eq!(
        data.bytes,
        7u32.to_le_bytes(),
        "the zero tail of 400 MB is not stored"
    );
    assert_eq!((data.byte(4), data.byte(399_999_999)), (0, 0));
    let s = global(&m, "s").init.as_ref().unwrap();
    assert_eq!(s.bytes.len(), 16, "kept through the pointer's bytes");
    assert_eq!(s.relocs.len(), 1);
}
