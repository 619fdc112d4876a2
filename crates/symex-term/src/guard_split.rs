//! Guard splitting at loop heads: an arrival is refined on the first undecided comparison
//! its next iteration makes over the head's registers (the loop guard, `x != 0` as `x > 0`,
//! `x = 0`, `x < 0`), and each case is closed into a general state of its own, keyed by the
//! case's atoms over the registers. The union of the cases is the arrival, so every run is
//! still represented; but each general state only merges arrivals of one case, which gives
//! the head a disjunctive invariant: after `while (x != 0) { a--; if (x > 0) x = x & a; else
//! x++; }` the positive phase keeps `0 < x ≤ a` and the negative one `a + x ≥ smin + 17`,
//! which no single conjunction of both holds. The case that leaves the loop becomes an exit
//! and no longer weakens the head: `while (x > 0) { a--; x = x & a; }` keeps `a ≥ 1` (from
//! `1 ≤ x ≤ a`) once the arrivals with `x = 0` are gone.

use crate::rules::{Exec, Outcome};
use crate::state::{State, Val};
use rustc_hash::FxHashMap;
use symex_its::{Atom, Poly};

/// Steps the run-ahead takes looking for the refinement (a loop guard is near the head).
const MAX_STEPS: usize = 64;

/// A case of a split arrival: its atoms over the top frame's slots (`Poly::var(slot)`), and
/// the arrival with those atoms added to its KB.
pub struct Case {
    pub key: Vec<Atom>,
    pub state: State,
}

/// The cases of arrival `s`: the first refinement of its deterministic run-ahead (before a
/// loop head, an input, the end, or [`MAX_STEPS`]) whose new atoms are over the values of
/// the top frame's registers at the head; `None` when there is none.
pub fn split(ex: &mut Exec, s: &State) -> Option<Vec<Case>> {
    // The register holding each symbolic variable (the first slot in order).
    let mut slot_of: FxHashMap<usize, u32> = FxHashMap::default();
    for (slot, v) in s.top().regs.iter().rev() {
        if let Val::Var(x) = v {
            slot_of.insert(*x, slot.0);
        }
    }
    let depth = s.frames.len();
    let mut cur = s.clone();
    for _ in 0..MAX_STEPS {
        let before = cur.kb.len();
        let mut next = match ex.step(cur) {
            Outcome::Next(v) => v,
            _ => return None,
        };
        if next
            .iter()
            .any(|n| n.halted || n.arrived || n.inputs.len() != s.inputs.len())
        {
            return None;
        }
        if next.len() == 1 {
            cur = next.pop().expect("one");
            // A call leaves the head's frame: its registers are not the callee's.
            if cur.frames.len() != depth {
                return None;
            }
            continue;
        }
        return next
            .into_iter()
            .map(|n| case(s, &n.kb[before.min(n.kb.len())..], &slot_of))
            .collect();
    }
    None
}

/// `s` refined by `added`, when every variable of `added` is a register's value in `s`.
fn case(s: &State, added: &[Atom], slot_of: &FxHashMap<usize, u32>) -> Option<Case> {
    if added.is_empty() {
        return None;
    }
    let mut key = Vec::new();
    for a in added {
        let vars = a.poly.vars();
        if !vars.iter().all(|v| slot_of.contains_key(v)) {
            return None;
        }
        let sub = |v: usize| Poly::var(slot_of[&v] as usize);
        key.push(Atom {
            poly: a.poly.substitute(&sub),
            rel: a.rel,
        });
    }
    let mut state = s.clone();
    state.kb.extend(added.iter().cloned());
    Some(Case { key, state })
}

/// The key's atoms over a head's variables (`slots`: per head variable its frame and slot;
/// the key is over the top frame `top`): facts every arrival of the case entails.
pub fn key_facts(key: &[Atom], slots: &[(usize, symex_ir::Slot)], top: usize) -> Vec<Atom> {
    let index = |slot: usize| {
        slots
            .iter()
            .position(|(fi, s)| *fi == top && s.0 as usize == slot)
    };
    key.iter()
        .filter(|a| a.poly.vars().iter().all(|v| index(*v).is_some()))
        .map(|a| Atom {
            poly: a
                .poly
                .substitute(&|v| Poly::var(index(v).expect("checked"))),
            rel: a.rel,
        })
        .collect()
}
