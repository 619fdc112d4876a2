//! Helpers shared by the lowering tests: write a program to a scratch file and load it.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use symex_ir::*;

pub fn scratch(name: &str, text: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "symex-ir-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

pub fn try_c(src: &str, opts: &FrontendOptions) -> Result<Module, FrontendError> {
    load(&scratch("prog.c", src), opts)
}

pub fn c(src: &str) -> Module {
    try_c(src, &FrontendOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

pub fn c_with(src: &str, opts: &FrontendOptions) -> Module {
    try_c(src, opts).unwrap_or_else(|e| panic!("{e}"))
}

pub fn o2() -> FrontendOptions {
    FrontendOptions {
        cflags: vec!["-O2".into()],
        ..FrontendOptions::default()
    }
}

pub fn try_ll(body: &str) -> Result<Module, FrontendError> {
    load(
        &scratch("prog.ll", &format!("{LL_HEADER}{body}")),
        &FrontendOptions::default(),
    )
}

pub fn ll(body: &str) -> Module {
    try_ll(body).unwrap_or_else(|e| panic!("{e}"))
}

/// The body of function `name`.
pub fn body<'m>(m: &'m Module, name: &str) -> &'m Body {
    let f = m
        .function_by_name(name)
        .unwrap_or_else(|| panic!("no function {name}"));
    m.func(f)
        .body
        .as_ref()
        .unwrap_or_else(|| panic!("{name} is a declaration"))
}

/// Every instruction of function `name`, in block order.
pub fn insts<'m>(m: &'m Module, name: &str) -> Vec<&'m Inst> {
    body(m, name)
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter())
        .collect()
}

pub fn konst(m: &Module, op: Operand) -> &Const {
    match op {
        Operand::Const(id) => m.konst(id),
        Operand::Slot(s) => panic!("operand {s:?} is not a constant"),
    }
}

pub fn int_const(m: &Module, op: Operand) -> u128 {
    match konst(m, op) {
        Const::Int { value, .. } => *value,
        other => panic!("not an integer constant: {other:?}"),
    }
}

pub fn slot_ty(m: &Module, f: &str, s: Slot) -> TypeId {
    body(m, f).slot_types[s.0 as usize]
}

/// The data layout clang-14 emits for x86-64 Linux, for hand-written `.ll` tests.
pub const LL_HEADER: &str = "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128\"\ntarget triple = \"x86_64-pc-linux-gnu\"\n";
