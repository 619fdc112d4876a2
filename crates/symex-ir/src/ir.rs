//! The compact IR: what every symex analysis executes.
//!
//! It is lowered once from clang-14's LLVM IR (see `lower`) and is built for fast interpretation:
//!
//! * every SSA value of a function lives in a dense **slot** ([`Slot`]); parameters take slots
//!   `0..params.len()`, LLVM's values follow in instruction order, then the few values the lowering
//!   introduces itself (the stack copies of `byval` arguments);
//! * operands are pre-resolved: a slot or an index into the module's constant pool ([`ConstId`]);
//!   no names or strings are looked up while executing;
//! * type sizes, alignments, field offsets and GEP offsets are computed once from the data layout;
//!   aggregate values (structs, arrays, the `{iN, i1}` of `*.with.overflow`) are addressed by
//!   **byte offsets** inside their in-memory layout, exactly as they would sit in memory;
//! * phi nodes are additionally lowered to **parallel moves on control-flow edges** ([`Edge`]), so an
//!   interpreter never searches a phi's incoming list;
//! * debug locations ([`Loc`]) sit beside the instructions (not inside them) for reports.
//!
//! Integers are at most 128 bits wide; pointer values are 64-bit scalars (little endian; on a 32-bit
//! target, [`Target::pointer_bytes`] = 4, they hold zero-extended 32-bit addresses and occupy 4 bytes in
//! memory, and the engine wraps their arithmetic at 32 bits). Integer
//! values are stored as `u128` masked to their width (two's complement for signed meaning).

use rustc_hash::FxHashMap;

/// Index of a value slot in a function's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slot(pub u32);

/// Index into [`Module::consts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstId(pub u32);

/// Index into [`Module::types`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// Index into [`Module::functions`] (definitions and declarations alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);

/// Index into [`Module::globals`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalId(pub u32);

/// Index into [`Body::blocks`]; the entry block is always `BlockId(0)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

impl TypeId {
    /// `void` (only as a return type).
    pub const VOID: TypeId = TypeId(0);
    /// `i1`.
    pub const I1: TypeId = TypeId(1);
    /// `i8`.
    pub const I8: TypeId = TypeId(2);
    /// `i16`.
    pub const I16: TypeId = TypeId(3);
    /// `i32`.
    pub const I32: TypeId = TypeId(4);
    /// `i64`.
    pub const I64: TypeId = TypeId(5);
    /// `i128`.
    pub const I128: TypeId = TypeId(6);
    /// Any pointer (pointee types are irrelevant once GEPs are lowered to byte offsets).
    pub const PTR: TypeId = TypeId(7);
}

/// An instruction operand: a value slot of the current frame or a module constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Slot(Slot),
    Const(ConstId),
}

/// A source position. `line == 0` means unknown. `file` indexes [`Module::files`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Loc {
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

impl Loc {
    /// No source position known.
    pub const UNKNOWN: Loc = Loc {
        file: 0,
        line: 0,
        col: 0,
    };

    pub fn is_known(&self) -> bool {
        self.line != 0
    }
}

/// Target facts the IR was laid out for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The LLVM target triple, e.g. `x86_64-pc-linux-gnu`.
    pub triple: String,
    /// The LLVM data layout string the sizes and offsets were computed from.
    pub data_layout: String,
    /// 8 (x86-64) or 4 (i386, `-m32`): lowering rejects other pointer sizes. Pointer values are 64-bit
    /// scalars in the IR either way; on a 4-byte target they hold zero-extended 32-bit addresses.
    pub pointer_bytes: u32,
}

/// A local an interpreter keeps in a register (`mem2reg` at run time): one whose address is used only to
/// load and store the whole scalar it holds, and to mark its lifetime. Its accesses carry this, so that
/// an access needs no lookup to know it. The slot that holds the value and the local's index among its
/// function's promoted locals (below 64), in one non-zero word: an instruction stays 40 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Promoted(std::num::NonZeroU32);

