//! The concolic value domain (concrete + symbolic, the lecture's "Concolic execution"): every value is
//! the run's concrete bit pattern, plus a term over the input bytes when it depends on them. Decisions are
//! answered by the concrete value — the run never forks — and each one on a term is recorded as a conjunct
//! of the path condition. Where a term cannot be kept (a library model needs a number, an offset the
//! semantics fix), the value is concretised to the run's value and the equality recorded (SAGE's recovery).
//!
//! The terms are built by the symbolic domain's own operations ([`Symbolic`] used as a term builder: its
//! solver is never asked), so the concrete part is the interpreter's arithmetic and the symbolic part is
//! `symex run`'s, with no second copy of either.

use std::cell::RefCell;
use std::rc::Rc;
use symex_engine::concrete;
use symex_engine::domain::{
    BinOp, CastOp, CmpOp, Decision, Domain, InputRequest, OverflowOp, UnOp, Width,
};
use symex_engine::TestInput;
use symex_explore::symbolic::{to_bool, SymByte, SymVal};
use symex_explore::{SolverCtx, Symbolic};
use symex_expr::{Sort, Term};

/// A concolic value: the concrete bits, and the term they are an instance of (`None`: a constant).
#[derive(Clone, Debug)]
pub struct CVal {
    pub c: u128,
    pub t: Option<Term>,
}

/// A concolic byte.
#[derive(Clone, Debug, PartialEq)]
pub struct CByte {
    pub c: u8,
    pub t: Option<Term>,
}

/// What a conjunct of the path condition records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConjunctKind {
    /// A decision of the semantics (a branch, a switch case, a bounds or divisor check): negated by the
    /// generational search.
    Branch(Decision),
    /// A value fixed to the run's (`v == c`): kept in every prefix, never negated.
    Concretisation(Decision),
    /// `__VERIFIER_assume` / `klee_assume` (and the engine's own assumptions on inputs): kept when the run
    /// satisfied it; negated when the run failed it, since the run ends there and its other side — an
    /// input that satisfies the assumption — is the only way on.
    Assumption,
}

/// One conjunct of the path condition: the condition `cond` (Boolean term) and the side the run took.
#[derive(Clone, Debug)]
pub struct Conjunct {
    pub cond: Term,
    pub taken: bool,
    pub kind: ConjunctKind,
    /// The block (function, block) whose step decided it; set by the run loop.
    pub site: Option<(u32, u32)>,
}

impl Conjunct {
    /// The conjunct as the run satisfied it.
    pub fn holds(&self) -> Term {
        if self.taken {
            self.cond.clone()
        } else {
            self.cond.not()
        }
    }

    /// The conjunct with the other side.
    pub fn negated(&self) -> Term {
        if self.taken {
            self.cond.not()
        } else {
            self.cond.clone()
        }
    }

    /// Whether the search may negate it: a branch, or an assumption the run failed.
    pub fn is_branch(&self) -> bool {
        match self.kind {
            ConjunctKind::Branch(_) => true,
            ConjunctKind::Assumption => !self.taken,
            ConjunctKind::Concretisation(_) => false,
        }
    }
}

/// The name of the variable of byte `pos` of the input stream.
pub fn byte_var(pos: usize) -> Term {
    Term::var(&format!("b{pos}"), Sort::bv(8))
}

/// The position of an input-stream byte variable.
pub fn byte_pos(name: &str) -> Option<usize> {
    name.strip_prefix('b')?.parse().ok()
}

/// The concolic domain of one run.
#[derive(Clone)]
pub struct Concolic {
    sym: Symbolic,
    /// The input: one byte stream from which every input request takes its bytes, in order.
    stream: Rc<[u8]>,
    pos: usize,
    /// The bytes the run consumed (the stream, zero-extended when the program asked for more).
    pub consumed_bytes: Vec<u8>,
    /// The inputs the program asked for, as a test file names them.
    pub consumed: Vec<TestInput>,
    /// The path condition.
    pub pc: Vec<Conjunct>,
    /// Values fixed to the run's because no term could be kept.
    pub concretised: usize,
    /// Whether input bytes carry their variables. Without them no value has a term, so the run is the
    /// interpreter's concrete run (no term built, an empty path condition): what a run whose only use
    /// is its coverage needs.
    symbolic: bool,
}

impl std::fmt::Debug for Concolic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Concolic")
            .field("pc", &self.pc.len())
            .finish()
    }
}

