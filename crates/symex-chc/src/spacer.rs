//! Asking Z3's Horn-clause engine (Spacer, IC3/PDR for software) about the clauses: the system is
//! written as an SMT-LIB script for a solver of logic `HORN` — one uninterpreted predicate, each clause a
//! universally closed implication — and read back as satisfiable (safe: the model interprets the
//! predicate by an inductive invariant), unsatisfiable (unsafe: a derivation of `false` exists) or
//! unknown. Z3's resource limit (`rlimit`) bounds it deterministically; a time limit only for users.
//!
//! Spacer sees the clauses over integers ([`crate::integers`]); its invariant comes back as a
//! bit-vector formula that evaluates its linear arithmetic exactly in 128 bits, once with the cells read
//! as unsigned numbers and once as signed ones (the re-check keeps the first that holds).

use crate::clauses::{Clauses, Kind};
use std::fmt::Write;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use symex_expr::{free_vars, smtlib_symbol, Op, Sort, Term};
use z3::ast::{Ast, Dynamic};
use z3::DeclKind;

/// What Spacer says.
pub enum Said {
    /// The predicates' interpretations over their parameters (one formula per loop head): the cells
    /// read unsigned, then signed.
    Safe(Vec<Vec<Term>>),
    Unsafe,
    Unknown(String),
}

/// The predicate's name in the script.
const PREDICATE: &str = "chc_inv";

/// Spacer's limits: Z3's resource limit (deterministic) and a time limit.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    pub rlimit: Option<u32>,
    pub timeout: Option<Duration>,
}

/// One way of asking Spacer: how a step that leaves a cell's range is written, and how Spacer makes
/// its lemmas. Each finds invariants the others miss with libz3 4.8.12 (the scripts of `examples/chc/`
/// and of SV-COMP's `loop-invgen/down.i` under `z3 fp.engine=spacer`): the exact system with the default
/// generator gets stuck on `x + y == n` (`sum_relation.c`) and finds Gulwani's disjunctive invariant
/// only after tens of seconds; the old generator (`spacer.iuc=0`) finds `x + y == n` in 0.1 s; without
/// the wrap-around clauses Spacer answers `post_loop.c`, `twice_bound.c` and the disjunctive examples
/// in under a second, but its invariant may leave out the bound that keeps a step from wrapping (the
/// re-check then fails, and [`crate::recheck::strengthen`] looks for an inductive part); Gaussian
/// elimination in the interpolating unsat cores (`spacer.iuc.arith=2`) answers `nested.c` in 4 s and
/// `down.i` (two loops in sequence), where the others run out of 6 s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// A step whose integers leave the cells' range is a violation (`true`: the invariant must rule
    /// wrap-around out, so it is exact on the bit-vectors), or is left out (`false`: Spacer sees only
    /// the steps that stay in range; the invariant may then fail the bit-vector re-check, where a
    /// wrap-around it ignored comes back).
    pub wraps_are_violations: bool,
    /// Spacer's parameter `spacer.iuc` (0: the old unsat-core generation; 1: Z3's default).
    pub iuc: u32,
    /// Spacer's parameter `spacer.iuc.arith` (1: Z3's default; 2: Gaussian elimination, which Z3's
    /// documentation calls broken: its `unsafe` is not trusted, its invariants are re-checked as all).
    pub iuc_arith: u32,
}

impl Variant {
    /// Whether a derivation of `false` under this variant is taken as Spacer's answer.
    pub fn trusts_unsafe(&self) -> bool {
        self.iuc_arith != 2
    }
}

/// The variants in the order they are tried, with the share of the time budget each gets (the last
/// gets what is left). The ones without wrap-around clauses first: where they answer they do so in
/// seconds (and their invariant, with the facts of the arrivals, usually passes the re-check).
pub const VARIANTS: [(Variant, u32); 4] = [
    (
        Variant {
            wraps_are_violations: false,
            iuc: 1,
            iuc_arith: 1,
        },
        1,
    ),
    (
        Variant {
            wraps_are_violations: false,
            iuc: 1,
            iuc_arith: 2,
        },
        1,
    ),
    (
        Variant {
            wraps_are_violations: true,
            iuc: 0,
            iuc_arith: 1,
        },
        1,
    ),
    (
        Variant {
            wraps_are_violations: true,
            iuc: 1,
            iuc_arith: 1,
        },
        1,
    ),
];

