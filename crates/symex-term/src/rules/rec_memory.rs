//! Recursive functions that use memory ([L]'s `_rec` programs: a list built or walked by
//! recursion). [`super::recursion`] closes a recursive call at the callee's call head and
//! lets the caller go on with a summary of the return; with memory, the summary must also say
//! what the call did to memory. Two classes of functions have a summary that is sound by a
//! syntactic argument over the function and everything it may call:
//!
//! * **readers** (no store, no `free`, no memory intrinsic, no external call that writes):
//!   memory after the call is memory before it. Their pointer parameters take the caller's
//!   pointers, so the call head sees the caller's list: a walk `f(p->next)` arrives with the
//!   rest of the list, `μ(ℓ) = ℓ − 1`.
//! * **builders** (no pointer parameter, no address of a global or function anywhere): every
//!   pointer such a call can hold is null or into memory it allocated itself, so it cannot
//!   touch the caller's memory either — the caller's memory is unchanged, and the callee's
//!   body is analysed from a memory without the caller's allocations. A builder that returns
//!   a pointer has a [`PtrSummary`]: it returns null (under facts over its integer
//!   parameters) or a NULL-terminated list of new elements (its length related to them,
//!   `ℓ = n`), checked at every return of the analysed body like the integer summary: the
//!   returned chain is folded ([`crate::list::fold`]) and must be such a list.

use super::Exec;
use crate::list::{Field, FieldKind, ListInv, Step};
use crate::state::{ge, ge_c, le_c, Ptr, Site, State, Target, Val};
use rustc_hash::FxHashSet;
use symex_ir::{Callee, Const, FuncId, Inst, Intrinsic, Module, Operand, TypeKind};
use symex_its::{Atom, Poly};

/// What a recursive function may do to memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// No memory access at all (the summary relates registers only).
    None,
    Reader,
    Builder,
}

/// External functions a reader may call: they read no memory and write none.
const PURE_EXTERNALS: &[&str] = &["__VERIFIER_assume", "klee_assume", "abort", "exit"];

/// The functions `f` may call (transitively, itself included); `None` if one is called
/// through a pointer.
fn reachable(module: &Module, f: FuncId) -> Option<Vec<FuncId>> {
    let mut seen = FxHashSet::default();
    let mut stack = vec![f];
    let mut out = Vec::new();
    while let Some(g) = stack.pop() {
        if !seen.insert(g) {
            continue;
        }
        out.push(g);
        for inst in module
            .func(g)
            .body
            .iter()
            .flat_map(|b| &b.blocks)
            .flat_map(|b| &b.insts)
        {
            if let Inst::Call(c) = inst {
                match c.callee {
                    Callee::Direct(h) => stack.push(h),
                    Callee::Indirect(_) => return None,
                }
            }
        }
    }
    Some(out)
}

/// The class of the recursive `f` (`None`: outside every class).
pub fn effect(module: &Module, f: FuncId) -> Option<Effect> {
    let funcs = reachable(module, f)?;
    let insts = || {
        funcs
            .iter()
            .flat_map(|g| module.func(*g).body.iter())
            .flat_map(|b| &b.blocks)
            .flat_map(|b| &b.insts)
    };
    let memory = insts().any(|i| match i {
        Inst::Load { .. } | Inst::Store { .. } | Inst::Alloca { .. } | Inst::Gep { .. } => true,
        Inst::Intrinsic { op, .. } => {
            !matches!(op, Intrinsic::LifetimeStart | Intrinsic::LifetimeEnd)
        }
        _ => false,
    });
    if !memory {
        return Some(Effect::None);
    }
    let writes = insts().any(|i| match i {
        Inst::Store { .. } => true,
        Inst::Intrinsic { op, .. } => {
            !matches!(op, Intrinsic::LifetimeStart | Intrinsic::LifetimeEnd)
        }
        _ => false,
    });
    let externals_pure = funcs.iter().all(|g| {
        let func = module.func(*g);
        func.body.is_some()
            || func.name.starts_with("__VERIFIER_nondet")
            || PURE_EXTERNALS.contains(&func.name.as_str())
    });
    if !writes && externals_pure {
        return Some(Effect::Reader);
    }
    let pointer_param = module
        .func(f)
        .params
        .iter()
        .any(|t| !matches!(module.ty(*t).kind, TypeKind::Int(_)));
    let mut addresses = false;
    for g in &funcs {
        for blk in module.func(*g).body.iter().flat_map(|b| &b.blocks) {
            let mut see = |op: &Operand| {
                if let Operand::Const(c) = op {
                    addresses |= matches!(
                        module.konst(*c),
                        Const::Addr { .. } | Const::AddrAsInt { .. }
                    );
                }
            };
            blk.insts
                .iter()
                .for_each(|i| symex_ir::uses::inst_operands(i, &mut see));
            symex_ir::uses::terminator_operands(&blk.term, &mut see);
        }
    }
    (!pointer_param && !addresses).then_some(Effect::Builder)
}