impl Promoted {
    const INDEX_SHIFT: u32 = 26;

    /// `None` when `value` or `index` does not fit (a function of more than 2^26 slots).
    pub fn new(value: Slot, index: u8) -> Option<Promoted> {
        if index >= 64 || value.0 + 1 >= 1 << Self::INDEX_SHIFT {
            return None;
        }
        std::num::NonZeroU32::new((u32::from(index) << Self::INDEX_SHIFT) | (value.0 + 1))
            .map(Promoted)
    }

    /// The slot that holds the local's value.
    #[inline(always)]
    pub fn value(self) -> Slot {
        Slot((self.0.get() & ((1 << Self::INDEX_SHIFT) - 1)) - 1)
    }

    /// The local's index among its function's promoted locals.
    #[inline(always)]
    pub fn index(self) -> u32 {
        self.0.get() >> Self::INDEX_SHIFT
    }
}

/// A whole program.
#[derive(Clone, Debug)]
pub struct Module {
    /// The input file the module came from (as given to the front-end).
    pub source_path: String,
    /// Source file names referenced by [`Loc::file`]; index 0 is the main source file.
    pub files: Vec<String>,
    pub target: Target,
    /// Interned types; [`TypeId`]'s associated constants name the first entries.
    pub types: Vec<TypeInfo>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    /// The constant pool shared by all functions ([`Operand::Const`]).
    pub consts: Vec<Const>,
    /// Name → function, for hooking library models and finding `main`.
    pub function_names: FxHashMap<String, FuncId>,
    /// Name → global.
    pub global_names: FxHashMap<String, GlobalId>,
}

impl Module {
    pub fn ty(&self, id: TypeId) -> &TypeInfo {
        &self.types[id.0 as usize]
    }

    pub fn func(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }

    pub fn global(&self, id: GlobalId) -> &Global {
        &self.globals[id.0 as usize]
    }

    pub fn konst(&self, id: ConstId) -> &Const {
        &self.consts[id.0 as usize]
    }

    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.function_names.get(name).copied()
    }

    pub fn global_by_name(&self, name: &str) -> Option<GlobalId> {
        self.global_names.get(name).copied()
    }

    /// The file name of a location (`"?"` when unknown).
    pub fn file_name(&self, loc: Loc) -> &str {
        self.files
            .get(loc.file as usize)
            .map(String::as_str)
            .unwrap_or("?")
    }

    /// `file:line:col` (or `file:line` without a column) for reports.
    pub fn describe_loc(&self, loc: Loc) -> String {
        match (loc.is_known(), loc.col) {
            (false, _) => format!("{}:?", self.file_name(loc)),
            (true, 0) => format!("{}:{}", self.file_name(loc), loc.line),
            (true, col) => format!("{}:{}:{}", self.file_name(loc), loc.line, col),
        }
    }
}

/// A type with its layout, computed once from the data layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeInfo {
    pub kind: TypeKind,
    /// Bytes a load or store of this type touches (LLVM's store size).
    pub store_size: u64,
    /// Bytes between consecutive array elements of this type (LLVM's alloc size, padded to `align`).
    pub alloc_size: u64,
    /// ABI alignment in bytes.
    pub align: u64,
}

/// The shape of a type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    Void,
    /// An integer of 1..=128 bits.
    Int(u32),
    /// A pointer: a 64-bit scalar; its size in memory is the target's pointer size.
    Ptr,
    /// `[len x elem]`, elements `alloc_size(elem)` bytes apart.
    Array {
        elem: TypeId,
        len: u64,
    },
    /// `<lanes x elem>` with integer or pointer elements; in memory lanes are packed
    /// `store_size(elem)` bytes apart (lowering rejects vectors of `i1` in memory).
    Vector {
        elem: TypeId,
        lanes: u32,
    },
    /// A struct: field `i` of type `fields[i]` starts at byte `offsets[i]`.
    Struct {
        fields: Vec<TypeId>,
        offsets: Vec<u64>,
        packed: bool,
    },
}

