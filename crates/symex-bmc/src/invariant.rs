//! The inductive step's invariants in the source's terms, for correctness witnesses: each candidate's
//! locals become the C variables they hold, read as the guard reads them (width, signedness, extension)
//! through casts to standard integer types, so that `assert(expression)` at the loop head means exactly
//! what the step proved. A local is named only when the IR knows its source name
//! ([`symex_ir::locals`]) and it is in scope at the loop (a parameter, or declared on an earlier line);
//! when one candidate cannot be written, none is (the survivors are inductive together, not one by one).

use crate::guarded::Guarded;
use crate::induction::{object_of, Candidate, LocalRead, Target};
use symex_engine::{LoopInvariant, Program, State};
use symex_ir::{Body, CastOp, Inst, Operand};

/// The candidates `cands`, proven at the loop `t` of `body`, as one C conjunction (none: `Vec::new()`).
pub(crate) fn in_source(
    prog: &Program,
    body: &Body,
    t: &Target,
    s0: &State<Guarded>,
    cands: &[Candidate],
) -> Vec<LoopInvariant> {
    let parts: Option<Vec<String>> = cands
        .iter()
        .map(|c| candidate(prog, body, t, s0, c))
        .collect();
    match parts {
        Some(p) if !p.is_empty() => vec![LoopInvariant {
            function: prog.module().functions[t.func as usize].name.to_string(),
            line: t.line,
            expression: p.join(" && "),
        }],
        _ => Vec::new(),
    }
}

fn candidate(
    prog: &Program,
    body: &Body,
    t: &Target,
    s0: &State<Guarded>,
    c: &Candidate,
) -> Option<String> {
    let v = |r: &LocalRead, signed: bool| value(prog, body, t, s0, r, signed);
    match c {
        Candidate::Le { a, b, signed } => Some(format!("{} <= {}", v(a, *signed)?, v(b, *signed)?)),
        Candidate::Sum { a, b, c } => {
            let u = int_type(a.width / 8, false)?;
            Some(format!(
                "({u})({} + {}) == {}",
                v(a, false)?,
                v(b, false)?,
                v(c, false)?
            ))
        }
    }
}

/// `r` as a C value of its width, signed or not: `(T_width)(T_size)name`.
fn value(
    prog: &Program,
    body: &Body,
    t: &Target,
    s0: &State<Guarded>,
    r: &LocalRead,
    signed: bool,
) -> Option<String> {
    let name = variable(prog, body, t, s0, r)?;
    let inner = match r.ext {
        Some(CastOp::SExt) => int_type(r.size, true)?,
        Some(CastOp::ZExt) => int_type(r.size, false)?,
        Some(_) => return None,
        None => int_type(r.size, signed)?,
    };
    let read = format!("({inner}){name}");
    Some(if r.ext.is_some() {
        format!("({})({read})", int_type(r.width / 8, signed)?)
    } else {
        read
    })
}

/// The source variable `r` reads whole, if it has a name in scope at the loop.
fn variable<'b>(
    prog: &Program,
    body: &'b Body,
    t: &Target,
    s0: &State<Guarded>,
    r: &LocalRead,
) -> Option<&'b str> {
    if r.off != 0 || !r.width.is_multiple_of(8) {
        return None;
    }
    let v = body.locals.iter().find(|v| {
        object_of(prog, s0, Operand::Slot(v.slot)) == Some((r.obj, 0))
            && alloca_size(body, v.slot) == Some(u64::from(r.size))
    })?;
    let in_scope = v.param || v.decl.is_some_and(|d| d.line != 0 && d.line < t.line);
    in_scope.then_some(v.name.as_str())
}

/// The size of the single-element alloca `slot`.
fn alloca_size(body: &Body, slot: symex_ir::Slot) -> Option<u64> {
    body.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .find_map(|i| match i {
            Inst::Alloca {
                dst,
                elem_size,
                count: None,
                ..
            } if *dst == slot => Some(*elem_size),
            _ => None,
        })
}

/// The standard C integer type of `bytes` bytes (`long long` for 8: 64 bits on LP64 and ILP32 alike).
fn int_type(bytes: u32, signed: bool) -> Option<&'static str> {
    symex_engine::invariant::c_integer_type(bytes.checked_mul(8)?, signed)
}
