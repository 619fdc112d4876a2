//! KLEE's intrinsics beyond the inputs (`klee/klee.h`): path ends, questions about values and objects,
//! messages and exploration control, with KLEE's diagnostics for a call against the contract.

use super::{callee_name, ret_width, Model};
use crate::bug::{BugKind, End, Halt};
use crate::domain::{CmpOp, Decision, Domain};
use crate::memory::Lookup;
use crate::program::Program;
use crate::state::State;
use std::rc::Rc;
use symex_ir::Call;

pub(super) fn call<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    model: Model,
    call: &Call,
    args: &[D::Val],
) -> Result<Option<D::Val>, End> {
    let w = ret_width(prog, call);
    match model {
        Model::KleeSilentExit => Err(End::Halt(Halt::SilentExit(st.location(prog)))),
        Model::KleeAbort => Err(st.abnormal_end(prog, BugKind::Abort, "abort failure")),
        Model::KleeAssertFail => {
            let expr = string_arg(st, prog, &args[0])?;
            Err(st.abnormal_end(prog, BugKind::Assertion, format!("ASSERTION FAIL: {expr}")))
        }
        Model::KleeReportError => {
            // KLEE reports where the call is; the file and line arguments are not used.
            let message = string_arg(st, prog, &args[2])?;
            let suffix = string_arg(st, prog, &args[3])?;
            let mut end = st.bug(prog, BugKind::Reported, message);
            if let End::Bug(b) = &mut end {
                b.suffix = Some(suffix);
            }
            Err(end)
        }
        Model::KleeIsSymbolic => {
            let aw = arg_width(prog, call, 0);
            let symbolic = st.dom.as_const(&args[0]).is_none() && aw > 0;
            Ok(Some(st.dom.constant(w, symbolic as u128)))
        }
        Model::KleeIsReplay => Ok(Some(st.dom.constant(w, 0))),
        // Preferences for the values a test shows, and KLEE's marking of globals: no effect on paths.
        Model::KleePreferCex | Model::KleeMarkGlobal | Model::KleeStackTrace => Ok(None),
        Model::KleeGetValue => {
            // One value the path allows, without constraining the path (KLEE's executeGetValue).
            let aw = arg_width(prog, call, 0);
            let v = st.dom.choose(Decision::Output, &args[0], aw);
            Ok(Some(st.dom.constant(aw, v)))
        }
        Model::KleeGetObjSize => {
            let (id, _) = st.resolve_object(prog, &args[0], 0, crate::access::Access::Read)?;
            let size = match st.mem.lookup(id) {
                Lookup::Live(o) => o.size(),
                _ => 0,
            };
            Ok(Some(st.dom.constant(w, size as u128)))
        }
        Model::KleeCheckMemoryAccess => check_memory_access(st, prog, args).map(|()| None),
        Model::KleeDefineFixedObject => define_fixed_object(st, prog, args).map(|()| None),
        Model::KleeSetForking => {
            let Some(on) = st.dom.as_const(&args[0]) else {
                return Err(st.bug(
                    prog,
                    BugKind::User,
                    "klee_set_forking requires a constant arg",
                ));
            };
            st.dom.set_forking(on != 0);
            Ok(None)
        }
        Model::KleeWarning | Model::KleeWarningOnce => {
            let msg = string_arg(st, prog, &args[0])?;
            let func = st.location(prog).function;
            let once = if model == Model::KleeWarningOnce {
                " ONCE"
            } else {
                ""
            };
            let line = format!("KLEE: WARNING{once}: {func}: {msg}");
            st.message(line, model == Model::KleeWarningOnce);
            Ok(None)
        }
        Model::KleePrintExpr => {
            let msg = string_arg(st, prog, &args[0])?;
            let expr = match args.get(1) {
                Some(v) => match st.dom.as_const(v) {
                    Some(c) => c.to_string(),
                    None => "(symbolic)".to_string(),
                },
                None => String::new(),
            };
            st.message(format!("{msg}:{expr}"), false);
            Ok(None)
        }
        Model::KleeMergeIgnored => {
            let name = callee_name(prog, call);
            st.message(
                format!("KLEE: WARNING ONCE: {name} ignored, use '-use-merge'"),
                true,
            );
            Ok(None)
        }
        _ => unreachable!("not a KLEE intrinsic"),
    }
}

