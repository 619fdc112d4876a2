//! SV-COMP task-definition files (`format_version` 2.0, 1.1 and 1.0): `symex check TASK.yml` checks every
//! verification property the task names (or the one `--property` selects) and prints one verdict per
//! property, with whether it agrees with the task's `expected_verdict`.
//!
//! Each property is checked by a `symex check` process of its own, on the same command line: `check`'s
//! portfolio ends its process with the first definite verdict (`portfolio.rs`), so one process decides one
//! property, and the verdict of a property is by construction the one `--property` gives.

use crate::check::{CheckArgs, DataModel};
use crate::property::Property;
use crate::run::fail;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Whether `check`'s input is a task-definition file rather than a program.
pub fn is_task_file(file: &Path) -> bool {
    matches!(
        file.extension().and_then(|e| e.to_str()),
        Some("yml" | "yaml")
    )
}

/// The task-definition format, as far as a verifier reads it (other keys are ignored).
#[derive(Deserialize)]
struct TaskFile {
    format_version: serde_yaml::Value,
    input_files: OneOrMany,
    #[serde(default)]
    properties: Vec<PropertyEntry>,
    options: Option<TaskOptions>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
struct PropertyEntry {
    property_file: String,
    expected_verdict: Option<bool>,
    subproperty: Option<String>,
}

#[derive(Deserialize)]
struct TaskOptions {
    language: Option<String>,
    data_model: Option<String>,
}

/// A task as `check` runs it.
pub struct Task {
    /// The one input file (relative paths resolved against the task file's folder).
    pub input: PathBuf,
    /// `options.data_model`; absent in format 1.0, where `--data-model` decides.
    pub data_model: Option<DataModel>,
    pub properties: Vec<TaskProperty>,
    /// Properties named but not verification properties (Test-Comp's coverage goals), with why.
    pub skipped: Vec<(String, String)>,
}

pub struct TaskProperty {
    pub file: String,
    pub property: Property,
    pub expected: Option<bool>,
    pub subproperty: Option<String>,
}

/// The 1-based line of the task file that holds `needle` (for messages).
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map_or(1, |i| i + 1)
}

/// Test-Comp's coverage specifications (`COVER(...)`) name test-generation goals, not properties with
/// a verdict; SV-COMP's task files list them beside the verification properties.
fn coverage_goal(name: &str, path: &Path) -> bool {
    let stem = Path::new(name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("");
    stem.starts_with("coverage-")
        || std::fs::read_to_string(path).is_ok_and(|t| t.contains("COVER("))
}

/// Reads and checks a task-definition file. Errors name the file and line.
pub fn load(path: &Path) -> Result<Task, String> {
    let where_ = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{where_}: cannot read the task: {e}"))?;
    let t: TaskFile = serde_yaml::from_str(&text).map_err(|e| match e.location() {
        Some(l) => format!(
            "{where_}:{}:{}: not an SV-COMP task definition: {e}",
            l.line(),
            l.column()
        ),
        None => format!("{where_}: not an SV-COMP task definition: {e}"),
    })?;
    let version = match &t.format_version {
        serde_yaml::Value::String(s) => s.clone(),
        serde_yaml::Value::Number(n) => n.to_string(),
        other => format!("{other:?}"),
    };
    if !matches!(version.as_str(), "2.0" | "1.1" | "1.0") {
        return Err(format!(
            "{where_}:{}: format_version {version} is not one symex reads (2.0, 1.1, 1.0)",
            line_of(&text, "format_version")
        ));
    }
    let dir = path.parent().unwrap_or(Path::new(""));
    let input = match t.input_files {
        OneOrMany::One(f) => f,
        OneOrMany::Many(v) if v.len() == 1 => v.into_iter().next().unwrap_or_default(),
        OneOrMany::Many(v) => {
            return Err(format!(
                "{where_}:{}: the task has {} input files; symex checks a program of one file",
                line_of(&text, "input_files"),
                v.len()
            ))
        }
    };
    let opts = t.options.unwrap_or(TaskOptions {
        language: None,
        data_model: None,
    });
    if let Some(lang) = opts.language.as_deref().filter(|l| *l != "C") {
        return Err(format!(
            "{where_}:{}: language {lang}: symex checks C programs",
            line_of(&text, "language")
        ));
    }
    let data_model = match opts.data_model.as_deref() {
        None => None,
        Some("ILP32") => Some(DataModel::Ilp32),
        Some("LP64") => Some(DataModel::Lp64),
        Some(other) => {
            return Err(format!(
                "{where_}:{}: data_model {other} is neither ILP32 nor LP64",
                line_of(&text, "data_model")
            ))
        }
    };
    let mut properties = Vec::new();
    let mut skipped = Vec::new();
    for e in t.properties {
        let prp = dir.join(&e.property_file);
        if e.expected_verdict.is_none() && coverage_goal(&e.property_file, &prp) {
            skipped.push((
                e.property_file,
                "a Test-Comp coverage goal, not a verification property".into(),
            ));
            continue;
        }
        let prp_name = prp.to_string_lossy();
        let property = Property::parse(&prp_name).map_err(|why| {
            // `Property::parse` names the file it read; say it once.
            let why = why.strip_prefix(&format!("{prp_name}: ")).unwrap_or(&why);
            format!(
                "{where_}:{}: property {}: {why}",
                line_of(&text, &e.property_file),
                e.property_file
            )
        })?;
        properties.push(TaskProperty {
            file: e.property_file,
            property,
            expected: e.expected_verdict,
            subproperty: e.subproperty,
        });
    }
    Ok(Task {
        input: dir.join(input),
        data_model,
        properties,
        skipped,
    })
}

/// The properties `args` asks for: all of the task's, or the one `--property` selects.
fn selected<'t>(task: &'t Task, args: &CheckArgs) -> Result<Vec<&'t TaskProperty>, String> {
    match args.property {
        None => Ok(task.properties.iter().collect()),
        Some(p) => {
            let one: Vec<_> = task.properties.iter().filter(|t| t.property == p).collect();
            if one.is_empty() {
                Err(format!(
                    "{}: the task names no property {}",
                    args.file.display(),
                    p.name()
                ))
            } else {
                Ok(one)
            }
        }
    }
}

