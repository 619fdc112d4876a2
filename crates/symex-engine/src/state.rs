//! An execution state: memory, call stack, output, and the domain that carries the path's knowledge.
//! Cloning a state is cheap (memory objects are shared copy-on-write), which is what forking needs.

use crate::bug::{End, Halt, SourceLoc};
use crate::domain::{CastOp, Domain};
use crate::memory::{Memory, ObjId, ObjKind};
use crate::program::Program;
use crate::promote::HomeState;
use crate::provenance::{Provenance, ProvenanceMap};
use crate::regs::{RegPool, RegisterFile};
use crate::stdin::Stdin;
use smallvec::SmallVec;
use std::rc::Rc;
use symex_ir::{AddrBase, BlockId, Const, ConstData, FuncId, Slot};

/// Which optional checks are on (`spec/cli.md`: `--check-overflow`, `--check-leaks`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// Signed overflow of `nsw` arithmetic and of signed division is a bug.
    pub overflow: bool,
    /// Heap blocks no longer reachable from globals at exit are a bug.
    pub leaks: bool,
    /// Heap blocks not freed when the program ends are a bug (SV-COMP's valid-memcleanup), reachable
    /// or not.
    pub cleanup: bool,
    /// `main`'s `argc` is an input (named [`ARGC_INPUT`], any `int` of at least 0, C11 5.1.2.2.1p2)
    /// instead of 1: `symex check` explores it for a `main` that reads `argc` (and not `argv`).
    pub symbolic_argc: bool,
    /// A provably false `klee_assume` ends its path silently instead of as a `user` error (KLEE's
    /// `--silent-klee-assume`).
    pub silent_klee_assume: bool,
    /// `main`'s `envp` and `getenv` see symex's own environment, as a KLEE run's program sees KLEE's
    /// (`--env`); otherwise the environment is empty.
    pub host_environment: bool,
    /// Every UBSan check compiled into the program is reported as KLEE's UBSan runtime reports it
    /// (KLEE's `--ubsan-runtime`): unsigned overflow and any shift or division check too, not only
    /// signed overflow.
    pub ubsan_runtime: bool,
    /// A shift by at least its operand's width is an error (KLEE's `--check-overshift`), reported as
    /// [`OVERSHIFT_MESSAGE`] with the `overshift.err` file; otherwise it gives 0 (sign fill for `ashr`).
    pub overshift: bool,
    /// A call made with more frames than this on the stack ends its path early
    /// ([`crate::Halt::StackLimit`], KLEE's `--max-stack-frames`); 0: no limit.
    pub max_stack_frames: u32,
    /// A `switch` decides its value against each case in turn, one path per feasible case value
    /// (KLEE's `--switch-type=simple`, a chain of comparisons); otherwise one path per target.
    pub switch_per_value: bool,
}

/// The message of an overshift, KLEE's words.
pub const OVERSHIFT_MESSAGE: &str = "overshift error";

/// The name of the input `main`'s `argc` is read from under [`Checks::symbolic_argc`].
pub const ARGC_INPUT: &str = "argc";

/// A module constant as the domain represents it.
#[derive(Clone, Debug)]
pub enum ConstVal<D: Domain> {
    Scalar(D::Val),
    Aggregate(Rc<[D::Byte]>),
}

/// The module's constant pool in the domain: scalars by index (aggregates hold zero there), and the
/// memory images of the aggregate constants.
#[derive(Debug)]
pub struct Consts<D: Domain> {
    pub scalars: Vec<D::Val>,
    pub aggs: Vec<Option<Rc<[D::Byte]>>>,
}

/// One activation of a function.
#[derive(Clone, Debug)]
pub struct Frame<D: Domain> {
    pub func: FuncId,
    pub block: BlockId,
    /// Index of the next instruction of `block`; `insts.len()` means the terminator.
    pub inst: u32,
    /// The scalar value of each slot (shared copy-on-write in chunks with the states forked from this one);
    /// empty while this is the innermost activation, whose file the state holds (see [`State::regs`]).
    regs: D::Regs,
    /// The slots that hold an aggregate, and their provenance (see [`FrameAggs`]); boxed and absent
    /// while the activation holds none, as most do (every waiting state of an exploration holds its
    /// frames).
    aggs: Option<Box<FrameAggs<D::Byte>>>,
    /// Stack objects of this activation, freed when it returns (inline: a call allocates nothing).
    pub allocas: SmallVec<[ObjId; 6]>,
    /// Those of `allocas` whose address never escaped: their ids are reused after the return.
    pub private: SmallVec<[ObjId; 6]>,
    /// Where in `allocas` the last lifetime marker found its local: a block's start and end markers,
    /// and its next pass, name the same one, and a frame may hold many locals. (A `u32` beside `inst`:
    /// every waiting state of an exploration holds its frames.)
    pub marker_at: u32,
    /// The states of this activation's homes (`promote.rs`) while it waits for a callee; the innermost
    /// activation's are the state's.
    pub(crate) homes: HomeState,
    /// The area holding the variadic arguments, when the function is variadic.
    pub varargs: Option<ObjId>,
    /// Where the caller wants the return value.
    pub ret_dst: Option<Slot>,
}

