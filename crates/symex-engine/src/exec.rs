//! The instruction semantics: one step of a state, generic over the value domain. This is symex's
//! reference semantics; the concrete interpreter and the symbolic executor both run exactly this code.

use crate::bug::{BugKind, End, Halt};
use crate::domain::{self, CastOp, CmpOp, Decision, Domain, OverflowOp, UnOp};
use crate::memory::ObjId;
use crate::program::{Program, SlotKind};
use crate::provenance::{self, PointerBytes, Provenance, ProvenanceMap};
use crate::regs::RegisterFile;
use crate::state::{State, OVERSHIFT_MESSAGE};
use smallvec::SmallVec;
use std::rc::Rc;
use symex_ir as ir;
use symex_ir::{Edge, Inst, Intrinsic, Operand, Slot, Terminator};

/// `access` for a scalar of type `ty` and `size` bytes with `$n` and `$w` bound to its size and width, or
/// `aggregate` for a type without a width. The common scalar types, by their fixed ids, bind constants,
/// and the access is written out once per type: a load's or store's bounds, masks and byte order fold
/// (no lookup of the width, no jump on the length). Any other type binds its width from the program's
/// table. (A macro, not a function taking a closure: as a closure the access was no longer inlined per
/// type, and the interpreter ran 15–60 % more machine instructions.)
macro_rules! by_scalar_shape {
    ($prog:expr, $ty:expr, $size:expr, |$n:ident, $w:ident| $access:expr, else $aggregate:expr) => {
        match ($ty, $size) {
            (ir::TypeId::I8, _) => {
                let ($n, $w) = (1, 8);
                $access
            }
            (ir::TypeId::I16, _) => {
                let ($n, $w) = (2, 16);
                $access
            }
            (ir::TypeId::I32, _) => {
                let ($n, $w) = (4, 32);
                $access
            }
            (ir::TypeId::I64, _) => {
                let ($n, $w) = (8, 64);
                $access
            }
            (ir::TypeId::PTR, 8) => {
                let ($n, $w) = (8, 64);
                $access
            }
            (ty, n) => match $prog.width(ty) {
                Some(w) => {
                    let ($n, $w) = (n, w);
                    $access
                }
                None => $aggregate,
            },
        }
    };
}

/// A value carried by a phi move: a scalar, or an aggregate's memory image.
type MovedValue<D> = Result<<D as Domain>::Val, (Rc<[<D as Domain>::Byte]>, ProvenanceMap)>;

/// How an instruction ended: the next one's flow, or the end of the run. The end is boxed so that this
/// fits two registers: as `Result<Flow, End>` the run loop wrote its `Ok` into a stack slot after every
/// instruction (three stores of a large value merged from every arm).
pub(crate) type Stepped = Result<Flow, Box<End>>;

/// What an instruction did to control flow.
pub(crate) enum Flow {
    /// Continue with the next instruction of the block.
    Next,
    /// The instruction moved the program counter itself (call into a body).
    Moved,
}

pub(crate) fn map_binop(op: ir::BinOp) -> domain::BinOp {
    use domain::BinOp as B;
    match op {
        ir::BinOp::Add => B::Add,
        ir::BinOp::Sub => B::Sub,
        ir::BinOp::Mul => B::Mul,
        ir::BinOp::UDiv => B::UDiv,
        ir::BinOp::SDiv => B::SDiv,
        ir::BinOp::URem => B::URem,
        ir::BinOp::SRem => B::SRem,
        ir::BinOp::Shl => B::Shl,
        ir::BinOp::LShr => B::LShr,
        ir::BinOp::AShr => B::AShr,
        ir::BinOp::And => B::And,
        ir::BinOp::Or => B::Or,
        ir::BinOp::Xor => B::Xor,
    }
}

pub(crate) fn map_pred(p: ir::IntPred) -> CmpOp {
    match p {
        ir::IntPred::Eq => CmpOp::Eq,
        ir::IntPred::Ne => CmpOp::Ne,
        ir::IntPred::Ugt => CmpOp::Ugt,
        ir::IntPred::Uge => CmpOp::Uge,
        ir::IntPred::Ult => CmpOp::Ult,
        ir::IntPred::Ule => CmpOp::Ule,
        ir::IntPred::Sgt => CmpOp::Sgt,
        ir::IntPred::Sge => CmpOp::Sge,
        ir::IntPred::Slt => CmpOp::Slt,
        ir::IntPred::Sle => CmpOp::Sle,
    }
}

fn map_overflow(op: ir::OverflowOp) -> OverflowOp {
    match op {
        ir::OverflowOp::SAdd => OverflowOp::SAdd,
        ir::OverflowOp::UAdd => OverflowOp::UAdd,
        ir::OverflowOp::SSub => OverflowOp::SSub,
        ir::OverflowOp::USub => OverflowOp::USub,
        ir::OverflowOp::SMul => OverflowOp::SMul,
        ir::OverflowOp::UMul => OverflowOp::UMul,
    }
}

/// The unsupported-construct end at the current instruction.
pub(crate) fn unsupported<D: Domain>(
    st: &State<D>,
    prog: &Program,
    what: impl Into<String>,
) -> End {
    End::Halt(Halt::Unsupported {
        what: what.into(),
        loc: st.location(prog),
    })
}

impl<D: Domain> State<D> {
    /// The scalar value of an operand in the current frame.
    #[inline(always)]
    pub(crate) fn val(&self, op: Operand) -> D::Val {
        match op {
            Operand::Slot(s) => self.current_regs()[s.0 as usize].clone(),
            Operand::Const(c) => self.consts.scalars[c.0 as usize].clone(),
        }
    }

    /// The aggregate value (memory image) of an operand of type `ty` in the current frame.
    pub(crate) fn agg_val(&mut self, prog: &Program, op: Operand, ty: ir::TypeId) -> Rc<[D::Byte]> {
        let found = match op {
            Operand::Slot(s) => self.frame().and_then(|f| f.agg(s)).cloned(),
            Operand::Const(c) => self.consts.aggs[c.0 as usize].clone(),
        };
        found.unwrap_or_else(|| {
            (0..prog.store_size(ty))
                .map(|_| self.dom.const_byte(0))
                .collect()
        })
    }

    /// The provenance of the bytes of an aggregate operand, as far as recorded (none for constants).
    pub(crate) fn agg_provenance(&self, op: Operand) -> ProvenanceMap {
        match op {
            Operand::Slot(s) => self
                .frame()
                .and_then(|f| f.agg_provenance(s))
                .cloned()
                .unwrap_or_default(),
            Operand::Const(_) => ProvenanceMap::default(),
        }
    }

    /// Sets the aggregate `dst` holds, with the provenance of its bytes.
    pub(crate) fn set_agg_carrying(&mut self, dst: Slot, v: Rc<[D::Byte]>, p: ProvenanceMap) {
        let f = self.frame_mut().expect("a frame");
        f.set_agg(dst, v);
        f.set_agg_provenance(dst, p);
    }

    #[inline(always)]
    pub(crate) fn set(&mut self, dst: Slot, v: D::Val) {
        self.current_regs_mut()[dst.0 as usize] = v;
    }

    /// [`Self::val`] without the bounds checks: the reads of the instructions the run loops execute
    /// inline, two per instruction, where the checks were about one machine instruction in twenty.
    ///
    /// # Safety
    /// `op` is named by the current activation's body, and the activation was admitted by
    /// [`Self::position`] (which found its register file and the constant pool large enough for
    /// everything its body names, see `program::operands_in_range`) and has not changed since: only
    /// a call or a return changes it, and either ends the run loops' walk of the block.
    #[inline(always)]
    unsafe fn val_fast(&self, op: Operand) -> D::Val {
        match op {
            // SAFETY: the contract above.
            Operand::Slot(s) => unsafe { self.current_regs().slot_unchecked(s.0 as usize) }.clone(),
            Operand::Const(c) => {
                debug_assert!((c.0 as usize) < self.consts.scalars.len());
                // SAFETY: the contract above.
                unsafe { self.consts.scalars.get_unchecked(c.0 as usize) }.clone()
            }
        }
    }

