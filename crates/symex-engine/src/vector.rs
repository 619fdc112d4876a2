//! Vector instructions (clang emits them when it vectorises, e.g. at -O2). A vector value is the memory
//! image of its lanes (lane `i` at byte `i * lane_bytes`; `i1` lanes take one byte each), so vectors move
//! through loads, stores and phis like any aggregate; every lane operation reuses the scalar semantics.

use crate::bug::End;
use crate::domain::{self, Decision, Domain, UnOp};
use crate::exec::{map_pred, unsupported};
use crate::program::Program;
use crate::state::State;
use std::rc::Rc;
use symex_ir as ir;
use symex_ir::{Intrinsic, Operand, ReduceOp, Slot, VectorInst};

fn lane_bytes(w: u32) -> usize {
    (w as usize).div_ceil(8)
}

impl<D: Domain> State<D> {
    /// The lanes of a vector operand.
    fn lanes(&mut self, prog: &Program, op: Operand, w: u32, n: u32) -> Vec<D::Val> {
        let lb = lane_bytes(w);
        let ty = match op {
            Operand::Slot(s) => self.slot_type(prog, s),
            Operand::Const(_) => ir::TypeId::VOID,
        };
        let bytes = match (op, prog.width(ty)) {
            (Operand::Slot(_), Some(_)) => None,
            _ => Some(self.agg_val_sized(prog, op, lb * n as usize)),
        };
        match bytes {
            Some(b) => (0..n as usize)
                .map(|i| self.dom.bytes_to_val(&b[i * lb..(i + 1) * lb], w))
                .collect(),
            // A one-lane vector can live in a scalar slot.
            None => vec![self.val(op)],
        }
    }

    /// An aggregate operand's image, zero-padded or cut to `n` bytes.
    fn agg_val_sized(&mut self, prog: &Program, op: Operand, n: usize) -> Rc<[D::Byte]> {
        let ty = match op {
            Operand::Slot(s) => self.slot_type(prog, s),
            Operand::Const(_) => ir::TypeId::VOID,
        };
        let v = self.agg_val(prog, op, ty);
        if v.len() == n {
            return v;
        }
        let zero = self.dom.const_byte(0);
        (0..n)
            .map(|i| v.get(i).cloned().unwrap_or_else(|| zero.clone()))
            .collect()
    }

    fn set_lanes(&mut self, dst: Slot, w: u32, lanes: &[D::Val]) {
        let lb = lane_bytes(w);
        let mut bytes: Vec<D::Byte> = (0..lb * lanes.len())
            .map(|_| self.dom.const_byte(0))
            .collect();
        for (i, v) in lanes.iter().enumerate() {
            self.dom
                .val_to_bytes(v, w, &mut bytes[i * lb..(i + 1) * lb]);
        }
        self.frame_mut()
            .expect("a frame")
            .set_agg(dst, bytes.into());
    }

