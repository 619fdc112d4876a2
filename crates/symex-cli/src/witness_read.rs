//! Reading violation witnesses another tool wrote (`symex validate`): SV-COMP's GraphML 1.0 automata and
//! YAML 2.0 `violation_sequence` entries. What a validator needs of either is the path it describes: the
//! return values it fixes for `__VERIFIER_nondet_*` calls (`\result == V`) and the ways the conditions it
//! names go (GraphML `control`, YAML `branching`), in path order with their lines, the line of the
//! violation, and the task metadata (specification, program hash, producer). Constraints on other
//! program variables are read past: the exploration covers the runs they would select among.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::Path;
use symex_engine::guide::{GuideStep, GuidedValue};

/// A violation witness, as far as `validate` follows it.
#[derive(Debug, Default)]
pub struct ViolationWitness {
    /// `GraphML 1.0` or `YAML 2.0`.
    pub format: &'static str,
    /// The path's steps, in order: the values the witness fixes (nondet results, and variables: older
    /// witnesses write `tmp == (1);` on the edge of `tmp = __VERIFIER_nondet_int();`) and the
    /// directions of the conditions it names.
    pub steps: Vec<WitnessStep>,
    /// The line of the violation, when the witness names it.
    pub target_line: Option<u32>,
    /// SV-COMP's specification text (`CHECK( init(main()), LTL(...) )`).
    pub specification: Option<String>,
    /// SHA-256 of the program the witness was written for.
    pub program_hash: Option<String>,
    pub producer: Option<String>,
}

/// One step of a witness's path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WitnessStep {
    Value(WitnessValue),
    /// The condition at `line` holds (`taken`) or not.
    Branch {
        line: u32,
        taken: bool,
    },
}

/// A value a witness fixes on an edge or waypoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessValue {
    pub line: Option<u32>,
    /// `None` for `\result`, else the variable the clause is about.
    pub variable: Option<String>,
    pub value: i128,
}

impl ViolationWitness {
    /// The guide of the path: the nondet results the witness fixes and its branch directions, in
    /// order. A variable's value counts when the program's line assigns a `__VERIFIER_nondet_*` result
    /// to that variable (`x = __VERIFIER_nondet_int()`, `int x = …`); other variable constraints are
    /// left to the exploration. A direction counts when `condition_lines` (the lines of the program's
    /// conditions) has its line: one at a line without a condition could never be met, and would hold
    /// back every step after it.
    pub fn guided(&self, source: &str, condition_lines: &HashSet<u32>) -> Vec<GuideStep> {
        let lines: Vec<&str> = source.lines().collect();
        self.steps
            .iter()
            .filter_map(|step| match step {
                WitnessStep::Value(v) => {
                    let counts = match (&v.variable, v.line) {
                        (None, _) => true,
                        (Some(var), Some(l)) => lines
                            .get(l as usize - 1)
                            .is_some_and(|text| assigns_nondet(text, var)),
                        (Some(_), None) => false,
                    };
                    counts.then_some(GuideStep::Value(GuidedValue {
                        line: v.line,
                        value: v.value,
                    }))
                }
                &WitnessStep::Branch { line, taken } => condition_lines
                    .contains(&line)
                    .then_some(GuideStep::Branch { line, taken }),
            })
            .collect()
    }
}

/// Whether `line` assigns the result of a `__VERIFIER_nondet_*` call to `var`.
fn assigns_nondet(line: &str, var: &str) -> bool {
    line.match_indices(var).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            return false;
        }
        let rest = line[i + var.len()..].trim_start();
        rest.strip_prefix('=')
            .filter(|r| !r.starts_with('='))
            .is_some_and(|r| r.trim_start().starts_with("__VERIFIER_nondet_"))
    })
}

/// Reads the witness in `file` (GraphML when it starts with `<`, YAML otherwise).
pub fn read(file: &Path) -> Result<ViolationWitness, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("{}: cannot read the witness: {e}", file.display()))?;
    let r = if text.trim_start().starts_with('<') {
        graphml(&text)
    } else {
        yaml(&text)
    };
    r.map_err(|e| format!("{}: {e}", file.display()))
}

/// The value `v` of a clause `\result == v` (decimal or hex, a sign, integer suffixes, casts and
/// parentheses allowed); `None` for any other clause.
pub fn result_value(clause: &str) -> Option<i128> {
    match clause_value(clause)? {
        (None, v) => Some(v),
        _ => None,
    }
}

