//! `symex its FILE`: termination (`YES`/`MAYBE`) or a runtime bound
//! (`WORST_CASE(?, O(n^k))`/`MAYBE`) of an integer transition system in the KoAT format.
use clap::{Args, ValueEnum};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};
use symex_its::complexity;
use symex_its::first_step::{self, FirstStep};
use symex_its::linear_lower_bound::{self, LinearFamily};
use symex_its::lower_bound::{self, Family, Unbounded};
use symex_its::nested_lower_bound::{self, NestedFamily};
use symex_its::nontermination::{self, Witness};
use symex_its::poly::Poly;
use symex_its::termcomp::{Lower, Upper, WorstCase};
use symex_its::termination::{self, Limits, SccProof, Termination};
use symex_its::trace;
use symex_its::{parse_koat, preprocess, print, Goal, Its};

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum GoalArg {
    Termination,
    Complexity,
}

#[derive(Args, Debug)]
pub struct ItsArgs {
    /// The `.koat` file.
    pub file: PathBuf,
    /// What to prove (default: the file's `GOAL`).
    #[arg(long, value_enum)]
    pub goal: Option<GoalArg>,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// A time budget in seconds; when it runs out the answer is MAYBE (reason: timeout).
    #[arg(long, alias = "timeout", value_name = "DURATION", value_parser = crate::limits::parse_duration)]
    pub max_time: Option<std::time::Duration>,
    /// Z3's deterministic resource limit per solver call (its `rlimit` steps): a call that
    /// spends it answers unknown, the same way on an idle and on a loaded machine.
    #[arg(long, value_name = "N", env = "SYMEX_SOLVER_RLIMIT",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub solver_rlimit: Option<u32>,
    /// Print the parsed ITS back in the KoAT format and stop.
    #[arg(long)]
    pub print_koat: bool,
    /// Print the location graph in DOT and stop.
    #[arg(long)]
    pub dot: bool,
    /// Print only the answer line.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs the subcommand; returns the exit status of `spec/cli.md`.
pub fn main(args: ItsArgs) -> i32 {
    // The budget includes reading and parsing (large files take a second).
    let started = Instant::now();
    let name = args.file.display().to_string();
    let src = match std::fs::read_to_string(&args.file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read {name}: {e}");
            return 2;
        }
    };
    let its = match trace::step("parse", || parse_koat(&src)) {
        Ok(its) => its,
        Err(e) => {
            eprintln!("error: {name}:{e}");
            if args.json {
                let error = json!({"message": e.message, "line": e.line, "column": e.column});
                println!(
                    "{}",
                    json!({"command": "its", "file": name, "error": error})
                );
            }
            return 2;
        }
    };
    if args.print_koat {
        print!("{}", print::to_koat(&its));
        return 0;
    }
    if args.dot {
        print!("{}", print::to_dot(&its));
        return 0;
    }
    let budget = args
        .max_time
        .map_or(Duration::from_secs(3600), crate::limits::left);
    let limits = Limits {
        query_timeout: budget.min(Duration::from_secs(20)),
        deadline: started + budget,
    };
    let goal = match args.goal {
        Some(GoalArg::Termination) => Goal::Termination,
        Some(GoalArg::Complexity) => Goal::Complexity,
        None => its.goal,
    };
    // Every solver query from here on ends by the deadline (`smt::set_deadline`); work
    // between queries that overruns it is cut by the watchdog.
    symex_its::smt::set_deadline(Some(limits.deadline));
    let stall_at = std::env::var(STALL_QUERIES)
        .ok()
        .and_then(|n| n.parse().ok());
    if let Some(n) = stall_at {
        symex_its::smt::stall_after(n, stall);
    }
    if args.max_time.is_some() || stall_at.is_some() {
        watchdog(&args, &name, goal, limits.deadline + WATCHDOG_GRACE);
    }
    if its.has_multi_targets() {
        return crate::its_recursion::answer(&args, &name, goal, &its, &limits, started);
    }
    let its = preprocess::preprocess(&its, limits.query_timeout);
    match goal {
        Goal::Termination => termination_answer(&args, &name, &its, &limits, started),
        Goal::Complexity => complexity_answer(&args, &name, &its, &limits, started),
    }
}

/// How long after the deadline the watchdog answers for a prover still at work.
const WATCHDOG_GRACE: Duration = Duration::from_secs(1);

/// Set by whoever prints the answer first: the prover's thread or the watchdog.
static ANSWERED: AtomicBool = AtomicBool::new(false);

/// Whether this thread may print the answer (the watchdog has not).
fn claim_answer() -> bool {
    !ANSWERED.swap(true, Ordering::SeqCst)
}

/// Returns when this thread may print the answer; else the watchdog is printing it and
/// ends the process.
pub(crate) fn wait_for_watchdog_unless_first() {
    while !claim_answer() {
        std::thread::park();
    }
}