    /// [`Self::set`] without the bounds check.
    ///
    /// # Safety
    /// As for [`Self::val_fast`]: `dst` is named by the admitted current activation's body.
    #[inline(always)]
    unsafe fn set_fast(&mut self, dst: Slot, v: D::Val) {
        // SAFETY: the contract above.
        *unsafe { self.current_regs_mut().slot_unchecked_mut(dst.0 as usize) } = v;
    }

    /// The type of slot `s` of the current function.
    pub(crate) fn slot_type(&self, prog: &Program, s: Slot) -> ir::TypeId {
        let f = self.frame().expect("a frame");
        prog.module()
            .func(f.func)
            .body
            .as_ref()
            .expect("body")
            .slot_types[s.0 as usize]
    }

    /// What slot `s` of the current function holds.
    #[inline(always)]
    pub(crate) fn slot_kind(&self, prog: &Program, s: Slot) -> SlotKind {
        prog.slot_kind_from(self.slot_kinds_at(), s)
    }

    /// Copies `src` into `dst`, whether scalar or aggregate.
    ///
    /// # Safety
    /// As for [`Self::val_fast`]: both are named by the admitted current activation's body.
    #[inline(always)]
    unsafe fn copy_value(&mut self, prog: &Program, dst: Slot, src: Operand) {
        if self.slot_kind(prog, dst) == SlotKind::Aggregate {
            self.copy_aggregate(prog, dst, src);
        } else {
            let v = self.val_fast(src);
            self.set_fast(dst, v);
        }
    }

    #[inline(never)]
    fn copy_aggregate(&mut self, prog: &Program, dst: Slot, src: Operand) {
        let ty = self.slot_type(prog, dst);
        let v = self.agg_val(prog, src, ty);
        let p = self.agg_provenance(src);
        self.set_agg_carrying(dst, v, p);
    }

