//! List invariants (Hensel & Giesl, *Proving Termination of C Programs with Lists*, seed 000,
//! "[L]" §2): the component `LI` of abstract states.
//!
//! `v_ad →^{v_ℓ}_ty [(off_i : ty_i : v_i .. v̂_i)]` stands for `v_ℓ ≥ 1` heap elements of one
//! struct shape, each its own allocation, the first at `v_ad`, chained through the one
//! pointer field (`next`); field `i` holds `v_i` in the first element and `v̂_i` in the last.
//! With provenance addresses (see `state.rs`), `v_ad` is the pointer target
//! [`Target::List`]: elements are disjoint from every `AL` entry and from each other list by
//! construction (a chain is folded only when nothing else points into it), so `⟨a⟩_FO` needs
//! no disjointness atoms. The last element's `next` is [`ListInv::end`]: null (a
//! NULL-terminated list), the list itself (cyclic), or whatever the chain ran into.
//!
//! Per integer field a [`Step`] says how the value changes from one element to the next
//! (AProVE's field annotations: a constant step, or monotone), which a search by value needs.
//!
//! [`fold`] is the merge of §3.1 done on one state: at a loop head, chains of concrete
//! elements (and a concrete element linked in front of a list: list extension, §3.2.1)
//! become list invariants, so that arrivals with lists of different lengths are instances of
//! one general state whose length is a head variable (constraints (A)–(C) are the head's
//! candidate facts, `mem_head.rs`). The rules that take elements out again are in
//! `rules/list.rs`.

use crate::rules::Exec;
use crate::state::{eq, ge, Content, Ptr, Reading, Site, State, Target, Val};
use symex_its::{Atom, Poly};

/// What a field of an element holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldKind {
    Int(Reading),
    /// The recursive field: the next element (or the list's end).
    Next,
}

/// A field of the element struct: byte offset, size, kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    pub off: i128,
    pub size: u32,
    pub kind: FieldKind,
}

/// How an integer field's value changes from one element to the next (`v_{k+1} − v_k`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Step {
    /// Always exactly this (`value = j` of a counting loop: −1 towards the tail).
    pub delta: Option<i128>,
    /// Never larger (sorted descending towards the tail).
    pub nonincreasing: bool,
    /// Never smaller.
    pub nondecreasing: bool,
}

impl Step {
    /// Whether `self` claims at least what `weaker` claims.
    pub fn implies(&self, weaker: &Step) -> bool {
        (weaker.delta.is_none() || weaker.delta == self.delta)
            && (!weaker.nonincreasing || self.nonincreasing)
            && (!weaker.nondecreasing || self.nondecreasing)
    }

    /// What both claim.
    pub fn meet(&self, other: &Step) -> Step {
        Step {
            delta: self.delta.filter(|d| other.delta == Some(*d)),
            nonincreasing: self.nonincreasing && other.nonincreasing,
            nondecreasing: self.nondecreasing && other.nondecreasing,
        }
    }
}

/// An `LI` entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ListInv {
    /// The allocation site of the elements (an unfolded element gets it back).
    pub site: Site,
    pub elem_size: i128,
    /// By offset; exactly one is [`FieldKind::Next`].
    pub fields: Vec<Field>,
    /// `v_ℓ ≥ 1`.
    pub len: Poly,
    /// `v_i` per field (`Const(0)` for the next field, which the chain defines).
    pub first: Vec<Val>,
    /// `v̂_i`.
    pub last: Vec<Val>,
    pub steps: Vec<Step>,
    /// The last element's next field.
    pub end: Ptr,
    pub live: bool,
}

impl ListInv {
    pub fn next_field(&self) -> usize {
        self.fields
            .iter()
            .position(|f| f.kind == FieldKind::Next)
            .expect("a list has a next field")
    }

    /// Same element struct (offsets, sizes, kinds).
    pub fn same_shape(&self, other: &ListInv) -> bool {
        self.elem_size == other.elem_size && self.fields == other.fields
    }

    /// The facts every list contributes to `⟨a⟩_FO` beyond `v_ℓ ≥ 1`: a constant step fixes
    /// the last value (`v̂ = v + c·(v_ℓ − 1)`), a monotone field bounds it by the first.
    pub fn facts(&self) -> Vec<Atom> {
        let mut out = vec![crate::state::ge_c(&self.len, 1)];
        for (k, f) in self.fields.iter().enumerate() {
            if f.kind == FieldKind::Next {
                continue;
            }
            let (a, b) = (self.first[k].poly(), self.last[k].poly());
            let s = &self.steps[k];
            if let Some(c) = s.delta {
                let shifted = a.add(&self.len.scale(c)).sub(&Poly::constant(c));
                out.push(eq(&b, &shifted));
            }
            if s.nonincreasing {
                out.push(ge(&a, &b));
            }
            if s.nondecreasing {
                out.push(ge(&b, &a));
            }
        }
        out.retain(|a| crate::state::const_truth(a).is_none());
        out
    }