/// `klee_make_symbolic(p, n, name)`: the object `p` points to, whole, becomes the input `name`. KLEE's
/// checks: `p` is the start of an object (a memory error otherwise), the object is writable and `n` is
/// its size (user errors); a null or empty name is `unnamed`, with KLEE's warning.
pub(super) fn make_symbolic<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    args: &[D::Val],
) -> Result<(), End> {
    let name = match st.dom.as_const(&args[2]) {
        Some(0) => String::new(),
        _ => string_arg(st, prog, &args[2])?,
    };
    let name = if name.is_empty() {
        st.message(
            "KLEE: WARNING: klee_make_symbolic: renamed empty name to \"unnamed\"".into(),
            false,
        );
        "unnamed".to_string()
    } else {
        name
    };
    // Resolved as a read: a read-only object is KLEE's user error below, not a memory error.
    let (id, offv) = st.resolve_object(prog, &args[0], 0, crate::access::Access::Read)?;
    let zero = st.dom.constant(64, 0);
    let at_start = st.dom.cmp(CmpOp::Eq, 64, &offv, &zero);
    if !st.dom.decide(Decision::PointerOffset, &at_start) {
        return Err(st.bug(
            prog,
            BugKind::OutOfBounds,
            "memory error: invalid pointer: make_symbolic",
        ));
    }
    let (size, read_only) = match st.mem.lookup(id) {
        Lookup::Live(o) => (o.size(), o.read_only),
        _ => unreachable!("resolve_object gives a live object"),
    };
    if read_only {
        return Err(st.bug(prog, BugKind::User, "cannot make readonly object symbolic"));
    }
    let sizev = st.dom.constant(64, size as u128);
    let same = st.dom.cmp(CmpOp::Eq, 64, &args[1], &sizev);
    if !st.dom.decide(Decision::Length, &same) {
        return Err(st.bug(
            prog,
            BugKind::User,
            "Wrong size given to klee_make_symbolic",
        ));
    }
    let bytes = st
        .dom
        .input(crate::domain::InputRequest::Named(&name), size as usize);
    st.store_bytes(prog, &args[0], &bytes)
}

/// `klee_check_memory_access(p, n)`: both constant (a user error otherwise), and the `n` bytes at `p`
/// within one live object (a memory error otherwise).
fn check_memory_access<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    args: &[D::Val],
) -> Result<(), End> {
    let (Some(p), Some(n)) = (st.dom.as_const(&args[0]), st.dom.as_const(&args[1])) else {
        return Err(st.bug(
            prog,
            BugKind::User,
            "check_memory_access requires constant args",
        ));
    };
    let (id, off) = st.mem.layout().split(p as u64);
    let inside = match st.mem.lookup(id) {
        Lookup::Live(o) => off.checked_add(n as u64).is_some_and(|e| e <= o.size()),
        _ => false,
    };
    if inside {
        return Ok(());
    }
    let kind = if id == 0 {
        BugKind::NullDeref
    } else {
        BugKind::OutOfBounds
    };
    Err(st.bug(prog, kind, "check_memory_access: memory error"))
}

/// A string argument of an intrinsic (a name, a message).
fn string_arg<D: Domain>(st: &mut State<D>, prog: &Program, p: &D::Val) -> Result<String, End> {
    Ok(String::from_utf8_lossy(&st.read_c_string(prog, p)?).into_owned())
}

/// The width of argument `i` at the call site (0 when it has none, e.g. a missing argument).
fn arg_width(prog: &Program, call: &Call, i: usize) -> u32 {
    call.arg_types
        .get(i)
        .and_then(|&t| prog.width(t))
        .unwrap_or(0)
}

/// `klee_choose(n)`: a fresh input below `n` (KLEE's runtime makes one symbolic and exits silently
/// on the values not below `n`).
pub(super) fn choose<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    call: &Call,
    args: &[D::Val],
) -> Result<Option<D::Val>, End> {
    let w = ret_width(prog, call);
    let bytes = st.dom.input(
        crate::domain::InputRequest::Named("klee_choose"),
        (w as usize).div_ceil(8),
    );
    let x = st.dom.bytes_to_val(&bytes, w);
    let below = st.dom.cmp(CmpOp::Ult, w, &x, &args[0]);
    if st.dom.assume(&below) {
        Ok(Some(x))
    } else {
        Err(End::Halt(Halt::SilentExit(st.location(prog))))
    }
}

/// `klee_define_fixed_object(addr, n)`: an object of `n` zero bytes at the address `addr` the program
/// chose (KLEE's `allocateFixed`), reached through that address and those after it (see
/// `State::fixed_place`); both arguments must be constants, as KLEE requires.
fn define_fixed_object<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    args: &[D::Val],
) -> Result<(), End> {
    let (Some(addr), Some(size)) = (st.dom.as_const(&args[0]), st.dom.as_const(&args[1])) else {
        return Err(st.bug(
            prog,
            BugKind::User,
            "expected constant address and size arguments to klee_define_fixed_object",
        ));
    };
    let (addr, size) = (addr as u64, size as u64);
    let taken = st
        .fixed_objects
        .iter()
        .any(|&(b, n, _)| addr < b + n && b < addr.saturating_add(size));
    if taken || st.mem.object(prog.addr.split(addr).0).is_some() {
        return Err(st.bug(
            prog,
            BugKind::User,
            format!("klee_define_fixed_object: {addr:#x} overlaps an object"),
        ));
    }
    let zero = st.dom.const_byte(0);
    let name = format!("fixed object at {addr:#x}");
    let id = st
        .mem
        .allocate(
            crate::memory::ObjKind::Global,
            name.into(),
            size,
            zero,
            true,
        )
        .ok_or_else(|| {
            crate::exec::unsupported(st, prog, "more objects than addresses can tell apart")
        })?;
    Rc::make_mut(&mut st.fixed_objects).push((addr, size, id));
    Ok(())
}