    /// The current frame's function body, its block and the index of its next instruction
    /// (`insts.len()`: the terminator); `None` when no frame is left.
    ///
    /// This admits the activation to the unchecked register reads of [`Self::val_fast`]: its register
    /// file holds at least its body's slots, and the constant pool the module's constants (a state run
    /// with a program other than its own, or a file another crate resized, stops here).
    fn position<'p>(&self, prog: &'p Program) -> Option<(&'p ir::Body, &'p ir::Block, usize)> {
        let f = self.frame()?;
        let body = prog
            .module()
            .func(f.func)
            .body
            .as_ref()
            .expect("frames run bodies");
        assert!(
            self.current_regs().len() >= body.num_slots as usize
                && self.consts.scalars.len() >= prog.module().consts.len(),
            "the state's registers or constants do not fit the program it runs"
        );
        Some((body, &body.blocks[f.block.0 as usize], f.inst as usize))
    }

    /// Executes instructions of the current block, at most `max`, while `go` accepts the next one (it
    /// sees the state, the function body and the instruction); stops before the terminator. Returns
    /// how many ran, and how the last one ended. One block lookup serves the whole run, which is what
    /// an executor that must look at each instruction before it runs saves by batching the ones it
    /// lets through.
    pub fn run_in_block(
        &mut self,
        prog: &Program,
        max: u64,
        mut go: impl FnMut(&Self, &ir::Body, &Inst) -> bool,
    ) -> (u64, Result<(), End>) {
        let Some((body, block, mut i)) = self.position(prog) else {
            return (0, Ok(()));
        };
        let mut ran = 0;
        while ran < max {
            let Some(inst) = block.insts.get(i) else {
                break;
            };
            if !go(self, body, inst) {
                break;
            }
            self.steps += 1;
            ran += 1;
            // SAFETY: `position` admitted the activation, and a call (the only step of a block that
            // changes it) leaves this loop.
            match unsafe { self.exec_inst(prog, inst, i as u32) } {
                Ok(Flow::Next) => {
                    i += 1;
                    self.frame_mut().expect("a frame").inst = i as u32;
                }
                Ok(Flow::Moved) => break,
                Err(end) => return (ran, Err(*end)),
            }
        }
        (ran, Ok(()))
    }

    /// Runs until the program ends or `max_steps` instructions have executed in total.
    pub fn run(&mut self, prog: &Program, max_steps: u64) -> End {
        // Exactly `step` in a loop, with the current block looked up once per block rather than once
        // per instruction. The count of steps is kept in a local and written back once: as a field it
        // was loaded and stored around every instruction (nothing an instruction executes reads it), and
        // the limit bounds the instructions of a block before they run, so each one tests one bound.
        let mut steps = self.steps;
        let end = self.run_counting(prog, max_steps, &mut steps);
        self.steps = steps;
        end
    }

    #[inline(always)]
    fn run_counting(&mut self, prog: &Program, max_steps: u64, steps: &mut u64) -> End {
        // One activation at a time: its body is looked up when the run enters or returns to it, and a
        // branch moves to the next block of that body without looking the frame and the body up again.
        while *steps < max_steps {
            let Some((body, mut block, mut start)) = self.position(prog) else {
                return End::Exit(0);
            };
            while *steps < max_steps {
                let len = block.insts.len();
                // The instructions of this block that the limit lets run (`start <= len`).
                let left = usize::try_from(max_steps - *steps).unwrap_or(usize::MAX);
                let stop = start.saturating_add(left).min(len);
                let mut i = start;
                for inst in &block.insts[start..stop] {
                    // SAFETY: `position` admitted this activation, and a call or a return (the only
                    // steps that change it) leaves this loop.
                    match unsafe { self.exec_inst(prog, inst, i as u32) } {
                        Ok(Flow::Next) => i += 1,
                        Ok(Flow::Moved) => {
                            // A call entered another body.
                            *steps += (i + 1 - start) as u64;
                            break;
                        }
                        Err(end) => {
                            *steps += (i + 1 - start) as u64;
                            return *end;
                        }
                    }
                }
                if i < stop {
                    break;
                }
                *steps += (i - start) as u64;
                if i < len || *steps >= max_steps {
                    // The frame's cursor, where the next `run` reads it (the instructions that read it
                    // set it themselves, see `exec_inst`).
                    self.seek(i as u32);
                    break;
                }
                *steps += 1;
                // SAFETY: as for the instructions; a branch stays in the activation.
                match unsafe { self.exec_terminator(prog, &block.term, i as u32) } {
                    Ok(Some(next)) => {
                        block = &body.blocks[next.0 as usize];
                        start = 0;
                    }
                    // A return: the caller's body is looked up again.
                    Ok(None) => break,
                    Err(end) => return end,
                }
            }
        }
        End::Halt(Halt::Limit(format!(
            "instruction limit of {max_steps} reached"
        )))
    }

    /// Executes one instruction or terminator of the current frame.
    #[inline]
    pub fn step(&mut self, prog: &Program) -> Result<(), End> {
        let (_, block, i) = self.position(prog).ok_or(End::Exit(0))?;
        self.steps += 1;
        match block.insts.get(i) {
            Some(inst) => {
                // SAFETY: `position` admitted the activation just now.
                if let Flow::Next =
                    unsafe { self.exec_inst(prog, inst, i as u32) }.map_err(|e| *e)?
                {
                    self.frame_mut().expect("a frame").inst += 1;
                }
                Ok(())
            }
            // SAFETY: as above.
            None => unsafe { self.exec_terminator(prog, &block.term, i as u32) }.map(|_| ()),
        }
    }

    /// Sets the current frame's cursor to instruction `at` of its block: where `location` reports an
    /// error, and where a call returns to.
    #[inline(always)]
    fn seek(&mut self, at: u32) {
        self.frame_mut().expect("a frame").inst = at;
    }

    /// Executes instruction `at` of the current block. The common ones are handled here, each in a few
    /// lines, so that this inlines into the run loops without the register saves of one large function;
    /// the rare ones and the rare cases of common ones (aggregates, pointer comparisons) are out of line.
    ///
    /// The frame's cursor may lag behind `at` on entry (`run` writes it once per block): each
    /// instruction that can fail, call or reach anything that reads the cursor (`location`,
    /// `stack_trace`, a call's return position) sets it first with [`Self::seek`]. The others, which
    /// only compute registers (casts, copies, integer comparisons) or mark a local's lifetime, leave it,
    /// and loads and stores set it only past their common case, which cannot fail.
    ///
    /// # Safety
    /// `inst` is an instruction of the current activation's body, which [`Self::position`] admitted
    /// and no call or return has changed since (its register reads are [`Self::val_fast`]'s).
    #[inline(always)]
    unsafe fn exec_inst(&mut self, prog: &Program, inst: &Inst, at: u32) -> Stepped {
        match inst {
            Inst::Bin {
                op,
                flags,
                width,
                dst,
                lhs,
                rhs,
            } => {
                let (a, b) = (self.val_fast(*lhs), self.val_fast(*rhs));
                if self.binary_is_checked(*op, *flags) {
                    // Only a check can fail and report the position.
                    self.seek(at);
                    self.check_binary(prog, *op, *flags, *width, &a, &b)?;
                }
                let v = self.dom.binop(map_binop(*op), *width, &a, &b);
                self.set_fast(*dst, v);
            }
            Inst::ICmp {
                pred,
                width,
                dst,
                lhs,
                rhs,
            } => {
                if self.is_pointer(prog, *lhs) {
                    self.seek(at);
                    return self.exec_rare(prog, inst).map_err(Box::new);
                }
                let (a, b) = (self.val_fast(*lhs), self.val_fast(*rhs));
                let v = self.dom.cmp(map_pred(*pred), *width, &a, &b);
                self.set_fast(*dst, v);
            }
            Inst::Cast {
                op,
                from,
                to,
                dst,
                src,
            } => {
                let a = self.val_fast(*src);
                let v = self.cast(*op, *from, *to, &a);
                self.set_fast(*dst, v);
            }
            Inst::Copy { dst, src } | Inst::Freeze { dst, src } => {
                self.copy_value(prog, *dst, *src)
            }
            Inst::Gep {
                dst,
                base,
                offset,
                indices,
                ..
            } => {
                let b = self.val_fast(*base);
                let v = self.gep(prog, &b, *offset, indices, at)?;
                self.set_fast(*dst, v);
            }
            Inst::Load {
                dst,
                ptr,
                ty,
                size,
                promoted,
                ..
            } => {
                if let Some(h) = *promoted {
                    let h = crate::promote::Home::from(h);
                    if self.homes.ready & h.mask != 0 {
                        let v = self
                            .current_regs()
                            .slot_unchecked(h.value.0 as usize)
                            .clone();
                        self.set_fast(*dst, v);
                        return Ok(Flow::Next);
                    }
                    self.seek(at);
                    return self.load_home(prog, inst, h, at).map_err(Box::new);
                }
                let p = self.val_fast(*ptr);
                let v = by_scalar_shape!(
                    prog, *ty, *size,
                    |size, w| self.load_scalar_from(prog, &p, *ty, size, w, at),
                    else {
                        self.seek(at);
                        return self.exec_rare(prog, inst).map_err(Box::new);
                    }
                )?;
                self.set_fast(*dst, v);
            }
            Inst::Store {
                ptr,
                val,
                ty,
                size,
                promoted,
                ..
            } => {
                if let Some(h) = *promoted {
                    let h = crate::promote::Home::from(h);
                    if self.homes.dead & h.mask == 0 {
                        let v = self.val_fast(*val);
                        *self
                            .current_regs_mut()
                            .slot_unchecked_mut(h.value.0 as usize) = v;
                        self.homes.ready |= h.mask;
                        return Ok(Flow::Next);
                    }
                    // A store after the local's lifetime ended: memory reports it.
                    self.settle_home(*ptr, h);
                }
                let (p, v) = (self.val_fast(*ptr), self.val_fast(*val));
                by_scalar_shape!(
                    prog, *ty, *size,
                    |size, w| self.store_scalar_to(prog, &p, &v, *ty, size, w, at),
                    else {
                        self.seek(at);
                        return self.exec_rare(prog, inst).map_err(Box::new);
                    }
                )?;
            }
            Inst::Call(call) => {
                self.seek(at);
                return self.exec_call(prog, call).map_err(Box::new);
            }
            // A block-scoped local's markers are as common as loads at -O0: kept out of `intrinsic`,
            // whose many cases make every call to it expensive.
            Inst::Intrinsic {
                op: op @ (Intrinsic::LifetimeStart | Intrinsic::LifetimeEnd),
                args,
                ..
            } => {
                let start = matches!(op, Intrinsic::LifetimeStart);
                match self.home_at(prog, args[1]) {
                    Some(h) => self.mark_home(h, start),
                    None => {
                        let p = self.val_fast(args[1]);
                        let own = matches!(args[1], Operand::Slot(s)
                            if prog.is_local_address(self.slot_kinds_at(), s));
                        self.lifetime_marker(&p, start, own);
                    }
                }
            }
            // A local array or struct initialised from a constant is a `memcpy` from the constant's
            // image, about as frequent as calls in generated C: kept out of `intrinsic` too.
            Inst::Intrinsic {
                op: Intrinsic::Memcpy { len_width, .. } | Intrinsic::Memmove { len_width, .. },
                args,
                ..
            } => {
                self.seek(at);
                self.memmove(prog, args, *len_width)?
            }
            Inst::Intrinsic { dst, op, args } => {
                self.seek(at);
                self.intrinsic(prog, *dst, *op, args)?
            }
            // Named rather than `_`: with every variant a case, the dispatch's jump table covers the
            // whole tag and needs no range test before the jump.
            Inst::Select { .. }
            | Inst::Alloca { .. }
            | Inst::ExtractValue { .. }
            | Inst::InsertValue { .. }
            | Inst::Vector(_) => {
                self.seek(at);
                return self.exec_rare(prog, inst).map_err(Box::new);
            }
        }
        Ok(Flow::Next)
    }

    /// The scalar of type `ty` (`w` bits, `size` bytes) at the address `p`, as the load at `at` reads
    /// it. The common case cannot fail: the cursor a failure reports is set to `at` past it only.
    #[inline(always)]
    pub(crate) fn load_scalar_from(
        &mut self,
        prog: &Program,
        p: &D::Val,
        ty: ir::TypeId,
        size: u32,
        w: u32,
        at: u32,
    ) -> Result<D::Val, End> {
        debug_assert_eq!(Some(w), prog.width(ty));
        let (n, pointer) = (size as u64, ty == ir::TypeId::PTR);
        let (v, seen) = match self.load_scalar_plain(p, n, w, !pointer) {
            Some(r) => r,
            None => {
                self.seek(at);
                self.load_scalar_general(prog, p, n, w)?
            }
        };
        Ok(if pointer || seen == PointerBytes::None {
            v
        } else {
            self.seek(at);
            self.observe_loaded_integer(v, w, seen)
        })
    }

    /// Stores the scalar `v` of type `ty` (`w` bits, `size` bytes) at the address `p`, as the store at `at`
    /// writes it. As for loads, the common case cannot fail and the cursor is set past it only.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn store_scalar_to(
        &mut self,
        prog: &Program,
        p: &D::Val,
        v: &D::Val,
        ty: ir::TypeId,
        size: u32,
        w: u32,
        at: u32,
    ) -> Result<(), End> {
        debug_assert_eq!(Some(w), prog.width(ty));
        let kind = Some(if ty == ir::TypeId::PTR {
            Provenance::Pointer
        } else {
            Provenance::Integer
        });
        if !self.store_scalar_plain(p, v, size as u64, w, kind) {
            self.seek(at);
            self.store_scalar_general(prog, p, v, size as u64, w, kind)?;
        }
        Ok(())
    }

    /// The instructions and cases [`Self::exec_inst`] leaves out of line.
    ///
    /// # Safety
    /// As for `exec_inst`, from which alone it is entered.
    #[inline(never)]
    unsafe fn exec_rare(&mut self, prog: &Program, inst: &Inst) -> Result<Flow, End> {
        match inst {
            Inst::ICmp {
                pred,
                width,
                dst,
                lhs,
                rhs,
            } => {
                let (mut a, mut b) = (self.val(*lhs), self.val(*rhs));
                let equality = matches!(pred, ir::IntPred::Eq | ir::IntPred::Ne);
                if self.is_pointer(prog, *lhs)
                    && self.objects_differ(&a, &b)
                    && (!equality || self.may_coincide(&a) || self.may_coincide(&b))
                {
                    // The order of two objects is the layout's (C11 6.5.8p5 leaves it undefined), and so
                    // is their equality when one pointer is not strictly inside its live object (one past
                    // the end may be the start of the next object, C11 6.5.9p6; a freed block's address
                    // may be handed out again): the comparison reads their addresses as numbers.
                    a = self.observe_address(&a);
                    b = self.observe_address(&b);
                }
                let v = self.dom.cmp(map_pred(*pred), *width, &a, &b);
                self.set(*dst, v);
            }
            Inst::Select {
                dst,
                cond,
                on_true,
                on_false,
            } => self.select(prog, *dst, *cond, *on_true, *on_false),
            Inst::Load { dst, ptr, size, .. } => {
                let p = self.val(*ptr);
                let (bytes, provenance) = self.load_aggregate(prog, &p, *size as u64)?;
                self.set_agg_carrying(*dst, bytes.into(), provenance);
            }
            Inst::Store {
                ptr, val, ty, size, ..
            } => {
                let p = self.val(*ptr);
                let bytes = self.agg_val(prog, *val, *ty);
                let mut provenance = provenance::scalar_leaves(prog, *ty);
                provenance.overlay(0, &self.agg_provenance(*val));
                self.store_aggregate(prog, &p, &bytes[..*size as usize], &provenance)?;
            }
            Inst::Alloca {
                dst,
                elem_size,
                count,
                count_width,
                ..
            } => {
                let n = match count {
                    Some(c) => {
                        let c = self.val(*c);
                        self.dom.choose(Decision::AllocSize, &c, *count_width)
                    }
                    None => 1,
                };
                let v = self.alloca(prog, *dst, (*elem_size as u128).saturating_mul(n))?;
                self.set(*dst, v);
            }
            Inst::ExtractValue {
                dst,
                agg,
                offset,
                ty,
            } => {
                let agg_ty = match agg {
                    Operand::Slot(s) => self.slot_type(prog, *s),
                    Operand::Const(_) => *ty,
                };
                let bytes = self.agg_val(prog, *agg, agg_ty);
                let (off, n) = (*offset as usize, prog.store_size(*ty) as usize);
                let part = bytes
                    .get(off..off + n)
                    .ok_or_else(|| unsupported(self, prog, "extractvalue outside its aggregate"))?;
                let carried = self.agg_provenance(*agg).slice(off as u64, n as u64);
                match prog.width(*ty) {
                    Some(w) => {
                        let v = self.dom.bytes_to_val(part, w);
                        // An integer taken from bytes stored as a pointer is an observed address, as
                        // when loaded from memory.
                        let v = if *ty == ir::TypeId::PTR {
                            v
                        } else {
                            let pointer_bytes = u64::from(prog.module().target.pointer_bytes);
                            let seen = carried.pointer_bytes(0, n as u64, pointer_bytes);
                            self.observe_loaded_integer(v, w, seen)
                        };
                        self.set(*dst, v);
                    }
                    None => {
                        let part: Rc<[D::Byte]> = part.into();
                        self.set_agg_carrying(*dst, part, carried);
                    }
                }
            }
            Inst::InsertValue {
                dst,
                agg,
                val,
                offset,
                ty,
            } => {
                let agg_ty = self.slot_type(prog, *dst);
                let mut bytes = self.agg_val(prog, *agg, agg_ty).to_vec();
                let (off, n) = (*offset as usize, prog.store_size(*ty) as usize);
                if off + n > bytes.len() {
                    return Err(unsupported(self, prog, "insertvalue outside its aggregate"));
                }
                // The inserted bytes' provenance replaces the aggregate's there: a scalar's from its
                // type, an aggregate's as it carries it.
                let mut provenance = self.agg_provenance(*agg);
                let inserted = match prog.width(*ty) {
                    Some(w) => {
                        let v = self.val(*val);
                        self.dom.val_to_bytes(&v, w, &mut bytes[off..off + n]);
                        provenance::scalar_leaves(prog, *ty)
                    }
                    None => {
                        let part = self.agg_val(prog, *val, *ty);
                        bytes[off..off + n].clone_from_slice(&part[..n]);
                        self.agg_provenance(*val)
                    }
                };
                provenance.set(off as u64, n as u64, None);
                provenance.overlay(off as u64, &inserted.slice(0, n as u64));
                self.set_agg_carrying(*dst, bytes.into(), provenance);
            }
            Inst::Vector(v) => self.exec_vector(prog, v)?,
            // The common instructions: one semantics, in `exec_inst`.
            Inst::Bin { .. }
            | Inst::Cast { .. }
            | Inst::Copy { .. }
            | Inst::Freeze { .. }
            | Inst::Gep { .. }
            | Inst::Call(_)
            | Inst::Intrinsic { .. } => {
                // Entered after `seek`: the cursor is this instruction's position.
                let at = self.frame().expect("a frame").inst;
                return self.exec_inst(prog, inst, at).map_err(|e| *e);
            }
        }
        Ok(Flow::Next)
    }

    /// KLEE's overshift check: a shift by at least the width is reported as KLEE's runtime reports it
    /// (`klee_report_error` with "overshift error" and the `overshift.err` file), not as a bug kind
    /// of symex's own.
    fn overshift(&self, prog: &Program) -> End {
        let mut end = self.bug(prog, BugKind::Reported, OVERSHIFT_MESSAGE);
        if let End::Bug(b) = &mut end {
            b.suffix = Some("overshift.err".into());
        }
        end
    }

    /// Integer arithmetic with its checks: division by zero always, signed overflow and overshift
    /// when enabled.
    #[inline]
    pub(crate) fn binary(
        &mut self,
        prog: &Program,
        op: ir::BinOp,
        flags: ir::ArithFlags,
        w: u32,
        a: &D::Val,
        b: &D::Val,
    ) -> Result<D::Val, End> {
        if self.binary_is_checked(op, flags) {
            self.check_binary(prog, op, flags, w, a, b)?;
        }
        Ok(self.dom.binop(map_binop(op), w, a, b))
    }

    /// Whether [`Self::check_binary`] has anything to check for `op`: most arithmetic has nothing, and
    /// then runs inline without it.
    #[inline(always)]
    fn binary_is_checked(&self, op: ir::BinOp, flags: ir::ArithFlags) -> bool {
        use ir::BinOp as B;
        match op {
            B::UDiv | B::SDiv | B::URem | B::SRem => true,
            B::Shl | B::LShr | B::AShr => self.checks.overshift,
            B::Add | B::Sub | B::Mul => self.checks.overflow && flags.nsw(),
            B::And | B::Or | B::Xor => false,
        }
    }

    /// The checks of integer arithmetic: a division by zero, and with the checks enabled a signed overflow
    /// or an overshift, end the path as a bug.
    #[inline(never)]
    fn check_binary(
        &mut self,
        prog: &Program,
        op: ir::BinOp,
        flags: ir::ArithFlags,
        w: u32,
        a: &D::Val,
        b: &D::Val,
    ) -> Result<(), End> {
        use ir::BinOp as B;
        match op {
            B::UDiv | B::SDiv | B::URem | B::SRem => {
                let zero = self.dom.constant(w, 0);
                let is_zero = self.dom.cmp(CmpOp::Eq, w, b, &zero);
                if self.dom.decide(Decision::DivisorZero, &is_zero) {
                    return Err(self.bug(prog, BugKind::DivByZero, "division by zero"));
                }
                if self.checks.overflow && matches!(op, B::SDiv | B::SRem) {
                    let min = self.dom.constant(w, 1u128 << (w - 1));
                    let minus1 = self.dom.constant(w, u128::MAX);
                    let a_min = self.dom.cmp(CmpOp::Eq, w, a, &min);
                    let b_m1 = self.dom.cmp(CmpOp::Eq, w, b, &minus1);
                    let both = self.dom.binop(domain::BinOp::And, 1, &a_min, &b_m1);
                    if self.dom.decide(Decision::Overflow, &both) {
                        return Err(self.bug(
                            prog,
                            BugKind::SignedOverflow,
                            "signed division overflows (MIN / -1)",
                        ));
                    }
                }
            }
            B::Shl | B::LShr | B::AShr if self.checks.overshift => {
                let width = self.dom.constant(w, u128::from(w));
                let over = self.dom.cmp(CmpOp::Uge, w, b, &width);
                if self.dom.decide(Decision::Overflow, &over) {
                    return Err(self.overshift(prog));
                }
            }
            B::Add | B::Sub | B::Mul if self.checks.overflow && flags.nsw() => {
                let oop = match op {
                    B::Add => OverflowOp::SAdd,
                    B::Sub => OverflowOp::SSub,
                    _ => OverflowOp::SMul,
                };
                let ov = self.dom.overflows(oop, w, a, b);
                if self.dom.decide(Decision::Overflow, &ov) {
                    let what = match op {
                        B::Add => "addition",
                        B::Sub => "subtraction",
                        _ => "multiplication",
                    };
                    return Err(self.bug(
                        prog,
                        BugKind::SignedOverflow,
                        format!("signed {what} overflows {w} bits"),
                    ));
                }
            }
            _ => {}
        }
        Ok(())
    }

    #[inline(always)]
    pub(crate) fn cast(&mut self, op: ir::CastOp, from: u32, to: u32, a: &D::Val) -> D::Val {
        let op = match op {
            ir::CastOp::Trunc => CastOp::Trunc,
            ir::CastOp::ZExt => CastOp::ZExt,
            ir::CastOp::SExt => CastOp::SExt,
            ir::CastOp::PtrToInt | ir::CastOp::IntToPtr => {
                return self.pointer_cast(op, from, to, a)
            }
        };
        self.dom.cast(op, from, to, a)
    }

    /// `ptrtoint` and `inttoptr`.
    #[inline(never)]
    fn pointer_cast(&mut self, op: ir::CastOp, from: u32, to: u32, a: &D::Val) -> D::Val {
        match op {
            // Addresses are plain 64-bit integers: pointer/integer casts only change the width, a pointer
            // into an object becomes an observed address (see `Domain::observe_address`), and an integer
            // becomes a pointer cut to the target's pointer width (32 bits on i386).
            ir::CastOp::PtrToInt if from == 64 => {
                let observed = self.observe_address(a);
                self.resize_address(observed, 64, to)
            }
            ir::CastOp::PtrToInt => self.resize_address(a.clone(), from, to),
            ir::CastOp::IntToPtr => {
                let v = self.resize_address(a.clone(), from, to);
                if to < 64 {
                    return v;
                }
                // An address made into an integer and back (plus an offset) is the pointer again.
                let layout = self.mem.layout();
                match self
                    .dom
                    .unobserve_address(&v, layout.pointer_bits, layout.offset_bits)
                {
                    Some(p) => self.wrap_ptr(p),
                    None => v,
                }
            }
            ir::CastOp::Trunc | ir::CastOp::ZExt | ir::CastOp::SExt => self.cast(op, from, to, a),
        }
    }

    /// An address (or an integer bound for a pointer) changed from `from` to `to` bits: cut or
    /// zero-extended, and cut to the target's pointer width when it becomes 64 bits wide.
    fn resize_address(&mut self, v: D::Val, from: u32, to: u32) -> D::Val {
        let v = match to.cmp(&from) {
            std::cmp::Ordering::Equal => v,
            std::cmp::Ordering::Less => self.dom.cast(CastOp::Trunc, from, to, &v),
            std::cmp::Ordering::Greater => self.dom.cast(CastOp::ZExt, from, to, &v),
        };
        if to == 64 {
            self.wrap_ptr(v)
        } else {
            v
        }
    }

    #[inline(always)]
    fn is_pointer(&self, prog: &Program, op: Operand) -> bool {
        matches!(op, Operand::Slot(s) if self.slot_kind(prog, s) == SlotKind::Pointer)
    }

    /// Whether `a` and `b` are known pointers derived from two different objects (neither null-based): their
    /// provenance ([`crate::memory::AddressLayout::owner`]) differs, so `a - 1` and `a` are one object's.
    fn objects_differ(&mut self, a: &D::Val, b: &D::Val) -> bool {
        let (ra, rb) = (self.pointer_object(a), self.pointer_object(b));
        let null_based = |s: &mut Self, r: &D::Val| s.dom.as_const(r) == Some(0);
        if null_based(self, &ra) || null_based(self, &rb) {
            return false;
        }
        let (ia, ib) = (self.pointer_owner(a), self.pointer_owner(b));
        match (self.dom.as_const(&ia), self.dom.as_const(&ib)) {
            (Some(x), Some(y)) => x != 0 && y != 0 && x != y,
            _ => false,
        }
    }

    /// Whether the address of pointer `p` (into a known object) may equal the address of a byte of another
    /// object on a real machine: unless it points strictly inside its live object (one past the end, a
    /// dead object's address, an offset not fixed).
    fn may_coincide(&mut self, p: &D::Val) -> bool {
        let Some(addr) = self.dom.as_const(p) else {
            return true;
        };
        let (id, off) = self.mem.layout().split(addr as u64);
        match self.mem.lookup(id) {
            crate::memory::Lookup::Live(o) => off >= o.size(),
            // Functions have distinct addresses (their address is their start).
            crate::memory::Lookup::Function(_) => off != 0,
            _ => true,
        }
    }

    /// `ptrtoint` of `p`: null-region values (null, integers cast to pointers) are plain integers; a
    /// pointer into an object is an address the model chose.
    pub(crate) fn observe_address(&mut self, p: &D::Val) -> D::Val {
        let raw = self.pointer_object(p);
        if self.dom.as_const(&raw) == Some(0) {
            return p.clone();
        }
        // Which object a pointer was derived from is no address bit: when the path fixes it, two
        // addresses of one object share the mark, so that their difference cancels it (`a - 1` and `a`
        // included, see `AddressLayout::owner`). When it does not (a pointer made from an input, which
        // may name any object), the address gets a mark of its own rather than a fork per object: the
        // conversion is no decision (KLEE's `ptrtoint` is the pointer's bits), and decisions on the
        // integer are still known to depend on the layout.
        let idv = self.pointer_owner(p);
        match self.dom.determined(Decision::PointerObject, &idv, 32) {
            Some(0) => p.clone(),
            Some(id) => self.dom.observe_address(p, Some(id as u32)),
            None => self.dom.observe_address(p, None),
        }
    }

    /// # Safety
    /// As for [`Self::exec_rare`], from which alone it is entered.
    unsafe fn select(&mut self, prog: &Program, dst: Slot, cond: Operand, t: Operand, e: Operand) {
        let c = self.val(cond);
        let ty = self.slot_type(prog, dst);
        match prog.width(ty) {
            Some(w) => {
                let (a, b) = (self.val(t), self.val(e));
                let v = self.dom.ite(&c, w, &a, &b);
                self.set(dst, v);
            }
            // An aggregate select picks one side (a symbolic state forks here).
            None => {
                let side = if self.dom.decide(Decision::Branch, &c) {
                    t
                } else {
                    e
                };
                self.copy_value(prog, dst, side);
            }
        }
    }

    /// Pointer arithmetic. A result that leaves its object for a place where another object may have
    /// bytes becomes a pointer to no object ([`crate::memory::AddressLayout::leaves_object`]): such arithmetic is
    /// undefined (C11 6.5.6p8), and without the poison an index 4 GiB past an object would read its
    /// neighbour instead of being out of bounds.
    ///
    /// A constant offset from a known address that stays within its object, as a field's or a
    /// constant index's `getelementptr` nearly always is, is computed here, inline, and needs no
    /// position (`at`, the instruction's), as it cannot fail; the rest is out of line.
    #[inline(always)]
    fn gep(
        &mut self,
        prog: &Program,
        b: &D::Val,
        offset: i64,
        indices: &[ir::GepIndex],
        at: u32,
    ) -> Result<D::Val, End> {
        if indices.is_empty() {
            let known = self.dom.as_const(b);
            if let Some(r) = known.and_then(|b| prog.addr.offset_within(b as u64, offset)) {
                return Ok(self.dom.constant(64, u128::from(r)));
            }
        }
        self.gep_general(prog, b, offset, indices, at)
    }

    #[inline(never)]
    fn gep_general(
        &mut self,
        prog: &Program,
        b: &D::Val,
        offset: i64,
        indices: &[ir::GepIndex],
        at: u32,
    ) -> Result<D::Val, End> {
        self.seek(at);
        let p = self.gep_unchecked(prog, b, offset, indices)?;
        self.poison_if_leaving(prog, b, p)
    }

    /// `p` (computed from `base`), or the poison when it leaves `base`'s provenance. A poisoned pointer
    /// moved out of the wild region may be coming back to its object, whose identity the poison lost: that
    /// ends the path as unsupported rather than as a wrong dereference of no object.
    fn poison_if_leaving(
        &mut self,
        prog: &Program,
        base: &D::Val,
        p: D::Val,
    ) -> Result<D::Val, End> {
        let layout = prog.addr;
        if let (Some(b), Some(r)) = (self.dom.as_const(base), self.dom.as_const(&p)) {
            if !layout.leaves_object(b as u64, r as u64) {
                return Ok(p);
            }
            return self.poison_known(prog, b as u64, r as u64);
        }
        if self
            .dom
            .as_const(base)
            .is_some_and(|b| b as u64 >> layout.offset_bits == 0)
        {
            return Ok(p);
        }
        self.poison_term(prog, base, p)
    }

    /// [`Self::poison_if_leaving`] of a known address `r` that leaves its known base `b`'s object. Out of
    /// line (as [`Self::poison_term`]): `gep`'s common case then saves no registers for these.
    #[cold]
    #[inline(never)]
    fn poison_known(&mut self, prog: &Program, b: u64, r: u64) -> Result<D::Val, End> {
        let layout = prog.addr;
        if [layout.wild_id(), layout.lost_id()].contains(&layout.split(b).0) {
            return Err(self.far_return(prog));
        }
        let (_, off) = layout.split(r);
        Ok(self
            .dom
            .constant(64, layout.address(layout.wild_id(), off) as u128))
    }

    /// [`Self::poison_if_leaving`] where the base or the result is not known.
    #[inline(never)]
    fn poison_term(&mut self, prog: &Program, base: &D::Val, p: D::Val) -> Result<D::Val, End> {
        let layout = prog.addr;
        // The same rule on terms: `ite(leaves, POISON | offset, p)`, where the poison is the wild id for
        // a pointer that leaves its object, and the lost id for one that leaves the poison (it may be
        // coming back to its object, as a known address that does so ends the path as unsupported).
        let base_id = self.pointer_object(base);
        let base_owner = self.pointer_owner(base);
        let owner = self.pointer_owner(&p);
        let off = self.pointer_offset(&p);
        let zero = self.dom.constant(32, 0);
        let not_null = self.dom.cmp(CmpOp::Ne, 32, &base_id, &zero);
        let moved = self.dom.cmp(CmpOp::Ne, 32, &owner, &base_owner);
        let leaves = self.dom.binop(domain::BinOp::And, 1, &not_null, &moved);
        let poisoned = self.is_poisoned(&base_id, layout);
        let [wild, lost] = [layout.wild_id(), layout.lost_id()].map(|id| {
            let region = self.dom.constant(64, layout.address(id, 0) as u128);
            self.dom.binop(domain::BinOp::Or, 64, &region, &off)
        });
        let poison = self.dom.ite(&poisoned, 64, &lost, &wild);
        Ok(self.dom.ite(&leaves, 64, &poison, &p))
    }

    /// Whether the object id `id` (32 bits) is one of the poison's (wild or lost), as a width-1 value.
    fn is_poisoned(&mut self, id: &D::Val, layout: crate::memory::AddressLayout) -> D::Val {
        let [wild, lost] = [layout.wild_id(), layout.lost_id()]
            .map(|p| self.dom.constant(32, p as u128))
            .map(|p| self.dom.cmp(CmpOp::Eq, 32, id, &p));
        self.dom.binop(domain::BinOp::Or, 1, &wild, &lost)
    }

    fn far_return(&self, prog: &Program) -> End {
        unsupported(
            self,
            prog,
            format!(
                "pointer arithmetic on a pointer more than {} bytes away from its object (its provenance is lost)",
                prog.addr.max_object_size()
            ),
        )
    }

    fn gep_unchecked(
        &mut self,
        prog: &Program,
        b: &D::Val,
        offset: i64,
        indices: &[ir::GepIndex],
    ) -> Result<D::Val, End> {
        let mut p = b.clone();
        if offset != 0 {
            p = self.ptr_add(&p, offset as u64);
        }
        for ix in indices {
            let i = self.val(ix.index);
            let i64v = match ix.width.cmp(&64) {
                std::cmp::Ordering::Less => self.dom.cast(CastOp::SExt, ix.width, 64, &i),
                std::cmp::Ordering::Greater => self.dom.cast(CastOp::Trunc, ix.width, 64, &i),
                std::cmp::Ordering::Equal => i,
            };
            let scale = self.dom.constant(64, ix.scale as u64 as u128);
            let step = self.dom.binop(domain::BinOp::Mul, 64, &i64v, &scale);
            p = self.dom.binop(domain::BinOp::Add, 64, &p, &step);
        }
        if prog.addr.pointer_bits >= 64 {
            return Ok(p);
        }
        // On a 32-bit target the sum wraps at 32 bits (each step may be computed wider: the low bits agree).
        if !indices.is_empty() {
            p = self.wrap_ptr(p);
        }
        Ok(p)
    }

    /// `llvm.lifetime.start` (`start`) or `.end` on the local `ptr` points to. Markers on anything but a
    /// local of the current frame have no effect (LLVM: they apply to allocas).
    ///
    /// `own`: `ptr` is known to hold the address of an `alloca` of the running activation (its slot
    /// is one [`Program::is_local_address`] names), so the local needs no search through the frame's.
    #[inline(never)]
    pub(crate) fn lifetime_marker(&mut self, ptr: &D::Val, start: bool, own: bool) {
        // A known address names its object by its bits (what `pointer_object` computes, and `choose` of
        // a known value returns without a question), nearly always: `alloca` gives known addresses.
        let id = match self.dom.as_const(ptr) {
            Some(a) => self.mem.layout().split(a as u64).0,
            None => {
                let idv = self.pointer_object(ptr);
                self.dom.choose(Decision::PointerObject, &idv, 32) as crate::memory::ObjId
            }
        };
        if !own && !self.is_own_local(id) {
            return;
        }
        if start {
            let fill = self.dom.const_byte(0);
            self.mem.restart(id, fill);
        } else {
            self.mem.end_lifetime(id);
        }
    }

    /// Whether `id` is a local of the running activation. Where the last search found its local, or
    /// beside it (a block's locals are allocated and marked in order), before a search through the
    /// frame's locals.
    fn is_own_local(&mut self, id: crate::memory::ObjId) -> bool {
        let f = self.frame_mut().expect("a frame");
        let m = f.marker_at as usize;
        let near = [m, m + 1, m.wrapping_sub(1)];
        match near.into_iter().find(|&at| f.allocas.get(at) == Some(&id)) {
            Some(at) => f.marker_at = at as u32,
            None => match f.allocas.iter().position(|&a| a == id) {
                Some(at) => f.marker_at = at as u32,
                None => return false,
            },
        }
        true
    }

    /// A fresh, uninitialised stack object of `size` bytes owned by the current frame.
    fn alloca(&mut self, prog: &Program, dst: Slot, size: u128) -> Result<D::Val, End> {
        let f_id = self.frame().expect("a frame").func;
        let (name, private, home) = prog.alloca_site_of(f_id, dst);
        if let Some(h) = home {
            let h = crate::promote::Home::from(h);
            let homes = self.homes;
            if (homes.ready | homes.dead | homes.stale) & h.mask != 0 {
                self.renew_home(dst, h);
            }
        }
        let fill = self.dom.const_byte(0);
        let size = u64::try_from(size).unwrap_or(u64::MAX);
        let id = self
            .allocate_reclaiming(crate::memory::ObjKind::Stack, name, size, fill, false)
            .ok_or_else(|| unsupported(self, prog, format!("stack allocation of {size} bytes")))?;
        let f = self.frame_mut().expect("a frame");
        f.allocas.push(id);
        if private {
            f.private.push(id);
        }
        Ok(self.dom.constant(64, prog.addr.address(id, 0) as u128))
    }

    /// Follows a control-flow edge: the phi moves of the target, read all before any is written.
    ///
    /// # Safety
    /// `edge` leaves a block of the admitted current activation (see [`Self::exec_inst`]).
    #[inline]
    unsafe fn take_edge(&mut self, prog: &Program, edge: &Edge) {
        match &edge.moves[..] {
            [] => {}
            // One scalar move (a loop counter's phi) cannot read what another writes: no buffer.
            [m] if self.slot_kind(prog, m.dst) != SlotKind::Aggregate => {
                let v = self.val_fast(m.src);
                self.set_fast(m.dst, v);
            }
            moves => self.take_moves(prog, moves),
        }
        let f = self.frame_mut().expect("a frame");
        f.block = edge.to;
        f.inst = 0;
    }

    /// The phi moves of an edge, read all before any is written.
    ///
    /// # Safety
    /// As for [`Self::take_edge`].
    #[inline(never)]
    unsafe fn take_moves(&mut self, prog: &Program, moves: &[ir::PhiMove]) {
        let values: SmallVec<[(Slot, MovedValue<D>); 8]> = moves
            .iter()
            .map(|m| {
                let v = match self.slot_kind(prog, m.dst) {
                    SlotKind::Integer | SlotKind::Pointer => Ok(self.val_fast(m.src)),
                    SlotKind::Aggregate => {
                        let ty = self.slot_type(prog, m.dst);
                        Err((self.agg_val(prog, m.src, ty), self.agg_provenance(m.src)))
                    }
                };
                (m.dst, v)
            })
            .collect();
        for (dst, v) in values {
            match v {
                Ok(v) => self.set_fast(dst, v),
                Err((a, p)) => self.set_agg_carrying(dst, a, p),
            }
        }
    }

    /// Executes a terminator; returns the block a branch leads to within the same activation (`None`:
    /// it returned).
    ///
    /// # Safety
    /// The terminator ends a block of the admitted current activation (see [`Self::exec_inst`]).
    unsafe fn exec_terminator(
        &mut self,
        prog: &Program,
        term: &Terminator,
        at: u32,
    ) -> Result<Option<ir::BlockId>, End> {
        // The cursor at the terminator (`at`: its block's length) for whatever reads it: a return, a
        // failure, a guide and a domain that may fork. A branch of a domain that decides purely (the
        // concrete one) goes without it, as `take_edge` moves the cursor anyway.
        let edge = match term {
            Terminator::Br(edge) => edge,
            Terminator::CondBr {
                cond,
                if_true,
                if_false,
            } => {
                let c = self.val_fast(*cond);
                if !D::DECIDES_PURELY || prog.guide.is_some() {
                    self.seek(at);
                }
                if prog.guide.is_some() {
                    crate::guide::follow_branch(self, prog, &c)?;
                }
                if self.dom.decide(Decision::Branch, &c) {
                    if_true
                } else {
                    if_false
                }
            }
            Terminator::Switch(sw) => {
                if !D::DECIDES_PURELY {
                    self.seek(at);
                }
                self.switch_target(sw)
            }
            Terminator::Ret(op) => {
                self.seek(at);
                return self.ret(prog, *op).map(|()| None);
            }
            Terminator::Unreachable => {
                self.seek(at);
                return Err(self.bug(
                    prog,
                    BugKind::Unreachable,
                    "reached an `unreachable` instruction",
                ));
            }
        };
        self.take_edge(prog, edge);
        Ok(Some(edge.to))
    }

    /// The edge a `switch` takes: one decision per distinct target (as KLEE forks), whose condition is
    /// the disjunction of the case values leading there; cases that lead to the default are the default.
    ///
    /// # Safety
    /// The terminator ends a block of the admitted current activation (see [`Self::exec_inst`]).
    unsafe fn switch_target<'s>(&mut self, sw: &'s ir::Switch) -> &'s Edge {
        let v = self.val_fast(sw.value);
        if self.checks.switch_per_value {
            for (case, edge) in &sw.cases {
                let c = self.dom.constant(sw.width, *case);
                let eq = self.dom.cmp(CmpOp::Eq, sw.width, &v, &c);
                if self.dom.decide(Decision::SwitchCase, &eq) {
                    return edge;
                }
            }
            return &sw.default;
        }
        let mut targets: Vec<(&Edge, D::Val)> = Vec::new();
        for (case, edge) in &sw.cases {
            if *edge == sw.default {
                continue;
            }
            let c = self.dom.constant(sw.width, *case);
            let eq = self.dom.cmp(CmpOp::Eq, sw.width, &v, &c);
            match targets.iter_mut().find(|(e, _)| *e == edge) {
                Some((_, cond)) => *cond = self.dom.binop(domain::BinOp::Or, 1, cond, &eq),
                None => targets.push((edge, eq)),
            }
        }
        for (edge, cond) in targets {
            if self.dom.decide(Decision::SwitchCase, &cond) {
                return edge;
            }
        }
        &sw.default
    }

    /// `llvm.memcpy` and `llvm.memmove` (`args`: destination, source, length of `len_width` bits).
    #[inline(never)]
    fn memmove(&mut self, prog: &Program, args: &[Operand], len_width: u32) -> Result<(), End> {
        let (d, s, n) = (self.val(args[0]), self.val(args[1]), self.val(args[2]));
        let n = self.dom.choose(Decision::Length, &n, len_width);
        self.copy_memory(prog, &d, &s, n as u64)
    }

    #[inline(never)]
    fn intrinsic(
        &mut self,
        prog: &Program,
        dst: Option<Slot>,
        op: Intrinsic,
        args: &[Operand],
    ) -> Result<(), End> {
        let arg = |st: &Self, i: usize| st.val(args[i]);
        let result = match op {
            Intrinsic::Overflow { op, width } => {
                let (a, b) = (arg(self, 0), arg(self, 1));
                let dop = match op {
                    ir::OverflowOp::SAdd | ir::OverflowOp::UAdd => domain::BinOp::Add,
                    ir::OverflowOp::SSub | ir::OverflowOp::USub => domain::BinOp::Sub,
                    ir::OverflowOp::SMul | ir::OverflowOp::UMul => domain::BinOp::Mul,
                };
                let r = self.dom.binop(dop, width, &a, &b);
                let ov = self.dom.overflows(map_overflow(op), width, &a, &b);
                if let Some(d) = dst {
                    self.write_pair(prog, d, &r, width, &ov)?;
                }
                return Ok(());
            }
            Intrinsic::Saturating { op, width } => {
                let (a, b) = (arg(self, 0), arg(self, 1));
                Some(self.saturating(op, width, &a, &b))
            }
            Intrinsic::MinMax { op, width } => {
                let (a, b) = (arg(self, 0), arg(self, 1));
                let dop = match op {
                    ir::MinMaxOp::UMin => domain::BinOp::UMin,
                    ir::MinMaxOp::UMax => domain::BinOp::UMax,
                    ir::MinMaxOp::SMin => domain::BinOp::SMin,
                    ir::MinMaxOp::SMax => domain::BinOp::SMax,
                };
                Some(self.dom.binop(dop, width, &a, &b))
            }
            Intrinsic::Abs { width, .. } => Some(self.unary(UnOp::Abs, width, args)),
            Intrinsic::Ctpop { width } => Some(self.unary(UnOp::Ctpop, width, args)),
            Intrinsic::Ctlz { width, .. } => Some(self.unary(UnOp::Ctlz, width, args)),
            Intrinsic::Cttz { width, .. } => Some(self.unary(UnOp::Cttz, width, args)),
            Intrinsic::Bswap { width } => Some(self.unary(UnOp::Bswap, width, args)),
            Intrinsic::Bitreverse { width } => Some(self.unary(UnOp::BitReverse, width, args)),
            Intrinsic::Fshl { width } | Intrinsic::Fshr { width } => {
                let (a, b, s) = (arg(self, 0), arg(self, 1), arg(self, 2));
                Some(
                    self.dom
                        .funnel_shift(matches!(op, Intrinsic::Fshl { .. }), width, &a, &b, &s),
                )
            }
            Intrinsic::Memcpy { len_width, .. } | Intrinsic::Memmove { len_width, .. } => {
                self.memmove(prog, args, len_width)?;
                None
            }
            Intrinsic::Memset { len_width, .. } => {
                let (d, b, n) = (arg(self, 0), arg(self, 1), arg(self, 2));
                let n = self.dom.choose(Decision::Length, &n, len_width);
                self.fill_memory(prog, &d, &b, n as u64)?;
                None
            }
            Intrinsic::LifetimeStart | Intrinsic::LifetimeEnd => {
                let p = arg(self, 1);
                self.lifetime_marker(&p, matches!(op, Intrinsic::LifetimeStart), false);
                None
            }
            Intrinsic::StackSave => {
                let n = self.frame().expect("a frame").allocas.len();
                Some(self.dom.constant(64, n as u128))
            }
            Intrinsic::StackRestore => {
                let t = arg(self, 0);
                let keep = self.dom.choose(Decision::Length, &t, 64) as usize;
                let f = self.frame_mut().expect("a frame");
                let dropped: SmallVec<[ObjId; 6]> =
                    f.allocas.drain(keep.min(f.allocas.len())..).collect();
                for id in dropped {
                    self.mem.kill(id);
                }
                None
            }
            Intrinsic::VaStart => {
                let p = arg(self, 0);
                self.va_start(prog, &p)?;
                None
            }
            Intrinsic::VaEnd => None,
            Intrinsic::VaCopy => {
                let (d, s) = (arg(self, 0), arg(self, 1));
                // x86-64's `va_list` is a 24-byte struct, i386's a pointer.
                let size = if prog.addr.pointer_bits == 32 { 4 } else { 24 };
                self.copy_memory(prog, &d, &s, size)?;
                None
            }
            Intrinsic::Trap => return Err(self.bug(prog, BugKind::Abort, "llvm.trap")),
            // An optimiser hint: the program promises the condition, nothing to execute.
            Intrinsic::Assume => None,
        };
        if let (Some(d), Some(v)) = (dst, result) {
            self.set(d, v);
        }
        Ok(())
    }

    fn unary(&mut self, op: UnOp, w: u32, args: &[Operand]) -> D::Val {
        let a = self.val(args[0]);
        self.dom.unop(op, w, &a)
    }

    pub(crate) fn saturating(&mut self, op: ir::SatOp, w: u32, a: &D::Val, b: &D::Val) -> D::Val {
        let (bop, oop) = match op {
            ir::SatOp::SAdd => (domain::BinOp::Add, OverflowOp::SAdd),
            ir::SatOp::UAdd => (domain::BinOp::Add, OverflowOp::UAdd),
            ir::SatOp::SSub => (domain::BinOp::Sub, OverflowOp::SSub),
            ir::SatOp::USub => (domain::BinOp::Sub, OverflowOp::USub),
        };
        let r = self.dom.binop(bop, w, a, b);
        let ov = self.dom.overflows(oop, w, a, b);
        let limit = match op {
            ir::SatOp::UAdd => self.dom.constant(w, u128::MAX),
            ir::SatOp::USub => self.dom.constant(w, 0),
            // Signed: the bound on the side of the true result, i.e. MAX when a is non-negative.
            ir::SatOp::SAdd | ir::SatOp::SSub => {
                let zero = self.dom.constant(w, 0);
                let a_neg = self.dom.cmp(CmpOp::Slt, w, a, &zero);
                let max = self.dom.constant(w, (1u128 << (w - 1)) - 1);
                let min = self.dom.constant(w, 1u128 << (w - 1));
                self.dom.ite(&a_neg, w, &min, &max)
            }
        };
        self.dom.ite(&ov, w, &limit, &r)
    }

    /// Writes the `{iN, i1}` result of a `*.with.overflow` intrinsic into aggregate slot `dst`.
    fn write_pair(
        &mut self,
        prog: &Program,
        dst: Slot,
        r: &D::Val,
        w: u32,
        flag: &D::Val,
    ) -> Result<(), End> {
        let ty = self.slot_type(prog, dst);
        let info = prog.module().ty(ty);
        let flag_off = match &info.kind {
            ir::TypeKind::Struct { offsets, .. } if offsets.len() == 2 => offsets[1] as usize,
            _ => {
                return Err(unsupported(
                    self,
                    prog,
                    "overflow intrinsic whose result is not a pair",
                ))
            }
        };
        let mut bytes: Vec<D::Byte> = (0..info.store_size)
            .map(|_| self.dom.const_byte(0))
            .collect();
        let n = (w as usize).div_ceil(8);
        if flag_off < n || flag_off >= bytes.len() {
            return Err(unsupported(
                self,
                prog,
                "overflow intrinsic with an unexpected result layout",
            ));
        }
        self.dom.val_to_bytes(r, w, &mut bytes[..n]);
        self.dom
            .val_to_bytes(flag, 1, &mut bytes[flag_off..flag_off + 1]);
        self.frame_mut()
            .expect("a frame")
            .set_agg(dst, bytes.into());
        Ok(())
    }
}
