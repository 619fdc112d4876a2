//! Facts about a module that `llvm-ir` 0.11 cannot report for LLVM 14, read with `llvm-sys`:
//!
//! * the `nuw`/`nsw`/`exact` flags of arithmetic instructions (LLVM 14's C API has no getter for
//!   them, so we call the exported C++ accessors of `llvm::Instruction` — plain non-virtual
//!   member functions taking `this`, which follow the C calling convention on x86-64);
//! * the full value of integer constants wider than 64 bits (`llvm-ir` keeps only the low
//!   64 bits; we recover the high bits by folding `trunc(lshr(c, 64))` in LLVM);
//! * the label a `blockaddress` constant names (`llvm-ir` represents it without its function
//!   and block).

use crate::error::{FrontendError, Result};
use crate::ir::ArithFlags;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMOpcode;
use rustc_hash::{FxHashMap, FxHashSet};
use std::ffi::{CStr, CString};
use std::path::Path;

extern "C" {
    #[link_name = "_ZNK4llvm11Instruction15hasNoSignedWrapEv"]
    fn instruction_has_nsw(inst: LLVMValueRef) -> bool;
    #[link_name = "_ZNK4llvm11Instruction17hasNoUnsignedWrapEv"]
    fn instruction_has_nuw(inst: LLVMValueRef) -> bool;
    #[link_name = "_ZNK4llvm11Instruction7isExactEv"]
    fn instruction_is_exact(inst: LLVMValueRef) -> bool;
}

/// Where an instruction sits in its function: (block index, instruction index in the block).
pub(crate) type InstKey = (u32, u32);

/// What `llvm-ir` does not tell.
#[derive(Default, Debug)]
pub(crate) struct LlvmFacts {
    /// Arithmetic flags of the instructions that have any, by function name.
    pub flags: FxHashMap<String, FxHashMap<InstKey, ArithFlags>>,
    /// The wide constants (more than 64 bits: (width, value)) inside each instruction's operands,
    /// by function name and position, for the instructions that have any.
    pub wide_in_inst: FxHashMap<String, FxHashMap<InstKey, Vec<(u32, u128)>>>,
    /// The wide constants inside each global's initializer in element order (one entry per
    /// occurrence), by global name.
    pub wide_in_global: FxHashMap<String, Vec<(u32, u128)>>,
    /// The source variable each `alloca` holds (`llvm.dbg.declare`), by function name and position.
    pub var_names: FxHashMap<String, FxHashMap<InstKey, String>>,
    /// The `llvm.dbg.value` calls of each function (after `mem2reg`, what holds a source variable), by
    /// function name, in order.
    pub dbg_values: FxHashMap<String, Vec<DbgValue>>,
    /// The labels (`blockaddress(@f, %bb)`: function name, block index) inside each instruction's
    /// operands, by function name and position, for the instructions that have any.
    pub labels_in_inst: FxHashMap<String, FxHashMap<InstKey, Vec<(String, u32)>>>,
    /// Module-wide fallback: (width, low 64 bits) → full value, when that is unique.
    wide: FxHashMap<(u32, u64), u128>,
    /// (width, low 64 bits) pairs shared by several distinct wide constants of the module.
    ambiguous: FxHashSet<(u32, u64)>,
}

/// A call `llvm.dbg.value(v, !DILocalVariable(name: ...), !DIExpression())`: from here on, the source
/// variable holds `v` itself (calls with a non-empty expression — a fragment, an offset — are left out).
#[derive(Clone, Debug)]
pub(crate) struct DbgValue {
    /// The call's position.
    pub at: InstKey,
    pub value: DbgOperand,
    pub name: String,
    /// Which `DILocalVariable` (two variables of one function may share a name in different scopes).
    pub variable: usize,
    /// Only φ-nodes and debug intrinsics precede the call in its block: it describes the block's entry.
    pub leading: bool,
}

/// The value a `llvm.dbg.value` names.
#[derive(Clone, Copy, Debug)]
pub(crate) enum DbgOperand {
    /// The result of the instruction at this position.
    Inst(InstKey),
    /// The function's parameter of this index.
    Param(u32),
}

