//! The symbolic domain: values are hash-consed bit-vector terms, bytes are 8-bit terms, inputs are fresh
//! variables, and every decision consults the path condition (King 1976): a side whose conjunction with
//! the path condition is unsatisfiable is not followed; when both are satisfiable the state follows one
//! and asks the executor for a sibling that follows the other ([`ForkRequest`]).
//!
//! The semantics call [`Domain::decide`] deep inside an instruction, where the state cannot be cloned.
//! So a fork is described, not performed: the answers this step gave so far plus the other answer
//! ([`Forced`]). The executor re-runs the step from its snapshot with those answers forced, which
//! rebuilds exactly the sibling (the step is a function of the snapshot and the answers).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use symex_engine::domain::{
    BinOp, CastOp, CmpOp, Decision, Domain, InputRequest, OverflowOp, UnOp, Width,
};
use symex_expr::{Model, Op, Sort, Term, Value};
use symex_solver::{SatResult, Solver};

/// What the solver is shared as: one per exploration (Z3 contexts are per thread).
pub struct SolverCtx {
    pub solver: Box<dyn Solver>,
    /// Queries sent to the solver chain.
    pub queries: u64,
    /// Time spent in them.
    pub time: Duration,
}

impl SolverCtx {
    pub fn new(solver: Box<dyn Solver>) -> Rc<RefCell<SolverCtx>> {
        Rc::new(RefCell::new(SolverCtx {
            solver,
            queries: 0,
            time: Duration::ZERO,
        }))
    }

    fn check(&mut self, q: &[Term]) -> SatResult {
        let t = Instant::now();
        let r = self.solver.check(q);
        self.queries += 1;
        self.time += t.elapsed();
        r
    }
}

/// One answer of a decision point, as replayed into a sibling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forced {
    /// The answer of a `decide`.
    Bool(bool),
    /// The value a `choose` picked.
    Value(u128),
    /// A `choose` that must pick a value outside this set (the siblings that took them exist).
    Exclude(Vec<u128>),
}

/// A sibling to build: re-run the step from its snapshot with these answers forced.
#[derive(Clone, Debug)]
pub struct ForkRequest {
    pub answers: Vec<Forced>,
    /// A model of the sibling's path condition (found by the feasibility query).
    pub model: Arc<Model>,
}

/// One input the path asked for: its name in test files and its byte variables.
#[derive(Clone, Debug)]
pub struct InputVars {
    pub name: String,
    pub bytes: Vec<Term>,
}

/// The symbolic value domain of one state: its path condition and what the current step decided.
#[derive(Clone)]
pub struct Symbolic {
    ctx: Rc<RefCell<SolverCtx>>,
    /// The path condition, a conjunction.
    pub pc: Vec<Term>,
    /// A model of `pc`, when one is known (saves the solver the side it would confirm).
    model: Option<Arc<Model>>,
    /// The inputs, in the order the program asked for them.
    pub inputs: Vec<InputVars>,
    /// Answers to force at the next decisions (a sibling being rebuilt).
    forced: VecDeque<Forced>,
    /// Answers of the non-constant decisions of the current step.
    step_log: Vec<Forced>,
    /// Siblings the current step asks for.
    forks: Vec<ForkRequest>,
    /// Set when the path cannot go on soundly (the solver gave no answer): the executor cuts it.
    pub killed: Option<String>,
    /// Why exploring this path is not exhaustive (a value fixed where others were possible).
    pub incomplete: Vec<String>,
    /// Forks along the path (`--max-depth`).
    pub depth: u32,
}

impl std::fmt::Debug for Symbolic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Symbolic")
            .field("pc", &self.pc)
            .field("inputs", &self.inputs.len())
            .finish()
    }
}