/// The aggregate registers of an activation.
#[derive(Clone, Debug)]
pub struct FrameAggs<B> {
    /// The value of each slot that holds an aggregate (struct, array or vector) as its memory image.
    pub values: Vec<(Slot, Rc<[B]>)>,
    /// The provenance of the bytes of those aggregates that carry some (loaded from memory where a
    /// pointer was stored, see `provenance.rs`); an aggregate set without it has none.
    pub provenance: Vec<(Slot, ProvenanceMap)>,
}

impl<B> Default for FrameAggs<B> {
    fn default() -> Self {
        FrameAggs {
            values: Vec::new(),
            provenance: Vec::new(),
        }
    }
}

impl<D: Domain> Frame<D> {
    /// The slots that hold an aggregate, with their values.
    pub fn aggs(&self) -> &[(Slot, Rc<[D::Byte]>)] {
        self.aggs.as_deref().map_or(&[], |a| &a.values)
    }

    /// The aggregates' values, to replace in place.
    pub fn aggs_mut(&mut self) -> &mut [(Slot, Rc<[D::Byte]>)] {
        self.aggs.as_deref_mut().map_or(&mut [], |a| &mut a.values)
    }

    /// The provenance recorded for aggregates, by slot.
    pub fn agg_provenances(&self) -> &[(Slot, ProvenanceMap)] {
        self.aggs.as_deref().map_or(&[], |a| &a.provenance)
    }

    /// The aggregate held by `slot`.
    pub fn agg(&self, slot: Slot) -> Option<&Rc<[D::Byte]>> {
        self.aggs()
            .iter()
            .rev()
            .find(|(s, _)| *s == slot)
            .map(|(_, v)| v)
    }

    /// Sets the aggregate held by `slot` (with no provenance: see [`Self::set_agg_provenance`]).
    pub fn set_agg(&mut self, slot: Slot, v: Rc<[D::Byte]>) {
        let a = self.aggs.get_or_insert_with(Default::default);
        match a.values.iter_mut().find(|(s, _)| *s == slot) {
            Some(e) => e.1 = v,
            None => a.values.push((slot, v)),
        }
        if !a.provenance.is_empty() {
            a.provenance.retain(|(s, _)| *s != slot);
        }
    }

    /// The provenance of the bytes of the aggregate held by `slot`, if any was recorded.
    pub fn agg_provenance(&self, slot: Slot) -> Option<&ProvenanceMap> {
        self.agg_provenances()
            .iter()
            .find(|(s, _)| *s == slot)
            .map(|(_, m)| m)
    }

    /// Records the provenance of the bytes of the aggregate `slot` holds (after [`Self::set_agg`]).
    pub fn set_agg_provenance(&mut self, slot: Slot, m: ProvenanceMap) {
        if self.aggs.is_none() && m.is_empty() {
            return;
        }
        let a = self.aggs.get_or_insert_with(Default::default);
        a.provenance.retain(|(s, _)| *s != slot);
        if !m.is_empty() {
            a.provenance.push((slot, m));
        }
    }
}

/// What a path printed: its standard output and error, and the lines of KLEE's intrinsics. A state holds
/// it in a box, absent until the program prints: most programs explored print nothing, and every
/// waiting state of an exploration would otherwise carry three empty vectors (72 bytes; the box is 8).
#[derive(Clone, Debug, Default)]
pub struct Printed {
    /// What the program wrote to standard output.
    pub stdout: Vec<u8>,
    /// What the program wrote to standard error.
    pub stderr: Vec<u8>,
    /// Lines KLEE's intrinsics print on the path (`klee_warning`, `klee_print_expr`, ...), each
    /// with whether it is printed once per run (`klee_warning_once`).
    pub messages: Vec<(String, bool)>,
}

/// The environment's `NAME=VALUE` strings in memory, each with its name (shared by forked states).
pub(crate) type Environment = Rc<[(Vec<u8>, ObjId)]>;