/// The element shape of the lists a builder returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub site: Site,
    pub elem_size: i128,
    pub fields: Vec<Field>,
}

/// What a builder returning a pointer returns: null under `null`'s facts, a new list under
/// `list`'s. Facts are atoms over the parameters `0..params` and, for the list, its length
/// (variable `params`). `None`: no such return seen yet (the fixpoint starts with none and
/// adds a case at the first return of its kind; afterwards facts only shrink).
#[derive(Clone, Debug, Default)]
pub struct PtrSummary {
    pub null: Option<Vec<Atom>>,
    pub list: Option<(Shape, Vec<Atom>)>,
}

/// Candidate facts over the integer parameters `ints` (literal bounds), and with `len`,
/// over the length variable `len` (`ℓ = p + d`, `ℓ ≥ 1`).
fn candidates(ints: &[usize], lits: &[i128], len: Option<usize>) -> Vec<Atom> {
    let mut out = Vec::new();
    for &i in ints {
        let p = Poly::var(i);
        for &c in lits {
            out.push(ge_c(&p, c));
            out.push(le_c(&p, c));
        }
        if let Some(l) = len {
            for d in [-1, 0, 1] {
                let shifted = p.add(&Poly::constant(d));
                out.push(ge(&Poly::var(l), &shifted));
                out.push(ge(&shifted, &Poly::var(l)));
            }
        }
    }
    if let Some(l) = len {
        out.push(ge_c(&Poly::var(l), 1));
    }
    out.sort();
    out.dedup();
    out
}

/// The integer parameters of `f` (by index).
fn int_params(ex: &Exec, f: FuncId) -> Vec<usize> {
    (0..ex.module.func(f).params.len())
        .filter(|i| ex.slot_width(f, symex_ir::Slot(*i as u32)).is_some())
        .collect()
}

/// The caller's states after a call of the builder `f` returning a pointer to `dst`: one per
/// case of its summary whose facts may hold for the arguments `args` (per parameter index).
pub fn continuations(
    ex: &mut Exec,
    st: &State,
    f: FuncId,
    args: &dyn Fn(usize) -> Poly,
    dst: Option<symex_ir::Slot>,
    summary: &PtrSummary,
) -> Vec<State> {
    let params = ex.module.func(f).params.len();
    let mut out = Vec::new();
    if let Some(atoms) = &summary.null {
        let mut s = st.clone();
        if add_facts(ex, &mut s, atoms, args, params, &Poly::constant(0)) {
            if let Some(d) = dst {
                super::memory::set(&mut s, d, Ptr::null());
            }
            out.push(s);
        }
    }
    if let Some((shape, atoms)) = &summary.list {
        let mut s = st.clone();
        let len = Poly::var(ex.fresh_int());
        let list = new_list(ex, &mut s, shape, len.clone());
        s.kb.extend(list.facts());
        if add_facts(ex, &mut s, atoms, args, params, &len) {
            let i = s.mem.lists.len();
            s.mem.lists.push(list);
            if let Some(d) = dst {
                super::memory::set(
                    &mut s,
                    d,
                    Ptr {
                        target: Target::List(i),
                        off: Poly::constant(0),
                    },
                );
            }
            out.push(s);
        }
    }
    out
}

/// Adds the summary facts instantiated for the arguments; `false` when they contradict the KB.
fn add_facts(
    ex: &mut Exec,
    s: &mut State,
    atoms: &[Atom],
    args: &dyn Fn(usize) -> Poly,
    params: usize,
    len: &Poly,
) -> bool {
    let sub = |i: usize| if i == params { len.clone() } else { args(i) };
    let facts: Vec<Atom> = atoms
        .iter()
        .map(|a| Atom {
            poly: a.poly.substitute(&sub),
            rel: a.rel,
        })
        .collect();
    if !ex.kb.feasible(&s.kb, &facts) {
        return false;
    }
    s.kb.extend(
        facts
            .into_iter()
            .filter(|a| crate::state::const_truth(a).is_none()),
    );
    true
}