impl Concolic {
    /// A domain reading the bytes of `stream`; `ctx` is only used to build the term builder.
    pub fn new(ctx: Rc<RefCell<SolverCtx>>, stream: &[u8]) -> Concolic {
        Concolic {
            sym: Symbolic::new(ctx),
            stream: stream.into(),
            pos: 0,
            consumed_bytes: Vec::new(),
            consumed: Vec::new(),
            pc: Vec::new(),
            concretised: 0,
            symbolic: true,
        }
    }

    /// A domain reading the bytes of `stream` concretely: no input byte has a variable.
    pub fn concrete(ctx: Rc<RefCell<SolverCtx>>, stream: &[u8]) -> Concolic {
        Concolic {
            symbolic: false,
            ..Concolic::new(ctx, stream)
        }
    }

    /// `a` in the symbolic domain, as a value of width `w`.
    fn lift(a: &CVal, w: Width) -> SymVal {
        match &a.t {
            Some(t) => SymVal::sym(t.clone()),
            None => SymVal::constant(a.c, w),
        }
    }

    fn lift_byte(b: &CByte) -> SymByte {
        match &b.t {
            Some(t) => SymByte::Sym(t.clone()),
            None => SymByte::Const(b.c),
        }
    }

    /// `c` with the term `s`, dropped when it folded to a constant.
    fn with(c: u128, s: SymVal) -> CVal {
        match s.split() {
            Ok(_) => CVal { c, t: None },
            Err(t) => CVal {
                c,
                t: Some(t.clone()),
            },
        }
    }

    fn record(&mut self, cond: Term, taken: bool, kind: ConjunctKind) {
        if cond.as_bool().is_some() {
            return;
        }
        self.pc.push(Conjunct {
            cond,
            taken,
            kind,
            site: None,
        });
    }
}

impl Domain for Concolic {
    type Val = CVal;
    type Byte = CByte;
    /// A concolic run follows one path and never clones its state.
    type Regs = symex_engine::regs::OwnedRegs<CVal>;

    fn constant(&mut self, w: Width, bits: u128) -> CVal {
        CVal {
            c: bits & concrete::mask(w),
            t: None,
        }
    }
    fn as_const(&self, v: &CVal) -> Option<u128> {
        v.t.is_none().then_some(v.c)
    }
    fn binop(&mut self, op: BinOp, w: Width, a: &CVal, b: &CVal) -> CVal {
        let c = concrete::binop(op, w, a.c, b.c);
        if a.t.is_none() && b.t.is_none() {
            return CVal { c, t: None };
        }
        let s = self.sym.binop(op, w, &Self::lift(a, w), &Self::lift(b, w));
        Self::with(c, s)
    }
    fn cmp(&mut self, op: CmpOp, w: Width, a: &CVal, b: &CVal) -> CVal {
        let c = concrete::cmp(op, w, a.c, b.c) as u128;
        if a.t.is_none() && b.t.is_none() {
            return CVal { c, t: None };
        }
        let s = self.sym.cmp(op, w, &Self::lift(a, w), &Self::lift(b, w));
        Self::with(c, s)
    }
    fn unop(&mut self, op: UnOp, w: Width, a: &CVal) -> CVal {
        let c = concrete::unop(op, w, a.c);
        if a.t.is_none() {
            return CVal { c, t: None };
        }
        let s = self.sym.unop(op, w, &Self::lift(a, w));
        Self::with(c, s)
    }
    fn cast(&mut self, op: CastOp, from: Width, to: Width, a: &CVal) -> CVal {
        let c = concrete::cast(op, from, to, a.c);
        if a.t.is_none() {
            return CVal { c, t: None };
        }
        let s = self.sym.cast(op, from, to, &Self::lift(a, from));
        Self::with(c, s)
    }
    fn ite(&mut self, cond: &CVal, w: Width, a: &CVal, b: &CVal) -> CVal {
        let pick = if cond.c & 1 == 1 { a } else { b };
        if cond.t.is_none() {
            return pick.clone();
        }
        let s = self.sym.ite(
            &Self::lift(cond, 1),
            w,
            &Self::lift(a, w),
            &Self::lift(b, w),
        );
        Self::with(pick.c, s)
    }
    fn overflows(&mut self, op: OverflowOp, w: Width, a: &CVal, b: &CVal) -> CVal {
        let c = concrete::overflows(op, w, a.c, b.c) as u128;
        if a.t.is_none() && b.t.is_none() {
            return CVal { c, t: None };
        }
        let s = self
            .sym
            .overflows(op, w, &Self::lift(a, w), &Self::lift(b, w));
        Self::with(c, s)
    }
    fn funnel_shift(&mut self, left: bool, w: Width, a: &CVal, b: &CVal, s: &CVal) -> CVal {
        let c = concrete::funnel_shift(left, w, a.c, b.c, s.c);
        if a.t.is_none() && b.t.is_none() && s.t.is_none() {
            return CVal { c, t: None };
        }
        let t = self.sym.funnel_shift(
            left,
            w,
            &Self::lift(a, w),
            &Self::lift(b, w),
            &Self::lift(s, w),
        );
        Self::with(c, t)
    }
    fn const_byte(&mut self, b: u8) -> CByte {
        CByte { c: b, t: None }
    }
    fn byte_as_const(&self, b: &CByte) -> Option<u8> {
        b.t.is_none().then_some(b.c)
    }
    fn val_to_bytes(&mut self, v: &CVal, w: Width, out: &mut [CByte]) {
        let le = v.c.to_le_bytes();
        match &v.t {
            None => {
                for (o, b) in out.iter_mut().zip(le) {
                    *o = CByte { c: b, t: None };
                }
            }
            Some(t) => {
                let mut sb = vec![SymByte::Const(0); out.len()];
                self.sym.val_to_bytes(&SymVal::sym(t.clone()), w, &mut sb);
                for ((o, b), s) in out.iter_mut().zip(le).zip(sb) {
                    *o = CByte {
                        c: b,
                        t: match s {
                            SymByte::Sym(t) => Some(t),
                            SymByte::Const(_) => None,
                        },
                    };
                }
            }
        }
    }
    fn bytes_to_val(&mut self, bytes: &[CByte], w: Width) -> CVal {
        let mut le = [0u8; 16];
        for (l, b) in le.iter_mut().zip(bytes) {
            *l = b.c;
        }
        let c = u128::from_le_bytes(le) & concrete::mask(w);
        if bytes.iter().all(|b| b.t.is_none()) {
            return CVal { c, t: None };
        }
        let sb: Vec<SymByte> = bytes.iter().map(Self::lift_byte).collect();
        let s = self.sym.bytes_to_val(&sb, w);
        Self::with(c, s)
    }