/// `(None, v)` for `\result == v`, `(Some(x), v)` for `x == v` with `x` an identifier.
fn clause_value(clause: &str) -> Option<(Option<String>, i128)> {
    let c = clause.trim().trim_end_matches(';').trim();
    let c = strip_parens(c);
    let (lhs, rhs) = c.split_once("==")?;
    let (lhs, rhs) = (strip_parens(lhs.trim()), strip_parens(rhs.trim()));
    let is_name = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let (name, value) = if lhs == "\\result" || is_name(lhs) {
        (lhs, rhs)
    } else if rhs == "\\result" || is_name(rhs) {
        (rhs, lhs)
    } else {
        return None;
    };
    let variable = (name != "\\result").then(|| name.to_string());
    Some((variable, integer(value)?))
}

fn strip_parens(mut s: &str) -> &str {
    while s.starts_with('(') && s.ends_with(')') && balanced(&s[1..s.len() - 1]) {
        s = s[1..s.len() - 1].trim();
    }
    s
}

fn balanced(s: &str) -> bool {
    let mut depth = 0i32;
    for ch in s.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// A C integer literal with an optional sign, cast (`(int) 5`, `(unsigned char)255`) and suffix.
fn integer(s: &str) -> Option<i128> {
    let mut s = strip_parens(s.trim());
    // A leading cast: `(type) value`.
    if s.starts_with('(') {
        let close = s.find(')')?;
        let ty = &s[1..close];
        if ty
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '_')
        {
            s = strip_parens(s[close + 1..].trim());
        }
    }
    let (neg, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, strip_parens(rest.trim())),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let digits = digits.trim_end_matches(['u', 'U', 'l', 'L']);
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i128::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<i128>().ok()?,
    };
    Some(if neg { -magnitude } else { magnitude })
}

/// A GraphML 1.0 witness: the automaton's shortest path from the entry node to a violation node that
/// passes no sink node.
fn graphml(text: &str) -> Result<ViolationWitness, String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("not well-formed XML: {e}"))?;
    let root = doc.root_element();
    if root.tag_name().name() != "graphml" {
        return Err(format!(
            "the root element is <{}>, not <graphml>",
            root.tag_name().name()
        ));
    }
    // Keys are referred to by id; tools choose ids freely, the attribute names are the standard's.
    let mut key_name: HashMap<&str, &str> = HashMap::new();
    for k in root.children().filter(|n| n.has_tag_name("key")) {
        if let (Some(id), Some(name)) = (k.attribute("id"), k.attribute("attr.name")) {
            key_name.insert(id, name);
        }
    }
    // Each datum under its key's attribute name and under the key's id: witnesses of older
    // tools name the standard's keys by id (`id="violation" attr.name="isViolationNode"`).
    let data = |n: roxmltree::Node<'_, '_>| -> HashMap<String, String> {
        let mut d = HashMap::new();
        for c in n.children().filter(|c| c.has_tag_name("data")) {
            let Some(key) = c.attribute("key") else {
                continue;
            };
            let text = c.text().unwrap_or("").trim().to_string();
            if let Some(name) = key_name.get(key) {
                d.insert(name.to_string(), text.clone());
            }
            d.insert(key.to_string(), text);
        }
        d
    };
    let graph = root
        .children()
        .find(|n| n.has_tag_name("graph"))
        .ok_or("no <graph> element")?;
    let meta = data(graph);
    match meta.get("witness-type").map(String::as_str) {
        Some("violation_witness") | None => {}
        Some(other) => return Err(format!("a {other}; validate reads violation witnesses")),
    }
    let mut entry = None;
    let mut violations = HashSet::new();
    let mut sinks = HashSet::new();
    let mut first = None;
    for n in graph.children().filter(|n| n.has_tag_name("node")) {
        let id = n
            .attribute("id")
            .ok_or("a <node> without an id")?
            .to_string();
        first.get_or_insert_with(|| id.clone());
        let d = data(n);
        let yes = |k: &str| d.get(k).is_some_and(|v| v == "true");
        if yes("entry") {
            entry = Some(id.clone());
        }
        if yes("violation") {
            violations.insert(id.clone());
        }
        if yes("sink") {
            sinks.insert(id);
        }
    }
    let entry = entry.or(first).ok_or("the automaton has no nodes")?;
    if violations.is_empty() {
        return Err("no node is marked as the violation".into());
    }
    // Edges in document order, so the search prefers the path the writer listed first.
    let mut out: Edges = HashMap::new();
    for e in graph.children().filter(|n| n.has_tag_name("edge")) {
        let (Some(s), Some(t)) = (e.attribute("source"), e.attribute("target")) else {
            return Err("an <edge> without source or target".into());
        };
        out.entry(s.to_string())
            .or_default()
            .push((t.to_string(), data(e)));
    }
    let path = shortest_path(&entry, &violations, &sinks, &out)
        .ok_or("no path from the entry node reaches a violation node")?;
    let mut w = ViolationWitness {
        format: "GraphML 1.0",
        specification: meta.get("specification").cloned(),
        program_hash: meta.get("programhash").cloned(),
        producer: meta.get("producer").cloned(),
        ..ViolationWitness::default()
    };
    for d in &path {
        let line = d.get("startline").and_then(|l| l.parse().ok());
        let control = d.get("control").map(String::as_str);
        if let (Some(line), Some("condition-true" | "condition-false")) = (line, control) {
            w.steps.push(WitnessStep::Branch {
                line,
                taken: control == Some("condition-true"),
            });
        }
        if let Some(a) = d.get("assumption") {
            for clause in a.split(';') {
                if let Some((variable, value)) = clause_value(clause) {
                    w.steps.push(WitnessStep::Value(WitnessValue {
                        line,
                        variable,
                        value,
                    }));
                }
            }
        }
        if line.is_some() {
            w.target_line = line;
        }
    }
    Ok(w)
}