/// An execution state.
#[derive(Clone, Debug)]
pub struct State<D: Domain> {
    pub dom: D,
    pub mem: Memory<D::Byte>,
    /// The activations, innermost last; the innermost one's register file is `regs`, not its own.
    frames: Vec<Frame<D>>,
    /// The register file of the innermost activation, held beside the frames rather than in its frame:
    /// nearly every instruction reads and writes it, and from here a slot is one indexed access where
    /// through the frame vector it took the vector's length, its last frame and then the file. Empty
    /// with no activation.
    regs: D::Regs,
    /// Where the innermost activation's function's slots begin in the program's table of slot kinds
    /// ([`Program::slot_kind_from`]), kept beside `regs` for the same reason: a copy asks its slot's
    /// kind, and through the frame vector, the frame's function and the program's per-function table
    /// that cost three dependent loads and two bounds checks before the one that answers.
    slot_kinds_at: u32,
    /// Where each function's slots begin in that table ([`Program::slot_kinds_start`]), to follow calls
    /// and returns.
    slot_kinds_start: Rc<[u32]>,
    /// The states of the innermost activation's homes (`promote.rs`), beside `regs` for the same reason.
    pub(crate) homes: HomeState,
    /// What the path printed (see [`Printed`]); boxed, and absent while it printed nothing.
    printed: Option<Box<Printed>>,
    /// The `FILE` objects `stdout` and `stderr` point to (when the program mentions them).
    pub(crate) std_streams: [Option<crate::memory::ObjId>; 2],
    /// `rand`'s generator.
    pub(crate) random: crate::hooks::GlibcRandom,
    /// The environment's `NAME=VALUE` strings in memory (made on first use), with each name.
    pub(crate) environment: Option<Environment>,
    // Standard input, the fuzzed file and arguments, the exit handlers and the fixed objects are each
    // behind an `Rc`: few programs touch them, and every waiting state of an exploration carries them
    // (forked states share them until a hook changes one, with `Rc::make_mut`).
    /// Standard input and how much of it the program read.
    pub stdin: Rc<Stdin<D>>,
    /// The fuzzed file (`--file NAME`) and what is open on it.
    pub symfile: Rc<crate::symfile::SymFile<D>>,
    /// The fuzzed `argv` strings (`--arg N`), NUL-terminated.
    pub sym_args: Rc<Vec<Rc<[D::Byte]>>>,
    /// Instructions executed so far (terminators included).
    pub steps: u64,
    pub checks: Checks,
    pub(crate) consts: Rc<Consts<D>>,
    /// Register files of returned frames, reused to avoid an allocation per call.
    pub(crate) reg_pool: RegPool<D::Regs>,
    /// The next of the program's guided nondet values (`guide.rs`) this path has not used yet.
    pub(crate) guide_next: usize,
    /// The functions to call at exit (`atexit.rs`).
    pub(crate) exit_handlers: Rc<crate::atexit::ExitHandlers<D::Val>>,
    /// Objects at addresses the program chose (`klee_define_fixed_object`): address, size, object.
    pub(crate) fixed_objects: Rc<Vec<(u64, u64, ObjId)>>,
    /// Whether the guide's branch steps are passed over on this path (`guide::follow_branch`).
    pub(crate) guide_branches_off: bool,
}

impl<D: Domain> State<D> {
    /// The initial state of `prog`: functions and globals in memory, no frame yet.
    pub fn new(prog: &Program, mut dom: D, checks: Checks) -> State<D> {
        let m = prog.module();
        let mut mem = Memory::with_layout(prog.addr);
        for (i, _) in m.functions.iter().enumerate() {
            mem.allocate_function(i as u32);
        }
        for (i, g) in m.globals.iter().enumerate() {
            // The image's zero tail is not stored (the front end's images stop at their last non-zero
            // byte): a large zero-initialised array costs nothing until written.
            let prefix = match &g.init {
                Some(data) => const_bytes(prog, &mut dom, data),
                // Defined outside the program (e.g. `extern int errno`): zero, as a loader would.
                None => Vec::new(),
            };
            let kind = if g.name.starts_with(".str") {
                ObjKind::StringLiteral
            } else {
                ObjKind::Global
            };
            let zero = dom.const_byte(0);
            let name = g.name.as_str().into();
            let id = mem.allocate_image(kind, name, g.size, prefix, zero, g.is_constant);
            debug_assert_eq!(id, prog.global_object(i as u32));
            // The image's addresses were stored as pointers (`provenance.rs`): read as integers through
            // a union or a copy, they are observed addresses.
            if let (Some(data), Some(o)) = (&g.init, mem.object_mut(id)) {
                for r in &data.relocs {
                    let w = (r.width as u64).min(8);
                    o.provenance.set(
                        r.offset,
                        w.min(o.size().saturating_sub(r.offset)),
                        Some(Provenance::Pointer),
                    );
                }
            }
        }
        let mut stdin = Stdin::new(0);
        stdin.file = crate::stdin::attach_file(prog, &mut dom, &mut mem);
        let std_streams = ["stdout", "stderr"]
            .map(|name| crate::stdin::attach_stream(prog, &mut dom, &mut mem, name));
        let mut consts = Consts {
            scalars: Vec::new(),
            aggs: Vec::new(),
        };
        for c in &m.consts {
            match const_val(prog, &mut dom, c) {
                ConstVal::Scalar(v) => {
                    consts.scalars.push(v);
                    consts.aggs.push(None);
                }
                ConstVal::Aggregate(a) => {
                    consts.scalars.push(dom.constant(1, 0));
                    consts.aggs.push(Some(a));
                }
            }
        }
        let consts = Rc::new(consts);
        State {
            dom,
            mem,
            frames: Vec::new(),
            regs: Default::default(),
            slot_kinds_at: 0,
            slot_kinds_start: prog.slot_kinds_start(),
            homes: HomeState::default(),
            printed: None,
            std_streams,
            random: Default::default(),
            environment: None,
            stdin: Rc::new(stdin),
            symfile: Default::default(),
            sym_args: Default::default(),
            steps: 0,
            checks,
            consts,
            reg_pool: RegPool::default(),
            guide_next: 0,
            exit_handlers: Default::default(),
            fixed_objects: Default::default(),
            guide_branches_off: false,
        }
    }

