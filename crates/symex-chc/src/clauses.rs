//! The constrained Horn clauses of the entry function: one predicate `inv_h` per loop head `h` over its
//! cells, and one clause per run of the merging executor between two cut points (the program's start,
//! each loop head, the program's end):
//!
//! * `g → inv_h(v)` for the runs from the start that arrive at `h` (initiation),
//! * `inv_h(c) ∧ g → inv_k(v)` for the runs from `h` that arrive at `k` (consecution when `k = h`),
//! * `inv_h(c) ∧ e → false` for each violation a run from `h` reaches, and `e → false` for those before
//!   any loop head (safety).
//!
//! Guards and values are the merging executor's terms, so the clauses say what the engine's instruction
//! semantics says (no second semantics).

use crate::cut::{complete, CutPoint, EntryFunction};
use std::cell::RefCell;
use std::rc::Rc;
use symex_bmc::guarded::Shared;
use symex_bmc::merge::join;
use symex_bmc::unwind::{ErrorRecord, Formulas, Options, Unwinder};
use symex_bmc::Class;
use symex_engine::{BugKind, Program};
use symex_expr::{Op, Term};

/// One clause: `from`'s predicate over its parameters (none: the program's start) and `guard` imply
/// `to`'s predicate at the arguments (none: `false`).
pub struct Rule {
    pub from: Option<usize>,
    pub guard: Term,
    pub to: Option<(usize, Vec<Term>)>,
}

/// What a clause says, for the messages of the re-check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Initiation,
    Consecution,
    Safety,
    SafetyBeforeLoops,
}

impl Rule {
    pub fn kind(&self) -> Kind {
        match (&self.from, &self.to) {
            (None, Some(_)) => Kind::Initiation,
            (Some(_), Some(_)) => Kind::Consecution,
            (Some(_), None) => Kind::Safety,
            (None, None) => Kind::SafetyBeforeLoops,
        }
    }
}

/// The clauses, with each predicate's parameters (its cells' variables).
pub struct Clauses {
    pub params: Vec<Vec<Term>>,
    pub rules: Vec<Rule>,
    /// The bugs of the safety clauses, for the report.
    pub violations: Vec<ErrorRecord>,
}

impl Clauses {
    /// `t`, a formula over predicate `p`'s parameters, at the arguments `args` of a clause.
    pub fn at(&self, p: usize, t: &Term, args: &[Term]) -> Term {
        let map: rustc_hash::FxHashMap<Term, Term> = self.params[p]
            .iter()
            .cloned()
            .zip(args.iter().cloned())
            .collect();
        t.substitute(&map)
    }

    /// The guards of the rules `keep` selects and the values they carry to the next heads: the terms
    /// the candidate families look into.
    pub fn terms_of(&self, keep: impl Fn(&Rule) -> bool) -> Vec<Term> {
        let mut roots: Vec<Term> = Vec::new();
        for r in self.rules.iter().filter(|r| keep(r)) {
            roots.push(r.guard.clone());
            roots.extend(r.to.iter().flat_map(|(_, a)| a.iter().cloned()));
        }
        roots
    }

    /// The comparisons (`<`, `<=`, signed or unsigned, and `==`) in the runs from predicate `k`'s head
    /// between two distinct terms, each among `operands` or a constant and one among `operands`: at
    /// most `max`, in the order first met. The seeds of the candidates of [`crate::guards`] and the
    /// disjunctions of [`crate::congruence`].
    pub fn comparisons(&self, k: usize, operands: &[&Term], max: usize) -> Vec<Term> {
        let operand = |x: &Term| operands.contains(&x) || x.as_bv().is_some();
        self.comparisons_where(k, max, |a, b| {
            operand(a) && operand(b) && (operands.contains(&a) || operands.contains(&b))
        })
    }

    /// The comparisons in the runs from predicate `k`'s head between two distinct terms `a`, `b` for
    /// which `keep(a, b)`: at most `max`, in the order first met.
    pub fn comparisons_where(
        &self,
        k: usize,
        max: usize,
        keep: impl Fn(&Term, &Term) -> bool,
    ) -> Vec<Term> {
        let roots = self.terms_of(|r| r.from == Some(k));
        let mut out: Vec<Term> = Vec::new();
        symex_expr::visit::postorder(&roots, |t| {
            let a = t.args();
            let wanted = matches!(
                t.op(),
                Op::BvUlt | Op::BvUle | Op::BvSlt | Op::BvSle | Op::Eq
            ) && a[0] != a[1]
                && keep(&a[0], &a[1]);
            if wanted && out.len() < max && !out.contains(t) {
                out.push(t.clone());
            }
        });
        out
    }