impl LlvmFacts {
    /// The full value of a constant of `width > 64` bits whose low 64 bits `llvm-ir` reported,
    /// when it is the only such constant of the module.
    pub fn module_wide_value(&self, width: u32, low: u64) -> Result<u128> {
        let key = (width, low);
        if self.ambiguous.contains(&key) {
            return Err(FrontendError::unsupported(format!(
                "two distinct i{width} constants with equal low 64 bits ({low:#x})"
            )));
        }
        // A wide constant llvm-ir reports always appears in the module, so it is in the table.
        self.wide.get(&key).copied().ok_or_else(|| {
            FrontendError::unsupported(format!(
                "i{width} constant {low:#x} not found in the module"
            ))
        })
    }

    /// Reads the facts of the `.ll` or `.bc` file at `path`.
    pub fn read(path: &Path) -> Result<LlvmFacts> {
        let parse_err = |message: String| FrontendError::Parse {
            path: path.display().to_string(),
            message,
        };
        let cpath =
            CString::new(path.display().to_string()).map_err(|e| parse_err(e.to_string()))?;
        // SAFETY: standard LLVM C API use; the module and context are disposed below and no
        // reference to them escapes this function.
        unsafe {
            let mut buf: LLVMMemoryBufferRef = std::ptr::null_mut();
            let mut msg: *mut std::os::raw::c_char = std::ptr::null_mut();
            if LLVMCreateMemoryBufferWithContentsOfFile(cpath.as_ptr(), &mut buf, &mut msg) != 0 {
                return Err(parse_err(take_message(msg)));
            }
            let ctx = LLVMContextCreate();
            let mut module: LLVMModuleRef = std::ptr::null_mut();
            // LLVMParseIRInContext takes ownership of the buffer and accepts text and bitcode.
            if llvm_sys::ir_reader::LLVMParseIRInContext(ctx, buf, &mut module, &mut msg) != 0 {
                LLVMContextDispose(ctx);
                return Err(parse_err(take_message(msg)));
            }
            let mut facts = LlvmFacts::default();
            let mut walker = ConstWalker::new(ctx);
            facts.collect(module, &mut walker);
            walker.finish(&mut facts);
            LLVMDisposeModule(module);
            LLVMContextDispose(ctx);
            Ok(facts)
        }
    }

    unsafe fn collect(&mut self, module: LLVMModuleRef, walker: &mut ConstWalker) {
        let mut global = LLVMGetFirstGlobal(module);
        while !global.is_null() {
            let init = LLVMGetInitializer(global);
            if !init.is_null() {
                let mut wides = Vec::new();
                walker.ordered_wides(init, &mut wides);
                if !wides.is_empty() {
                    self.wide_in_global.insert(value_name(global), wides);
                }
            }
            global = LLVMGetNextGlobal(global);
        }
        let mut func = LLVMGetFirstFunction(module);
        while !func.is_null() {
            let name = value_name(func);
            let mut block = LLVMGetFirstBasicBlock(func);
            let mut b = 0u32;
            let mut allocas: FxHashMap<usize, InstKey> = FxHashMap::default();
            // Only modules after `mem2reg` have `llvm.dbg.value` calls: the positions are built at the first.
            let mut positions: Option<FxHashMap<usize, InstKey>> = None;
            while !block.is_null() {
                let mut leading = true;
                let mut inst = LLVMGetFirstInstruction(block);
                let mut i = 0u32;
                while !inst.is_null() {
                    if !LLVMIsAAllocaInst(inst).is_null() {
                        allocas.insert(inst as usize, (b, i));
                    }
                    if is_dbg_value(inst) {
                        let positions =
                            positions.get_or_insert_with(|| instruction_positions(func));
                        if let Some(d) = dbg_value(inst, func, positions, (b, i), leading) {
                            self.dbg_values.entry(name.clone()).or_default().push(d);
                        }
                    }
                    if leading {
                        leading = !LLVMIsAPHINode(inst).is_null() || is_debug_intrinsic(inst);
                    }
                    if let Some((alloca, var)) = declared_variable(inst) {
                        if let Some(&key) = allocas.get(&(alloca as usize)) {
                            self.var_names
                                .entry(name.clone())
                                .or_default()
                                .insert(key, var);
                        }
                    }
                    let flags = arith_flags(inst);
                    if flags != ArithFlags::NONE {
                        self.flags
                            .entry(name.clone())
                            .or_default()
                            .insert((b, i), flags);
                    }
                    let mut wides = Vec::new();
                    for k in 0..LLVMGetNumOperands(inst).max(0) as u32 {
                        let op = LLVMGetOperand(inst, k);
                        if !op.is_null() && !LLVMIsAConstant(op).is_null() {
                            wides.extend(walker.wides_of(op));
                        }
                    }
                    if !wides.is_empty() {
                        self.wide_in_inst
                            .entry(name.clone())
                            .or_default()
                            .insert((b, i), wides);
                    }
                    let mut labels = Vec::new();
                    for k in 0..LLVMGetNumOperands(inst).max(0) as u32 {
                        labels_in(LLVMGetOperand(inst, k), &mut labels);
                    }
                    if !labels.is_empty() {
                        self.labels_in_inst
                            .entry(name.clone())
                            .or_default()
                            .insert((b, i), labels);
                    }
                    inst = LLVMGetNextInstruction(inst);
                    i += 1;
                }
                block = LLVMGetNextBasicBlock(block);
                b += 1;
            }
            func = LLVMGetNextFunction(func);
        }
    }
}

