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

/// One step of the path a witness describes: a nondet value, or the way the condition at `line` goes
/// (`taken`: it holds). Steps are matched in order, as a witness automaton's edges are: an operation
/// the next step is not about leaves the guide where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuideStep {
    Value(GuidedValue),
    Branch { line: u32, taken: bool },
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
    // Once the path met a condition the witness names but clang's labels cannot orient, its branch
    // steps are passed over: the values alone guide, and the rest of the run is explored freely.
    while st.guide_branches_off
        && matches!(guide.get(st.guide_next), Some(GuideStep::Branch { .. }))
    {
        st.guide_next += 1;
    }
    let Some(GuideStep::Value(next)) = guide.get(st.guide_next) else {
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

/// Restricts the conditional branch about to be decided on `cond` (one bit) to the direction the
/// guide's next step names, when that step is about this condition's line. A condition at that line
/// whose sides clang's labels do not show (`symex_ir::source_branch`) turns branch steps off for the
/// rest of the path: guessing its orientation could exclude the run the witness means.
pub(crate) fn follow_branch<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    cond: &D::Val,
) -> Result<(), End> {
    let Some(guide) = prog.guide.as_ref() else {
        return Ok(());
    };
    if st.guide_branches_off {
        return Ok(());
    }
    let Some(&GuideStep::Branch { line, taken }) = guide.get(st.guide_next) else {
        return Ok(());
    };
    let Some(f) = st.frame() else {
        return Ok(());
    };
    let Some(body) = prog.module().func(f.func).body.as_ref() else {
        return Ok(());
    };
    let b = &body.blocks[f.block.0 as usize];
    let Some(c) = symex_ir::source_branch::source_condition(&body.blocks, b) else {
        return Ok(());
    };
    if c.line != line {
        return Ok(());
    }
    st.guide_next += 1;
    if !c.labelled {
        st.guide_branches_off = true;
        return Ok(());
    }
    let want = st.dom.constant(1, u128::from(taken));
    let holds = st.dom.cmp(CmpOp::Eq, 1, cond, &want);
    if st.dom.assume(&holds) {
        Ok(())
    } else {
        Err(End::Halt(Halt::AssumptionViolated(st.location(prog))))
    }
}