    /// The invariant in the paper's notation, with `name` for symbolic variables.
    pub fn describe(&self, name: &dyn Fn(usize) -> String) -> String {
        let fields: Vec<String> = self
            .fields
            .iter()
            .enumerate()
            .map(|(k, f)| match f.kind {
                FieldKind::Next => format!("({}:ptr:next..{})", f.off, ptr_text(&self.end)),
                FieldKind::Int(r) => format!(
                    "({}:i{}{}:{}..{}{})",
                    f.off,
                    f.size * 8,
                    if r == Reading::Signed { "s" } else { "u" },
                    self.first[k].poly().display(name),
                    self.last[k].poly().display(name),
                    step_text(&self.steps[k])
                ),
            })
            .collect();
        format!(
            "list ->^{{{}}}_{{{} bytes}} [{}]",
            self.len.display(name),
            self.elem_size,
            fields.join(", ")
        )
    }
}

fn ptr_text(p: &Ptr) -> String {
    match p.target {
        Target::Null => "null".into(),
        Target::List(i) => format!("list{i}"),
        Target::Alloc(a) => format!("alloc{a}"),
        _ => "?".into(),
    }
}

fn step_text(s: &Step) -> String {
    match (s.delta, s.nonincreasing, s.nondecreasing) {
        (Some(c), _, _) => format!(" step {c}"),
        (None, true, _) => " nonincreasing".into(),
        (None, _, true) => " nondecreasing".into(),
        _ => String::new(),
    }
}

/// Replaces every pointer to `from` (registers of all frames, cells, list ends) by the same
/// offset into `to`.
pub fn retarget(st: &mut State, from: Target, to: Target) {
    let fix = |p: &mut Ptr| {
        if p.target == from {
            p.target = to;
        }
    };
    for f in &mut st.frames {
        f.ptrs.values_mut().for_each(fix);
    }
    for c in &mut st.mem.cells {
        if let Content::Ptr(p) = &mut c.val {
            fix(p);
        }
    }
    for l in &mut st.mem.lists {
        fix(&mut l.end);
    }
}

/// Whether the module has a struct with a pointer field: only then can a program build
/// lists, and only then do loop heads unroll arrivals with null pointers or short lists.
pub fn module_has_links(module: &symex_ir::Module) -> bool {
    module.types.iter().any(|t| match &t.kind {
        symex_ir::TypeKind::Struct { fields, .. } => fields
            .iter()
            .any(|f| matches!(module.ty(*f).kind, symex_ir::TypeKind::Ptr)),
        _ => false,
    })
}

/// The shape of an allocation that can be a list element: a live heap block of literal size
/// whose cells sit at literal offsets, exactly one of them a pointer (the next field).
fn element_shape(st: &State, a: usize, cells: &[usize]) -> Option<(Vec<Field>, usize)> {
    let al = &st.mem.allocs[a];
    let size = al.size.as_constant()?;
    if !al.live || !matches!(al.site, Site::Inst { heap: true, .. }) || size <= 0 {
        return None;
    }
    let mut fields = Vec::new();
    let mut next = None;
    let mut sorted: Vec<usize> = cells.to_vec();
    sorted.sort_by_key(|c| st.mem.cells[*c].off.as_constant());
    let mut end = 0;
    for &c in &sorted {
        let cell = &st.mem.cells[c];
        let off = cell.off.as_constant()?;
        if off < end || off + cell.size as i128 > size {
            return None;
        }
        end = off + cell.size as i128;
        let kind = match &cell.val {
            Content::Int(_, r) => FieldKind::Int(*r),
            Content::Ptr(_) => {
                if next.is_some() {
                    return None;
                }
                next = Some(c);
                FieldKind::Next
            }
        };
        fields.push(Field {
            off,
            size: cell.size,
            kind,
        });
    }
    Some((fields, next?))
}

/// The pointer of a next cell when it points to the start of something.
fn link(st: &State, cell: usize) -> &Ptr {
    match &st.mem.cells[cell].val {
        Content::Ptr(p) => p,
        Content::Int(..) => unreachable!("a next field holds a pointer"),
    }
}

