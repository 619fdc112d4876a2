//! The `Solver` trait: one core question (is this conjunction satisfiable, and if so a model)
//! from which every query of an analysis is derived.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use symex_expr::{Model, Sort, Term, Value};

use crate::stats::LayerStats;

/// Why a solver gave no answer (a timeout, an incomplete theory, a backend failure).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Unknown(pub String);

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "solver answered unknown: {}", self.0)
    }
}

impl std::error::Error for Unknown {}

/// The answer to a satisfiability query.
#[derive(Clone, PartialEq, Debug)]
pub enum SatResult {
    /// Satisfiable, with a model of the constraints (shared: layers cache and return it).
    Sat(Arc<Model>),
    /// Unsatisfiable.
    Unsat,
    /// No answer.
    Unknown(Unknown),
}

impl SatResult {
    /// `Ok(true)` for sat, `Ok(false)` for unsat.
    pub fn is_sat(&self) -> Result<bool, Unknown> {
        match self {
            SatResult::Sat(_) => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Unknown(u) => Err(u.clone()),
        }
    }

    /// The model of a sat answer.
    pub fn model(&self) -> Option<&Arc<Model>> {
        match self {
            SatResult::Sat(m) => Some(m),
            _ => None,
        }
    }
}

/// What a condition can be under a path condition (KLEE's `Validity`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Validity {
    /// True in every model of the path condition.
    AlwaysTrue,
    /// False in every model of the path condition.
    AlwaysFalse,
    /// True in some models and false in others.
    Both,
}

/// A solver. Implementors provide [`Solver::check`]; every other question is derived from
/// it, so each layer (cache, slicer, validator, ...) only intercepts `check`.
///
/// A *path condition* `pc` is a slice of Boolean terms read as their conjunction.
pub trait Solver {
    /// Whether the conjunction of `constraints` is satisfiable; a model of them if so.
    fn check(&mut self, constraints: &[Term]) -> SatResult;

    /// Appends statistics of this layer and the layers below it, outermost first.
    fn collect_stats(&self, out: &mut Vec<LayerStats>);

    /// Sets the time limit of each backend call (`None`: no limit). A call that runs out
    /// of time answers `Unknown`.
    fn set_timeout(&mut self, timeout: Option<Duration>);

    /// Statistics of every layer, outermost first.
    fn stats(&self) -> Vec<LayerStats> {
        let mut v = Vec::new();
        self.collect_stats(&mut v);
        v
    }

    /// Whether `pc` is satisfiable.
    fn is_sat(&mut self, pc: &[Term]) -> Result<bool, Unknown> {
        self.check(pc).is_sat()
    }

    /// Whether `pc ∧ cond` is satisfiable (the branch `cond` is feasible).
    fn may_be_true(&mut self, pc: &[Term], cond: &Term) -> Result<bool, Unknown> {
        if let Some(b) = cond.as_bool() {
            return if b { self.is_sat(pc) } else { Ok(false) };
        }
        self.check(&with(pc, cond.clone())).is_sat()
    }

    /// Whether `pc ∧ ¬cond` is satisfiable.
    fn may_be_false(&mut self, pc: &[Term], cond: &Term) -> Result<bool, Unknown> {
        self.may_be_true(pc, &cond.not())
    }

    /// Whether `cond` holds in every model of `pc` (`pc → cond` is valid). Vacuously true
    /// when `pc` is unsatisfiable.
    fn must_be_true(&mut self, pc: &[Term], cond: &Term) -> Result<bool, Unknown> {
        Ok(!self.may_be_false(pc, cond)?)
    }

    /// Whether `cond` is false in every model of `pc`.
    fn must_be_false(&mut self, pc: &[Term], cond: &Term) -> Result<bool, Unknown> {
        Ok(!self.may_be_true(pc, cond)?)
    }

