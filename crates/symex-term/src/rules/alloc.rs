//! Allocations (`AL`, [B] Def. 1; the base rules of [27]): globals (made in the initial state,
//! with their initializers), `alloca` (also of a variable count), `malloc`/`calloc` (SV-COMP
//! assumes they succeed; a size that may exceed 2⁴⁸ is outside the fragment, since such a
//! call may fail), `free` (`ERR` unless the pointer is null or provably the start of a live
//! heap allocation), the stack allocations of a returning frame, and `memset`/`memcpy`.

use super::memory::{self, pointer};
use super::{Exec, Outcome, R};
use crate::state::{eq, le_c, Alloc, Init, Mem, Ptr, Reading, Site, State, Target};
use symex_ir::{Call, Module, Operand, Slot};
use symex_its::Poly;

/// The largest size `malloc`/`calloc` are assumed to succeed for.
const MAX_HEAP: i128 = 1 << 48;

/// The memory of the initial state: one allocation per global, holding its initializer.
pub fn initial_mem(module: &Module) -> Mem {
    let allocs = module
        .globals
        .iter()
        .enumerate()
        .map(|(g, gl)| Alloc {
            site: Site::Global(g as u32),
            size: Poly::constant(gl.size as i128),
            live: true,
            init: if gl.init.is_some() {
                Init::Global(g as u32)
            } else {
                Init::Undef
            },
            pristine: true,
            read_only: gl.is_constant,
            dynamic: false,
        })
        .collect();
    Mem {
        allocs,
        cells: Vec::new(),
        lists: Vec::new(),
        addrs: Vec::new(),
    }
}

/// The site of the instruction `st` is at.
fn site(st: &State, heap: bool) -> Site {
    let f = st.top();
    Site::Inst {
        heap,
        depth: st.frames.len() - 1,
        func: f.func.0,
        block: f.block.0,
        idx: f.idx,
    }
}

/// A new allocation of `size` bytes; `dst` points to its start.
fn allocate(st: &mut State, dst: Option<Slot>, size: Poly, heap: bool, init: Init, dynamic: bool) {
    let s = site(st, heap);
    st.mem.allocs.push(Alloc {
        site: s,
        size,
        live: true,
        init,
        pristine: true,
        read_only: false,
        dynamic,
    });
    let ptr = Ptr {
        target: Target::Alloc(st.mem.allocs.len() - 1),
        off: Poly::constant(0),
    };
    if let Some(d) = dst {
        st.top_mut().ptrs.insert(d, ptr);
    }
}

/// `dst = alloca elem_size × count`.
pub fn alloca(
    ex: &mut Exec,
    mut st: State,
    dst: Slot,
    elem_size: u64,
    count: Option<Operand>,
    count_width: u32,
) -> R<Vec<State>> {
    let n = match count {
        None => Poly::constant(1),
        Some(c) => ex.operand(&mut st, c, count_width, Reading::Unsigned)?,
    };
    // A variable count is a VLA (`llvm.stackrestore` ends it); `alloca(4)` lives to the return.
    let dynamic = matches!(count, Some(Operand::Slot(_)));
    let size = n.scale(elem_size as i128);
    allocate(&mut st, Some(dst), size, false, Init::Undef, dynamic);
    Ok(vec![st])
}

/// The value of the `i`-th argument of a call, as an unsigned integer.
fn int_arg(ex: &mut Exec, st: &mut State, c: &Call, i: usize) -> R<Poly> {
    let width = match c.arg_types.get(i).map(|t| &ex.module.ty(*t).kind) {
        Some(symex_ir::TypeKind::Int(w)) => *w,
        _ => return Err(ex.unsupported(st, "a non-integer size argument")),
    };
    ex.operand(st, c.args[i], width, Reading::Unsigned)
}

/// The library functions [`external`] models.
pub const HANDLED: &[&str] = &["malloc", "calloc", "free"];

/// `malloc`, `calloc`, `free`.
pub fn external(ex: &mut Exec, mut st: State, c: &Call, name: &str) -> Outcome {
    let res = match (name, c.args.len()) {
        ("malloc", 1) => int_arg(ex, &mut st, c, 0).and_then(|n| heap(ex, st, c, n, Init::Undef)),
        ("calloc", 2) => {
            let n = int_arg(ex, &mut st, c, 0);
            let m = int_arg(ex, &mut st, c, 1);
            match (n, m) {
                (Ok(n), Ok(m)) => match (n.as_constant(), m.as_constant()) {
                    (Some(a), _) => heap(ex, st, c, m.scale(a), Init::Zero),
                    (_, Some(b)) => heap(ex, st, c, n.scale(b), Init::Zero),
                    _ => Err(ex.unsupported(&st, "`calloc` of a non-linear size")),
                },
                (Err(o), _) | (_, Err(o)) => Err(o),
            }
        }
        ("free", 1) => free(ex, st, c.args[0]),
        _ => Err(ex.unsupported(&st, &format!("`{name}` with {} arguments", c.args.len()))),
    };
    match res {
        Ok(mut states) => {
            for s in &mut states {
                s.top_mut().idx += 1;
            }
            Outcome::Next(states)
        }
        Err(o) => o,
    }
}

