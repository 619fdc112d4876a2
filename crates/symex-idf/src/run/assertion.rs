//! Assertions on a concrete state: whether one holds, and its footprint (the locations its
//! `acc`s and predicate instances cover), separately — `a * b` needs the footprints disjoint.
//! Expressions inside are read with the permissions held when the check began (as the
//! paper's `consume` evaluates in the state it started from).
//!
//! Consuming an assertion also gives its concrete snapshot ([`Snap`]): the values of its
//! footprint in the shape the paper's `consume` gives the symbolic one (Figure 7), which is
//! what `untouched` compares.
use super::eval::{bind, Evaluator, View};
use super::heap::{field_key, Array, Loc, Perms, Value};
use super::{Stop, R};
use crate::diagnostics::line_col;
use crate::ir::{Assertion, AssertionKind, Call, Span};

/// A concrete snapshot: `unit`, the value of one location (`fromT(v)`), all elements of an
/// array, or `combine(l, r)`. A side of `*` without footprint takes no part, and a conditional
/// assertion has the snapshot of the branch taken, as in the verifier's `consume`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Snap {
    Unit,
    Value(Value),
    Elems(Array),
    Combine(Box<Snap>, Box<Snap>),
}

impl std::fmt::Display for Snap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Snap::Unit => write!(f, "unit"),
            Snap::Value(v) => write!(f, "{v}"),
            Snap::Elems(a) => {
                let items: Vec<String> = a.items.iter().map(|v| v.to_string()).collect();
                write!(f, "[{}]", items.join(", "))
            }
            Snap::Combine(l, r) => write!(f, "({l}, {r})"),
        }
    }
}

impl<'p> Evaluator<'p> {
    /// Checks `a` and moves its footprint from `remaining` to `taken`; a failure is a violation
    /// of `check` at the failing part. Returns the snapshot of what it took.
    pub fn consume(
        &mut self,
        v: &View,
        a: &Assertion,
        remaining: &mut Perms,
        taken: &mut Perms,
        check: &str,
    ) -> R<Snap> {
        match &a.kind {
            AssertionKind::Pure(e) => {
                if self.boolean(v, e)? {
                    Ok(Snap::Unit)
                } else {
                    Err(self.violation(
                        v.member,
                        check,
                        format!("{check} does not hold: `{}` is false", self.text(e.span)),
                        e.span,
                    ))
                }
            }
            AssertionKind::Acc(obj, f) => {
                let loc = match self.eval(v, obj)? {
                    Value::Ref(o) => Loc::Field(o, field_key(f)),
                    _ => return Err(self.null_acc(v, a, check)),
                };
                self.take(v, a, loc, remaining, taken, check)
            }
            AssertionKind::AccElems(arr, _) => {
                let loc = match self.eval(v, arr)? {
                    Value::Ref(o) => Loc::Elems(o),
                    _ => return Err(self.null_acc(v, a, check)),
                };
                self.take(v, a, loc, remaining, taken, check)
            }
            AssertionKind::Sep(l, r) => {
                let sl = self.consume(v, l, remaining, taken, check)?;
                let sr = self.consume(v, r, remaining, taken, check)?;
                Ok(match (l.is_pure(), r.is_pure()) {
                    (true, _) => sr,
                    (false, true) => sl,
                    (false, false) => Snap::Combine(Box::new(sl), Box::new(sr)),
                })
            }
            AssertionKind::Pred(call) => self.consume_instance(v, call, remaining, taken, check),
            AssertionKind::Cond(c, l, r) => {
                if self.boolean(v, c)? {
                    self.consume(v, l, remaining, taken, check)
                } else {
                    self.consume(v, r, remaining, taken, check)
                }
            }
            AssertionKind::Untouched(inner) => {
                self.untouched(v, a, inner, check)?;
                Ok(Snap::Unit)
            }
        }
    }

    fn null_acc(&self, v: &View, a: &Assertion, check: &str) -> Stop {
        self.violation(
            v.member,
            check,
            format!(
                "{check} does not hold: `{}` names a field of null",
                self.text(a.span)
            ),
            a.span,
        )
    }

    fn take(
        &self,
        v: &View,
        a: &Assertion,
        loc: Loc,
        remaining: &mut Perms,
        taken: &mut Perms,
        check: &str,
    ) -> R<Snap> {
        if remaining.remove(&loc).is_some() {
            let snap = match &loc {
                Loc::Field(o, k) => v.heap.field(*o, k).cloned().map(Snap::Value),
                Loc::Elems(o) => v.heap.array(*o).cloned().map(Snap::Elems),
            };
            taken.insert(loc.clone());
            return snap.ok_or_else(|| Stop::Limit(format!("{loc} is not allocated"), a.span));
        }
        let why = if taken.contains(&loc) {
            "an earlier part already covers it (a separating conjunction needs disjoint parts)"
        } else {
            "the activation does not hold it"
        };
        Err(self.violation(
            v.member,
            check,
            format!(
                "{check} does not hold: no permission for `{}` ({loc}): {why}",
                self.text(a.span)
            ),
            a.span,
        ))
    }