    /// The constant values that clauses from elsewhere give parameter `i` of predicate `k` on arrival.
    pub fn constant_arrivals(&self, k: usize, i: usize) -> Vec<u128> {
        let mut out = Vec::new();
        for r in self.rules.iter().filter(|r| r.from != Some(k)) {
            let Some((to, args)) = &r.to else {
                continue;
            };
            if let Some(v) = args.get(i).and_then(Term::as_bv).filter(|_| *to == k) {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        out
    }

    /// The formula that the clause `r` is violated under when `invs` interpret the predicates: its
    /// guard, its body's invariant, and the negation of its head's at the arguments.
    pub fn violated(&self, r: &Rule, invs: &[Term]) -> Term {
        let mut q = r.guard.clone();
        if let Some(p) = r.from {
            q = q.and(&invs[p]);
        }
        if let Some((k, args)) = &r.to {
            q = q.and(&self.at(*k, &invs[*k], args).not());
        }
        q
    }
}

/// Whether `q` is satisfiable, asked through the solver chain of BMC's verdicts (not Spacer); a literal
/// `false` costs no query, every other one is counted in `queries`. `Err`: the solver's reason for
/// answering unknown.
pub fn satisfiable(
    shared: &Rc<RefCell<Shared>>,
    q: Term,
    queries: &mut u64,
) -> Result<bool, String> {
    if q.is_false() {
        return Ok(false);
    }
    *queries += 1;
    match shared.borrow_mut().check(&[q]) {
        symex_solver::SatResult::Unsat => Ok(false),
        symex_solver::SatResult::Sat(_) => Ok(true),
        symex_solver::SatResult::Unknown(u) => Err(u.to_string()),
    }
}

/// Builds the clauses of the entry function: the runs from its start, then from each loop head as it is
/// first reached, each to the next loop heads or the end. The cut points come back in the order they
/// were reached (the predicates' order).
pub fn encode(
    prog: &Program,
    opts: &Options,
    classify: &dyn Fn(BugKind) -> Class,
    shared: &Rc<RefCell<Shared>>,
) -> Result<(Vec<CutPoint>, Clauses), String> {
    let f = EntryFunction::of(prog, opts)?;
    let mut cps: Vec<CutPoint> = Vec::new();
    let mut c = Clauses {
        params: Vec::new(),
        rules: Vec::new(),
        violations: Vec::new(),
    };
    let start = Unwinder::new(prog, opts.clone(), shared.clone())
        .capturing_headers()
        .run()
        .map_err(|e| format!("the program cannot start: {e:?}"))?;
    complete(&start, "before the first loop")?;
    add(prog, &f, None, start, classify, &mut cps, &mut c, shared)?;
    let mut next = 0;
    while next < cps.len() {
        let seg = cps[next].segment(prog, opts, shared)?;
        add(
            prog,
            &f,
            Some(next),
            seg,
            classify,
            &mut cps,
            &mut c,
            shared,
        )?;
        next += 1;
    }
    if cps.is_empty() {
        return Err("no run reaches a loop".into());
    }
    c.params = cps
        .iter()
        .map(|cp| cp.cells.iter().map(|x| x.var.clone()).collect())
        .collect();
    Ok((cps, c))
}

/// The clauses of the runs `seg` from `from`: one per violation, and one per loop head its runs arrive
/// at — those from elsewhere joined into one (as the first arrival from the start is), those along
/// `from`'s own back edges one each. A head reached for the first time becomes a cut point.
#[allow(clippy::too_many_arguments)]
fn add(
    prog: &Program,
    f: &EntryFunction,
    from: Option<usize>,
    seg: Formulas,
    classify: &dyn Fn(BugKind) -> Class,
    cps: &mut Vec<CutPoint>,
    c: &mut Clauses,
    shared: &Rc<RefCell<Shared>>,
) -> Result<(), String> {
    for e in seg.errors {
        if classify(e.bug.kind) != Class::End {
            c.rules.push(Rule {
                from,
                guard: e.guard.clone(),
                to: None,
            });
            c.violations.push(e);
        }
    }
    let own = from.map(|p| cps[p].header);
    let mut arrivals: Vec<symex_engine::State<symex_bmc::guarded::Guarded>> = Vec::new();
    for s in seg.captured {
        let h = s.frames()[0].block;
        if own != Some(h.0) {
            if let Some(a) = arrivals.iter_mut().find(|a| a.frames()[0].block == h) {
                if join(prog, a, &s) {
                    continue;
                }
            }
        }
        arrivals.push(s);
    }
    for s in arrivals {
        let h = s.frames()[0].block.0;
        let k = match cps.iter().position(|cp| cp.header == h) {
            Some(k) => k,
            None => {
                cps.push(CutPoint::at(prog, f, &s, shared)?);
                cps.len() - 1
            }
        };
        let args = cps[k].values(prog, &s, shared)?;
        c.rules.push(Rule {
            from,
            guard: s.dom.guard.clone(),
            to: Some((k, args)),
        });
    }
    Ok(())
}

/// Clause systems for the candidate families' unit tests.
#[cfg(test)]
pub mod fixtures {
    use super::{Clauses, Rule};
    use symex_expr::{Sort, Term};

    /// A 32-bit variable.
    pub fn var(name: &str) -> Term {
        Term::var(name, Sort::bv(32))
    }

    /// A 32-bit constant.
    pub fn bv(v: u128) -> Term {
        Term::bv(v, 32)
    }

    /// One loop over `params`, `params = init; while (guard) params = step;`: the arrival from the
    /// start and the back edge.
    pub fn one_loop(params: &[Term], init: Vec<Term>, guard: Term, step: Vec<Term>) -> Clauses {
        Clauses {
            params: vec![params.to_vec()],
            rules: vec![
                Rule {
                    from: None,
                    guard: Term::tt(),
                    to: Some((0, init)),
                },
                Rule {
                    from: Some(0),
                    guard,
                    to: Some((0, step)),
                },
            ],
            violations: Vec::new(),
        }
    }
}