/// A width-1 value as a Boolean term (undoing the `ite(c, 1, 0)` that comparisons build).
pub fn to_bool(t: &Term) -> Term {
    if let Op::Ite = t.op() {
        if t.arg(1).as_bv() == Some(1) && t.arg(2).as_bv() == Some(0) {
            return t.arg(0).clone();
        }
    }
    match t.as_bv() {
        Some(v) => Term::bool(v & 1 == 1),
        None => t.eq(&Term::bv(1, 1)),
    }
}

fn bv_of_value(v: &Value) -> u128 {
    match v {
        Value::Bv { value, .. } => *value,
        Value::Bool(b) => *b as u128,
        _ => 0,
    }
}

impl Symbolic {
    /// A fresh domain (empty path condition) using the shared solver.
    pub fn new(ctx: Rc<RefCell<SolverCtx>>) -> Symbolic {
        Symbolic {
            ctx,
            pc: Vec::new(),
            model: Some(Arc::new(Model::new())),
            inputs: Vec::new(),
            forced: VecDeque::new(),
            step_log: Vec::new(),
            forks: Vec::new(),
            killed: None,
            incomplete: Vec::new(),
            depth: 0,
        }
    }

    /// Prepares a step: no answers logged, no siblings requested.
    pub fn begin_step(&mut self) {
        self.step_log.clear();
        self.forks.clear();
    }

    /// Makes this domain a sibling under construction: `answers` are forced at the next decisions and
    /// `model` is a model of the path condition the sibling will have.
    pub fn force(&mut self, answers: Vec<Forced>, model: Arc<Model>) {
        self.forced = answers.into();
        self.model = Some(model);
        self.depth += 1;
    }

    /// The siblings the step asked for (taken: a second call returns none).
    pub fn take_forks(&mut self) -> Vec<ForkRequest> {
        std::mem::take(&mut self.forks)
    }

    /// Whether forced answers are still waiting (a sibling re-run diverged from its original).
    pub fn forced_left(&self) -> usize {
        self.forced.len()
    }

    /// A model of the path condition (asking the solver when none is known); `None` when the solver
    /// gave no answer or the path condition is unsatisfiable (the path is then killed).
    pub fn current_model(&mut self) -> Option<Arc<Model>> {
        if let Some(m) = &self.model {
            return Some(m.clone());
        }
        let r = self.ctx.borrow_mut().check(&self.pc);
        match r {
            SatResult::Sat(m) => {
                self.model = Some(m.clone());
                Some(m)
            }
            SatResult::Unsat => {
                self.kill("the path condition became unsatisfiable".into());
                None
            }
            SatResult::Unknown(u) => {
                self.kill(u.to_string());
                None
            }
        }
    }

    fn kill(&mut self, why: String) {
        if self.killed.is_none() {
            self.killed = Some(why);
        }
    }

    /// Adds `c` to the path condition, keeping the model when it still satisfies it.
    fn constrain(&mut self, c: Term) {
        if c.is_true() {
            return;
        }
        if let Some(m) = &self.model {
            if m.eval_bool(&c) != Ok(true) {
                self.model = None;
            }
        }
        self.pc.push(c);
    }

    /// Whether `pc ∧ c` is satisfiable, with a model if so (`Err` when the solver gives no answer).
    fn feasible(&mut self, c: &Term) -> Result<Option<Arc<Model>>, String> {
        if c.is_false() {
            return Ok(None);
        }
        let mut q = Vec::with_capacity(self.pc.len() + 1);
        q.extend_from_slice(&self.pc);
        q.push(c.clone());
        match self.ctx.borrow_mut().check(&q) {
            SatResult::Sat(m) => Ok(Some(m)),
            SatResult::Unsat => Ok(None),
            SatResult::Unknown(u) => Err(u.to_string()),
        }
    }

    fn eval(&mut self, t: &Term) -> Option<u128> {
        let m = self.current_model()?;
        m.eval(t).ok().map(|v| bv_of_value(&v))
    }

