//! Function bodies: slot numbering, blocks, phis as edge moves, and every non-intrinsic
//! instruction family.

use super::consts::{int_pred, sext};
use super::gep::{walk_indices, Step};
use super::{name_str, Ctx};
use crate::error::{FrontendError, Result};
use crate::ir::*;
use llvm_ir::{Constant, DebugLoc, HasDebugLoc as _, Instruction, Name, Terminator};
use rustc_hash::FxHashMap;

/// The shape of a value type, as arithmetic instructions need it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Int(u32),
    Ptr,
    Vector { elem_width: u32, lanes: u32 },
    Other,
}

pub(crate) struct FnLower<'a, 'm> {
    pub ctx: &'a mut Ctx<'m>,
    pub fname: &'m str,
    slots: FxHashMap<Name, Slot>,
    pub slot_types: Vec<TypeId>,
    blocks: FxHashMap<Name, BlockId>,
    /// Every alloca with its LLVM value name (for [`crate::locals`]).
    allocas: Vec<(Slot, String)>,
    /// Whether an unfoldable constant expression may become instructions (not in phis: they take
    /// their values on an edge, where nothing can run).
    pub(super) materialise_allowed: bool,
    /// Instructions computing such expressions, to be placed before the instruction using them.
    pub(super) pending: Vec<Inst>,
    /// Blocks the lowering adds after the function's own (the comparisons of a computed goto).
    pub(super) extra_blocks: Vec<Block>,
    /// The position of the terminator being lowered (for the blocks it adds).
    pub(super) term_loc: Loc,
    /// (destination, added block, original block) for each edge from an added block.
    pub(super) extra_preds: Vec<(BlockId, BlockId, BlockId)>,
}

pub(crate) fn lower_body<'m>(ctx: &mut Ctx<'m>, f: &'m llvm_ir::Function) -> Result<Body> {
    let fname: &str = &f.name;
    let mut fl = FnLower {
        ctx,
        fname,
        slots: FxHashMap::default(),
        slot_types: Vec::new(),
        blocks: FxHashMap::default(),
        allocas: Vec::new(),
        materialise_allowed: false,
        pending: Vec::new(),
        extra_blocks: Vec::new(),
        term_loc: Loc::default(),
        extra_preds: Vec::new(),
    };
    fl.lower(f).map_err(|e| e.at(None, Some(fname)))
}

impl FnLower<'_, '_> {
    fn lower(&mut self, f: &llvm_ir::Function) -> Result<Body> {
        for p in &f.parameters {
            let ty = self.ctx.ty(&p.ty)?;
            self.new_slot(&p.name, ty);
        }
        for (b, bb) in f.basic_blocks.iter().enumerate() {
            self.blocks.insert(bb.name.clone(), BlockId(b as u32));
        }
        for bb in &f.basic_blocks {
            for inst in &bb.instrs {
                if let Some(name) = inst.try_get_result() {
                    let ty = self
                        .result_type(inst)
                        .map_err(|e| self.here(e, inst.get_debug_loc()))?;
                    self.new_slot(name, ty);
                }
            }
        }
        let phis = f
            .basic_blocks
            .iter()
            .enumerate()
            .map(|(b, bb)| self.block_phis(b as u32, bb))
            .collect::<Result<Vec<_>>>()?;
        let mut blocks = Vec::with_capacity(f.basic_blocks.len());
        let mut local_names = Vec::new();
        let var_names = self.ctx.facts.var_names.get(self.fname);
        for (b, bb) in f.basic_blocks.iter().enumerate() {
            let mut insts = Vec::new();
            let mut locs = Vec::new();
            for (i, inst) in bb.instrs.iter().enumerate() {
                if matches!(inst, Instruction::Phi(_)) {
                    continue;
                }
                let loc = self.ctx.loc(inst.get_debug_loc());
                let before = insts.len();
                self.enter((b as u32, i as u32));
                self.materialise_allowed = true;
                let lowered = self.inst(inst, (b as u32, i as u32), &mut insts);
                self.materialise_allowed = false;
                lowered.map_err(|e| self.here(e, inst.get_debug_loc()))?;
                let computed = self.take_materialised();
                insts.splice(before..before, computed);
                if let (Some(Inst::Alloca { dst, .. }), Some(var)) = (
                    insts.last().filter(|_| insts.len() > before),
                    var_names.and_then(|v| v.get(&(b as u32, i as u32))),
                ) {
                    local_names.push((*dst, var.clone()));
                }
                locs.resize(locs.len() + insts.len() - before, loc);
            }
            let term_loc = self.ctx.loc(bb.term.get_debug_loc());
            // LLVM counts the terminator as the block's last instruction.
            self.enter((b as u32, bb.instrs.len() as u32));
            self.materialise_allowed = true;
            self.term_loc = term_loc;
            let term = self.terminator(&bb.term, BlockId(b as u32), &phis);
            self.materialise_allowed = false;
            let term = term.map_err(|e| self.here(e, bb.term.get_debug_loc()))?;
            let computed = self.take_materialised();
            locs.resize(locs.len() + computed.len(), term_loc);
            insts.extend(computed);
            blocks.push(Block {
                name: name_str(&bb.name),
                phis: phis[b].clone(),
                insts,
                locs,
                term,
                term_loc,
            });
        }
        blocks.append(&mut self.extra_blocks);
        super::computed_goto::add_phi_predecessors(&mut blocks, &self.extra_preds);
        let locals = crate::locals::source_variables(&blocks, &self.allocas);
        let dbg_values = self.dbg_values(f);
        Ok(Body {
            blocks,
            num_slots: self.slot_types.len() as u32,
            slot_types: std::mem::take(&mut self.slot_types),
            local_names: {
                local_names.sort_by_key(|&(s, _)| s);
                local_names
            },
            locals,
            dbg_values,
        })
    }

