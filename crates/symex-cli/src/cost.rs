//! `symex cost FILE`: a runtime bound of a C program (`symex-cost`): `WORST_CASE(?, O(n^k))`
//! or `MAYBE` first, then the bound over the program's inputs, in IR instructions as
//! `symex replay --simplify` counts them; every bound is checked by concrete runs.

use crate::frontend::FrontendArgs;
use clap::Args;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use symex_cost::measure::{self, Measurement};
use symex_cost::{analyse, program, Input, Options, Report, SizeMode};
use symex_its::print;
use symex_its::termcomp::WorstCase;
use symex_term::rules::Semantics;

#[derive(Args, Debug)]
pub struct CostArgs {
    /// The program: .c, .i, .ll or .bc.
    pub file: PathBuf,
    #[command(flatten)]
    pub frontend: FrontendArgs,
    /// The function to analyse, its parameters the inputs (default: `main`, else the only
    /// function nothing calls).
    #[arg(long)]
    pub entry: Option<String>,
    /// A time budget in seconds; when it runs out the answer is MAYBE.
    #[arg(long, value_name = "DURATION", value_parser = crate::limits::parse_duration)]
    pub max_time: Option<std::time::Duration>,
    /// Z3's deterministic resource limit per solver call (its `rlimit` steps): a call that
    /// spends it answers unknown, the same way on an idle and on a loaded machine.
    #[arg(long, value_name = "N", env = "SYMEX_SOLVER_RLIMIT",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub solver_rlimit: Option<u32>,
    /// Signed overflow wraps around instead of being undefined behaviour (the paper's setting).
    #[arg(long)]
    pub signed_wrap: bool,
    /// Concrete runs that check the bound (0: none).
    #[arg(long, default_value_t = 20)]
    pub check_runs: usize,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Print only the answer line and the bound.
    #[arg(long)]
    pub quiet: bool,
}

pub fn main(args: CostArgs) -> i32 {
    let started = Instant::now();
    let name = args.file.display().to_string();
    let mut promoted = args.frontend.clone();
    promoted.simplify = true;
    let loaded = match promoted.load(&args.file) {
        Ok(m) => m,
        Err(e) => return e.report(),
    };
    let (module, _) = program::inputs_as_nondet(&loaded);
    let entry = match program::entry(&module, args.entry.as_deref()) {
        Ok(e) => e,
        Err(e) => return crate::replay::fail(&format!("{name}: {e}")),
    };
    let nparams = module
        .function_by_name(&entry)
        .map_or(0, |f| module.func(f).params.len());
    let param_names = std::fs::read_to_string(&args.file)
        .ok()
        .and_then(|src| program::parameter_names(&src, &entry, nparams));
    let budget = args
        .max_time
        .map_or(Duration::from_secs(3600), crate::limits::left);
    let opts = Options {
        sem: Semantics {
            signed_wrap: args.signed_wrap,
            ..Semantics::default()
        },
        entry: entry.clone(),
        max_time: budget,
        param_names,
    };
    let mut report = analyse(&module, &opts);
    let measured = report.found.as_ref().map(|f| {
        measure::check_until(
            &module,
            &entry,
            f,
            args.signed_wrap,
            args.check_runs,
            crate::limits::process_deadline(),
        )
    });
    // A bound some run exceeds is wrong: it is withdrawn, never printed as a result.
    if let (Some(m), Some(f)) = (&measured, &report.found) {
        if let Some(v) = m.violations.first() {
            report.reason = Some(format!(
                "bound withdrawn: the run with {} executed {} instructions, the bound {} allows {}",
                v.describe(f),
                v.instructions,
                f.expression(),
                v.bound.unwrap_or(0)
            ));
            report.found = None;
        }
    }
    if args.json {
        println!("{}", to_json(&name, &entry, &report, &measured, started));
    } else {
        print_plain(&args, &report, &measured);
    }
    if report.found.is_some() {
        0
    } else {
        3
    }
}

