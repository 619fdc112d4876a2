//! Loop heads: the targets of back edges of a depth-first search of each function's CFG.
//! Removing every DFS back edge leaves an acyclic graph (reducible or not), so every cycle
//! of a run passes a head, and the SEG needs generalization only there.

use crate::state::ge;
use rustc_hash::FxHashSet;
use symex_ir::uses::inst_operands;
use symex_ir::{Block, BlockId, Edge, FuncId, Inst, Module, Operand, Slot, Terminator};
use symex_its::{Atom, Poly};

pub fn loop_heads(module: &Module) -> FxHashSet<(FuncId, BlockId)> {
    let mut heads = FxHashSet::default();
    for (i, func) in module.functions.iter().enumerate() {
        let Some(body) = &func.body else { continue };
        let n = body.blocks.len();
        // 0 = unvisited, 1 = on the stack, 2 = done.
        let mut color = vec![0u8; n];
        let mut stack: Vec<(usize, Vec<BlockId>)> = vec![(0, body.blocks[0].term.successors())];
        color[0] = 1;
        while let Some((b, succ)) = stack.last_mut() {
            match succ.pop() {
                Some(s) => {
                    let s = s.0 as usize;
                    match color[s] {
                        0 => {
                            color[s] = 1;
                            let next = body.blocks[s].term.successors();
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

/// The slots each block of `f` needs on entry (backward liveness over the CFG): a slot read
/// on some path from the block's start before it is written. Phi moves of an edge read their
/// sources and write their destinations at the end of the edge's source block. Dead slots are
/// left out of a loop head's general state, so they neither cost a variable of the ITS nor
/// stop a later arrival from being an instance.
pub fn live_in(module: &Module, f: FuncId) -> Vec<FxHashSet<Slot>> {
    let Some(body) = &module.func(f).body else {
        return Vec::new();
    };
    let n = body.blocks.len();
    let mut live: Vec<FxHashSet<Slot>> = vec![FxHashSet::default(); n];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            let set = block_live_in(&body.blocks[b], &live);
            if set.len() != live[b].len() {
                live[b] = set;
                changed = true;
            }
        }
    }
    live
}

/// The slots live before instruction `idx` of `block` (`idx = insts.len()`: the terminator).
pub fn live_at(
    module: &Module,
    live: &[FxHashSet<Slot>],
    f: FuncId,
    block: BlockId,
    idx: usize,
) -> FxHashSet<Slot> {
    let Some(body) = &module.func(f).body else {
        return FxHashSet::default();
    };
    let blk = &body.blocks[block.0 as usize];
    let mut set = live_out(blk, live);
    for inst in blk.insts[idx.min(blk.insts.len())..].iter().rev() {
        transfer(inst, &mut set);
    }
    set
}

fn slot_of(op: &Operand) -> Option<Slot> {
    match op {
        Operand::Slot(s) => Some(*s),
        Operand::Const(_) => None,
    }
}

/// Live after the block's instructions: the terminator's reads and, per edge, the target's
/// live set with the moves' destinations replaced by their sources.
fn live_out(blk: &Block, live: &[FxHashSet<Slot>]) -> FxHashSet<Slot> {
    let mut set = FxHashSet::default();
    let edge = |e: &Edge, set: &mut FxHashSet<Slot>| {
        let mut target = live[e.to.0 as usize].clone();
        for m in e.moves.iter() {
            target.remove(&m.dst);
        }
        for m in e.moves.iter() {
            target.extend(slot_of(&m.src));
        }
        set.extend(target);
    };
    match &blk.term {
        Terminator::Br(e) => edge(e, &mut set),
        Terminator::CondBr {
            cond,
            if_true,
            if_false,
        } => {
            set.extend(slot_of(cond));
            edge(if_true, &mut set);
            edge(if_false, &mut set);
        }
        Terminator::Switch(s) => {
            set.extend(slot_of(&s.value));
            edge(&s.default, &mut set);
            s.cases.iter().for_each(|(_, e)| edge(e, &mut set));
        }
        Terminator::Ret(v) => set.extend(v.as_ref().and_then(slot_of)),
        Terminator::Unreachable => {}
    }
    set
}

fn transfer(inst: &Inst, set: &mut FxHashSet<Slot>) {
    if let Some(d) = inst.dst() {
        set.remove(&d);
    }
    inst_operands(inst, &mut |op| set.extend(slot_of(op)));
}

fn block_live_in(blk: &Block, live: &[FxHashSet<Slot>]) -> FxHashSet<Slot> {
    let mut set = live_out(blk, live);
    for inst in blk.insts.iter().rev() {
        transfer(inst, &mut set);
    }
    set
}

/// The slots of `frame` that are still read after its position: for the top frame from its
/// next instruction on, for a caller from the instruction after its pending call.
pub fn live_slots(module: &Module, frame: &crate::state::Frame, caller: bool) -> FxHashSet<Slot> {
    let live = live_in(module, frame.func);
    let idx = frame.idx + usize::from(caller);
    live_at(module, &live, frame.func, frame.block, idx)
}

/// Loop-head variants per position: arrivals whose flags differ are kept apart up to this
/// many general states; further ones share one general state without pinned flags.
pub const MAX_FLAG_VARIANTS: usize = 4;

/// The *flags* of `f`: registers every definition of which is a phi move (or select arm, or
/// copy) of a literal or of another flag (`int up = 1; … up = 0;`, through the phis of the blocks in between). A loop
/// head keeps arrivals with different flag values apart, so that each phase of a loop is a
/// location of its own in the ITS. (The greatest set closed under that rule.)
fn flag_slots(module: &Module, f: FuncId) -> FxHashSet<Slot> {
    let Some(body) = &module.func(f).body else {
        return FxHashSet::default();
    };
    // (dst, src): phi moves, the arms of selects (simplifycfg turns `if (c) up = 0;` into
    // one) and copies.
    let mut moves: Vec<(Slot, Operand)> = body
        .blocks
        .iter()
        .flat_map(|b| b.term.edges())
        .flat_map(|e| e.moves.iter().map(|m| (m.dst, m.src)))
        .collect();
    let mut other_defs = FxHashSet::default();
    for i in body.blocks.iter().flat_map(|b| &b.insts) {
        match i {
            Inst::Select {
                dst,
                on_true,
                on_false,
                ..
            } => moves.extend([(*dst, *on_true), (*dst, *on_false)]),
            Inst::Copy { dst, src } | Inst::Freeze { dst, src } => moves.push((*dst, *src)),
            _ => other_defs.extend(i.dst()),
        }
    }
    let mut flags: FxHashSet<Slot> = moves.iter().map(|m| m.0).collect();
    for d in &other_defs {
        flags.remove(d);
    }
    flags.retain(|s| (s.0 as usize) >= module.func(f).params.len());
    loop {
        let before = flags.len();
        for (dst, src) in &moves {
            if let Operand::Slot(t) = src {
                if !flags.contains(t) {
                    flags.remove(dst);
                }
            }
        }
        if flags.len() == before {
            return flags;
        }
    }
}

/// The live flags of the top frame of `s` that hold literals (its flag key).
pub fn flag_values(module: &Module, s: &crate::state::State) -> Vec<(Slot, i128)> {
    let f = s.top();
    let consts: Vec<(Slot, i128)> = f
        .regs
        .iter()
        .filter_map(|(slot, v)| match v {
            crate::state::Val::Const(c) => Some((*slot, *c)),
            crate::state::Val::Var(_) => None,
        })
        .collect();
    if consts.is_empty() {
        return consts;
    }
    let flags = flag_slots(module, f.func);
    let consts: Vec<(Slot, i128)> = consts
        .into_iter()
        .filter(|c| flags.contains(&c.0))
        .collect();
    if consts.is_empty() {
        return consts;
    }
    let live = live_slots(module, f, false);
    consts
        .into_iter()
        .filter(|(slot, _)| live.contains(slot))
        .collect()
}

/// `s` without its flag registers (so a new head's general state gets no variable for them).
pub fn without_flags(s: &crate::state::State, flags: &[(Slot, i128)]) -> crate::state::State {
    let mut t = s.clone();
    for (slot, _) in flags {
        t.top_mut().regs.remove(slot);
    }
    t
}

/// Pins the flags in a head's general state: the template holds their literals.
pub fn pin_flags(spec: &mut crate::seg::HeadSpec, flags: &[(Slot, i128)]) {
    if let Some(top) = spec.template.last_mut() {
        for (slot, c) in flags {
            top.regs.insert(*slot, crate::state::Val::Const(*c));
        }
    }
    spec.flags = flags.to_vec();
}

/// Whether `s` (at the head's position) has the head's pinned flag values.
pub fn flags_match(spec: &crate::seg::HeadSpec, s: &crate::state::State) -> bool {
    spec.flags
        .iter()
        .all(|(slot, c)| s.top().regs.get(slot) == Some(&crate::state::Val::Const(*c)))
}

/// Relations between a head's registers (atoms over slot indices) that generalization keeps
/// when every arrival entails them: orders `x ≤ y`, `x < y` (up to 12 registers), and sums
/// `x + y ≤ z`, `x + y ≥ z` (up to 6), e.g. `x + y = n` of a loop moving one unit from `x`
/// to `y`, or `k + i ≥ n` of one that decrements `k` while `i` grows. Booleans are left out.
pub fn relational_candidates(widths: &[u32]) -> Vec<Atom> {
    let n = widths.len();
    let wide: Vec<usize> = (0..n).filter(|i| widths[*i] > 1).collect();
    let mut out = Vec::new();
    if n <= 12 {
        for &i in &wide {
            for &j in &wide {
                if i != j {
                    out.push(ge(&Poly::var(j), &Poly::var(i)));
                    out.push(ge(&Poly::var(j), &Poly::var(i).add(&Poly::constant(1))));
                }
            }
        }
    }
    if wide.len() <= 6 {
        for (a, &i) in wide.iter().enumerate() {
            for &j in &wide[a + 1..] {
                for &k in wide.iter().filter(|k| **k != i && **k != j) {
                    let sum = Poly::var(i).add(&Poly::var(j));
                    out.push(ge(&Poly::var(k), &sum));
                    out.push(ge(&sum, &Poly::var(k)));
                }
            }
        }
    }
    out
}

/// `x ≤ smax` for unsigned and `x ≥ 0` for signed registers: where both readings agree, so
/// that a register the classification reads one way and a callee or comparison the other
/// way needs no modulo conversion (`LV_u = LV_s` on `[0, smax]`).
pub fn shared_range_candidates(slots: &[(u32, crate::state::Reading)]) -> Vec<Atom> {
    shared_range_at(slots.iter().copied().enumerate())
}

/// [`shared_range_candidates`] for the ranged memory variables of a head (cell values,
/// numbered after its `n` registers): a global `int v` that a loop halves after `v >= 0`
/// keeps `v ≤ smax` in the cell's unsigned reading, which the ranking function `v` needs
/// (else `v` may be negative, where `v >>= 1` never reaches 0).
pub fn shared_range_mem_candidates(
    n: usize,
    vars: &[crate::mem_head::MVar],
    mu: &[Option<Poly>],
) -> Vec<Atom> {
    shared_range_at(
        vars.iter()
            .zip(mu)
            .enumerate()
            .filter(|(_, (_, m))| m.is_some())
            .filter_map(|(k, (v, _))| v.range.map(|r| (n + k, r))),
    )
}

fn shared_range_at(
    slots: impl Iterator<Item = (usize, (u32, crate::state::Reading))>,
) -> Vec<Atom> {
    slots
        .filter(|(_, (w, _))| *w > 1)
        .map(|(i, (w, r))| match r {
            crate::state::Reading::Unsigned => {
                crate::state::le_c(&Poly::var(i), crate::state::smax(w))
            }
            crate::state::Reading::Signed => crate::state::ge_c(&Poly::var(i), 0),
        })
        .collect()
}

/// Registers up to which a head gets [`corner_facts`].
pub const MAX_CORNER_REGISTERS: usize = 8;

/// Octagon facts from the corners of the arrival's box: for registers `x`, `y` with bounds
/// `x ∈ [lx, ux]`, `y ∈ [ly, uy]` (the literal facts kept, else the type range), the four
/// facts `x − y ≥ lx − uy`, `x − y ≤ ux − ly`, `x + y ≥ lx + ly`, `x + y ≤ ux + uy`. They
/// follow from the bounds, so the first arrival entails them; they survive where the loop
/// moves `x` and `y` together (`x--; z--;` keeps `x − z`, so `x ≥ z − 298` still holds when
/// `x`'s own lower bound is gone and excludes the overflow of `x--`). A fact whose bounds are
/// both type bounds is left out (the ranges imply it). `ranges`: the type range per
/// register (`None`: unbounded, or not an integer worth pairing). Heads with more than
/// [`MAX_CORNER_REGISTERS`] such registers get none (the facts grow quadratically, and every
/// arrival's instance check pays for each).
pub fn corner_facts(ranges: &[Option<(i128, i128)>], facts: &[Atom]) -> Vec<Atom> {
    let n = ranges.len();
    if ranges.iter().flatten().count() > MAX_CORNER_REGISTERS {
        return Vec::new();
    }
    // (bound, from a literal fact) per register; `None`: unbounded.
    let mut lo: Vec<Option<(i128, bool)>> =
        ranges.iter().map(|r| r.map(|r| (r.0, false))).collect();
    let mut hi: Vec<Option<(i128, bool)>> =
        ranges.iter().map(|r| r.map(|r| (r.1, false))).collect();
    for f in facts {
        let Some((v, a, c)) = unit_atom(f) else {
            continue;
        };
        if v >= n || ranges[v].is_none() {
            continue;
        }
        // `a·x + c ≥ 0` (or `= 0`) with `a = ±1`.
        let (lower, upper) = match (f.rel, a) {
            (symex_its::Rel::Eq, _) => (Some(-c * a), Some(-c * a)),
            (symex_its::Rel::Ge, 1) => (Some(-c), None),
            (symex_its::Rel::Ge, _) => (None, Some(c)),
            (symex_its::Rel::Ne, _) => (None, None),
        };
        if let Some(l) = lower {
            if lo[v].is_none_or(|(b, _)| l > b) {
                lo[v] = Some((l, true));
            }
        }
        if let Some(u) = upper {
            if hi[v].is_none_or(|(b, _)| u < b) {
                hi[v] = Some((u, true));
            }
        }
    }
    let mut out = Vec::new();
    let (x, y) = (Poly::var, Poly::var);
    for i in 0..n {
        for j in i + 1..n {
            let corner =
                |p: Poly, a: Option<(i128, bool)>, b: Option<(i128, bool)>, upper: bool| {
                    let ((a, la), (b, lb)) = (a?, b?);
                    (la || lb).then(|| {
                        if upper {
                            crate::state::le_c(&p, a + b)
                        } else {
                            crate::state::ge_c(&p, a + b)
                        }
                    })
                };
            let neg = |b: Option<(i128, bool)>| b.map(|(v, l)| (-v, l));
            let diff = x(i).sub(&y(j));
            let sum = x(i).add(&y(j));
            out.extend(corner(diff.clone(), lo[i], neg(hi[j]), false));
            out.extend(corner(diff, hi[i], neg(lo[j]), true));
            out.extend(corner(sum.clone(), lo[i], lo[j], false));
            out.extend(corner(sum, hi[i], hi[j], true));
        }
    }
    out
}

/// `(v, a, c)` for an atom `a·v + c ⋈ 0` with `a = ±1`.
fn unit_atom(f: &Atom) -> Option<(usize, i128, i128)> {
    let vars = f.poly.vars();
    let [v] = vars.iter().copied().collect::<Vec<_>>()[..] else {
        return None;
    };
    let a = f.poly.linear_coeff(v);
    (f.poly.is_linear() && (a == 1 || a == -1)).then(|| (v, a, f.poly.constant_term()))
}

/// The head a chain starts from, as [`ladder_drops`] needs it: its facts, its variables
/// (per slot index) and its registers (frame index, slot).
pub struct ChainOrigin {
    pub facts: Vec<Atom>,
    pub vars: Vec<Option<usize>>,
    pub regs: Vec<(usize, Slot)>,
}

/// Widening of literal ladders. The literal candidates are thresholds (`x ≤ 1`, `x ≤ 2`,
/// `x ≤ 3`, `x ≤ smax`, …); a counter that grows by one per visit breaks one of them per SEG
/// round, and every round rebuilds the whole graph (5 nested loops: over 50 rounds). When an
/// arrival from head `o` (its KB holds `o`'s instantiated facts) breaks a unit bound on a
/// register, the other unit bounds of that register in the same direction are re-checked
/// against the arrival's KB *without* `o`'s bounds of the same register in that direction:
/// those that held only because the previous value was bounded fall at once; those the
/// loop re-establishes (a guard `x < 10` keeps `x ≤ 10`) stay. Returns the facts to drop too
/// (dropping facts only generalizes the head).
pub fn ladder_drops(
    kb: &mut crate::kb::Kb,
    (kept, dropped): (&[Atom], &[Atom]),
    arrival: &[Atom],
    regs: &[(usize, Slot)],
    origin: &ChainOrigin,
    mu: &dyn Fn(usize) -> Poly,
) -> Vec<Atom> {
    let sub = |i: usize| {
        origin
            .vars
            .get(i)
            .copied()
            .flatten()
            .map_or(Poly::constant(0), Poly::var)
    };
    let mut out: Vec<Atom> = Vec::new();
    let broken: FxHashSet<(usize, i128)> = dropped
        .iter()
        .filter(|f| f.rel == symex_its::Rel::Ge)
        .filter_map(unit_atom)
        .map(|(v, a, _)| (v, a))
        .collect();
    let unit_on = |f: &Atom, v: usize, a: i128| {
        f.rel == symex_its::Rel::Ge && unit_atom(f).is_some_and(|(w, b, _)| w == v && b == a)
    };
    for (v, a) in broken {
        let Some(j) = regs
            .get(v)
            .and_then(|r| origin.regs.iter().position(|o| o == r))
        else {
            continue;
        };
        let own: Vec<Atom> = origin
            .facts
            .iter()
            .filter(|f| unit_on(f, j, a))
            .map(|f| Atom {
                poly: f.poly.substitute(&sub),
                rel: f.rel,
            })
            .collect();
        let weaker: Vec<Atom> = arrival
            .iter()
            .filter(|x| !own.contains(x))
            .cloned()
            .collect();
        if weaker.len() == arrival.len() {
            continue;
        }
        for f in kept.iter().filter(|f| unit_on(f, v, a)) {
            let inst = Atom {
                poly: f.poly.substitute(mu),
                rel: f.rel,
            };
            if !kb.entails(&weaker, &inst) {
                out.push(f.clone());
            }
        }
    }
    out
}

/// Affine equalities the first arrival may satisfy, from one model of it (`values`: each
/// register's value there): `x + y − z = c`, `x − y = c` and `x + y = c` with `c` the model's
/// value (pairs up to [`MAX_CORNER_REGISTERS`] registers, triples up to 6), each as two
/// inequalities. Generalization
/// keeps those every arrival entails, e.g. `i + j = MAX − 1` of a loop that walks `i` up
/// and `j` down over one array (`j ≥ 0` follows from `i < MAX`).
pub fn affine_candidates(values: &[Option<i128>], widths: &[u32]) -> Vec<Atom> {
    let wide: Vec<(usize, i128)> = (0..values.len())
        .filter(|i| widths[*i] > 1)
        .filter_map(|i| values[i].map(|v| (i, v)))
        .collect();
    if wide.len() > MAX_CORNER_REGISTERS {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut both = |p: Poly, c: i128| {
        out.push(crate::state::ge_c(&p, c));
        out.push(crate::state::le_c(&p, c));
    };
    for (a, &(i, vi)) in wide.iter().enumerate() {
        for &(j, vj) in &wide[a + 1..] {
            both(Poly::var(i).sub(&Poly::var(j)), vi - vj);
            both(Poly::var(i).add(&Poly::var(j)), vi + vj);
            if wide.len() > 6 {
                continue;
            }
            for &(k, vk) in wide.iter().filter(|(k, _)| *k != i && *k != j) {
                both(
                    Poly::var(i).add(&Poly::var(j)).sub(&Poly::var(k)),
                    vi + vj - vk,
                );
            }
        }
    }
    out
}

/// Whether a loop's first arrival is executed for one more iteration before it is
/// generalized (peeling): on the path from the program's start, not unrolled before, with at
/// least as many live registers holding literals as symbolic ones (`b = 30` beside `x`). The general state is
/// then built from the second arrival, whose relations the first does not have: after
/// `b = b | (b + 1); x = x − b;` once, `x + b ≤ smax` holds (the first arrival only has
/// `x + b ≤ smax + 30`), and it excludes the overflow of `b + 1` while `x > 0`.
pub fn peel(module: &Module, from_start: bool, s: &crate::state::State) -> bool {
    if !from_start || s.unrolled > 0 {
        return false;
    }
    let f = s.top();
    // Not with pointers: a head built from a peeled arrival would keep its array cells at
    // the literal offsets of the second iteration (`a[1]`) instead of `a[i]`.
    if s.frames.iter().any(|fr| !fr.ptrs.is_empty()) {
        return false;
    }
    let live = live_slots(module, f, false);
    let flags = flag_slots(module, f.func);
    let (mut literal, mut symbolic) = (0, 0);
    for (slot, v) in &f.regs {
        if !live.contains(slot) || flags.contains(slot) {
            continue;
        }
        match v {
            crate::state::Val::Const(_) => literal += 1,
            crate::state::Val::Var(_) => symbolic += 1,
        }
    }
    // Mostly literal: an extension of the concrete unrolling, and as cheap (each peeled
    // arrival with many symbolic registers costs a round of head facts of its own).
    literal > 0 && literal >= symbolic
}

/// Sums and differences of two registers within the type range (`x + y ≤ smax`, `x − y ≥
/// smin`, …; up to [`MAX_CORNER_REGISTERS`] registers): candidates the arrival must entail,
/// unlike the corner facts. `x + b ≤ smax` holds from the second iteration of
/// `while (x > 0) { b = b | (b + 1); x = x − b; }` on and keeps `b + 1` from overflowing.
pub fn in_range_candidates(ranges: &[Option<(i128, i128)>]) -> Vec<Atom> {
    let regs: Vec<(usize, (i128, i128))> = ranges
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.map(|r| (i, r)))
        .collect();
    if regs.len() > MAX_CORNER_REGISTERS {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (a, &(i, (li, hi))) in regs.iter().enumerate() {
        for &(j, (lj, hj)) in &regs[a + 1..] {
            let (lo, hi) = (li.max(lj), hi.min(hj));
            let sum = Poly::var(i).add(&Poly::var(j));
            out.push(crate::state::le_c(&sum, hi));
            if lo < 0 {
                out.push(crate::state::ge_c(&sum, lo));
            }
            for diff in [
                Poly::var(i).sub(&Poly::var(j)),
                Poly::var(j).sub(&Poly::var(i)),
            ] {
                out.push(crate::state::le_c(&diff, hi));
                if lo < 0 {
                    out.push(crate::state::ge_c(&diff, lo));
                }
            }
        }
    }
    out
}
