//! Constants: folding LLVM constant expressions into [`Const`]s and laying out initializers as
//! byte images with relocations ([`ConstData`]).

use super::Ctx;
use crate::error::{FrontendError, Result};
use crate::ir::*;
use llvm_ir::constant::Constant;
use llvm_ir::{ConstantRef, IntPredicate};

pub(crate) fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// The two's-complement reading of a `width`-bit value.
pub(crate) fn sext(value: u128, width: u32) -> i128 {
    let shift = 128 - width.clamp(1, 128);
    ((value << shift) as i128) >> shift
}

fn int(width: u32, value: u128) -> Const {
    Const::Int {
        width,
        value: value & mask(width),
    }
}

/// Evaluates an integer binary constant expression; `None` when it is undefined (division by
/// zero, over-wide shift), which the caller reports.
pub(crate) fn fold_bin(op: BinOp, width: u32, a: u128, b: u128) -> Option<u128> {
    let (sa, sb) = (sext(a, width), sext(b, width));
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::UDiv => a.checked_div(b)?,
        BinOp::URem => a.checked_rem(b)?,
        BinOp::SDiv => sa.checked_div(sb)? as u128,
        BinOp::SRem => sa.checked_rem(sb)? as u128,
        BinOp::Shl if b < u128::from(width) => a << b,
        BinOp::LShr if b < u128::from(width) => a >> b,
        BinOp::AShr if b < u128::from(width) => (sa >> b) as u128,
        BinOp::Shl | BinOp::LShr | BinOp::AShr => return None,
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
    };
    Some(r & mask(width))
}

pub(crate) fn fold_icmp(pred: IntPred, width: u32, a: u128, b: u128) -> bool {
    let (sa, sb) = (sext(a, width), sext(b, width));
    match pred {
        IntPred::Eq => a == b,
        IntPred::Ne => a != b,
        IntPred::Ugt => a > b,
        IntPred::Uge => a >= b,
        IntPred::Ult => a < b,
        IntPred::Ule => a <= b,
        IntPred::Sgt => sa > sb,
        IntPred::Sge => sa >= sb,
        IntPred::Slt => sa < sb,
        IntPred::Sle => sa <= sb,
    }
}

pub(crate) fn int_pred(p: IntPredicate) -> IntPred {
    match p {
        IntPredicate::EQ => IntPred::Eq,
        IntPredicate::NE => IntPred::Ne,
        IntPredicate::UGT => IntPred::Ugt,
        IntPredicate::UGE => IntPred::Uge,
        IntPredicate::ULT => IntPred::Ult,
        IntPredicate::ULE => IntPred::Ule,
        IntPredicate::SGT => IntPred::Sgt,
        IntPredicate::SGE => IntPred::Sge,
        IntPredicate::SLT => IntPred::Slt,
        IntPredicate::SLE => IntPred::Sle,
    }
}

fn unsupported_expr(c: &Constant) -> FrontendError {
    let text = c.to_string();
    let short: String = text.chars().take(120).collect();
    FrontendError::unsupported(format!("constant expression `{short}`"))
}