    /// What `cond` can be under a satisfiable `pc`: always true, always false, or both
    /// (at most two checks). Under an unsatisfiable `pc` the answer is `AlwaysTrue`.
    fn validity(&mut self, pc: &[Term], cond: &Term) -> Result<Validity, Unknown> {
        if let Some(b) = cond.as_bool() {
            return Ok(if b {
                Validity::AlwaysTrue
            } else {
                Validity::AlwaysFalse
            });
        }
        if !self.may_be_false(pc, cond)? {
            return Ok(Validity::AlwaysTrue);
        }
        if !self.may_be_true(pc, cond)? {
            return Ok(Validity::AlwaysFalse);
        }
        Ok(Validity::Both)
    }

    /// A model of `pc`, or `None` when it is unsatisfiable.
    fn model(&mut self, pc: &[Term]) -> Result<Option<Arc<Model>>, Unknown> {
        match self.check(pc) {
            SatResult::Sat(m) => Ok(Some(m)),
            SatResult::Unsat => Ok(None),
            SatResult::Unknown(u) => Err(u),
        }
    }

    /// One value `t` can take under `pc`, or `None` when `pc` is unsatisfiable.
    fn value(&mut self, pc: &[Term], t: &Term) -> Result<Option<Value>, Unknown> {
        if t.is_const() {
            return Ok(self
                .is_sat(pc)?
                .then(|| t.clone())
                .and_then(|c| const_value(&c)));
        }
        match self.model(pc)? {
            None => Ok(None),
            Some(m) => m
                .eval(t)
                .map(Some)
                .map_err(|e| Unknown(format!("evaluating the model: {e}"))),
        }
    }

    /// Up to `limit` distinct values `t` can take under `pc` (all of them when fewer),
    /// each found by excluding the previous ones.
    fn values(&mut self, pc: &[Term], t: &Term, limit: usize) -> Result<Vec<Value>, Unknown> {
        let mut query = pc.to_vec();
        let mut found = Vec::new();
        while found.len() < limit {
            let Some(v) = self.value(&query, t)? else {
                break;
            };
            let Some(vt) = v.to_term() else {
                return Err(Unknown(format!("no term denotes the value {v}")));
            };
            query.push(t.ne(&vt));
            found.push(v);
        }
        Ok(found)
    }

    /// The least and greatest unsigned values of the bit-vector `t` under `pc` (binary
    /// search, about twice the width in checks), or `None` when `pc` is unsatisfiable.
    ///
    /// # Panics
    /// If `t` is not a bit-vector.
    fn unsigned_range(&mut self, pc: &[Term], t: &Term) -> Result<Option<(u128, u128)>, Unknown> {
        let Sort::BitVec(w) = t.sort() else {
            panic!("unsigned_range of a term of sort {}", t.sort())
        };
        let Some(v) = self.value(pc, t)? else {
            return Ok(None);
        };
        let v = v.as_bv().expect("bit-vector value");
        let bv = |x: u128| Term::bv(x, w);
        // Least: the smallest m with pc ∧ t ≤ m satisfiable, in [0, v].
        let (mut lo, mut hi) = (0u128, v);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.may_be_true(pc, &t.bvule(&bv(mid)))? {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let min = lo;
        // Greatest: the largest m with pc ∧ t ≥ m satisfiable, in [v, max].
        let (mut lo, mut hi) = (v, symex_expr::bvsem::mask(w));
        while lo < hi {
            let mid = hi - (hi - lo) / 2;
            if self.may_be_true(pc, &t.bvuge(&bv(mid)))? {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        Ok(Some((min, lo)))
    }
}

fn with(pc: &[Term], extra: Term) -> Vec<Term> {
    let mut q = Vec::with_capacity(pc.len() + 1);
    q.extend_from_slice(pc);
    q.push(extra);
    q
}

fn const_value(t: &Term) -> Option<Value> {
    symex_expr::Model::new().eval(t).ok()
}

impl<S: Solver + ?Sized> Solver for Box<S> {
    fn check(&mut self, constraints: &[Term]) -> SatResult {
        (**self).check(constraints)
    }
    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        (**self).collect_stats(out)
    }
    fn set_timeout(&mut self, timeout: Option<Duration>) {
        (**self).set_timeout(timeout)
    }
}