/// A global variable (or a string literal, which clang emits as a constant private global).
#[derive(Clone, Debug)]
pub struct Global {
    pub name: String,
    pub ty: TypeId,
    /// Bytes the object occupies (`alloc_size` of `ty`).
    pub size: u64,
    /// Alignment in bytes (the larger of the explicit and the ABI alignment).
    pub align: u64,
    /// `None`: declared but defined elsewhere (e.g. `extern FILE *stdout`).
    pub init: Option<ConstData>,
    /// Declared `constant` in LLVM (string literals, `const` globals): writes are bugs.
    pub is_constant: bool,
    pub loc: Loc,
}

/// The bytes of a constant object with the pointers it contains.
///
/// `bytes` holds the little-endian image with every pointer position zero; each [`Reloc`] says
/// which pointer goes where. Undefined bytes (`undef`/`poison` in initializers, padding) are zero.
/// A global's image stops after its last non-zero byte or pointer: the zero tail is not stored, so a
/// 400 MB zero-initialised array costs nothing until the engine writes it. An aggregate constant
/// used as a value ([`Const::Aggregate`]) has every byte of its type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ConstData {
    pub bytes: Vec<u8>,
    pub relocs: Vec<Reloc>,
}

impl ConstData {
    /// The byte at `off`: zero past the stored prefix.
    pub fn byte(&self, off: u64) -> u8 {
        usize::try_from(off)
            .ok()
            .and_then(|i| self.bytes.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// `n` bytes from `off`, with the zero tail filled in.
    pub fn read(&self, off: u64, n: u64) -> Vec<u8> {
        (off..off + n).map(|i| self.byte(i)).collect()
    }

    /// How many leading bytes hold every non-zero byte and every pointer: the rest is zero.
    pub fn significant_len(&self) -> usize {
        let stored = self
            .bytes
            .iter()
            .rposition(|&b| b != 0)
            .map_or(0, |i| i + 1);
        let relocated = self
            .relocs
            .iter()
            .map(|r| (r.offset + u64::from(r.width.min(8))) as usize)
            .max()
            .unwrap_or(0);
        stored.max(relocated).min(self.bytes.len())
    }
}

/// A pointer stored inside constant data: `width` bytes at `offset` hold `target + addend`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reloc {
    pub offset: u64,
    pub target: AddrBase,
    pub addend: i64,
    /// 8 for pointers; less only for a truncated `ptrtoint` constant (rare).
    pub width: u32,
}

/// What a constant address points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddrBase {
    Global(GlobalId),
    Function(FuncId),
}

/// A constant operand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Const {
    /// An integer of `width` bits; `value` is masked to the width. In a pointer-typed position
    /// (always with `width == 64`) it is an absolute address, as `inttoptr` of a constant or a
    /// GEP on null (`&((T *)0)->field`) produce.
    Int { width: u32, value: u128 },
    /// The null pointer.
    Null,
    /// The address `base + offset` (a global or a function, possibly through a constant GEP).
    Addr { base: AddrBase, offset: i64 },
    /// `ptrtoint (base + offset)` as an integer of `width` bits.
    AddrAsInt {
        base: AddrBase,
        offset: i64,
        width: u32,
    },
    /// `undef` or `poison` of the given type: any value (the concrete interpreter uses zero).
    Undef(TypeId),
    /// A struct, array or vector constant of type `ty`, as its in-memory image.
    Aggregate { ty: TypeId, data: ConstData },
}

/// A function: a definition (`body` is `Some`) or a declaration (library function, intrinsic
/// model, `__VERIFIER_*`, `klee_*`, ...), which the engine may model by its `name`.
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    /// Parameter types; parameter `i` lives in `Slot(i)`.
    pub params: Vec<TypeId>,
    /// The source names of the parameters (empty where LLVM numbers them), for stack traces.
    pub param_names: Vec<String>,
    pub ret: TypeId,
    /// Declared with `...`. The variadic arguments of a call are those after `params.len()`.
    pub is_vararg: bool,
    /// A declaration with weak linkage (`__attribute__((weak))` and no definition): when nothing defines
    /// it at link time its address is null (ELF), so `if (f) f();` skips the call.
    pub is_extern_weak: bool,
    pub body: Option<Body>,
    pub loc: Loc,
}

