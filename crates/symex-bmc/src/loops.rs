//! The loops of a function, as BMC unwinds them: blocks in reverse post-order, retreating edges (a
//! back edge goes to a block that dominates its source: the header of a natural loop), the blocks of
//! each natural loop, and the source line that names a loop (`--show-loops`, `--unwindset`).
//!
//! The reverse post-order is also the merging executor's schedule within a frame: every edge that is
//! not retreating goes to a later block, so a state is run only after every state that can still reach
//! its block has arrived there (and been merged with it).

use symex_ir::Body;

/// One loop: its header and the blocks of its natural loop (the header included).
#[derive(Clone, Debug)]
pub struct Loop {
    pub header: u32,
    /// Membership by block index.
    pub body: Vec<bool>,
    /// The source line of the header (its first located instruction), 0 when unknown.
    pub line: u32,
}

/// The loop structure of one function body.
#[derive(Clone, Debug, Default)]
pub struct Loops {
    /// Position of each block in reverse post-order (`u32::MAX`: unreachable).
    pub rpo: Vec<u32>,
    /// The loops, ordered by their header's position in reverse post-order (outer loops first).
    pub loops: Vec<Loop>,
    /// For each block, the index in `loops` when it is a header.
    pub header_of: Vec<Option<usize>>,
    /// For each block, the loops that contain it, outermost first.
    pub nest: Vec<Vec<usize>>,
}

impl Loops {
    pub fn of(body: &Body) -> Loops {
        let n = body.blocks.len();
        let succ: Vec<Vec<u32>> = body
            .blocks
            .iter()
            .map(|b| b.term.successors().iter().map(|s| s.0).collect())
            .collect();
        let order = postorder(&succ);
        let mut rpo = vec![u32::MAX; n];
        for (i, &b) in order.iter().rev().enumerate() {
            rpo[b as usize] = i as u32;
        }
        // Every retreating edge (to a block not later in reverse post-order) makes its target a
        // header; the natural loop of a back edge is what reaches its source without the header.
        let mut header_body: Vec<Option<Vec<bool>>> = vec![None; n];
        let mut pred: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (b, ss) in succ.iter().enumerate() {
            for &s in ss {
                pred[s as usize].push(b as u32);
            }
        }
        for (b, ss) in succ.iter().enumerate() {
            if rpo[b] == u32::MAX {
                continue;
            }
            for &h in ss {
                if rpo[h as usize] <= rpo[b] {
                    let members = header_body[h as usize].get_or_insert_with(|| {
                        let mut v = vec![false; n];
                        v[h as usize] = true;
                        v
                    });
                    let mut work = vec![b as u32];
                    while let Some(x) = work.pop() {
                        if members[x as usize] {
                            continue;
                        }
                        members[x as usize] = true;
                        work.extend(pred[x as usize].iter().copied());
                    }
                }
            }
        }
        let mut headers: Vec<u32> = (0..n as u32)
            .filter(|&h| header_body[h as usize].is_some())
            .collect();
        headers.sort_by_key(|&h| rpo[h as usize]);
        let mut header_of = vec![None; n];
        let loops = headers
            .into_iter()
            .enumerate()
            .map(|(i, h)| {
                header_of[h as usize] = Some(i);
                let blk = &body.blocks[h as usize];
                let line = blk
                    .locs
                    .iter()
                    .chain([&blk.term_loc])
                    .find(|l| l.line != 0)
                    .map_or(0, |l| l.line);
                Loop {
                    header: h,
                    body: header_body[h as usize].take().expect("a header"),
                    line,
                }
            })
            .collect::<Vec<Loop>>();
        // Headers in reverse post-order put an enclosing loop (whose header dominates) first.
        let nest = (0..n)
            .map(|b| (0..loops.len()).filter(|&i| loops[i].body[b]).collect())
            .collect();
        Loops {
            rpo,
            loops,
            header_of,
            nest,
        }
    }

    /// Whether the edge `from → to` is retreating (enters a loop header again).
    pub fn retreating(&self, from: u32, to: u32) -> bool {
        self.rpo[to as usize] <= self.rpo[from as usize]
    }
}

/// Blocks reachable from the entry in post-order (iterative depth-first search).
fn postorder(succ: &[Vec<u32>]) -> Vec<u32> {
    let n = succ.len();
    let mut seen = vec![false; n];
    let mut out = Vec::with_capacity(n);
    if n == 0 {
        return out;
    }
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    seen[0] = true;
    while let Some(&mut (b, ref mut i)) = stack.last_mut() {
        if let Some(&s) = succ[b as usize].get(*i) {
            *i += 1;
            if !seen[s as usize] {
                seen[s as usize] = true;
                stack.push((s, 0));
            }
        } else {
            out.push(b);
            stack.pop();
        }
    }
    out
}
