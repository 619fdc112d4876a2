//! Computed goto (GNU C's labels as values): `blockaddress(@f, %bb)` constants and the `indirectbr`
//! terminator. A label's address is its function's address plus one plus the block's index, so labels
//! are distinct from each other and from the function (a call through one is a call through a
//! non-function pointer). `indirectbr p, [d1, ..., dn]` compares `p` with each destination's label in
//! turn, as KLEE does (a fork per destination that `p` may equal); an address that is none of them
//! ends the path at an `unreachable` (KLEE's "indirectbr: illegal label address").

use super::func::FnLower;
use super::Ctx;
use crate::error::{FrontendError, Result};
use crate::ir::*;
use llvm_ir::Name;

/// The offset of the label of block `block` from its function's address.
fn label_offset(block: BlockId) -> i64 {
    1 + i64::from(block.0)
}

impl Ctx<'_> {
    /// The value of the `blockaddress` constant in the instruction being lowered (`llvm-ir` does
    /// not say which label it is: the facts read with `llvm-sys` do, per instruction).
    pub(super) fn label_address(&mut self) -> Result<Const> {
        let mut labels = self.label_scope.clone();
        labels.sort();
        labels.dedup();
        let (func, block) = match labels.as_slice() {
            [one] => one.clone(),
            [] => {
                return Err(FrontendError::unsupported(
                    "a label's address (`blockaddress`) outside a function's instructions",
                ))
            }
            _ => {
                return Err(FrontendError::unsupported(
                    "several different label addresses (`blockaddress`) in one instruction",
                ))
            }
        };
        match self.symbols.get(&Name::from(func.clone())) {
            Some(&base @ AddrBase::Function(_)) => Ok(Const::Addr {
                base,
                offset: label_offset(BlockId(block)),
            }),
            _ => Err(FrontendError::unsupported(format!(
                "the address of a label of `@{func}`, which is not a function of the module"
            ))),
        }
    }
}

impl FnLower<'_, '_> {
    /// `indirectbr`: the comparison with the first destination's label in the block itself, the
    /// others in blocks added after the function's own, the last of which is the illegal address.
    pub(super) fn indirect_br(
        &mut self,
        ib: &llvm_ir::terminator::IndirectBr,
        from: BlockId,
        phis: &[Vec<Phi>],
    ) -> Result<Terminator> {
        let addr = self.op(&ib.operand)?;
        let Some(&func @ AddrBase::Function(_)) =
            self.ctx.symbols.get(&Name::from(self.fname.to_string()))
        else {
            return Err(FrontendError::unsupported(
                "computed goto in an unnamed function",
            ));
        };
        let mut dests: Vec<&Name> = Vec::new();
        for d in &ib.possible_dests {
            if !dests.contains(&d) {
                dests.push(d);
            }
        }
        if dests.is_empty() {
            return Ok(Terminator::Unreachable);
        }
        // Comparison k > 0 sits in added block `first + k - 1`; the illegal address is the last.
        let first = self.own_blocks() + self.extra_blocks.len() as u32;
        let mut here = None;
        for (k, d) in dests.iter().enumerate() {
            let target = self.block(d)?;
            let label = self.ctx.intern_const(Const::Addr {
                base: func,
                offset: label_offset(target),
            });
            let cond = self.fresh_slot(TypeId::I1);
            let compare = Inst::ICmp {
                pred: IntPred::Eq,
                width: 64,
                dst: cond,
                lhs: addr,
                rhs: Operand::Const(label),
            };
            let term = Terminator::CondBr {
                cond: Operand::Slot(cond),
                if_true: self.edge(from, d, phis)?,
                if_false: Edge {
                    to: BlockId(first + k as u32),
                    moves: Box::new([]),
                },
            };
            if k == 0 {
                self.pending.push(compare);
                here = Some(term);
            } else {
                let me = BlockId(first + k as u32 - 1);
                self.extra_preds.push((target, me, from));
                self.add_block(format!("indirectbr.{k}"), vec![compare], term);
            }
        }
        self.add_block(
            "indirectbr.illegal".into(),
            Vec::new(),
            Terminator::Unreachable,
        );
        Ok(here.expect("at least one destination"))
    }

    fn add_block(&mut self, name: String, insts: Vec<Inst>, term: Terminator) {
        let loc = self.term_loc;
        self.extra_blocks.push(Block {
            name,
            phis: Vec::new(),
            locs: vec![loc; insts.len()],
            insts,
            term,
            term_loc: loc,
        });
    }
}

/// The phis of a destination reached from an added block take the value they take from the block
/// the `indirectbr` was in (analyses that merge paths read phis by predecessor).
pub(super) fn add_phi_predecessors(blocks: &mut [Block], extra: &[(BlockId, BlockId, BlockId)]) {
    for &(to, added, original) in extra {
        for phi in &mut blocks[to.0 as usize].phis {
            let from_original: Vec<Operand> = phi
                .incoming
                .iter()
                .filter(|(_, b)| *b == original)
                .map(|(src, _)| *src)
                .collect();
            phi.incoming
                .extend(from_original.into_iter().map(|src| (src, added)));
        }
    }
}