/// Starts a thread that, at `at`, prints the best bound found so far ([`BEST`], exit 0), else
/// `MAYBE` with reason `timeout` (exit 3), and ends the process unless the answer was printed
/// by then: the solver queries end by the deadline, but a large ITS can keep the prover busy
/// between them, and the search for a lower degree may still be at work.
fn watchdog(args: &ItsArgs, name: &str, goal: Goal, at: Instant) {
    let (json, quiet, name) = (args.json, args.quiet, name.to_string());
    std::thread::spawn(move || {
        let (fired, wake) = &ALARM;
        let fired = fired.lock().unwrap_or_else(|e| e.into_inner());
        let wait = at.saturating_duration_since(Instant::now());
        drop(wake.wait_timeout_while(fired, wait, |f| !*f));
        if !claim_answer() {
            return;
        }
        let reason = TIMEOUT_REASON;
        let best = BEST.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let (Goal::Complexity, Some(found)) = (goal, best) {
            print_bound(json, quiet, &name, &found, Some(BEST_REASON));
            std::process::exit(0);
        }
        if json {
            let mut out = json!({"command": "its", "file": name, "reason": reason});
            match goal {
                Goal::Termination => {
                    out["goal"] = json!("termination");
                    out["answer"] = json!("MAYBE");
                }
                Goal::Complexity => {
                    out["goal"] = json!("complexity");
                    out["bound"] = json!("MAYBE");
                }
            }
            println!("{out}");
        } else {
            println!("MAYBE");
            if !quiet {
                println!("reason: {reason}");
            }
        }
        std::process::exit(3);
    });
}

/// Whether the deadline was reached before its time (set by [`stall`]), and the watchdog's
/// wake-up call.
static ALARM: (Mutex<bool>, Condvar) = (Mutex::new(false), Condvar::new());

/// What a prover thread does at the query count of `SYMEX_ITS_STALL_QUERIES`: it stops as if
/// busy between queries past its deadline, and the deadline is reached now.
fn stall() -> ! {
    let (fired, wake) = &ALARM;
    *fired.lock().unwrap_or_else(|e| e.into_inner()) = true;
    wake.notify_all();
    loop {
        std::thread::park();
    }
}

/// The environment variable that, for tests, puts the deadline at a count of the prover's
/// solver queries instead of a time ([`symex_its::smt::stall_after`]): where the search is
/// then does not depend on the machine's load.
const STALL_QUERIES: &str = "SYMEX_ITS_STALL_QUERIES";

/// The reason printed beside a bound the watchdog prints.
const BEST_REASON: &str =
    "timeout: the time limit (--max-time) was reached; the lowest degree found by then";

pub(crate) fn proof_json(its: &Its, proof: &[SccProof]) -> Value {
    let sccs: Vec<Value> = proof
        .iter()
        .map(|p| {
            let steps: Vec<Value> = p
                .steps
                .iter()
                .map(|s| {
                    let function = function_json(its, &s.function);
                    let phases = s.two_phase.as_ref().map(|tp| {
                        json!([tp.f1.display(&|v| its.vars[v].clone()),
                               tp.f2.display(&|v| its.vars[v].clone())])
                    });
                    let multiphase = s.multiphase.as_ref().map(|mp| {
                        mp.phases.iter().map(|f| function_json(its, f)).collect::<Vec<_>>()
                    });
                    let word_size = s.word_size.as_ref().map(|ws| {
                        json!({"variable": its.vars[ws.var], "width": ws.width,
                               "multipliers": ws.multipliers.iter().map(|(t, c)| json!({"transition": format!("t{t}"), "factor": c.to_string()})).collect::<Vec<_>>()})
                    });
                    let ratio = s.ratio.as_ref().map(|r| json!(r.display(its)));
                    let quadratic_guard = s.quadratic_guard.as_ref().map(|q| json!(q.display(its)));
                    json!({"function": function, "two_phase": phases, "multiphase": multiphase, "word_size": word_size, "ratio": ratio, "quadratic_guard": quadratic_guard, "clamped": s.clamped,
                           "non_increasing_on": s.remaining.iter().map(|i| format!("t{i}")).collect::<Vec<_>>(),
                           "removes": s.removed.iter().map(|i| format!("t{i}")).collect::<Vec<_>>()})
                })
                .collect();
            json!({"locations": p.locations.iter().map(|l| its.locations[*l].clone()).collect::<Vec<_>>(),
                   "ranking_functions": steps})
        })
        .collect();
    json!(sccs)
}

/// A ranking function for `--json`: its polynomial per location, by the locations' names.
fn function_json(its: &Its, f: &symex_its::ranking::RankingFunction) -> Value {
    let at: serde_json::Map<String, Value> =
        f.at.iter()
            .map(|(l, p)| {
                (
                    its.locations[*l].clone(),
                    json!(p.display(&|v| its.vars[v].clone())),
                )
            })
            .collect();
    Value::Object(at)
}

pub(crate) fn print_proof(its: &Its, proof: &[SccProof]) {
    println!("Transitions (after preprocessing):");
    for (i, t) in its.transitions.iter().enumerate() {
        println!("  t{i}: {}", print::rule(its, t));
    }
    for p in proof {
        let locs: Vec<&str> = p
            .locations
            .iter()
            .map(|l| its.locations[*l].as_str())
            .collect();
        println!("SCC {{{}}}:", locs.join(", "));
        for s in &p.steps {
            let removed: Vec<String> = s.removed.iter().map(|i| format!("t{i}")).collect();
            if let Some(ws) = &s.word_size {
                println!("  {} removes {}", ws.display(its), removed.join(", "));
                continue;
            }
            if let Some(r) = &s.ratio {
                println!("  {} removes {}", r.display(its), removed.join(", "));
                continue;
            }
            if let Some(q) = &s.quadratic_guard {
                println!("  {} removes {}", q.display(its), removed.join(", "));
                continue;
            }
            match (&s.multiphase, &s.two_phase) {
                (Some(mp), _) => println!(
                    "  {}-phase ranking function {} removes {}",
                    mp.phases.len(),
                    mp.display(its),
                    removed.join(", ")
                ),
                (None, Some(tp)) => println!(
                    "  two-phase ranking function ({}; {}) removes {}",
                    tp.f1.display(&|v| its.vars[v].clone()),
                    tp.f2.display(&|v| its.vars[v].clone()),
                    removed.join(", ")
                ),
                (None, None) if s.clamped => println!(
                    "  ranking function max({}, 0) removes {}",
                    s.function.display(its),
                    removed.join(", ")
                ),
                (None, None) => println!(
                    "  ranking function {} removes {}",
                    s.function.display(its),
                    removed.join(", ")
                ),
            }
        }
    }
}