impl Function {
    pub fn is_declaration(&self) -> bool {
        self.body.is_none()
    }
}

/// The code of a defined function.
#[derive(Clone, Debug)]
pub struct Body {
    /// Basic blocks; `blocks[0]` is the entry.
    pub blocks: Vec<Block>,
    /// The frame size: slots are `0..num_slots`.
    pub num_slots: u32,
    /// The type of every slot (`slot_types.len() == num_slots`).
    pub slot_types: Vec<TypeId>,
    /// The source variable of each stack object the debug information names (`llvm.dbg.declare`, so
    /// also in bitcode whose value names were discarded), by the slot of its `alloca`, sorted by slot;
    /// what messages name objects by.
    pub local_names: Vec<(Slot, String)>,
    /// The source variables among the allocas, where their LLVM names identify them unambiguously
    /// (see [`crate::locals`]).
    pub locals: Vec<LocalVar>,
    /// Where a register holds a source variable (`llvm.dbg.value`, after `mem2reg`), in order.
    pub dbg_values: Vec<DbgValue>,
}

/// `llvm.dbg.value`: from this point of the block on, the source variable `name` holds `slot`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbgValue {
    pub block: BlockId,
    /// Only φ-nodes and debug intrinsics precede it in the block: it describes the block's entry.
    pub leading: bool,
    pub slot: Slot,
    pub name: String,
    /// Which variable of the function (two may share a name in different scopes).
    pub variable: u32,
}

/// A local variable of the source program: the alloca that holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalVar {
    /// The alloca's result (the variable's address).
    pub slot: Slot,
    /// The variable's name in the source.
    pub name: String,
    /// A parameter (spilled to its alloca at entry), in scope in the whole function.
    pub param: bool,
    /// Where the variable's lifetime starts (`llvm.lifetime.start`, at its declaration): a name is only
    /// in scope after it. `None` when clang marks no lifetime (a parameter, or a variable a jump can
    /// pass).
    pub decl: Option<Loc>,
}

/// A basic block: phis, straight-line instructions, one terminator.
#[derive(Clone, Debug)]
pub struct Block {
    /// The LLVM label (for dumps and diagnostics only).
    pub name: String,
    /// The phi nodes, kept for analyses that merge paths. Interpreters use [`Edge::moves`] instead.
    pub phis: Vec<Phi>,
    pub insts: Vec<Inst>,
    /// `locs[i]` is the source position of `insts[i]` (same length).
    pub locs: Vec<Loc>,
    pub term: Terminator,
    pub term_loc: Loc,
}

/// `dst = phi [(src, pred)...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phi {
    pub dst: Slot,
    pub ty: TypeId,
    pub incoming: Vec<(Operand, BlockId)>,
}

/// A control-flow edge with the phi moves of its target for this predecessor. The moves are a
/// parallel assignment: read every `src` before writing any `dst`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub to: BlockId,
    pub moves: Box<[PhiMove]>,
}

/// One phi assignment on an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhiMove {
    pub dst: Slot,
    pub src: Operand,
}

/// How a block ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Terminator {
    /// Return, with a value unless the function returns `void`.
    Ret(Option<Operand>),
    Br(Edge),
    /// `cond` is an `i1`.
    CondBr {
        cond: Operand,
        if_true: Edge,
        if_false: Edge,
    },
    Switch(Box<Switch>),
    /// Reaching it is undefined behaviour (clang emits it after `noreturn` calls and for falling
    /// off a non-void function in some modes).
    Unreachable,
}