    /// The least value `v` can take (binary search), for allocation sizes.
    fn minimum(&mut self, v: &Term, w: Width) -> Option<u128> {
        let mut hi = self.eval(v)?;
        let mut lo = 0u128;
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.feasible(&v.bvule(&Term::bv(mid, w))) {
                Ok(Some(_)) => hi = mid,
                Ok(None) => lo = mid + 1,
                Err(e) => {
                    self.kill(e);
                    return None;
                }
            }
        }
        Some(lo)
    }

    /// A `choose` that forks over every feasible value: picks the model's value and asks for a sibling
    /// that excludes it (and the values excluded before) when another value is feasible.
    fn choose_forking(&mut self, v: &Term, mut excluded: Vec<u128>, w: Width) -> u128 {
        let Some(x) = self.eval(v) else { return 0 };
        let xt = Term::bv(x, w);
        match self.feasible(&v.ne(&xt)) {
            Ok(Some(m)) => {
                excluded.push(x);
                let mut answers = self.step_log.clone();
                answers.push(Forced::Exclude(excluded));
                self.forks.push(ForkRequest { answers, model: m });
            }
            Ok(None) => {}
            Err(e) => self.kill(e),
        }
        self.constrain(v.eq(&xt));
        self.step_log.push(Forced::Value(x));
        x
    }
}

fn bin(op: BinOp, a: &Term, b: &Term) -> Term {
    match op {
        BinOp::Add => a.bvadd(b),
        BinOp::Sub => a.bvsub(b),
        BinOp::Mul => a.bvmul(b),
        BinOp::UDiv => a.bvudiv(b),
        BinOp::SDiv => a.bvsdiv(b),
        BinOp::URem => a.bvurem(b),
        BinOp::SRem => a.bvsrem(b),
        BinOp::Shl => a.bvshl(b),
        BinOp::LShr => a.bvlshr(b),
        BinOp::AShr => a.bvashr(b),
        BinOp::And => a.bvand(b),
        BinOp::Or => a.bvor(b),
        BinOp::Xor => a.bvxor(b),
        BinOp::UMin => a.bvule(b).ite(a, b),
        BinOp::UMax => a.bvule(b).ite(b, a),
        BinOp::SMin => a.bvsle(b).ite(a, b),
        BinOp::SMax => a.bvsle(b).ite(b, a),
    }
}

fn compare(op: CmpOp, a: &Term, b: &Term) -> Term {
    match op {
        CmpOp::Eq => a.eq(b),
        CmpOp::Ne => a.ne(b),
        CmpOp::Ult => a.bvult(b),
        CmpOp::Ule => a.bvule(b),
        CmpOp::Ugt => a.bvugt(b),
        CmpOp::Uge => a.bvuge(b),
        CmpOp::Slt => a.bvslt(b),
        CmpOp::Sle => a.bvsle(b),
        CmpOp::Sgt => a.bvsgt(b),
        CmpOp::Sge => a.bvsge(b),
    }
}

fn bit(a: &Term, i: u32) -> Term {
    a.extract(i, i)
}

/// The sign bit of `a` as a Boolean.
fn negative(a: &Term, w: Width) -> Term {
    bit(a, w - 1).eq(&Term::bv(1, 1))
}

fn unary(op: UnOp, w: Width, a: &Term) -> Term {
    match op {
        UnOp::Not => a.bvnot(),
        UnOp::Neg => a.bvneg(),
        UnOp::Abs => negative(a, w).ite(&a.bvneg(), a),
        UnOp::Ctpop => (0..w).fold(Term::bv(0, w), |acc, i| acc.bvadd(&bit(a, i).zext_to(w))),
        // Leading zeros: the position of the highest set bit, found from the bottom up.
        UnOp::Ctlz => (0..w).fold(Term::bv(w as u128, w), |acc, i| {
            bit(a, i)
                .eq(&Term::bv(1, 1))
                .ite(&Term::bv((w - 1 - i) as u128, w), &acc)
        }),
        UnOp::Cttz => (0..w).rev().fold(Term::bv(w as u128, w), |acc, i| {
            bit(a, i)
                .eq(&Term::bv(1, 1))
                .ite(&Term::bv(i as u128, w), &acc)
        }),
        UnOp::Bswap => {
            let n = w / 8;
            (1..n).fold(a.extract(7, 0), |acc, i| {
                acc.concat(&a.extract(8 * i + 7, 8 * i))
            })
        }
        UnOp::BitReverse => (1..w).fold(bit(a, 0), |acc, i| acc.concat(&bit(a, i))),
    }
}

