//! Pointers and memory accesses ([B] §3.1, the base rules of [27]): `getelementptr`
//! (`off + Σ idx·scale`), `load`/`store` checked against `AL` (the access
//! `0 ≤ off ∧ off + size ≤ size(alloc)` must be entailed, the allocation live, else `ERR`),
//! points-to cells (a store drops every cell it does not provably miss; a load takes the
//! cell at a provably equal offset, the initializer of a pristine allocation where no cell
//! may overlap, else any value of its type), and pointer comparisons, copies, selects and
//! phis.

use super::{Exec, R};
use crate::classify::Classification;
use crate::kb::term;
use crate::state::{
    const_truth, eq, ge, ge_c, Cell, Content, Init, Ptr, Reading, State, Target, Val,
};
use rustc_hash::FxHashSet;
use symex_expr::Term;
use symex_ir::{Const, FuncId, GepIndex, Inst, Module, Operand, Slot, TypeId, TypeKind};
use symex_its::Poly;

/// The pointer registers whose cells hold signed values ([B] §2's classification, "linked
/// by load/store"): a load through them defines a signed register, or a store through them
/// writes one. A store through such a register keeps the value in the signed reading, so
/// that a cell has one reading across a loop (a cell converted at every access would tie
/// its readings by a fresh `k` each time, which no ranking function sees through).
pub fn signed_cells(module: &Module, class: &Classification) -> FxHashSet<(FuncId, Slot)> {
    let mut out = FxHashSet::default();
    for (i, func) in module.functions.iter().enumerate() {
        let f = FuncId(i as u32);
        let Some(body) = &func.body else { continue };
        for inst in body.blocks.iter().flat_map(|b| &b.insts) {
            let (ptr, value) = match inst {
                Inst::Load { dst, ptr, .. } => (ptr, *dst),
                Inst::Store {
                    ptr,
                    val: Operand::Slot(v),
                    ..
                } => (ptr, *v),
                _ => continue,
            };
            if let Operand::Slot(p) = ptr {
                if class.reading(f, value) == Reading::Signed {
                    out.insert((f, *p));
                }
            }
        }
    }
    out
}

/// Cells kept per allocation; a store beyond drops the others.
const MAX_CELLS: usize = 64;

/// `LV` of a pointer operand.
pub fn pointer(ex: &mut Exec, st: &mut State, op: Operand) -> R<Ptr> {
    match op {
        Operand::Slot(s) => match st.top().ptrs.get(&s) {
            Some(p) => Ok(p.clone()),
            None => Err(ex.unsupported(st, "pointer register without a value")),
        },
        Operand::Const(c) => Ok(match ex.module.konst(c) {
            Const::Null => Ptr::null(),
            Const::Int { value: 0, .. } => Ptr::null(),
            Const::Addr {
                base: symex_ir::AddrBase::Global(g),
                offset,
            } => Ptr {
                target: Target::Alloc(g.0 as usize),
                off: Poly::constant(*offset as i128),
            },
            _ => Ptr::unknown(),
        }),
    }
}

/// Whether slot `s` of the top frame holds a pointer.
pub fn is_pointer_slot(ex: &Exec, st: &State, s: Slot) -> bool {
    let f = st.top().func;
    let body = ex.module.func(f).body.as_ref().expect("a body");
    body.slot_types
        .get(s.0 as usize)
        .is_some_and(|t| matches!(ex.module.ty(*t).kind, TypeKind::Ptr))
}

pub fn set(st: &mut State, dst: Slot, p: Ptr) {
    st.top_mut().ptrs.insert(dst, p);
}

/// `ERR` unless `len` bytes at `ptr` lie in a live allocation; its index.
pub fn in_bounds(ex: &mut Exec, st: &State, ptr: &Ptr, len: &Poly, what: &str) -> R<usize> {
    let a = match ptr.target {
        Target::Alloc(a) => a,
        Target::Null => return Err(ex.err(st, &format!("{what} through a null pointer"))),
        Target::Unknown | Target::StackMark(_) => {
            return Err(ex.err(st, &format!("{what} through a pointer that may be invalid")))
        }
        // Loads, stores and `free` unfold the element first; other accesses to list
        // elements are outside the fragment.
        Target::List(_) => return Err(ex.unsupported(st, &format!("{what} of a list element"))),
    };
    let alloc = &st.mem.allocs[a];
    if !alloc.live {
        return Err(ex.err(
            st,
            &format!("{what} of memory that was freed or went out of scope"),
        ));
    }
    let end = ptr.off.add(len);
    let size = alloc.size.clone();
    let ok = ex.kb.entails(&st.kb, &ge_c(&ptr.off, 0)) && ex.kb.entails(&st.kb, &ge(&size, &end));
    if !ok {
        return Err(ex.err(st, &format!("{what} may be out of bounds")));
    }
    Ok(a)
}

