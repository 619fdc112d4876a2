//! Runs every program of `examples/idf/` and compares the outcome with the `.expected` file
//! beside it (rustc's UI-test idea). Format, one item per line (`#` starts a comment):
//!
//! ```text
//! flags: --no-infer                      # optional: verifier switches
//! error: 3:7 unknown variable            # a syntax/type error at line:col (exit status 2)
//! Cell.setX: failed 16:11 precondition   # member fails at line:col, message contains the rest
//! warning: 8:14 is unsatisfiable         # a warning at line:col, message contains the rest
//! ```
//!
//! Every member not listed must verify, and every warning must be listed.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use symex_idf::diagnostics::line_col;
use symex_idf::verify::validity::Status;
use symex_idf::verify::Config;

#[derive(Default, Debug)]
struct Expected {
    config: Config,
    error: Option<(usize, usize, String)>,
    failures: BTreeMap<String, (usize, usize, String)>,
    warnings: Vec<(usize, usize, String)>,
}

fn parse_position(s: &str) -> ((usize, usize), String) {
    let (pos, msg) = s.trim().split_once(' ').unwrap_or((s.trim(), ""));
    let (l, c) = pos
        .split_once(':')
        .unwrap_or_else(|| panic!("bad position `{pos}`"));
    (
        (l.parse().expect("line"), c.parse().expect("column")),
        msg.trim().to_string(),
    )
}

fn parse_expected(path: &Path) -> Expected {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|_| panic!("missing {}", path.display()));
    let mut e = Expected::default();
    for line in text.lines() {
        let line = line.split(" #").next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(flags) = line.strip_prefix("flags:") {
            for flag in flags.split_whitespace() {
                match flag {
                    "--no-infer" => e.config.infer = false,
                    other => panic!("unknown flag {other} in {}", path.display()),
                }
            }
        } else if let Some(rest) = line.strip_prefix("warning:") {
            let ((l, c), msg) = parse_position(rest);
            e.warnings.push((l, c, msg));
        } else if let Some(rest) = line.strip_prefix("error:") {
            let ((l, c), msg) = parse_position(rest);
            e.error = Some((l, c, msg));
        } else if let Some((member, rest)) = line.split_once(": failed ") {
            let ((l, c), msg) = parse_position(rest);
            e.failures.insert(member.trim().to_string(), (l, c, msg));
        } else {
            panic!("cannot read `{line}` in {}", path.display());
        }
    }
    e
}

fn check(program: &Path) -> Result<(), String> {
    let src = std::fs::read_to_string(program).map_err(|e| e.to_string())?;
    let expected = parse_expected(&program.with_extension("expected"));
    let report = match symex_idf::verify_source(&src, expected.config.clone()) {
        Err(d) => {
            let (l, c) = line_col(&src, d.span.start);
            return match &expected.error {
                Some((el, ec, msg)) if (*el, *ec) == (l, c) && d.message.contains(msg.as_str()) => {
                    Ok(())
                }
                _ => Err(format!(
                    "front-end error {l}:{c} {} (expected {:?})",
                    d.message, expected.error
                )),
            };
        }
        Ok(r) => r,
    };
    if expected.error.is_some() {
        return Err(format!(
            "expected a front-end error {:?}, but the program was checked",
            expected.error
        ));
    }
    let mut problems = Vec::new();
    let warnings: Vec<(usize, usize, &str)> = report
        .warnings
        .iter()
        .map(|w| {
            let (l, c) = line_col(&src, w.span.start);
            (l, c, w.message.as_str())
        })
        .collect();
    for (l, c, msg) in &warnings {
        if !expected
            .warnings
            .iter()
            .any(|(el, ec, em)| (el, ec) == (l, c) && msg.contains(em.as_str()))
        {
            problems.push(format!("unexpected warning {l}:{c} {msg}"));
        }
    }
    for (el, ec, em) in &expected.warnings {
        if !warnings
            .iter()
            .any(|(l, c, msg)| (el, ec) == (l, c) && msg.contains(em.as_str()))
        {
            problems.push(format!("missing warning {el}:{ec} {em}"));
        }
    }
    for m in &report.members {
        match (&m.status, expected.failures.get(&m.name)) {
            (Status::Verified, None) => {}
            (Status::Verified, Some(f)) => {
                problems.push(format!("{} verified, expected failure {f:?}", m.name))
            }
            (Status::Failed(f), None) => {
                let (l, c) = line_col(&src, f.span.start);
                problems.push(format!(
                    "{} failed at {l}:{c}: {} {:?}",
                    m.name, f.message, f.notes
                ))
            }
            (Status::Failed(f), Some((el, ec, msg))) => {
                let (l, c) = line_col(&src, f.span.start);
                if (l, c) != (*el, *ec) || !f.message.contains(msg.as_str()) {
                    problems.push(format!(
                        "{} failed at {l}:{c}: {} — expected {el}:{ec} {msg}",
                        m.name, f.message
                    ));
                }
            }
        }
    }
    for name in expected.failures.keys() {
        if !report.members.iter().any(|m| &m.name == name) {
            problems.push(format!("no member {name}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n  "))
    }
}

#[test]
fn every_example_has_its_expected_outcome() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/idf");
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/idf exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "idf"))
        .collect();
    programs.sort();
    assert!(programs.len() >= 5, "examples missing");
    let failures: Vec<String> = programs
        .iter()
        .filter_map(|p| {
            check(p)
                .err()
                .map(|e| format!("{}:\n  {e}", p.file_name().unwrap().to_string_lossy()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} examples differ:\n{}",
        failures.len(),
        programs.len(),
        failures.join("\n")
    );
}
