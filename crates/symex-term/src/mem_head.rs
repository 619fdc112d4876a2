//! What a loop head's general state keeps of `AL` and `PT` ([B] generalization (a)–(e) for
//! the memory components).
//!
//! Allocations are matched by their [`Site`] (a global, or the instruction and frame depth
//! of an `alloca`/`malloc`): a head keeps an allocation when every arrival has exactly one
//! live allocation of that site (`malloc` in a loop makes several: they are forgotten, and
//! pointers into them become unknown, so accesses through them are `ERR`). Pointer
//! registers keep their allocation; cells are kept at literal offsets only (at most
//! [`MAX_CELLS_PER_ALLOC`] per allocation: array contents are forgotten). Every size,
//! offset and cell value becomes a *memory variable* of the head, numbered after its
//! registers, with `μ` and candidate facts like a register's (its literal value, literal
//! bounds, equality with `a·x + b` of a register): the ITS sees memory-held counters.
//! A non-matching arrival weakens the head (drops an allocation, a cell, a pointer's
//! target, `pristine`), which only shrinks: the construction stays finite.

use crate::rules::Exec;
use crate::state::{
    ge, ge_c, le_c, Alloc, Cell, Content, Init, Ptr, Reading, Site, State, Target, Val,
};
use symex_ir::Slot;
use symex_its::{Atom, Poly};

/// Cells a head keeps per allocation: more are array contents, which no ranking function
/// needs and which would blow up the ITS.
pub const MAX_CELLS_PER_ALLOC: usize = 8;

/// A head's pointer target: null, a head allocation, or unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HTarget {
    Null,
    Alloc(usize),
    Unknown,
    /// The first element of a head list ([`HList`]).
    List(usize),
}

/// A list invariant of the head ([`crate::list::ListInv`]): its shape and steps, and memory
/// variables for the length, the first and last values of each integer field, and the offset
/// of the end pointer.
#[derive(Clone, Debug)]
pub struct HList {
    pub site: Site,
    pub elem_size: i128,
    pub fields: Vec<crate::list::Field>,
    pub steps: Vec<crate::list::Step>,
    pub len: usize,
    pub first: Vec<Option<usize>>,
    pub last: Vec<Option<usize>>,
    pub end: (HTarget, usize),
    /// Per field: an opaque field's shared pointer (target, offset variable).
    pub shared: Vec<Option<(HTarget, usize)>>,
    pub kept: bool,
}

/// The arrival's allocation for each head allocation, and its list for each head list.
struct Maps {
    a: Vec<Option<usize>>,
    l: Vec<Option<usize>>,
}

#[derive(Clone, Debug)]
pub struct HAlloc {
    pub site: Site,
    /// Its size: the literal of a global or a fixed-size `alloca` (the same at every
    /// arrival), else a memory variable.
    pub size: HSize,
    pub init: Init,
    pub pristine: bool,
    pub read_only: bool,
    pub dynamic: bool,
    pub kept: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HSize {
    Lit(i128),
    Var(usize),
}

#[derive(Clone, Debug)]
pub struct HPtr {
    pub frame: usize,
    pub slot: Slot,
    pub target: HTarget,
    /// The memory variable of its offset.
    pub off: usize,
}

#[derive(Clone, Debug)]
pub enum HVal {
    /// The memory variable of the value, and its reading.
    Int(usize, Reading),
    /// Target and the memory variable of the offset.
    Ptr(HTarget, usize),
}

/// A kept cell's offset: `c + Σ a_j·x_j` over head variables (registers `0..n`, pointer
/// offsets from `n`); a literal has no terms. `a[i]` of a loop over `i` keeps its cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HOff {
    pub terms: Vec<(usize, i128)>,
    pub c: i128,
}

#[derive(Clone, Debug)]
pub struct HCell {
    pub alloc: usize,
    pub off: HOff,
    pub size: u32,
    pub val: HVal,
    pub kept: bool,
}

/// A memory variable: an unbounded integer (size, offset) or a ranged value.
#[derive(Clone, Copy, Debug)]
pub struct MVar {
    pub range: Option<(u32, Reading)>,
}

#[derive(Clone, Debug, Default)]
pub struct MemHead {
    pub allocs: Vec<HAlloc>,
    pub ptrs: Vec<HPtr>,
    pub cells: Vec<HCell>,
    pub vars: Vec<MVar>,
    /// The head's registers (frame, slot): head variables `0..regs.len()`.
    pub regs: Vec<(usize, Slot)>,
    /// `LI` of the general state.
    pub lists: Vec<HList>,
}