fn witness_json(its: &Its, w: &Witness) -> Value {
    let start = named_values_json(&its.vars, &w.start);
    json!({"start": start,
           "path": w.path.iter().map(|i| format!("t{i}")).collect::<Vec<_>>(),
           "loop": format!("t{}", w.lp),
           "cycle": w.cycle.iter().map(|i| format!("t{i}")).collect::<Vec<_>>(),
           "recurrent_set": w.recurrent_set})
}

fn print_witness(its: &Its, w: &Witness) {
    let start = named_values(&its.vars, &w.start);
    let path: Vec<String> = w.path.iter().map(|i| format!("t{i}")).collect();
    println!(
        "witness: start at {} with {}",
        its.locations[its.start], start
    );
    let cycle: Vec<String> = w.cycle.iter().map(|i| format!("t{i}")).collect();
    println!(
        "  path: [{}], then [{}] forever",
        path.join(", "),
        cycle.join(", ")
    );
    println!("  recurrent set: {}", w.recurrent_set);
    for &i in &w.cycle {
        println!("  t{i}: {}", print::rule(its, &its.transitions[i]));
    }
}

pub(crate) fn termination_answer(
    args: &ItsArgs,
    name: &str,
    its: &Its,
    limits: &Limits,
    started: Instant,
) -> i32 {
    // An SCC that runs cannot leave or stop in (cheap to find): no search for a proof.
    let early = match early_inescapable(its, limits) {
        Some(Unbounded::NonTerminating(w)) => Some(w),
        _ => None,
    };
    // Retried on the ITS refined by partial evaluation when there is no proof.
    let (refined, result) = match &early {
        Some(_) => (
            its.clone(),
            Termination::Maybe("an SCC without exits".into(), Vec::new()),
        ),
        None => termination::prove_refining(its, limits),
    };
    let its = match &result {
        Termination::Yes(_) => &refined,
        Termination::Maybe(..) => its,
    };
    // Only a witness that replays for many iterations is reported.
    let witness = match &result {
        Termination::Maybe(..) => early.or_else(|| {
            nontermination::prove(its, limits.query_timeout)
                .filter(|w| nontermination::replay(its, w, 10_000))
        }),
        Termination::Yes(_) => None,
    };
    let time = started.elapsed().as_secs_f64();
    wait_for_watchdog_unless_first();
    let (answer, reason, proof) = match (&result, &witness) {
        (Termination::Yes(p), _) => ("YES", None, p),
        (Termination::Maybe(_, p), Some(_)) => ("NO", None, p),
        (Termination::Maybe(r, p), None) => ("MAYBE", Some(timeout_or(r, limits)), p),
    };
    if args.json {
        let mut out = json!({"command": "its", "goal": "termination", "file": name,
                             "answer": answer, "time_s": time,
                             "its": print::to_koat(its)});
        match &witness {
            Some(w) => out["witness"] = witness_json(its, w),
            None => out["proof"] = proof_json(its, proof),
        }
        if let Some(r) = reason {
            out["reason"] = json!(r);
        }
        println!("{out}");
    } else {
        println!("{answer}");
        if !args.quiet {
            if let Some(r) = reason {
                println!("reason: {r}");
            }
            match &witness {
                Some(w) => print_witness(its, w),
                None => print_proof(its, proof),
            }
        }
    }
    match answer {
        "YES" => 0,
        "NO" => 1,
        _ => 3,
    }
}