impl Terminator {
    /// The edges the block may leave by, in order (`switch`: the cases, then the default); none for
    /// `ret` and `unreachable`.
    pub fn edges(&self) -> Vec<&Edge> {
        match self {
            Terminator::Br(e) => vec![e],
            Terminator::CondBr {
                if_true, if_false, ..
            } => vec![if_true, if_false],
            Terminator::Switch(sw) => sw
                .cases
                .iter()
                .map(|(_, e)| e)
                .chain([&sw.default])
                .collect(),
            Terminator::Ret(_) | Terminator::Unreachable => Vec::new(),
        }
    }

    /// The blocks the block may go to, one per edge (a block twice when two edges reach it).
    pub fn successors(&self) -> Vec<BlockId> {
        self.edges().iter().map(|e| e.to).collect()
    }
}

/// `switch`: the first case equal to `value` is taken, else `default`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Switch {
    pub value: Operand,
    pub width: u32,
    /// Case values, masked to `width`.
    pub cases: Vec<(u128, Edge)>,
    pub default: Edge,
}

/// Integer binary operators (LLVM semantics: division by zero and signed `MIN / -1` are UB,
/// shifts by `>= width` give poison).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

/// `nuw` / `nsw` / `exact` as LLVM attaches them. A violated flag makes the result poison; the
/// symbolic engine uses `nsw` (emitted by clang for signed `+ - *`) to detect signed overflow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ArithFlags(pub u8);

impl ArithFlags {
    pub const NONE: ArithFlags = ArithFlags(0);
    pub const NUW: ArithFlags = ArithFlags(1);
    pub const NSW: ArithFlags = ArithFlags(2);
    pub const EXACT: ArithFlags = ArithFlags(4);

    pub fn nuw(self) -> bool {
        self.0 & Self::NUW.0 != 0
    }
    pub fn nsw(self) -> bool {
        self.0 & Self::NSW.0 != 0
    }
    pub fn exact(self) -> bool {
        self.0 & Self::EXACT.0 != 0
    }
    pub fn with(self, other: ArithFlags) -> ArithFlags {
        ArithFlags(self.0 | other.0)
    }
}

/// `icmp` predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntPred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

/// Integer/pointer conversions. Pointer-to-pointer casts become [`Inst::Copy`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    /// Pointer → integer of `to` bits (truncating or zero-extending the 64-bit address).
    PtrToInt,
    /// Integer of `from` bits → pointer (zero-extended or truncated to 64 bits, and on a 32-bit target
    /// cut to 32 bits by the engine).
    IntToPtr,
}

/// One variable GEP index: `offset += sext_or_trunc(index, 64) * scale`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GepIndex {
    pub index: Operand,
    /// Bit width of the index operand (32 or 64 in clang's output).
    pub width: u32,
    /// Byte size of one step (the element's alloc size).
    pub scale: i64,
}

/// A call target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    /// A known function (also through a constant bitcast, as K&R-style calls produce). The
    /// call's arity and types may then differ from the callee's declaration.
    Direct(FuncId),
    /// A function pointer.
    Indirect(Operand),
}

/// `dst = callee(args...)`. A `byval` argument has already been copied by the lowering (a stack
/// copy made just before the call and released just after it), so arguments are plain values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub dst: Option<Slot>,
    pub callee: Callee,
    pub args: Vec<Operand>,
    /// The types of `args` as passed (needed to lay out variadic arguments).
    pub arg_types: Vec<TypeId>,
    /// The `byval` arguments (index, pointee type): each is passed as a pointer to the call's own copy,
    /// and a variadic callee finds the pointee's bytes themselves in its argument area.
    pub byval: Vec<(usize, TypeId)>,
    /// The return type at the call site.
    pub ret: TypeId,
}

/// Which `*.with.overflow` intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OverflowOp {
    SAdd,
    UAdd,
    SSub,
    USub,
    SMul,
    UMul,
}

/// Which saturating intrinsic (`llvm.{s,u}{add,sub}.sat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SatOp {
    SAdd,
    UAdd,
    SSub,
    USub,
}