/// The literal `c` when `facts` contain `x_i ≥ c` and `x_i ≤ c` (or `x_i = c`).
fn fixed(facts: &[Atom], i: usize) -> Option<i128> {
    let only_i = |a: &Atom| a.poly.vars().into_iter().eq([i]) && a.poly.is_linear();
    let mut lo = None;
    let mut hi = None;
    for a in facts.iter().filter(|a| only_i(a)) {
        let k = a.poly.linear_coeff(i);
        let c = a.poly.constant_term();
        match (a.rel, k) {
            (symex_its::Rel::Eq, 1) => return Some(-c),
            (symex_its::Rel::Eq, -1) => return Some(c),
            (symex_its::Rel::Ge, 1) => lo = Some(-c),
            (symex_its::Rel::Ge, -1) => hi = Some(c),
            _ => {}
        }
    }
    match (lo, hi) {
        (Some(l), Some(h)) if l == h => Some(l),
        _ => None,
    }
}

/// The unique live allocation of `site` in `s`.
fn find(s: &State, site: Site) -> Option<usize> {
    let mut it = s
        .mem
        .allocs
        .iter()
        .enumerate()
        .filter(|(_, a)| a.live && a.site == site);
    let first = it.next()?.0;
    it.next().is_none().then_some(first)
}

impl MemHead {
    fn var(&mut self, range: Option<(u32, Reading)>) -> usize {
        self.vars.push(MVar { range });
        self.vars.len() - 1
    }

    /// The memory part of a head from its first arrival; `used(frame, slot)` says whether a
    /// pointer register is read from the head on.
    pub fn of(s: &State, used: &dyn Fn(usize, Slot) -> bool, regs: &[(usize, Slot)]) -> MemHead {
        let mut h = MemHead {
            regs: regs.to_vec(),
            ..MemHead::default()
        };
        let mut map = vec![None; s.mem.allocs.len()];
        for (i, a) in s.mem.allocs.iter().enumerate() {
            if a.live && find(s, a.site) == Some(i) {
                let fixed = !a.dynamic && !matches!(a.site, Site::Inst { heap: true, .. });
                let size = match a.size.as_constant() {
                    Some(c) if fixed => HSize::Lit(c),
                    _ => HSize::Var(h.var(None)),
                };
                map[i] = Some(h.allocs.len());
                h.allocs.push(HAlloc {
                    site: a.site,
                    size,
                    init: a.init,
                    pristine: a.pristine,
                    read_only: a.read_only,
                    dynamic: a.dynamic,
                    kept: true,
                });
            }
        }
        let lmap = h.add_lists(s, used, &map);
        let target = |t: Target| match t {
            Target::Null => HTarget::Null,
            Target::Alloc(a) => map[a].map_or(HTarget::Unknown, HTarget::Alloc),
            Target::List(j) => lmap[j].map_or(HTarget::Unknown, HTarget::List),
            Target::Unknown | Target::StackMark(_) => HTarget::Unknown,
        };
        for (j, hl) in lmap.iter().enumerate() {
            if let Some(hl) = *hl {
                let off = h.var(None);
                h.lists[hl].end = (target(s.mem.lists[j].end.target), off);
                for k in 0..h.lists[hl].fields.len() {
                    if h.lists[hl].fields[k].kind == crate::list::FieldKind::Opaque {
                        let off = h.var(None);
                        h.lists[hl].shared[k] =
                            Some((target(s.mem.lists[j].shared[k].target), off));
                    }
                }
            }
        }
        for (fi, f) in s.frames.iter().enumerate() {
            for (slot, p) in &f.ptrs {
                if used(fi, *slot) {
                    let off = h.var(None);
                    h.ptrs.push(HPtr {
                        frame: fi,
                        slot: *slot,
                        target: target(p.target),
                        off,
                    });
                }
            }
        }
        for (i, ha) in map.iter().enumerate() {
            let Some(ha) = *ha else { continue };
            let cells: Vec<(&Cell, Option<HOff>)> = s
                .mem
                .cells
                .iter()
                .filter(|c| c.alloc == i)
                .map(|c| (c, h.express(s, &c.off)))
                .collect();
            let all = cells.iter().all(|(_, o)| o.is_some());
            if !all || cells.len() > MAX_CELLS_PER_ALLOC {
                h.allocs[ha].pristine = false;
            }
            if cells.len() > MAX_CELLS_PER_ALLOC {
                continue;
            }
            for (c, off) in cells {
                let Some(off) = off else { continue };
                let val = match &c.val {
                    Content::Int(_, r) => HVal::Int(h.var(Some((c.size * 8, *r))), *r),
                    Content::Ptr(p) => HVal::Ptr(target(p.target), h.var(None)),
                };
                h.cells.push(HCell {
                    alloc: ha,
                    off,
                    size: c.size,
                    val,
                    kept: true,
                });
            }
        }
        h
    }

