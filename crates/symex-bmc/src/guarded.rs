//! The value domain of merging symbolic execution: the symbolic domain's terms, with a *guard* in place of
//! a path condition. A decision on a symbolic condition does not ask the solver whether a side is feasible
//! (that is what makes BMC one query per property): the state follows one side and asks the executor for a
//! sibling that follows the other, each conjoining its side to its guard. A side whose guard is
//! unsatisfiable is simply never satisfiable in the final formula.
//!
//! Computing on values is delegated to `symex-explore`'s [`Symbolic`] domain unchanged (one term
//! construction for `run` and `bmc`); only the decision points and the inputs are this domain's own.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use symex_engine::domain::{
    BinOp, CastOp, CmpOp, Decision, Domain, InputRequest, OverflowOp, UnOp, Width,
};
use symex_explore::symbolic::{to_bool, SymByte, SymVal};
use symex_explore::{SolverCtx, Symbolic};
use symex_expr::{Op, Sort, Term, Value};
use symex_solver::SatResult;

/// One answer of a decision point, replayed into a sibling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Bool(bool),
    Value(u128),
    /// A `choose` that must pick a value outside this set.
    Exclude(Vec<u128>),
}

/// An input the program asked for, under the guard of the state that asked: in a merged state the
/// inputs of several paths interleave, and a model of an error formula picks the ones of its path by
/// their guards (in the order they were asked, which is the path's own order).
#[derive(Debug)]
pub struct InputEvent {
    pub name: String,
    pub guard: Term,
    pub bytes: Vec<Term>,
}

/// What the states of one run share: the solver (for the few `choose` questions that need values), the
/// counter that keeps input variables fresh across siblings and merged states, and query counts.
pub struct Shared {
    pub ctx: Rc<RefCell<SolverCtx>>,
    next_input: u64,
    /// Queries asked while executing (values of symbolic pointers and sizes), not the verdict's.
    pub aux_queries: u64,
    /// No query runs past it (`--max-time`).
    pub deadline: Option<std::time::Instant>,
    /// The most `aux_queries` a run may ask (`None`: no count): past it a value that needs the solver
    /// ends its state as unmodelled, with the reason. The Horn-clause encoding sets it: a loop that
    /// copies a buffer through a pointer its head makes symbolic asks one query per chunk.
    pub aux_limit: Option<u64>,
}

impl Shared {
    pub fn new(ctx: Rc<RefCell<SolverCtx>>) -> Rc<RefCell<Shared>> {
        Rc::new(RefCell::new(Shared {
            ctx,
            next_input: 0,
            aux_queries: 0,
            deadline: None,
            aux_limit: None,
        }))
    }

    /// A fresh number for a variable name (inputs, havocked values).
    pub fn fresh(&mut self) -> u64 {
        self.next_input += 1;
        self.next_input
    }

    /// A satisfiability check through the shared solver, ending by the deadline.
    pub fn check(&mut self, q: &[Term]) -> SatResult {
        let mut ctx = self.ctx.borrow_mut();
        if let Some(d) = self.deadline {
            let left = d.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return SatResult::Unknown(symex_solver::Unknown(
                    "the time limit was reached".into(),
                ));
            }
            ctx.solver.set_timeout(Some(left));
        }
        ctx.solver.check(q)
    }
}

/// Names of the variables that stand for the difference between a real address and the model's.
pub const ADDRESS_PREFIX: &str = "bmc_addr";

/// Most values one `choose` enumerates before the state gives up (a symbolic size without bound).
const MAX_CHOICES: usize = 64;

/// The domain of one merging state.
#[derive(Clone)]
pub struct Guarded {
    ops: Symbolic,
    shared: Rc<RefCell<Shared>>,
    /// The condition under which a run is in this state (a disjunction of path conditions once merged).
    pub guard: Term,
    /// The inputs asked along the paths this state stands for.
    pub events: Vec<Rc<InputEvent>>,
    forced: VecDeque<Answer>,
    step_log: Vec<Answer>,
    forks: Vec<Vec<Answer>>,
    /// Set when the state cannot go on soundly (a solver without answer, too many values).
    pub killed: Option<String>,
}

impl std::fmt::Debug for Guarded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guarded")
            .field("guard", &self.guard)
            .finish()
    }
}

