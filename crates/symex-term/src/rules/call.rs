//! Calls: a defined, non-recursive function is inlined (a new frame, arguments converted to
//! the parameters' readings); `__VERIFIER_nondet_*` returns a fresh variable with its type's
//! range only; `__VERIFIER_assume` refines on its argument (the false case ends the path);
//! `abort`, `exit` and the error functions end the path. Anything else is unsupported.

use super::{Exec, Outcome};
use crate::state::{ge_c, Frame, Reading, State, Val};
use std::collections::BTreeMap;
use symex_ir::{BlockId, Call, Callee, Intrinsic, Slot};
use symex_its::Poly;

/// Functions whose call ends the run (or, for the error functions, the analysed behaviour:
/// termination is about the runs that do not stop there).
const ENDS: &[&str] = &[
    "abort",
    "exit",
    "_exit",
    "reach_error",
    "__VERIFIER_error",
    "__assert_fail",
];

pub fn call(ex: &mut Exec, mut st: State, c: &Call) -> Outcome {
    let Callee::Direct(fid) = c.callee else {
        return ex.unsupported(&st, "call through a function pointer");
    };
    let func = ex.module.func(fid);
    let name = func.name.clone();
    if func.body.is_some() {
        // Concrete runs, and recursive calls on literals for a while, are inlined.
        let inline = ex.concrete_inputs.is_some() || super::recursion::inline(ex, &mut st, c, fid);
        if !inline && ex.recursive.contains(&fid) {
            return super::recursion::call(ex, st, c, fid);
        }
        if !inline && st.frames.iter().any(|f| f.func == fid) {
            return ex.unsupported(&st, &format!("recursive call of `{name}`"));
        }
        let mut vals = Vec::new();
        let mut ptrs = BTreeMap::new();
        for (i, arg) in c.args.iter().enumerate().take(func.params.len()) {
            let p = Slot(i as u32);
            let Some(width) = ex.slot_width(fid, p) else {
                match super::memory::pointer(ex, &mut st, *arg) {
                    Ok(v) => ptrs.insert(p, v),
                    Err(o) => return o,
                };
                continue;
            };
            let reading = ex.class.reading(fid, p);
            match ex.operand(&mut st, *arg, width, reading) {
                Ok(v) => vals.push((p, v, width, reading)),
                Err(o) => return o,
            }
        }
        st.frames.push(Frame {
            func: fid,
            block: BlockId(0),
            idx: 0,
            regs: BTreeMap::new(),
            ret_to: c.dst,
            ptrs,
        });
        for (p, v, width, reading) in vals {
            ex.bind(&mut st, p, v, width, reading);
        }
        st.arrived = ex.heads.contains(&(fid, BlockId(0)));
        return Outcome::Next(vec![st]);
    }
    if ENDS.contains(&name.as_str()) {
        return Outcome::Done(Box::new(st));
    }
    if name.starts_with("__VERIFIER_nondet") {
        return nondet(ex, st, c, &name);
    }
    if OUTPUT.contains(&name.as_str()) {
        return output(ex, st, c);
    }
    if name == "__VERIFIER_assume" || name == "klee_assume" {
        let Some(arg) = c.args.first().copied() else {
            return ex.unsupported(&st, "`__VERIFIER_assume` without an argument");
        };
        let width = match c.arg_types.first().map(|t| &ex.module.ty(*t).kind) {
            Some(symex_ir::TypeKind::Int(w)) => *w,
            _ => return ex.unsupported(&st, "`__VERIFIER_assume` of a non-integer"),
        };
        let a = match ex.operand(&mut st, arg, width, Reading::Unsigned) {
            Ok(a) => a,
            Err(o) => return o,
        };
        let cases = vec![
            (vec![ge_c(&a, 1)], true),
            (vec![crate::state::eq(&a, &Poly::constant(0))], false),
        ];
        // The false case ends the run: it is a path of its own (a leaf of the SEG).
        let mut out = Vec::new();
        for (mut s, holds) in ex.split(st, cases) {
            if holds {
                s.top_mut().idx += 1;
            } else {
                s.halted = true;
            }
            out.push(s);
        }
        return Outcome::Next(out);
    }
    if super::alloc::HANDLED.contains(&name.as_str()) {
        return super::alloc::external(ex, st, c, &name);
    }
    ex.unsupported(&st, &format!("call of the external function `{name}`"))
}