    /// Gives the program a standard input of `size` bytes (`--stdin N`; empty by default). Call it before
    /// the program runs.
    pub fn set_stdin_size(&mut self, size: usize) {
        let mut stdin = Stdin::new(size);
        stdin.file = self.stdin.file;
        self.stdin = Rc::new(stdin);
    }

    /// Pushes the activation of `func` (which must have a body) with the given scalar arguments.
    pub(crate) fn push_frame(
        &mut self,
        prog: &Program,
        func: FuncId,
        args: &[D::Val],
        ret_dst: Option<Slot>,
    ) {
        let mut regs = self.fresh_registers(prog, func);
        for (i, a) in args.iter().enumerate().take(regs.len()) {
            regs[i] = a.clone();
        }
        self.push_registers(func, regs, ret_dst);
    }

    /// A register file for an activation of `func` (which must have a body): every slot zero, the
    /// storage of a returned activation's file when there is one.
    pub(crate) fn fresh_registers(&mut self, prog: &Program, func: FuncId) -> D::Regs {
        let body = prog
            .module()
            .func(func)
            .body
            .as_ref()
            .expect("push_frame on a declaration");
        let zero = self.dom.constant(1, 0);
        self.reg_pool.take(body.num_slots as usize, &zero)
    }

    /// Pushes the activation of `func` whose slots hold `regs` (its arguments in the first ones).
    pub(crate) fn push_registers(&mut self, func: FuncId, regs: D::Regs, ret_dst: Option<Slot>) {
        if self.frames.len() == self.frames.capacity() {
            // Doubling from the length: a forked state's frames are cloned at their exact length, and
            // `push`'s growth would give a one-frame state room for four (every waiting state keeps it).
            self.frames.reserve_exact(self.frames.len().max(1));
        }
        // The caller's file goes back into its frame; the callee's is the state's.
        let caller = std::mem::replace(&mut self.regs, regs);
        let caller_homes = std::mem::take(&mut self.homes);
        if let Some(f) = self.frames.last_mut() {
            f.regs = caller;
            f.homes = caller_homes;
        }
        self.slot_kinds_at = self.slot_kinds_start[func.0 as usize];
        self.frames.push(Frame {
            func,
            block: BlockId(0),
            inst: 0,
            regs: Default::default(),
            aggs: None,
            allocas: SmallVec::new(),
            private: SmallVec::new(),
            marker_at: 0,
            homes: HomeState::default(),
            varargs: None,
            ret_dst,
        });
    }

    /// Pops the current activation, ending the lifetime of its stack objects; returns where its caller
    /// wants the return value (`None` when there was no activation). The frame is dropped where it
    /// lies: only its register file is kept, for the next call.
    pub(crate) fn pop_frame(&mut self) -> Option<Option<Slot>> {
        let f = self.frames.last_mut()?;
        for &id in &f.allocas {
            self.mem.kill(id);
        }
        for &id in &f.private {
            self.mem.reuse_later(id);
        }
        if let Some(id) = f.varargs {
            self.mem.kill(id);
        }
        let ret_dst = f.ret_dst;
        self.frames.truncate(self.frames.len() - 1);
        // The caller's file becomes the state's again.
        let caller = self.resume_caller();
        self.reg_pool
            .give(std::mem::replace(&mut self.regs, caller));
        Some(ret_dst)
    }

    /// Pops the innermost activation as it is, its locals left alive (an abstraction that undoes a call
    /// rather than returning from it); the frame comes back with its register file.
    pub fn take_frame(&mut self) -> Option<Frame<D>> {
        let mut f = self.frames.pop()?;
        let homes = self.homes;
        let caller = self.resume_caller();
        f.regs = std::mem::replace(&mut self.regs, caller);
        f.homes = homes;
        Some(f)
    }

    /// Makes the activation now innermost (after a pop) the current one: where its function's slot
    /// kinds begin, and its register file, taken from its frame for the state to hold (empty when no
    /// activation is left).
    #[inline(always)]
    fn resume_caller(&mut self) -> D::Regs {
        match self.frames.last_mut() {
            Some(f) => {
                self.slot_kinds_at = self.slot_kinds_start[f.func.0 as usize];
                self.homes = f.homes;
                std::mem::take(&mut f.regs)
            }
            None => {
                self.homes = HomeState::default();
                Default::default()
            }
        }
    }