/// An edge's data, by key name.
type EdgeData = HashMap<String, String>;
/// The automaton's edges by source node, in document order: (target, data).
type Edges = HashMap<String, Vec<(String, EdgeData)>>;

/// Breadth-first from `entry` to any of `goals`, never through a sink; the data of the edges taken.
fn shortest_path(
    entry: &str,
    goals: &HashSet<String>,
    sinks: &HashSet<String>,
    out: &Edges,
) -> Option<Vec<EdgeData>> {
    let mut came: HashMap<String, (String, usize)> = HashMap::new();
    let mut queue = VecDeque::from([entry.to_string()]);
    let mut seen = HashSet::from([entry.to_string()]);
    while let Some(n) = queue.pop_front() {
        if goals.contains(&n) {
            let mut edges = Vec::new();
            let mut at = n;
            while let Some((from, i)) = came.get(&at) {
                edges.push(out[from][*i].1.clone());
                at = from.clone();
            }
            edges.reverse();
            return Some(edges);
        }
        for (i, (t, _)) in out.get(&n).into_iter().flatten().enumerate() {
            if !sinks.contains(t) && seen.insert(t.clone()) {
                came.insert(t.clone(), (n.clone(), i));
                queue.push_back(t.clone());
            }
        }
    }
    None
}

/// A YAML 2.0 witness: the first `violation_sequence` entry; in each segment the `follow` waypoint
/// counts (`avoid` waypoints exclude runs the exploration may still cover).
fn yaml(text: &str) -> Result<ViolationWitness, String> {
    use serde_yaml::Value;
    let doc: Value = serde_yaml::from_str(text).map_err(|e| match e.location() {
        Some(l) => format!("{}:{}: not YAML: {e}", l.line(), l.column()),
        None => format!("not YAML: {e}"),
    })?;
    let entries = doc
        .as_sequence()
        .ok_or("a YAML witness is a list of entries")?;
    let entry = entries
        .iter()
        .find(|e| e["entry_type"].as_str() == Some("violation_sequence"))
        .ok_or_else(|| {
            let types: Vec<&str> = entries
                .iter()
                .filter_map(|e| e["entry_type"].as_str())
                .collect();
            format!(
                "no violation_sequence entry (entries: {}); validate reads violation witnesses",
                types.join(", ")
            )
        })?;
    let meta = &entry["metadata"];
    let task = &meta["task"];
    let str_of = |v: &Value| -> Option<String> {
        match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    };
    let mut w = ViolationWitness {
        format: "YAML 2.0",
        specification: str_of(&task["specification"]),
        program_hash: task["input_file_hashes"]
            .as_mapping()
            .and_then(|m| m.values().next())
            .and_then(str_of),
        producer: str_of(&meta["producer"]["name"]).map(|n| {
            match str_of(&meta["producer"]["version"]) {
                Some(v) => format!("{n} {v}"),
                None => n,
            }
        }),
        ..ViolationWitness::default()
    };
    let segments = entry["content"]
        .as_sequence()
        .ok_or("the violation_sequence has no content list")?;
    for seg in segments {
        let waypoints = seg["segment"]
            .as_sequence()
            .ok_or("a content item without a segment list")?;
        for wp in waypoints.iter().map(|x| &x["waypoint"]) {
            if wp["action"].as_str() == Some("avoid") {
                continue;
            }
            let line = wp["location"]["line"].as_u64().map(|l| l as u32);
            match wp["type"].as_str() {
                Some("function_return") => {
                    if let Some(value) = wp["constraint"]["value"].as_str().and_then(result_value) {
                        w.steps.push(WitnessStep::Value(WitnessValue {
                            line,
                            variable: None,
                            value,
                        }));
                    }
                }
                Some("branching") => {
                    if let (Some(line), Some(taken)) =
                        (line, branch_value(&wp["constraint"]["value"]))
                    {
                        w.steps.push(WitnessStep::Branch { line, taken });
                    }
                }
                Some("target") => w.target_line = line,
                _ => {}
            }
        }
    }
    Ok(w)
}

