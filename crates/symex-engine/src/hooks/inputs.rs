//! Program inputs (SV-COMP `__VERIFIER_*`, KLEE `klee_*`): each request takes the next input of the test
//! concretely, or fresh symbols symbolically; assumptions restrict the path.

use super::{callee_name, ret_width, Model};
use crate::bug::{End, Halt};
use crate::domain::{CastOp, CmpOp, Decision, Domain, InputRequest};
use crate::program::Program;
use crate::state::State;
use symex_ir::Call;

pub(super) fn call<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    model: Model,
    call: &Call,
    args: &[D::Val],
) -> Result<Option<D::Val>, End> {
    match model {
        Model::Nondet => {
            let name = callee_name(prog, call).to_string();
            let w = ret_width(prog, call);
            let Some((tw, signed)) = nondet_type(&name) else {
                // A pointer input has the target's pointer width (4 bytes on i386: the test gives the
                // bytes the native build reads), held zero-extended as every pointer value is.
                let bits = prog.addr.pointer_bits;
                if call.ret == symex_ir::TypeId::PTR && bits < w {
                    let v = fresh(st, &name, bits);
                    crate::guide::follow(st, prog, &v, bits)?;
                    return Ok(Some(st.dom.cast(CastOp::ZExt, bits, w, &v)));
                }
                let v = fresh(st, &name, w);
                crate::guide::follow(st, prog, &v, w)?;
                return Ok(Some(v));
            };
            // The value lies in the type SV-COMP gives the function, whatever the program declared
            // (`int __VERIFIER_nondet_bool()`, an implicit `int` declaration): extended to the call's type.
            let v = fresh(st, &name, tw);
            crate::guide::follow(st, prog, &v, tw)?;
            Ok(Some(if tw == w {
                v
            } else if tw > w {
                st.dom.cast(CastOp::Trunc, tw, w, &v)
            } else if signed {
                st.dom.cast(CastOp::SExt, tw, w, &v)
            } else {
                st.dom.cast(CastOp::ZExt, tw, w, &v)
            }))
        }
        Model::KleeInt => {
            let name = String::from_utf8_lossy(&st.read_c_string(prog, &args[0])?).into_owned();
            Ok(Some(fresh(st, &name, 32)))
        }
        Model::KleeRange => {
            // KLEE: klee_range(lo, hi, name) is in [lo, hi) (signed); a one-value range asks for nothing.
            let lo = args[0].clone();
            let hi = args[1].clone();
            let one = st.dom.constant(32, 1);
            let lo1 = st.dom.binop(crate::domain::BinOp::Add, 32, &lo, &one);
            let single = st.dom.cmp(CmpOp::Eq, 32, &lo1, &hi);
            if st.dom.decide(Decision::Branch, &single) {
                return Ok(Some(lo));
            }
            let name = String::from_utf8_lossy(&st.read_c_string(prog, &args[2])?).into_owned();
            let x = fresh(st, &name, 32);
            let ge = st.dom.cmp(CmpOp::Sge, 32, &x, &lo);
            let lt = st.dom.cmp(CmpOp::Slt, 32, &x, &hi);
            let both = st.dom.binop(crate::domain::BinOp::And, 1, &ge, &lt);
            assume(st, prog, &both)?;
            Ok(Some(x))
        }
        Model::KleeMakeSymbolic => super::klee::make_symbolic(st, prog, args).map(|()| None),
        Model::Assume | Model::KleeAssume => {
            let w = call
                .arg_types
                .first()
                .and_then(|&t| prog.width(t))
                .unwrap_or(32);
            let zero = st.dom.constant(w, 0);
            let c = st.dom.cmp(CmpOp::Ne, w, &args[0], &zero);
            if model == Model::KleeAssume && !st.checks.silent_klee_assume && !st.dom.assume(&c) {
                // KLEE: a condition no input of the path satisfies is a misuse, not a silent end.
                return Err(st.bug(
                    prog,
                    crate::bug::BugKind::User,
                    "invalid klee_assume call (provably false)",
                ));
            }
            assume(st, prog, &c)?;
            Ok(None)
        }
        _ => unreachable!("not an input model"),
    }
}

/// The width and signedness of the type SV-COMP gives `__VERIFIER_nondet_X` (x86-64), for the types whose
/// size does not depend on the data model; `None` for the others (`long`, pointers, `size_t`, ...), whose
/// declared type at the call is the program's.
fn nondet_type(name: &str) -> Option<(u32, bool)> {
    Some(match name.strip_prefix("__VERIFIER_nondet_")? {
        "bool" | "_Bool" => (1, false),
        "char" | "schar" => (8, true),
        "uchar" | "u8" => (8, false),
        "short" | "sshort" => (16, true),
        "ushort" | "u16" => (16, false),
        "int" | "s32" => (32, true),
        "uint" | "unsigned" | "u32" => (32, false),
        "longlong" => (64, true),
        "ulonglong" => (64, false),
        "int128" => (128, true),
        "uint128" => (128, false),
        _ => return None,
    })
}

/// A fresh `w`-bit input called `name` (a `_Bool`/`i1` input takes one byte and keeps its low bit).
fn fresh<D: Domain>(st: &mut State<D>, name: &str, w: u32) -> D::Val {
    let n = (w as usize).div_ceil(8);
    let bytes = st.dom.input(InputRequest::Named(name), n);
    st.dom.bytes_to_val(&bytes, w)
}

fn assume<D: Domain>(st: &mut State<D>, prog: &Program, c: &D::Val) -> Result<(), End> {
    if st.dom.assume(c) {
        Ok(())
    } else {
        Err(End::Halt(Halt::AssumptionViolated(st.location(prog))))
    }
}
