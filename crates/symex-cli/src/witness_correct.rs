//! Correctness witnesses for a TRUE verdict (`check --witness FILE`): SV-COMP's YAML 2.0 `invariant_set`
//! with the loop invariants the proof used, or a GraphML 1.0 correctness witness. An invariant is placed
//! at its loop's keyword (`while`/`for`, 1-based column, as validators map a `loop_invariant` to the loop
//! head); a loop whose line has no single such keyword gets none (an invariant at the wrong place would
//! be rejected, or worse, read as a claim about another point).

use crate::check::DataModel;
use crate::property::Property;
use crate::witness::{creation_time, program_hash, specification, uuid_of, yaml_metadata};
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
    use serde_yaml::{Mapping, Value};
    let text = std::fs::read_to_string(task.program)
        .map_err(|e| format!("{}: {e}", task.program.display()))?;
    let lines: Vec<&str> = text.lines().collect();
    let hash = program_hash(task.program)?;
    let file = task.program.display().to_string();
    let file_name = task
        .program
        .file_name()
        .map_or(file.clone(), |f| f.to_string_lossy().into_owned());
    let map = |pairs: Vec<(&str, Value)>| -> Value {
        let mut m = Mapping::new();
        for (k, v) in pairs {
            m.insert(Value::from(k), v);
        }
        Value::Mapping(m)
    };
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
    let b = line.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut found = None;
    for kw in ["while", "for"] {
        for (i, _) in line.match_indices(kw) {
            let before = i.checked_sub(1).map(|j| b[j]);
            let after = b.get(i + kw.len()).copied();
            if before.is_some_and(ident) || after.is_some_and(ident) {
                continue;
            }
            if found.is_some() {
                return None;
            }
            found = Some(i as u32 + 1);
        }
    }
    found
}

/// A GraphML 1.0 correctness witness: the program's entry, with no invariants (the trivial automaton
/// the format allows: the validator proves the program on its own).
pub fn graphml(task: &Proven<'_>) -> Result<String, String> {
    let hash = program_hash(task.program)?;
    let arch = match task.data_model {
        DataModel::Ilp32 => "32bit",
        DataModel::Lp64 => "64bit",
    };
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let mut g = String::new();
    g.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    g.push_str("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n");
    let keys = [
        ("witness-type", "graph", "string"),
        ("sourcecodelang", "graph", "string"),
        ("producer", "graph", "string"),
        ("specification", "graph", "string"),
        ("programfile", "graph", "string"),
        ("programhash", "graph", "string"),
        ("architecture", "graph", "string"),
        ("creationtime", "graph", "string"),
        ("entry", "node", "boolean"),
    ];
    for (name, on, ty) in keys {
        let _ = writeln!(
            g,
            " <key attr.name=\"{name}\" attr.type=\"{ty}\" for=\"{on}\" id=\"{name}\"/>"
        );
    }
    g.push_str(" <graph edgedefault=\"directed\">\n");
    let graph_data = [
        ("witness-type", "correctness_witness".to_string()),
        ("sourcecodelang", "C".to_string()),
        ("producer", format!("symex {}", env!("CARGO_PKG_VERSION"))),
        ("specification", specification(task.property, None)),
        ("programfile", task.program.display().to_string()),
        ("programhash", hash),
        ("architecture", arch.to_string()),
        ("creationtime", creation_time()),
    ];
    for (k, v) in graph_data {
        let _ = writeln!(g, "  <data key=\"{k}\">{}</data>", esc(&v));
    }
    g.push_str("  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n  </node>\n");
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
