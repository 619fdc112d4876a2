//! The rules on list invariants ([L] §3.2): an access through a pointer to a list's first
//! element takes that element out of the invariant (*unfolding*), split on `v_ℓ = 1` /
//! `v_ℓ ≥ 2`:
//!
//! * `v_ℓ = 1`: the element is the last one; its fields hold `v_i = v̂_i` and its next field
//!   the list's end; the invariant is gone.
//! * `v_ℓ ≥ 2`: its next field points to the rest, a list of `v_ℓ − 1` elements with fresh
//!   first values (related to the old ones by the field steps) and the same last values.
//!
//! The element becomes an ordinary allocation with a cell per field, so the base rules do
//! the rest: the load from the first element ([L]'s "load from list invariant") is a load
//! from that cell, a traversal by `getelementptr i8` with the next field's offset
//! (`offsetof`) or by a struct-field `getelementptr` (`p->next`) is pointer arithmetic
//! within it, the load of its next field yields the rest, and at the loop head the rest's
//! length `v_ℓ − 1` is `μ` of the head's length: the ranking argument `ℓ' = ℓ − 1`. A `free`
//! of the element kills it like any heap block (a later use is `ERR`).

use super::{Exec, R};
use crate::list::FieldKind;
use crate::state::{eq, ge, ge_c, Alloc, Cell, Content, Init, Ptr, State, Target, Val};
use symex_its::Poly;

/// `rule` applied to each state after unfolding list `i`: an access through a pointer to a
/// list's first element is that access to the unfolded element.
pub fn each_unfolded(
    ex: &mut Exec,
    st: State,
    i: usize,
    mut rule: impl FnMut(&mut Exec, State) -> R<Vec<State>>,
) -> R<Vec<State>> {
    let mut out = Vec::new();
    for s in unfold(ex, st, i) {
        out.extend(rule(ex, s)?);
    }
    Ok(out)
}

/// The states after taking the first element out of list `i` (pointers to the list's start
/// now point to the element).
fn unfold(ex: &mut Exec, st: State, i: usize) -> Vec<State> {
    let l = st.mem.lists[i].clone();
    let cases = vec![
        (vec![eq(&l.len, &Poly::constant(1))], false),
        (vec![ge_c(&l.len, 2)], true),
    ];
    let mut out = Vec::new();
    for (mut s, more) in ex.split(st, cases) {
        let a = s.mem.allocs.len();
        s.mem.allocs.push(Alloc {
            site: l.site,
            size: Poly::constant(l.elem_size),
            live: true,
            init: Init::Undef,
            pristine: true,
            read_only: false,
            dynamic: false,
        });
        crate::list::retarget(&mut s, Target::List(i), Target::Alloc(a));
        // The end after retargeting: a cyclic list's end is now the element.
        let end = s.mem.lists[i].end.clone();
        let next = if more {
            let mut rest = s.mem.lists[i].clone();
            rest.len = l.len.sub(&Poly::constant(1));
            for (k, f) in l.fields.iter().enumerate() {
                let FieldKind::Int(r) = f.kind else { continue };
                let v = ex.fresh(&mut s, f.size * 8, r);
                rest.first[k] = Val::Var(v);
                let (old, new) = (l.first[k].poly(), Poly::var(v));
                let step = l.steps[k];
                if let Some(c) = step.delta {
                    s.kb.push(eq(&new, &old.add(&Poly::constant(c))));
                }
                if step.nonincreasing {
                    s.kb.push(ge(&old, &new));
                }
                if step.nondecreasing {
                    s.kb.push(ge(&new, &old));
                }
            }
            s.kb.extend(rest.facts());
            s.mem.lists[i] = rest;
            Ptr {
                target: Target::List(i),
                off: Poly::constant(0),
            }
        } else {
            // The only element: first and last values coincide.
            for (k, f) in l.fields.iter().enumerate() {
                if matches!(f.kind, FieldKind::Int(_)) {
                    let e = eq(&l.first[k].poly(), &l.last[k].poly());
                    if crate::state::const_truth(&e).is_none() {
                        s.kb.push(e);
                    }
                }
            }
            s.mem.lists[i].live = false;
            end
        };
        for (k, f) in l.fields.iter().enumerate() {
            let val = match f.kind {
                FieldKind::Int(r) => Content::Int(l.first[k], r),
                FieldKind::Next => Content::Ptr(next.clone()),
                FieldKind::Opaque => Content::Ptr(l.shared[k].clone()),
            };
            s.mem.cells.push(Cell {
                alloc: a,
                off: Poly::constant(f.off),
                size: f.size,
                val,
            });
        }
        out.push(s);
    }
    out
}

/// The list a pointer operand's value points into, if any.
pub fn list_of(p: &Ptr) -> Option<usize> {
    match p.target {
        Target::List(i) => Some(i),
        _ => None,
    }
}
