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
    /// Another pointer field (`data`, a second link): folding forgets its value, an
    /// unfolded element holds an unknown pointer there (a dereference is `ERR`, a comparison
    /// unsupported), which is all a program that only copies it needs.
    Opaque,
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
    /// Per field: for an [`FieldKind::Opaque`] field the pointer every element holds there
    /// (one `data` block all elements share), else unknown.
    pub shared: Vec<Ptr>,
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
            if !matches!(f.kind, FieldKind::Int(_)) {
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
                FieldKind::Opaque if self.shared[k].target != Target::Unknown => {
                    format!("({}:ptr:all {})", f.off, ptr_text(&self.shared[k]))
                }
                FieldKind::Opaque => format!("({}:ptr:any)", f.off),
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

/// Replaces every pointer to `from` (registers of all frames, cells, list ends, addresses) by the same
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
        l.shared.iter_mut().for_each(fix);
    }
    for (_, p) in &mut st.mem.addrs {
        fix(p);
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
/// whose cells sit at literal offsets, one of its pointers the next field. With several
/// pointer cells, the next field is the only one that may link to an element (null, a list,
/// or a heap block holding a pointer itself); the others are [`FieldKind::Opaque`].
fn element_shape(st: &State, a: usize, cells: &[usize]) -> Option<(Vec<Field>, usize)> {
    let al = &st.mem.allocs[a];
    let size = al.size.as_constant()?;
    if !al.live || !matches!(al.site, Site::Inst { heap: true, .. }) || size <= 0 {
        return None;
    }
    let mut sorted: Vec<usize> = cells.to_vec();
    sorted.sort_by_key(|c| st.mem.cells[*c].off.as_constant());
    let pointers: Vec<usize> = sorted
        .iter()
        .copied()
        .filter(|c| matches!(st.mem.cells[*c].val, Content::Ptr(_)))
        .collect();
    let next = match pointers[..] {
        [] => return None,
        [only] => only,
        _ => {
            let links: Vec<usize> = pointers
                .iter()
                .copied()
                .filter(|c| may_link(st, *c))
                .collect();
            match links[..] {
                [only] => only,
                _ => return None,
            }
        }
    };
    let mut fields = Vec::new();
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
            Content::Ptr(_) if c == next => FieldKind::Next,
            Content::Ptr(_) => FieldKind::Opaque,
        };
        fields.push(Field {
            off,
            size: cell.size,
            kind,
        });
    }
    Some((fields, next))
}

/// Whether pointer cell `c` may be a link: null, a list, or a live heap block with a pointer.
fn may_link(st: &State, c: usize) -> bool {
    let Content::Ptr(p) = &st.mem.cells[c].val else {
        return false;
    };
    match p.target {
        Target::Null | Target::List(_) => true,
        Target::Alloc(b) => {
            let al = &st.mem.allocs[b];
            al.live
                && matches!(al.site, Site::Inst { heap: true, .. })
                && st
                    .mem
                    .cells
                    .iter()
                    .any(|d| d.alloc == b && matches!(d.val, Content::Ptr(_)))
        }
        Target::Unknown | Target::StackMark(_) => false,
    }
}

/// The next pointer of element `a` (its field at `off`), read afresh: folding moves cells.
fn link(st: &State, a: usize, off: i128) -> Ptr {
    st.mem
        .cells
        .iter()
        .find(|c| c.alloc == a && c.off.as_constant() == Some(off))
        .and_then(|c| match &c.val {
            Content::Ptr(p) => Some(p.clone()),
            Content::Int(..) => None,
        })
        .unwrap_or_else(Ptr::unknown)
}

/// Folds the chains of concrete list elements of `st` into list invariants (and an element
/// linked in front of a list into that list), and drops elements nothing points to any more.
/// Chains start at elements something other than one predecessor's next field points to
/// (a live register, another cell, a list's end); an element two things point into starts
/// a chain of its own, so lists never share elements.
pub fn fold(ex: &mut Exec, st: &mut State) {
    // Without a struct with a pointer field there are no elements to fold; the liveness
    // the reference counts need would only cost time at every arrival.
    if !module_has_links(ex.module) {
        return;
    }
    collect_garbage(ex, st);
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
    let mut lext = vec![false; nl];
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
    let next_off: Vec<i128> = next_cell
        .iter()
        .map(|c| c.map_or(0, |c| st.mem.cells[c].off.as_constant().unwrap_or(0)))
        .collect();
    for (i, c) in st.mem.cells.iter().enumerate() {
        let Content::Ptr(p) = &c.val else { continue };
        let from_elem = next_cell[c.alloc] == Some(i) && p.off.as_constant() == Some(0);
        let fields = shapes[c.alloc].as_ref().map(|s| &s.0);
        match p.target {
            Target::Alloc(b) if from_elem && shapes[b].as_ref().map(|s| &s.0) == fields => {
                preds[b] += 1
            }
            _ => mark(p, &mut ext, &mut lext),
        }
    }
    for l in st.mem.lists.iter().filter(|l| l.live) {
        mark(&l.end, &mut ext, &mut lext);
        l.shared.iter().for_each(|p| mark(p, &mut ext, &mut lext));
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
            let p = link(st, cur, next_off[cur]);
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
        // Every chain, even one element whose next field points elsewhere (the element that
        // will close a cyclic list): a lone element kept as an allocation would stop the head
        // from matching the next arrival, where it is part of a longer chain.
        make_list(ex, st, &chain, fields);
    }
    concat(ex, st);
}