/// Whether the byte ranges `[o1, o1 + s1)` and `[o2, o2 + s2)` are provably disjoint.
fn disjoint(ex: &mut Exec, st: &State, o1: &Poly, s1: &Poly, o2: &Poly, s2: &Poly) -> bool {
    let below = ge(o2, &o1.add(s1));
    let above = ge(o1, &o2.add(s2));
    match (const_truth(&below), const_truth(&above)) {
        (Some(true), _) | (_, Some(true)) => return true,
        (Some(false), Some(false)) => return false,
        _ => {}
    }
    ex.kb
        .entails_term(&st.kb, &Term::or_all([&term(&below), &term(&above)]))
}

/// Drops the cells of allocation `a` that `[off, off + len)` may overlap.
/// With `new_cell`, a cell for exactly that range follows (a store): a dropped cell inside
/// the range keeps the allocation pristine. Otherwise (`memset`, `memcpy`) the range holds
/// bytes no cell describes, and the allocation is no longer pristine.
pub fn clobber(ex: &mut Exec, st: &mut State, a: usize, off: &Poly, len: &Poly, new_cell: bool) {
    if !new_cell {
        st.mem.allocs[a].pristine = false;
    }
    let cells = std::mem::take(&mut st.mem.cells);
    let mut kept = Vec::new();
    for c in cells {
        let size = Poly::constant(c.size as i128);
        if c.alloc != a || disjoint(ex, st, off, len, &c.off, &size) {
            kept.push(c);
        } else if !inside(ex, st, &c.off, &size, off, len) {
            st.mem.allocs[a].pristine = false;
        }
    }
    st.mem.cells = kept;
}

/// Whether `[o1, o1 + s1)` lies provably inside `[o2, o2 + s2)`.
fn inside(ex: &mut Exec, st: &State, o1: &Poly, s1: &Poly, o2: &Poly, s2: &Poly) -> bool {
    [ge(o1, o2), ge(&o2.add(s2), &o1.add(s1))]
        .iter()
        .all(|a| const_truth(a).unwrap_or_else(|| ex.kb.entails(&st.kb, a)))
}

/// `dst = base + offset + Σ sext(idx)·scale`.
pub fn gep(
    ex: &mut Exec,
    mut st: State,
    dst: Slot,
    base: Operand,
    offset: i64,
    indices: &[GepIndex],
) -> R<Vec<State>> {
    let mut p = pointer(ex, &mut st, base)?;
    let mut off = p.off.add(&Poly::constant(offset as i128));
    for ix in indices {
        let i = ex.operand(&mut st, ix.index, ix.width, Reading::Signed)?;
        off = off.add(&i.scale(ix.scale as i128));
    }
    if p.target == Target::Null && off.as_constant() != Some(0) {
        p.target = Target::Unknown;
    }
    p.off = off;
    set(&mut st, dst, p);
    Ok(vec![st])
}

/// The bit width of an integer type (`None` for pointers and aggregates).
fn int_width(ex: &Exec, ty: TypeId) -> Option<u32> {
    match ex.module.ty(ty).kind {
        TypeKind::Int(w) => Some(w),
        _ => None,
    }
}

