//! A violation witness as a guide (`symex validate`): the values a witness says its
//! `__VERIFIER_nondet_*` calls return, in the order of the path it describes. Each nondet call of a run
//! takes the next guided value when the witness gives its line (or no line) — the path condition then
//! fixes the call's result — and stays a free input otherwise, so the runs explored are those the
//! witness allows, and the exploration covers whatever the witness leaves open.

use crate::concrete::mask;
use crate::domain::{CmpOp, Domain};
use crate::program::Program;
use crate::state::State;
use crate::{End, Halt};

/// One value a witness fixes: `\result == value` of the nondet call at `line`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuidedValue {
    /// The source line of the call (`None`: whichever nondet call comes next).
    pub line: Option<u32>,
    pub value: i128,
}

/// Restricts the nondet result `v` (`w` bits) of the call about to return to the guide's next value
/// when that value is for this call's line. A path on which the value is impossible ends as an
/// assumption that does not hold (it is not a run the witness describes).
pub(crate) fn follow<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    v: &D::Val,
    w: u32,
) -> Result<(), End> {
    let Some(guide) = prog.guide.as_ref() else {
        return Ok(());
    };
    let Some(next) = guide.get(st.guide_next) else {
        return Ok(());
    };
    let here = st.location(prog);
    if next.line.is_some_and(|l| l != here.line) {
        return Ok(());
    }
    st.guide_next += 1;
    let fixed = st.dom.constant(w, next.value as u128 & mask(w));
    let c = st.dom.cmp(CmpOp::Eq, w, v, &fixed);
    if st.dom.assume(&c) {
        Ok(())
    } else {
        Err(End::Halt(Halt::AssumptionViolated(here)))
    }
}
