//! Violation witnesses in SV-COMP's GraphML 1.0 format (`check --witness FILE.graphml`): the path of a
//! FALSE verdict as an automaton from the entry to the violation whose edges carry the source line of
//! each `__VERIFIER_nondet_*` call and its return value (`assumption` `\result == V;` with
//! `assumption.resultfunction`). The path is the concrete replay of the violation's test, recorded by
//! stepping the reference interpreter, so each value is the one the call returned on the replayed run.

use crate::check::DataModel;
use crate::property::Property;
use std::fmt::Write as _;
use std::path::Path;
use symex_engine::concrete::Concrete;
use symex_engine::{Checks, End, Program, State, TestFile};
use symex_ir::{BlockId, Callee, Inst};

/// One `__VERIFIER_nondet_*` call of the replayed run.
pub(crate) struct NondetCall {
    pub line: u32,
    pub column: u32,
    pub function: String,
    pub scope: String,
    pub value: i128,
}

/// One step of the replayed run a violation witness records: a nondet call's result, or the way a
/// condition of the source went.
pub(crate) enum Waypoint {
    Call(NondetCall),
    Branch {
        line: u32,
        taken: bool,
        function: String,
    },
}

/// At most this many branch directions are written: a violation deep in a loop would otherwise give a
/// witness of millions of edges. Later branches are left out, which only loosens the witness (a validator
/// explores where it gives no direction).
const MAX_BRANCHES: usize = 10_000;

/// The nondet calls of a concrete run of `test`, in order, and how the run ended; the run stops after
/// `upto` calls (a run that never ends is replayed only as far as its inputs go).
pub(crate) fn nondet_calls(
    prog: &Program,
    test: &TestFile,
    entry: &str,
    checks: Checks,
    upto: usize,
) -> (Vec<NondetCall>, End) {
    let (steps, end) = replay_path(prog, test, entry, checks, upto, false);
    (only_calls(steps), end)
}

/// The nondet calls among `steps`, in order.
fn only_calls(steps: Vec<Waypoint>) -> Vec<NondetCall> {
    steps
        .into_iter()
        .filter_map(|s| match s {
            Waypoint::Call(c) => Some(c),
            Waypoint::Branch { .. } => None,
        })
        .collect()
}

/// The waypoints of a concrete run of `test`: its nondet calls and, with `branches`, the direction of each
/// condition of the source it evaluates (`symex_ir::source_branch`), in order, and how the run ended. The run
/// stops after `upto` calls.
pub(crate) fn replay_path(
    prog: &Program,
    test: &TestFile,
    entry: &str,
    checks: Checks,
    upto: usize,
    branches: bool,
) -> (Vec<Waypoint>, End) {
    let mut st = State::new(prog, Concrete::new(test.inputs.clone()), checks);
    st.set_stdin_size(symex_engine::stdin::stdin_size(&test.inputs));
    symex_engine::symargs::attach_from_inputs(&mut st, &test.inputs);
    let mut steps = Vec::new();
    let (mut calls, mut directions) = (0usize, 0usize);
    if let Err(e) = st.start(prog, entry) {
        return (steps, e);
    }
    let inputs = only_nondet_inputs(test);
    let mut since_last_call = 0u64;
    // A generous step bound: the run is the replay of a test that already ended in the violation.
    for _ in 0..50_000_000u64 {
        if calls >= upto {
            return (
                steps,
                End::Halt(symex_engine::Halt::Limit("call bound".into())),
            );
        }
        if inputs == Some(calls) && since_last_call >= AFTER_THE_LAST_INPUT {
            return (
                steps,
                End::Halt(symex_engine::Halt::Limit(INPUTS_CONSUMED.into())),
            );
        }
        since_last_call += 1;
        let pending = pending_nondet(&st, prog);
        let condition = if branches && directions < MAX_BRANCHES {
            pending_condition(&st, prog)
        } else {
            None
        };
        if let Err(e) = st.step(prog) {
            return (steps, e);
        }
        if let Some((depth, dst, (line, column), function, scope, width, signed)) = pending {
            if let Some(regs) = st.regs(depth - 1) {
                let raw = regs[dst as usize];
                calls += 1;
                since_last_call = 0;
                steps.push(Waypoint::Call(NondetCall {
                    line,
                    column,
                    function,
                    scope,
                    value: as_c_value(raw, width, signed),
                }));
            }
        }
        if let Some(c) = condition {
            let went = st.frames().get(c.depth - 1).map(|f| f.block);
            if went == Some(c.if_true) || went == Some(c.if_false) {
                directions += 1;
                steps.push(Waypoint::Branch {
                    line: c.line,
                    taken: went == Some(c.if_true),
                    function: c.function,
                });
            }
        }
    }
    (
        steps,
        End::Halt(symex_engine::Halt::Limit("step bound".into())),
    )
}