/// Drops the list elements and lists nothing points to (transitively): an element unlinked
/// by a deletion, the walked-over part of a traversal. No access can reach them, their
/// pointers would keep other lists from being joined, and as live blocks of a `malloc` in a
/// loop they would stop a head from keeping that site's allocation.
fn collect_garbage(ex: &Exec, st: &mut State) {
    loop {
        let n = st.mem.allocs.len();
        let nl = st.mem.lists.len();
        let (mut used, mut lused) = (vec![false; n], vec![false; nl]);
        let mut mark = |p: &Ptr| match p.target {
            Target::Alloc(a) => used[a] = true,
            Target::List(l) => lused[l] = true,
            _ => {}
        };
        for (fi, f) in st.frames.iter().enumerate() {
            let live = crate::heads::live_slots(ex.module, f, fi + 1 < st.frames.len());
            f.ptrs
                .iter()
                .filter(|(s, _)| live.contains(s))
                .for_each(|(_, p)| mark(p));
        }
        for c in &st.mem.cells {
            if let Content::Ptr(p) = &c.val {
                mark(p);
            }
        }
        for l in st.mem.lists.iter().filter(|l| l.live) {
            mark(&l.end);
            l.shared.iter().for_each(&mut mark);
        }
        let mut cells_of: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, c) in st.mem.cells.iter().enumerate() {
            cells_of[c.alloc].push(i);
        }
        let dead: Vec<usize> = (0..n)
            .filter(|a| !used[*a] && element_shape(st, *a, &cells_of[*a]).is_some())
            .collect();
        let dead_lists: Vec<usize> = (0..nl)
            .filter(|l| !lused[*l] && st.mem.lists[*l].live)
            .collect();
        if dead.is_empty() && dead_lists.is_empty() {
            return;
        }
        for a in dead {
            st.mem.allocs[a].live = false;
            st.mem.cells.retain(|c| c.alloc != a);
        }
        for l in dead_lists {
            st.mem.lists[l].live = false;
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

/// Replaces the elements `chain` by one list invariant (its end: the last element's next).
fn make_list(ex: &mut Exec, st: &mut State, chain: &[usize], fields: Vec<Field>) {
    let head = chain[0];
    let tail = *chain.last().expect("non-empty");
    let vals = |a: usize| -> Vec<Val> { fields.iter().map(|f| field_val(st, a, f)).collect() };
    let (first, last) = (vals(head), vals(tail));
    let next = fields
        .iter()
        .find(|f| f.kind == FieldKind::Next)
        .expect("a next field")
        .off;
    let end = st
        .mem
        .cells
        .iter()
        .find(|c| c.alloc == tail && c.off.as_constant() == Some(next))
        .and_then(|c| match &c.val {
            Content::Ptr(p) => Some(p.clone()),
            Content::Int(..) => None,
        })
        .unwrap_or_else(Ptr::unknown);
    let mut steps = Vec::new();
    for f in &fields {
        if !matches!(f.kind, FieldKind::Int(_)) {
            steps.push(Step::default());
            continue;
        }
        let seq: Vec<Poly> = chain.iter().map(|a| field_val(st, *a, f).poly()).collect();
        let diffs: Vec<Poly> = seq.windows(2).map(|w| w[1].sub(&w[0])).collect();
        steps.push(step_of(ex, st, &diffs));
    }
    // An opaque field keeps its pointer when every element holds the same one.
    let shared = fields
        .iter()
        .map(|f| {
            let ptrs: Vec<Ptr> = chain.iter().map(|a| link(st, *a, f.off)).collect();
            match (f.kind, &ptrs[..]) {
                (FieldKind::Opaque, [p, rest @ ..]) if rest.iter().all(|q| q == p) => p.clone(),
                _ => Ptr::unknown(),
            }
        })
        .collect();
    let list = ListInv {
        shared,
        site: st.mem.allocs[head].site,
        elem_size: st.mem.allocs[head].size.as_constant().unwrap_or(0),
        fields,
        len: Poly::constant(chain.len() as i128),
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

/// Per list: whether a live register, a cell or an end at another offset or of another
/// shape points to it, and how many list ends point to its start.
fn list_refs(ex: &Exec, st: &State) -> (Vec<bool>, Vec<usize>) {
    let n = st.mem.lists.len();
    let (mut ext, mut ends) = (vec![false; n], vec![0usize; n]);
    for (fi, f) in st.frames.iter().enumerate() {
        let live = crate::heads::live_slots(ex.module, f, fi + 1 < st.frames.len());
        for (slot, p) in &f.ptrs {
            if let (Target::List(j), true) = (p.target, live.contains(slot)) {
                ext[j] = true;
            }
        }
    }
    for c in &st.mem.cells {
        if let Content::Ptr(p) = &c.val {
            if let Target::List(j) = p.target {
                ext[j] = true;
            }
        }
    }
    for l in st.mem.lists.iter().filter(|l| l.live) {
        for p in &l.shared {
            if let Target::List(j) = p.target {
                ext[j] = true;
            }
        }
        if let Target::List(j) = l.end.target {
            if l.end.off.as_constant() == Some(0) && st.mem.lists[j].fields == l.fields {
                ends[j] += 1;
            } else {
                ext[j] = true;
            }
        }
    }
    (ext, ends)
}

/// Joins each list whose end is the start of a list nothing else points to: an element
/// linked in front of a list (list extension, [L] §3.2.1), or a walked-over segment and the
/// rest once the walk ended.
fn concat(ex: &mut Exec, st: &mut State) {
    loop {
        let (ext, ends) = list_refs(ex, st);
        let pair = st.mem.lists.iter().enumerate().find_map(|(a, la)| {
            let Target::List(c) = la.end.target else {
                return None;
            };
            let ok = la.live
                && c != a
                && st.mem.lists[c].live
                && !ext[c]
                && ends[c] == 1
                && la.end.off.as_constant() == Some(0)
                && st.mem.lists[c].fields == la.fields;
            ok.then_some((a, c))
        });
        let Some((a, c)) = pair else { return };
        join(ex, st, a, c);
    }
}

/// List `a` followed by list `c`, as one list (in `a`'s place).
fn join(ex: &mut Exec, st: &mut State, a: usize, c: usize) {
    let (la, lc) = (st.mem.lists[a].clone(), st.mem.lists[c].clone());
    let two = |ex: &mut Exec, st: &State, len: &Poly| match len.as_constant() {
        Some(c) => c >= 2,
        None => ex.kb.entails(&st.kb, &crate::state::ge_c(len, 2)),
    };
    let (a2, c2) = (two(ex, st, &la.len), two(ex, st, &lc.len));
    let mut steps = Vec::new();
    for (k, f) in la.fields.iter().enumerate() {
        if !matches!(f.kind, FieldKind::Int(_)) {
            steps.push(Step::default());
            continue;
        }
        let junction = lc.first[k].poly().sub(&la.last[k].poly());
        let mut s = step_of(ex, st, &[junction]);
        if a2 {
            s = s.meet(&la.steps[k]);
        }
        if c2 {
            s = s.meet(&lc.steps[k]);
        }
        steps.push(s);
    }
    let shared = la
        .shared
        .iter()
        .zip(&lc.shared)
        .map(|(p, q)| if p == q { p.clone() } else { Ptr::unknown() })
        .collect();
    let joined = ListInv {
        shared,
        len: la.len.add(&lc.len),
        last: lc.last.clone(),
        steps,
        end: lc.end.clone(),
        ..la
    };
    st.kb.extend(joined.facts());
    st.mem.lists[a] = joined;
    st.mem.lists[c].live = false;
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
            // A symbolic difference (an element linked in front of a list): the value it has
            // in a model, if the KB fixes it.
            let known: Vec<i128> = consts.iter().flatten().copied().collect();
            let model = ex.kb.model(&st.kb, &[], ex.nvars);
            let guess = known.first().copied().or_else(|| {
                let d = diffs.iter().find(|d| d.as_constant().is_none())?;
                d.eval(model.as_ref()?)
            });
            guess.filter(|c| {
                known.iter().all(|x| x == c)
                    && diffs.iter().all(|d| {
                        d.as_constant() == Some(*c)
                            || ex.kb.entails(&st.kb, &eq(d, &Poly::constant(*c)))
                    })
            })
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
/// list has a literal length below 2 — the first iterations of a loop that builds a list,
/// before the chain shows its steps.
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
}

/// The pointer shape of a loop-head arrival: per live pointer register, null, a list (the
/// first register at the same list), or anything else. A head keeps one general state per
/// shape, so that "the walk has not moved yet" (two registers at one list) and "it has"
/// (a walked-over segment, then the rest), or a null and a non-empty list, are separate
/// locations of the ITS rather than a weakened pointer.
pub fn shape_key(ex: &Exec, st: &State) -> Vec<u8> {
    let mut key = Vec::new();
    if !module_has_links(ex.module) {
        return key;
    }
    let mut seen: Vec<usize> = Vec::new();
    for (fi, f) in st.frames.iter().enumerate() {
        let live = crate::heads::live_slots(ex.module, f, fi + 1 < st.frames.len());
        for (_, p) in f.ptrs.iter().filter(|(s, _)| live.contains(s)) {
            key.push(match p.target {
                Target::Null => 0,
                Target::List(j) => match seen.iter().position(|x| *x == j) {
                    Some(k) => 2 + k.min(250) as u8,
                    None => {
                        seen.push(j);
                        2 + (seen.len() - 1).min(250) as u8
                    }
                },
                _ => 1,
            });
        }
    }
    key
}

/// Arrivals a path may run on because of [`wants_unroll`].
pub const LIST_UNROLL: u32 = 4;