/// Which min/max intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MinMaxOp {
    UMin,
    UMax,
    SMin,
    SMax,
}

/// The LLVM intrinsics symex gives meaning to. `llvm.dbg.*` and similar annotations are dropped
/// during lowering. Scalar forms only (vector forms are [`VectorInst`]s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Intrinsic {
    /// `args: [a, b]` of `width` bits → an aggregate `{iN, i1}`: the wrapped result at byte 0,
    /// the overflow bit (`i1`) at the second field's offset in the `dst` slot's struct type.
    Overflow {
        op: OverflowOp,
        width: u32,
    },
    /// `args: [a, b]` → saturated result.
    Saturating {
        op: SatOp,
        width: u32,
    },
    /// `args: [a, b]`.
    MinMax {
        op: MinMaxOp,
        width: u32,
    },
    /// `args: [a]`; `int_min_is_poison` is LLVM's second argument.
    Abs {
        width: u32,
        int_min_is_poison: bool,
    },
    /// `args: [a]`.
    Ctpop {
        width: u32,
    },
    /// `args: [a]`; `zero_is_poison` is LLVM's second argument.
    Ctlz {
        width: u32,
        zero_is_poison: bool,
    },
    /// `args: [a]`.
    Cttz {
        width: u32,
        zero_is_poison: bool,
    },
    /// `args: [a]` (width a multiple of 16).
    Bswap {
        width: u32,
    },
    /// `args: [a]`.
    Bitreverse {
        width: u32,
    },
    /// Funnel shifts, `args: [a, b, shift]`.
    Fshl {
        width: u32,
    },
    Fshr {
        width: u32,
    },
    /// `llvm.lifetime.start`, `args: [size, ptr]`: the local `ptr` points to begins a new lifetime, its
    /// contents indeterminate (C11 6.2.4p6: each entry into the variable's block).
    LifetimeStart,
    /// `llvm.lifetime.end`, `args: [size, ptr]`: the local `ptr` points to is dead (its block was left).
    LifetimeEnd,
    /// `args: [dst, src, len]`; `len` has `len_width` bits. Overlap is UB.
    Memcpy {
        len_width: u32,
        volatile: bool,
    },
    /// `args: [dst, src, len]`.
    Memmove {
        len_width: u32,
        volatile: bool,
    },
    /// `args: [dst, byte (i8), len]`.
    Memset {
        len_width: u32,
        volatile: bool,
    },
    /// `dst = stack pointer token` (a pointer); no args.
    StackSave,
    /// `args: [token]`: frees the `alloca`s made since the matching `StackSave`.
    StackRestore,
    /// `args: [va_list*]`. x86-64 SysV: clang expands `va_arg` inline over
    /// `struct { i32 gp_offset; i32 fp_offset; i8 *overflow_arg_area; i8 *reg_save_area; }`,
    /// so the engine should store `gp_offset = 48`, `fp_offset = 176` (registers exhausted) and
    /// point `overflow_arg_area` at the variadic arguments, each in 8-byte slots (16-byte
    /// aligned slots for 16-byte-aligned types such as `__int128`).
    VaStart,
    /// `args: [va_list*]`.
    VaEnd,
    /// `args: [dst va_list*, src va_list*]`: copies the 24-byte `va_list`.
    VaCopy,
    /// `llvm.trap` / `llvm.debugtrap`: abnormal termination.
    Trap,
    /// `args: [cond]` (`llvm.assume`): UB if false.
    Assume,
}