fn overflow(op: OverflowOp, w: Width, a: &Term, b: &Term) -> Term {
    let wide = 2 * w <= symex_expr::MAX_BV_WIDTH;
    match op {
        OverflowOp::UAdd => a.bvadd(b).bvult(a),
        OverflowOp::USub => a.bvult(b),
        OverflowOp::SAdd => {
            let r = a.bvadd(b);
            negative(a, w)
                .eq(&negative(b, w))
                .and(&negative(&r, w).eq(&negative(a, w)).not())
        }
        OverflowOp::SSub => {
            let r = a.bvsub(b);
            negative(a, w)
                .eq(&negative(b, w))
                .not()
                .and(&negative(&r, w).eq(&negative(a, w)).not())
        }
        OverflowOp::UMul if wide => {
            let full = a.zext(w).bvmul(&b.zext(w));
            full.extract(2 * w - 1, w).ne(&Term::bv(0, w))
        }
        OverflowOp::SMul if wide => {
            let full = a.sext(w).bvmul(&b.sext(w));
            full.extract(w - 1, 0).sext(w).ne(&full)
        }
        // 128-bit products: the division check (a ≠ 0 and r / a ≠ b), plus MIN * -1 for signed.
        OverflowOp::UMul => {
            let r = a.bvmul(b);
            a.ne(&Term::bv(0, w)).and(&r.bvudiv(a).ne(b))
        }
        OverflowOp::SMul => {
            let r = a.bvmul(b);
            let min = Term::bv(1 << (w - 1), w);
            let m1 = Term::bv(u128::MAX, w);
            let special = a.eq(&m1).and(&b.eq(&min)).or(&b.eq(&m1).and(&a.eq(&min)));
            special.or(&a.ne(&Term::bv(0, w)).and(&r.bvsdiv(a).ne(b)))
        }
    }
}

fn bool_bv(c: Term) -> Term {
    c.bool_to_bv1()
}

impl Domain for Symbolic {
    type Val = Term;
    type Byte = Term;