impl Guarded {
    pub fn new(shared: Rc<RefCell<Shared>>) -> Guarded {
        let ctx = shared.borrow().ctx.clone();
        Guarded {
            ops: Symbolic::new(ctx),
            shared,
            guard: Term::tt(),
            events: Vec::new(),
            forced: VecDeque::new(),
            step_log: Vec::new(),
            forks: Vec::new(),
            killed: None,
        }
    }

    pub fn begin_step(&mut self) {
        self.step_log.clear();
        self.forks.clear();
    }

    /// Makes this domain a sibling under construction: `answers` are forced at the next decisions.
    pub fn force(&mut self, answers: Vec<Answer>) {
        self.forced = answers.into();
    }

    /// The siblings the step asked for; leftover forced answers mean a re-run diverged.
    pub fn end_step(&mut self) -> Vec<Vec<Answer>> {
        if !self.forced.is_empty() {
            self.kill("internal: a sibling diverged from its fork".into());
            self.forced.clear();
        }
        std::mem::take(&mut self.forks)
    }

    pub fn forked(&self) -> bool {
        !self.forks.is_empty()
    }

    fn kill(&mut self, why: String) {
        if self.killed.is_none() {
            self.killed = Some(why);
        }
    }

    fn constrain(&mut self, c: Term) {
        self.guard = self.guard.and(&c);
    }

    /// Joins `other` into this domain: the guard becomes the disjunction, and the input events the
    /// common prefix followed by the events only one side asked (disjoint guards keep each path's own).
    pub fn join(&mut self, other: &Guarded) {
        self.guard = self.guard.or(&other.guard);
        let common = self
            .events
            .iter()
            .zip(&other.events)
            .take_while(|(a, b)| Rc::ptr_eq(a, b))
            .count();
        self.events.extend(other.events[common..].iter().cloned());
    }

    /// A value of `v` under the guard (and `extra`), asking the solver; `None`: no such value.
    fn some_value(&mut self, v: &Term, extra: &[Term]) -> Result<Option<u128>, String> {
        let mut q = vec![self.guard.clone()];
        q.extend_from_slice(extra);
        let mut sh = self.shared.borrow_mut();
        if let Some(n) = sh.aux_limit.filter(|&n| sh.aux_queries >= n) {
            return Err(format!(
                "more than {n} solver queries for the values of symbolic pointers and sizes"
            ));
        }
        sh.aux_queries += 1;
        match sh.check(&q) {
            SatResult::Sat(m) => Ok(Some(match m.eval(v) {
                Ok(Value::Bv { value, .. }) => value,
                _ => 0,
            })),
            SatResult::Unsat => Ok(None),
            SatResult::Unknown(u) => Err(u.to_string()),
        }
    }
}

/// Most `ite` liftings one load does (each splits the bytes in two; this bounds the work).
const LIFT_BUDGET: u32 = 1024;

fn byte_term(b: &SymByte) -> Term {
    match b {
        SymByte::Const(c) => Term::bv(*c as u128, 8),
        SymByte::Sym(t) => t.clone(),
    }
}

fn byte_of(t: Term) -> SymByte {
    match t.as_bv() {
        Some(c) => SymByte::Const(c as u8),
        None => SymByte::Sym(t),
    }
}

/// The term whose little-endian bytes `bytes` are, when one is: a byte that extracts bits of a term `t`
/// names the candidate, and every byte must be what extracting it from `t` builds (the term constructors
/// simplify an extract the same way each time, so the comparison is structural).
fn recombine(bytes: &[SymByte]) -> Option<Term> {
    let n = bytes.len() as u32;
    let t = bytes.iter().enumerate().find_map(|(i, b)| match b {
        SymByte::Sym(x) => match x.op() {
            Op::Extract { lo, .. } if *lo == 8 * i as u32 => Some(x.args()[0].clone()),
            _ => None,
        },
        SymByte::Const(_) => None,
    })?;
    if t.width() != 8 * n {
        return None;
    }
    let same = bytes
        .iter()
        .enumerate()
        .all(|(i, b)| t.extract(8 * i as u32 + 7, 8 * i as u32) == byte_term(b));
    same.then_some(t)
}

impl Guarded {
    fn word_level(&mut self, bytes: &[SymByte], w: Width, budget: &mut u32) -> SymVal {
        if bytes.len() > 1 {
            if let Some(t) = recombine(bytes) {
                return SymVal::from_term(if t.width() > w {
                    t.extract(w - 1, 0)
                } else {
                    t.zext_to(w)
                });
            }
            if *budget > 0 {
                if let Some(v) = self.lift_ite(bytes, w, budget) {
                    return v;
                }
            }
        }
        self.ops.bytes_to_val(bytes, w)
    }