    /// The activations, outermost first. Their register files are read through [`Self::regs`] (the
    /// innermost one's is held by the state).
    #[inline(always)]
    pub fn frames(&self) -> &[Frame<D>] {
        &self.frames
    }

    /// The activations, to change in place (positions, aggregates); the stack itself grows and shrinks
    /// only by calls and returns.
    #[inline(always)]
    pub fn frames_mut(&mut self) -> &mut [Frame<D>] {
        &mut self.frames
    }

    /// The innermost activation.
    #[inline(always)]
    pub fn frame(&self) -> Option<&Frame<D>> {
        self.frames.last()
    }

    /// The innermost activation, to change in place.
    #[inline(always)]
    pub fn frame_mut(&mut self) -> Option<&mut Frame<D>> {
        self.frames.last_mut()
    }

    /// The register file of activation `depth` (0: the outermost).
    pub fn regs(&self, depth: usize) -> Option<&D::Regs> {
        if depth + 1 == self.frames.len() {
            Some(&self.regs)
        } else {
            self.frames.get(depth).map(|f| &f.regs)
        }
    }

    /// The register file of activation `depth` (0: the outermost), to write.
    pub fn regs_mut(&mut self, depth: usize) -> Option<&mut D::Regs> {
        if depth + 1 == self.frames.len() {
            Some(&mut self.regs)
        } else {
            self.frames.get_mut(depth).map(|f| &mut f.regs)
        }
    }

    /// Where the innermost activation's function's slots begin in the program's table of slot kinds.
    #[inline(always)]
    pub(crate) fn slot_kinds_at(&self) -> u32 {
        self.slot_kinds_at
    }

    /// The register file of the innermost activation (empty with none).
    #[inline(always)]
    pub fn current_regs(&self) -> &D::Regs {
        &self.regs
    }

    /// The register file of the innermost activation, to write.
    #[inline(always)]
    pub(crate) fn current_regs_mut(&mut self) -> &mut D::Regs {
        &mut self.regs
    }

    /// Each activation, outermost first, with its register file.
    pub fn frames_with_regs(
        &self,
    ) -> impl DoubleEndedIterator<Item = (&Frame<D>, &D::Regs)> + ExactSizeIterator {
        let n = self.frames.len();
        self.frames.iter().enumerate().map(move |(k, f)| {
            let regs = if k + 1 == n { &self.regs } else { &f.regs };
            (f, regs)
        })
    }

    /// Records a line an intrinsic prints (`once`: printed once per run).
    pub fn message(&mut self, line: String, once: bool) {
        self.printed().messages.push((line, once));
    }

    /// What the path printed, to add to (boxed on first use).
    pub fn printed(&mut self) -> &mut Printed {
        self.printed.get_or_insert_with(Default::default)
    }

    /// What the program wrote to standard output.
    pub fn stdout(&self) -> &[u8] {
        self.printed.as_deref().map_or(&[], |p| &p.stdout)
    }

    /// What the program wrote to standard error.
    pub fn stderr(&self) -> &[u8] {
        self.printed.as_deref().map_or(&[], |p| &p.stderr)
    }

    /// The lines intrinsics printed and [`Self::take_messages`] did not take yet.
    pub fn messages(&self) -> &[(String, bool)] {
        self.printed.as_deref().map_or(&[], |p| &p.messages)
    }

    /// Takes what the program wrote to standard output.
    pub fn take_stdout(&mut self) -> Vec<u8> {
        self.printed
            .as_deref_mut()
            .map_or_else(Vec::new, |p| std::mem::take(&mut p.stdout))
    }

    /// Takes the lines intrinsics printed; the box goes when nothing else was printed.
    pub fn take_messages(&mut self) -> Vec<(String, bool)> {
        let Some(p) = self.printed.as_deref_mut() else {
            return Vec::new();
        };
        let lines = std::mem::take(&mut p.messages);
        if p.stdout.is_empty() && p.stderr.is_empty() {
            self.printed = None;
        }
        lines
    }

    /// The source position of the instruction about to execute (or that just failed).
    pub fn location(&self, prog: &Program) -> SourceLoc {
        let Some(f) = self.frames.last() else {
            return SourceLoc::default();
        };
        let func = prog.module().func(f.func);
        let mut loc = func.loc;
        if let Some(body) = &func.body {
            let b = &body.blocks[f.block.0 as usize];
            let l = if (f.inst as usize) < b.insts.len() {
                b.locs[f.inst as usize]
            } else {
                b.term_loc
            };
            if l.is_known() {
                loc = l;
            }
        }
        SourceLoc {
            file: prog.module().file_name(loc).to_string(),
            line: loc.line,
            function: func.name.clone(),
        }
    }

