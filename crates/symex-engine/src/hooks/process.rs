//! How a program ends (`exit`, the functions it calls registered with `atexit`, `abort`, failed
//! assertions, the SV-COMP error function) and `abs`/`labs`.

use super::{ret_width, Model};
use crate::bug::{BugKind, End};
use crate::domain::{CmpOp, Decision, Domain, UnOp};
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
        Model::Exit => {
            let c = st.dom.choose(Decision::Output, &args[0], 32);
            Err(st.exit(prog, crate::concrete::sext(c, 32) as i64))
        }
        Model::Atexit | Model::CxaAtexit | Model::CxaThreadAtexit => {
            let arg = (model != Model::Atexit).then(|| args[1].clone());
            st.register_exit_handler(prog, &args[0], arg, model == Model::CxaThreadAtexit)?;
            // 0: registered.
            Ok(Some(st.dom.constant(ret_width(prog, call), 0)))
        }
        Model::Abort => Err(st.abnormal_end(prog, BugKind::Abort, "abort() called")),
        Model::ReachError => {
            Err(st.abnormal_end(prog, BugKind::ReachError, "reach_error() called"))
        }
        Model::AssertFail => {
            let msg = match args.first() {
                Some(p) => st
                    .read_c_string(prog, p)
                    .map(|s| String::from_utf8_lossy(&s).into_owned())
                    .unwrap_or_default(),
                None => String::new(),
            };
            Err(st.abnormal_end(
                prog,
                BugKind::Assertion,
                format!("assertion `{msg}` failed"),
            ))
        }
        Model::Abs | Model::Labs => {
            let w = ret_width(prog, call);
            let min = st.dom.constant(w, 1u128 << (w - 1));
            if st.checks.overflow {
                let is_min = st.dom.cmp(CmpOp::Eq, w, &args[0], &min);
                if st.dom.decide(Decision::Overflow, &is_min) {
                    return Err(st.bug(
                        prog,
                        BugKind::SignedOverflow,
                        "abs of the most negative value overflows",
                    ));
                }
            }
            Ok(Some(st.dom.unop(UnOp::Abs, w, &args[0])))
        }
        _ => unreachable!("not a process model"),
    }
}
