//! Non-termination (neither paper's method; every NO is bit-precise):
//!
//! * a **concrete lasso**: the rules run on literal inputs (the same rules, every condition
//!   decided by evaluation) and the state at a loop head — the position stack and every
//!   register — repeats with no input read in between: the run repeats forever;
//! * a **recurrent set** `R` at a loop head (the head's facts and equalities of its registers
//!   with boundary literals: 0, 1, umax, smax, smin): every SEG chain from the head that
//!   `R` allows returns to the head inside `R`, and no exit, no other head is possible from
//!   `R` — so a run that reaches `R` stays in the loop. A concrete run on candidate inputs
//!   shows `R` reachable (e.g. `f` of [B] Fig. 1 with `x = UINT_MAX`).
//!
//! The witness's inputs are replayed by [`crate::validate`] on the reference interpreter.

use crate::kb::Kb;
use crate::rules::{Exec, Outcome};
use crate::seg::{Origin, Seg};
use crate::state::{eq, ge_c, le_c, State, Val};
use crate::Options;
use rustc_hash::FxHashMap;
use std::time::{Duration, Instant};
use symex_ir::Module;
use symex_its::{Atom, Poly};

#[derive(Clone, Debug)]
pub struct Witness {
    /// The inputs the run read before the loop: (function, width, value in its reading).
    pub inputs: Vec<(String, u32, i128)>,
    /// What proves that the run does not end.
    pub proof: String,
    /// The source line of the loop head the run returns to forever (the cycle head of an SV-COMP
    /// termination witness); 0 when the head has no location.
    pub head_line: u32,
}

impl Witness {
    pub fn describe(&self) -> String {
        let inputs: Vec<String> = self
            .inputs
            .iter()
            .map(|(n, w, v)| format!("{n}() = {v} (i{w})"))
            .collect();
        format!("inputs [{}]; {}", inputs.join(", "), self.proof)
    }
}

/// A closed recurrent set: head, atoms over the head's slot indices, readable form.
struct Recurrent {
    head: usize,
    atoms: Vec<Atom>,
    text: String,
}

pub fn search(
    module: &Module,
    opts: &Options,
    seg: Option<&Seg>,
    deadline: Instant,
) -> Option<Witness> {
    let mut kb = Kb::new(Duration::from_secs(5));
    let sets = match seg {
        Some(seg) => recurrent_sets(&mut kb, seg, deadline),
        None => Vec::new(),
    };
    let entry = module.function_by_name(&opts.entry)?;
    // Inputs a solver model says lead into a set first (recurrent.rs), then the candidates;
    // `--math-int`: a boundary value overflows C at once (its witness could not be
    // replayed): ±10 stand for the boundaries.
    let targeted = match seg {
        Some(seg) => {
            let sets: Vec<(usize, Vec<Atom>)> =
                sets.iter().map(|r| (r.head, r.atoms.clone())).collect();
            crate::recurrent::reaching_inputs(&mut kb, seg, &sets)
        }
        None => Vec::new(),
    };
    let clamped = candidate_inputs().into_iter().map(|inputs| {
        if opts.sem.math_int {
            inputs.iter().map(|v| (*v).clamp(-10, 10)).collect()
        } else {
            inputs
        }
    });
    for inputs in targeted.into_iter().chain(clamped) {
        if Instant::now() > deadline {
            return None;
        }
        if let Some(w) = run(module, opts, entry, inputs, seg, &sets, deadline) {
            return Some(w);
        }
    }
    None
}

/// Most memory cells and allocations the snapshots of one concrete run may hold together
/// (about 100 MiB of host memory).
const MAX_STORED_CELLS: usize = 1 << 20;

/// Input vectors: every input the same boundary value, then a few mixtures.
fn candidate_inputs() -> Vec<Vec<i128>> {
    let pool = [0, 1, -1, i128::MAX, i128::MIN, 2, 10, -2];
    let mut out: Vec<Vec<i128>> = pool.iter().map(|v| vec![*v; 64]).collect();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..40 {
        let v = (0..64)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pool[(seed % pool.len() as u64) as usize]
            })
            .collect();
        out.push(v);
    }
    out
}

/// The positions and registers of every frame, its pointer registers, and the memory (all
/// literals in a concrete run).
type Snapshot = (
    Vec<(u32, u32, usize, Vec<(u32, i128)>)>,
    Vec<std::collections::BTreeMap<symex_ir::Slot, crate::state::Ptr>>,
    crate::state::Mem,
);