    pub(crate) fn exec_vector(&mut self, prog: &Program, v: &VectorInst) -> Result<(), End> {
        match v {
            VectorInst::Bin {
                op,
                flags,
                elem_width: w,
                lanes: n,
                dst,
                lhs,
                rhs,
            } => {
                let (a, b) = (
                    self.lanes(prog, *lhs, *w, *n),
                    self.lanes(prog, *rhs, *w, *n),
                );
                let mut out = Vec::with_capacity(a.len());
                for (x, y) in a.iter().zip(&b) {
                    out.push(self.binary(prog, *op, *flags, *w, x, y)?);
                }
                self.set_lanes(*dst, *w, &out);
            }
            VectorInst::ICmp {
                pred,
                elem_width: w,
                lanes: n,
                dst,
                lhs,
                rhs,
            } => {
                let (a, b) = (
                    self.lanes(prog, *lhs, *w, *n),
                    self.lanes(prog, *rhs, *w, *n),
                );
                let out: Vec<_> = a
                    .iter()
                    .zip(&b)
                    .map(|(x, y)| self.dom.cmp(map_pred(*pred), *w, x, y))
                    .collect();
                self.set_lanes(*dst, 1, &out);
            }
            VectorInst::Cast {
                op,
                from,
                to,
                lanes: n,
                dst,
                src,
            } => {
                let a = self.lanes(prog, *src, *from, *n);
                let out: Vec<_> = a.iter().map(|x| self.cast(*op, *from, *to, x)).collect();
                self.set_lanes(*dst, *to, &out);
            }
            VectorInst::Select {
                elem_width: w,
                lanes: n,
                dst,
                cond,
                on_true,
                on_false,
            } => {
                let c = match cond {
                    Operand::Slot(s) if prog.width(self.slot_type(prog, *s)) == Some(1) => {
                        vec![self.val(*cond); *n as usize]
                    }
                    _ => self.lanes(prog, *cond, 1, *n),
                };
                let (a, b) = (
                    self.lanes(prog, *on_true, *w, *n),
                    self.lanes(prog, *on_false, *w, *n),
                );
                let out: Vec<_> = (0..*n as usize)
                    .map(|i| self.dom.ite(&c[i], *w, &a[i], &b[i]))
                    .collect();
                self.set_lanes(*dst, *w, &out);
            }
            VectorInst::LaneIntrinsic {
                op,
                lanes: n,
                dst,
                args,
            } => {
                let w = lane_intrinsic_width(*op)
                    .ok_or_else(|| unsupported(self, prog, format!("vector intrinsic {op:?}")))?;
                let cols: Vec<Vec<D::Val>> =
                    args.iter().map(|a| self.lanes(prog, *a, w, *n)).collect();
                let mut out = Vec::with_capacity(*n as usize);
                for i in 0..*n as usize {
                    let lane: Vec<D::Val> = cols.iter().map(|c| c[i].clone()).collect();
                    out.push(self.lane_intrinsic(prog, *op, w, &lane)?);
                }
                self.set_lanes(*dst, w, &out);
            }
            VectorInst::ExtractElement {
                elem_width: w,
                lanes: n,
                dst,
                vec,
                index,
                index_width,
            } => {
                let lanes = self.lanes(prog, *vec, *w, *n);
                let i = self.val(*index);
                let i = self.dom.choose(Decision::Length, &i, *index_width) as usize;
                let v = match lanes.get(i) {
                    Some(v) => v.clone(),
                    None => self.dom.constant(*w, 0),
                };
                self.set(*dst, v);
            }
            VectorInst::InsertElement {
                elem_width: w,
                lanes: n,
                dst,
                vec,
                elem,
                index,
                index_width,
            } => {
                let mut lanes = self.lanes(prog, *vec, *w, *n);
                let i = self.val(*index);
                let i = self.dom.choose(Decision::Length, &i, *index_width) as usize;
                let e = self.val(*elem);
                if let Some(l) = lanes.get_mut(i) {
                    *l = e;
                }
                self.set_lanes(*dst, *w, &lanes);
            }
            VectorInst::Shuffle {
                elem_width: w,
                lanes_in: n,
                dst,
                a,
                b,
                mask,
            } => {
                let mut all = self.lanes(prog, *a, *w, *n);
                all.extend(self.lanes(prog, *b, *w, *n));
                let out: Vec<_> = mask
                    .iter()
                    .map(|m| match m.and_then(|k| all.get(k as usize)) {
                        Some(v) => v.clone(),
                        None => self.dom.constant(*w, 0),
                    })
                    .collect();
                self.set_lanes(*dst, *w, &out);
            }
            VectorInst::Reduce {
                op,
                elem_width: w,
                lanes: n,
                dst,
                src,
            } => {
                let lanes = self.lanes(prog, *src, *w, *n);
                let bop = match op {
                    ReduceOp::Add => domain::BinOp::Add,
                    ReduceOp::Mul => domain::BinOp::Mul,
                    ReduceOp::And => domain::BinOp::And,
                    ReduceOp::Or => domain::BinOp::Or,
                    ReduceOp::Xor => domain::BinOp::Xor,
                    ReduceOp::SMax => domain::BinOp::SMax,
                    ReduceOp::SMin => domain::BinOp::SMin,
                    ReduceOp::UMax => domain::BinOp::UMax,
                    ReduceOp::UMin => domain::BinOp::UMin,
                };
                let mut acc = lanes
                    .first()
                    .cloned()
                    .unwrap_or_else(|| self.dom.constant(*w, 0));
                for l in lanes.iter().skip(1) {
                    acc = self.dom.binop(bop, *w, &acc, l);
                }
                self.set(*dst, acc);
            }
            VectorInst::Bitcast { from, to, dst, src } => {
                self.vector_bitcast(prog, *from, *to, *dst, *src)?
            }
        }
        Ok(())
    }

