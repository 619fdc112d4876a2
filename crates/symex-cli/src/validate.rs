//! `symex validate --witness W FILE`: a violation witness of another verifier (or of symex), checked the
//! way SV-COMP's execution-based and symbolic validators check them. The witness's nondet values guide
//! a symbolic exploration of the program (`symex_engine::guide`): every nondet call the witness fixes
//! returns its value, every condition whose direction it names goes that way, every other input and
//! branch stays free. The witness is
//! - **confirmed** when a guided run violates the property, its test replays in symex's interpreter and,
//!   where clang can build the program, on the native sanitizer build;
//! - **rejected** when the guided exploration completes without a violation (no run the witness allows
//!   violates the property);
//! - **unknown** otherwise (budget, approximation, a native run that disagrees).
//!
//! Exit status: 1 confirmed (the program is FALSE), 0 rejected, 2 bad input, 3 unknown.

use crate::check::{explore_answer, prepare, CheckArgs, DataModel, Prepared};
use crate::portfolio::Answer;
use crate::property::{meaning, Meaning, Property};
use crate::run::{fail, ExploreArgs, Output, TestsMode};
use crate::witness_read::ViolationWitness;
use clap::Args;
use serde_json::json;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use symex_engine::guide::GuideStep;
use symex_engine::TestFile;

#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// The program (.c, .i), or the SV-COMP task-definition file (.yml) the witness is for.
    pub file: PathBuf,
    /// The violation witness: GraphML 1.0, or YAML 2.0 with a `violation_sequence` entry.
    #[arg(long, value_name = "FILE")]
    pub witness: PathBuf,
    /// The property the witness claims violated (default: the witness's specification).
    #[arg(long, value_parser = Property::parse)]
    pub property: Option<Property>,
    #[command(flatten)]
    pub explore: ExploreArgs,
    /// The data model of the program (a task file's `data_model` takes precedence).
    #[arg(long, value_enum, default_value = "LP64")]
    pub data_model: DataModel,
    /// Where the test of a confirmed violation goes (default: a fresh symex-out-N).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Do not replay the confirming test on a native sanitizer build.
    #[arg(long)]
    pub no_native: bool,
    /// Print one JSON object instead of the result lines.
    #[arg(long)]
    pub json: bool,
}

/// The outcome of a validation.
enum Validation {
    Confirmed {
        bug: symex_engine::Bug,
        sub: Option<&'static str>,
        test: Option<String>,
        native: String,
    },
    Rejected,
    Unknown(Vec<String>),
}

/// Runs the subcommand; returns the exit status.
pub fn main(args: ValidateArgs) -> i32 {
    let witness = match crate::witness_read::read(&args.witness) {
        Ok(w) => w,
        Err(e) => return fail(&e),
    };
    let (program, task_data_model, task_properties) = match program_of(&args.file) {
        Ok(x) => x,
        Err(e) => return fail(&e),
    };
    let property = args
        .property
        .or_else(|| {
            witness
                .specification
                .as_deref()
                .and_then(Property::from_specification)
        })
        .or_else(|| (task_properties.len() == 1).then(|| task_properties[0]));
    let Some(p) = property else {
        return fail(&format!(
            "{}: the witness names no property symex knows; give --property",
            args.witness.display()
        ));
    };
    if p == Property::Termination {
        return fail("validate follows violation witnesses of unreach-call, valid-memsafety, valid-memcleanup, no-overflow and def-behavior (termination witnesses are lassos, not paths)");
    }
    let mut notes = Vec::new();
    if let Some(h) = &witness.program_hash {
        match crate::witness::program_hash(&program) {
            // Older witnesses carry a SHA-1, which is not compared.
            Ok(_) if h.len() != 64 => {}
            Ok(mine) if !mine.eq_ignore_ascii_case(h) => notes.push(format!(
                "the witness's program hash {h} is not the program's ({mine})"
            )),
            Ok(_) => {}
            Err(e) => return fail(&e),
        }
    }
    let mut check = CheckArgs {
        file: program,
        property: Some(p),
        explore: args.explore,
        data_model: task_data_model.unwrap_or(args.data_model),
        out: args.out,
        json: false,
        quiet: true,
        no_bmc: true,
        task_property: None,
        witness: None,
    };
    let Prepared {
        mut prog,
        checks,
        dir,
        ..
    } = match prepare(&mut check, p) {
        Ok(prepared) => prepared,
        Err(status) => return status,
    };
    let source = std::fs::read_to_string(&check.file).unwrap_or_default();
    let guided = witness.guided(&source, &condition_lines(&prog));
    let values = guided
        .iter()
        .filter(|s| matches!(s, GuideStep::Value(_)))
        .count();
    let fixed = (values, guided.len() - values);
    let read = Read {
        file: &args.witness,
        witness: &witness,
        fixed,
        notes: &notes,
    };
    prog.guide = Some(Rc::from(guided));
    // The witness's values in order on one concrete run first, as SV-COMP's execution-based validators
    // run them: a run thousands of millions of instructions deep is over in seconds natively, where the
    // guided exploration would re-explore it symbolically.
    if let Some(v) = executed(&check, p, &prog, checks, &dir, args.no_native) {
        return report(&check, &read, p, &v, args.json);
    }
    let out = Output {
        dir: Some(&dir),
        tests: TestsMode::Errors,
        ktest: false,
        program: check.file.display().to_string(),
        progress: false,
        validate: true,
        klee_halting: false,
        emit_all_errors: false,
        program_output: false,
        signatures: false,
        campaign: None,
    };
    let validation = match explore_answer(&prog, &check, p, checks, &out) {
        Ok(Answer::False { bug, sub, test, .. }) => {
            confirm(&check, p, bug, sub, test, args.no_native)
        }
        Ok(Answer::True(_)) => Validation::Rejected,
        Ok(Answer::Unknown(why)) => Validation::Unknown(why),
        Err(why) => return fail(&why),
    };
    report(&check, &read, p, &validation, args.json)
}