/// Steps a replay goes on after the test's last input before it stops (`INPUTS_CONSUMED`): what is left
/// of the run is fixed, and a counterexample of loop acceleration may need 2^27 iterations more, which
/// BMC confirmed on the native build.
const AFTER_THE_LAST_INPUT: u64 = 1 << 22;

/// How a replay ends that stopped after the test's last input ([`AFTER_THE_LAST_INPUT`]).
const INPUTS_CONSUMED: &str = "every input consumed";

/// The number of the test's inputs when all of them are `__VERIFIER_nondet_*` values (no stdin, files,
/// arguments or uninitialised memory, which the replay reads otherwise).
fn only_nondet_inputs(test: &TestFile) -> Option<usize> {
    test.inputs
        .iter()
        .all(|i| i.name.starts_with("__VERIFIER_nondet_"))
        .then_some(test.inputs.len())
}

/// A condition of the source about to be decided: frame depth, line, and the blocks its truth and its
/// falsity lead to.
struct PendingCondition {
    depth: usize,
    line: u32,
    function: String,
    if_true: BlockId,
    if_false: BlockId,
}

/// The conditional branch the next step takes, when clang's labels show it decides a condition of the
/// source as written (`symex_ir::source_branch`). A branch with its targets swapped is left out: a
/// left-out direction only loosens the witness.
fn pending_condition(st: &State<Concrete>, prog: &Program) -> Option<PendingCondition> {
    let f = st.frame()?;
    let body = prog.module().func(f.func).body.as_ref()?;
    let b = &body.blocks[f.block.0 as usize];
    if f.inst as usize != b.insts.len() {
        return None;
    }
    let c = symex_ir::source_branch::source_condition(&body.blocks, b)?;
    c.labelled.then(|| PendingCondition {
        depth: st.frames().len(),
        line: c.line,
        function: prog.module().func(f.func).name.to_string(),
        if_true: c.if_true,
        if_false: c.if_false,
    })
}

type Pending = (usize, u32, (u32, u32), String, String, u32, bool);

/// The nondet call the next step makes, if any: frame depth, result slot, line and column, callee, caller, result
/// width and signedness.
fn pending_nondet(st: &State<Concrete>, prog: &Program) -> Option<Pending> {
    let f = st.frame()?;
    let func = prog.module().func(f.func);
    let b = &func.body.as_ref()?.blocks[f.block.0 as usize];
    let Inst::Call(call) = b.insts.get(f.inst as usize)? else {
        return None;
    };
    let Callee::Direct(id) = call.callee else {
        return None;
    };
    let name = &prog.module().func(id).name;
    let ty = name.strip_prefix("__VERIFIER_nondet_")?;
    let dst = call.dst?;
    let width = prog.width(call.ret).unwrap_or(32);
    let signed = !(ty.starts_with('u') || ty == "bool" || ty == "pointer" || ty == "size_t");
    Some((
        st.frames().len(),
        dst.0,
        (b.locs[f.inst as usize].line, b.locs[f.inst as usize].col),
        name.clone(),
        func.name.clone(),
        width,
        signed,
    ))
}