fn nondet(ex: &mut Exec, mut st: State, c: &Call, name: &str) -> Outcome {
    let width = match &ex.module.ty(c.ret).kind {
        symex_ir::TypeKind::Int(w) => *w,
        _ => return ex.unsupported(&st, &format!("`{name}` returns a non-integer")),
    };
    let f = st.top().func;
    let reading = c.dst.map_or(Reading::Unsigned, |d| ex.class.reading(f, d));
    let boolean = name.ends_with("bool") || name.ends_with("_Bool");
    let val = match &ex.concrete_inputs {
        Some(inputs) => match inputs.get(st.inputs.len()) {
            Some(&v) => {
                // `i128::MAX`/`MIN` stand for the type's `smax`/`smin` (the width is known here).
                let v = match v {
                    i128::MAX => crate::state::smax(width),
                    i128::MIN => crate::state::smin(width),
                    v => v,
                };
                let (lo, hi) = if boolean {
                    (0, 1)
                } else {
                    super::range(width, reading)
                };
                Val::Const(crate::state::convert_const(v, width, reading).clamp(lo, hi))
            }
            None => return ex.unsupported(&st, "more inputs than the concrete run was given"),
        },
        None => {
            let v = ex.fresh(&mut st, width, reading);
            if boolean {
                st.kb.push(ge_c(&Poly::var(v), 0));
                st.kb.push(crate::state::le_c(&Poly::var(v), 1));
            }
            Val::Var(v)
        }
    };
    st.inputs.push((name.to_string(), width, val));
    if let Some(d) = c.dst {
        st.top_mut().regs.insert(d, val);
    }
    st.top_mut().idx += 1;
    Outcome::Next(vec![st])
}

/// Output functions: they terminate and change no register; their result (a count or an
/// error) is any value of its type.
const OUTPUT: &[&str] = &["printf", "puts", "putchar"];

fn output(ex: &mut Exec, mut st: State, c: &Call) -> Outcome {
    if let Some(d) = c.dst {
        let f = st.top().func;
        let Some(width) = ex.slot_width(f, d) else {
            return ex.unsupported(&st, "output function with a non-integer result");
        };
        let reading = ex.class.reading(f, d);
        let v = ex.fresh(&mut st, width, reading);
        st.top_mut().regs.insert(d, Val::Var(v));
    }
    st.top_mut().idx += 1;
    Outcome::Next(vec![st])
}

pub fn intrinsic(
    ex: &mut Exec,
    st: State,
    op: &Intrinsic,
    args: &[symex_ir::Operand],
    dst: Option<Slot>,
) -> super::R<Vec<State>> {
    match op {
        Intrinsic::LifetimeStart | Intrinsic::LifetimeEnd => Ok(vec![st]),
        Intrinsic::Memset { len_width, .. } => super::alloc::memset(ex, st, args, *len_width),
        Intrinsic::StackSave => {
            let mut st = st;
            super::alloc::stack_save(&mut st, dst);
            Ok(vec![st])
        }
        Intrinsic::StackRestore => super::alloc::stack_restore(ex, st, args[0]),
        Intrinsic::Memcpy { len_width, .. } | Intrinsic::Memmove { len_width, .. } => {
            super::alloc::memcpy(ex, st, args, *len_width)
        }
        _ => Err(ex.unsupported(&st, &format!("intrinsic {op:?}"))),
    }
}