    #[inline]
    fn constant(&mut self, w: Width, bits: u128) -> Term {
        Term::bv(bits & symex_expr::bvsem::mask(w), w)
    }
    #[inline]
    fn as_const(&self, v: &Term) -> Option<u128> {
        v.as_bv()
    }
    fn binop(&mut self, op: BinOp, _w: Width, a: &Term, b: &Term) -> Term {
        bin(op, a, b)
    }
    fn cmp(&mut self, op: CmpOp, _w: Width, a: &Term, b: &Term) -> Term {
        bool_bv(compare(op, a, b))
    }
    fn unop(&mut self, op: UnOp, w: Width, a: &Term) -> Term {
        unary(op, w, a)
    }
    fn cast(&mut self, op: CastOp, _from: Width, to: Width, a: &Term) -> Term {
        match op {
            CastOp::Trunc | CastOp::ZExt => a.zext_to(to),
            CastOp::SExt => a.sext_to(to),
        }
    }
    fn ite(&mut self, c: &Term, _w: Width, a: &Term, b: &Term) -> Term {
        to_bool(c).ite(a, b)
    }
    fn overflows(&mut self, op: OverflowOp, w: Width, a: &Term, b: &Term) -> Term {
        bool_bv(overflow(op, w, a, b))
    }
    fn funnel_shift(&mut self, left: bool, w: Width, a: &Term, b: &Term, s: &Term) -> Term {
        let s = s.bvurem(&Term::bv(w as u128, w));
        if 2 * w > symex_expr::MAX_BV_WIDTH {
            // shl/lshr by w are 0 in SMT-LIB, so the s = 0 case needs its own arm.
            let zero = s.eq(&Term::bv(0, w));
            let inv = Term::bv(w as u128, w).bvsub(&s);
            return if left {
                zero.ite(a, &a.bvshl(&s).bvor(&b.bvlshr(&inv)))
            } else {
                zero.ite(b, &a.bvshl(&inv).bvor(&b.bvlshr(&s)))
            };
        }
        let both = a.concat(b);
        let s2 = s.zext(w);
        if left {
            both.bvshl(&s2).extract(2 * w - 1, w)
        } else {
            both.bvlshr(&s2).extract(w - 1, 0)
        }
    }
    #[inline]
    fn const_byte(&mut self, b: u8) -> Term {
        Term::bv(b as u128, 8)
    }
    #[inline]
    fn byte_as_const(&self, b: &Term) -> Option<u8> {
        b.as_bv().map(|v| v as u8)
    }
    fn val_to_bytes(&mut self, v: &Term, _w: Width, out: &mut [Term]) {
        let n = out.len() as u32;
        let full = v.zext_to(8 * n);
        for (i, o) in out.iter_mut().enumerate() {
            let i = i as u32;
            *o = full.extract(8 * i + 7, 8 * i);
        }
    }
    fn bytes_to_val(&mut self, bytes: &[Term], w: Width) -> Term {
        let mut acc = bytes[0].clone();
        for b in &bytes[1..] {
            acc = b.concat(&acc);
        }
        acc.zext_to(w)
    }

    fn decide(&mut self, _why: Decision, cond: &Term) -> bool {
        let c = to_bool(cond);
        if let Some(b) = c.as_bool() {
            return b;
        }
        if let Some(f) = self.forced.pop_front() {
            let b = matches!(f, Forced::Bool(true));
            self.constrain(if b { c } else { c.not() });
            self.step_log.push(Forced::Bool(b));
            return b;
        }
        let Some(m) = self.current_model() else {
            return false;
        };
        let side = m.eval_bool(&c).unwrap_or(true);
        let other = if side { c.not() } else { c.clone() };
        match self.feasible(&other) {
            Ok(Some(m2)) => {
                let mut answers = self.step_log.clone();
                answers.push(Forced::Bool(!side));
                self.forks.push(ForkRequest { answers, model: m2 });
            }
            Ok(None) => {}
            Err(e) => self.kill(e),
        }
        self.constrain(if side { c } else { c.not() });
        self.step_log.push(Forced::Bool(side));
        side
    }

    fn choose(&mut self, why: Decision, v: &Term, w: Width) -> u128 {
        if let Some(x) = v.as_bv() {
            return x;
        }
        match why {
            // Printed values and exit codes steer no branch: any value of the path will do, and the
            // path condition stays as it is (the test's replay prints its own).
            Decision::Output => self.eval(v).unwrap_or(0),
            Decision::AllocSize => {
                let Some(x) = self.minimum(v, w) else {
                    return 0;
                };
                self.incomplete.push(format!(
                    "a symbolic allocation size was fixed to its least value {x}"
                ));
                self.constrain(v.eq(&Term::bv(x, w)));
                x
            }
            _ => match self.forced.pop_front() {
                Some(Forced::Value(x)) => {
                    self.constrain(v.eq(&Term::bv(x, w)));
                    self.step_log.push(Forced::Value(x));
                    x
                }
                Some(Forced::Exclude(set)) => {
                    for &x in &set {
                        self.constrain(v.ne(&Term::bv(x, w)));
                    }
                    self.choose_forking(v, set, w)
                }
                Some(Forced::Bool(_)) => {
                    self.kill("a sibling's forced answers did not match its decisions".into());
                    0
                }
                None => self.choose_forking(v, Vec::new(), w),
            },
        }
    }

