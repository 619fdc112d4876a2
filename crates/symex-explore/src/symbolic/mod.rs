//! The symbolic domain: values are hash-consed bit-vector terms, bytes are 8-bit terms, inputs are fresh
//! variables, and every decision consults the path condition (King 1976): a side whose conjunction with
//! the path condition is unsatisfiable is not followed; when both are satisfiable the state follows one
//! and asks the executor for a sibling that follows the other ([`ForkRequest`]).
//!
//! The semantics call [`Domain::decide`] deep inside an instruction, where the state cannot be cloned.
//! So a fork is described, not performed: the answers this step gave so far plus the other answer
//! ([`Forced`]). The executor re-runs the step from its snapshot with those answers forced, which
//! rebuilds exactly the sibling (the step is a function of the snapshot and the answers).
//!
//! Here: the domain and its decisions. `value`: constants and terms; `ops`: the operations as
//! terms; `solver_ctx`: the solver the states share.

mod bounds;
mod ops;
mod order;
mod path_condition;
mod solver_ctx;
mod value;

pub use ops::to_bool;
pub use path_condition::PathCondition;
pub use solver_ctx::SolverCtx;
pub use value::{SymByte, SymVal};

use crate::signature::{Answer, Trail};
use ops::{bin, bool_bv, compare, funnel, mux, object_array, overflow, start_offsets, unary};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;
use symex_engine::concrete;
use symex_engine::domain::{
    BinOp, CastOp, CmpOp, Decision, Domain, InputRequest, OverflowOp, UnOp, Width,
};
use symex_expr::{Model, Sort, Term, Value};
use symex_solver::SatResult;

/// Largest object read or written at a symbolic offset without forking in every exploration (see
/// [`Domain::select`]).
pub const SELECT_LIMIT: usize = 512;

/// Largest object read at a symbolic offset without forking where [`SolverCtx::large_select`] allows
/// (the largest flat object, `symex_engine::storage::FLAT_MAX`): an object holding a large input read
/// as its array, any other by a multiplexer of up to 2^16 leaves. (An array term built from the bytes,
/// a chain of stores at constant offsets read at a symbolic one, is no way out: Z3 took 53 s on 512
/// stores and did not finish 1,024 in 60 s, where the 4,096-leaf multiplexer took 0.7 s.)
pub const MUX_LIMIT: usize = 1 << 16;

/// Above this many bytes, an access at a symbolic offset sent to the solver as an array is worth a
/// warning (KLEE's threshold for its "large symbolic arrays" warning).
const LARGE_ARRAY_WARNING: usize = 4096;

/// One answer of a decision point, as replayed into a sibling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forced {
    /// The answer of a `decide`.
    Bool(bool),
    /// The value a `choose` picked.
    Value(u128),
    /// A `choose` that must pick a value outside this set (the siblings that took them exist).
    Exclude(Vec<u128>),
    /// A `choose` that must pick a value above this one (the siblings that took the smaller ones exist).
    Above(u128),
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

/// Names of the variables that mark integers made from addresses.
const ADDRESS_PREFIX: &str = "addr!";

/// The symbolic value domain of one state: its path condition and what the current step decided.
#[derive(Clone)]
pub struct Symbolic {
    ctx: Rc<RefCell<SolverCtx>>,
    /// The path condition, a conjunction (shared with the states forked from this one).
    pub pc: PathCondition,
    /// A model of `pc`, when one is known (saves the solver the side it would confirm).
    model: Option<Arc<Model>>,
    /// The inputs, in the order the program asked for them (shared with the states forked from this one
    /// until one of them asks for another).
    pub inputs: Rc<Vec<InputVars>>,
    /// What few states hold at a time (see [`Rare`]); `None` when all of it is empty.
    rare: Option<Box<Rare>>,
    /// Forks along the path (`--max-depth`).
    pub depth: u32,
    /// Set when a decision of the path depended on such an integer: the path follows the model's
    /// addresses, a real run may not, so the path decides no verdict.
    pub address_dependent: bool,
    /// `klee_set_forking(0)` is in force: branches follow the model's side and fork no sibling.
    forking_off: bool,
    /// The answers of the path's decisions from its root (its [`crate::signature::PathSignature`]).
    pub trail: Trail,
    /// The forced answers rebuild a path from its signature: they may span many steps.
    replaying: bool,
}

/// The parts of a [`Symbolic`] domain that are empty in almost every state between two steps, in one
/// box the domain holds only while one of them is not: tens of thousands of states wait at once in an
/// exploration, and these seven vectors and the reason cost 176 bytes in each.
#[derive(Clone, Default)]
struct Rare {
    /// Answers to force at the next decisions (a sibling being rebuilt).
    forced: VecDeque<Forced>,
    /// Answers of the non-constant decisions of the current step.
    step_log: Vec<Forced>,
    /// Siblings the current step asks for.
    forks: Vec<ForkRequest>,
    /// Set when the path cannot go on soundly (the solver gave no answer): the executor cuts it.
    killed: Option<String>,
    /// Why exploring this path is not exhaustive (a value fixed where others were possible).
    incomplete: Vec<String>,
    /// The variables standing for the difference between an object's real address and the model's
    /// (by object id; `u32::MAX` for pointers whose object is not known), pinned to 0 in the path
    /// condition: every integer made from an address mentions one (see [`Domain::observe_address`]).
    addr_vars: Vec<(u32, Term)>,
    /// Warnings about accesses at a symbolic offset that send an array of more than
    /// [`LARGE_ARRAY_WARNING`] bytes to the solver (as KLEE warns once each), each once; the explorer
    /// prints them.
    array_warnings: Vec<String>,
}