    /// A predicate instance: its body, with the predicate's parameters bound. An instance that
    /// is needed again inside its own body before any permission was taken can never have been
    /// closed (a predicate is the least solution of its definition), so it does not hold.
    fn consume_instance(
        &mut self,
        v: &View,
        call: &Call,
        remaining: &mut Perms,
        taken: &mut Perms,
        check: &str,
    ) -> R<Snap> {
        let (recv, args) = self.call_values(v, call)?;
        let program = self.program;
        let Some(p) = program.predicate(&call.class, &call.method) else {
            return Err(Stop::Limit(
                format!("no predicate `{}.{}`", call.class, call.method),
                call.span,
            ));
        };
        let frame = (
            p.class.clone(),
            p.name.clone(),
            Value::Ref(recv),
            args.clone(),
            remaining.len(),
        );
        if self.pred_stack.contains(&frame) {
            return Err(self.violation(
                v.member,
                check,
                format!(
                    "{check} does not hold: the predicate instance `{}` needs itself, with no \
                     permission in between",
                    self.text(call.span)
                ),
                call.span,
            ));
        }
        if self.pred_stack.len() >= self.config.max_depth {
            return Err(Stop::Limit(
                format!(
                    "predicate instances nested deeper than {}",
                    self.config.max_depth
                ),
                call.span,
            ));
        }
        let store = bind(Value::Ref(recv), &p.params, &args);
        self.pred_stack.push(frame);
        let r = self.consume(&v.with_store(&store), &p.body, remaining, taken, check);
        self.pred_stack.pop();
        r
    }

    /// `untouched(φ)`: φ holds in the pre-state and now, and consuming it gives the same
    /// snapshot in both (the paper's Figures 6 and 7): the values its footprint holds, in the
    /// same shape. For a conditional φ whose condition changed, that compares the values of
    /// different locations.
    fn untouched(&mut self, v: &View, a: &Assertion, inner: &Assertion, check: &str) -> R<()> {
        let Some(old) = v.old else {
            return Err(Stop::Limit(
                "`untouched` outside a postcondition".into(),
                a.span,
            ));
        };
        let pre = View {
            store: v.store,
            heap: &old.heap,
            readable: &old.perms,
            old: None,
            member: v.member,
        };
        let (_, then) = self.snapshot_in(&pre, inner, check)?;
        let (_, now) = self.snapshot_in(v, inner, check)?;
        if then == now {
            return Ok(());
        }
        Err(self.violation(
            v.member,
            check,
            format!(
                "{check} does not hold: `{}`: its snapshot was {then} at entry and is {now} now",
                self.text(a.span),
            ),
            a.span,
        ))
    }

    fn snapshot_in(&mut self, v: &View, a: &Assertion, check: &str) -> R<(Perms, Snap)> {
        let mut remaining = v.readable.clone();
        let mut taken = Perms::new();
        let snap = self.consume(v, a, &mut remaining, &mut taken, check)?;
        Ok((taken, snap))
    }

    fn footprint_in(&mut self, v: &View, a: &Assertion, check: &str) -> R<Perms> {
        Ok(self.snapshot_in(v, a, check)?.0)
    }

    /// The footprint of `a` among the readable locations of `v`, which must make `a` true (a
    /// pure call's precondition). A failure of this check is reported at `site`.
    pub fn footprint(&mut self, v: &View, a: &Assertion, check: &str, site: Span) -> R<Perms> {
        self.footprint_in(v, a, check)
            .map_err(|stop| self.at_site(stop, check, site))
    }

    /// A failure of `check` found in a callee's contract, moved to the call site with a note
    /// naming the part that failed.
    pub fn at_site(&self, stop: Stop, check: &str, site: Span) -> Stop {
        match stop {
            Stop::Violation(mut viol) if viol.check == check => {
                let (line, col) = line_col(self.src, viol.span.start);
                viol.notes.push(format!(
                    "the failing part `{}` is at line {line}, column {col}",
                    self.text(viol.span)
                ));
                viol.span = site;
                Stop::Violation(viol)
            }
            other => other,
        }
    }

    /// `close`, `open`, `opening`: the predicate instance's body holds with the readable
    /// locations (ghost operations change nothing at run time).
    pub fn predicate_holds(&mut self, v: &View, call: &Call, what: &str) -> R<()> {
        let check = format!("{what} `{}`", self.text(call.span));
        let pred = Assertion {
            kind: AssertionKind::Pred(call.clone()),
            span: call.span,
        };
        self.footprint(v, &pred, &check, call.span).map(|_| ())
    }
}