    /// Starts `entry`: `main` gets `argc = 1`, `argv = {"<program>", NULL}` and `envp = {NULL}`; other entry functions get
    /// zero arguments. Returns an error when the entry is missing or has no body.
    pub fn start(&mut self, prog: &Program, entry: &str) -> Result<(), End> {
        let unsupported = |what: String| {
            End::Halt(Halt::Unsupported {
                what,
                loc: SourceLoc::default(),
            })
        };
        if entry.is_empty() {
            return Err(unsupported("the entry point cannot be empty".into()));
        }
        let f = prog
            .module()
            .function_by_name(entry)
            .ok_or_else(|| unsupported(format!("no function `{entry}` to start from")))?;
        let func = prog.module().func(f);
        if func.body.is_none() {
            return Err(unsupported(format!("entry function `{entry}` has no body")));
        }
        let mut args = Vec::new();
        for (i, &ty) in func.params.iter().enumerate() {
            let w = prog.width(ty).ok_or_else(|| {
                unsupported(format!("entry function `{entry}` takes an aggregate"))
            })?;
            let v = if entry == "main" && i == 1 && w == 64 {
                let argv = match self.make_sym_argv(prog) {
                    Some(argv) => argv,
                    None => self.make_argv(prog),
                };
                prog.addr.address(argv, 0) as u128
            } else if entry == "main" && i == 2 && w == 64 {
                let envp = self.make_envp(prog);
                prog.addr.address(envp, 0) as u128
            } else if entry == "main" && i == 0 && self.checks.symbolic_argc {
                args.push(self.argc_input(w)?);
                continue;
            } else if entry == "main" && i == 0 {
                1 + self.sym_args.len() as u128
            } else {
                0
            };
            args.push(self.dom.constant(w, v));
        }
        self.check_addressable(prog).map_err(unsupported)?;
        self.push_frame(prog, f, &args, None);
        Ok(())
    }

    /// `argc` read from the input [`ARGC_INPUT`]: a `w`-bit value assumed to be at least 0 (an input that
    /// is negative halts the run as violating the assumption).
    fn argc_input(&mut self, w: u32) -> Result<D::Val, End> {
        let bytes = self
            .dom
            .input(crate::domain::InputRequest::Named(ARGC_INPUT), 4);
        let argc = self.dom.bytes_to_val(&bytes, 32);
        let zero = self.dom.constant(32, 0);
        let nonnegative = self.dom.cmp(crate::domain::CmpOp::Sge, 32, &argc, &zero);
        if !self.dom.assume(&nonnegative) {
            return Err(End::Halt(Halt::AssumptionViolated(SourceLoc::default())));
        }
        Ok(match w {
            32 => argc,
            w if w > 32 => self.dom.cast(crate::domain::CastOp::ZExt, 32, w, &argc),
            w => self.dom.cast(crate::domain::CastOp::Trunc, 32, w, &argc),
        })
    }

    /// `envp` of `main(argc, argv, envp)`: the environment's strings, then NULL; without
    /// [`Checks::host_environment`] the empty environment (as `env -i` runs it).
    fn make_envp(&mut self, prog: &Program) -> ObjId {
        let pb = prog.module().target.pointer_bytes as usize;
        let strings = self.environment();
        let mut list = Vec::with_capacity((strings.len() + 1) * pb);
        for &(_, obj) in strings.iter() {
            let p = prog.addr.address(obj, 0).to_le_bytes();
            list.extend(p[..pb].iter().map(|&b| self.dom.const_byte(b)));
        }
        list.extend((0..pb).map(|_| self.dom.const_byte(0)));
        self.mem
            .allocate_with(ObjKind::Runtime, "envp".into(), list, false)
    }

    /// The environment's strings in memory (allocated the first time), each with its name.
    pub(crate) fn environment(&mut self) -> Environment {
        if let Some(e) = &self.environment {
            return e.clone();
        }
        let vars: Vec<(String, String)> = if self.checks.host_environment {
            std::env::vars().collect()
        } else {
            Vec::new()
        };
        let mut out = Vec::with_capacity(vars.len());
        for (name, value) in vars {
            let bytes: Vec<D::Byte> = format!("{name}={value}")
                .bytes()
                .chain([0])
                .map(|b| self.dom.const_byte(b))
                .collect();
            let label = format!("environment variable {name}");
            let obj = self
                .mem
                .allocate_with(ObjKind::Runtime, label.into(), bytes, false);
            out.push((name.into_bytes(), obj));
        }
        let e: Environment = out.into();
        self.environment = Some(e.clone());
        e
    }