/// Lane-wise and whole-vector operations (clang emits them at `-O2` when vectorising loops).
/// Vectors hold `lanes` integers of `elem_width` bits (pointers: 64).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VectorInst {
    Bin {
        op: BinOp,
        flags: ArithFlags,
        elem_width: u32,
        lanes: u32,
        dst: Slot,
        lhs: Operand,
        rhs: Operand,
    },
    /// Result is `<lanes x i1>`.
    ICmp {
        pred: IntPred,
        elem_width: u32,
        lanes: u32,
        dst: Slot,
        lhs: Operand,
        rhs: Operand,
    },
    Cast {
        op: CastOp,
        from: u32,
        to: u32,
        lanes: u32,
        dst: Slot,
        src: Operand,
    },
    /// `cond` is `<lanes x i1>` or a scalar `i1`.
    Select {
        elem_width: u32,
        lanes: u32,
        dst: Slot,
        cond: Operand,
        on_true: Operand,
        on_false: Operand,
    },
    /// A lane-wise scalar intrinsic (`umin`, `abs`, `ctpop`, ...) on every lane; `args` are vectors
    /// (the poison flags of `abs`/`ctlz`/`cttz` are inside `op`).
    LaneIntrinsic {
        op: Intrinsic,
        lanes: u32,
        dst: Slot,
        args: Vec<Operand>,
    },
    /// `dst = vec[index]`; an out-of-range index gives poison.
    ExtractElement {
        elem_width: u32,
        lanes: u32,
        dst: Slot,
        vec: Operand,
        index: Operand,
        index_width: u32,
    },
    /// `dst = vec` with `vec[index] = elem`.
    InsertElement {
        elem_width: u32,
        lanes: u32,
        dst: Slot,
        vec: Operand,
        elem: Operand,
        index: Operand,
        index_width: u32,
    },
    /// `dst[i] = concat(a, b)[mask[i]]`, `None` = undefined lane; `a`, `b` have `lanes_in` lanes.
    Shuffle {
        elem_width: u32,
        lanes_in: u32,
        dst: Slot,
        a: Operand,
        b: Operand,
        mask: Vec<Option<u32>>,
    },
    /// `llvm.vector.reduce.*`: folds all lanes of `src` into a scalar.
    Reduce {
        op: ReduceOp,
        elem_width: u32,
        lanes: u32,
        dst: Slot,
        src: Operand,
    },
    /// Reinterprets the bits between a vector and an integer or another vector of the same size
    /// (bit `i` of lane `j` is bit `j * elem_width + i`, little endian).
    Bitcast {
        from: TypeId,
        to: TypeId,
        dst: Slot,
        src: Operand,
    },
}

/// The folds of `llvm.vector.reduce.*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    Add,
    Mul,
    And,
    Or,
    Xor,
    SMax,
    SMin,
    UMax,
    UMin,
}