fn complexity_answer(
    args: &ItsArgs,
    name: &str,
    its: &Its,
    limits: &Limits,
    started: Instant,
) -> i32 {
    // An SCC that runs cannot leave or stop in: no bound, and no search for one.
    if let Some(u) = trace::step("inescapable SCCs", || early_inescapable(its, limits)) {
        let time = started.elapsed().as_secs_f64();
        wait_for_watchdog_unless_first();
        print_unbounded(args.json, args.quiet, name, its, &u, time);
        return 1;
    }
    // A witness of unbounded runtime first, within a count of solver queries (T2's `brp`,
    // `slayer-3`: the upper-bound search would use the whole budget before it), and within a
    // quarter of the time: a first look, which goes on beside the upper-bound search when its
    // count cut it, and answers at once when it finds a witness then.
    let first_look = started + limits.deadline.saturating_duration_since(started) / 4;
    let go_on = {
        let (json, quiet, name, its) = (args.json, args.quiet, name.to_string(), its.clone());
        lower_bound::GoOn {
            until: limits.deadline,
            found: Box::new(move |u: &Unbounded| {
                if claim_answer() {
                    let time = started.elapsed().as_secs_f64();
                    print_unbounded(json, quiet, &name, &its, u, time);
                    std::process::exit(1);
                }
            }),
        }
    };
    let look = trace::step("witness of unbounded runtime", || {
        lower_bound::look_first(
            its,
            limits.query_timeout,
            first_look.min(limits.deadline),
            lower_bound::FIRST_QUERIES,
            Some(go_on),
        )
    });
    if let Some(u) = look.found {
        let time = started.elapsed().as_secs_f64();
        wait_for_watchdog_unless_first();
        print_unbounded(args.json, args.quiet, name, its, &u, time);
        return 1;
    }
    // Retried on the ITS unfolded by the last transition when there is no bound. The
    // search for an upper bound leaves a little time to show that none exists.
    let upper = Limits {
        deadline: limits.deadline - lower_bound_reserve(started, limits),
        ..limits.clone()
    };
    symex_its::smt::set_deadline(Some(upper.deadline));
    // Each better bound is published for the watchdog with its lower side, whose degree ends
    // the search for a lower one.
    let mut watch = Watch::new(its, limits.deadline, started);
    let (refined, result) = trace::step("upper bound", || {
        complexity::infer_lowest(its, &upper, &mut |refined, c| watch.better(refined, c))
    });
    symex_its::smt::set_deadline(Some(limits.deadline));
    let finite = result
        .as_ref()
        .ok()
        .filter(|c| c.bound.asymptotic().is_some());
    // Without a bound: is there none? (Witnesses refer to the preprocessed ITS.) Asked again
    // when the first search was cut, beside the one going on since (which answers by itself).
    let unbounded = match finite {
        None if !look.ended => trace::step("witness of unbounded runtime, again", || {
            lower_bound::prove(its, limits.query_timeout, limits.deadline)
        }),
        _ => None,
    };
    if let Some(u) = &unbounded {
        let time = started.elapsed().as_secs_f64();
        wait_for_watchdog_unless_first();
        print_unbounded(args.json, args.quiet, name, its, u, time);
        return 1;
    }
    if let Some(c) = finite {
        let found = watch.found(&refined, c);
        wait_for_watchdog_unless_first();
        print_bound(args.json, args.quiet, name, &found, None);
        return 0;
    }
    let time = started.elapsed().as_secs_f64();
    wait_for_watchdog_unless_first();
    let reason = match &result {
        Err(r) => timeout_or(r, &upper),
        Ok(_) => timeout_or("no polynomial size bound for some variable", &upper),
    };
    if args.json {
        let out = json!({"command": "its", "goal": "complexity", "file": name, "time_s": time,
                         "bound": "MAYBE", "reason": reason});
        println!("{out}");
    } else {
        println!("MAYBE");
        if !args.quiet {
            println!("reason: {reason}");
            // The reason names transitions of the preprocessed ITS.
            print_proof(&refined, &[]);
        }
    }
    3
}

/// A finite upper bound with its lower side, as printed.
#[derive(Clone)]
struct Found {
    /// The ITS the bound's proof refers to (a refinement of `family`).
    its: Its,
    complexity: complexity::Complexity,
    /// The preprocessed ITS, which the lower side's witness refers to.
    family: Its,
    lower: LowerSide,
    time: f64,
}

/// The best bound found so far, for the watchdog to print when the deadline passes while
/// the search for a lower degree is still at work.
static BEST: Mutex<Option<Found>> = Mutex::new(None);

/// What `symex its` learns of each better bound the search finds ([`complexity::infer_lowest`]):
/// it proves the lower side the bound allows, once per kind of family, and publishes both
/// in [`BEST`].
struct Watch<'a> {
    family: &'a Its,
    deadline: Instant,
    started: Instant,
    lower: LowerSide,
    /// Whether a lower side was looked for at all; whether a quadratic family (only looked
    /// for beside a bound of degree 2 or more) and a linear one (not beside `O(1)`) were.
    tried: bool,
    tried_quadratic: bool,
    tried_linear: bool,
}