    /// On a 32-bit target, whether the program's functions and globals have addresses at all: each object
    /// below [`crate::memory::AddressLayout::max_object_size`], fewer than `max_objects` in all.
    fn check_addressable(&self, prog: &Program) -> Result<(), String> {
        let l = prog.addr;
        if let Some(g) = prog
            .module()
            .globals
            .iter()
            .find(|g| g.size >= l.max_object_size())
        {
            return Err(format!(
                "global `{}` of {} bytes on a {}-bit target (objects must be smaller than {} bytes there)",
                g.name,
                g.size,
                l.pointer_bits,
                l.max_object_size()
            ));
        }
        if self.mem.object_count() as u64 > l.max_objects() {
            return Err(format!(
                "{} functions and globals on a {}-bit target (at most {} objects)",
                self.mem.object_count(),
                l.pointer_bits,
                l.max_objects() - 1
            ));
        }
        Ok(())
    }

    /// `argv = {"<program>", NULL}`, pointers as wide as the target's.
    fn make_argv(&mut self, prog: &Program) -> ObjId {
        let program = &prog.module().source_path;
        let name: Vec<D::Byte> = program
            .bytes()
            .chain([0])
            .map(|b| self.dom.const_byte(b))
            .collect();
        let s = self
            .mem
            .allocate_with(ObjKind::Runtime, "argv[0]".into(), name, false);
        let mut argv = Vec::with_capacity(16);
        let pb = prog.module().target.pointer_bytes as usize;
        let first = prog.addr.address(s, 0).to_le_bytes();
        for b in first[..pb]
            .iter()
            .copied()
            .chain(std::iter::repeat_n(0, pb))
        {
            argv.push(self.dom.const_byte(b));
        }
        self.mem
            .allocate_with(ObjKind::Runtime, "argv".into(), argv, false)
    }
}

/// The memory image of constant data with its pointers filled in.
fn const_bytes<D: Domain>(prog: &Program, dom: &mut D, data: &ConstData) -> Vec<D::Byte> {
    let mut raw = data.bytes.clone();
    relocate(prog, &mut raw, data);
    raw.into_iter().map(|b| dom.const_byte(b)).collect()
}

/// Writes the pointers of `data` into its image `raw`.
fn relocate(prog: &Program, raw: &mut [u8], data: &ConstData) {
    for r in &data.relocs {
        let target = prog.addr.derived(prog.base_object(r.target), r.addend);
        let le = target.to_le_bytes();
        let (off, w) = (r.offset as usize, (r.width as usize).min(8));
        if off + w <= raw.len() {
            raw[off..off + w].copy_from_slice(&le[..w]);
        }
    }
}