fn snapshot(st: &State) -> Option<Snapshot> {
    let ptrs: Vec<_> = st.frames.iter().map(|f| f.ptrs.clone()).collect();
    let concrete = st.mem.is_concrete()
        && ptrs
            .iter()
            .all(|m| m.values().all(|p| p.off.as_constant().is_some()));
    if !concrete {
        return None;
    }
    let frames = st
        .frames
        .iter()
        .map(|f| {
            let regs = f
                .regs
                .iter()
                .map(|(s, v)| match v {
                    Val::Const(c) => Some((s.0, *c)),
                    Val::Var(_) => None,
                })
                .collect::<Option<Vec<_>>>()?;
            Some((f.func.0, f.block.0, f.idx, regs))
        })
        .collect::<Option<_>>()?;
    Some((frames, ptrs, st.mem.clone()))
}

fn run(
    module: &Module,
    opts: &Options,
    entry: symex_ir::FuncId,
    inputs: Vec<i128>,
    seg: Option<&Seg>,
    sets: &[Recurrent],
    deadline: Instant,
) -> Option<Witness> {
    let mut ex = Exec::new(module, opts.sem, Kb::new(Duration::from_secs(1)));
    ex.concrete_inputs = Some(inputs);
    let mut st = State {
        frames: vec![crate::state::Frame {
            func: entry,
            block: symex_ir::BlockId(0),
            idx: 0,
            regs: Default::default(),
            ret_to: None,
            ptrs: Default::default(),
        }],
        kb: Vec::new(),
        arrived: false,
        halted: false,
        unrolled: 0,
        inputs: Vec::new(),
        mem: crate::rules::alloc::initial_mem(module),
        calls: Default::default(),
    };
    if !module.func(entry).params.is_empty() {
        return None;
    }
    let mut seen: FxHashMap<Snapshot, (usize, u64)> = FxHashMap::default();
    let mut stored = 0usize;
    for step in 0..200_000u64 {
        // A long concrete run (e.g. filling a large array) must not outlive the budget.
        if step % 4096 == 0 && Instant::now() > deadline {
            return None;
        }
        st = match ex.step(st) {
            Outcome::Next(mut v) if v.len() == 1 => v.pop().expect("one"),
            _ => return None,
        };
        if st.halted {
            return None;
        }
        if !st.arrived {
            continue;
        }
        let snap = snapshot(&st)?;
        // Each arrival keeps a copy of the memory: a run that builds a structure from a huge
        // input (a list of 2^32 - 1 nodes) would keep ever larger copies, quadratic in its
        // length. Past a count of stored cells the run is given up, the same on every machine.
        stored += snap.2.cells.len() + snap.2.allocs.len();
        if stored > MAX_STORED_CELLS {
            return None;
        }
        let consumed = st.inputs.len();
        if let Some(&(before, at)) = seen.get(&snap) {
            if before == consumed {
                return Some(Witness {
                    inputs: inputs_of(&st),
                    head_line: ex.line(&st),
                    proof: format!(
                        "concrete lasso: the state at {} after step {at} repeats at step {step} with no input read in between",
                        ex.here(&st)
                    ),
                });
            }
        }
        seen.insert(snap, (consumed, step));
        if let Some(seg) = seg {
            let key = st.key();
            for r in sets {
                let spec = &seg.heads[r.head];
                if spec.key != key || !crate::heads::flags_match(spec, &st) {
                    continue;
                }
                // Variables past the registers are the head's memory variables: unknown here, so
                // an atom over them is not confirmed by this run.
                let value = |i: usize| {
                    let Some(&(fi, slot, _, _)) = spec.slots.get(i) else {
                        return Poly::var(0);
                    };
                    match st.frames[fi].regs.get(&slot) {
                        Some(Val::Const(c)) => Poly::constant(*c),
                        _ => Poly::var(0),
                    }
                };
                // The state must be one the head's general state represents (its facts), and in `R`.
                let holds = r.atoms.iter().chain(&spec.facts).all(|a| {
                    crate::state::const_truth(&Atom {
                        poly: a.poly.substitute(&value),
                        rel: a.rel,
                    }) == Some(true)
                });
                if holds {
                    return Some(Witness {
                        inputs: inputs_of(&st),
                        head_line: ex.line(&st),
                        proof: format!(
                            "recurrent set {{{}}} at loop head {} ({}): closed under every SEG chain from the head, no exit possible from it, reached by this run",
                            r.text,
                            spec.name,
                            ex.here(&st)
                        ),
                    });
                }
            }
        }
    }
    None
}

fn inputs_of(st: &State) -> Vec<(String, u32, i128)> {
    st.inputs
        .iter()
        .map(|(n, w, v)| {
            let v = match v {
                Val::Const(c) => *c,
                Val::Var(_) => 0,
            };
            (n.clone(), *w, v)
        })
        .collect()
}