/// The labels `blockaddress` constants inside the constant `c` name: (function, block index).
unsafe fn labels_in(c: LLVMValueRef, out: &mut Vec<(String, u32)>) {
    if c.is_null() || LLVMIsAConstant(c).is_null() || !LLVMIsAGlobalValue(c).is_null() {
        return;
    }
    if !LLVMIsABlockAddress(c).is_null() {
        let (func, block) = (LLVMGetOperand(c, 0), LLVMGetOperand(c, 1));
        if func.is_null() || block.is_null() {
            return;
        }
        let target = LLVMValueAsBasicBlock(block);
        let mut bb = LLVMGetFirstBasicBlock(func);
        let mut index = 0u32;
        while !bb.is_null() && bb != target {
            bb = LLVMGetNextBasicBlock(bb);
            index += 1;
        }
        if !bb.is_null() {
            out.push((value_name(func), index));
        }
        return;
    }
    for k in 0..LLVMGetNumOperands(c).max(0) as u32 {
        labels_in(LLVMGetOperand(c, k), out);
    }
}

unsafe fn take_message(msg: *mut std::os::raw::c_char) -> String {
    if msg.is_null() {
        return "unknown error".into();
    }
    let s = CStr::from_ptr(msg).to_string_lossy().into_owned();
    LLVMDisposeMessage(msg);
    s
}

unsafe fn value_name(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    let ptr = LLVMGetValueName2(v, &mut len);
    if ptr.is_null() {
        return String::new();
    }
    String::from_utf8_lossy(std::slice::from_raw_parts(ptr as *const u8, len)).into_owned()
}

/// Every instruction of `func` by its position (block index, index in the block).
unsafe fn instruction_positions(func: LLVMValueRef) -> FxHashMap<usize, InstKey> {
    let mut m = FxHashMap::default();
    let mut block = LLVMGetFirstBasicBlock(func);
    let mut b = 0u32;
    while !block.is_null() {
        let mut inst = LLVMGetFirstInstruction(block);
        let mut i = 0u32;
        while !inst.is_null() {
            m.insert(inst as usize, (b, i));
            inst = LLVMGetNextInstruction(inst);
            i += 1;
        }
        block = LLVMGetNextBasicBlock(block);
        b += 1;
    }
    m
}

/// Whether `inst` calls `llvm.dbg.value`.
unsafe fn is_dbg_value(inst: LLVMValueRef) -> bool {
    if LLVMIsACallInst(inst).is_null() {
        return false;
    }
    let callee = LLVMGetCalledValue(inst);
    !callee.is_null() && value_name(callee) == "llvm.dbg.value"
}

