//! `malloc`, `calloc`, `realloc`, `free`: heap blocks are separate objects, freed ones stay dead.

use super::Model;
use crate::bug::{BugKind, End};
use crate::domain::{CmpOp, Decision, Domain};
use crate::memory::{Lookup, ObjKind};
use crate::program::Program;
use crate::state::State;

pub(super) fn call<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    model: Model,
    args: &[D::Val],
) -> Result<Option<D::Val>, End> {
    Ok(Some(match model {
        Model::Malloc => {
            let n = st.dom.choose(Decision::AllocSize, &args[0], 64);
            allocate(st, prog, n, false)?
        }
        Model::Calloc => {
            let a = st.dom.choose(Decision::AllocSize, &args[0], 64);
            let b = st.dom.choose(Decision::AllocSize, &args[1], 64);
            // glibc's calloc checks the product for overflow: null on every machine.
            let max = u128::MAX >> (128 - prog.addr.pointer_bits);
            match a.checked_mul(b).filter(|&n| n <= max) {
                Some(n) => allocate(st, prog, n, true)?,
                None => st.dom.constant(64, 0),
            }
        }
        Model::Realloc => realloc(st, prog, &args[0], &args[1])?,
        Model::Free => {
            free(st, prog, &args[0])?;
            return Ok(None);
        }
        _ => unreachable!("not an allocation model"),
    }))
}

/// A new heap block of `n` bytes (zeroed and initialised for `calloc`). Allocation never fails (SV-COMP
/// assumes `malloc` succeeds; glibc does with overcommit up to the machine's memory, and beyond that the
/// answer depends on the machine): a block the memory model cannot hold ends the path as unsupported, so
/// that no verdict rests on a null the real allocator might not return.
pub(super) fn allocate<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    n: u128,
    zeroed: bool,
) -> Result<D::Val, End> {
    let l = prog.addr;
    if !st.mem.addressable(u64::try_from(n).unwrap_or(u64::MAX)) {
        return Err(crate::exec::unsupported(
            st,
            prog,
            format!(
                "heap block of {n} bytes beyond what the {}-bit address model expresses (objects below {} bytes, at most {} objects)",
                l.pointer_bits,
                l.max_object_size(),
                l.max_objects() - 1
            ),
        ));
    }
    let loc = st.location(prog);
    let name = format!(
        "{} at {}:{}",
        if zeroed { "calloc" } else { "malloc" },
        loc.file,
        loc.line
    );
    let fill = st.dom.const_byte(0);
    let size = u64::try_from(n).unwrap_or(u64::MAX);
    match st
        .mem
        .allocate(ObjKind::Heap, name.into(), size, fill, zeroed)
    {
        Some(id) => Ok(st.dom.constant(64, l.address(id, 0) as u128)),
        None => Err(crate::exec::unsupported(
            st,
            prog,
            format!("a heap block of {n} bytes (larger than the memory model holds)"),
        )),
    }
}

/// Checks that `p` may be freed: null (returns `None`) or the start of a live heap block (returns its id).
fn freeable<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    p: &D::Val,
    what: &str,
) -> Result<Option<u32>, End> {
    let zero = st.dom.constant(64, 0);
    let is_null = st.dom.cmp(CmpOp::Eq, 64, p, &zero);
    if st.dom.decide(Decision::FreeOffset, &is_null) {
        return Ok(None);
    }
    let idv = st.pointer_object(p);
    let id = st.dom.choose(Decision::PointerObject, &idv, 32) as u32;
    let kind = match st.mem.lookup(id) {
        Lookup::Live(o) => Ok(o.kind),
        Lookup::Dead(k) => Err(k),
        Lookup::OutOfScope => Err(ObjKind::Stack),
        _ => {
            return Err(st.bug(
                prog,
                BugKind::InvalidFree,
                format!("{what} of a pointer to no object"),
            ))
        }
    };
    match kind {
        Ok(ObjKind::Heap) => {}
        Err(ObjKind::Heap) => {
            return Err(st.bug(
                prog,
                BugKind::DoubleFree,
                format!("{what} of a heap block already freed"),
            ))
        }
        Ok(k) | Err(k) => {
            let obj = match k {
                ObjKind::Stack => "a local variable",
                ObjKind::Global => "a global variable",
                ObjKind::StringLiteral => "a string literal",
                ObjKind::Function => "a function",
                _ => "memory not from malloc",
            };
            return Err(st.bug(prog, BugKind::InvalidFree, format!("{what} of {obj}")));
        }
    }
    let offv = st.pointer_offset(p);
    let at_start = st.dom.cmp(CmpOp::Eq, 64, &offv, &zero);
    if !st.dom.decide(Decision::FreeOffset, &at_start) {
        return Err(st.bug(
            prog,
            BugKind::InvalidFree,
            format!("{what} of a pointer into the middle of a heap block"),
        ));
    }
    Ok(Some(id))
}

fn free<D: Domain>(st: &mut State<D>, prog: &Program, p: &D::Val) -> Result<(), End> {
    if let Some(id) = freeable(st, prog, p, "free")? {
        st.mem.kill(id);
    }
    Ok(())
}

/// `realloc(p, n)`: a new block holding the old contents (up to `n` bytes); `realloc(NULL, n)` is
/// `malloc(n)`, `realloc(p, 0)` frees `p` and returns null (glibc).
pub(super) fn realloc<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    p: &D::Val,
    n: &D::Val,
) -> Result<D::Val, End> {
    let old = freeable(st, prog, p, "realloc")?;
    let n = st.dom.choose(Decision::AllocSize, n, 64);
    let Some(old) = old else {
        return allocate(st, prog, n, false);
    };
    if n == 0 {
        st.mem.kill(old);
        return Ok(st.dom.constant(64, 0));
    }
    let new = allocate(st, prog, n, false)?;
    let keep = (st.mem.object(old).expect("live heap block").size() as u128).min(n) as usize;
    let (new_id, _) = prog.addr.split(st.dom.as_const(&new).unwrap_or(0) as u64);
    let from = crate::access::Place { obj: old, off: 0 };
    // The kept bytes are copied values: uninitialised ones become inputs first (see `copy_memory`). The
    // old block dies here, so no one can compare it with the copy: beyond what a copy turns into inputs,
    // the copy carries the uninitialised marks instead (the same meaning, at no cost). Both blocks start
    // at offset 0, so large ones share pages.
    let old_contents = &st.mem.object(old).expect("live heap block").contents;
    if old_contents.count_uninitialised(0, keep) <= crate::access::MAX_UNINIT_COPY {
        st.ensure_init(from, keep);
    }
    let old_obj = st.mem.object_shared(old).expect("live heap block");
    if let Some(o) = st.mem.object_mut(new_id) {
        o.copy_bytes_from(0, &old_obj, 0, keep);
    }
    st.mem.kill(old);
    Ok(new)
}