    /// The function's `llvm.dbg.value` calls whose value is a register of ours.
    fn dbg_values(&self, f: &llvm_ir::Function) -> Vec<crate::ir::DbgValue> {
        use crate::llvm_facts::DbgOperand;
        let Some(calls) = self.ctx.facts.dbg_values.get(self.fname) else {
            return Vec::new();
        };
        let mut ids: Vec<usize> = calls.iter().map(|c| c.variable).collect();
        ids.sort_unstable();
        ids.dedup();
        calls
            .iter()
            .filter_map(|c| {
                let name = match c.value {
                    DbgOperand::Inst((b, i)) => f
                        .basic_blocks
                        .get(b as usize)?
                        .instrs
                        .get(i as usize)?
                        .try_get_result()?,
                    DbgOperand::Param(k) => &f.parameters.get(k as usize)?.name,
                };
                Some(crate::ir::DbgValue {
                    block: BlockId(c.at.0),
                    leading: c.leading,
                    slot: *self.slots.get(name)?,
                    name: c.name.clone(),
                    variable: ids.binary_search(&c.variable).ok()? as u32,
                })
            })
            .collect()
    }

    /// The IR type of an instruction's result. `llvm-ir` cannot type an `extractvalue` from a
    /// named struct (it panics), so that one is computed from our own layout.
    fn result_type(&mut self, inst: &Instruction) -> Result<TypeId> {
        if let Some(e) = float_error(inst) {
            return Err(e);
        }
        if let Instruction::ExtractValue(e) = inst {
            let agg = self.op_ty(&e.aggregate)?;
            return Ok(self.aggregate_path(agg, &e.indices)?.1);
        }
        let ty = self.ctx.llm.type_of(inst);
        self.ctx.ty(&ty)
    }

    fn here(&mut self, e: FrontendError, dl: &Option<DebugLoc>) -> FrontendError {
        let loc = self.ctx.loc(dl);
        e.at(self.ctx.describe(loc), Some(self.fname))
    }

    /// A slot for a value the lowering introduces itself (no LLVM name).
    pub fn fresh_slot(&mut self, ty: TypeId) -> Slot {
        let s = Slot(self.slot_types.len() as u32);
        self.slot_types.push(ty);
        s
    }

    pub(super) fn declare_slot(&mut self, name: &Name, ty: TypeId) -> Slot {
        self.new_slot(name, ty)
    }

    fn new_slot(&mut self, name: &Name, ty: TypeId) -> Slot {
        let s = Slot(self.slot_types.len() as u32);
        self.slot_types.push(ty);
        self.slots.insert(name.clone(), s);
        s
    }

    pub fn dst(&self, name: &Name) -> Result<Slot> {
        self.slots.get(name).copied().ok_or_else(|| {
            FrontendError::unsupported(format!("use of undefined value `%{}`", name_str(name)))
        })
    }