/// `check` on a task file: one process per selected property, then the verdicts with the expected ones.
pub fn main(args: CheckArgs) -> i32 {
    let task = match load(&args.file) {
        Ok(t) => t,
        Err(e) => return fail(&e),
    };
    if let Some(i) = args.task_property {
        return check_one(args, &task, i);
    }
    let chosen = match selected(&task, &args) {
        Ok(c) => c,
        Err(e) => return fail(&e),
    };
    if args.witness.is_some() && chosen.len() > 1 {
        return fail(&format!(
            "{}: --witness writes the witness of one property; select it with --property",
            args.file.display()
        ));
    }
    let mut results = Vec::new();
    let mut error = false;
    for tp in &chosen {
        let i = task
            .properties
            .iter()
            .position(|p| std::ptr::eq(p, *tp))
            .unwrap_or(0);
        let mut r = match run_child(i) {
            Ok(r) => r,
            Err(why) => {
                error = true;
                json!({"property": tp.property.name(), "verdict": "error", "reasons": [why]})
            }
        };
        r["property_file"] = json!(tp.file);
        r["expected_verdict"] = json!(tp.expected);
        if let Some(s) = &tp.subproperty {
            r["expected_subproperty"] = json!(s);
        }
        r["agrees"] = agrees(&r, tp);
        results.push(r);
    }
    print(&args, &task, &results);
    if error {
        return 2;
    }
    status(&results)
}

/// Whether a verdict agrees with the expected one: `null` for UNKNOWN, an error or no expected verdict.
/// A memory-safety FALSE agrees only with the expected subproperty (SV-COMP's scoring).
fn agrees(r: &Value, tp: &TaskProperty) -> Value {
    let (Some(expected), Some(verdict)) = (tp.expected, r["verdict"].as_str()) else {
        return Value::Null;
    };
    match verdict {
        "true" => json!(expected),
        "false" => {
            let sub_ok = match (&tp.subproperty, r["subproperty"].as_str()) {
                (Some(want), Some(got)) => want == got,
                _ => true,
            };
            json!(!expected && sub_ok)
        }
        _ => Value::Null,
    }
}

/// Exit status: one property's as `--property` gives it; for several, 1 if one is FALSE, else 0 if all
/// are TRUE, else 3.
fn status(results: &[Value]) -> i32 {
    let verdicts: Vec<&str> = results
        .iter()
        .map(|r| r["verdict"].as_str().unwrap_or(""))
        .collect();
    if verdicts.contains(&"false") {
        1
    } else if !verdicts.is_empty() && verdicts.iter().all(|v| *v == "true") {
        0
    } else {
        3
    }
}