    /// The run's answer; a decision on a term joins the path condition with the side taken.
    fn decide(&mut self, why: Decision, cond: &CVal) -> bool {
        let side = cond.c & 1 == 1;
        if let Some(t) = &cond.t {
            self.record(to_bool(t), side, ConjunctKind::Branch(why));
        }
        side
    }

    /// The run's value; a term is concretised to it and the equality recorded (printed values steer
    /// nothing and are not recorded).
    fn choose(&mut self, why: Decision, v: &CVal, w: Width) -> u128 {
        if let Some(t) = &v.t {
            if why != Decision::Output {
                self.concretised += 1;
                let eq = t.eq(&Term::bv(v.c, w));
                self.record(eq, true, ConjunctKind::Concretisation(why));
            }
        }
        v.c
    }

    fn assume(&mut self, cond: &CVal) -> bool {
        let side = cond.c & 1 == 1;
        if let Some(t) = &cond.t {
            self.record(to_bool(t), side, ConjunctKind::Assumption);
        }
        side
    }

    /// The next `n` bytes of the stream (zero past its end), each with its byte variable (none in a
    /// concrete run).
    fn input(&mut self, req: InputRequest<'_>, n: usize) -> Vec<CByte> {
        let start = self.pos;
        let bytes: Vec<u8> = (start..start + n)
            .map(|p| self.stream.get(p).copied().unwrap_or(0))
            .collect();
        self.pos += n;
        self.consumed_bytes.extend_from_slice(&bytes);
        self.consumed.push(TestInput {
            name: req.name(),
            bytes: bytes.clone(),
        });
        bytes
            .iter()
            .enumerate()
            .map(|(i, &c)| CByte {
                c,
                t: self.symbolic.then(|| byte_var(start + i)),
            })
            .collect()
    }

