//! `printf`, `puts`, `putchar`: the program's standard output, collected in the state.

use super::{ret_width, Model};
use crate::bug::End;
use crate::domain::{CastOp, Decision, Domain};
use crate::printf::{format, ArgNeed, ArgValue, FormatError};
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
    let w = ret_width(prog, call);
    let written = match model {
        Model::Putchar => {
            // The value returned is the byte written, symbolic as it is; only the output fixes it.
            let byte = st.dom.cast(CastOp::Trunc, 32, 8, &args[0]);
            st.stdout
                .push(st.dom.choose(Decision::Output, &byte, 8) as u8);
            return Ok(Some(st.dom.cast(CastOp::ZExt, 8, w, &byte)));
        }
        Model::Puts => {
            let s = st.read_c_string(prog, &args[0])?;
            st.stdout.extend_from_slice(&s);
            st.stdout.push(b'\n');
            s.len() + 1
        }
        Model::Printf => {
            let fmt = st.read_c_string(prog, &args[0])?;
            let mut k = 1;
            let mut fetch = |need: ArgNeed| -> Result<ArgValue, End> {
                let Some(v) = args.get(k) else {
                    return Ok(ArgValue::Int(0));
                };
                let aw = call
                    .arg_types
                    .get(k)
                    .and_then(|&t| prog.width(t))
                    .unwrap_or(64);
                k += 1;
                match need {
                    ArgNeed::Int => Ok(ArgValue::Int(st.dom.choose(Decision::Output, v, aw))),
                    ArgNeed::Str(max) => st
                        .read_c_string_at_most(prog, v, max.map(|m| m as u64))
                        .map(ArgValue::Str),
                }
            };
            match format(&fmt, &mut fetch) {
                Ok(out) => {
                    let n = out.len();
                    st.stdout.extend_from_slice(&out);
                    n
                }
                Err(FormatError::Arg(e)) => return Err(e),
                Err(FormatError::Unsupported(what)) => {
                    return Err(crate::exec::unsupported(st, prog, what))
                }
            }
        }
        _ => unreachable!("not a stdio model"),
    };
    Ok(Some(st.dom.constant(w, written as u128)))
}