impl<'a> Watch<'a> {
    fn new(family: &'a Its, deadline: Instant, started: Instant) -> Watch<'a> {
        Watch {
            family,
            deadline,
            started,
            lower: LowerSide::None,
            tried: false,
            tried_quadratic: false,
            tried_linear: false,
        }
    }

    /// Publishes the better bound `c` of `its` (with the lower side known so far, then with
    /// the one it allows) and returns the degree of the lower side: no bound goes below it.
    fn better(&mut self, its: &Its, c: &complexity::Complexity) -> u32 {
        self.publish(its, c);
        let upper = Upper::of(&c.bound);
        let quadratic = matches!(upper, Upper::Poly(k) if k >= 2);
        let linear = upper != Upper::Constant;
        // Looked for again only where the new bound allows a family not looked for yet.
        let stronger = match self.lower.degree() {
            2 => false,
            1 => quadratic && !self.tried_quadratic,
            _ => (quadratic && !self.tried_quadratic) || (linear && !self.tried_linear),
        };
        if !self.tried || stronger {
            self.tried = true;
            self.tried_quadratic |= quadratic;
            self.tried_linear |= linear;
            let lower = lower_side_apart(self.family, &c.bound, self.deadline);
            if lower.degree() >= self.lower.degree() {
                self.lower = lower;
            }
            self.publish(its, c);
        }
        self.lower.degree()
    }

    /// The bound `c` of `its` with the lower side found, stored in [`BEST`] for the watchdog.
    fn publish(&self, its: &Its, c: &complexity::Complexity) {
        let found = self.found(its, c);
        *BEST.lock().unwrap_or_else(|e| e.into_inner()) = Some(found);
    }

    /// The bound `c` of `its` with the lower side found, as printed.
    fn found(&self, its: &Its, c: &complexity::Complexity) -> Found {
        Found {
            its: its.clone(),
            complexity: c.clone(),
            family: self.family.clone(),
            lower: self.lower.clone(),
            time: self.started.elapsed().as_secs_f64(),
        }
    }
}

/// [`lower_side`] on a thread of its own, with this thread's deadline and resource limit: Z3's
/// context is per thread, and queries asked in it change the models later queries get, so the
/// search for a lower degree that goes on after it is the same as without it (pasta's `a.03`
/// stayed `O(n^3)` where it gets `O(n^2)`), and its queries do not count toward the search's.
fn lower_side_apart(its: &Its, bound: &symex_its::bound::Bound, deadline: Instant) -> LowerSide {
    let (thread_deadline, rlimit) = (symex_its::smt::deadline(), symex_its::smt::rlimit());
    std::thread::scope(|scope| {
        scope
            .spawn(move || {
                symex_its::smt::set_deadline(thread_deadline);
                symex_its::smt::set_rlimit(rlimit);
                let _phase = trace::phase("lower side (own thread)");
                lower_side(its, bound, deadline)
            })
            .join()
            .unwrap_or(LowerSide::None)
    })
}

/// Prints a finite bound (exit 0); `reason` says why the search ended early (the deadline).
fn print_bound(json: bool, quiet: bool, name: &str, found: &Found, reason: Option<&str>) {
    let (its, c, lower) = (&found.its, &found.complexity, &found.lower);
    let class = c.bound.asymptotic().unwrap_or_default();
    let first = worst_case(&c.bound, lower);
    if json {
        let mut out = json!({"command": "its", "goal": "complexity", "file": name,
                             "time_s": found.time, "bound": class,
                             "answer": first.to_string(),
                             "expression": c.bound.display(&its.vars),
                             "proof": proof_json(its, &c.proof),
                             "bound_functions": bound_functions_json(its, c)});
        lower_side_json(&mut out, &found.family, lower);
        if !c.twn.is_empty() {
            out["twn_loops"] = json!(c.twn.iter().map(|l| twn_line(its, l)).collect::<Vec<_>>());
        }
        if let Some(r) = reason {
            out["reason"] = json!(r);
        }
        println!("{out}");
        return;
    }
    println!("{first}");
    if quiet {
        return;
    }
    if let Some(r) = reason {
        println!("reason: {r}");
    }
    println!("class: {class}");
    println!("bound: {}", c.bound.display(&its.vars));
    print_lower_side(&found.family, lower);
    print_proof(its, &c.proof);
    for l in &c.twn {
        println!("{}", twn_line(its, l));
    }
    for (i, b) in c.transition_bounds.iter().enumerate() {
        println!("  runtime bound of t{i}: {}", b.display(&its.vars));
        if let Some(f) = c.bound_functions.get(i).and_then(|f| f.as_ref()) {
            println!("    {}", bound_function_line(its, f));
        }
    }
}

/// The ranking function a runtime bound was found with after the termination proof, in the
/// proof's words: what it is, and where it was checked not to increase.
fn bound_function_line(its: &Its, f: &complexity::BoundFunction) -> String {
    let on: Vec<String> = f
        .non_increasing_on
        .iter()
        .map(|t| format!("t{t}"))
        .collect();
    format!(
        "from ranking function {} ({}; non-increasing on {})",
        f.function.display(its),
        f.rule.name(),
        on.join(", ")
    )
}

/// [`bound_function_line`] for `--json`: one entry per transition that has a function.
fn bound_functions_json(its: &Its, c: &complexity::Complexity) -> Value {
    let entries: Vec<Value> = c
        .bound_functions
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let f = f.as_ref()?;
            Some(json!({"transition": format!("t{i}"), "function": function_json(its, &f.function),
                        "rule": f.rule.name(),
                        "non_increasing_on": f.non_increasing_on.iter().map(|t| format!("t{t}")).collect::<Vec<_>>()}))
        })
        .collect();
    json!(entries)
}

/// The first line for the upper bound `bound` and, when a linear family was found, `Omega(n^1)`.
pub(crate) fn worst_case(bound: &symex_its::bound::Bound, lower: &LowerSide) -> WorstCase {
    WorstCase {
        lower: match lower {
            LowerSide::Quadratic(_) => Lower::Poly(2),
            LowerSide::Linear(_) => Lower::Poly(1),
            LowerSide::Constant(_) => Lower::Poly(0),
            LowerSide::None => Lower::Unknown,
        },
        ..WorstCase::upper_bound(bound)
    }
}

/// The lower side of a first line beside a finite upper bound, with its witness.
#[derive(Clone)]
pub(crate) enum LowerSide {
    /// `Omega(n^2)`: a family of nested runs growing with one start value.
    Quadratic(NestedFamily),
    /// `Omega(n^1)`: a family of runs growing with one start value.
    Linear(LinearFamily),
    /// `Omega(1)`: one step of cost ≥ 1 from a start state.
    Constant(FirstStep),
    None,
}