    /// `concat(ite(c, a₁, b₁), …) = ite(c, concat(a₁, …), concat(b₁, …))` when every byte is an `ite` on
    /// `c` or a constant.
    fn lift_ite(&mut self, bytes: &[SymByte], w: Width, budget: &mut u32) -> Option<SymVal> {
        let cond = bytes.iter().find_map(|b| match b {
            SymByte::Sym(t) if *t.op() == Op::Ite => Some(t.args()[0].clone()),
            _ => None,
        })?;
        let mut thens = Vec::with_capacity(bytes.len());
        let mut elses = Vec::with_capacity(bytes.len());
        for b in bytes {
            match b {
                SymByte::Const(_) => {
                    thens.push(b.clone());
                    elses.push(b.clone());
                }
                SymByte::Sym(t) if *t.op() == Op::Ite && t.args()[0] == cond => {
                    thens.push(byte_of(t.args()[1].clone()));
                    elses.push(byte_of(t.args()[2].clone()));
                }
                SymByte::Sym(_) => return None,
            }
        }
        *budget -= 1;
        let a = self.word_level(&thens, w, budget);
        let b = self.word_level(&elses, w, budget);
        Some(SymVal::from_term(cond.ite(&a.term(w), &b.term(w))))
    }
}

impl Domain for Guarded {
    type Val = SymVal;
    type Byte = SymByte;
    type Regs = symex_engine::regs::SharedRegs<SymVal>;

    #[inline]
    fn constant(&mut self, w: Width, bits: u128) -> SymVal {
        self.ops.constant(w, bits)
    }
    #[inline]
    fn as_const(&self, v: &SymVal) -> Option<u128> {
        v.as_const()
    }
    fn binop(&mut self, op: BinOp, w: Width, a: &SymVal, b: &SymVal) -> SymVal {
        self.ops.binop(op, w, a, b)
    }
    fn cmp(&mut self, op: CmpOp, w: Width, a: &SymVal, b: &SymVal) -> SymVal {
        if a.as_const().is_none() || b.as_const().is_none() {
            if let Some(x) = crate::order::decide(op, &a.term(w), &b.term(w)) {
                return SymVal::constant(x as u128, 1);
            }
        }
        self.ops.cmp(op, w, a, b)
    }
    fn unop(&mut self, op: UnOp, w: Width, a: &SymVal) -> SymVal {
        self.ops.unop(op, w, a)
    }
    fn cast(&mut self, op: CastOp, from: Width, to: Width, a: &SymVal) -> SymVal {
        self.ops.cast(op, from, to, a)
    }
    fn ite(&mut self, c: &SymVal, w: Width, a: &SymVal, b: &SymVal) -> SymVal {
        self.ops.ite(c, w, a, b)
    }
    fn overflows(&mut self, op: OverflowOp, w: Width, a: &SymVal, b: &SymVal) -> SymVal {
        self.ops.overflows(op, w, a, b)
    }
    fn funnel_shift(&mut self, left: bool, w: Width, a: &SymVal, b: &SymVal, s: &SymVal) -> SymVal {
        self.ops.funnel_shift(left, w, a, b, s)
    }
    fn const_byte(&mut self, b: u8) -> SymByte {
        SymByte::Const(b)
    }
    fn byte_as_const(&self, b: &SymByte) -> Option<u8> {
        self.ops.byte_as_const(b)
    }
    fn val_to_bytes(&mut self, v: &SymVal, w: Width, out: &mut [SymByte]) {
        self.ops.val_to_bytes(v, w, out)
    }
    /// The symbolic domain's concatenation, after two rewrites that keep merged values word-level (the
    /// solver then sees `ite(g, s₁, s₂)` where it would see four byte `ite`s of extracts): bytes that are
    /// the bytes of one term are that term, and bytes that are all `ite`s on one guard are one `ite`.
    fn bytes_to_val(&mut self, bytes: &[SymByte], w: Width) -> SymVal {
        let mut budget = LIFT_BUDGET;
        self.word_level(bytes, w, &mut budget)
    }