/// The direction a `branching` waypoint's constraint names: `true`/`false` (as YAML booleans or
/// strings). Other values (a `switch` case's label) are not branch directions.
fn branch_value(v: &serde_yaml::Value) -> Option<bool> {
    match v {
        serde_yaml::Value::Bool(b) => Some(*b),
        serde_yaml::Value::String(s) => match s.trim() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_clauses_in_the_forms_tools_write() {
        assert_eq!(result_value("\\result == 5;"), Some(5));
        assert_eq!(result_value("  \\result == -17 "), Some(-17));
        assert_eq!(result_value("(\\result == (int) 3)"), Some(3));
        assert_eq!(result_value("\\result == 4294967295U"), Some(4294967295));
        assert_eq!(result_value("\\result == 0x1fL"), Some(31));
        assert_eq!(result_value("\\result == (-(2))"), Some(-2));
        assert_eq!(result_value("7 == \\result"), Some(7));
        assert_eq!(result_value("x == 5"), None);
        assert_eq!(result_value("\\result < 5"), None);
    }

    #[test]
    fn a_graphml_witness_is_followed_from_entry_to_violation_past_sinks() {
        let g = r#"<?xml version="1.0"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
 <key id="k1" for="edge" attr.name="assumption"/>
 <key id="k2" for="edge" attr.name="startline"/>
 <key id="k3" for="node" attr.name="entry"/>
 <key id="k4" for="node" attr.name="violation"/>
 <key id="k5" for="node" attr.name="sink"/>
 <key id="k6" for="graph" attr.name="specification"/>
 <graph edgedefault="directed">
  <data key="k6">CHECK( init(main()), LTL(G ! call(reach_error())) )</data>
  <node id="A"><data key="k3">true</data></node>
  <node id="B"/><node id="S"><data key="k5">true</data></node>
  <node id="V"><data key="k4">true</data></node>
  <edge source="A" target="S"><data key="k2">3</data><data key="k1">\result == 9;</data></edge>
  <edge source="A" target="B"><data key="k2">3</data><data key="k1">\result == 4; x == 2;</data></edge>
  <edge source="B" target="V"><data key="k2">7</data></edge>
 </graph>
</graphml>"#;
        let w = graphml(g).unwrap();
        let source = "int main(void) {\n  int x;\n  int y = __VERIFIER_nondet_int(); x = 2;\n";
        assert_eq!(
            w.guided(source, &HashSet::new()),
            vec![GuideStep::Value(GuidedValue {
                line: Some(3),
                value: 4
            })]
        );
        // `x == 2` is about a variable no nondet call is assigned to on line 3: left free.
        assert_eq!(
            w.steps
                .iter()
                .filter(|s| matches!(s, WitnessStep::Value(_)))
                .count(),
            2
        );
        assert_eq!(w.target_line, Some(7));
        assert!(w.specification.unwrap().contains("reach_error"));
    }

    #[test]
    fn a_yaml_violation_sequence_gives_its_follow_waypoints() {
        let y = r#"
- entry_type: violation_sequence
  metadata:
    format_version: "2.0"
    producer: {name: Tool, version: "1"}
    task:
      input_files: [p.c]
      input_file_hashes: {p.c: "ab12"}
      specification: "G ! call(reach_error())"
      data_model: LP64
      language: C
  content:
    - segment:
        - waypoint: {type: function_return, action: avoid, location: {file_name: p.c, line: 2}, constraint: {value: "\\result == 1"}}
        - waypoint: {type: function_return, action: follow, location: {file_name: p.c, line: 3}, constraint: {value: "\\result == 42", format: acsl_expression}}
    - segment:
        - waypoint: {type: target, action: follow, location: {file_name: p.c, line: 5}}
"#;
        let w = yaml(y).unwrap();
        assert_eq!(
            w.guided("", &HashSet::new()),
            vec![GuideStep::Value(GuidedValue {
                line: Some(3),
                value: 42
            })]
        );
        assert_eq!(w.target_line, Some(5));
        assert_eq!(w.program_hash.as_deref(), Some("ab12"));
        assert_eq!(w.producer.as_deref(), Some("Tool 1"));
    }

    #[test]
    fn a_variable_assigned_a_nondet_result_on_its_line_is_that_result() {
        let w = ViolationWitness {
            steps: vec![
                WitnessStep::Value(WitnessValue {
                    line: Some(2),
                    variable: Some("tmp".into()),
                    value: 1,
                }),
                WitnessStep::Value(WitnessValue {
                    line: Some(3),
                    variable: Some("tmp".into()),
                    value: 5,
                }),
            ],
            ..ViolationWitness::default()
        };
        let source = "x\n  tmp = __VERIFIER_nondet_int();\n  if (tmp == 1) mytmp = __VERIFIER_nondet_int();\n";
        assert_eq!(
            w.guided(source, &HashSet::new()),
            vec![GuideStep::Value(GuidedValue {
                line: Some(2),
                value: 1
            })]
        );
    }

    #[test]
    fn branch_directions_are_steps_in_path_order_where_the_program_has_a_condition() {
        let g = r#"<?xml version="1.0"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
 <key id="c" for="edge" attr.name="control"/>
 <key id="l" for="edge" attr.name="startline"/>
 <key id="a" for="edge" attr.name="assumption"/>
 <key id="e" for="node" attr.name="entry"/>
 <key id="v" for="node" attr.name="violation"/>
 <key id="s" for="node" attr.name="sink"/>
 <graph edgedefault="directed">
  <node id="A"><data key="e">true</data></node>
  <node id="B"/><node id="C"/><node id="D"/><node id="S"><data key="s">true</data></node>
  <node id="V"><data key="v">true</data></node>
  <edge source="A" target="B"><data key="l">4</data><data key="a">\result == 7;</data></edge>
  <edge source="B" target="S"><data key="l">5</data><data key="c">condition-false</data></edge>
  <edge source="B" target="C"><data key="l">5</data><data key="c">condition-true</data></edge>
  <edge source="C" target="D"><data key="l">6</data><data key="c">condition-false</data></edge>
  <edge source="D" target="V"><data key="l">9</data><data key="c">condition-true</data></edge>
 </graph>
</graphml>"#;
        let w = graphml(g).unwrap();
        let conditions = HashSet::from([5, 9]);
        assert_eq!(
            w.guided("", &conditions),
            vec![
                GuideStep::Value(GuidedValue {
                    line: Some(4),
                    value: 7
                }),
                GuideStep::Branch {
                    line: 5,
                    taken: true
                },
                GuideStep::Branch {
                    line: 9,
                    taken: true
                },
            ]
        );
        let y = r#"
- entry_type: violation_sequence
  metadata: {task: {specification: "G ! call(reach_error())"}}
  content:
    - segment:
        - waypoint: {type: branching, action: avoid, location: {file_name: p.c, line: 5, column: 3}, constraint: {value: "false"}}
        - waypoint: {type: branching, action: follow, location: {file_name: p.c, line: 5, column: 3}, constraint: {value: "true"}}
    - segment:
        - waypoint: {type: branching, action: follow, location: {file_name: p.c, line: 9, column: 3}, constraint: {value: false}}
    - segment:
        - waypoint: {type: target, action: follow, location: {file_name: p.c, line: 10}}
"#;
        let w = yaml(y).unwrap();
        assert_eq!(
            w.steps,
            vec![
                WitnessStep::Branch {
                    line: 5,
                    taken: true
                },
                WitnessStep::Branch {
                    line: 9,
                    taken: false
                },
            ]
        );
    }

    #[test]
    fn correctness_witnesses_are_refused_by_name() {
        let y = "- entry_type: invariant_set\n  content: []\n";
        assert!(yaml(y).unwrap_err().contains("invariant_set"));
    }
}