    /// Reinterprets bits between vectors and integers (`i1` lanes are single bits in the integer).
    fn vector_bitcast(
        &mut self,
        prog: &Program,
        from: ir::TypeId,
        to: ir::TypeId,
        dst: Slot,
        src: Operand,
    ) -> Result<(), End> {
        let shape = |t: ir::TypeId| match &prog.module().ty(t).kind {
            ir::TypeKind::Vector { elem, lanes } => Some((prog.width(*elem).unwrap_or(64), *lanes)),
            _ => None,
        };
        let bits = |t: ir::TypeId| match shape(t) {
            Some((w, n)) => w * n,
            None => prog.width(t).unwrap_or(0),
        };
        let total = bits(from);
        if total == 0
            || total != bits(to)
            || total > 128
                && (shape(from).is_some_and(|s| s.0 == 1) || shape(to).is_some_and(|s| s.0 == 1))
        {
            return Err(unsupported(
                self,
                prog,
                "vector bitcast between types of different sizes",
            ));
        }
        // Through an integer of `total` bits when the bit layout is not the byte layout (i1 lanes).
        let bit_lanes =
            shape(from).is_some_and(|s| s.0 == 1) || shape(to).is_some_and(|s| s.0 == 1);
        if bit_lanes {
            let x = match shape(from) {
                Some((w, n)) => {
                    let lanes = self.lanes(prog, src, w, n);
                    let mut acc = self.dom.constant(total, 0);
                    for (i, l) in lanes.iter().enumerate().rev() {
                        let wide = self.dom.cast(domain::CastOp::ZExt, w, total, l);
                        let sh = self.dom.constant(total, (i as u32 * w) as u128);
                        let part = self.dom.binop(domain::BinOp::Shl, total, &wide, &sh);
                        acc = self.dom.binop(domain::BinOp::Or, total, &acc, &part);
                    }
                    acc
                }
                None => self.val(src),
            };
            match shape(to) {
                Some((w, n)) => {
                    let lanes: Vec<_> = (0..n)
                        .map(|i| {
                            let sh = self.dom.constant(total, (i * w) as u128);
                            let s = self.dom.binop(domain::BinOp::LShr, total, &x, &sh);
                            self.dom.cast(domain::CastOp::Trunc, total, w, &s)
                        })
                        .collect();
                    self.set_lanes(dst, w, &lanes);
                }
                None => self.set(dst, x),
            }
            return Ok(());
        }
        let nbytes = (total as usize).div_ceil(8);
        let bytes: Rc<[D::Byte]> = match shape(from) {
            Some(_) => self.agg_val_sized(prog, src, nbytes),
            None => {
                let v = self.val(src);
                let mut b: Vec<D::Byte> = (0..nbytes).map(|_| self.dom.const_byte(0)).collect();
                self.dom.val_to_bytes(&v, total, &mut b);
                b.into()
            }
        };
        match shape(to) {
            Some(_) => self.frame_mut().expect("a frame").set_agg(dst, bytes),
            None => {
                let v = self.dom.bytes_to_val(&bytes, total);
                self.set(dst, v);
            }
        }
        Ok(())
    }

    /// One lane of a lane-wise intrinsic.
    fn lane_intrinsic(
        &mut self,
        prog: &Program,
        op: Intrinsic,
        w: u32,
        a: &[D::Val],
    ) -> Result<D::Val, End> {
        let un = |st: &mut Self, u: UnOp| st.dom.unop(u, w, &a[0]);
        Ok(match op {
            Intrinsic::MinMax { op, .. } => {
                let b = match op {
                    ir::MinMaxOp::UMin => domain::BinOp::UMin,
                    ir::MinMaxOp::UMax => domain::BinOp::UMax,
                    ir::MinMaxOp::SMin => domain::BinOp::SMin,
                    ir::MinMaxOp::SMax => domain::BinOp::SMax,
                };
                self.dom.binop(b, w, &a[0], &a[1])
            }
            Intrinsic::Saturating { op, .. } => self.saturating(op, w, &a[0], &a[1]),
            Intrinsic::Abs { .. } => un(self, UnOp::Abs),
            Intrinsic::Ctpop { .. } => un(self, UnOp::Ctpop),
            Intrinsic::Ctlz { .. } => un(self, UnOp::Ctlz),
            Intrinsic::Cttz { .. } => un(self, UnOp::Cttz),
            Intrinsic::Bswap { .. } => un(self, UnOp::Bswap),
            Intrinsic::Bitreverse { .. } => un(self, UnOp::BitReverse),
            Intrinsic::Fshl { .. } | Intrinsic::Fshr { .. } => {
                self.dom
                    .funnel_shift(matches!(op, Intrinsic::Fshl { .. }), w, &a[0], &a[1], &a[2])
            }
            _ => return Err(unsupported(self, prog, format!("vector intrinsic {op:?}"))),
        })
    }
}

fn lane_intrinsic_width(op: Intrinsic) -> Option<u32> {
    Some(match op {
        Intrinsic::MinMax { width, .. }
        | Intrinsic::Saturating { width, .. }
        | Intrinsic::Abs { width, .. }
        | Intrinsic::Ctpop { width }
        | Intrinsic::Ctlz { width, .. }
        | Intrinsic::Cttz { width, .. }
        | Intrinsic::Bswap { width }
        | Intrinsic::Bitreverse { width }
        | Intrinsic::Fshl { width }
        | Intrinsic::Fshr { width } => width,
        _ => return None,
    })
}
