//! Violation witnesses of `termination` (a NO of `symex term` behind `check --property termination
//! --witness FILE.graphml`): SV-COMP's GraphML stem and cycle. The stem fixes the values of the
//! `__VERIFIER_nondet_*` calls the non-terminating run reads (their lines come from replaying those inputs
//! on the engine, as a violation witness's do); it ends at the loop head the run returns to forever,
//! marked `cyclehead`, and the cycle re-enters that head (`enterLoopHead`) without constraining the
//! edges in between. `term`'s proof (a concrete lasso, or a closed recurrent set reached by the run) is
//! what makes every path of the cycle stay in the loop.

use crate::check::DataModel;
use crate::property::Property;
use crate::witness::{graphml_opening, nondet_calls, specification, stem_edges, STEM_KEYS};
use std::fmt::Write as _;
use std::path::Path;
use symex_engine::{Checks, Program};

/// The GraphML termination violation witness of `w` for `program`. `Err` when the witness's inputs do
/// not replay as far as the loop (none written rather than one that leads elsewhere), or for a YAML
/// file: YAML 2.0's `violation_sequence` has no form for a run that does not end.
pub fn graphml(
    prog: &Program,
    w: &symex_term::nonterm::Witness,
    entry: &str,
    program: &Path,
    data_model: DataModel,
) -> Result<String, String> {
    if w.head_line == 0 {
        return Err("the loop head of the non-terminating run has no source line".into());
    }
    let test = symex_term::validate::test_file(entry, &w.inputs);
    let (calls, _) = nondet_calls(prog, &test, entry, Checks::default(), w.inputs.len());
    if calls.len() != w.inputs.len() {
        return Err(format!(
            "the replay of the witness's inputs made {} of its {} nondet calls",
            calls.len(),
            w.inputs.len()
        ));
    }
    let mut g = graphml_opening(
        "violation_witness",
        program,
        &specification(Property::Termination, None),
        data_model,
        &[
            STEM_KEYS[0],
            STEM_KEYS[1],
            STEM_KEYS[2],
            STEM_KEYS[3],
            ("enterLoopHead", "edge", "boolean"),
            ("cyclehead", "node", "boolean"),
        ],
    )?;
    stem_edges(&mut g, &calls);
    let stem_end = calls.len();
    let (head, back) = (stem_end + 1, stem_end + 2);
    let _ = write!(
        g,
        "  <node id=\"N{head}\">\n   <data key=\"cyclehead\">true</data>\n  </node>\n  \
         <edge source=\"N{stem_end}\" target=\"N{head}\">\n   <data key=\"startline\">{line}</data>\n   \
         <data key=\"enterLoopHead\">true</data>\n  </edge>\n  <node id=\"N{back}\"/>\n  \
         <edge source=\"N{head}\" target=\"N{back}\"/>\n  <edge source=\"N{back}\" target=\"N{head}\">\n   \
         <data key=\"startline\">{line}</data>\n   <data key=\"enterLoopHead\">true</data>\n  </edge>\n",
        line = w.head_line
    );
    g.push_str(" </graph>\n</graphml>\n");
    Ok(g)
}

/// Writes the termination witness of `w` to `to` (GraphML only); its path, or why not.
pub fn write(
    prog: &Program,
    w: &symex_term::nonterm::Witness,
    entry: &str,
    program: &Path,
    data_model: DataModel,
    to: &Path,
) -> Result<String, String> {
    if crate::witness::is_yaml(to) {
        return Err(format!(
            "{}: a termination witness is a GraphML stem and cycle (YAML 2.0's violation_sequence \
             cannot describe a run that does not end); name the file .graphml",
            to.display()
        ));
    }
    let text = graphml(prog, w, entry, program, data_model)?;
    std::fs::write(to, text).map_err(|e| format!("{}: {e}", to.display()))?;
    Ok(to.display().to_string())
}