/// Solves `c` as `variant` says; on safe, the invariant with the predicate's parameters replaced by
/// `c.params`.
pub fn solve(c: &Clauses, variant: Variant, budget: Budget) -> Said {
    let script = script(c, variant.wraps_are_violations);
    let params = c.params.clone();
    let signed = crate::integers::mostly_signed(c);
    // Over bit-vectors alone Z3 would pick its Datalog engine (tables over the whole domain).
    z3::set_global_param("fp.engine", "spacer");
    // A global parameter, as the engine is: the Horn solver reads the `fp` module's parameters when it
    // is made (only this thread makes Horn solvers).
    z3::set_global_param("fp.spacer.iuc", &variant.iuc.to_string());
    z3::set_global_param("fp.spacer.iuc.arith", &variant.iuc_arith.to_string());
    // A context of its own: in the context where the bit-vector queries of the encoding ran before,
    // libz3 4.8.12's Spacer took more than 10 s on clauses it solves in 20 ms in a fresh one.
    z3::with_z3_config(&z3::Config::new(), move || {
        solve_in_context(&script, &params, signed, variant, budget)
    })
}

fn solve_in_context(
    script: &str,
    params: &[Vec<Term>],
    signed: bool,
    variant: Variant,
    budget: Budget,
) -> Said {
    let Some(solver) = z3::Solver::new_for_logic("HORN") else {
        return Said::Unknown("Z3 has no solver for logic HORN".into());
    };
    let mut p = z3::Params::new();
    if let Some(r) = budget.rlimit {
        p.set_u32("rlimit", r);
    }
    solver.set_params(&p);
    // `SYMEX_CHC_DUMP=1`: the script on standard error, to rerun it with `z3 fp.engine=spacer` (without
    // the logic, Z3's command line would not use the Horn-clause engine).
    if std::env::var_os("SYMEX_CHC_DUMP").is_some() {
        eprintln!("; {variant:?}\n(set-logic HORN)\n{script}(check-sat)");
    }
    solver.from_string(script);
    let Some(result) = check_within(&solver, budget.timeout) else {
        return Said::Unknown("Spacer gave no answer (timeout)".into());
    };
    match result {
        z3::SatResult::Unsat => Said::Unsafe,
        z3::SatResult::Unknown => Said::Unknown(format!(
            "Spacer gave no answer ({})",
            solver
                .get_reason_unknown()
                .unwrap_or_else(|| "no reason".into())
        )),
        z3::SatResult::Sat => match interpretation(&solver, params, signed) {
            Ok(t) => Said::Safe(t),
            Err(why) => Said::Unknown(why),
        },
    }
}

/// `solver.check()`, interrupted by a watchdog thread after `timeout`; `None` when interrupted. Not
/// Z3's own `timeout`: Z3 4.8.12 serves it from one process-wide pool of timer threads, and beside the
/// portfolio's other engines a check could wait on that pool long after it was decided.
fn check_within(solver: &z3::Solver, timeout: Option<Duration>) -> Option<z3::SatResult> {
    let Some(limit) = timeout else {
        return Some(solver.check());
    };
    let handle = solver.get_context().handle();
    let (done, finished) = mpsc::channel::<()>();
    let (result, interrupted) = std::thread::scope(|scope| {
        let watchdog = scope.spawn(move || {
            let end = Instant::now() + limit;
            let mut late = false;
            // An interrupt that lands before the check starts is lost: repeated until it returns.
            loop {
                let wait = if late {
                    Duration::from_millis(10)
                } else {
                    end.saturating_duration_since(Instant::now())
                };
                if finished.recv_timeout(wait) != Err(mpsc::RecvTimeoutError::Timeout) {
                    return late;
                }
                handle.interrupt();
                late = true;
            }
        });
        let r = solver.check();
        drop(done);
        (r, watchdog.join().unwrap_or(true))
    });
    if interrupted {
        // An interrupt leaves the thread's context cancelled until the next check starts (Z3 4.8.12):
        // an empty check clears it before anything else is asserted in this context.
        let _ = z3::Solver::new().check();
        return None;
    }
    Some(result)
}