impl LowerSide {
    /// The degree of the lower bound: no upper bound can be of a lower one.
    fn degree(&self) -> u32 {
        match self {
            LowerSide::Quadratic(_) => 2,
            LowerSide::Linear(_) => 1,
            LowerSide::Constant(_) | LowerSide::None => 0,
        }
    }
}

/// The best lower side provable beside the upper bound `bound` of the (preprocessed) `its`: a linear
/// family unless the bound is `O(1)` (which it would contradict), else a first step.
pub(crate) fn lower_side(
    its: &Its,
    bound: &symex_its::bound::Bound,
    deadline: Instant,
) -> LowerSide {
    // A quadratic family would contradict an upper bound of lower degree: it is not looked for then.
    if matches!(Upper::of(bound), Upper::Poly(k) if k >= 2) {
        if let Some(f) = nested_lower_bound::prove(its, deadline) {
            return LowerSide::Quadratic(f);
        }
    }
    if Upper::of(bound) != Upper::Constant {
        if let Some(f) = linear_lower_bound::prove(its, deadline) {
            return LowerSide::Linear(f);
        }
    }
    match first_step::prove(its) {
        Some(s) => LowerSide::Constant(s),
        None => LowerSide::None,
    }
}

/// The JSON of a lower side: `lower_bound` and `lower_witness`.
pub(crate) fn lower_side_json(out: &mut Value, its: &Its, lower: &LowerSide) {
    match lower {
        LowerSide::Quadratic(f) => {
            out["lower_bound"] = json!("n^2");
            out["lower_witness"] = nested_family_json(its, f);
        }
        LowerSide::Linear(f) => {
            out["lower_bound"] = json!("n^1");
            out["lower_witness"] = linear_family_json(its, f);
        }
        LowerSide::Constant(s) => {
            out["lower_bound"] = json!("1");
            out["lower_witness"] = first_step_json(its, s);
        }
        LowerSide::None => {}
    }
}

/// Prints the witness of a lower side.
pub(crate) fn print_lower_side(its: &Its, lower: &LowerSide) {
    match lower {
        LowerSide::Quadratic(f) => print_nested_family(its, f),
        LowerSide::Linear(f) => print_linear_family(its, f, "lower bound: Omega(n^1)"),
        LowerSide::Constant(s) => println!(
            "lower bound: Omega(1), from {} with {}: {} (cost >= 1)",
            its.locations[its.start],
            named_values(&its.vars, &s.start),
            print::rule(its, &its.transitions[s.transition])
        ),
        LowerSide::None => {}
    }
}

fn first_step_json(its: &Its, s: &FirstStep) -> Value {
    let start = named_values_json(&its.vars, &s.start);
    json!({"start": start, "rule": print::rule(its, &its.transitions[s.transition])})
}

/// `A = 1, B = 0`: values with their names.
fn named_values(names: &[String], values: &[i128]) -> String {
    let v: Vec<String> = names
        .iter()
        .zip(values)
        .map(|(n, v)| format!("{n} = {v}"))
        .collect();
    v.join(", ")
}

/// `{"A": "1", "B": "0"}`: values with their names, as decimal strings (they may exceed JSON's
/// exact integers).
pub(crate) fn named_values_json(names: &[String], values: &[i128]) -> Value {
    names
        .iter()
        .zip(values)
        .map(|(n, v)| (n.clone(), json!(v.to_string())))
        .collect::<serde_json::Map<String, Value>>()
        .into()
}

/// The witness of a linear lower bound: the start values with the parameter, the path and the cycle
/// as rules (of the ITS after preprocessing, before any refinement of the upper-bound search), and
/// the per-lap changes.
pub(crate) fn linear_family_json(its: &Its, f: &LinearFamily) -> Value {
    let start: serde_json::Map<String, Value> = its
        .vars
        .iter()
        .zip(&f.start)
        .enumerate()
        .filter(|(v, _)| *v != f.var)
        .map(|(_, (n, v))| (n.clone(), json!(v.to_string())))
        .collect();
    let rules = |ts: &[usize]| -> Vec<String> {
        ts.iter()
            .map(|&i| print::rule(its, &its.transitions[i]))
            .collect()
    };
    json!({"start": start,
           "parameter": {"variable": its.vars[f.var], "scale": f.scale.to_string(), "shift": f.shift.to_string()},
           "path": rules(&f.path),
           "cycle": rules(&f.cycle),
           "per_lap": lap_steps(its, &f.steps)})
}

/// The witness of a quadratic lower bound: as [`linear_family_json`], with the inner and outer
/// cycles, the inner laps per outer lap, and twice the least cost of `L` outer laps.
fn nested_family_json(its: &Its, f: &NestedFamily) -> Value {
    // Each start value as `[scale, offset]`: `scale·L + offset`.
    let start: serde_json::Map<String, Value> = its
        .vars
        .iter()
        .enumerate()
        .map(|(v, n)| {
            let pair = [f.start_scale[v].to_string(), f.start_offset[v].to_string()];
            (n.clone(), json!(pair))
        })
        .collect();
    let rules = |ts: &[usize]| -> Vec<String> {
        ts.iter()
            .map(|&i| print::rule(its, &its.transitions[i]))
            .collect()
    };
    // Coefficients of L^0, L^1, L^2 (the polynomial has the one variable L).
    let twice: Vec<String> = (0..=2u32)
        .map(|d| {
            f.twice_cost
                .terms()
                .filter(|(m, _)| m.iter().map(|(_, e)| e).sum::<u32>() == d)
                .map(|(_, c)| c)
                .sum::<i128>()
                .to_string()
        })
        .collect();
    json!({"start_affine": start,
           "path": rules(&f.path),
           "inner": rules(&f.inner),
           "outer": rules(&f.outer),
           "inner_laps": f.inner_laps.display(&|v| its.vars[v].clone()),
           "twice_min_cost": twice})
}