/// A non-terminator instruction. Every `dst` is written exactly once per execution of the
/// instruction; its type is `Body::slot_types[dst]`.
///
/// The variant is an explicit byte at offset 0 (`repr(u8)`): the interpreter's dispatch reads it and
/// jumps, where the compiler's own layout hid it in a spare value of `Gep`'s operand and decoded it
/// (load, subtract, compare, select) before every jump. Under `repr(u8)` each variant's fields lie in
/// declaration order after the tag, so `Gep`'s and `Alloca`'s are ordered to keep the enum at 40 bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Inst {
    /// `dst = lhs op rhs` on `width`-bit integers.
    Bin {
        op: BinOp,
        flags: ArithFlags,
        width: u32,
        dst: Slot,
        lhs: Operand,
        rhs: Operand,
    },
    /// `dst: i1 = lhs pred rhs`; `width` is the operands' width (64 for pointers).
    ICmp {
        pred: IntPred,
        width: u32,
        dst: Slot,
        lhs: Operand,
        rhs: Operand,
    },
    /// Width-changing and pointer/integer conversions.
    Cast {
        op: CastOp,
        from: u32,
        to: u32,
        dst: Slot,
        src: Operand,
    },
    /// `dst = src` unchanged (pointer bitcasts, same-type bitcasts, `llvm.expect`, `ssa.copy`).
    Copy {
        dst: Slot,
        src: Operand,
    },
    /// `dst = freeze src`: an undefined `src` becomes some fixed value; otherwise a copy.
    Freeze {
        dst: Slot,
        src: Operand,
    },
    /// `dst = cond ? on_true : on_false` (scalar `i1` condition, any value type).
    Select {
        dst: Slot,
        cond: Operand,
        on_true: Operand,
        on_false: Operand,
    },
    /// `dst = base + offset + Σ index·scale` (pointer arithmetic, wrapping at the target's pointer width).
    /// `inbounds` is LLVM's flag (the result must stay inside the base's object).
    Gep {
        inbounds: bool,
        dst: Slot,
        base: Operand,
        offset: i64,
        indices: Box<[GepIndex]>,
    },
    /// `dst = *ptr`: reads `size` bytes (`store_size` of `ty`) at an address aligned to `align`.
    Load {
        dst: Slot,
        ptr: Operand,
        ty: TypeId,
        size: u32,
        align: u32,
        volatile: bool,
        /// Set when `ptr` is a promoted local's address (an interpreter's annotation; `None` as lowered).
        promoted: Option<Promoted>,
    },
    /// `*ptr = val`, as for [`Inst::Load`].
    Store {
        ptr: Operand,
        val: Operand,
        ty: TypeId,
        size: u32,
        align: u32,
        volatile: bool,
        /// As for [`Inst::Load`].
        promoted: Option<Promoted>,
    },
    /// A fresh stack object of `elem_size * count` bytes, freed when the function returns
    /// (or at the matching `StackRestore`). `count` is `None` for the usual single element; for
    /// C variable-length arrays it is an integer operand of `count_width` bits.
    Alloca {
        dst: Slot,
        ty: TypeId,
        count_width: u32,
        align: u32,
        count: Option<Operand>,
        elem_size: u64,
    },
    Call(Box<Call>),
    Intrinsic {
        dst: Option<Slot>,
        op: Intrinsic,
        args: Box<[Operand]>,
    },
    /// `dst = agg.field` where the field of type `ty` starts at byte `offset` of the aggregate.
    ExtractValue {
        dst: Slot,
        agg: Operand,
        offset: u32,
        ty: TypeId,
    },
    /// `dst = agg` with the field of type `ty` at byte `offset` replaced by `val`.
    InsertValue {
        dst: Slot,
        agg: Operand,
        val: Operand,
        offset: u32,
        ty: TypeId,
    },
    Vector(Box<VectorInst>),
}

impl Inst {
    /// The slot the instruction defines, if any.
    pub fn dst(&self) -> Option<Slot> {
        match self {
            Inst::Bin { dst, .. }
            | Inst::ICmp { dst, .. }
            | Inst::Cast { dst, .. }
            | Inst::Copy { dst, .. }
            | Inst::Freeze { dst, .. }
            | Inst::Select { dst, .. }
            | Inst::Gep { dst, .. }
            | Inst::Load { dst, .. }
            | Inst::Alloca { dst, .. }
            | Inst::ExtractValue { dst, .. }
            | Inst::InsertValue { dst, .. } => Some(*dst),
            Inst::Store { .. } => None,
            Inst::Call(call) => call.dst,
            Inst::Intrinsic { dst, .. } => *dst,
            Inst::Vector(v) => Some(v.dst()),
        }
    }
}

impl VectorInst {
    pub fn dst(&self) -> Slot {
        match self {
            VectorInst::Bin { dst, .. }
            | VectorInst::ICmp { dst, .. }
            | VectorInst::Cast { dst, .. }
            | VectorInst::Select { dst, .. }
            | VectorInst::LaneIntrinsic { dst, .. }
            | VectorInst::ExtractElement { dst, .. }
            | VectorInst::InsertElement { dst, .. }
            | VectorInst::Shuffle { dst, .. }
            | VectorInst::Reduce { dst, .. }
            | VectorInst::Bitcast { dst, .. } => *dst,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hot_types_stay_small() {
        // The interpreter walks `Inst`s and `Operand`s in its inner loop.
        assert!(std::mem::size_of::<Operand>() <= 8);
        assert!(std::mem::size_of::<Inst>() <= 40);
    }
}