    pub fn op(&mut self, o: &llvm_ir::Operand) -> Result<Operand> {
        match o {
            llvm_ir::Operand::LocalOperand { name, .. } => Ok(Operand::Slot(self.dst(name)?)),
            llvm_ir::Operand::ConstantOperand(c) => match self.ctx.const_id(c) {
                Ok(id) => Ok(Operand::Const(id)),
                Err(e) => self.materialise(c).ok_or(e),
            },
            llvm_ir::Operand::MetadataOperand => {
                Err(FrontendError::unsupported("metadata operand"))
            }
        }
    }

    pub fn op_ty(&mut self, o: &llvm_ir::Operand) -> Result<TypeId> {
        let ty = self.ctx.llm.type_of(o);
        self.ctx.ty(&ty)
    }

    pub fn shape(&self, ty: TypeId) -> Shape {
        match &self.ctx.info(ty).kind {
            TypeKind::Int(w) => Shape::Int(*w),
            TypeKind::Ptr => Shape::Ptr,
            TypeKind::Vector { elem, lanes } => match self.ctx.info(*elem).kind {
                TypeKind::Int(w) => Shape::Vector {
                    elem_width: w,
                    lanes: *lanes,
                },
                _ => Shape::Vector {
                    elem_width: 64,
                    lanes: *lanes,
                },
            },
            _ => Shape::Other,
        }
    }

    /// How many blocks the LLVM function has (added blocks come after them).
    pub(super) fn own_blocks(&self) -> u32 {
        self.blocks.len() as u32
    }

    pub(super) fn block(&self, name: &Name) -> Result<BlockId> {
        self.blocks.get(name).copied().ok_or_else(|| {
            FrontendError::unsupported(format!("branch to unknown block `%{}`", name_str(name)))
        })
    }

    /// Makes the wide constants of the instruction at `key` the ones constants are resolved against.
    fn enter(&mut self, key: (u32, u32)) {
        let facts = self.ctx.facts;
        self.ctx.wide_scope.clear();
        if let Some(wides) = facts.wide_in_inst.get(self.fname).and_then(|f| f.get(&key)) {
            self.ctx.wide_scope.extend_from_slice(wides);
        }
        self.ctx.label_scope.clear();
        if let Some(labels) = facts
            .labels_in_inst
            .get(self.fname)
            .and_then(|f| f.get(&key))
        {
            self.ctx.label_scope.extend_from_slice(labels);
        }
    }

    fn block_phis(&mut self, b: u32, bb: &llvm_ir::BasicBlock) -> Result<Vec<Phi>> {
        let mut out = Vec::new();
        for (i, inst) in bb.instrs.iter().enumerate() {
            let Instruction::Phi(phi) = inst else {
                continue;
            };
            self.enter((b, i as u32));
            let dst = self.dst(&phi.dest)?;
            let incoming = phi
                .incoming_values
                .iter()
                .map(|(v, b)| Ok((self.op(v)?, self.block(b)?)))
                .collect::<Result<Vec<_>>>()
                .map_err(|e| self.here(e, &phi.debugloc))?;
            out.push(Phi {
                dst,
                ty: self.slot_types[dst.0 as usize],
                incoming,
            });
        }
        Ok(out)
    }