/// The SMT-LIB text of the clauses (with the wrap-around clauses when `wraps` is set).
pub fn script(c: &Clauses, wraps: bool) -> String {
    let mut out = String::new();
    let mut abs = crate::integers::Abstraction::default();
    let signed = crate::integers::mostly_signed(c);
    // The cells' range as the reading back will give it (unsigned or signed numbers of their width).
    let range = |ps: &[Term], ws: &[u32]| -> Term {
        Term::and_all(
            &ps.iter()
                .zip(ws)
                .filter(|(_, w)| **w > 0)
                .map(|(p, w)| crate::integers::in_range(p, *w, signed))
                .collect::<Vec<_>>(),
        )
    };
    let params: Vec<Vec<Term>> = c
        .params
        .iter()
        .map(|ps| ps.iter().map(crate::integers::int_var).collect())
        .collect();
    let widths: Vec<Vec<u32>> = c
        .params
        .iter()
        .map(|ps| {
            ps.iter()
                .map(|p| match p.sort() {
                    Sort::BitVec(w) => w,
                    _ => 0,
                })
                .collect()
        })
        .collect();
    for (k, ps) in params.iter().enumerate() {
        let sorts: Vec<String> = ps.iter().map(|p| p.sort().to_string()).collect();
        let _ = writeln!(
            out,
            "(declare-fun {} ({}) Bool)",
            predicate(k),
            sorts.join(" ")
        );
    }
    // In the order the re-check takes them (initiation first), as the single-loop encoding wrote them.
    let kinds = [
        Kind::Initiation,
        Kind::Consecution,
        Kind::Safety,
        Kind::SafetyBeforeLoops,
    ];
    for r in kinds
        .iter()
        .flat_map(|k| c.rules.iter().filter(move |r| r.kind() == *k))
    {
        let guard = abs.of(&r.guard);
        let body = r.from.map(|p| (p, params[p].as_slice()));
        let g = match r.from {
            Some(p) => guard.and(&range(&params[p], &widths[p])),
            None => guard.clone(),
        };
        // The wrap-around clause's other variables (inputs, a variable's value before its first
        // store) are in their range too: without it, it could choose one outside.
        let mut roots = vec![r.guard.clone()];
        roots.extend(r.to.iter().flat_map(|(_, a)| a.iter().cloned()));
        let (vs, ws): (Vec<Term>, Vec<u32>) = free_vars(&roots)
            .into_iter()
            .filter(|v| r.from.is_none_or(|p| !c.params[p].contains(v)))
            .filter_map(|v| match v.sort() {
                Sort::BitVec(w) => Some((crate::integers::int_var(&v), w)),
                _ => None,
            })
            .unzip();
        let others = range(&vs, &ws);
        match &r.to {
            Some((k, args)) => {
                let args: Vec<Term> = args.iter().map(|t| abs.of(t)).collect();
                let in_range = range(&args, &widths[*k]);
                clause(&mut out, body, &g.and(&in_range), Some((*k, &args)));
                // A step whose integers leave the cells' range wraps around in the program: the
                // integer invariant must rule that out (it is then exact on the bit-vectors), or
                // Spacer says unsafe.
                if wraps && r.from.is_some() {
                    clause(&mut out, body, &g.and(&others).and(&in_range.not()), None);
                }
            }
            None => clause(&mut out, body, &g, None),
        }
    }
    out
}

/// One clause `body_pred ∧ guard → head`, its variables bound by `forall`; the head's arguments are
/// fresh variables equal to the values (a head applied to variables is the clause form Z3 expects).
fn clause(
    out: &mut String,
    body_pred: Option<(usize, &[Term])>,
    guard: &Term,
    head: Option<(usize, &[Term])>,
) {
    let mut conj = Vec::new();
    if let Some((p, ps)) = body_pred {
        conj.push(application(p, ps));
    }
    conj.push(guard.to_string());
    let mut head_vars = Vec::new();
    if let Some((_, args)) = head {
        for (i, a) in args.iter().enumerate() {
            let v = Term::var(&format!("chc_head{i}"), a.sort());
            conj.push(format!("(= {v} {a})"));
            head_vars.push(v);
        }
    }
    let mut roots: Vec<Term> = vec![guard.clone()];
    roots.extend(body_pred.map_or(&[][..], |b| b.1).iter().cloned());
    roots.extend(head.map_or(&[][..], |h| h.1).iter().cloned());
    roots.extend(head_vars.iter().cloned());
    let vars = free_vars(&roots);
    let consequent = match head {
        Some((k, _)) => application(k, &head_vars),
        None => "false".into(),
    };
    let body = format!("(=> (and {}) {consequent})", conj.join(" "));
    if vars.is_empty() {
        let _ = writeln!(out, "(assert {body})");
        return;
    }
    let binders: Vec<String> = vars
        .iter()
        .map(|v| {
            format!(
                "({} {})",
                smtlib_symbol(v.as_var().expect("a variable")),
                v.sort()
            )
        })
        .collect();
    let _ = writeln!(out, "(assert (forall ({}) {body}))", binders.join(" "));
}