/// The value of `width` bits as the C type reads it.
fn as_c_value(raw: u128, width: u32, signed: bool) -> i128 {
    let w = width.clamp(1, 64);
    let v = raw & ((1u128 << w) - 1);
    if signed && v >> (w - 1) == 1 {
        v as i128 - (1i128 << w)
    } else {
        v as i128
    }
}

/// Whether a witness written to `to` is YAML 2.0 (`.yml`/`.yaml`); GraphML 1.0 otherwise.
pub(crate) fn is_yaml(to: &Path) -> bool {
    matches!(
        to.extension().and_then(|e| e.to_str()),
        Some("yml" | "yaml")
    )
}

/// SV-COMP's specification text of a property (the `.prp` file's line).
pub(crate) fn specification(p: Property, sub: Option<&str>) -> String {
    let inner = match (p, sub) {
        (Property::UnreachCall, _) => "G ! call(reach_error())".to_string(),
        (Property::ValidMemsafety, Some(s)) => format!("G {s}"),
        (Property::ValidMemsafety, None) => "G valid-deref".to_string(),
        (Property::ValidMemcleanup, _) => "G valid-memcleanup".to_string(),
        (Property::NoOverflow, _) => "G ! overflow".to_string(),
        (Property::Termination, _) => "F end".to_string(),
        (Property::DefBehavior, _) => "G def-behavior".to_string(),
    };
    format!("CHECK( init(main()), LTL({inner}) )")
}

pub(crate) fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// SHA-256 of the program file, as SV-COMP's `programhash`.
pub fn program_hash(file: &Path) -> Result<String, String> {
    use sha2::{Digest, Sha256};
    let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// What a witness says besides the path.
pub struct Task<'a> {
    pub program: &'a Path,
    pub property: Property,
    pub subproperty: Option<&'a str>,
    pub data_model: DataModel,
    pub violation_line: u32,
    pub violation_function: &'a str,
    /// Whether the program was compiled as written (`-O0`, no passes), so that clang's block labels tell
    /// which way each condition of the source went; branch directions are written only then.
    pub source_branches: bool,
}

/// A GraphML 1.0 witness up to its entry node `N0`: the XML declaration, the keys (the graph data every
/// witness has, `entry`, then `extra_keys` as (name, for, type)), and the graph data of `program`.
pub(crate) fn graphml_opening(
    witness_type: &str,
    program: &Path,
    spec: &str,
    data_model: DataModel,
    extra_keys: &[(&str, &str, &str)],
) -> Result<String, String> {
    let hash = program_hash(program)?;
    let arch = match data_model {
        DataModel::Ilp32 => "32bit",
        DataModel::Lp64 => "64bit",
    };
    let graph_data = [
        ("witness-type", witness_type.to_string()),
        ("sourcecodelang", "C".to_string()),
        ("producer", format!("symex {}", env!("CARGO_PKG_VERSION"))),
        ("specification", spec.to_string()),
        ("programfile", program.display().to_string()),
        ("programhash", hash),
        ("architecture", arch.to_string()),
        ("creationtime", creation_time()),
    ];
    let mut g = String::new();
    g.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    g.push_str("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n");
    let keys = graph_data
        .iter()
        .map(|(k, _)| (*k, "graph", "string"))
        .chain([("entry", "node", "boolean")])
        .chain(extra_keys.iter().copied());
    for (name, on, ty) in keys {
        let _ = writeln!(
            g,
            " <key attr.name=\"{name}\" attr.type=\"{ty}\" for=\"{on}\" id=\"{name}\"/>"
        );
    }
    g.push_str(" <graph edgedefault=\"directed\">\n");
    for (k, v) in &graph_data {
        let _ = writeln!(g, "  <data key=\"{k}\">{}</data>", xml_escape(v));
    }
    g.push_str("  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n  </node>\n");
    Ok(g)
}