/// A new NULL-terminated list of `len` elements of `shape` with unknown field values.
fn new_list(ex: &mut Exec, s: &mut State, shape: &Shape, len: Poly) -> ListInv {
    let mut vals = |s: &mut State| -> Vec<Val> {
        shape
            .fields
            .iter()
            .map(|f| match f.kind {
                FieldKind::Int(r) => Val::Var(ex.fresh(s, f.size * 8, r)),
                FieldKind::Next | FieldKind::Opaque => Val::Const(0),
            })
            .collect()
    };
    let first = vals(s);
    let last = vals(s);
    ListInv {
        site: shape.site,
        elem_size: shape.elem_size,
        fields: shape.fields.clone(),
        len,
        first,
        last,
        steps: vec![Step::default(); shape.fields.len()],
        end: Ptr::null(),
        shared: vec![Ptr::unknown(); shape.fields.len()],
        live: true,
    }
}

/// At a return of the analysed body of the builder `f` (a bottom frame) with the pointer
/// `ret`: the summary keeps the facts this return entails (`Ok(true)`: it changed).
pub fn record_pointer_return(
    ex: &mut Exec,
    st: &State,
    f: FuncId,
    ret: Operand,
    lits: &[i128],
    summary: &mut PtrSummary,
) -> Result<bool, String> {
    let params = ex.module.func(f).params.len();
    let ints = int_params(ex, f);
    let regs = st.top().regs.clone();
    let p = {
        let mut s = st.clone();
        super::memory::pointer(ex, &mut s, ret).map_err(|_| "a returned pointer".to_string())?
    };
    let value = |len: &Poly| {
        let regs = regs.clone();
        let len = len.clone();
        move |i: usize| -> Option<Poly> {
            if i == params {
                return Some(len.clone());
            }
            regs.get(&symex_ir::Slot(i as u32)).map(|v| v.poly())
        }
    };
    if p.target == Target::Null && p.off.as_constant() == Some(0) {
        let start = summary
            .null
            .clone()
            .unwrap_or_else(|| candidates(&ints, lits, None));
        let kept = entailed(ex, st, &start, &value(&Poly::constant(0)));
        let changed = summary.null.as_ref() != Some(&kept);
        summary.null = Some(kept);
        return Ok(changed);
    }
    // The returned chain as a list invariant: fold it (list extension joins an element in
    // front of the list an inner call returned).
    let mut s = st.clone();
    crate::list::fold(ex, &mut s);
    let q =
        super::memory::pointer(ex, &mut s, ret).map_err(|_| "a returned pointer".to_string())?;
    let list = match q.target {
        Target::List(i) if q.off.as_constant() == Some(0) => &s.mem.lists[i],
        _ => return Err("a returned pointer that is neither null nor a list".into()),
    };
    if !list.live || list.end.target != Target::Null {
        return Err("a returned list that is not NULL-terminated".into());
    }
    let shape = Shape {
        site: list.site,
        elem_size: list.elem_size,
        fields: list.fields.clone(),
    };
    let len = list.len.clone();
    let start = match &summary.list {
        Some((old, atoms)) if *old == shape => atoms.clone(),
        Some(_) => return Err("returned lists of different element shapes".into()),
        None => candidates(&ints, lits, Some(params)),
    };
    let kept = entailed(ex, &s, &start, &value(&len));
    let changed = summary.list.as_ref().map(|l| &l.1) != Some(&kept);
    summary.list = Some((shape, kept));
    Ok(changed)
}

/// The atoms of `atoms` that `st` entails with variable `i` read as `value(i)` (an atom
/// over a variable without a value is not).
fn entailed(
    ex: &mut Exec,
    st: &State,
    atoms: &[Atom],
    value: &dyn Fn(usize) -> Option<Poly>,
) -> Vec<Atom> {
    atoms
        .iter()
        .filter(|a| {
            if a.poly.vars().iter().any(|v| value(*v).is_none()) {
                return false;
            }
            let inst = Atom {
                poly: a.poly.substitute(&|v| value(v).unwrap_or_default()),
                rel: a.rel,
            };
            crate::state::const_truth(&inst).unwrap_or_else(|| ex.kb.entails(&st.kb, &inst))
        })
        .cloned()
        .collect()
}