/// The name of loop head `k`'s predicate in the script.
fn predicate(k: usize) -> String {
    format!("{PREDICATE}{k}")
}

fn application(k: usize, args: &[Term]) -> String {
    if args.is_empty() {
        return predicate(k);
    }
    let a: Vec<String> = args.iter().map(|t| t.to_string()).collect();
    format!("({} {})", predicate(k), a.join(" "))
}

/// The model's interpretation of each predicate, applied to the parameters read signed first when
/// `signed_first`, then the other way: one reading per way, each with a formula per predicate.
fn interpretation(
    solver: &z3::Solver,
    params: &[Vec<Term>],
    signed_first: bool,
) -> Result<Vec<Vec<Term>>, String> {
    let model = solver
        .get_model()
        .ok_or("Spacer answered safe without a model")?;
    let mut readings = vec![Vec::new(), Vec::new()];
    for (k, ps) in params.iter().enumerate() {
        let name = predicate(k);
        let Some(decl) = model.iter().find(|d| d.name() == name) else {
            // No interpretation: the predicate is never derived (no run reaches the loop head), so
            // `false` interprets it.
            readings.iter_mut().for_each(|r| r.push(Term::ff()));
            continue;
        };
        // The interpretation's `else` is a formula over `(:var i)`, the predicate's `i`-th argument.
        let inv = match model.get_func_interp(&decl) {
            Some(fi) => fi
                .get_else()
                .ok_or("the predicate's interpretation has no formula")?,
            None => return Err("the model does not interpret the predicate".into()),
        };
        for (reading, signed) in readings.iter_mut().zip([signed_first, !signed_first]) {
            let mut map = rustc_hash::FxHashMap::default();
            for (i, p) in ps.iter().enumerate() {
                let x = match p.sort() {
                    Sort::BitVec(_) if signed => p.sext_to(WIDE),
                    Sort::BitVec(w) if w < WIDE => p.zext_to(WIDE),
                    _ => p.clone(),
                };
                map.insert(param_name(i), x);
            }
            reading.push(to_term(&inv, &map)?);
        }
    }
    Ok(readings)
}

/// The width in which the integer invariant is evaluated: exact for the linear combinations Spacer
/// writes over values of at most 64 bits.
pub const WIDE: u32 = 128;

fn param_name(i: usize) -> String {
    format!("chc_param{i}")
}