impl Ctx<'_> {
    /// The pool id of an operand constant.
    pub fn const_id(&mut self, c: &ConstantRef) -> Result<ConstId> {
        let k = self.lower_const(c)?;
        Ok(self.intern_const(k))
    }

    /// Bits of a pointer on the target (64 or 32).
    fn pointer_bits(&self) -> u32 {
        self.types.pointer_bytes() as u32 * 8
    }

    /// The bits of an integer that survive a conversion to a pointer.
    fn pointer_mask(&self) -> u128 {
        (1u128 << self.pointer_bits()) - 1
    }

    fn width_of(&mut self, ty: &llvm_ir::TypeRef) -> Result<u32> {
        let id = self.ty(ty)?;
        match self.info(id).kind {
            TypeKind::Int(w) => Ok(w),
            TypeKind::Ptr => Ok(64),
            _ => Err(FrontendError::unsupported(format!(
                "non-integer constant of type `{ty}`"
            ))),
        }
    }

    /// Folds a constant to a [`Const`].
    pub fn lower_const(&mut self, c: &ConstantRef) -> Result<Const> {
        let llm = self.llm;
        Ok(match c.as_ref() {
            Constant::Int { bits, value } => {
                if *bits > 128 {
                    return Err(FrontendError::unsupported(format!(
                        "integer constant of type i{bits} (at most 128 bits are supported)"
                    )));
                }
                let full = if *bits > 64 {
                    self.resolve_wide(*bits, *value)?
                } else {
                    u128::from(*value)
                };
                int(*bits, full)
            }
            Constant::Null(_) => Const::Null,
            Constant::AggregateZero(ty) | Constant::Undef(ty) | Constant::Poison(ty) => {
                let id = self.ty(ty)?;
                let is_undef = !matches!(c.as_ref(), Constant::AggregateZero(_));
                match (&self.info(id).kind, is_undef) {
                    (_, true) => Const::Undef(id),
                    (TypeKind::Int(w), false) => int(*w, 0),
                    (TypeKind::Ptr, false) => Const::Null,
                    (_, false) => Const::Aggregate {
                        ty: id,
                        data: ConstData {
                            bytes: vec![0; self.info(id).store_size as usize],
                            relocs: Vec::new(),
                        },
                    },
                }
            }
            Constant::Struct { .. } | Constant::Array { .. } | Constant::Vector(_) => {
                let id = self.ty(&llm.type_of(c))?;
                Const::Aggregate {
                    ty: id,
                    data: self.const_data(c, id)?,
                }
            }
            Constant::GlobalReference { name, .. } if self.null_symbols.contains(name) => {
                Const::Null
            }
            Constant::GlobalReference { name, .. } => match self.symbols.get(name) {
                Some(&base) => Const::Addr { base, offset: 0 },
                None => {
                    return Err(FrontendError::unsupported(format!(
                        "reference to `@{}` (an alias or an unknown symbol)",
                        super::name_str(name)
                    )))
                }
            },
            Constant::Float(_) => {
                return Err(FrontendError::unsupported(format!(
                    "floating-point constant `{c}`"
                )))
            }
            Constant::BlockAddress => self.label_address()?,
            Constant::GetElementPtr(g) => self.fold_gep(g)?,
            Constant::BitCast(cast) => self.fold_cast_same(&cast.operand, &cast.to_type, c)?,
            Constant::AddrSpaceCast(cast) => {
                self.fold_cast_same(&cast.operand, &cast.to_type, c)?
            }
            Constant::PtrToInt(cast) => {
                let width = self.width_of(&cast.to_type)?;
                match self.lower_const(&cast.operand)? {
                    Const::Null => int(width, 0),
                    Const::Int { value, .. } => int(width, value),
                    Const::Addr { base, offset } => Const::AddrAsInt {
                        base,
                        offset,
                        width,
                    },
                    _ => return Err(unsupported_expr(c)),
                }
            }
            Constant::IntToPtr(cast) => match self.lower_const(&cast.operand)? {
                Const::Int { value: 0, .. } => Const::Null,
                // An absolute address: a 64-bit integer in a pointer position (see `Const::Int`), cut to the
                // target's pointer width as `inttoptr` does.
                Const::Int { value, .. } => int(64, value & self.pointer_mask()),
                // An address that went through an integer at least as wide as a pointer is unchanged.
                Const::AddrAsInt {
                    base,
                    offset,
                    width,
                } if width >= self.pointer_bits() => Const::Addr { base, offset },
                _ => return Err(unsupported_expr(c)),
            },
            Constant::Trunc(t) => self.fold_int_cast(&t.operand, &t.to_type, CastOp::Trunc, c)?,
            Constant::ZExt(t) => self.fold_int_cast(&t.operand, &t.to_type, CastOp::ZExt, c)?,
            Constant::SExt(t) => self.fold_int_cast(&t.operand, &t.to_type, CastOp::SExt, c)?,
            Constant::ICmp(i) => {
                self.fold_const_icmp(int_pred(i.predicate), &i.operand0, &i.operand1, c)?
            }
            Constant::Select(s) => match self.lower_const(&s.condition)? {
                Const::Int { value, .. } => self.lower_const(if value != 0 {
                    &s.true_value
                } else {
                    &s.false_value
                })?,
                _ => return Err(unsupported_expr(c)),
            },
            Constant::Add(b) => self.fold_const_bin(BinOp::Add, &b.operand0, &b.operand1, c)?,
            Constant::Sub(b) => self.fold_const_bin(BinOp::Sub, &b.operand0, &b.operand1, c)?,
            Constant::Mul(b) => self.fold_const_bin(BinOp::Mul, &b.operand0, &b.operand1, c)?,
            Constant::UDiv(b) => self.fold_const_bin(BinOp::UDiv, &b.operand0, &b.operand1, c)?,
            Constant::SDiv(b) => self.fold_const_bin(BinOp::SDiv, &b.operand0, &b.operand1, c)?,
            Constant::URem(b) => self.fold_const_bin(BinOp::URem, &b.operand0, &b.operand1, c)?,
            Constant::SRem(b) => self.fold_const_bin(BinOp::SRem, &b.operand0, &b.operand1, c)?,
            Constant::And(b) => self.fold_const_bin(BinOp::And, &b.operand0, &b.operand1, c)?,
            Constant::Or(b) => self.fold_const_bin(BinOp::Or, &b.operand0, &b.operand1, c)?,
            Constant::Xor(b) => self.fold_const_bin(BinOp::Xor, &b.operand0, &b.operand1, c)?,
            Constant::Shl(b) => self.fold_const_bin(BinOp::Shl, &b.operand0, &b.operand1, c)?,
            Constant::LShr(b) => self.fold_const_bin(BinOp::LShr, &b.operand0, &b.operand1, c)?,
            Constant::AShr(b) => self.fold_const_bin(BinOp::AShr, &b.operand0, &b.operand1, c)?,
            Constant::FAdd(_)
            | Constant::FSub(_)
            | Constant::FMul(_)
            | Constant::FDiv(_)
            | Constant::FRem(_)
            | Constant::FPTrunc(_)
            | Constant::FPExt(_)
            | Constant::FPToUI(_)
            | Constant::FPToSI(_)
            | Constant::UIToFP(_)
            | Constant::SIToFP(_)
            | Constant::FCmp(_) => {
                return Err(FrontendError::unsupported(format!(
                    "floating-point constant expression `{c}`"
                )))
            }
            _ => return Err(unsupported_expr(c)),
        })
    }

    fn fold_cast_same(
        &mut self,
        op: &ConstantRef,
        to: &llvm_ir::TypeRef,
        whole: &Constant,
    ) -> Result<Const> {
        let from = self.ty(&self.llm.type_of(op))?;
        let to = self.ty(to)?;
        if from == to {
            return self.lower_const(op);
        }
        Err(unsupported_expr(whole))
    }

    fn fold_int_cast(
        &mut self,
        op: &ConstantRef,
        to: &llvm_ir::TypeRef,
        cast: CastOp,
        whole: &Constant,
    ) -> Result<Const> {
        let to_w = self.width_of(to)?;
        match (self.lower_const(op)?, cast) {
            (Const::Int { width, value }, CastOp::SExt) => {
                Ok(int(to_w, sext(value, width) as u128))
            }
            (Const::Int { value, .. }, _) => Ok(int(to_w, value)),
            (
                Const::AddrAsInt {
                    base,
                    offset,
                    width,
                },
                CastOp::Trunc | CastOp::ZExt,
            ) if to_w <= width => Ok(Const::AddrAsInt {
                base,
                offset,
                width: to_w,
            }),
            _ => Err(unsupported_expr(whole)),
        }
    }

    fn fold_const_bin(
        &mut self,
        op: BinOp,
        a: &ConstantRef,
        b: &ConstantRef,
        whole: &Constant,
    ) -> Result<Const> {
        match (self.lower_const(a)?, self.lower_const(b)?) {
            (Const::Int { width, value: x }, Const::Int { value: y, .. }) => {
                fold_bin(op, width, x, y)
                    .map(|v| int(width, v))
                    .ok_or_else(|| unsupported_expr(whole))
            }
            (
                Const::AddrAsInt {
                    base,
                    offset,
                    width,
                },
                Const::Int { value, .. },
            ) if matches!(op, BinOp::Add | BinOp::Sub) => {
                let d = sext(value, width) as i64;
                let offset = if op == BinOp::Add {
                    offset.wrapping_add(d)
                } else {
                    offset.wrapping_sub(d)
                };
                Ok(Const::AddrAsInt {
                    base,
                    offset,
                    width,
                })
            }
            (
                Const::AddrAsInt {
                    base: b1,
                    offset: o1,
                    width,
                },
                Const::AddrAsInt {
                    base: b2,
                    offset: o2,
                    ..
                },
            ) if op == BinOp::Sub && b1 == b2 => {
                Ok(int(width, o1.wrapping_sub(o2) as i128 as u128))
            }
            _ => Err(unsupported_expr(whole)),
        }
    }

    fn fold_const_icmp(
        &mut self,
        pred: IntPred,
        a: &ConstantRef,
        b: &ConstantRef,
        whole: &Constant,
    ) -> Result<Const> {
        let truth = |t: bool| int(1, u128::from(t));
        let eq_only = |equal: bool| match pred {
            IntPred::Eq => Some(equal),
            IntPred::Ne => Some(!equal),
            _ => None,
        };
        // Null and absolute addresses compare as the integers they are.
        let as_int = |k: Const| match k {
            Const::Null => int(64, 0),
            k => k,
        };
        let result = match (as_int(self.lower_const(a)?), as_int(self.lower_const(b)?)) {
            (Const::Int { width, value: x }, Const::Int { value: y, .. }) => {
                Some(fold_icmp(pred, width, x, y))
            }
            // Globals and functions are never at address zero.
            (Const::Addr { .. }, Const::Int { value: 0, .. })
            | (Const::Int { value: 0, .. }, Const::Addr { .. }) => eq_only(false),
            (
                Const::Addr {
                    base: b1,
                    offset: o1,
                },
                Const::Addr {
                    base: b2,
                    offset: o2,
                },
            ) => {
                if b1 == b2 {
                    Some(fold_icmp(pred, 64, o1 as u64 as u128, o2 as u64 as u128))
                } else {
                    eq_only(false)
                }
            }
            _ => None,
        };
        result.map(truth).ok_or_else(|| unsupported_expr(whole))
    }

    fn fold_gep(&mut self, g: &llvm_ir::constant::GetElementPtr) -> Result<Const> {
        let addr_ty = self.llm.type_of(&g.address);
        let source = match addr_ty.as_ref() {
            llvm_ir::Type::PointerType { pointee_type, .. } => pointee_type.clone(),
            _ => {
                return Err(FrontendError::unsupported(format!(
                    "vector constant GEP on `{addr_ty}`"
                )))
            }
        };
        let source = self.ty(&source)?;
        if let Some(k) = self.fold_null_plus_address(g, source)? {
            return Ok(k);
        }
        let indices = g
            .indices
            .iter()
            .map(|i| match self.lower_const(i)? {
                Const::Int { width, value } => Ok(sext(value, width) as i64),
                _ => Err(FrontendError::unsupported(
                    "non-integer index in a constant GEP",
                )),
            })
            .collect::<Result<Vec<_>>>()?;
        let mut offset = 0i64;
        let known: Vec<Option<i64>> = indices.iter().map(|&i| Some(i)).collect();
        let steps = super::gep::walk_indices(self, source, &known)?;
        for (step, idx) in steps.iter().zip(&indices) {
            offset = offset.wrapping_add(step.offset_for(*idx));
        }
        Ok(match self.lower_const(&g.address)? {
            Const::Addr { base, offset: o } => Const::Addr {
                base,
                offset: o.wrapping_add(offset),
            },
            Const::Null if offset == 0 => Const::Null,
            // `&((T *)0)->field` and friends: an absolute address.
            Const::Null => int(64, offset as u64 as u128),
            Const::Int { value, .. } => int(64, value.wrapping_add(offset as u64 as u128)),
            _ => return Err(FrontendError::unsupported("constant GEP on a non-address")),
        })
    }

    /// `&((char *)0)[(long)&g + k]`: null advanced by an address as an integer, one byte per unit, is
    /// that address (`getelementptr (i8, i8* null, i64 ptrtoint (@g))`, KLEE's
    /// `2008-05-23-gep-with-global-const`). Anything else with such an index is computed at run time.
    fn fold_null_plus_address(
        &mut self,
        g: &llvm_ir::constant::GetElementPtr,
        source: TypeId,
    ) -> Result<Option<Const>> {
        let [index] = g.indices.as_slice() else {
            return Ok(None);
        };
        if self.info(source).store_size != 1
            || !matches!(self.lower_const(&g.address)?, Const::Null)
        {
            return Ok(None);
        }
        Ok(match self.lower_const(index)? {
            Const::AddrAsInt {
                base,
                offset,
                width,
            } if width >= self.pointer_bits() => Some(Const::Addr { base, offset }),
            _ => None,
        })
    }

    /// The in-memory image of a constant of IR type `ty`, every byte of it (a value).
    pub fn const_data(&mut self, c: &ConstantRef, ty: TypeId) -> Result<ConstData> {
        let mut data = self.global_image(c, ty)?;
        data.bytes.resize(self.info(ty).store_size as usize, 0);
        Ok(data)
    }

    /// The image of a global's initializer up to its last non-zero byte or pointer: the zero tail of
    /// a large zero-initialised array is never materialised.
    pub fn global_image(&mut self, c: &ConstantRef, ty: TypeId) -> Result<ConstData> {
        let mut data = ConstData::default();
        self.write_const(c, ty, 0, &mut data)?;
        Ok(data)
    }

    fn write_const(
        &mut self,
        c: &ConstantRef,
        ty: TypeId,
        off: u64,
        data: &mut ConstData,
    ) -> Result<()> {
        match c.as_ref() {
            Constant::AggregateZero(_)
            | Constant::Undef(_)
            | Constant::Poison(_)
            | Constant::Null(_) => Ok(()),
            Constant::Struct { values, .. } => {
                let TypeKind::Struct {
                    fields, offsets, ..
                } = self.info(ty).kind.clone()
                else {
                    return Err(FrontendError::unsupported(format!(
                        "struct constant of non-struct type `{c}`"
                    )));
                };
                for ((v, f), o) in values.iter().zip(fields).zip(offsets) {
                    self.write_const(v, f, off + o, data)?;
                }
                Ok(())
            }
            Constant::Array { elements, .. } | Constant::Vector(elements) => {
                let (elem, step) = match self.info(ty).kind {
                    TypeKind::Array { elem, .. } => (elem, self.info(elem).alloc_size),
                    TypeKind::Vector { elem, .. } if self.info(elem).kind != TypeKind::Int(1) => {
                        (elem, self.info(elem).store_size)
                    }
                    _ => {
                        return Err(FrontendError::unsupported(format!(
                            "constant `{c}` in memory"
                        )))
                    }
                };
                for (i, e) in elements.iter().enumerate() {
                    self.write_const(e, elem, off + step * i as u64, data)?;
                }
                Ok(())
            }
            _ => {
                let k = self.lower_const(c)?;
                let size = self.info(ty).store_size;
                write_scalar(&k, off, size, data)
            }
        }
    }
}