/// A serde_yaml mapping of `pairs`, in order.
pub(crate) fn yaml_map(pairs: Vec<(&str, serde_yaml::Value)>) -> serde_yaml::Value {
    let mut m = serde_yaml::Mapping::new();
    for (k, v) in pairs {
        m.insert(serde_yaml::Value::from(k), v);
    }
    serde_yaml::Value::Mapping(m)
}

/// The GraphML violation witness of the run of `test` on `prog`. `Err` when the replay does not end in
/// the violation (no witness is better than one that leads elsewhere).
pub fn graphml(
    prog: &Program,
    test: &TestFile,
    entry: &str,
    checks: Checks,
    task: &Task<'_>,
) -> Result<String, String> {
    let path = violation_path(prog, test, entry, checks, task.source_branches)?;
    let mut g = graphml_opening(
        "violation_witness",
        task.program,
        &specification(task.property, task.subproperty),
        task.data_model,
        &[
            ("violation", "node", "boolean"),
            STEM_KEYS[0],
            STEM_KEYS[1],
            STEM_KEYS[2],
            STEM_KEYS[3],
            CONTROL_KEY,
        ],
    )?;
    path_edges(&mut g, &path);
    let last = path.len();
    let _ = write!(
        g,
        "  <node id=\"N{v}\">\n   <data key=\"violation\">true</data>\n  </node>\n  <edge source=\"N{last}\" target=\"N{v}\">\n   <data key=\"startline\">{}</data>\n  </edge>\n",
        task.violation_line,
        v = last + 1
    );
    g.push_str(" </graph>\n</graphml>\n");
    Ok(g)
}

/// The key of a branch direction (`condition-true`/`condition-false`), as (name, for, type).
const CONTROL_KEY: (&str, &str, &str) = ("control", "edge", "string");

/// Nodes `N1..Nk` and the edges `N(i-1) -> Ni` of the `k` waypoints: a nondet call's line and return
/// value, or a condition's line and the way it went.
fn path_edges(g: &mut String, path: &[Waypoint]) {
    for (i, w) in path.iter().enumerate() {
        match w {
            Waypoint::Call(c) => stem_edge(g, i, c),
            Waypoint::Branch { line, taken, .. } => {
                let _ = writeln!(g, "  <node id=\"N{}\"/>", i + 1);
                let _ = write!(
                    g,
                    "  <edge source=\"N{i}\" target=\"N{}\">\n   <data key=\"startline\">{line}</data>\n   <data key=\"control\">condition-{taken}</data>\n  </edge>\n",
                    i + 1
                );
            }
        }
    }
}

/// The keys of the edges [`stem_edges`] writes, as (name, for, type).
pub(crate) const STEM_KEYS: [(&str, &str, &str); 4] = [
    ("startline", "edge", "int"),
    ("assumption", "edge", "string"),
    ("assumption.scope", "edge", "string"),
    ("assumption.resultfunction", "edge", "string"),
];

/// Nodes `N1..Nk` and the edges `N(i-1) -> Ni` of the `k` nondet calls, each with its line and its
/// return value as the assumption `\result == V;`.
pub(crate) fn stem_edges(g: &mut String, calls: &[NondetCall]) {
    for (i, c) in calls.iter().enumerate() {
        stem_edge(g, i, c);
    }
}

/// Node `N(i+1)` and the edge `Ni -> N(i+1)` of the nondet call `c`.
fn stem_edge(g: &mut String, i: usize, c: &NondetCall) {
    let _ = writeln!(g, "  <node id=\"N{}\"/>", i + 1);
    let _ = write!(
        g,
        "  <edge source=\"N{i}\" target=\"N{}\">\n   <data key=\"startline\">{}</data>\n   <data key=\"assumption\">\\result == {};</data>\n   <data key=\"assumption.scope\">{}</data>\n   <data key=\"assumption.resultfunction\">{}</data>\n  </edge>\n",
        i + 1,
        c.line,
        c.value,
        xml_escape(&c.scope),
        xml_escape(&c.function)
    );
}