/// The witness's nondet values fed in order to one run of the program with `argc = 1`: symex's
/// interpreter, held to the witness by `prog`'s guide (its values and branch directions), for up to
/// [`symex_bmc::confirm::INTERPRETED_STEPS`] instructions, and a longer run on the native sanitizer
/// build, as `bmc` confirms its long counterexamples (`symex_bmc::confirm`; the directions are then
/// followed for those first instructions only, and a symex witness names at most 10,000 of them).
/// `None` when that run does not violate the property, leaves the witness, or cannot run natively:
/// the guided exploration decides.
fn executed(
    check: &CheckArgs,
    p: Property,
    prog: &symex_engine::Program,
    checks: symex_engine::Checks,
    dir: &Path,
    no_native: bool,
) -> Option<Validation> {
    let inputs: Vec<symex_engine::TestInput> = prog
        .guide
        .as_deref()?
        .iter()
        .filter_map(|s| match s {
            GuideStep::Value(v) => Some(symex_engine::TestInput {
                name: "__VERIFIER_nondet".into(),
                bytes: (v.value as i64).to_le_bytes().to_vec(),
            }),
            GuideStep::Branch { .. } => None,
        })
        .collect();
    let entry = check.explore.entry.clone();
    let mut test = TestFile {
        program: Some(check.file.display().to_string()),
        entry: Some(entry.clone()),
        inputs,
        outcome: None,
    };
    let opts = symex_bmc::Options {
        entry,
        checks: symex_engine::Checks {
            symbolic_argc: false,
            ..checks
        },
        ..symex_bmc::Options::default()
    };
    let violation = |kind| matches!(meaning(p, kind), Meaning::Violation(_));
    let (bug, native) = match symex_bmc::confirm::short_run(prog, &opts, &test) {
        Some(symex_engine::End::Bug(b)) if violation(b.kind) => (b, None),
        Some(_) => return None,
        None if no_native => return None,
        None => {
            let source =
                crate::frontend::native_source(&check.file, &check.explore.frontend.options());
            let leaks = matches!(p, Property::ValidMemsafety | Property::ValidMemcleanup);
            let run = source
                .run(
                    &test,
                    p == Property::UnreachCall,
                    p.checks_overflow(),
                    leaks,
                )
                .ok()?;
            let o = &run.outcome;
            let kind = symex_engine::BugKind::parse(&o.kind).filter(|&k| violation(k))?;
            let bug = symex_engine::Bug {
                kind,
                loc: symex_engine::SourceLoc {
                    file: o.file.clone().unwrap_or_default(),
                    line: o.line.unwrap_or(0),
                    function: o.function.clone().unwrap_or_default(),
                },
                message: o.message.clone().unwrap_or_default(),
                suffix: None,
            };
            let how = format!(
                "reproduced (native outcome: {}; the witness's run is longer than the interpreter's \
                 {} instructions, which followed it)",
                o.kind,
                symex_bmc::confirm::INTERPRETED_STEPS
            );
            (bug, Some(how))
        }
    };
    let sub = match meaning(p, bug.kind) {
        Meaning::Violation(sub) => sub,
        _ => None,
    };
    test.outcome = Some(symex_engine::outcome(&symex_engine::End::Bug(bug.clone())));
    let path = dir.join("witness-run.json");
    let written = std::fs::write(&path, test.to_json()).ok();
    let test = written.map(|_| path.display().to_string());
    Some(match native {
        Some(native) => Validation::Confirmed {
            bug,
            sub,
            test,
            native,
        },
        None => confirm(check, p, bug, sub, test, no_native),
    })
}

/// The lines of the program's conditional branches that decide a condition of the source.
fn condition_lines(prog: &symex_engine::Program) -> HashSet<u32> {
    prog.module()
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref())
        .flat_map(|body| {
            body.blocks
                .iter()
                .filter_map(|b| symex_ir::source_branch::source_condition(&body.blocks, b))
        })
        .map(|c| c.line)
        .collect()
}

