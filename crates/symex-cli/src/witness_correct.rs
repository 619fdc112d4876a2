//! Correctness witnesses for a TRUE verdict (`check --witness FILE`): SV-COMP's YAML 2.0 `invariant_set`
//! with the loop invariants the proof used, or a GraphML 1.0 correctness witness. An invariant is placed
//! at its loop's keyword (`while`/`for`, 1-based column, as validators map a `loop_invariant` to the loop
//! head); a loop whose line has no single such keyword gets none (an invariant at the wrong place would
//! be rejected, or worse, read as a claim about another point).

use crate::check::DataModel;
use crate::property::Property;
use crate::witness::{
    creation_time, graphml_opening, program_hash, specification, uuid_of, yaml_map, yaml_metadata,
};
use std::fmt::Write as _;
use std::path::Path;
use symex_engine::LoopInvariant;

/// What a correctness witness says besides its invariants.
pub struct Proven<'a> {
    pub program: &'a Path,
    pub property: Property,
    pub data_model: DataModel,
}

/// The YAML 2.0 `invariant_set` of `invariants` for `task`, and the invariants left out (with why).
pub fn invariant_set(
    task: &Proven<'_>,
    invariants: &[LoopInvariant],
) -> Result<(String, Vec<String>), String> {
    use serde_yaml::Value;
    let text = std::fs::read_to_string(task.program)
        .map_err(|e| format!("{}: {e}", task.program.display()))?;
    let lines: Vec<&str> = text.lines().collect();
    let hash = program_hash(task.program)?;
    let file = task.program.display().to_string();
    let file_name = task
        .program
        .file_name()
        .map_or(file.clone(), |f| f.to_string_lossy().into_owned());
    let map = yaml_map;
    let mut content = Vec::new();
    let mut left_out = Vec::new();
    for inv in invariants {
        let line_text = (inv.line as usize)
            .checked_sub(1)
            .and_then(|i| lines.get(i));
        let Some(column) = line_text.and_then(|l| loop_keyword_column(l)) else {
            left_out.push(format!(
                "{}:{}: no single `while` or `for` on the loop's line for `{}`",
                inv.function, inv.line, inv.expression
            ));
            continue;
        };
        let location = map(vec![
            ("file_name", Value::from(file_name.as_str())),
            ("line", Value::from(inv.line)),
            ("column", Value::from(column)),
            ("function", Value::from(inv.function.as_str())),
        ]);
        content.push(map(vec![(
            "invariant",
            map(vec![
                ("type", Value::from("loop_invariant")),
                ("location", location),
                ("value", Value::from(inv.expression.as_str())),
                ("format", Value::from("c_expression")),
            ]),
        )]));
    }
    let spec = specification(task.property, None);
    let creation = creation_time();
    let mut seed = format!("{hash}{creation}");
    for i in invariants {
        let _ = write!(seed, "{}:{};", i.line, i.expression);
    }
    let metadata = yaml_metadata(
        &file,
        &hash,
        &spec,
        task.data_model,
        &creation,
        &uuid_of(&seed),
    );
    let entry = map(vec![
        ("entry_type", Value::from("invariant_set")),
        ("metadata", metadata),
        ("content", Value::Sequence(content)),
    ]);
    let yaml = serde_yaml::to_string(&Value::Sequence(vec![entry])).map_err(|e| e.to_string())?;
    Ok((yaml, left_out))
}

/// The 1-based column of the only `while` or `for` keyword on `line`, if there is exactly one.
fn loop_keyword_column(line: &str) -> Option<u32> {
    match crate::witness::keyword_columns(line, &["while", "for"]).as_slice() {
        [(c, _)] => Some(*c),
        _ => None,
    }
}

/// A GraphML 1.0 correctness witness: the program's entry, with no invariants (the trivial automaton
/// the format allows: the validator proves the program on its own).
pub fn graphml(task: &Proven<'_>) -> Result<String, String> {
    let mut g = graphml_opening(
        "correctness_witness",
        task.program,
        &specification(task.property, None),
        task.data_model,
        &[],
    )?;
    g.push_str(" </graph>\n</graphml>\n");
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::loop_keyword_column;

    #[test]
    fn the_loop_keyword_is_found_only_when_it_is_the_only_one() {
        assert_eq!(loop_keyword_column("  while (i < n) {"), Some(3));
        assert_eq!(loop_keyword_column("for (i = 0; i < n; i++)"), Some(1));
        assert_eq!(
            loop_keyword_column("  int i = 0; while(i<n) i++;"),
            Some(14)
        );
        assert_eq!(loop_keyword_column("  x = for_each + whiles;"), None);
        assert_eq!(loop_keyword_column("  } while (x); while (y) {"), None);
        assert_eq!(loop_keyword_column("  i++;"), None);
    }
}