fn heap(ex: &mut Exec, mut st: State, c: &Call, size: Poly, init: Init) -> R<Vec<State>> {
    if !ex.kb.entails(&st.kb, &le_c(&size, MAX_HEAP)) {
        return Err(ex.unsupported(
            &st,
            "an allocation whose size may exceed 2^48 bytes (it may fail)",
        ));
    }
    allocate(&mut st, c.dst, size, true, init, false);
    Ok(vec![st])
}

/// `free(p)`: null is a no-op; otherwise `p` must be the start of a live heap allocation.
fn free(ex: &mut Exec, mut st: State, p: Operand) -> R<Vec<State>> {
    let ptr = pointer(ex, &mut st, p)?;
    match ptr.target {
        Target::Null if ptr.off.as_constant() == Some(0) => Ok(vec![st]),
        Target::List(i) => super::list::each_unfolded(ex, st, i, |ex, s| free(ex, s, p)),
        Target::Alloc(a) => {
            let alloc = &st.mem.allocs[a];
            let heap = matches!(alloc.site, Site::Inst { heap: true, .. });
            if !heap || !alloc.live {
                let what = if heap { "freed" } else { "not heap" };
                return Err(ex.err(&st, &format!("`free` of memory that is {what}")));
            }
            if !ex.kb.entails(&st.kb, &eq(&ptr.off, &Poly::constant(0))) {
                return Err(ex.err(
                    &st,
                    "`free` of a pointer that may not be the start of its allocation",
                ));
            }
            kill(&mut st, a);
            Ok(vec![st])
        }
        _ => Err(ex.err(&st, "`free` of a pointer that may be invalid")),
    }
}

/// Ends the lifetime of allocation `a`: its cells go (a load through a dangling pointer is `ERR`).
fn kill(st: &mut State, a: usize) {
    st.mem.allocs[a].live = false;
    st.mem.cells.retain(|c| c.alloc != a);
}

/// After a frame was popped: its `alloca`s end.
pub fn pop_frame(st: &mut State) {
    let depth = st.frames.len();
    for a in 0..st.mem.allocs.len() {
        if let Site::Inst {
            heap: false,
            depth: d,
            ..
        } = st.mem.allocs[a].site
        {
            if d >= depth && st.mem.allocs[a].live {
                kill(st, a);
            }
        }
    }
}

/// `llvm.stacksave`: a token with the number of allocations made so far.
pub fn stack_save(st: &mut State, dst: Option<Slot>) {
    if let Some(d) = dst {
        let mark = st.mem.allocs.len();
        st.top_mut().ptrs.insert(
            d,
            Ptr {
                target: Target::StackMark(mark),
                off: Poly::constant(0),
            },
        );
    }
}

/// `llvm.stackrestore(token)`: the frame's variable-length `alloca`s made since the token
/// end. A token a loop head forgot (unknown) ends all of them: ending too many can only
/// turn a later access into `ERR`.
pub fn stack_restore(ex: &mut Exec, mut st: State, token: Operand) -> R<Vec<State>> {
    let mark = match pointer(ex, &mut st, token)?.target {
        Target::StackMark(m) => m,
        _ => 0,
    };
    let depth = st.frames.len() - 1;
    for a in mark..st.mem.allocs.len() {
        let alloc = &st.mem.allocs[a];
        let here = matches!(alloc.site, Site::Inst { heap: false, depth: d, .. } if d == depth);
        if here && alloc.dynamic && alloc.live {
            kill(&mut st, a);
        }
    }
    Ok(vec![st])
}

/// `memset(dst, byte, len)`: the range must be in bounds; its cells are dropped. Zeroing a
/// whole allocation makes it zero-initialised (`int a[n] = {0}`).
pub fn memset(ex: &mut Exec, mut st: State, args: &[Operand], len_width: u32) -> R<Vec<State>> {
    let ptr = pointer(ex, &mut st, args[0])?;
    let byte = ex.operand(&mut st, args[1], 8, Reading::Unsigned)?;
    let len = ex.operand(&mut st, args[2], len_width, Reading::Unsigned)?;
    let a = memory::in_bounds(ex, &st, &ptr, &len, "memset")?;
    let whole = byte.as_constant() == Some(0)
        && ex.kb.entails(&st.kb, &eq(&ptr.off, &Poly::constant(0)))
        && ex.kb.entails(&st.kb, &eq(&len, &st.mem.allocs[a].size));
    if whole {
        st.mem.cells.retain(|c| c.alloc != a);
        let alloc = &mut st.mem.allocs[a];
        alloc.init = Init::Zero;
        alloc.pristine = true;
    } else {
        memory::clobber(ex, &mut st, a, &ptr.off, &len, false);
    }
    Ok(vec![st])
}

/// `memcpy`/`memmove(dst, src, len)`: both ranges in bounds; the destination's cells are dropped.
pub fn memcpy(ex: &mut Exec, mut st: State, args: &[Operand], len_width: u32) -> R<Vec<State>> {
    let dst = pointer(ex, &mut st, args[0])?;
    let src = pointer(ex, &mut st, args[1])?;
    let len = ex.operand(&mut st, args[2], len_width, Reading::Unsigned)?;
    memory::in_bounds(ex, &st, &src, &len, "memcpy source")?;
    let a = memory::in_bounds(ex, &st, &dst, &len, "memcpy destination")?;
    memory::clobber(ex, &mut st, a, &dst.off, &len, false);
    Ok(vec![st])
}