    /// The head lists of the first arrival: its live lists that a used register, a cell of a
    /// kept allocation or another such list's end reaches; the head list of each.
    fn add_lists(
        &mut self,
        s: &State,
        used: &dyn Fn(usize, Slot) -> bool,
        map: &[Option<usize>],
    ) -> Vec<Option<usize>> {
        let mut reached = vec![false; s.mem.lists.len()];
        let reach = |t: Target, reached: &mut Vec<bool>| {
            if let Target::List(j) = t {
                reached[j] = s.mem.lists[j].live;
            }
        };
        for (fi, f) in s.frames.iter().enumerate() {
            for (slot, p) in &f.ptrs {
                if used(fi, *slot) {
                    reach(p.target, &mut reached);
                }
            }
        }
        for c in &s.mem.cells {
            if let (Content::Ptr(p), Some(_)) = (&c.val, map[c.alloc]) {
                reach(p.target, &mut reached);
            }
        }
        for _ in 0..s.mem.lists.len() {
            for j in 0..s.mem.lists.len() {
                if reached[j] {
                    reach(s.mem.lists[j].end.target, &mut reached);
                }
            }
        }
        let mut lmap = vec![None; s.mem.lists.len()];
        for (j, l) in s.mem.lists.iter().enumerate() {
            if !reached[j] {
                continue;
            }
            lmap[j] = Some(self.lists.len());
            let len = self.var(None);
            let vals = |me: &mut MemHead| -> Vec<Option<usize>> {
                l.fields
                    .iter()
                    .map(|f| match f.kind {
                        crate::list::FieldKind::Int(r) => Some(me.var(Some((f.size * 8, r)))),
                        crate::list::FieldKind::Next | crate::list::FieldKind::Opaque => None,
                    })
                    .collect()
            };
            let first = vals(self);
            let last = vals(self);
            self.lists.push(HList {
                site: l.site,
                elem_size: l.elem_size,
                fields: l.fields.clone(),
                steps: l.steps.clone(),
                len,
                first,
                last,
                end: (HTarget::Unknown, 0),
                shared: vec![None; l.fields.len()],
                kept: true,
            });
        }
        lmap
    }

    /// The variables of a head list (length, first and last values, end offset).
    fn list_vars(l: &HList) -> Vec<usize> {
        let mut v = vec![l.len, l.end.1];
        v.extend(l.first.iter().chain(&l.last).flatten());
        v.extend(l.shared.iter().flatten().map(|s| s.1));
        v
    }

    /// The arrival's list for each head list: through the registers, the cells and the ends
    /// that point to it (each arrival list the image of at most one head list).
    fn list_map(&self, s: &State, amap: &[Option<usize>]) -> Vec<Option<usize>> {
        let mut lmap: Vec<Option<usize>> = vec![None; self.lists.len()];
        let set = |h: usize, t: Target, lmap: &mut Vec<Option<usize>>| {
            if let Target::List(j) = t {
                if lmap[h].is_none() && s.mem.lists[j].live && !lmap.contains(&Some(j)) {
                    lmap[h] = Some(j);
                }
            }
        };
        for p in &self.ptrs {
            if let (HTarget::List(h), Some(q)) = (p.target, s.frames[p.frame].ptrs.get(&p.slot)) {
                set(h, q.target, &mut lmap);
            }
        }
        for c in self.cells.iter().filter(|c| c.kept) {
            let (HVal::Ptr(HTarget::List(h), _), Some(a)) = (&c.val, amap[c.alloc]) else {
                continue;
            };
            let Some(off) = self.expected(&c.off, s) else {
                continue;
            };
            for x in &s.mem.cells {
                if let (true, Content::Ptr(q)) = (x.alloc == a && x.off == off, &x.val) {
                    set(*h, q.target, &mut lmap);
                }
            }
        }
        for _ in 0..self.lists.len() {
            for (h, l) in self.lists.iter().enumerate() {
                if let (HTarget::List(h2), Some(j)) = (l.end.0, lmap[h]) {
                    set(h2, s.mem.lists[j].end.target, &mut lmap);
                }
            }
        }
        lmap
    }

    /// `off` (of the arrival `s`) as an offset over head variables: each of its variables the
    /// value of a head register or a pointer offset.
    fn express(&self, s: &State, off: &Poly) -> Option<HOff> {
        if !off.is_linear() {
            return None;
        }
        let n = self.regs.len();
        let mut terms = Vec::new();
        for v in off.vars() {
            let var = Poly::var(v);
            let reg = self.regs.iter().position(|(fi, slot)| {
                s.frames[*fi].regs.get(slot).map(|x| x.poly()) == Some(var.clone())
            });
            let ptr = || {
                self.ptrs.iter().find_map(|p| {
                    let q = s.frames[p.frame].ptrs.get(&p.slot)?;
                    (p.target != HTarget::Unknown && q.off == var).then_some(n + p.off)
                })
            };
            terms.push((reg.or_else(ptr)?, off.linear_coeff(v)));
        }
        Some(HOff {
            terms,
            c: off.constant_term(),
        })
    }