    /// The edge `from → to` with the phi moves of `to`.
    pub(super) fn edge(&self, from: BlockId, to: &Name, phis: &[Vec<Phi>]) -> Result<Edge> {
        let to = self.block(to)?;
        let moves = phis[to.0 as usize]
            .iter()
            .map(|phi| {
                phi.incoming
                    .iter()
                    .find(|(_, b)| *b == from)
                    .map(|(src, _)| PhiMove {
                        dst: phi.dst,
                        src: *src,
                    })
                    .ok_or_else(|| {
                        FrontendError::unsupported(
                            "phi without a value for one of its predecessors",
                        )
                    })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Edge {
            to,
            moves: moves.into_boxed_slice(),
        })
    }

    fn terminator(
        &mut self,
        t: &Terminator,
        from: BlockId,
        phis: &[Vec<Phi>],
    ) -> Result<crate::ir::Terminator> {
        use crate::ir::Terminator as T;
        Ok(match t {
            Terminator::Ret(r) => {
                T::Ret(r.return_operand.as_ref().map(|o| self.op(o)).transpose()?)
            }
            Terminator::Br(br) => T::Br(self.edge(from, &br.dest, phis)?),
            Terminator::CondBr(br) => T::CondBr {
                cond: self.op(&br.condition)?,
                if_true: self.edge(from, &br.true_dest, phis)?,
                if_false: self.edge(from, &br.false_dest, phis)?,
            },
            Terminator::Switch(sw) => {
                let ty = self.op_ty(&sw.operand)?;
                let Shape::Int(width) = self.shape(ty) else {
                    return Err(FrontendError::unsupported("switch on a non-integer value"));
                };
                let mut cases = Vec::with_capacity(sw.dests.len());
                for (c, dest) in &sw.dests {
                    let Const::Int { value, .. } = self.ctx.lower_const(c)? else {
                        return Err(FrontendError::unsupported(
                            "switch case that is not an integer constant",
                        ));
                    };
                    cases.push((value, self.edge(from, dest, phis)?));
                }
                T::Switch(Box::new(Switch {
                    value: self.op(&sw.operand)?,
                    width,
                    cases,
                    default: self.edge(from, &sw.default_dest, phis)?,
                }))
            }
            Terminator::Unreachable(_) => T::Unreachable,
            Terminator::IndirectBr(ib) => self.indirect_br(ib, from, phis)?,
            Terminator::CallBr(_) => {
                return Err(FrontendError::unsupported("`asm goto` (`callbr`)"))
            }
            other => {
                let text = other.to_string();
                let word = text.split_whitespace().next().unwrap_or("?").to_owned();
                return Err(FrontendError::unsupported(format!(
                    "exception-handling terminator `{word}`"
                )));
            }
        })
    }

    fn bin(
        &mut self,
        op: BinOp,
        b: &dyn llvm_ir::instruction::BinaryOp,
        key: (u32, u32),
        out: &mut Vec<Inst>,
    ) -> Result<()> {
        let flags = self
            .ctx
            .facts
            .flags
            .get(self.fname)
            .and_then(|f| f.get(&key))
            .copied()
            .unwrap_or_default();
        let dst = self.dst(b.get_result())?;
        let lhs = self.op(b.get_operand0())?;
        let rhs = self.op(b.get_operand1())?;
        match self.shape(self.slot_types[dst.0 as usize]) {
            Shape::Int(width) => out.push(Inst::Bin {
                op,
                flags,
                width,
                dst,
                lhs,
                rhs,
            }),
            Shape::Vector { elem_width, lanes } => {
                out.push(Inst::Vector(Box::new(VectorInst::Bin {
                    op,
                    flags,
                    elem_width,
                    lanes,
                    dst,
                    lhs,
                    rhs,
                })))
            }
            _ => {
                return Err(FrontendError::unsupported(
                    "arithmetic on a non-integer type",
                ))
            }
        }
        Ok(())
    }

    fn cast(
        &mut self,
        op: CastOp,
        c: &dyn llvm_ir::instruction::UnaryOp,
        out: &mut Vec<Inst>,
    ) -> Result<()> {
        let dst = self.dst(c.get_result())?;
        let src = self.op(c.get_operand())?;
        let from_ty = self.op_ty(c.get_operand())?;
        let (from, to) = (
            self.shape(from_ty),
            self.shape(self.slot_types[dst.0 as usize]),
        );
        let width = |s: Shape| match s {
            Shape::Int(w) => Some(w),
            Shape::Ptr => Some(64),
            _ => None,
        };
        match (from, to) {
            (
                Shape::Vector {
                    elem_width: f,
                    lanes,
                },
                Shape::Vector { elem_width: t, .. },
            ) => out.push(Inst::Vector(Box::new(VectorInst::Cast {
                op,
                from: f,
                to: t,
                lanes,
                dst,
                src,
            }))),
            _ => match (width(from), width(to)) {
                (Some(from), Some(to)) => out.push(Inst::Cast {
                    op,
                    from,
                    to,
                    dst,
                    src,
                }),
                _ => return Err(FrontendError::unsupported("conversion between these types")),
            },
        }
        Ok(())
    }

    pub(super) fn inst(
        &mut self,
        inst: &Instruction,
        key: (u32, u32),
        out: &mut Vec<Inst>,
    ) -> Result<()> {
        if let Some(e) = float_error(inst) {
            return Err(e);
        }
        match inst {
            Instruction::Add(b) => self.bin(BinOp::Add, b, key, out),
            Instruction::Sub(b) => self.bin(BinOp::Sub, b, key, out),
            Instruction::Mul(b) => self.bin(BinOp::Mul, b, key, out),
            Instruction::UDiv(b) => self.bin(BinOp::UDiv, b, key, out),
            Instruction::SDiv(b) => self.bin(BinOp::SDiv, b, key, out),
            Instruction::URem(b) => self.bin(BinOp::URem, b, key, out),
            Instruction::SRem(b) => self.bin(BinOp::SRem, b, key, out),
            Instruction::And(b) => self.bin(BinOp::And, b, key, out),
            Instruction::Or(b) => self.bin(BinOp::Or, b, key, out),
            Instruction::Xor(b) => self.bin(BinOp::Xor, b, key, out),
            Instruction::Shl(b) => self.bin(BinOp::Shl, b, key, out),
            Instruction::LShr(b) => self.bin(BinOp::LShr, b, key, out),
            Instruction::AShr(b) => self.bin(BinOp::AShr, b, key, out),
            Instruction::Trunc(c) => self.cast(CastOp::Trunc, c, out),
            Instruction::ZExt(c) => self.cast(CastOp::ZExt, c, out),
            Instruction::SExt(c) => self.cast(CastOp::SExt, c, out),
            Instruction::PtrToInt(c) => self.cast(CastOp::PtrToInt, c, out),
            Instruction::IntToPtr(c) => self.cast(CastOp::IntToPtr, c, out),
            Instruction::BitCast(c) => self.bitcast(c, out),
            Instruction::AddrSpaceCast(c) => {
                out.push(Inst::Copy {
                    dst: self.dst(&c.dest)?,
                    src: self.op(&c.operand)?,
                });
                Ok(())
            }
            Instruction::Freeze(f) => {
                out.push(Inst::Freeze {
                    dst: self.dst(&f.dest)?,
                    src: self.op(&f.operand)?,
                });
                Ok(())
            }
            Instruction::ICmp(c) => self.icmp(c, out),
            Instruction::Select(s) => self.select(s, out),
            Instruction::GetElementPtr(g) => self.gep(g, out),
            Instruction::Load(l) => self.load(l, out),
            Instruction::Store(s) => self.store(s, out),
            Instruction::Alloca(a) => self.alloca(a, out),
            Instruction::Call(c) => self.call(c, out),
            Instruction::ExtractValue(e) => {
                let agg_ty = self.op_ty(&e.aggregate)?;
                let (offset, ty) = self.aggregate_path(agg_ty, &e.indices)?;
                out.push(Inst::ExtractValue {
                    dst: self.dst(&e.dest)?,
                    agg: self.op(&e.aggregate)?,
                    offset,
                    ty,
                });
                Ok(())
            }
            Instruction::InsertValue(e) => {
                let agg_ty = self.op_ty(&e.aggregate)?;
                let (offset, ty) = self.aggregate_path(agg_ty, &e.indices)?;
                out.push(Inst::InsertValue {
                    dst: self.dst(&e.dest)?,
                    agg: self.op(&e.aggregate)?,
                    val: self.op(&e.element)?,
                    offset,
                    ty,
                });
                Ok(())
            }
            Instruction::ExtractElement(_)
            | Instruction::InsertElement(_)
            | Instruction::ShuffleVector(_) => self.vector_element(inst, out),
            Instruction::Phi(_) => Ok(()),
            // One thread: a fence orders nothing.
            Instruction::Fence(_) => Ok(()),
            Instruction::CmpXchg(c) => self.cmpxchg(c, out),
            Instruction::AtomicRMW(a) => self.atomic_rmw(a, out),
            Instruction::VAArg(_) => Err(FrontendError::unsupported("`va_arg` instruction")),
            _ => Err(FrontendError::unsupported(format!(
                "instruction `{}`",
                opcode_word(inst)
            ))),
        }
    }

    fn bitcast(&mut self, c: &llvm_ir::instruction::BitCast, out: &mut Vec<Inst>) -> Result<()> {
        let dst = self.dst(&c.dest)?;
        let src = self.op(&c.operand)?;
        let from = self.op_ty(&c.operand)?;
        let to = self.slot_types[dst.0 as usize];
        let (fs, ts) = (self.shape(from), self.shape(to));
        if from == to || (fs == Shape::Ptr && ts == Shape::Ptr) {
            out.push(Inst::Copy { dst, src });
        } else if matches!(fs, Shape::Vector { .. }) || matches!(ts, Shape::Vector { .. }) {
            out.push(Inst::Vector(Box::new(VectorInst::Bitcast {
                from,
                to,
                dst,
                src,
            })));
        } else {
            return Err(FrontendError::unsupported("bitcast between these types"));
        }
        Ok(())
    }

    fn icmp(&mut self, c: &llvm_ir::instruction::ICmp, out: &mut Vec<Inst>) -> Result<()> {
        let dst = self.dst(&c.dest)?;
        let (lhs, rhs) = (self.op(&c.operand0)?, self.op(&c.operand1)?);
        let pred = int_pred(c.predicate);
        let ty = self.op_ty(&c.operand0)?;
        match self.shape(ty) {
            Shape::Int(width) => out.push(Inst::ICmp {
                pred,
                width,
                dst,
                lhs,
                rhs,
            }),
            Shape::Ptr => out.push(Inst::ICmp {
                pred,
                width: 64,
                dst,
                lhs,
                rhs,
            }),
            Shape::Vector { elem_width, lanes } => {
                out.push(Inst::Vector(Box::new(VectorInst::ICmp {
                    pred,
                    elem_width,
                    lanes,
                    dst,
                    lhs,
                    rhs,
                })))
            }
            Shape::Other => return Err(FrontendError::unsupported("icmp on a non-integer type")),
        }
        Ok(())
    }

    fn select(&mut self, s: &llvm_ir::instruction::Select, out: &mut Vec<Inst>) -> Result<()> {
        let dst = self.dst(&s.dest)?;
        let cond = self.op(&s.condition)?;
        let (on_true, on_false) = (self.op(&s.true_value)?, self.op(&s.false_value)?);
        let cond_ty = self.op_ty(&s.condition)?;
        match self.shape(self.slot_types[dst.0 as usize]) {
            Shape::Vector { elem_width, lanes } => {
                out.push(Inst::Vector(Box::new(VectorInst::Select {
                    elem_width,
                    lanes,
                    dst,
                    cond,
                    on_true,
                    on_false,
                })))
            }
            _ if cond_ty == TypeId::I1 => out.push(Inst::Select {
                dst,
                cond,
                on_true,
                on_false,
            }),
            _ => {
                return Err(FrontendError::unsupported(
                    "select with a vector condition on scalars",
                ))
            }
        }
        Ok(())
    }

    fn gep(&mut self, g: &llvm_ir::instruction::GetElementPtr, out: &mut Vec<Inst>) -> Result<()> {
        let dst = self.dst(&g.dest)?;
        if self.shape(self.slot_types[dst.0 as usize]) != Shape::Ptr {
            return Err(FrontendError::unsupported("vector GEP"));
        }
        let source = self.ctx.ty(&g.source_element_type)?;
        let mut known = Vec::with_capacity(g.indices.len());
        for idx in &g.indices {
            known.push(match idx {
                // An index that is an address as an integer (`ptrtoint @g`) is computed at run
                // time, as a register index is.
                llvm_ir::Operand::ConstantOperand(c) => match self.ctx.lower_const(c) {
                    Ok(Const::Int { width, value }) => Some(sext(value, width) as i64),
                    _ => None,
                },
                _ => None,
            });
        }
        let steps = walk_indices(self.ctx, source, &known)?;
        let mut offset = 0i64;
        let mut indices = Vec::new();
        for ((step, k), idx) in steps.iter().zip(&known).zip(&g.indices) {
            match (step, k) {
                (_, Some(k)) => offset = offset.wrapping_add(step.offset_for(*k)),
                (Step::Scale(scale), None) => {
                    let ty = self.op_ty(idx)?;
                    let Shape::Int(width) = self.shape(ty) else {
                        return Err(FrontendError::unsupported("vector GEP index"));
                    };
                    indices.push(GepIndex {
                        index: self.op(idx)?,
                        width,
                        scale: *scale,
                    });
                }
                (Step::Fixed(_), None) => {
                    return Err(FrontendError::unsupported(
                        "GEP with a non-constant struct index",
                    ))
                }
            }
        }
        out.push(Inst::Gep {
            dst,
            base: self.op(&g.address)?,
            offset,
            indices: indices.into_boxed_slice(),
            inbounds: g.in_bounds,
        });
        Ok(())
    }

    fn load(&mut self, l: &llvm_ir::instruction::Load, out: &mut Vec<Inst>) -> Result<()> {
        let dst = self.dst(&l.dest)?;
        let ty = self.slot_types[dst.0 as usize];
        let (size, align) = self.access(ty, l.alignment)?;
        out.push(Inst::Load {
            dst,
            ptr: self.op(&l.address)?,
            ty,
            size,
            align,
            volatile: l.volatile,
            promoted: None,
        });
        Ok(())
    }

    fn store(&mut self, s: &llvm_ir::instruction::Store, out: &mut Vec<Inst>) -> Result<()> {
        let ty = self.op_ty(&s.value)?;
        let (size, align) = self.access(ty, s.alignment)?;
        out.push(Inst::Store {
            ptr: self.op(&s.address)?,
            val: self.op(&s.value)?,
            ty,
            size,
            align,
            volatile: s.volatile,
            promoted: None,
        });
        Ok(())
    }

    /// Bytes touched and alignment of a memory access of type `ty`.
    pub(super) fn access(&self, ty: TypeId, explicit_align: u32) -> Result<(u32, u32)> {
        let info = self.ctx.info(ty);
        if let TypeKind::Vector { elem, .. } = info.kind {
            if self.ctx.info(elem).kind == TypeKind::Int(1) {
                return Err(FrontendError::unsupported(
                    "memory access to a vector of i1",
                ));
            }
        }
        let size = u32::try_from(info.store_size)
            .map_err(|_| FrontendError::unsupported("load or store of more than 4 GiB"))?;
        let align = if explicit_align == 0 {
            info.align as u32
        } else {
            explicit_align
        };
        Ok((size, align))
    }

    fn alloca(&mut self, a: &llvm_ir::instruction::Alloca, out: &mut Vec<Inst>) -> Result<()> {
        let dst = self.dst(&a.dest)?;
        if let Name::Name(n) = &a.dest {
            self.allocas.push((dst, n.to_string()));
        }
        let ty = self.ctx.ty(&a.allocated_type)?;
        let info = self.ctx.info(ty).clone();
        let align = if a.alignment == 0 {
            info.align as u32
        } else {
            a.alignment
        };
        let (mut elem_size, mut count, mut count_width) = (info.alloc_size, None, 0);
        match &a.num_elements {
            llvm_ir::Operand::ConstantOperand(c) => match self.ctx.lower_const(c)? {
                Const::Int { value, .. } => {
                    elem_size = elem_size.checked_mul(value as u64).ok_or_else(|| {
                        FrontendError::unsupported("alloca larger than the address space")
                    })?
                }
                _ => {
                    return Err(FrontendError::unsupported(
                        "alloca with a non-integer count",
                    ))
                }
            },
            other => {
                let cty = self.op_ty(other)?;
                let Shape::Int(w) = self.shape(cty) else {
                    return Err(FrontendError::unsupported(
                        "alloca with a non-integer count",
                    ));
                };
                count = Some(self.op(other)?);
                count_width = w;
            }
        }
        out.push(Inst::Alloca {
            dst,
            ty,
            elem_size,
            count,
            count_width,
            align,
        });
        Ok(())
    }

    /// Byte offset and type of the field `indices` selects in an aggregate of type `agg`.
    pub(super) fn aggregate_path(&self, agg: TypeId, indices: &[u32]) -> Result<(u32, TypeId)> {
        let mut offset = 0u64;
        let mut cur = agg;
        for &i in indices {
            match &self.ctx.info(cur).kind {
                TypeKind::Struct {
                    fields, offsets, ..
                } if (i as usize) < fields.len() => {
                    offset += offsets[i as usize];
                    cur = fields[i as usize];
                }
                TypeKind::Array { elem, len } if u64::from(i) < *len => {
                    offset += u64::from(i) * self.ctx.info(*elem).alloc_size;
                    cur = *elem;
                }
                _ => {
                    return Err(FrontendError::unsupported(
                        "extractvalue/insertvalue with a bad index",
                    ))
                }
            }
        }
        let offset = u32::try_from(offset)
            .map_err(|_| FrontendError::unsupported("aggregate larger than 4 GiB"))?;
        Ok((offset, cur))
    }

    fn vector_element(&mut self, inst: &Instruction, out: &mut Vec<Inst>) -> Result<()> {
        let v = match inst {
            Instruction::ExtractElement(e) => {
                let vty = self.op_ty(&e.vector)?;
                let ity = self.op_ty(&e.index)?;
                let (Shape::Vector { elem_width, lanes }, Shape::Int(index_width)) =
                    (self.shape(vty), self.shape(ity))
                else {
                    return Err(FrontendError::unsupported("extractelement on these types"));
                };
                VectorInst::ExtractElement {
                    elem_width,
                    lanes,
                    dst: self.dst(&e.dest)?,
                    vec: self.op(&e.vector)?,
                    index: self.op(&e.index)?,
                    index_width,
                }
            }
            Instruction::InsertElement(e) => {
                let vty = self.op_ty(&e.vector)?;
                let ity = self.op_ty(&e.index)?;
                let (Shape::Vector { elem_width, lanes }, Shape::Int(index_width)) =
                    (self.shape(vty), self.shape(ity))
                else {
                    return Err(FrontendError::unsupported("insertelement on these types"));
                };
                VectorInst::InsertElement {
                    elem_width,
                    lanes,
                    dst: self.dst(&e.dest)?,
                    vec: self.op(&e.vector)?,
                    elem: self.op(&e.element)?,
                    index: self.op(&e.index)?,
                    index_width,
                }
            }
            Instruction::ShuffleVector(s) => {
                let vty = self.op_ty(&s.operand0)?;
                let Shape::Vector {
                    elem_width,
                    lanes: lanes_in,
                } = self.shape(vty)
                else {
                    return Err(FrontendError::unsupported("shufflevector on these types"));
                };
                let mask = self.shuffle_mask(&s.mask)?;
                VectorInst::Shuffle {
                    elem_width,
                    lanes_in,
                    dst: self.dst(&s.dest)?,
                    a: self.op(&s.operand0)?,
                    b: self.op(&s.operand1)?,
                    mask,
                }
            }
            _ => {
                return Err(FrontendError::unsupported(format!(
                    "instruction `{}`",
                    opcode_word(inst)
                )))
            }
        };
        out.push(Inst::Vector(Box::new(v)));
        Ok(())
    }

    fn shuffle_mask(&mut self, mask: &llvm_ir::ConstantRef) -> Result<Vec<Option<u32>>> {
        let lanes = match self.ctx.llm.type_of(mask).as_ref() {
            llvm_ir::Type::VectorType { num_elements, .. } => *num_elements,
            _ => return Err(FrontendError::unsupported("shufflevector mask")),
        };
        match mask.as_ref() {
            Constant::Vector(elems) => elems
                .iter()
                .map(|e| match e.as_ref() {
                    Constant::Int { value, .. } => Ok(Some(*value as u32)),
                    Constant::Undef(_) | Constant::Poison(_) => Ok(None),
                    _ => Err(FrontendError::unsupported("shufflevector mask element")),
                })
                .collect(),
            Constant::AggregateZero(_) => Ok(vec![Some(0); lanes]),
            Constant::Undef(_) | Constant::Poison(_) => Ok(vec![None; lanes]),
            _ => Err(FrontendError::unsupported("shufflevector mask")),
        }
    }
}

/// The error for a floating-point instruction (`None` for the others).
fn float_error(inst: &Instruction) -> Option<FrontendError> {
    match inst {
        Instruction::FAdd(_)
        | Instruction::FSub(_)
        | Instruction::FMul(_)
        | Instruction::FDiv(_)
        | Instruction::FRem(_)
        | Instruction::FNeg(_)
        | Instruction::FPTrunc(_)
        | Instruction::FPExt(_)
        | Instruction::FPToUI(_)
        | Instruction::FPToSI(_)
        | Instruction::UIToFP(_)
        | Instruction::SIToFP(_)
        | Instruction::FCmp(_) => Some(FrontendError::unsupported(format!(
            "floating-point instruction `{}`",
            opcode_word(inst)
        ))),
        _ => None,
    }
}

/// The LLVM opcode of an instruction, for messages.
pub(crate) fn opcode_word(inst: &Instruction) -> String {
    let text = inst.to_string();
    let after_eq = text.split_once(" = ").map(|(_, r)| r).unwrap_or(&text);
    after_eq.split_whitespace().next().unwrap_or("?").to_owned()
}