    /// A read at an input-dependent offset keeps the offset symbolic (the symbolic domain's multiplexer);
    /// the concrete value is the bytes at the run's offset.
    fn select(&mut self, bytes: &[CByte], off: &CVal, n: usize, w: Width) -> Option<CVal> {
        let o = off.c as usize;
        let window = bytes.get(o..o + n)?;
        let sb: Vec<SymByte> = bytes.iter().map(Self::lift_byte).collect();
        let s = self.sym.select(&sb, &Self::lift(off, 64), n, w)?;
        let c = self.bytes_to_val(window, w).c;
        Some(Self::with(c, s))
    }

    /// A write at an input-dependent offset, symbolically as `symex run` does it, concretely at the run's
    /// offset.
    fn update(&mut self, bytes: &mut [CByte], off: &CVal, v: &CVal, n: usize, w: Width) -> bool {
        let o = off.c as usize;
        if o + n > bytes.len() {
            return false;
        }
        let mut sb: Vec<SymByte> = bytes.iter().map(Self::lift_byte).collect();
        if !self
            .sym
            .update(&mut sb, &Self::lift(off, 64), &Self::lift(v, w), n, w)
        {
            return false;
        }
        let le = v.c.to_le_bytes();
        for (k, (b, s)) in bytes.iter_mut().zip(sb).enumerate() {
            if k >= o && k < o + n {
                b.c = le[k - o];
            }
            b.t = match s {
                SymByte::Sym(t) => Some(t),
                SymByte::Const(_) => None,
            };
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_expr::Model;
    use symex_solver::SolverConfig;

    fn dom(stream: &[u8]) -> Concolic {
        Concolic::new(
            SolverCtx::new(SolverConfig::default().build(), None),
            stream,
        )
    }

    /// A branch on an input byte follows the concrete value and records the side taken; the conjunct holds
    /// for the run's bytes and its negation for none of them (checked by evaluation, not by the solver).
    #[test]
    fn a_decision_follows_the_run_and_records_the_side_taken() {
        let mut d = dom(&[7]);
        let b = d.input(InputRequest::Named("x"), 1);
        let x = d.bytes_to_val(&b, 8);
        assert_eq!(x.c, 7);
        let ten = d.constant(8, 10);
        let lt = d.cmp(CmpOp::Ult, 8, &x, &ten);
        assert!(d.decide(Decision::Branch, &lt));
        assert_eq!(d.pc.len(), 1);
        assert!(d.pc[0].taken && d.pc[0].is_branch());
        let mut m = Model::new();
        m.insert(&byte_var(0), symex_expr::Value::Bv { value: 7, width: 8 });
        assert_eq!(m.eval_bool(&d.pc[0].holds()), Ok(true));
        assert_eq!(m.eval_bool(&d.pc[0].negated()), Ok(false));
        // Decisions on constants are not conjuncts.
        let one = d.constant(1, 1);
        assert!(d.decide(Decision::Branch, &one));
        assert_eq!(d.pc.len(), 1);
    }

    /// A value the semantics fix is concretised to the run's value with the equality recorded, never
    /// negated; a printed value is not recorded.
    #[test]
    fn a_fixed_value_is_concretised_with_its_constraint() {
        let mut d = dom(&[3, 0]);
        let b = d.input(InputRequest::Named("n"), 2);
        let n = d.bytes_to_val(&b, 16);
        assert_eq!(d.choose(Decision::AllocSize, &n, 16), 3);
        assert_eq!(d.concretised, 1);
        assert!(!d.pc[0].is_branch());
        assert_eq!(d.choose(Decision::Output, &n, 16), 3);
        assert_eq!(d.pc.len(), 1);
        // Past the end of the stream the bytes are zero, still with their variables.
        let more = d.input(InputRequest::Named("m"), 2);
        assert_eq!((more[0].c, more[1].c), (0, 0));
        assert_eq!(more[1].t, Some(byte_var(3)));
        assert_eq!(d.consumed_bytes, vec![3, 0, 0, 0]);
    }

    /// A concrete run's decisions follow the same values and record nothing.
    #[test]
    fn a_concrete_run_builds_no_term() {
        let mut d = Concolic::concrete(SolverCtx::new(SolverConfig::default().build(), None), &[7]);
        let b = d.input(InputRequest::Named("x"), 1);
        let x = d.bytes_to_val(&b, 8);
        assert_eq!((x.c, &x.t), (7, &None));
        let ten = d.constant(8, 10);
        let lt = d.cmp(CmpOp::Ult, 8, &x, &ten);
        assert!(d.decide(Decision::Branch, &lt));
        assert!(d.pc.is_empty());
        assert_eq!(d.consumed_bytes, vec![7]);
    }
}