/// Writes a folded scalar (or nested aggregate) constant at `off`. Zeros are not written: the
/// image grows only as far as its last non-zero byte or pointer.
fn write_scalar(k: &Const, off: u64, size: u64, data: &mut ConstData) -> Result<()> {
    let grow = |data: &mut ConstData, end: u64| {
        if data.bytes.len() < end as usize {
            data.bytes.resize(end as usize, 0);
        }
    };
    match k {
        Const::Int { value: 0, .. } | Const::Null | Const::Undef(_) => {}
        Const::Int { value, .. } => {
            let bytes = value.to_le_bytes();
            grow(data, off + size);
            data.bytes[off as usize..(off + size) as usize]
                .copy_from_slice(&bytes[..size as usize]);
        }
        // A pointer field: as wide as the target's pointers (`size` is their store size); its bytes
        // are part of the stored image so that relocation has somewhere to write.
        Const::Addr { base, offset } | Const::AddrAsInt { base, offset, .. } => {
            grow(data, off + size);
            data.relocs.push(Reloc {
                offset: off,
                target: *base,
                addend: *offset,
                width: size as u32,
            })
        }
        Const::Aggregate { data: inner, .. } => {
            let n = inner.significant_len();
            if n > 0 {
                grow(data, off + n as u64);
                data.bytes[off as usize..off as usize + n].copy_from_slice(&inner.bytes[..n]);
            }
            data.relocs.extend(inner.relocs.iter().map(|r| Reloc {
                offset: r.offset + off,
                ..*r
            }));
        }
    }
    Ok(())
}