pub fn store(
    ex: &mut Exec,
    mut st: State,
    ptr: Operand,
    val: Operand,
    ty: TypeId,
    size: u32,
) -> R<Vec<State>> {
    let p = pointer(ex, &mut st, ptr)?;
    if let Some(i) = super::list::list_of(&p) {
        return super::list::each_unfolded(ex, st, i, |ex, s| store(ex, s, ptr, val, ty, size));
    }
    let len = Poly::constant(size as i128);
    let a = in_bounds(ex, &st, &p, &len, "store")?;
    if st.mem.allocs[a].read_only {
        return Err(ex.err(&st, "store to read-only memory"));
    }
    let content = match (int_width(ex, ty), &ex.module.ty(ty).kind) {
        (Some(w), _) => {
            let f = st.top().func;
            let signed = matches!(ptr, Operand::Slot(p) if ex.signed_cells.contains(&(f, p)));
            let reading = match val {
                _ if signed => Reading::Signed,
                Operand::Slot(s) => ex.class.reading(f, s),
                Operand::Const(_) => Reading::Unsigned,
            };
            let v = ex.operand(&mut st, val, w, reading)?;
            Content::Int(ex.value_of(&mut st, v, w, reading), reading)
        }
        (None, TypeKind::Ptr) => Content::Ptr(pointer(ex, &mut st, val)?),
        _ => return Err(ex.unsupported(&st, "store of an aggregate or vector")),
    };
    clobber(ex, &mut st, a, &p.off, &len, true);
    if st.mem.cells.iter().filter(|c| c.alloc == a).count() >= MAX_CELLS {
        // An array being filled: forget its contents (the cost of every access grows with
        // the cells, and no ranking function needs them).
        st.mem.cells.retain(|c| c.alloc != a);
        st.mem.allocs[a].pristine = false;
    }
    st.mem.cells.push(Cell {
        alloc: a,
        off: p.off,
        size,
        val: content,
    });
    Ok(vec![st])
}

/// What a load finds: a cell's content, the initializer, or nothing known.
enum Found {
    Cell(Content),
    Init,
    Nothing,
}

fn lookup(ex: &mut Exec, st: &State, a: usize, off: &Poly, size: u32) -> Found {
    let len = Poly::constant(size as i128);
    let mut may_overlap = false;
    for c in st.mem.cells.iter().filter(|c| c.alloc == a) {
        let same = c.size == size && {
            let e = eq(&c.off, off);
            const_truth(&e).unwrap_or_else(|| ex.kb.entails(&st.kb, &e))
        };
        if same {
            return Found::Cell(c.val.clone());
        }
        if !disjoint(ex, st, off, &len, &c.off, &Poly::constant(c.size as i128)) {
            may_overlap = true;
        }
    }
    if !may_overlap && st.mem.allocs[a].pristine {
        Found::Init
    } else {
        Found::Nothing
    }
}

/// The initial bytes `[off, off + size)` of a pristine allocation, as a little-endian
/// unsigned integer or a pointer; `None` when not determined (an undefined initializer, a
/// symbolic offset into non-zero data, part of a pointer).
fn initial(
    ex: &Exec,
    st: &State,
    a: usize,
    off: &Poly,
    size: u32,
    want_ptr: bool,
) -> Option<Content> {
    let zero = |want_ptr: bool| {
        Some(if want_ptr {
            Content::Ptr(Ptr::null())
        } else {
            Content::Int(Val::Const(0), Reading::Unsigned)
        })
    };
    match st.mem.allocs[a].init {
        Init::Undef => None,
        Init::Zero => zero(want_ptr),
        Init::Global(g) => {
            let data = ex.module.globals[g as usize].init.as_ref()?;
            let Some(o) = off.as_constant() else {
                let all_zero = data.relocs.is_empty() && data.bytes.iter().all(|b| *b == 0);
                return if all_zero { zero(want_ptr) } else { None };
            };
            let (lo, hi) = (o, o + size as i128);
            let touching: Vec<_> = data
                .relocs
                .iter()
                .filter(|r| (r.offset as i128) < hi && (r.offset + r.width as u64) as i128 > lo)
                .collect();
            match touching[..] {
                [] => {
                    let mut v: i128 = 0;
                    for i in (lo..hi).rev() {
                        v = (v << 8) | *data.bytes.get(i as usize).unwrap_or(&0) as i128;
                    }
                    if want_ptr {
                        return (v == 0).then(|| Content::Ptr(Ptr::null()));
                    }
                    Some(Content::Int(Val::Const(v), Reading::Unsigned))
                }
                [r] if want_ptr && r.offset as i128 == lo && r.width == size => {
                    let symex_ir::AddrBase::Global(t) = r.target else {
                        return Some(Content::Ptr(Ptr::unknown()));
                    };
                    Some(Content::Ptr(Ptr {
                        target: Target::Alloc(t.0 as usize),
                        off: Poly::constant(r.addend as i128),
                    }))
                }
                _ => None,
            }
        }
    }
}