fn print(args: &CheckArgs, task: &Task, results: &[Value]) {
    if args.json {
        let skipped: Vec<Value> = task
            .skipped
            .iter()
            .map(|(f, why)| json!({"property_file": f, "reason": why}))
            .collect();
        let o = json!({
            "command": "check",
            "task": args.file.display().to_string(),
            "input_file": task.input.display().to_string(),
            "results": results,
            "skipped": skipped,
        });
        println!("{o}");
        return;
    }
    for (f, why) in &task.skipped {
        if !args.quiet {
            println!("skipped {f}: {why}");
        }
    }
    for r in results {
        let line = verdict_line(r);
        if !args.quiet {
            for key in ["message", "test", "witness", "witness_error"] {
                if let Some(v) = r[key].as_str() {
                    println!("  {key}: {v}");
                }
            }
            for why in r["reasons"].as_array().into_iter().flatten() {
                println!("  unknown because: {}", why.as_str().unwrap_or(""));
            }
        }
        let expected = match r["expected_verdict"].as_bool() {
            None => "no expected verdict".to_string(),
            Some(e) => {
                let sub = r["expected_subproperty"]
                    .as_str()
                    .map_or(String::new(), |s| format!("({s})"));
                let how = match r["agrees"].as_bool() {
                    Some(true) => "agrees",
                    Some(false) => "DISAGREES",
                    None => "undecided",
                };
                format!("expected {}{sub}: {how}", if e { "TRUE" } else { "FALSE" })
            }
        };
        println!(
            "{}: {line} ({expected})",
            r["property"].as_str().unwrap_or("?")
        );
    }
    // The last line is the verdict alone when one property was checked, as for a program.
    if let [r] = results {
        println!("{}", verdict_line(r));
    }
}

fn verdict_line(r: &Value) -> String {
    match (r["verdict"].as_str(), r["subproperty"].as_str()) {
        (Some("true"), _) => "TRUE".into(),
        (Some("false"), Some(sub)) => format!("FALSE({sub})"),
        (Some("false"), None) => "FALSE".into(),
        (Some("error"), _) => "ERROR".into(),
        _ => "UNKNOWN".into(),
    }
}

/// Runs this process's command line again with `--task-property I`: that process checks the task's
/// I-th property and prints its JSON object.
fn run_child(i: usize) -> Result<Value, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find symex itself: {e}"))?;
    let out = Command::new(exe)
        .args(std::env::args_os().skip(1))
        .arg("--task-property")
        .arg(i.to_string())
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run symex: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or("");
    serde_json::from_str(last).map_err(|_| match out.status.code() {
        Some(2) => "bad input (see the message above)".to_string(),
        code => format!("symex check ended with status {code:?} and no verdict"),
    })
}

/// The child's part: check property `i` of the task as `symex check --property P --data-model M --json`
/// on the task's input file.
fn check_one(mut args: CheckArgs, task: &Task, i: usize) -> i32 {
    let Some(tp) = task.properties.get(i) else {
        return fail(&format!("{}: no property {i}", args.file.display()));
    };
    args.file = task.input.clone();
    args.property = Some(tp.property);
    if let Some(dm) = task.data_model {
        args.data_model = dm;
    }
    args.json = true;
    args.task_property = None;
    // Each property's test goes to a folder of its own under `--out`.
    args.out = args.out.take().map(|d| d.join(tp.property.name()));
    crate::check::main(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every task file of the SV-COMP subset (`../shared/benchmarks/sv-comp/c`) is read, with an input
    /// file that exists and a recognised property or coverage goal for every entry.
    #[test]
    fn every_task_of_the_subset_is_accepted() {
        let root =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/benchmarks/sv-comp/c");
        let root = if root.is_dir() {
            root
        } else {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../../shared/benchmarks/sv-comp/c")
        };
        if !root.is_dir() {
            eprintln!("skipped: {} is absent", root.display());
            return;
        }
        let mut files = Vec::new();
        let mut dirs = vec![root];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if is_task_file(&p) {
                    files.push(p);
                }
            }
        }
        assert!(files.len() >= 100, "only {} task files", files.len());
        for f in &files {
            let t = load(f).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                t.input.is_file(),
                "{}: no {}",
                f.display(),
                t.input.display()
            );
            assert!(
                !t.properties.is_empty(),
                "{}: no verification property",
                f.display()
            );
        }
    }
}