fn print_nested_family(its: &Its, f: &NestedFamily) {
    let start: Vec<String> = its
        .vars
        .iter()
        .enumerate()
        .map(|(v, n)| {
            let value = Poly::var(0)
                .scale(f.start_scale[v])
                .add(&Poly::constant(f.start_offset[v]));
            format!("{n} = {}", value.display(&|_| "L".to_string()))
        })
        .collect();
    println!(
        "lower bound: Omega(n^2), from {} with {}:",
        its.locations[its.start],
        start.join(", ")
    );
    for &i in &f.path {
        println!("  path: {}", print::rule(its, &its.transitions[i]));
    }
    println!("  then L times:");
    for &i in &f.inner {
        println!(
            "    {} times: {}",
            f.inner_laps.display(&|v| its.vars[v].clone()),
            print::rule(its, &its.transitions[i])
        );
    }
    for &i in &f.outer {
        println!("    once: {}", print::rule(its, &its.transitions[i]));
    }
    let laps: Vec<String> = nested_lower_bound::REPLAY_LAPS
        .iter()
        .map(|l| l.to_string())
        .collect();
    println!(
        "  cost >= ({})/2, for every L >= 1 (Z3); replayed for L = {}",
        f.twice_cost.display(&|_| "L".to_string()),
        laps.join(", ")
    );
}

pub(crate) fn print_linear_family(its: &Its, f: &LinearFamily, title: &str) {
    let start: Vec<String> = its
        .vars
        .iter()
        .zip(&f.start)
        .enumerate()
        .map(|(v, (n, c))| {
            if v == f.var {
                format!("{n} = {}*(laps + {})", f.scale, f.shift)
            } else {
                format!("{n} = {c}")
            }
        })
        .collect();
    println!(
        "{title}, from {} with {}:",
        its.locations[its.start],
        start.join(", ")
    );
    for &i in &f.path {
        println!("  path: {}", print::rule(its, &its.transitions[i]));
    }
    for &i in &f.cycle {
        println!("  `laps` times: {}", print::rule(its, &its.transitions[i]));
    }
    let lengths: Vec<String> = lower_bound::REPLAY_LENGTHS
        .iter()
        .map(|l| l.to_string())
        .collect();
    println!(
        "  per lap: {}, cost >= 1, for every laps >= 1 (Z3); replayed for laps = {}",
        lap_steps(its, &f.steps),
        lengths.join(", ")
    );
}

/// The check for inescapable SCCs before the provers. It is meant to be cheap: a tenth of
/// the budget at most (3 s at most); under a resource limit, [`EARLY_QUERIES`] solver queries
/// instead, so that whether it finds an SCC does not depend on the machine's load.
fn early_inescapable(its: &Its, limits: &Limits) -> Option<Unbounded> {
    if symex_its::smt::rlimit().is_some() {
        let _budget = symex_its::smt::query_budget(EARLY_QUERIES);
        return lower_bound::inescapable(its, limits.query_timeout, limits.deadline);
    }
    let now = Instant::now();
    let left = limits.deadline.saturating_duration_since(now);
    let deadline = now + (left / 10).min(Duration::from_secs(3));
    lower_bound::inescapable(its, limits.query_timeout, deadline)
}

/// The solver queries the check for inescapable SCCs may ask under a resource limit.
const EARLY_QUERIES: u64 = 2_000;

/// The time the upper-bound search leaves to the lower-bound search: a sixth of the
/// budget, at most 3 s (a non-termination witness is found in a second or two where the
/// upper bound search would use up the whole budget: T2's `apchild-live`, `db2`).
fn lower_bound_reserve(started: Instant, limits: &Limits) -> Duration {
    let budget = limits.deadline.saturating_duration_since(started);
    (budget / 6).min(Duration::from_secs(3))
}

/// The reason of a MAYBE after the deadline.
const TIMEOUT_REASON: &str = "timeout: the time limit (--max-time) was reached";

/// The reason of a MAYBE: `timeout` once the deadline has passed (the prover's own
/// reason then only says where it stopped: a query cut short looks like a failed one).
pub(crate) fn timeout_or(reason: &str, limits: &Limits) -> String {
    if Instant::now() >= limits.deadline {
        TIMEOUT_REASON.to_string()
    } else {
        reason.to_string()
    }
}