pub fn load(
    ex: &mut Exec,
    mut st: State,
    dst: Slot,
    ptr: Operand,
    ty: TypeId,
    size: u32,
) -> R<Vec<State>> {
    let p = pointer(ex, &mut st, ptr)?;
    if let Some(i) = super::list::list_of(&p) {
        return super::list::each_unfolded(ex, st, i, |ex, s| load(ex, s, dst, ptr, ty, size));
    }
    if let Some(cases) = super::cell_split::split(ex, &st, p.target, &p.off, size)? {
        let mut out = Vec::new();
        for s in cases {
            out.extend(load(ex, s, dst, ptr, ty, size)?);
        }
        return Ok(out);
    }
    let a = in_bounds(ex, &st, &p, &Poly::constant(size as i128), "load")?;
    let width = int_width(ex, ty);
    let want_ptr = matches!(ex.module.ty(ty).kind, TypeKind::Ptr);
    if width.is_none() && !want_ptr {
        return Err(ex.unsupported(&st, "load of an aggregate or vector"));
    }
    let content = match lookup(ex, &st, a, &p.off, size) {
        Found::Cell(c) => Some(c),
        Found::Init => initial(ex, &st, a, &p.off, size, want_ptr),
        Found::Nothing => None,
    };
    match (width, content) {
        (Some(w), Some(Content::Int(v, have))) => ex.bind(&mut st, dst, v.poly(), w, have),
        (Some(w), _) => {
            // Nothing known (or a pointer read as an integer): any value of the type.
            let reading = ex.class.reading(st.top().func, dst);
            let v = ex.fresh(&mut st, w, reading);
            st.top_mut().regs.insert(dst, Val::Var(v));
        }
        (None, Some(Content::Ptr(q))) => set(&mut st, dst, q),
        (None, _) => set(&mut st, dst, Ptr::unknown()),
    }
    Ok(vec![st])
}

/// `icmp` of two pointers: offsets are compared within one allocation; distinct live
/// allocations (and null) are unequal; anything else is outside the fragment.
pub fn icmp(
    ex: &mut Exec,
    mut st: State,
    pred: symex_ir::IntPred,
    dst: Slot,
    lhs: Operand,
    rhs: Operand,
) -> R<Vec<State>> {
    use symex_ir::IntPred::{Eq, Ne};
    let a = pointer(ex, &mut st, lhs)?;
    let b = pointer(ex, &mut st, rhs)?;
    let live = |t: Target, st: &State| match t {
        Target::Alloc(i) => st.mem.allocs[i].live,
        Target::Null => true,
        // A list's elements are allocated (`v_ad ≥ 1`) and disjoint from everything else.
        Target::List(i) => st.mem.lists[i].live,
        Target::Unknown | Target::StackMark(_) => false,
    };
    if !live(a.target, &st) || !live(b.target, &st) {
        return Err(ex.unsupported(&st, "comparison of a pointer that may be invalid"));
    }
    if a.target == b.target {
        return super::cmp::decide(ex, st, pred, dst, a.off, b.off);
    }
    let value = match pred {
        Eq => 0,
        Ne => 1,
        _ => return Err(ex.unsupported(&st, "ordering of pointers into different objects")),
    };
    ex.bind(&mut st, dst, Poly::constant(value), 1, Reading::Unsigned);
    Ok(vec![st])
}

/// `dst = cond ? p : q` on pointers.
pub fn select(
    ex: &mut Exec,
    mut st: State,
    dst: Slot,
    cond: Operand,
    on_true: Operand,
    on_false: Operand,
) -> R<Vec<State>> {
    let c = ex.operand(&mut st, cond, 1, Reading::Unsigned)?;
    let cases = vec![
        (vec![eq(&c, &Poly::constant(1))], on_true),
        (vec![eq(&c, &Poly::constant(0))], on_false),
    ];
    let mut out = Vec::new();
    for (mut s, op) in ex.split(st, cases) {
        let p = pointer(ex, &mut s, op)?;
        set(&mut s, dst, p);
        out.push(s);
    }
    Ok(out)
}