/// Folds the chains of concrete list elements of `st` into list invariants (and an element
/// linked in front of a list into that list), and drops elements nothing points to any more.
/// Chains start at elements something other than one predecessor's next field points to
/// (a live register, another cell, a list's end); an element two things point into starts
/// a chain of its own, so lists never share elements.
pub fn fold(ex: &mut Exec, st: &mut State) {
    let n = st.mem.allocs.len();
    let mut cells_of: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, c) in st.mem.cells.iter().enumerate() {
        cells_of[c.alloc].push(i);
    }
    let shapes: Vec<Option<(Vec<Field>, usize)>> =
        (0..n).map(|a| element_shape(st, a, &cells_of[a])).collect();
    if shapes.iter().all(|s| s.is_none()) {
        return;
    }
    let nl = st.mem.lists.len();
    let (mut ext, mut preds) = (vec![false; n], vec![0usize; n]);
    let (mut lext, mut lpreds) = (vec![false; nl], vec![0usize; nl]);
    let mark = |p: &Ptr, ext: &mut [bool], lext: &mut [bool]| match p.target {
        Target::Alloc(a) => ext[a] = true,
        Target::List(l) => lext[l] = true,
        _ => {}
    };
    for (fi, f) in st.frames.iter().enumerate() {
        let live = crate::heads::live_slots(ex.module, f, fi + 1 < st.frames.len());
        for (slot, p) in &f.ptrs {
            if live.contains(slot) {
                mark(p, &mut ext, &mut lext);
            }
        }
    }
    let next_cell: Vec<Option<usize>> = shapes.iter().map(|s| s.as_ref().map(|s| s.1)).collect();
    for (i, c) in st.mem.cells.iter().enumerate() {
        let Content::Ptr(p) = &c.val else { continue };
        let from_elem = next_cell[c.alloc] == Some(i) && p.off.as_constant() == Some(0);
        let fields = shapes[c.alloc].as_ref().map(|s| &s.0);
        match p.target {
            Target::Alloc(b) if from_elem && shapes[b].as_ref().map(|s| &s.0) == fields => {
                preds[b] += 1
            }
            Target::List(l) if from_elem && Some(&st.mem.lists[l].fields) == fields => {
                lpreds[l] += 1
            }
            _ => mark(p, &mut ext, &mut lext),
        }
    }
    for l in st.mem.lists.iter().filter(|l| l.live) {
        mark(&l.end, &mut ext, &mut lext);
    }
    let mut visited = vec![false; n];
    for e in 0..n {
        if shapes[e].is_none() || !(ext[e] || preds[e] > 1) || visited[e] {
            continue;
        }
        let mut chain = vec![e];
        visited[e] = true;
        let fields = shapes[e].as_ref().expect("an element").0.clone();
        loop {
            let cur = *chain.last().expect("non-empty");
            let p = link(st, next_cell[cur].expect("an element"));
            let Target::Alloc(b) = p.target else { break };
            let interior = p.off.as_constant() == Some(0)
                && shapes[b].as_ref().map(|s| &s.0) == Some(&fields)
                && !ext[b]
                && preds[b] == 1
                && !visited[b];
            if !interior {
                break;
            }
            visited[b] = true;
            chain.push(b);
        }
        let last = *chain.last().expect("non-empty");
        let end = link(st, next_cell[last].expect("an element")).clone();
        let absorb = match end.target {
            Target::List(l) => {
                let t = &st.mem.lists[l];
                t.live && t.fields == fields && !lext[l] && lpreds[l] == 1
            }
            _ => false,
        };
        let ends_list = end.target == Target::Null && end.off.as_constant() == Some(0);
        if absorb || ends_list || chain.len() >= 2 {
            make_list(ex, st, &chain, fields, absorb.then_some(end.target));
        }
    }
    // Elements nothing points to (the walked-over part of a traversal): no access can reach
    // them, and as live blocks of a `malloc` in a loop they would stop the head from keeping
    // that site's allocation.
    for a in 0..n {
        if shapes[a].is_some() && !ext[a] && preds[a] == 0 && !visited[a] {
            st.mem.allocs[a].live = false;
            st.mem.cells.retain(|c| c.alloc != a);
        }
    }
}

/// The value of field `k` (by offset) of element `a`.
fn field_val(st: &State, a: usize, f: &Field) -> Val {
    st.mem
        .cells
        .iter()
        .find(|c| c.alloc == a && c.off.as_constant() == Some(f.off))
        .map_or(Val::Const(0), |c| match c.val {
            Content::Int(v, _) => v,
            Content::Ptr(_) => Val::Const(0),
        })
}