    /// A head offset's value in the arrival `s` (`None` when a variable has no value there).
    fn expected(&self, off: &HOff, s: &State) -> Option<Poly> {
        let n = self.regs.len();
        let mut p = Poly::constant(off.c);
        for &(j, a) in &off.terms {
            let v = if j < n {
                let (fi, slot) = self.regs[j];
                s.frames[fi].regs.get(&slot)?.poly()
            } else {
                let hp = self.ptrs.iter().find(|p| p.off == j - n)?;
                if hp.target == HTarget::Unknown {
                    return None;
                }
                s.frames[hp.frame].ptrs.get(&hp.slot)?.off.clone()
            };
            p = p.add(&v.scale(a));
        }
        Some(p)
    }

    /// The initial liveness of the memory variables: the offset of an unknown pointer
    /// carries nothing.
    pub fn initial_live(&self) -> Vec<bool> {
        let mut live = vec![true; self.vars.len()];
        for l in &self.lists {
            if l.end.0 == HTarget::Unknown {
                live[l.end.1] = false;
            }
            for (t, off) in l.shared.iter().flatten() {
                if *t == HTarget::Unknown {
                    live[*off] = false;
                }
            }
        }
        for p in &self.ptrs {
            if p.target == HTarget::Unknown {
                live[p.off] = false;
            }
        }
        live
    }

    /// The arrival's allocation for each head allocation.
    fn alloc_map(&self, s: &State) -> Vec<Option<usize>> {
        self.allocs
            .iter()
            .map(|a| if a.kept { find(s, a.site) } else { None })
            .collect()
    }

    fn maps(&self, s: &State) -> Maps {
        let a = self.alloc_map(s);
        let l = self.list_map(s, &a);
        Maps { a, l }
    }

    fn target_matches(t: HTarget, p: &Ptr, m: &Maps) -> bool {
        match t {
            HTarget::Unknown => true,
            HTarget::Null => p.target == Target::Null,
            HTarget::Alloc(h) => m.a[h].is_some_and(|a| p.target == Target::Alloc(a)),
            HTarget::List(h) => m.l[h].is_some_and(|j| p.target == Target::List(j)),
        }
    }