/// A loop bounded by its closed form (`symex_its::twn`), in words.
fn twn_line(its: &Its, l: &symex_its::twn::TwnLoop) -> String {
    let t = &its.transitions[l.transitions[0]];
    let update = t.update();
    let scale: Vec<String> = l
        .factors
        .keys()
        .map(|v| {
            // Temporaries (fixed by the guard) have their names from the rule.
            let u = update[*v].display(&|w| its.var_name(t, w));
            format!("{}' = {u}", its.vars[*v])
        })
        .collect();
    // After a change of variables the bound is in the old ones; the loop is twn in the
    // new ones, named after the position they take.
    let scale: Vec<String> = if l.change.is_empty() {
        scale
    } else {
        let forms = l.change.iter().map(|(v, f)| {
            let f = f.display(&|w| its.vars[w].clone());
            format!("new {} = {f}", its.vars[*v])
        });
        forms.collect()
    };
    // Without factors: k steps in a row are impossible (`symex_its::few_steps`).
    let scale = if scale.is_empty() {
        vec!["a few steps in a row are impossible".to_string()]
    } else {
        scale
    };
    let unrolled = if l.unrolled { ", unrolled twice" } else { "" };
    let ts: Vec<String> = l.transitions.iter().map(|i| format!("t{i}")).collect();
    format!(
        "twn loop at {} ({}; {}{unrolled}): at most {} iterations per entry",
        its.locations[l.location],
        ts.join(", "),
        scale.join(", "),
        l.bound.display(&|v| format!("|{}|", its.vars[v]))
    )
}

/// The answer when no bound exists: `WORST_CASE(NON_POLY, ?)` (what AProVE and LoAT print
/// for `BOUNDS(INF, INF)`), the lower bound and its replayed witness.
fn print_unbounded(json: bool, quiet: bool, name: &str, its: &Its, u: &Unbounded, time: f64) {
    let kind = match u {
        Unbounded::NonTerminating(_) => "a non-terminating run",
        Unbounded::Family(_) => "runs of every length from one start state",
    };
    if json {
        let witness = match u {
            Unbounded::NonTerminating(w) => witness_json(its, w),
            Unbounded::Family(f) => family_json(its, f),
        };
        let out = json!({"command": "its", "goal": "complexity", "file": name, "time_s": time,
                         "bound": null, "answer": "WORST_CASE(NON_POLY, ?)", "lower_bound": "INF", "unbounded_by": kind,
                         "witness": witness, "its": print::to_koat(its)});
        println!("{out}");
        return;
    }
    println!("WORST_CASE(NON_POLY, ?)");
    if quiet {
        return;
    }
    println!("lower bound: unbounded ({kind})");
    match u {
        Unbounded::NonTerminating(w) => print_witness(its, w),
        Unbounded::Family(f) => print_family(its, f),
    }
    let lengths: Vec<String> = lower_bound::REPLAY_LENGTHS
        .iter()
        .map(|l| l.to_string())
        .collect();
    println!(
        "  replayed: the run reaches cost >= n for n = {}",
        lengths.join(", ")
    );
    if matches!(u, Unbounded::NonTerminating(_)) {
        println!(
            "    (or its values leave the i128 range after at least {} laps of constant cost >= 1)",
            symex_its::nontermination::MIN_LAPS_BEFORE_OVERFLOW
        );
    }
    println!("Transitions (after preprocessing):");
    for (i, t) in its.transitions.iter().enumerate() {
        println!("  t{i}: {}", print::rule(its, t));
    }
}

/// The parameter of a family: `T of t3 := scale*(laps + shift)`.
fn family_param(its: &Its, f: &Family) -> String {
    let t = f.path[f.param.0];
    let temps = &its.transitions[t].temps;
    let mut names = vec![temps[f.param.1].as_str()];
    names.extend(f.tied.iter().map(|&j| temps[j].as_str()));
    format!(
        "{} of t{t} := {}*(laps + {})",
        names.join(" = "),
        f.scale,
        f.shift
    )
}

/// The per-lap changes of the counted variables: `A' = A + 11, B' = B + 1`.
fn family_steps(its: &Its, f: &Family) -> String {
    lap_steps(its, &f.steps)
}

/// [`family_steps`] of any family's per-lap changes.
fn lap_steps(its: &Its, steps: &[(usize, Option<i128>)]) -> String {
    let steps: Vec<String> = steps
        .iter()
        .filter(|(_, d)| *d != Some(0))
        .map(|(v, d)| {
            let x = &its.vars[*v];
            match d {
                Some(d) if *d < 0 => format!("{x}' = {x} - {}", -d),
                Some(d) => format!("{x}' = {x} + {d}"),
                None => format!("{x}' = constant"),
            }
        })
        .collect();
    steps.join(", ")
}

fn family_json(its: &Its, f: &Family) -> Value {
    let start = named_values_json(&its.vars, &f.start);
    json!({"start": start,
           "path": f.path.iter().map(|i| format!("t{i}")).collect::<Vec<_>>(),
           "parameter": family_param(its, f),
           "cycle": f.cycle.iter().map(|i| format!("t{i}")).collect::<Vec<_>>(),
           "per_lap": family_steps(its, f)})
}

fn print_family(its: &Its, f: &Family) {
    let start = named_values(&its.vars, &f.start);
    println!(
        "witness: start at {} with {}",
        its.locations[its.start], start
    );
    let path: Vec<String> = f.path.iter().map(|i| format!("t{i}")).collect();
    let cycle: Vec<String> = f.cycle.iter().map(|i| format!("t{i}")).collect();
    println!(
        "  path: [{}] with the temporary {}, then [{}] `laps` times ({} per lap), for every laps >= 1 (Z3)",
        path.join(", "),
        family_param(its, f),
        cycle.join(", "),
        family_steps(its, f)
    );
}