/// The waypoints of the replay of the violation's test (branch directions with `branches`); `Err` when the
/// replay does not end in it (no witness is better than one that leads elsewhere).
fn violation_path(
    prog: &Program,
    test: &TestFile,
    entry: &str,
    checks: Checks,
    branches: bool,
) -> Result<Vec<Waypoint>, String> {
    let (path, end) = replay_path(prog, test, entry, checks, usize::MAX, branches);
    // A run that has asked for every input goes on as the test's confirmed run does: it is fixed.
    let fixed = matches!(&end, End::Halt(symex_engine::Halt::Limit(m)) if m == INPUTS_CONSUMED)
        && test.outcome.as_ref().is_some_and(|o| o.kind != "exit");
    if matches!(end, End::Bug(_)) || fixed {
        Ok(path)
    } else {
        Err(format!(
            "the replay of the violation's test ended otherwise: {end:?}"
        ))
    }
}

/// The YAML 2.0 violation witness (one `violation_sequence` entry) of the run of `test` on `prog`: one
/// segment per step of the run, in order — a nondet call's `function_return` with the ACSL constraint
/// `\result == V`, or (with the task's source branches) a condition's `branching` waypoint with the
/// direction it went — and a last segment with the `target` waypoint at the violation. A branching
/// waypoint is located at its statement's keyword, so a direction is written only where the line has
/// exactly one `if`/`while`/`for` and no other branching (`?`, `&&`, `||`, `switch`): elsewhere the
/// keyword's column would be a guess, and a left-out direction only loosens the witness. `Err` when
/// the replay does not end in the violation.
pub fn yaml(
    prog: &Program,
    test: &TestFile,
    entry: &str,
    checks: Checks,
    task: &Task<'_>,
) -> Result<String, String> {
    use serde_yaml::Value;
    let path = violation_path(prog, test, entry, checks, task.source_branches)?;
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
    let location = |line: u32, column: u32, function: &str| {
        let mut pairs = vec![
            ("file_name", Value::from(file_name.as_str())),
            ("line", Value::from(line)),
        ];
        if column > 0 {
            pairs.push(("column", Value::from(column)));
        }
        pairs.push(("function", Value::from(function)));
        map(pairs)
    };
    let waypoint = |w: &Waypoint| -> Option<Value> {
        Some(match w {
            Waypoint::Call(c) => map(vec![
                ("type", Value::from("function_return")),
                ("action", Value::from("follow")),
                ("location", location(c.line, c.column, &c.scope)),
                (
                    "constraint",
                    map(vec![
                        ("value", Value::from(format!("\\result == {}", c.value))),
                        ("format", Value::from("acsl_expression")),
                    ]),
                ),
            ]),
            Waypoint::Branch {
                line,
                taken,
                function,
            } => {
                let text = (*line as usize).checked_sub(1).and_then(|i| lines.get(i))?;
                let column = branching_keyword_column(text)?;
                map(vec![
                    ("type", Value::from("branching")),
                    ("action", Value::from("follow")),
                    ("location", location(*line, column, function)),
                    (
                        "constraint",
                        map(vec![("value", Value::from(taken.to_string()))]),
                    ),
                ])
            }
        })
    };
    let mut segments: Vec<Value> = path
        .iter()
        .filter_map(waypoint)
        .map(|w| {
            map(vec![(
                "segment",
                Value::Sequence(vec![map(vec![("waypoint", w)])]),
            )])
        })
        .collect();
    let calls = only_calls(path);
    let target = map(vec![
        ("type", Value::from("target")),
        ("action", Value::from("follow")),
        (
            "location",
            location(task.violation_line, 0, task.violation_function),
        ),
    ]);
    segments.push(map(vec![(
        "segment",
        Value::Sequence(vec![map(vec![("waypoint", target)])]),
    )]));
    let spec = specification(task.property, task.subproperty);
    let creation = creation_time();
    let metadata = yaml_metadata(
        &file,
        &hash,
        &spec,
        task.data_model,
        &creation,
        &uuid(&hash, &creation, &calls),
    );
    let entry = map(vec![
        ("entry_type", Value::from("violation_sequence")),
        ("metadata", metadata),
        ("content", Value::Sequence(segments)),
    ]);
    serde_yaml::to_string(&Value::Sequence(vec![entry])).map_err(|e| e.to_string())
}