/// Whether `inst` calls an `llvm.dbg.*` intrinsic.
unsafe fn is_debug_intrinsic(inst: LLVMValueRef) -> bool {
    if LLVMIsACallInst(inst).is_null() {
        return false;
    }
    let callee = LLVMGetCalledValue(inst);
    !callee.is_null() && value_name(callee).starts_with("llvm.dbg.")
}

/// For a call `llvm.dbg.value(metadata V, metadata !DILocalVariable(name: "x", ...), metadata
/// !DIExpression())`: `V` (an instruction or a parameter of `func`) and the variable.
unsafe fn dbg_value(
    inst: LLVMValueRef,
    func: LLVMValueRef,
    positions: &FxHashMap<usize, InstKey>,
    at: InstKey,
    leading: bool,
) -> Option<DbgValue> {
    if LLVMIsACallInst(inst).is_null() || LLVMGetNumOperands(inst) < 3 {
        return None;
    }
    let callee = LLVMGetCalledValue(inst);
    if callee.is_null() || value_name(callee) != "llvm.dbg.value" {
        return None;
    }
    let (val, var, expr) = (
        LLVMGetOperand(inst, 0),
        LLVMGetOperand(inst, 1),
        LLVMGetOperand(inst, 2),
    );
    if val.is_null() || var.is_null() || expr.is_null() || LLVMIsAMDNode(var).is_null() {
        return None;
    }
    let printed = LLVMPrintValueToString(expr);
    let empty = CStr::from_ptr(printed)
        .to_string_lossy()
        .ends_with("!DIExpression()");
    LLVMDisposeMessage(printed);
    if !empty {
        return None;
    }
    let (value, name) = value_and_variable(val, var)?;
    let value = if let Some(&k) = positions.get(&(value as usize)) {
        DbgOperand::Inst(k)
    } else {
        let n = LLVMCountParams(func);
        (0..n)
            .find(|&k| LLVMGetParam(func, k) == value)
            .map(DbgOperand::Param)?
    };
    Some(DbgValue {
        at,
        value,
        name,
        variable: var as usize,
        leading,
    })
}

/// For a call of `llvm.dbg.declare(metadata ptr %a, metadata !DILocalVariable(name: "x", ...), ...)`:
/// the alloca `%a` and the variable's name `x` (a `DIVariable`'s operand 1 is its name).
unsafe fn declared_variable(inst: LLVMValueRef) -> Option<(LLVMValueRef, String)> {
    if LLVMIsACallInst(inst).is_null() || LLVMGetNumOperands(inst) < 3 {
        return None;
    }
    let callee = LLVMGetCalledValue(inst);
    if callee.is_null() || value_name(callee) != "llvm.dbg.declare" {
        return None;
    }
    let (addr, var) = (LLVMGetOperand(inst, 0), LLVMGetOperand(inst, 1));
    if addr.is_null() || var.is_null() || LLVMIsAMDNode(var).is_null() {
        return None;
    }
    value_and_variable(addr, var)
}

/// The value a `ValueAsMetadata` operand wraps (its one operand) and the name of a `DIVariable` operand
/// (its operand 1), as the debug intrinsics pass them.
unsafe fn value_and_variable(
    wrapped: LLVMValueRef,
    var: LLVMValueRef,
) -> Option<(LLVMValueRef, String)> {
    if LLVMGetMDNodeNumOperands(wrapped) != 1 || LLVMGetMDNodeNumOperands(var) < 2 {
        return None;
    }
    let mut value = std::ptr::null_mut();
    LLVMGetMDNodeOperands(wrapped, &mut value);
    let mut ops = vec![std::ptr::null_mut(); LLVMGetMDNodeNumOperands(var) as usize];
    LLVMGetMDNodeOperands(var, ops.as_mut_ptr());
    if value.is_null() || ops[1].is_null() {
        return None;
    }
    let mut len = 0u32;
    let ptr = LLVMGetMDString(ops[1], &mut len);
    if ptr.is_null() || len == 0 {
        return None;
    }
    let name = std::slice::from_raw_parts(ptr as *const u8, len as usize);
    Some((value, String::from_utf8_lossy(name).into_owned()))
}