/// The program, and the data model and properties a task file gives.
fn program_of(file: &Path) -> Result<(PathBuf, Option<DataModel>, Vec<Property>), String> {
    if !crate::task::is_task_file(file) {
        return Ok((file.to_path_buf(), None, Vec::new()));
    }
    let task = crate::task::load(file)?;
    let props = task.properties.iter().map(|t| t.property).collect();
    Ok((task.input, task.data_model, props))
}

/// A violation found under the witness's guidance, checked on the native build unless `no_native`.
fn confirm(
    check: &CheckArgs,
    p: Property,
    bug: symex_engine::Bug,
    sub: Option<&'static str>,
    test: Option<String>,
    no_native: bool,
) -> Validation {
    let native = match (&test, no_native) {
        (_, true) => "not run (--no-native)".to_string(),
        (None, false) => "not run (no test file)".to_string(),
        (Some(t), false) => match native_replay(check, p, Path::new(t)) {
            Ok(Some(agrees)) if !agrees.0 => {
                return Validation::Unknown(vec![format!(
                    "the guided violation's test does not reproduce natively: {}",
                    agrees.1
                )])
            }
            Ok(Some((_, what))) => format!("reproduced ({what})"),
            Ok(None) => "not run (the test records no outcome)".to_string(),
            Err(e) => format!("not run: {e}"),
        },
    };
    Validation::Confirmed {
        bug,
        sub,
        test,
        native,
    }
}

/// Whether the native sanitizer build, run on `test`, ends as symex's interpreter did, with its outcome.
fn native_replay(
    check: &CheckArgs,
    p: Property,
    test: &Path,
) -> Result<Option<(bool, String)>, String> {
    let t = TestFile::load(test)?;
    let Some(expected) = t.outcome.clone() else {
        return Ok(None);
    };
    let opts = check
        .explore
        .frontend
        .native_build_options(p.checks_overflow(), p != Property::UnreachCall);
    let build = symex_native::build(&check.file, &opts)?;
    let run = symex_native::run(
        &build,
        &t,
        &symex_native::RunOptions {
            check_leaks: matches!(p, Property::ValidMemsafety | Property::ValidMemcleanup),
            timeout: std::time::Duration::from_secs(60),
        },
    );
    Ok(Some((
        run.agrees_with(&expected),
        format!("native outcome: {}", run.outcome.kind),
    )))
}

/// The witness as read: its file, contents, how many nondet values and branch directions the guide
/// follows, and remarks on it.
struct Read<'a> {
    file: &'a Path,
    witness: &'a ViolationWitness,
    fixed: (usize, usize),
    notes: &'a [String],
}

fn report(check: &CheckArgs, read: &Read<'_>, p: Property, v: &Validation, json: bool) -> i32 {
    let Read {
        file: witness_file,
        witness: w,
        fixed,
        notes,
    } = *read;
    let (result, status) = match v {
        Validation::Confirmed { .. } => ("confirmed", 1),
        Validation::Rejected => ("rejected", 0),
        Validation::Unknown(_) => ("unknown", 3),
    };
    if json {
        let mut o = json!({
            "command": "validate",
            "file": check.file.display().to_string(),
            "witness": witness_file.display().to_string(),
            "format": w.format,
            "producer": w.producer,
            "property": p.name(),
            "values_followed": fixed.0,
            "branches_followed": fixed.1,
            "result": result,
            "notes": notes,
        });
        match v {
            Validation::Confirmed {
                bug,
                sub,
                test,
                native,
            } => {
                o["kind"] = json!(bug.kind.as_str());
                o["subproperty"] = json!(sub);
                o["file_line"] = json!(bug.loc.line);
                o["witness_line"] = json!(w.target_line);
                o["test"] = json!(test);
                o["native"] = json!(native);
            }
            Validation::Unknown(why) => o["reasons"] = json!(why),
            Validation::Rejected => {}
        }
        println!("{o}");
        return status;
    }
    println!(
        "witness: {} ({}{}), {} nondet value(s) and {} branch direction(s) followed",
        witness_file.display(),
        w.format,
        w.producer
            .as_deref()
            .map(|p| format!(", by {p}"))
            .unwrap_or_default(),
        fixed.0,
        fixed.1
    );
    for n in notes {
        println!("note: {n}");
    }
    match v {
        Validation::Confirmed {
            bug,
            sub,
            test,
            native,
        } => {
            println!("violation: {bug}");
            if let (Some(l), true) = (w.target_line, w.target_line != Some(bug.loc.line)) {
                println!("note: the witness names line {l} as the violation");
            }
            if let Some(t) = test {
                println!("test: {t}");
            }
            println!("native replay: {native}");
            let verdict = match sub {
                Some(s) => format!("FALSE({s})"),
                None => "FALSE".into(),
            };
            println!("confirmed: {verdict}");
        }
        Validation::Rejected => {
            println!("no run the witness allows violates {}", p.name());
            println!("rejected");
        }
        Validation::Unknown(why) => {
            for r in why {
                println!("unknown because: {r}");
            }
            println!("unknown");
        }
    }
    status
}