fn answer(r: &Report) -> String {
    match &r.found {
        // The competition's grammar: `O(n^1)`, and `?` for an exponential bound.
        Some(f) => WorstCase::upper_bound(&f.complexity.bound).to_string(),
        None => "MAYBE".into(),
    }
}

fn inputs_text(inputs: &[Input]) -> Vec<String> {
    inputs
        .iter()
        .map(|i| format!("{}: {}", i.name(), i.describe()))
        .collect()
}

fn print_plain(args: &CostArgs, r: &Report, measured: &Option<Measurement>) {
    println!("{}", answer(r));
    if let Some(f) = &r.found {
        println!("bound: {}", f.expression());
    }
    if args.quiet {
        return;
    }
    if let Some(reason) = &r.reason {
        println!("reason: {reason}");
    }
    if let Some(f) = &r.found {
        println!(
            "unit: IR instructions as `symex replay --simplify --json` counts them; |x| is the absolute start value of x"
        );
        println!("inputs:");
        for line in inputs_text(&f.inputs) {
            println!("  {line}");
        }
        if f.mode == SizeMode::Inputs {
            println!("(the type-range constants had to be inputs: no bound in the program's inputs alone)");
        }
    }
    if !r.undefined_behaviour.is_empty() {
        println!("undefined behaviour possible (runs end there; the bound counts them up to it):");
        for u in &r.undefined_behaviour {
            println!("  {u}");
        }
    }
    if let Some(seg) = &r.seg {
        print!("{}", symex_term::seg::describe(seg));
    }
    if let Some(w) = &r.whole {
        println!("Weighted ITS of the whole SEG (KoAT format, costs = instructions):");
        print!("{}", print::to_koat(&w.its));
    }
    if let Some(f) = &r.found {
        println!("Runtime bounds (after preprocessing):");
        for (i, (t, b)) in f
            .its
            .transitions
            .iter()
            .zip(&f.complexity.transition_bounds)
            .enumerate()
        {
            println!(
                "  t{i}: {}   runs at most {} times",
                print::rule(&f.its, t),
                b.display(&f.its.vars)
            );
        }
    }
    if let Some(f) = &r.found {
        for p in &f.complexity.proof {
            for s in &p.steps {
                let removed: Vec<String> = s.removed.iter().map(|i| format!("t{i}")).collect();
                println!(
                    "  ranking function {} removes {}",
                    s.function.display(&f.its),
                    removed.join(", ")
                );
            }
        }
    }
    if let Some(m) = measured {
        println!("{}", m.summary());
    }
}

fn to_json(
    name: &str,
    entry: &str,
    r: &Report,
    measured: &Option<Measurement>,
    started: Instant,
) -> Value {
    let found = r.found.as_ref();
    json!({
        "command": "cost",
        "file": name,
        "entry": entry,
        "answer": answer(r),
        "bound": found.map_or("MAYBE".to_string(), |f| f.class.clone()),
        "expression": found.map(|f| f.expression()),
        "inputs": found.map(|f| f.inputs.iter().map(|i| json!({"name": i.name(), "what": i.describe()})).collect::<Vec<_>>()),
        "size_variables_as_inputs": found.map(|f| f.mode == SizeMode::Inputs),
        "uses_size_variables": found.map(|f| f.uses_size_variables()),
        "bound_variables": found.map(|f| f.variables()),
        "reason": r.reason,
        "undefined_behaviour": r.undefined_behaviour,
        "its": r.whole.as_ref().map(|w| print::to_koat(&w.its)),
        "seg": r.seg.as_ref().map(|s| json!({"loop_heads": s.heads.len(), "chains": s.edges.len(), "exits": s.leaves.len(), "states": s.states})),
        "check": measured.as_ref().map(|m| json!({
            "runs": m.runs, "within": m.within, "violated": m.violations.len(),
            "capped": m.capped, "bugs": m.bugs, "max_ratio": m.max_ratio,
        })),
        "solver": {"queries": r.solver_queries},
        "time_s": started.elapsed().as_secs_f64(),
    })
}