/// Candidate sets per head, kept when proved closed on the SEG.
fn recurrent_sets(kb: &mut Kb, seg: &Seg, deadline: Instant) -> Vec<Recurrent> {
    let mut out = Vec::new();
    let zero = crate::recurrent::zero_inputs(seg);
    for (h, spec) in seg.heads.iter().enumerate() {
        let vars = &seg.head_vars[h];
        let mut candidates: Vec<Vec<Atom>> = vec![vec![]];
        for (i, (_, _, w, r)) in spec.slots.iter().enumerate() {
            if vars.get(i).copied().flatten().is_none() || *w == 1 {
                continue;
            }
            let (lo, hi) = crate::rules::range(*w, *r);
            for c in [0, 1, lo, hi, hi - 1] {
                candidates.push(vec![eq(&Poly::var(i), &Poly::constant(c))]);
            }
        }
        // Half-lines a little inside the usual guard bounds: a value that steps around inside
        // one (`x >= 2` when an even `x` goes up by 1 and an odd one down by 1, while another
        // register counts on) is closed though no state repeats.
        for (i, (_, _, w, _)) in spec.slots.iter().enumerate() {
            if vars.get(i).copied().flatten().is_none() || *w == 1 {
                continue;
            }
            for c in [1, 2] {
                candidates.push(vec![ge_c(&Poly::var(i), c)]);
                candidates.push(vec![le_c(&Poly::var(i), -c)]);
            }
        }
        candidates.extend(crate::recurrent::guard_candidates(seg, h));
        // Each candidate against the SEG, then against its zero-input copy (recurrent.rs);
        // a few closed sets per head, as the concrete runs may reach one and not another.
        let mut found = 0;
        let tries = candidates.iter().map(|c| (c, seg, ""));
        let zero_tail = zero.as_ref().map(|z| {
            candidates
                .iter()
                .map(move |c| (c, z, crate::recurrent::ZERO_TAIL))
        });
        for (atoms, s, tail) in tries.chain(zero_tail.into_iter().flatten()) {
            if Instant::now() > deadline {
                return out;
            }
            let atoms = atoms.clone();
            if closed(kb, s, h, &atoms) {
                let name = |i: usize| format!("x{i}");
                let text = atoms
                    .iter()
                    .map(|a| {
                        let rel = match a.rel {
                            symex_its::Rel::Ge => ">=",
                            symex_its::Rel::Eq => "=",
                            symex_its::Rel::Ne => "!=",
                        };
                        format!("{} {rel} 0", a.poly.display(&name))
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                out.push(Recurrent {
                    head: h,
                    atoms,
                    text: format!("{}{tail}", if text.is_empty() { "true" } else { &text }),
                });
                found += 1;
                if found == crate::recurrent::SETS_PER_HEAD {
                    break;
                }
            }
        }
    }
    out
}

/// `R ∧ KB_e ⊨ R(μ_e)` for every chain from `h` back to `h`; every other chain and every exit
/// from `h` is infeasible under `R`.
fn closed(kb: &mut Kb, seg: &Seg, h: usize, atoms: &[Atom]) -> bool {
    let vars = &seg.head_vars[h];
    let at_head = |i: usize| vars[i].map_or(Poly::constant(0), Poly::var);
    let r: Vec<Atom> = atoms
        .iter()
        .map(|a| Atom {
            poly: a.poly.substitute(&at_head),
            rel: a.rel,
        })
        .collect();
    let mut back = 0;
    for e in seg.edges.iter().filter(|e| e.from == Origin::Head(h)) {
        let mut ctx = e.kb.clone();
        ctx.extend(r.iter().cloned());
        if e.to != h {
            if kb.feasible(&e.kb, &r) {
                return false;
            }
            continue;
        }
        if !kb.feasible(&e.kb, &r) {
            continue;
        }
        back += 1;
        for a in atoms {
            let Some(p) = a
                .poly
                .vars()
                .iter()
                .map(|i| e.mu.get(*i).cloned().flatten())
                .collect::<Option<Vec<_>>>()
            else {
                return false;
            };
            let _ = p;
            let next = |i: usize| e.mu[i].clone().unwrap_or_default();
            let goal = Atom {
                poly: a.poly.substitute(&next),
                rel: a.rel,
            };
            if !kb.entails(&ctx, &goal) {
                return false;
            }
        }
    }
    let exits_possible = seg
        .leaves
        .iter()
        .filter(|l| l.from == Origin::Head(h))
        .any(|l| kb.feasible(&l.kb, &r));
    back > 0 && !exits_possible
}