    fn decide(&mut self, _why: Decision, cond: &SymVal) -> bool {
        let c = match cond.split() {
            Ok(x) => return x & 1 == 1,
            Err(t) => to_bool(t),
        };
        if let Some(b) = c.as_bool() {
            return b;
        }
        let side = match self.forced.pop_front() {
            Some(Answer::Bool(b)) => b,
            Some(_) => {
                self.kill(
                    "internal: a sibling's forced answers did not match its decisions".into(),
                );
                false
            }
            None => {
                // No feasibility query: the other side becomes a sibling under the negated condition.
                let mut answers = self.step_log.clone();
                answers.push(Answer::Bool(false));
                self.forks.push(answers);
                true
            }
        };
        self.constrain(if side { c } else { c.not() });
        self.step_log.push(Answer::Bool(side));
        side
    }

    fn choose(&mut self, why: Decision, v: &SymVal, w: Width) -> u128 {
        let t = match v.split() {
            Ok(x) => return x,
            Err(t) => t.clone(),
        };
        if why == Decision::Output {
            // A printed value steers nothing; the replay prints its own.
            return 0;
        }
        let excluded = match self.forced.pop_front() {
            Some(Answer::Value(x)) => {
                self.constrain(t.eq(&Term::bv(x, w)));
                self.step_log.push(Answer::Value(x));
                return x;
            }
            Some(Answer::Exclude(set)) => set,
            None => Vec::new(),
            Some(Answer::Bool(_)) => {
                self.kill(
                    "internal: a sibling's forced answers did not match its decisions".into(),
                );
                return 0;
            }
        };
        if excluded.len() >= MAX_CHOICES {
            self.kill(format!(
                "a value ({why:?}) has more than {MAX_CHOICES} possibilities"
            ));
            return 0;
        }
        for &x in &excluded {
            self.constrain(t.ne(&Term::bv(x, w)));
        }
        let x = match self.some_value(&t, &[]) {
            Ok(Some(x)) => x,
            Ok(None) => {
                // No run takes this state: its guard is unsatisfiable.
                self.guard = Term::ff();
                return 0;
            }
            Err(e) => {
                self.kill(e);
                return 0;
            }
        };
        let mut others = excluded;
        others.push(x);
        let mut answers = self.step_log.clone();
        answers.push(Answer::Exclude(others));
        self.forks.push(answers);
        self.constrain(t.eq(&Term::bv(x, w)));
        self.step_log.push(Answer::Value(x));
        x
    }

    fn assume(&mut self, cond: &SymVal) -> bool {
        let c = match cond.split() {
            Ok(x) => return x & 1 == 1,
            Err(t) => to_bool(t),
        };
        self.constrain(c);
        !self.guard.is_false()
    }

    fn input(&mut self, req: InputRequest<'_>, n: usize) -> Vec<SymByte> {
        let k = {
            let mut sh = self.shared.borrow_mut();
            sh.next_input += 1;
            sh.next_input
        };
        let bytes: Vec<Term> = (0..n)
            .map(|i| Term::var(&format!("bmc{k}_{i}"), Sort::bv(8)))
            .collect();
        let out = bytes.iter().cloned().map(SymByte::Sym).collect();
        self.events.push(Rc::new(InputEvent {
            name: req.name(),
            guard: self.guard.clone(),
            bytes,
        }));
        out
    }

    /// The model's address plus a fresh unconstrained difference: a verdict then holds for every placement
    /// of the objects (the symbolic domain pins one difference per object to 0 and marks the path instead;
    /// fresh per conversion here, since variables named per state could be shared by merged states).
    fn observe_address(&mut self, ptr: &SymVal, _obj: Option<u32>) -> SymVal {
        let k = {
            let mut sh = self.shared.borrow_mut();
            sh.next_input += 1;
            sh.next_input
        };
        let delta = Term::var(&format!("{ADDRESS_PREFIX}{k}"), Sort::bv(64));
        SymVal::from_term(ptr.term(64).bvadd(&delta))
    }

    fn select(&mut self, bytes: &[SymByte], off: &SymVal, n: usize, w: Width) -> Option<SymVal> {
        self.ops.select(bytes, off, n, w)
    }

    fn update(
        &mut self,
        bytes: &mut [SymByte],
        off: &SymVal,
        v: &SymVal,
        n: usize,
        w: Width,
    ) -> bool {
        self.ops.update(bytes, off, v, n, w)
    }
}
