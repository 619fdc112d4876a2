//! Loop heads: the targets of back edges of a depth-first search of each function's CFG.
//! Removing every DFS back edge leaves an acyclic graph (reducible or not), so every cycle
//! of a run passes a head, and the SEG needs generalization only there.

use rustc_hash::FxHashSet;
use symex_ir::{BlockId, FuncId, Module, Terminator};

/// The successors of a block.
pub fn successors(term: &Terminator) -> Vec<BlockId> {
    match term {
        Terminator::Br(e) => vec![e.to],
        Terminator::CondBr {
            if_true, if_false, ..
        } => vec![if_true.to, if_false.to],
        Terminator::Switch(s) => s
            .cases
            .iter()
            .map(|c| c.1.to)
            .chain([s.default.to])
            .collect(),
        Terminator::Ret(_) | Terminator::Unreachable => vec![],
    }
}

pub fn loop_heads(module: &Module) -> FxHashSet<(FuncId, BlockId)> {
    let mut heads = FxHashSet::default();
    for (i, func) in module.functions.iter().enumerate() {
        let Some(body) = &func.body else { continue };
        let n = body.blocks.len();
        // 0 = unvisited, 1 = on the stack, 2 = done.
        let mut color = vec![0u8; n];
        let mut stack: Vec<(usize, Vec<BlockId>)> = vec![(0, successors(&body.blocks[0].term))];
        color[0] = 1;
        while let Some((b, succ)) = stack.last_mut() {
            match succ.pop() {
                Some(s) => {
                    let s = s.0 as usize;
                    match color[s] {
                        0 => {
                            color[s] = 1;
                            let next = successors(&body.blocks[s].term);
                            stack.push((s, next));
                        }
                        1 => {
                            heads.insert((FuncId(i as u32), BlockId(s as u32)));
                        }
                        _ => {}
                    }
                }
                None => {
                    color[*b] = 2;
                    stack.pop();
                }
            }
        }
    }
    heads
}