unsafe fn arith_flags(inst: LLVMValueRef) -> ArithFlags {
    use LLVMOpcode::*;
    match LLVMGetInstructionOpcode(inst) {
        LLVMAdd | LLVMSub | LLVMMul | LLVMShl => {
            let mut f = ArithFlags::NONE;
            if instruction_has_nuw(inst) {
                f = f.with(ArithFlags::NUW);
            }
            if instruction_has_nsw(inst) {
                f = f.with(ArithFlags::NSW);
            }
            f
        }
        LLVMUDiv | LLVMSDiv | LLVMLShr | LLVMAShr if instruction_is_exact(inst) => {
            ArithFlags::EXACT
        }
        _ => ArithFlags::NONE,
    }
}

/// Visits constants (through aggregates and constant expressions, never into other globals)
/// and collects the integers wider than 64 bits, remembering the answer per constant node.
struct ConstWalker {
    ctx: LLVMContextRef,
    memo: FxHashMap<usize, Vec<(u32, u128)>>,
    found: FxHashMap<(u32, u64), FxHashSet<u128>>,
}

impl ConstWalker {
    fn new(ctx: LLVMContextRef) -> Self {
        ConstWalker {
            ctx,
            memo: FxHashMap::default(),
            found: FxHashMap::default(),
        }
    }

    /// The wide integer constants inside `c`.
    unsafe fn wides_of(&mut self, c: LLVMValueRef) -> Vec<(u32, u128)> {
        if !LLVMIsAGlobalValue(c).is_null() {
            return Vec::new();
        }
        if !LLVMIsAConstantInt(c).is_null() {
            let width = LLVMGetIntTypeWidth(LLVMTypeOf(c));
            if width <= 64 {
                return Vec::new();
            }
            let value = self.full_value(c, width);
            self.found
                .entry((width, value as u64))
                .or_default()
                .insert(value);
            return vec![(width, value)];
        }
        if let Some(known) = self.memo.get(&(c as usize)) {
            return known.clone();
        }
        let mut out = Vec::new();
        for k in 0..LLVMGetNumOperands(c).max(0) as u32 {
            let op = LLVMGetOperand(c, k);
            if !op.is_null() && !LLVMIsAConstant(op).is_null() {
                for w in self.wides_of(op) {
                    if !out.contains(&w) {
                        out.push(w);
                    }
                }
            }
        }
        self.memo.insert(c as usize, out.clone());
        out
    }

    /// Every wide integer inside `c`, in operand (element) order, once per occurrence.
    unsafe fn ordered_wides(&mut self, c: LLVMValueRef, out: &mut Vec<(u32, u128)>) {
        if !LLVMIsAGlobalValue(c).is_null() {
            return;
        }
        if !LLVMIsAConstantInt(c).is_null() {
            out.extend(self.wides_of(c));
            return;
        }
        if self.memo.get(&(c as usize)).is_some_and(Vec::is_empty) {
            return;
        }
        for k in 0..LLVMGetNumOperands(c).max(0) as u32 {
            let op = LLVMGetOperand(c, k);
            if !op.is_null() && !LLVMIsAConstant(op).is_null() {
                self.ordered_wides(op, out);
            }
        }
    }

    /// Reads a wide constant 64 bits at a time; LLVM folds the shifts and truncations.
    unsafe fn full_value(&self, c: LLVMValueRef, width: u32) -> u128 {
        let ty = LLVMTypeOf(c);
        let i64t = LLVMInt64TypeInContext(self.ctx);
        let low = LLVMConstIntGetZExtValue(LLVMConstTrunc(c, i64t)) as u128;
        let shifted = LLVMConstLShr(c, LLVMConstInt(ty, 64, 0));
        let high = LLVMConstIntGetZExtValue(LLVMConstTrunc(shifted, i64t)) as u128;
        let mask = if width >= 128 {
            u128::MAX
        } else {
            (1u128 << width) - 1
        };
        (low | (high << 64)) & mask
    }

    fn finish(self, facts: &mut LlvmFacts) {
        for (key, values) in self.found {
            if values.len() == 1 {
                facts
                    .wide
                    .insert(key, values.into_iter().next().unwrap_or_default());
            } else {
                facts.ambiguous.insert(key);
            }
        }
    }
}