/// A Z3 formula as a term, its constants mapped by name; an operator symex's terms lack makes it an
/// error that names it.
fn to_term(a: &Dynamic, consts: &rustc_hash::FxHashMap<String, Term>) -> Result<Term, String> {
    let decl = if a.is_app() { a.safe_decl().ok() } else { None };
    let Some(decl) = decl else {
        // A bound variable, printed `(:var i)`.
        let printed = a.to_string();
        let i: usize = printed
            .strip_prefix("(:var ")
            .and_then(|r| r.strip_suffix(')'))
            .and_then(|n| n.trim().parse().ok())
            .ok_or_else(|| format!("a quantifier in the invariant ({printed})"))?;
        return consts
            .get(&param_name(i))
            .cloned()
            .ok_or_else(|| format!("an argument {i} beyond the predicate's"));
    };
    let kids: Vec<Term> = a
        .children()
        .iter()
        .map(|k| to_term(k, consts))
        .collect::<Result<_, _>>()?;

    let op = |o: Op| Term::try_new(o, &kids).map_err(|e| format!("an ill-sorted invariant: {e:?}"));
    let swap = |o: Op| {
        Term::try_new(o, &[kids[1].clone(), kids[0].clone()])
            .map_err(|e| format!("an ill-sorted invariant: {e:?}"))
    };
    let fold = |o: Op| -> Result<Term, String> {
        let mut it = kids.iter();
        let first = it.next().ok_or("an operator without arguments")?.clone();
        it.try_fold(first, |acc, k| {
            Term::try_new(o.clone(), &[acc, k.clone()])
                .map_err(|e| format!("an ill-sorted invariant: {e:?}"))
        })
    };
    let int = |v: i128| Term::bv(v as u128, WIDE);
    use DeclKind as K;
    match decl.kind() {
        K::Anum => {
            let i = z3::ast::Int::try_from(a.clone())
                .map_err(|_| "a numeral that is not an integer")?;
            Ok(int(i
                .as_i64()
                .ok_or("an integer numeral beyond 64 bits in the invariant")?
                as i128))
        }
        K::Add => fold(Op::BvAdd),
        K::Sub => fold(Op::BvSub),
        K::Mul => fold(Op::BvMul),
        K::Uminus => op(Op::BvNeg),
        K::Le => op(Op::BvSle),
        K::Lt => op(Op::BvSlt),
        K::Ge => swap(Op::BvSle),
        K::Gt => swap(Op::BvSlt),
        K::True => Ok(Term::tt()),
        K::False => Ok(Term::ff()),
        K::Uninterpreted if kids.is_empty() => consts
            .get(&decl.name())
            .cloned()
            .ok_or_else(|| format!("an unknown constant {} in the invariant", decl.name())),
        K::Bnum => {
            let bv = a.as_bv().ok_or("a numeral that is not a bit-vector")?;
            let w = bv.get_size();
            let v = bv
                .as_u64()
                .ok_or("a bit-vector numeral wider than 64 bits in the invariant")?;
            Ok(Term::bv(v as u128, w))
        }
        K::Eq | K::Iff => op(Op::Eq),
        K::Distinct if kids.len() == 2 => Ok(op(Op::Eq)?.not()),
        K::Ite => op(Op::Ite),
        K::And => Ok(Term::and_all(&kids)),
        K::Or => Ok(Term::or_all(&kids)),
        K::Not => op(Op::Not),
        K::Implies => op(Op::Implies),
        K::Xor => op(Op::Xor),
        K::Badd => fold(Op::BvAdd),
        K::Bsub => op(Op::BvSub),
        K::Bmul => fold(Op::BvMul),
        K::Bneg => op(Op::BvNeg),
        K::Budiv | K::Budiv0 => op(Op::BvUdiv),
        K::Bsdiv | K::Bsdiv0 => op(Op::BvSdiv),
        K::Burem | K::Burem0 => op(Op::BvUrem),
        K::Bsrem | K::Bsrem0 => op(Op::BvSrem),
        K::Bsmod | K::Bsmod0 => op(Op::BvSmod),
        K::Band => fold(Op::BvAnd),
        K::Bor => fold(Op::BvOr),
        K::Bxor => fold(Op::BvXor),
        K::Bnot => op(Op::BvNot),
        K::Bshl => op(Op::BvShl),
        K::Blshr => op(Op::BvLshr),
        K::Bashr => op(Op::BvAshr),
        K::Uleq => op(Op::BvUle),
        K::Sleq => op(Op::BvSle),
        K::Ult => op(Op::BvUlt),
        K::Slt => op(Op::BvSlt),
        K::Ugeq => swap(Op::BvUle),
        K::Sgeq => swap(Op::BvSle),
        K::Ugt => swap(Op::BvUlt),
        K::Sgt => swap(Op::BvSlt),
        K::Concat => fold(Op::Concat),
        K::ZeroExt | K::SignExt => {
            let w = a
                .as_bv()
                .ok_or("an extension that is not a bit-vector")?
                .get_size();
            let n = w - kids.first().ok_or("an extension without argument")?.width();
            op(if decl.kind() == K::ZeroExt {
                Op::ZeroExt(n)
            } else {
                Op::SignExt(n)
            })
        }
        K::Extract => {
            let (hi, lo) = extract_bounds(&a.to_string())
                .ok_or_else(|| format!("an extract Z3 printed as {a}"))?;
            op(Op::Extract { hi, lo })
        }
        k => Err(format!(
            "unsupported: the invariant uses Z3's operator {k:?} ({})",
            decl.name()
        )),
    }
}

/// `hi` and `lo` of Z3's printed `((_ extract hi lo) x)`.
fn extract_bounds(printed: &str) -> Option<(u32, u32)> {
    let rest = printed.trim_start_matches('(').strip_prefix("_ extract ")?;
    let mut it = rest
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty());
    Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
}