    fn assume(&mut self, cond: &Term) -> bool {
        let c = to_bool(cond);
        if let Some(b) = c.as_bool() {
            return b;
        }
        if let Some(m) = &self.model {
            if m.eval_bool(&c) == Ok(true) {
                self.pc.push(c);
                return true;
            }
        }
        match self.feasible(&c) {
            Ok(Some(m)) => {
                self.pc.push(c);
                self.model = Some(m);
                true
            }
            Ok(None) => false,
            Err(e) => {
                self.kill(e);
                false
            }
        }
    }

    fn input(&mut self, req: InputRequest<'_>, n: usize) -> Vec<Term> {
        let k = self.inputs.len();
        let bytes: Vec<Term> = (0..n)
            .map(|i| Term::var(&format!("in{k}_{i}"), Sort::bv(8)))
            .collect();
        self.inputs.push(InputVars {
            name: req.name(),
            bytes: bytes.clone(),
        });
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_engine::concrete;
    use symex_solver::SolverConfig;

    fn dom() -> Symbolic {
        Symbolic::new(SolverCtx::new(SolverConfig::default().build()))
    }

    /// Every operation agrees with the concrete domain on constants (the terms fold exactly).
    #[test]
    fn constant_folding_agrees_with_the_concrete_domain() {
        let mut d = dom();
        let samples: [u128; 6] = [0, 1, 7, 0x7f, 0x80, 0xff];
        let ops = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Shl,
            BinOp::LShr,
            BinOp::AShr,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::UMin,
            BinOp::SMax,
        ];
        for &a in &samples {
            for &b in &samples {
                for op in ops {
                    let (ta, tb) = (d.constant(8, a), d.constant(8, b));
                    assert_eq!(
                        d.binop(op, 8, &ta, &tb).as_bv(),
                        Some(concrete::binop(op, 8, a, b)),
                        "{op:?} {a} {b}"
                    );
                }
                for op in [
                    OverflowOp::SAdd,
                    OverflowOp::UAdd,
                    OverflowOp::SSub,
                    OverflowOp::USub,
                    OverflowOp::SMul,
                    OverflowOp::UMul,
                ] {
                    let (ta, tb) = (d.constant(8, a), d.constant(8, b));
                    assert_eq!(
                        d.overflows(op, 8, &ta, &tb).as_bv(),
                        Some(concrete::overflows(op, 8, a, b) as u128),
                        "{op:?} {a} {b}"
                    );
                }
            }
            for op in [
                UnOp::Ctpop,
                UnOp::Ctlz,
                UnOp::Cttz,
                UnOp::Abs,
                UnOp::BitReverse,
            ] {
                let ta = d.constant(8, a);
                assert_eq!(
                    d.unop(op, 8, &ta).as_bv(),
                    Some(concrete::unop(op, 8, a)),
                    "{op:?} {a}"
                );
            }
        }
    }

    #[test]
    fn bytes_round_trip_to_the_same_term() {
        let mut d = dom();
        let x = Term::var("x", Sort::bv(32));
        let mut bytes = vec![Term::bv(0, 8); 4];
        d.val_to_bytes(&x, 32, &mut bytes);
        assert_eq!(d.bytes_to_val(&bytes, 32), x);
    }

    #[test]
    fn a_branch_on_an_input_forks() {
        let mut d = dom();
        let b = d.input(InputRequest::Named("x"), 1);
        let x = d.bytes_to_val(&b, 8);
        let ten = d.constant(8, 10);
        let c = d.cmp(CmpOp::Ult, 8, &x, &ten);
        d.begin_step();
        let side = d.decide(Decision::Branch, &c);
        let forks = d.take_forks();
        assert_eq!(forks.len(), 1);
        assert_eq!(forks[0].answers, vec![Forced::Bool(!side)]);
        // The same question again is decided by the path condition alone.
        d.begin_step();
        assert_eq!(d.decide(Decision::Branch, &c), side);
        assert!(d.take_forks().is_empty());
    }
}
