//! The static unsigned/signed classification `U_P ⊎ S_P` of [B] §2: a register is signed
//! (`S_P`) when a signed operation uses or defines it (signed compare, `nsw` arithmetic,
//! `sext`, `sdiv`/`srem`/`ashr`), closed under the links of phi moves, copies and selects;
//! every other register is unsigned. A wrong guess costs precision, never soundness: a
//! value needed in the other reading is converted by a modulo relation.

use crate::state::Reading;
use rustc_hash::FxHashSet;
use symex_ir::{BinOp, CastOp, FuncId, Inst, IntPred, Module, Operand, Slot, Terminator};

/// The signed registers of every function.
#[derive(Clone, Debug, Default)]
pub struct Classification {
    signed: FxHashSet<(FuncId, Slot)>,
}

impl Classification {
    pub fn reading(&self, f: FuncId, s: Slot) -> Reading {
        if self.signed.contains(&(f, s)) {
            Reading::Signed
        } else {
            Reading::Unsigned
        }
    }

    /// Computes the classification of `module`.
    pub fn of(module: &Module) -> Classification {
        let mut signed = FxHashSet::default();
        let mut links: Vec<(FuncId, Slot, Slot)> = Vec::new();
        for (i, func) in module.functions.iter().enumerate() {
            let f = FuncId(i as u32);
            let Some(body) = &func.body else { continue };
            let mut mark = |op: &Operand| {
                if let Operand::Slot(s) = op {
                    signed.insert((f, *s));
                }
            };
            for block in &body.blocks {
                for inst in &block.insts {
                    match inst {
                        Inst::Bin {
                            op,
                            flags,
                            dst,
                            lhs,
                            rhs,
                            ..
                        } => {
                            let is_signed = flags.nsw()
                                || matches!(op, BinOp::SDiv | BinOp::SRem | BinOp::AShr);
                            if is_signed {
                                mark(lhs);
                                if !matches!(op, BinOp::AShr) {
                                    mark(rhs);
                                }
                                mark(&Operand::Slot(*dst));
                            }
                        }
                        Inst::ICmp { pred, lhs, rhs, .. } => {
                            if matches!(
                                pred,
                                IntPred::Sgt | IntPred::Sge | IntPred::Slt | IntPred::Sle
                            ) {
                                mark(lhs);
                                mark(rhs);
                            }
                        }
                        Inst::Cast {
                            op: CastOp::SExt,
                            dst,
                            src,
                            ..
                        } => {
                            mark(src);
                            mark(&Operand::Slot(*dst));
                        }
                        Inst::Copy {
                            dst,
                            src: Operand::Slot(s),
                        }
                        | Inst::Freeze {
                            dst,
                            src: Operand::Slot(s),
                        } => links.push((f, *dst, *s)),
                        Inst::Select {
                            dst,
                            on_true,
                            on_false,
                            ..
                        } => {
                            for o in [on_true, on_false] {
                                if let Operand::Slot(s) = o {
                                    links.push((f, *dst, *s));
                                }
                            }
                        }
                        _ => {}
                    }
                }
                let edges: Vec<&symex_ir::Edge> = match &block.term {
                    Terminator::Br(e) => vec![e],
                    Terminator::CondBr {
                        if_true, if_false, ..
                    } => vec![if_true, if_false],
                    Terminator::Switch(s) => {
                        let mut v: Vec<&symex_ir::Edge> = s.cases.iter().map(|c| &c.1).collect();
                        v.push(&s.default);
                        v
                    }
                    _ => vec![],
                };
                for e in edges {
                    for m in e.moves.iter() {
                        if let Operand::Slot(s) = m.src {
                            links.push((f, m.dst, s));
                        }
                    }
                }
            }
        }
        // The closure under links: a phi of a signed counter is the signed counter.
        loop {
            let mut changed = false;
            for &(f, a, b) in &links {
                let (ia, ib) = (signed.contains(&(f, a)), signed.contains(&(f, b)));
                if ia != ib {
                    signed.insert((f, a));
                    signed.insert((f, b));
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        Classification { signed }
    }
}