/// Replaces the elements `chain` (and the list `absorb` their last element links to) by one
/// list invariant.
fn make_list(
    ex: &mut Exec,
    st: &mut State,
    chain: &[usize],
    fields: Vec<Field>,
    absorb: Option<Target>,
) {
    let head = chain[0];
    let tail = *chain.last().expect("non-empty");
    let vals =
        |a: usize, st: &State| -> Vec<Val> { fields.iter().map(|f| field_val(st, a, f)).collect() };
    let first = vals(head, st);
    let mut last = vals(tail, st);
    let mut len = Poly::constant(chain.len() as i128);
    let next_of_tail = fields
        .iter()
        .position(|f| f.kind == FieldKind::Next)
        .expect("a next field");
    let mut end = st
        .mem
        .cells
        .iter()
        .find(|c| c.alloc == tail && c.off.as_constant() == Some(fields[next_of_tail].off))
        .and_then(|c| match &c.val {
            Content::Ptr(p) => Some(p.clone()),
            Content::Int(..) => None,
        })
        .unwrap_or_else(Ptr::unknown);
    // The differences between consecutive values, per field (with the junction to an
    // absorbed list).
    let mut steps = Vec::new();
    let absorbed = absorb.map(|t| match t {
        Target::List(l) => st.mem.lists[l].clone(),
        _ => unreachable!("only lists are absorbed"),
    });
    for (k, f) in fields.iter().enumerate() {
        if f.kind == FieldKind::Next {
            steps.push(Step::default());
            continue;
        }
        let mut seq: Vec<Poly> = chain.iter().map(|a| field_val(st, *a, f).poly()).collect();
        if let Some(t) = &absorbed {
            seq.push(t.first[k].poly());
        }
        let diffs: Vec<Poly> = seq.windows(2).map(|w| w[1].sub(&w[0])).collect();
        let mut s = step_of(ex, st, &diffs);
        if let Some(t) = &absorbed {
            // The absorbed list's own steps, unless it has one element (then it has none).
            if ex.kb.entails(&st.kb, &crate::state::ge_c(&t.len, 2)) {
                s = s.meet(&t.steps[k]);
            }
        }
        steps.push(s);
    }
    if let Some(t) = &absorbed {
        len = len.add(&t.len);
        last = t.last.clone();
        end = t.end.clone();
        if let Some(Target::List(l)) = absorb {
            st.mem.lists[l].live = false;
        }
    }
    let list = ListInv {
        site: st.mem.allocs[head].site,
        elem_size: st.mem.allocs[head].size.as_constant().unwrap_or(0),
        fields,
        len,
        first,
        last,
        steps,
        end,
        live: true,
    };
    for a in chain {
        st.mem.allocs[*a].live = false;
        st.mem.cells.retain(|c| c.alloc != *a);
    }
    let i = st.mem.lists.len();
    st.kb.extend(list.facts());
    st.mem.lists.push(list);
    retarget(st, Target::Alloc(head), Target::List(i));
}

/// What the differences `diffs` between consecutive values have in common.
fn step_of(ex: &mut Exec, st: &State, diffs: &[Poly]) -> Step {
    if diffs.is_empty() {
        return Step::default();
    }
    let consts: Vec<Option<i128>> = diffs.iter().map(|d| d.as_constant()).collect();
    let delta = match consts[..] {
        [Some(c), ..] if consts.iter().all(|x| *x == Some(c)) => Some(c),
        _ => {
            // One symbolic difference (an element linked in front of a list): its value if
            // the KB fixes it.
            let known: Vec<i128> = consts.iter().flatten().copied().collect();
            let c = known.first().copied().unwrap_or(-1);
            let all = known.iter().all(|x| *x == c)
                && diffs.iter().all(|d| {
                    d.as_constant() == Some(c) || ex.kb.entails(&st.kb, &eq(d, &Poly::constant(c)))
                });
            all.then_some(c)
        }
    };
    let sign = |ex: &mut Exec, nonneg: bool| {
        diffs.iter().all(|d| {
            let d = if nonneg { d.clone() } else { d.scale(-1) };
            match d.as_constant() {
                Some(c) => c >= 0,
                None => ex.kb.entails(&st.kb, &crate::state::ge_c(&d, 0)),
            }
        })
    };
    Step {
        delta,
        nonincreasing: sign(ex, false),
        nondecreasing: sign(ex, true),
    }
}

/// Whether a loop head should run the arrival `st` on instead of generalizing it: a live
/// pointer register is null, or a live list has a literal length below 2 — the first
/// iterations of a loop that builds a list, before the chain shows its steps.
pub fn wants_unroll(ex: &Exec, st: &State) -> bool {
    if !module_has_links(ex.module) {
        return false;
    }
    let short = st
        .mem
        .lists
        .iter()
        .any(|l| l.live && l.len.as_constant().is_some_and(|c| c < 2));
    short
        || st.frames.iter().enumerate().any(|(fi, f)| {
            let live = crate::heads::live_slots(ex.module, f, fi + 1 < st.frames.len());
            f.ptrs
                .iter()
                .any(|(s, p)| p.target == Target::Null && live.contains(s))
        })
}

/// Arrivals a path may run on because of [`wants_unroll`].
pub const LIST_UNROLL: u32 = 4;