impl Rare {
    fn is_empty(&self) -> bool {
        self.forced.is_empty()
            && self.step_log.is_empty()
            && self.forks.is_empty()
            && self.killed.is_none()
            && self.incomplete.is_empty()
            && self.addr_vars.is_empty()
            && self.array_warnings.is_empty()
    }
}

impl std::fmt::Debug for Symbolic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Symbolic")
            .field("pc", &self.pc)
            .field("inputs", &self.inputs.len())
            .finish()
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
            pc: PathCondition::default(),
            model: Some(Arc::new(Model::new())),
            inputs: Rc::default(),
            rare: None,
            depth: 0,
            address_dependent: false,
            forking_off: false,
            trail: Trail::default(),
            replaying: false,
        }
    }

    /// The rare parts, boxed on first use.
    fn rare(&mut self) -> &mut Rare {
        self.rare.get_or_insert_with(Default::default)
    }

    /// The rare parts' addresses' variables (none when the box is absent).
    fn addr_vars(&self) -> &[(u32, Term)] {
        self.rare.as_deref().map_or(&[], |r| &r.addr_vars)
    }

    /// The next forced answer, if one waits.
    fn pop_forced(&mut self) -> Option<Forced> {
        self.rare.as_deref_mut()?.forced.pop_front()
    }

    /// Why the path cannot go on soundly, when it cannot (the executor cuts it).
    pub fn killed(&self) -> Option<&str> {
        self.rare.as_deref()?.killed.as_deref()
    }

    /// Takes the reason the path cannot go on (see [`Self::killed`]).
    pub fn take_killed(&mut self) -> Option<String> {
        self.rare.as_deref_mut()?.killed.take()
    }

    /// Marks the path as unable to go on soundly, for `why` (replacing an earlier reason).
    pub fn set_killed(&mut self, why: String) {
        self.rare().killed = Some(why);
    }

    /// Notes why exploring this path is not exhaustive.
    pub fn note_incomplete(&mut self, why: String) {
        self.rare().incomplete.push(why);
    }

    /// Takes the reasons noted by [`Self::note_incomplete`].
    pub fn take_incomplete(&mut self) -> Vec<String> {
        self.rare
            .as_deref_mut()
            .map_or_else(Vec::new, |r| std::mem::take(&mut r.incomplete))
    }

    /// Takes the warnings about large arrays sent to the solver (each once per path).
    pub fn take_array_warnings(&mut self) -> Vec<String> {
        self.rare
            .as_deref_mut()
            .map_or_else(Vec::new, |r| std::mem::take(&mut r.array_warnings))
    }

    /// Whether warnings about large arrays wait (see [`Self::take_array_warnings`]).
    pub fn has_array_warnings(&self) -> bool {
        self.rare
            .as_deref()
            .is_some_and(|r| !r.array_warnings.is_empty())
    }

    /// Prepares a step: no answers logged, no siblings requested.
    #[inline]
    pub fn begin_step(&mut self) {
        // Most steps decide nothing, and most states hold no rare parts.
        if let Some(r) = self.rare.as_deref_mut() {
            r.step_log.clear();
            r.forks.clear();
        }
    }

    /// Whether no forced answers wait: the state is not a sibling whose step is being rebuilt.
    #[inline]
    pub fn rebuilt(&self) -> bool {
        self.rare.as_deref().is_none_or(|r| r.forced.is_empty())
    }

    /// Whether the current step asked for a sibling.
    #[inline]
    pub fn forked(&self) -> bool {
        self.rare.as_deref().is_some_and(|r| !r.forks.is_empty())
    }

    /// Makes this domain a sibling under construction: `answers` are forced at the next decisions and
    /// `model` is a model of the path condition the sibling will have.
    pub fn force(&mut self, answers: Vec<Forced>, model: Arc<Model>) {
        self.rare().forced = answers.into();
        self.model = Some(model);
        self.depth += 1;
    }

    /// The signature this path has once its forced answers are followed (a sibling not built yet, a
    /// path being rebuilt): `None` when one of them excludes values instead of naming one.
    pub fn signature_ahead(&self) -> Option<crate::signature::PathSignature> {
        let mut sig = self.trail.signature();
        for f in self.rare.iter().flat_map(|r| &r.forced) {
            sig.answers.push(match f {
                Forced::Bool(b) => Answer::Bool(*b),
                Forced::Value(x) => Answer::Value(*x),
                Forced::Exclude(_) | Forced::Above(_) => return None,
            });
        }
        Some(sig)
    }

    /// Makes this fresh domain the start of a path rebuilt from its signature: `answers` are forced at
    /// its decisions, over as many steps as they take (see [`crate::Explorer::rebuild`]).
    pub fn replay(&mut self, answers: &[Answer]) {
        self.rare().forced = answers
            .iter()
            .map(|a| match a {
                Answer::Bool(b) => Forced::Bool(*b),
                Answer::Value(x) => Forced::Value(*x),
            })
            .collect();
        self.replaying = true;
    }

    /// Whether answers of a rebuilt path wait: ends the replay when none do.
    pub fn replay_pending(&mut self) -> bool {
        self.replaying &= !self.rebuilt();
        self.replaying
    }

    /// The siblings the step asked for (taken: a second call returns none).
    pub fn take_forks(&mut self) -> Vec<ForkRequest> {
        self.rare
            .as_deref_mut()
            .map_or_else(Vec::new, |r| std::mem::take(&mut r.forks))
    }

    /// Ends a step: the siblings it asked for. Forced answers still waiting mean a sibling's re-run
    /// diverged from its original, and the path is cut.
    pub fn end_step(&mut self) -> Vec<ForkRequest> {
        if !self.rebuilt() && !self.replaying {
            self.kill("internal: a sibling diverged from its fork".into());
        }
        let forks = self.take_forks();
        // A state between steps keeps no buffer of its step (the answers it logged, the answers it
        // was forced to), and no box when nothing rare is left: a sibling goes to wait right after
        // its first step, and tens of thousands wait at once.
        if let Some(r) = self.rare.as_deref_mut() {
            r.step_log = Vec::new();
            if r.forced.is_empty() {
                r.forced = VecDeque::new();
            }
            if r.is_empty() {
                self.rare = None;
            }
        }
        forks
    }

    /// A model of the path condition (asking the solver when none is known); `None` when the solver
    /// gave no answer or the path condition is unsatisfiable (the path is then killed).
    pub fn current_model(&mut self) -> Option<Arc<Model>> {
        if let Some(m) = &self.model {
            return Some(m.clone());
        }
        let r = self.ctx.borrow_mut().check(&self.pc.to_vec_with(None));
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

    /// Fixes the bytes of input `k` (a concrete program argument recorded as an input, so that its
    /// test carries it).
    pub fn pin_input(&mut self, k: usize, bytes: &[u8]) {
        let eqs: Vec<Term> = self.inputs[k]
            .bytes
            .iter()
            .zip(bytes)
            .map(|(v, &b)| v.eq(&Term::bv(b as u128, 8)))
            .collect();
        for e in eqs {
            self.constrain(e);
        }
    }

    /// Follows one feasible side of every later branch (a global fork limit was reached); `why` makes
    /// the exploration incomplete.
    pub fn stop_forking(&mut self, why: String) {
        if !self.forking_off {
            self.forking_off = true;
            self.note_incomplete(why);
        }
    }

    fn kill(&mut self, why: String) {
        let r = self.rare();
        if r.killed.is_none() {
            r.killed = Some(why);
        }
    }

    /// Notes that the current decision on `t` depends on an address the model fixed, when it mentions one.
    fn note_address_dependence(&mut self, t: &Term) {
        if self.addr_vars().is_empty() || self.address_dependent {
            return;
        }
        let mentions = t
            .free_vars()
            .iter()
            .any(|v| v.as_var().is_some_and(|n| n.starts_with(ADDRESS_PREFIX)));
        if mentions {
            self.address_dependent = true;
            self.note_incomplete(
                "a decision depends on the numeric address of an object, which the model fixes (a real allocator may place it elsewhere)"
                    .into(),
            );
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
        if let Some(answer) = self.feasible_by_bounds(c) {
            self.confirm(c, answer.is_some(), "the bounds of the path condition");
            return Ok(answer);
        }
        if order::contradicts(self.pc.constraints(), c) {
            self.confirm(c, false, "the order of terms the path condition implies");
            return Ok(None);
        }
        let q = self.pc.to_vec_with(Some(c));
        match self.ctx.borrow_mut().check(&q) {
            SatResult::Sat(m) => Ok(Some(m)),
            SatResult::Unsat => Ok(None),
            SatResult::Unknown(u) => Err(u.to_string()),
        }
    }

    /// With `SYMEX_CHECK_SHORTCUTS` set, has a bare Z3 confirm an answer found without the solver.
    fn confirm(&self, c: &Term, sat: bool, by: &str) {
        let mut ctx = self.ctx.borrow_mut();
        if ctx.checks_shortcuts() {
            ctx.confirm_shortcut(&self.pc.to_vec_with(Some(c)), sat, by);
        }
    }

    /// [`Self::feasible`] without the solver for a bound `c` of a term `t`: unsatisfiable when it
    /// contradicts the bounds of `t` the path condition holds; satisfiable when the path's model with
    /// `t` moved into the allowed interval (by assigning the input bytes `t` is made of) satisfies the
    /// path condition and `c` — checked by evaluation, so the model returned is always a model. `None`:
    /// ask the solver. (Each iteration of a loop whose guard compares a counter with an input forks
    /// on such a bound: this keeps the solver out of the loop.)
    fn feasible_by_bounds(&self, c: &Term) -> Option<Option<Arc<Model>>> {
        let b = bounds::bound(c)?;
        let t = &b.key.term;
        let w = t.width();
        let held = |upper: bool| {
            let key = bounds::BoundKey {
                upper,
                ..b.key.clone()
            };
            self.pc.bound_value(&key)
        };
        let (mut lo, mut hi) = (
            held(false).unwrap_or(0),
            held(true).unwrap_or(bounds::max_of(w)),
        );
        if b.key.upper {
            hi = hi.min(b.value);
        } else {
            lo = lo.max(b.value);
        }
        if lo > hi {
            return Some(None);
        }
        let model = self.model.as_ref()?;
        let now = bounds::encode(model.eval(t).ok()?.as_bv()?, w, b.key.signed);
        let v = bounds::encode(now.clamp(lo, hi), w, b.key.signed);
        let mut m = Model::clone(model);
        bounds::assign(t, v, &mut m)?;
        let holds =
            m.eval_bool(c) == Ok(true) && m.satisfies(&self.pc.to_vec_with(None)) == Ok(true);
        holds.then(|| {
            m.shrink_to_fit(); // kept by the sibling
            Some(Arc::new(m))
        })
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

    /// Asks for a sibling that gives this step's current decision the answer `answer`, when `other` (the
    /// condition that answer adds) is feasible with the path condition.
    fn fork_if_feasible(&mut self, other: &Term, answer: Forced) {
        match self.feasible(other) {
            Ok(Some(model)) => {
                let r = self.rare();
                let mut answers = r.step_log.clone();
                answers.push(answer);
                r.forks.push(ForkRequest { answers, model });
            }
            Ok(None) => {}
            Err(e) => self.kill(e),
        }
    }

    /// Follows the answer `answer` of the current decision, which adds `c` to the path condition.
    fn follow(&mut self, c: Term, answer: Forced) {
        self.constrain(c);
        self.trail.push(match answer {
            Forced::Value(x) => Answer::Value(x),
            _ => Answer::Bool(matches!(answer, Forced::Bool(true))),
        });
        self.rare().step_log.push(answer);
    }

    /// A `choose` that takes the least feasible value of `v` and asks for a sibling that takes a larger one
    /// (which takes the least of those, and so on): allocation sizes are explored smallest first, one path
    /// per size, so small sizes (where bugs hide) come first and a bounded size is explored completely.
    /// A write at a symbolic offset of an object above [`SELECT_LIMIT`] bytes (at most
    /// [`MUX_LIMIT`]), as KLEE writes its symbolic arrays: the object's bytes as one array term
    /// ([`object_array`]), the value's bytes stored at `off..off + n`, and every byte of the object
    /// becomes its element of the new array, so the write is one path and a later read at a symbolic
    /// offset one `select`. `false` (the offset is then fixed) when the bytes make no cheap array.
    fn update_array(
        &mut self,
        bytes: &mut [SymByte],
        off: &SymVal,
        v: &SymVal,
        n: usize,
        w: Width,
    ) -> bool {
        let Err(o) = off.split() else { return false };
        if bytes.len() > MUX_LIMIT || bytes.len() < n || n == 0 {
            return false;
        }
        let Some(mut arr) = object_array(bytes) else {
            return false;
        };
        let mut vb = vec![SymByte::Const(0); n];
        self.val_to_bytes(v, w, &mut vb);
        for (j, b) in vb.iter().enumerate() {
            arr = arr.store(&o.bvadd(&Term::bv(j as u128, 32)), &b.term());
        }
        for (k, byte) in bytes.iter_mut().enumerate() {
            *byte = SymByte::from_term(arr.select(&Term::bv(k as u128, 32)));
        }
        self.warn_large_array("write", bytes.len());
        true
    }

    /// Notes that a `what` access at a symbolic offset sent an array of `size` bytes to the solver, when
    /// that is more than [`LARGE_ARRAY_WARNING`] bytes (a cost the user may not expect).
    fn warn_large_array(&mut self, what: &str, size: usize) {
        if size <= LARGE_ARRAY_WARNING {
            return;
        }
        let line = format!(
            "warning: a symbolic memory {what} sends an array of {size} bytes to the solver"
        );
        let r = self.rare();
        if !r.array_warnings.contains(&line) {
            r.array_warnings.push(line);
        }
    }

    fn choose_least(&mut self, v: &Term, w: Width) -> u128 {
        let Some(x) = self.minimum(v, w) else {
            return 0;
        };
        if x < symex_engine::concrete::mask(w) {
            self.fork_if_feasible(&v.bvugt(&Term::bv(x, w)), Forced::Above(x));
        }
        self.follow(v.eq(&Term::bv(x, w)), Forced::Value(x));
        x
    }

    /// A `choose` that forks over every feasible value: picks the model's value and asks for a sibling
    /// that excludes it (and the values excluded before) when another value is feasible.
    fn choose_forking(&mut self, v: &Term, mut excluded: Vec<u128>, w: Width) -> u128 {
        let Some(x) = self.eval(v) else { return 0 };
        let xt = Term::bv(x, w);
        excluded.push(x);
        self.fork_if_feasible(&v.ne(&xt), Forced::Exclude(excluded));
        self.follow(v.eq(&xt), Forced::Value(x));
        x
    }
}

impl Domain for Symbolic {
    type Val = SymVal;
    type Byte = SymByte;
    type Regs = symex_engine::regs::SharedRegs<SymVal>;

    #[inline]
    fn constant(&mut self, w: Width, bits: u128) -> SymVal {
        SymVal::constant(bits & concrete::mask(w), w)
    }
    #[inline]
    fn as_const(&self, v: &SymVal) -> Option<u128> {
        v.as_const()
    }
    #[inline]
    fn binop(&mut self, op: BinOp, w: Width, a: &SymVal, b: &SymVal) -> SymVal {
        match (a.as_const(), b.as_const()) {
            (Some(x), Some(y)) => SymVal::constant(concrete::binop(op, w, x, y), w),
            _ => SymVal::from_term(bin(op, &a.term(w), &b.term(w))),
        }
    }
    #[inline]
    fn cmp(&mut self, op: CmpOp, w: Width, a: &SymVal, b: &SymVal) -> SymVal {
        match (a.as_const(), b.as_const()) {
            (Some(x), Some(y)) => SymVal::constant(concrete::cmp(op, w, x, y) as u128, 1),
            _ => SymVal::from_term(bool_bv(compare(op, &a.term(w), &b.term(w)))),
        }
    }
    fn unop(&mut self, op: UnOp, w: Width, a: &SymVal) -> SymVal {
        match a.split() {
            Ok(x) => SymVal::constant(concrete::unop(op, w, x), w),
            Err(t) => SymVal::from_term(unary(op, w, t)),
        }
    }
    #[inline]
    fn cast(&mut self, op: CastOp, from: Width, to: Width, a: &SymVal) -> SymVal {
        match a.split() {
            Ok(x) => SymVal::constant(concrete::cast(op, from, to, x), to),
            Err(t) => SymVal::from_term(match op {
                CastOp::Trunc | CastOp::ZExt => t.zext_to(to),
                CastOp::SExt => t.sext_to(to),
            }),
        }
    }
    #[inline]
    fn ite(&mut self, c: &SymVal, w: Width, a: &SymVal, b: &SymVal) -> SymVal {
        match c.split() {
            Ok(x) => {
                if x & 1 == 1 {
                    a.clone()
                } else {
                    b.clone()
                }
            }
            Err(t) => SymVal::from_term(to_bool(t).ite(&a.term(w), &b.term(w))),
        }
    }
    fn overflows(&mut self, op: OverflowOp, w: Width, a: &SymVal, b: &SymVal) -> SymVal {
        match (a.as_const(), b.as_const()) {
            (Some(x), Some(y)) => SymVal::constant(concrete::overflows(op, w, x, y) as u128, 1),
            _ => SymVal::from_term(bool_bv(overflow(op, w, &a.term(w), &b.term(w)))),
        }
    }
    fn funnel_shift(&mut self, left: bool, w: Width, a: &SymVal, b: &SymVal, s: &SymVal) -> SymVal {
        if let (Some(x), Some(y), Some(z)) = (a.as_const(), b.as_const(), s.as_const()) {
            return SymVal::constant(concrete::funnel_shift(left, w, x, y, z), w);
        }
        SymVal::from_term(funnel(left, w, &a.term(w), &b.term(w), &s.term(w)))
    }
    #[inline]
    fn const_byte(&mut self, b: u8) -> SymByte {
        SymByte::Const(b)
    }
    #[inline]
    fn byte_as_const(&self, b: &SymByte) -> Option<u8> {
        match b {
            SymByte::Const(c) => Some(*c),
            SymByte::Sym(_) => None,
        }
    }
    #[inline]
    fn val_to_bytes(&mut self, v: &SymVal, _w: Width, out: &mut [SymByte]) {
        match v.split() {
            Ok(c) => {
                let le = c.to_le_bytes();
                for (o, b) in out.iter_mut().zip(le) {
                    *o = SymByte::Const(b);
                }
            }
            Err(t) => {
                let n = out.len() as u32;
                let full = t.zext_to(8 * n);
                for (i, o) in out.iter_mut().enumerate() {
                    let i = i as u32;
                    *o = SymByte::from_term(full.extract(8 * i + 7, 8 * i));
                }
            }
        }
    }
    #[inline]
    fn bytes_to_val(&mut self, bytes: &[SymByte], w: Width) -> SymVal {
        let mut le = [0u8; 16];
        let mut all_const = true;
        for (l, b) in le.iter_mut().zip(bytes) {
            match b {
                SymByte::Const(c) => *l = *c,
                SymByte::Sym(_) => {
                    all_const = false;
                    break;
                }
            }
        }
        if all_const {
            return SymVal::constant(u128::from_le_bytes(le) & concrete::mask(w), w);
        }
        let mut acc = bytes[0].term();
        for b in &bytes[1..] {
            acc = b.term().concat(&acc);
        }
        SymVal::from_term(acc.zext_to(w))
    }

    fn decide(&mut self, _why: Decision, cond: &SymVal) -> bool {
        let c = match cond.split() {
            Ok(x) => return x & 1 == 1,
            Err(t) => to_bool(t),
        };
        if let Some(b) = c.as_bool() {
            return b;
        }
        self.note_address_dependence(&c);
        let side = match self.pop_forced() {
            Some(Forced::Bool(b)) => b,
            Some(_) => {
                self.kill("a sibling's forced answers did not match its decisions".into());
                return false;
            }
            None => {
                let Some(m) = self.current_model() else {
                    return false;
                };
                let side = m.eval_bool(&c).unwrap_or(true);
                if !self.forking_off {
                    let other = if side { c.not() } else { c.clone() };
                    self.fork_if_feasible(&other, Forced::Bool(!side));
                }
                side
            }
        };
        self.follow(if side { c } else { c.not() }, Forced::Bool(side));
        side
    }

    fn set_forking(&mut self, on: bool) {
        if !on && !self.forking_off {
            self.note_incomplete(
                "klee_set_forking(0): branches followed one feasible side, as KLEE does".into(),
            );
        }
        self.forking_off = !on;
    }

    fn choose(&mut self, why: Decision, v: &SymVal, w: Width) -> u128 {
        let v = match v.split() {
            Ok(x) => return x,
            Err(t) => t,
        };
        self.note_address_dependence(v);
        match why {
            // Printed values and exit codes steer no branch: any value of the path will do, and the
            // path condition stays as it is (the test's replay prints its own).
            Decision::Output => self.eval(v).unwrap_or(0),
            // Allocation sizes are enumerated smallest first; other values one per feasible value.
            _ => match (self.pop_forced(), why == Decision::AllocSize) {
                (Some(Forced::Value(x)), _) => {
                    self.follow(v.eq(&Term::bv(x, w)), Forced::Value(x));
                    x
                }
                (Some(Forced::Above(m)), true) => {
                    self.constrain(v.bvugt(&Term::bv(m, w)));
                    self.choose_least(v, w)
                }
                (Some(Forced::Exclude(set)), false) => {
                    for &x in &set {
                        self.constrain(v.ne(&Term::bv(x, w)));
                    }
                    self.choose_forking(v, set, w)
                }
                (None, true) => self.choose_least(v, w),
                (None, false) => self.choose_forking(v, Vec::new(), w),
                (Some(_), _) => {
                    self.kill("a sibling's forced answers did not match its decisions".into());
                    0
                }
            },
        }
    }

    /// The model's value of `v` when no other is feasible on the path (one query); no fork, no answer
    /// logged: the step's re-runs from its snapshot get the same answer from the same path condition.
    fn determined(&mut self, _why: Decision, v: &SymVal, w: Width) -> Option<u128> {
        let t = match v.split() {
            Ok(x) => return Some(x),
            Err(t) => t,
        };
        let x = self.eval(t)?;
        match self.feasible(&t.ne(&Term::bv(x, w))) {
            Ok(None) => Some(x),
            _ => None,
        }
    }

    fn assume(&mut self, cond: &SymVal) -> bool {
        let c = match cond.split() {
            Ok(x) => return x & 1 == 1,
            Err(t) => to_bool(t),
        };
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

    /// A read at a symbolic offset of an object of at most [`SELECT_LIMIT`] bytes, without forking: a
    /// multiplexer over the offset's bits whose leaves are the values at each offset the access may have
    /// (KLEE reads arrays with the theory of arrays; a mux tree is as exact, array-free, and bit-blasts to
    /// a few gates per leaf where a chain of offset comparisons costs a comparator per offset). The
    /// access is known to be in bounds, so offsets past the last one are unreachable leaves. Objects
    /// up to [`MUX_LIMIT`] bytes are read so where [`SolverCtx::large_select`] allows (KLEE reads any
    /// size in one expression: a fork per offset multiplies the paths by the object's size); larger
    /// ones fork per offset.
    fn select(&mut self, bytes: &[SymByte], off: &SymVal, n: usize, w: Width) -> Option<SymVal> {
        let limit = if self.ctx.borrow().large_select {
            MUX_LIMIT
        } else {
            SELECT_LIMIT
        };
        if bytes.len() > SELECT_LIMIT && limit > SELECT_LIMIT {
            if let (Err(o), Some(arr)) = (off.split(), object_array(bytes)) {
                let cells: Vec<SymByte> = (0..n)
                    .map(|j| SymByte::from_term(arr.select(&o.bvadd(&Term::bv(j as u128, 32)))))
                    .collect();
                self.warn_large_array("read", bytes.len());
                return Some(self.bytes_to_val(&cells, w));
            }
        }
        let (o, _, hi) = start_offsets(bytes.len(), off, n, limit)?;
        let last = bytes.len() - n;
        let bits = usize::BITS - hi.leading_zeros();
        let mut leaf = |k: usize| {
            self.bytes_to_val(&bytes[k.min(last)..k.min(last) + n], w)
                .term(w)
        };
        Some(SymVal::from_term(mux(o, 0, bits, hi, &mut leaf)))
    }

    /// A write at a symbolic offset of an object of at most [`SELECT_LIMIT`] bytes, without forking: each
    /// byte the write may reach becomes `ite(off = k - j, byte j of v, old byte)` over the offsets `k - j`
    /// the write may start at (KLEE's array update, byte by byte). Larger objects are updated as an
    /// array where [`SolverCtx::large_select`] allows ([`Self::update_array`]), else fork per offset.
    fn update(
        &mut self,
        bytes: &mut [SymByte],
        off: &SymVal,
        v: &SymVal,
        n: usize,
        w: Width,
    ) -> bool {
        if bytes.len() > SELECT_LIMIT {
            return self.ctx.borrow().large_select && self.update_array(bytes, off, v, n, w);
        }
        let Some((o, lo, hi)) = start_offsets(bytes.len(), off, n, SELECT_LIMIT) else {
            return false;
        };
        let mut vb = vec![SymByte::Const(0); n];
        self.val_to_bytes(v, w, &mut vb);
        for (k, byte) in bytes.iter_mut().enumerate().take(hi + n).skip(lo) {
            let mut acc = byte.term();
            for (j, b) in vb.iter().enumerate() {
                if k < j || k - j < lo || k - j > hi {
                    continue;
                }
                acc = o.eq(&Term::bv((k - j) as u128, 32)).ite(&b.term(), &acc);
            }
            *byte = SymByte::from_term(acc);
        }
        true
    }

    /// `ptr + δ`, where `δ` (one per object, pinned to 0) marks the integer as an address the model chose.
    fn observe_address(&mut self, ptr: &SymVal, obj: Option<u32>) -> SymVal {
        let key = obj.unwrap_or(u32::MAX);
        let delta = match self
            .addr_vars()
            .iter()
            .find(|(k, _)| *k == key && obj.is_some())
        {
            Some((_, d)) => d.clone(),
            None => {
                let d = Term::var(
                    &format!("{ADDRESS_PREFIX}{key}_{}", self.addr_vars().len()),
                    Sort::bv(64),
                );
                self.constrain(d.eq(&Term::bv(0, 64)));
                self.rare().addr_vars.push((key, d.clone()));
                d
            }
        };
        SymVal::from_term(ptr.term(64).bvadd(&delta))
    }

    fn unobserve_address(
        &mut self,
        v: &SymVal,
        pointer_bits: u32,
        offset_bits: u32,
    ) -> Option<SymVal> {
        let Err(t) = v.split() else { return None };
        let marks: Vec<Term> = t
            .free_vars()
            .into_iter()
            .filter(|x| x.as_var().is_some_and(|n| n.starts_with(ADDRESS_PREFIX)))
            .collect();
        if marks.is_empty() {
            return None;
        }
        let zero = Term::bv(0, 64);
        let unmarked: FxHashMap<Term, Term> =
            marks.iter().map(|m| (m.clone(), zero.clone())).collect();
        let model_value = t.substitute(&unmarked);
        let m = self.current_model()?;
        // The object the value was derived from (`AddressLayout::owner`: the upper half of a region is the
        // next object's, where `a - k` lands).
        let half = 1u64 << (offset_bits - 1);
        let id = ((bv_of_value(&m.eval(&model_value).ok()?) as u64).wrapping_add(half)
            >> offset_bits) as u32;
        let mark = self
            .addr_vars()
            .iter()
            .find(|(k, _)| *k == id)
            .map(|(_, d)| d.clone())?;
        // Every placement: the marks as free variables (fresh names, so the path's `mark = 0` does not
        // bind them).
        let placed: FxHashMap<Term, Term> = marks
            .iter()
            .map(|m| {
                let name = format!("placed!{}", m.as_var().unwrap_or(""));
                (m.clone(), Term::var(&name, Sort::bv(64)))
            })
            .collect();
        let real = t.substitute(&placed);
        let delta = placed.get(&mark)?.clone();
        let hi = pointer_bits - 1;
        let shifted = real
            .bvsub(&model_value)
            .extract(hi, 0)
            .eq(&delta.extract(hi, 0));
        let same_object = model_value
            .bvadd(&Term::bv(half as u128, 64))
            .bvlshr(&Term::bv(offset_bits as u128, 64))
            .eq(&Term::bv(id as u128, 64));
        let counterexample = shifted.and(&same_object).not();
        match self.feasible(&counterexample) {
            Ok(None) => Some(SymVal::from_term(model_value)),
            _ => None,
        }
    }

    /// An input of more than [`SELECT_LIMIT`] bytes is one array variable, byte `i` its element `i`
    /// (KLEE's symbolic arrays), where [`SolverCtx::large_select`] allows: a read at a symbolic offset
    /// is then a `select` of that array ([`input_array`]), which Z3 decides without looking at every
    /// element. Smaller inputs are a variable per byte.
    fn input(&mut self, req: InputRequest<'_>, n: usize) -> Vec<SymByte> {
        let k = self.inputs.len();
        let bytes: Vec<Term> = if n > SELECT_LIMIT && self.ctx.borrow().large_select {
            let a = Term::var(&format!("in{k}"), Sort::array(32, 8));
            (0..n).map(|i| a.select(&Term::bv(i as u128, 32))).collect()
        } else {
            (0..n)
                .map(|i| Term::var(&format!("in{k}_{i}"), Sort::bv(8)))
                .collect()
        };
        let out = bytes.iter().cloned().map(SymByte::Sym).collect();
        Rc::make_mut(&mut self.inputs).push(InputVars {
            name: req.name(),
            bytes,
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;
    use symex_solver::SolverConfig;

    fn dom() -> Symbolic {
        Symbolic::new(SolverCtx::new(SolverConfig::default().build(), None))
    }

    fn eval(t: &SymVal, x: &Term, a: u128, y: &Term, b: u128) -> u128 {
        let mut m = Model::new();
        m.insert(x, Value::Bv { value: a, width: 8 });
        m.insert(y, Value::Bv { value: b, width: 8 });
        match t.split() {
            Ok(c) => c,
            Err(t) => bv_of_value(&m.eval(t).unwrap()),
        }
    }

    /// The symbolic formulas of every operation agree with the concrete domain: the terms built over two
    /// variables, evaluated at (a, b), give what the concrete functions compute on (a, b).
    #[test]
    fn symbolic_operations_agree_with_the_concrete_domain() {
        let mut d = dom();
        let x = Term::var("x", Sort::bv(8));
        let y = Term::var("y", Sort::bv(8));
        let (sx, sy) = (SymVal::sym(x.clone()), SymVal::sym(y.clone()));
        let samples: [u128; 7] = [0, 1, 7, 0x7f, 0x80, 0x81, 0xff];
        for op in [BinOp::URem, BinOp::UDiv] {
            for k in [1u128, 2, 8, 0x80] {
                let t = d.binop(op, 8, &sx, &SymVal::constant(k, 8));
                for &a in &samples {
                    let want = concrete::binop(op, 8, a, k);
                    assert_eq!(eval(&t, &x, a, &y, 0), want, "{op:?} {a} {k}");
                }
            }
        }
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
            BinOp::UMax,
            BinOp::SMin,
            BinOp::SMax,
        ];
        let ovs = [
            OverflowOp::SAdd,
            OverflowOp::UAdd,
            OverflowOp::SSub,
            OverflowOp::USub,
            OverflowOp::SMul,
            OverflowOp::UMul,
        ];
        let uns = [
            UnOp::Not,
            UnOp::Neg,
            UnOp::Abs,
            UnOp::Ctpop,
            UnOp::Ctlz,
            UnOp::Cttz,
            UnOp::BitReverse,
        ];
        for op in ops {
            let t = d.binop(op, 8, &sx, &sy);
            for &a in &samples {
                for &b in &samples {
                    let want = concrete::binop(op, 8, a, b);
                    assert_eq!(eval(&t, &x, a, &y, b), want, "{op:?} {a} {b}");
                }
            }
        }
        for op in ovs {
            let t = d.overflows(op, 8, &sx, &sy);
            for &a in &samples {
                for &b in &samples {
                    let want = concrete::overflows(op, 8, a, b) as u128;
                    assert_eq!(eval(&t, &x, a, &y, b), want, "{op:?} {a} {b}");
                }
            }
        }
        for op in uns {
            let t = d.unop(op, 8, &sx);
            for &a in &samples {
                assert_eq!(
                    eval(&t, &x, a, &y, 0),
                    concrete::unop(op, 8, a),
                    "{op:?} {a}"
                );
            }
        }
        for left in [true, false] {
            let t = d.funnel_shift(left, 8, &sx, &sy, &SymVal::constant(3, 8));
            for &a in &samples {
                for &b in &samples {
                    let want = concrete::funnel_shift(left, 8, a, b, 3);
                    assert_eq!(eval(&t, &x, a, &y, b), want, "fsh {left} {a} {b}");
                }
            }
        }
    }

    #[test]
    fn bytes_round_trip_to_the_same_term() {
        let mut d = dom();
        let x = Term::var("x", Sort::bv(32));
        let mut bytes = vec![SymByte::Const(0); 4];
        d.val_to_bytes(&SymVal::sym(x.clone()), 32, &mut bytes);
        assert_eq!(d.bytes_to_val(&bytes, 32), SymVal::sym(x));
    }

    /// Past the exploration's deadline no query reaches the solver: the path is cut with the reason.
    #[test]
    fn no_query_runs_past_the_deadline() {
        let mut d = dom();
        d.ctx.borrow_mut().deadline = Some(Instant::now());
        let b = d.input(InputRequest::Named("x"), 1);
        let x = d.bytes_to_val(&b, 8);
        let b = d.input(InputRequest::Named("y"), 1);
        let y = d.bytes_to_val(&b, 8);
        // Two inputs compared: no bound of one term, which would be decided without the solver.
        let c = d.cmp(CmpOp::Ult, 8, &x, &y);
        d.begin_step();
        d.decide(Decision::Branch, &c);
        assert_eq!(
            d.killed(),
            Some("solver answered unknown: the time limit was reached")
        );
        assert_eq!(d.ctx.borrow().queries, 0);
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