fn const_val<D: Domain>(prog: &Program, dom: &mut D, c: &Const) -> ConstVal<D> {
    let addr =
        |base: AddrBase, offset: i64| prog.addr.derived(prog.base_object(base), offset) as u128;
    match c {
        Const::Int { width, value } => ConstVal::Scalar(dom.constant(*width, *value)),
        Const::Null => ConstVal::Scalar(dom.constant(64, 0)),
        Const::Addr { base, offset } => ConstVal::Scalar(dom.constant(64, addr(*base, *offset))),
        // `ptrtoint` of a constant address (`(uintptr_t)&g` at -O0): an observed address, as the
        // instruction's is (see `Domain::observe_address`), marked with its base object's mark.
        Const::AddrAsInt {
            base,
            offset,
            width,
        } => {
            let a = dom.constant(64, addr(*base, *offset));
            let id = prog.base_object(*base);
            let a = if id == 0 {
                a
            } else {
                dom.observe_address(&a, Some(id))
            };
            ConstVal::Scalar(match width.cmp(&64) {
                std::cmp::Ordering::Equal => a,
                std::cmp::Ordering::Less => dom.cast(CastOp::Trunc, 64, *width, &a),
                std::cmp::Ordering::Greater => dom.cast(CastOp::ZExt, 64, *width, &a),
            })
        }
        // Undefined values are zero here; the symbolic executor may keep them unconstrained.
        Const::Undef(ty) => match prog.width(*ty) {
            Some(w) => ConstVal::Scalar(dom.constant(w, 0)),
            None => ConstVal::Aggregate(
                (0..prog.store_size(*ty))
                    .map(|_| dom.const_byte(0))
                    .collect(),
            ),
        },
        Const::Aggregate { data, .. } => ConstVal::Aggregate(const_bytes(prog, dom, data).into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regs::OwnedRegs;

    /// A program whose functions' slots hold integers, pointers and aggregates in different orders
    /// (lowered by the front end), with the ids of the functions that have a body.
    fn program_of_calls() -> (Program, Vec<FuncId>) {
        let src = "struct pair { int a; long b; };\n\
                   struct pair make(int x) { struct pair p = { x, 2 }; return p; }\n\
                   int *pick(int *q, int n) { return q + n; }\n\
                   long sum(struct pair p, int *q) { return p.b + *q; }\n\
                   int main(void) {\n\
                   int v[3] = {1, 2, 3};\n\
                   struct pair p = make(v[0]);\n\
                   return *pick(v, 1) + p.a + (int)sum(p, v);\n\
                   }\n";
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.c");
        std::fs::write(&path, src).unwrap();
        let prog = Program::new(symex_ir::load(&path, &Default::default()).unwrap());
        let bodies = (0..prog.module().functions.len() as u32)
            .map(FuncId)
            .filter(|&f| prog.module().func(f).body.is_some())
            .collect();
        (prog, bodies)
    }

    /// What slot `s` of `f` holds, read from its IR type (the oracle of the state's slot kinds).
    fn kind_from_type(prog: &Program, f: FuncId, s: usize) -> crate::program::SlotKind {
        use crate::program::SlotKind;
        let ty = prog.module().func(f).body.as_ref().unwrap().slot_types[s];
        match prog.module().ty(ty).kind {
            symex_ir::TypeKind::Ptr => SlotKind::Pointer,
            symex_ir::TypeKind::Int(_) => SlotKind::Integer,
            _ => SlotKind::Aggregate,
        }
    }

    /// Through calls, returns and undone calls, the state answers the kind of each slot of the innermost
    /// activation's function as that function's IR types say.
    #[test]
    fn slot_kinds_follow_the_innermost_activation() {
        let (prog, bodies) = program_of_calls();
        let kinds: Vec<Vec<_>> = bodies
            .iter()
            .map(|&f| {
                let n = prog.module().func(f).body.as_ref().unwrap().num_slots as usize;
                (0..n).map(|s| kind_from_type(&prog, f, s)).collect()
            })
            .collect();
        assert!(
            kinds
                .iter()
                .flatten()
                .any(|k| *k == crate::program::SlotKind::Aggregate)
                && kinds.windows(2).any(|w| w[0] != w[1]),
            "the functions' slots differ, aggregates among them"
        );
        let mut st = State::new(
            &prog,
            crate::concrete::Concrete::new(vec![]),
            Checks::default(),
        );
        let mut model: Vec<usize> = Vec::new();
        let mut rnd = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
        for step in 0..500 {
            match rnd(4) {
                0 | 1 => {
                    let k = rnd(bodies.len() as u64) as usize;
                    st.push_frame(&prog, bodies[k], &[], None);
                    model.push(k);
                }
                2 => assert_eq!(st.pop_frame().is_some(), model.pop().is_some()),
                _ => assert_eq!(
                    st.take_frame().map(|f| f.func),
                    model.pop().map(|k| bodies[k])
                ),
            }
            if let Some(&k) = model.last() {
                for (s, want) in kinds[k].iter().enumerate() {
                    assert_eq!(
                        st.slot_kind(&prog, Slot(s as u32)),
                        *want,
                        "step {step}, slot {s}"
                    );
                }
            }
        }
    }

    /// Calls, returns, undone calls and writes at every depth keep each activation's registers with
    /// it, whichever of them the state holds itself: checked against a plain stack of vectors.
    #[test]
    fn register_files_stay_with_their_activations() {
        let (prog, bodies) = program_of_calls();
        let mut st = State::new(
            &prog,
            crate::concrete::Concrete::new(vec![]),
            Checks::default(),
        );
        let mut model: Vec<Vec<u128>> = Vec::new();
        let mut rnd = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d);
        for step in 0..2000u128 {
            match rnd(6) {
                0 | 1 => {
                    let n = rnd(5) as usize;
                    let mut regs = OwnedRegs::default();
                    regs.reset(n, &0);
                    for i in 0..n {
                        regs[i] = step * 10 + i as u128;
                    }
                    st.push_registers(bodies[0], regs, None);
                    model.push((0..n).map(|i| step * 10 + i as u128).collect());
                }
                2 => {
                    assert_eq!(st.pop_frame().is_some(), model.pop().is_some());
                }
                3 => {
                    let f = st.take_frame();
                    let m = model.pop();
                    assert_eq!(f.map(|f| f.regs.iter().copied().collect()), m);
                }
                _ if !model.is_empty() => {
                    let depth = rnd(model.len() as u64) as usize;
                    if !model[depth].is_empty() {
                        let i = rnd(model[depth].len() as u64) as usize;
                        st.regs_mut(depth).expect("a frame")[i] = step;
                        model[depth][i] = step;
                    }
                }
                _ => {}
            }
            assert_eq!(st.frames().len(), model.len());
            for (depth, m) in model.iter().enumerate() {
                let regs: Vec<u128> = st.regs(depth).expect("a frame").iter().copied().collect();
                assert_eq!(&regs, m, "step {step}, depth {depth}");
            }
            let all: Vec<Vec<u128>> = st
                .frames_with_regs()
                .map(|(_, r)| r.iter().copied().collect())
                .collect();
            assert_eq!(all, model);
            let current: Vec<u128> = st.current_regs().iter().copied().collect();
            assert_eq!(current, model.last().cloned().unwrap_or_default());
        }
    }
}