/// The 1-based column of the only branching keyword (`if`, `while`, `for`) on `line`, when the line has
/// no other branching: no second keyword, no `switch`, `?`, `&&` or `||` (each of which would be a
/// branching of its own at the same line).
pub(crate) fn branching_keyword_column(line: &str) -> Option<u32> {
    let code = line.split("//").next().unwrap_or(line);
    if code.contains('?') || code.contains("&&") || code.contains("||") {
        return None;
    }
    match keyword_columns(code, &["if", "while", "for", "switch"]).as_slice() {
        [(c, kw)] if *kw != "switch" => Some(*c),
        _ => None,
    }
}

/// The 1-based columns of the whole-word occurrences of `keywords` on `line`, with the keyword.
pub(crate) fn keyword_columns<'k>(line: &str, keywords: &[&'k str]) -> Vec<(u32, &'k str)> {
    let b = line.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut found = Vec::new();
    for kw in keywords {
        for (i, _) in line.match_indices(kw) {
            let before = i.checked_sub(1).map(|j| b[j]);
            let after = b.get(i + kw.len()).copied();
            if !(before.is_some_and(ident) || after.is_some_and(ident)) {
                found.push((i as u32 + 1, *kw));
            }
        }
    }
    found
}

/// A YAML 2.0 entry's `metadata`: format version, identity, producer and the task (the program by path and
/// SHA-256, the `.prp` specification, the data model).
pub(crate) fn yaml_metadata(
    file: &str,
    hash: &str,
    spec: &str,
    data_model: DataModel,
    creation: &str,
    uuid: &str,
) -> serde_yaml::Value {
    use serde_yaml::{Mapping, Value};
    let map = yaml_map;
    let data_model = match data_model {
        DataModel::Ilp32 => "ILP32",
        DataModel::Lp64 => "LP64",
    };
    let mut hashes = Mapping::new();
    hashes.insert(Value::from(file), Value::from(hash));
    map(vec![
        ("format_version", Value::from("2.0")),
        ("uuid", Value::from(uuid)),
        ("creation_time", Value::from(creation)),
        (
            "producer",
            map(vec![
                ("name", Value::from("symex")),
                ("version", Value::from(env!("CARGO_PKG_VERSION"))),
            ]),
        ),
        (
            "task",
            map(vec![
                ("input_files", Value::Sequence(vec![Value::from(file)])),
                ("input_file_hashes", Value::Mapping(hashes)),
                ("specification", Value::from(spec)),
                ("data_model", Value::from(data_model)),
                ("language", Value::from("C")),
            ]),
        ),
    ])
}

/// A version-4-shaped UUID derived from the witness's content (no random source needed; two witnesses
/// differ in program, time or values).
fn uuid(hash: &str, time: &str, calls: &[NondetCall]) -> String {
    let mut seed = format!("{hash}{time}");
    for c in calls {
        let _ = write!(seed, "{}:{};", c.line, c.value);
    }
    uuid_of(&seed)
}

/// A version-4-shaped UUID derived from `seed` (the entry's content).
pub(crate) fn uuid_of(seed: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut b: Vec<u8> = Sha256::digest(seed.as_bytes())[..16].to_vec();
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let x: String = b.iter().map(|v| format!("{v:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &x[..8],
        &x[8..12],
        &x[12..16],
        &x[16..20],
        &x[20..]
    )
}

/// The current UTC time in ISO 8601 (`creationtime`).
pub(crate) fn creation_time() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}