    /// The arrival's cell for a head cell.
    fn cell_of<'s>(&self, c: &HCell, s: &'s State, m: &Maps) -> Option<&'s Cell> {
        let a = m.a[c.alloc]?;
        let off = self.expected(&c.off, s)?;
        s.mem.cells.iter().find(|x| {
            x.alloc == a
                && x.size == c.size
                && x.off == off
                && match (&c.val, &x.val) {
                    (HVal::Int(_, r), Content::Int(_, q)) => r == q,
                    (HVal::Ptr(t, _), Content::Ptr(p)) => Self::target_matches(*t, p, m),
                    _ => false,
                }
        })
    }

    /// Converts the arrival's cells that the head keeps in the other reading (a store of a
    /// signed value into a cell that held an unsigned one) to the head's reading, by the
    /// modulo relation of [`Exec::convert`]: the same concrete states, matchable by `μ`.
    pub fn normalize(&self, ex: &mut Exec, s: &mut State) {
        let amap = self.alloc_map(s);
        for c in self.cells.iter().filter(|c| c.kept) {
            let (HVal::Int(_, want), Some(a)) = (&c.val, amap[c.alloc]) else {
                continue;
            };
            let Some(off) = self.expected(&c.off, s) else {
                continue;
            };
            let Some(i) = s
                .mem
                .cells
                .iter()
                .position(|x| x.alloc == a && x.size == c.size && x.off == off)
            else {
                continue;
            };
            if let Content::Int(v, have) = s.mem.cells[i].val {
                if have != *want {
                    let w = c.size * 8;
                    let p = ex.convert(s, v, w, have, *want);
                    let val = ex.value_of(s, p, w, *want);
                    s.mem.cells[i].val = Content::Int(val, *want);
                }
            }
        }
    }

    /// Whether `s` matches the memory part (else it is weakened, `live` of the memory
    /// variables updated, and `false` returned).
    pub fn matches(&mut self, s: &State, live: &mut [bool]) -> bool {
        let mut ok = true;
        let maps = self.maps(s);
        let amap = maps.a.clone();
        for (h, a) in self.allocs.iter_mut().enumerate() {
            if a.kept && amap[h].is_none() {
                a.kept = false;
                a.pristine = false;
                if let HSize::Var(v) = a.size {
                    live[v] = false;
                }
                ok = false;
            }
        }
        ok &= self.match_lists(s, &maps, live);
        let kept: Vec<bool> = self.allocs.iter().map(|a| a.kept).collect();
        let lkept: Vec<bool> = self.lists.iter().map(|l| l.kept).collect();
        let forget = |t: &mut HTarget, off: usize, live: &mut [bool]| {
            let gone = match *t {
                HTarget::Alloc(h) => !kept[h],
                HTarget::List(h) => !lkept[h],
                _ => false,
            };
            if gone {
                *t = HTarget::Unknown;
                live[off] = false;
            }
            !gone
        };
        for l in self.lists.iter_mut().filter(|l| l.kept) {
            ok &= forget(&mut l.end.0, l.end.1, live);
            for (t, off) in l.shared.iter_mut().flatten() {
                ok &= forget(t, *off, live);
            }
        }
        for p in &mut self.ptrs {
            if p.target == HTarget::Unknown {
                continue;
            }
            ok &= forget(&mut p.target, p.off, live);
            let arrived = s.frames[p.frame].ptrs.get(&p.slot);
            let same = arrived.is_some_and(|q| Self::target_matches(p.target, q, &maps));
            if !same {
                p.target = HTarget::Unknown;
                live[p.off] = false;
                ok = false;
            }
        }
        for i in 0..self.cells.len() {
            let c = &self.cells[i];
            if !c.kept {
                continue;
            }
            let gone = !kept[c.alloc] || self.cell_of(c, s, &maps).is_none();
            if gone {
                let c = &mut self.cells[i];
                c.kept = false;
                let v = match c.val {
                    HVal::Int(v, _) | HVal::Ptr(_, v) => v,
                };
                live[v] = false;
                self.allocs[c.alloc].pristine = false;
                ok = false;
            } else if let HVal::Ptr(t, v) = &mut self.cells[i].val {
                ok &= forget(t, *v, live);
            }
        }
        // `pristine` at the head: the arrival's allocation is pristine and has no cell
        // beyond the head's (whose bytes would not hold the initializer).
        for (h, a) in self.allocs.iter_mut().enumerate() {
            let Some(x) = amap[h].filter(|_| a.pristine) else {
                continue;
            };
            let xa = &s.mem.allocs[x];
            let extra = s.mem.cells.iter().filter(|c| c.alloc == x).count()
                > self.cells.iter().filter(|c| c.kept && c.alloc == h).count();
            if !xa.pristine || xa.init != a.init || extra {
                a.pristine = false;
                ok = false;
            }
        }
        ok
    }

    /// Whether the arrival's lists match the head's (the same shape; steps at least the
    /// head's; the end where the head has it): [L]'s (g6). A list without a counterpart is
    /// dropped with its variables, a weaker step or another end weakens the head.
    fn match_lists(&mut self, s: &State, maps: &Maps, live: &mut [bool]) -> bool {
        let mut ok = true;
        for (h, l) in self.lists.iter_mut().enumerate() {
            if !l.kept {
                continue;
            }
            let x = maps.l[h]
                .map(|j| &s.mem.lists[j])
                .filter(|x| x.elem_size == l.elem_size && x.fields == l.fields);
            let Some(x) = x else {
                l.kept = false;
                for v in Self::list_vars(l) {
                    live[v] = false;
                }
                ok = false;
                continue;
            };
            for (mine, theirs) in l.steps.iter_mut().zip(&x.steps) {
                if !theirs.implies(mine) {
                    *mine = mine.meet(theirs);
                    ok = false;
                }
            }
            if !Self::target_matches(l.end.0, &x.end, maps) {
                l.end.0 = HTarget::Unknown;
                live[l.end.1] = false;
                ok = false;
            }
            for (k, sh) in l.shared.iter_mut().enumerate() {
                if let Some((t, off)) = sh {
                    if *t != HTarget::Unknown && !Self::target_matches(*t, &x.shared[k], maps) {
                        *t = HTarget::Unknown;
                        live[*off] = false;
                        ok = false;
                    }
                }
            }
        }
        ok
    }

    /// `μ` of the memory variables for a matching arrival (`None` for dead ones).
    pub fn mu(&self, s: &State, live: &[bool]) -> Vec<Option<Poly>> {
        let maps = self.maps(s);
        let amap = &maps.a;
        let mut mu: Vec<Option<Poly>> = vec![None; self.vars.len()];
        for (h, a) in self.allocs.iter().enumerate() {
            if let (Some(x), HSize::Var(v)) = (amap[h], a.size) {
                mu[v] = Some(s.mem.allocs[x].size.clone());
            }
        }
        for p in &self.ptrs {
            if let Some(q) = s.frames[p.frame].ptrs.get(&p.slot) {
                mu[p.off] = Some(q.off.clone());
            }
        }
        for (h, l) in self.lists.iter().enumerate().filter(|(_, l)| l.kept) {
            let Some(x) = maps.l[h].map(|j| &s.mem.lists[j]) else {
                continue;
            };
            mu[l.len] = Some(x.len.clone());
            mu[l.end.1] = Some(x.end.off.clone());
            for (k, sh) in l.shared.iter().enumerate() {
                if let Some((_, off)) = sh {
                    mu[*off] = Some(x.shared[k].off.clone());
                }
            }
            for (k, (f, la)) in l.first.iter().zip(&l.last).enumerate() {
                if let (Some(f), Some(la)) = (f, la) {
                    mu[*f] = Some(x.first[k].poly());
                    mu[*la] = Some(x.last[k].poly());
                }
            }
        }
        for c in self.cells.iter().filter(|c| c.kept) {
            match (self.cell_of(c, s, &maps).map(|x| &x.val), &c.val) {
                (Some(Content::Int(v, _)), HVal::Int(m, _)) => mu[*m] = Some(v.poly()),
                (Some(Content::Ptr(q)), HVal::Ptr(_, m)) => mu[*m] = Some(q.off.clone()),
                _ => {}
            }
        }
        for (m, l) in mu.iter_mut().zip(live) {
            if !l {
                *m = None;
            }
        }
        mu
    }

    /// Puts the general memory into `st` (its frames already set up): fresh variables for
    /// the live memory variables, returned in order. A variable the head's `facts` (over
    /// registers `0..n` and memory variables from `n`) fix to a literal appears in the memory
    /// as that literal: an offset of 0 stays a literal offset, so cells at it match.
    pub fn instantiate(
        &self,
        ex: &mut Exec,
        st: &mut State,
        live: &[bool],
        facts: &[Atom],
        n: usize,
    ) -> Vec<Option<usize>> {
        let vars: Vec<Option<usize>> = self
            .vars
            .iter()
            .zip(live)
            .map(|(v, l)| {
                l.then(|| match v.range {
                    Some((w, r)) => ex.fresh(st, w, r),
                    None => ex.fresh_int(),
                })
            })
            .collect();
        let poly = |v: usize| match fixed(facts, n + v) {
            Some(c) => Poly::constant(c),
            None => vars[v].map_or(Poly::constant(0), Poly::var),
        };
        let mut index = vec![None; self.allocs.len()];
        for (h, a) in self.allocs.iter().enumerate().filter(|(_, a)| a.kept) {
            index[h] = Some(st.mem.allocs.len());
            st.mem.allocs.push(Alloc {
                site: a.site,
                size: match a.size {
                    HSize::Lit(c) => Poly::constant(c),
                    HSize::Var(v) => poly(v),
                },
                live: true,
                init: a.init,
                pristine: a.pristine,
                read_only: a.read_only,
                dynamic: a.dynamic,
            });
        }
        let val = |v: usize| match fixed(facts, n + v) {
            Some(c) => Val::Const(c),
            None => vars[v].map_or(Val::Const(0), Val::Var),
        };
        let mut lindex = vec![None; self.lists.len()];
        for (h, l) in self.lists.iter().enumerate().filter(|(_, l)| l.kept) {
            lindex[h] = Some(st.mem.lists.len());
            let vals = |vs: &[Option<usize>]| -> Vec<Val> {
                vs.iter().map(|v| v.map_or(Val::Const(0), val)).collect()
            };
            st.mem.lists.push(crate::list::ListInv {
                site: l.site,
                elem_size: l.elem_size,
                fields: l.fields.clone(),
                len: poly(l.len),
                first: vals(&l.first),
                last: vals(&l.last),
                steps: l.steps.clone(),
                end: Ptr::unknown(),
                shared: vec![Ptr::unknown(); l.fields.len()],
                live: true,
            });
        }
        let ptr = |t: HTarget, off: usize| match (t, vars[off]) {
            (HTarget::List(h), Some(_)) => Ptr {
                target: lindex[h].map_or(Target::Unknown, Target::List),
                off: poly(off),
            },
            (HTarget::Null, Some(_)) => Ptr {
                target: Target::Null,
                off: poly(off),
            },
            (HTarget::Alloc(h), Some(_)) => Ptr {
                target: index[h].map_or(Target::Unknown, Target::Alloc),
                off: poly(off),
            },
            _ => Ptr::unknown(),
        };
        for (h, l) in self.lists.iter().enumerate() {
            if let Some(i) = lindex[h] {
                st.mem.lists[i].end = ptr(l.end.0, l.end.1);
                for (k, sh) in l.shared.iter().enumerate() {
                    if let Some((t, off)) = sh {
                        st.mem.lists[i].shared[k] = ptr(*t, *off);
                    }
                }
                let facts = st.mem.lists[i].facts();
                st.kb.extend(facts);
            }
        }
        for p in &self.ptrs {
            st.frames[p.frame].ptrs.insert(p.slot, ptr(p.target, p.off));
        }
        for c in self.cells.iter().filter(|c| c.kept) {
            let Some(alloc) = index[c.alloc] else {
                continue;
            };
            // The registers and pointers of `st` are set: the offset over its variables. A
            // cell that cannot be placed (a register it needs is dead) leaves bytes that no
            // cell describes: the allocation is no longer pristine.
            let Some(off) = self.expected(&c.off, st) else {
                st.mem.allocs[alloc].pristine = false;
                continue;
            };
            let val = match c.val {
                HVal::Int(v, r) => Content::Int(val(v), r),
                HVal::Ptr(t, v) => Content::Ptr(ptr(t, v)),
            };
            st.mem.cells.push(Cell {
                alloc,
                off,
                size: c.size,
                val,
            });
        }
        vars
    }

    /// Candidate facts over the head's variables (registers `0..n`, memory variables from
    /// `n`), given the first arrival's values `regs` (with width and reading) and `mu`:
    /// each memory variable's value (literal, or in a model of the KB: `value`) as bounds, a size at least each offset into it
    /// and offsets at least 0, `m = a·x + b` when the arrival's value is that of register
    /// `x`, literal bounds and orderings with registers for cell values.
    pub fn candidates(
        &self,
        n: usize,
        regs: &[(Poly, u32, Reading)],
        mu: &[Option<Poly>],
        lits: &[i128],
        value: &dyn Fn(&Poly) -> Option<i128>,
    ) -> Vec<Atom> {
        let mut out = Vec::new();
        let x = |i: usize| Poly::var(i);
        // Registers and ranged memory variables, for orderings between them.
        let mut ordered: Vec<(usize, u32)> =
            regs.iter().enumerate().map(|(i, r)| (i, r.1)).collect();
        for (k, v) in self.vars.iter().enumerate() {
            if let (Some((w, _)), Some(_)) = (v.range, &mu[k]) {
                ordered.push((n + k, w));
            }
        }
        if ordered.len() > 16 {
            ordered.clear();
        }
        for (k, m) in mu.iter().enumerate() {
            let Some(m) = m else { continue };
            let me = x(n + k);
            // Its literal value, or its value in a model (a size the KB fixes).
            if let Some(c) = m.as_constant().or_else(|| value(m)) {
                out.push(ge_c(&me, c));
                out.push(le_c(&me, c));
            }
            // Sizes: `m = c·x` for the usual element sizes (`malloc(n * 4)`).
            if self.allocs.iter().any(|a| a.size == HSize::Var(k)) {
                for (i, (_, w, _)) in regs.iter().enumerate() {
                    if *w > 1 {
                        for c in [1, 2, 4, 8] {
                            out.push(ge(&me, &x(i).scale(c)));
                            out.push(ge(&x(i).scale(c), &me));
                        }
                    }
                }
            }
            // `m = a·v + b` with `v` the value of register `i`.
            if let [v] = m.vars().into_iter().collect::<Vec<_>>()[..] {
                let a = m.linear_coeff(v);
                let b = m.constant_term();
                if m.is_linear() {
                    for (i, (r, _, _)) in regs.iter().enumerate() {
                        if *r == Poly::var(v) {
                            let rhs = x(i).scale(a).add(&Poly::constant(b));
                            out.push(ge(&me, &rhs));
                            out.push(ge(&rhs, &me));
                        }
                    }
                }
            }
            if let Some((w, r)) = self.vars[k].range {
                let (lo, hi) = crate::rules::range(w, r);
                for &c in lits {
                    let c = crate::state::convert_const(c, w, r);
                    if c > lo {
                        out.push(ge_c(&me, c));
                    }
                    if c < hi {
                        out.push(le_c(&me, c));
                    }
                }
                for &(i, rw) in &ordered {
                    if rw == w && i != n + k {
                        out.push(ge(&me, &x(i)));
                        out.push(ge(&x(i), &me));
                        out.push(ge(&me, &x(i).add(&Poly::constant(1))));
                        out.push(ge(&x(i), &me.add(&Poly::constant(1))));
                    }
                }
            }
        }
        out.extend(self.list_candidates(n, regs));
        for p in &self.ptrs {
            out.push(ge_c(&x(n + p.off), 0));
            if let HTarget::Alloc(h) = p.target {
                let size = match self.allocs[h].size {
                    HSize::Lit(c) => Poly::constant(c),
                    HSize::Var(v) => x(n + v),
                };
                out.push(ge(&size, &x(n + p.off)));
            }
        }
        out
    }

    /// [L]'s constraints (A)–(C) as candidates: the length equal to a register `± 1` (a
    /// counter of the loop that built the list), first and last values equal to a register
    /// `± 1` (the counter the values came from).
    fn list_candidates(&self, n: usize, regs: &[(Poly, u32, Reading)]) -> Vec<Atom> {
        let mut out = Vec::new();
        let x = |i: usize| Poly::var(i);
        let near = |me: &Poly, r: &Poly, out: &mut Vec<Atom>| {
            for c in [-1, 0, 1] {
                let rhs = r.add(&Poly::constant(c));
                out.push(ge(me, &rhs));
                out.push(ge(&rhs, me));
            }
        };
        for l in self.lists.iter().filter(|l| l.kept) {
            let len = x(n + l.len);
            out.push(ge_c(&len, 2));
            for (i, (_, w, _)) in regs.iter().enumerate() {
                if *w > 1 {
                    near(&len, &x(i), &mut out);
                }
            }
            for (k, f) in l.fields.iter().enumerate() {
                let crate::list::FieldKind::Int(_) = f.kind else {
                    continue;
                };
                for v in [l.first[k], l.last[k]].into_iter().flatten() {
                    for (i, (_, w, _)) in regs.iter().enumerate() {
                        if *w == f.size * 8 {
                            near(&x(n + v), &x(i), &mut out);
                        }
                    }
                }
            }
        }
        out
    }

    /// The memory part in text (for the SEG's description).
    pub fn describe(&self, n: usize) -> String {
        let t = |t: HTarget| match t {
            HTarget::Null => "null".to_string(),
            HTarget::Alloc(h) => format!("a{h}"),
            HTarget::Unknown => "?".to_string(),
            HTarget::List(h) => format!("l{h}"),
        };
        let mut parts = Vec::new();
        for (h, l) in self.lists.iter().enumerate().filter(|(_, l)| l.kept) {
            let v = |o: Option<usize>| o.map_or("-".into(), |v| format!("x{}", n + v));
            let fields: Vec<String> = l
                .fields
                .iter()
                .enumerate()
                .map(|(k, f)| match f.kind {
                    crate::list::FieldKind::Next => format!("({}:ptr:next..{})", f.off, t(l.end.0)),
                    crate::list::FieldKind::Opaque => match l.shared[k] {
                        Some((h, off)) if h != HTarget::Unknown => {
                            format!("({}:ptr:all {} + x{})", f.off, t(h), n + off)
                        }
                        _ => format!("({}:ptr:any)", f.off),
                    },
                    crate::list::FieldKind::Int(_) => {
                        let s = &l.steps[k];
                        let step = match (s.delta, s.nonincreasing, s.nondecreasing) {
                            (Some(c), _, _) => format!(" step {c}"),
                            (None, true, _) => " nonincreasing".into(),
                            (None, _, true) => " nondecreasing".into(),
                            _ => String::new(),
                        };
                        format!(
                            "({}:i{}:{}..{}{step})",
                            f.off,
                            f.size * 8,
                            v(l.first[k]),
                            v(l.last[k])
                        )
                    }
                })
                .collect();
            parts.push(format!(
                "list l{h} ->^{{x{}}}_{{{} bytes}} [{}]",
                n + l.len,
                l.elem_size,
                fields.join(", ")
            ));
        }
        for (h, a) in self.allocs.iter().enumerate().filter(|(_, a)| a.kept) {
            let size = match a.size {
                HSize::Lit(c) => c.to_string(),
                HSize::Var(v) => format!("x{}", n + v),
            };
            parts.push(format!("a{h} = {:?} of {size} bytes", a.site));
        }
        for p in &self.ptrs {
            parts.push(format!("%{} -> {} + x{}", p.slot.0, t(p.target), n + p.off));
        }
        for c in self.cells.iter().filter(|c| c.kept) {
            let v = match c.val {
                HVal::Int(v, _) => format!("x{}", n + v),
                HVal::Ptr(tt, v) => format!("{} + x{}", t(tt), n + v),
            };
            let off = c
                .off
                .terms
                .iter()
                .fold(c.off.c.to_string(), |s, (j, a)| format!("{s} + {a}*x{j}"));
            parts.push(format!("a{}[{off}..+{}] = {v}", c.alloc, c.size));
        }
        parts.join("; ")
    }
}
