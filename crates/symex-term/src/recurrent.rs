//! Candidate recurrent sets from the loop's own guards, for [`crate::nonterm`]: the set where
//! one iteration of the loop is enabled, as far as it speaks of the head's registers
//! (`x ≥ 0` of `while (x >= 0) x = x + 1;`), alone and strengthened by up to two sign atoms
//! (`c ≥ 0` of `while (x >= 0) x = x + c;`, `y ≤ 0` of `while (x < 0) { x = x + y; y--; }`).
//!
//! A candidate is only a guess: `nonterm` keeps it when the solver proves it closed under
//! every SEG chain from the head, with no exit and no other head possible, and a concrete
//! run reaches it. Sets of this shape are unbounded, so they are the ones that prove
//! non-termination over mathematical integers (`--math-int`), where a loop that leaves
//! through a wrap-around in C does not.

use crate::kb::Kb;
use crate::seg::{Origin, Seg};
use crate::state::{eq, ge_c, le_c, Val};
use rustc_hash::FxHashMap;
use symex_its::{Atom, Poly, Rel};

/// Closed sets kept per head (the concrete runs may reach one and not another: `{x = 0}`
/// and `{x ≥ 0}` of `if (y >= 5) while (x >= 0) y--;`, where `x = y = 0` skips the loop).
pub const SETS_PER_HEAD: usize = 3;

/// The text of a set closed under the zero-input copy of the SEG.
pub const ZERO_TAIL: &str = " when every later input is 0";

/// Sign atoms are combined in pairs only up to this many head registers (the pairs grow
/// quadratically and every candidate costs solver queries).
const MAX_PAIRED_REGISTERS: usize = 4;

/// Bounds carried over from the guards (0 first).
const MAX_BOUNDS: usize = 3;

/// Candidates at head `h`, over the head's slot indices (as `nonterm`'s sets), cheapest first.
pub fn guard_candidates(seg: &Seg, h: usize) -> Vec<Vec<Atom>> {
    let vars = &seg.head_vars[h];
    let spec = &seg.heads[h];
    // Symbolic variable of the head's general state → slot index.
    let index: FxHashMap<usize, usize> = vars
        .iter()
        .enumerate()
        .take(spec.slots.len())
        .filter_map(|(i, v)| v.map(|v| (v, i)))
        .collect();
    let registers: Vec<usize> = spec
        .slots
        .iter()
        .enumerate()
        .filter(|(i, s)| s.2 > 1 && vars.get(*i).copied().flatten().is_some())
        .map(|(i, _)| i)
        .collect();
    let guards: Vec<Vec<Atom>> = seg
        .edges
        .iter()
        .filter(|e| e.from == Origin::Head(h) && e.to == h)
        .map(|e| over_head(&e.kb, &index))
        .collect();
    // Sign atoms, and the bounds of one-register guard atoms carried over to the other
    // registers (`b ≥ 7` beside `a ≥ 7` of `while (a >= 7) { t = a; a = b; b = t + 1; }`).
    let mut bounds = vec![0];
    for a in guards.iter().flatten() {
        let vs = a.poly.vars();
        if let (1, true, Rel::Ge) = (vs.len(), a.poly.is_linear(), a.rel) {
            // `k·x + c ≥ 0` with `k = ±1`: the bound `x ≥ −c` or `x ≤ c`.
            let k = a.poly.linear_coeff(*vs.first().expect("one variable"));
            if k.abs() == 1 {
                let b = -a.poly.constant_term() * k;
                if !bounds.contains(&b) {
                    bounds.push(b);
                }
            }
        }
    }
    bounds.truncate(MAX_BOUNDS);
    let signs: Vec<Atom> = registers
        .iter()
        .flat_map(|&i| {
            let x = Poly::var(i);
            bounds
                .iter()
                .flat_map(move |&c| [ge_c(&x, c), le_c(&x, c), eq(&x, &Poly::constant(c))])
        })
        .collect();
    let mut out: Vec<Vec<Atom>> = Vec::new();
    let mut push = |mut c: Vec<Atom>| {
        c.sort();
        c.dedup();
        if !c.is_empty() && !out.contains(&c) {
            out.push(c);
        }
    };
    for g in &guards {
        push(g.clone());
    }
    // Fixed points of one iteration: the guard with `x = μ(x)` for every register (the
    // line `3·x = 10·y` of `while (x > 0 && y > 0) x = 10*y - 2*x;`, ChenFlurMukhopadhyay
    // Ex2.14 of the TPDB); the concrete run into it comes from a solver model.
    for e in seg
        .edges
        .iter()
        .filter(|e| e.from == Origin::Head(h) && e.to == h)
    {
        let fixed: Vec<Atom> = vars
            .iter()
            .zip(&e.mu)
            .filter_map(|(v, m)| Some(eq(&Poly::var((*v)?), m.as_ref()?)))
            .collect();
        push(over_head(&[e.kb.clone(), fixed].concat(), &index));
    }
    for g in &guards {
        for s in &signs {
            push([g.clone(), vec![s.clone()]].concat());
        }
    }
    // Pairs of sign atoms only (the bounds at 0: the first three atoms of each register).
    let zero_signs: Vec<&Atom> = signs
        .chunks(3 * bounds.len())
        .flat_map(|c| &c[..3])
        .collect();
    if registers.len() <= MAX_PAIRED_REGISTERS {
        for g in &guards {
            for (k, s) in zero_signs.iter().enumerate() {
                for t in &zero_signs[k + 1..] {
                    push([g.clone(), vec![(*s).clone(), (*t).clone()]].concat());
                }
            }
        }
    }
    out
}

/// The atoms of a chain's KB over the head's variables only, renamed to slot indices, after
/// the chain's temporaries defined by an equation are substituted (`t = x + c ∧ t ≥ 0` is the
/// guard `x + c ≥ 0` of `while (x + c >= 0)`).
fn over_head(kb: &[Atom], index: &FxHashMap<usize, usize>) -> Vec<Atom> {
    let mut atoms = kb.to_vec();
    while let Some((k, t, def)) = atoms.iter().enumerate().find_map(|(k, a)| {
        if a.rel != Rel::Eq || !a.poly.is_linear() {
            return None;
        }
        a.poly.vars().into_iter().find_map(|t| {
            let c = a.poly.linear_coeff(t);
            // `c·t + rest = 0` with `c = ±1`: `t = −c·rest`.
            (!index.contains_key(&t) && c.abs() == 1)
                .then(|| (k, t, a.poly.sub(&Poly::var(t).scale(c)).scale(-c)))
        })
    }) {
        atoms.remove(k);
        for a in &mut atoms {
            a.poly = a
                .poly
                .substitute(&|v| if v == t { def.clone() } else { Poly::var(v) });
        }
    }
    atoms
        .iter()
        .filter(|a| {
            let vs = a.poly.vars();
            !vs.is_empty() && vs.iter().all(|v| index.contains_key(v))
        })
        .map(|a| Atom {
            poly: a.poly.substitute(&|v| Poly::var(index[&v])),
            rel: a.rel,
        })
        .collect()
}

/// The SEG with every input of every chain and exit pinned to 0: a set closed under it holds
/// every run from it on which each later `__VERIFIER_nondet_*` returns 0 (`x + 0` of
/// `while (x >= 0) x = x + nondet();`), which is the run a witness's replay makes after its
/// inputs (the reference interpreter reads zero bytes past a test's inputs). `None` when no
/// chain reads an input (the copy would be the SEG).
pub fn zero_inputs(seg: &Seg) -> Option<Seg> {
    let zeros = |inputs: &[(String, u32, Val)]| -> Vec<Atom> {
        inputs
            .iter()
            .filter_map(|(_, _, v)| match v {
                Val::Var(v) => Some(eq(&Poly::var(*v), &Poly::constant(0))),
                Val::Const(_) => None,
            })
            .collect()
    };
    let reads = seg.edges.iter().any(|e| !e.inputs.is_empty())
        || seg.leaves.iter().any(|l| !l.inputs.is_empty());
    if !reads {
        return None;
    }
    let mut z = seg.clone();
    for e in &mut z.edges {
        let pinned = zeros(&e.inputs);
        e.kb.extend(pinned);
    }
    for l in &mut z.leaves {
        let pinned = zeros(&l.inputs);
        l.kb.extend(pinned);
    }
    Some(z)
}

/// Inputs (as many as a concrete run may read) that lead a run from the start straight into
/// one of the `sets` at its head: a solver model of a start chain's KB with the set under the
/// chain's `μ` gives the chain's input values, in `[-1000, 1000]` where possible (a
/// `--math-int` witness's C replay then starts in range).
pub fn reaching_inputs(kb: &mut Kb, seg: &Seg, sets: &[(usize, Vec<Atom>)]) -> Vec<Vec<i128>> {
    let mut out: Vec<Vec<i128>> = Vec::new();
    for (h, atoms) in sets {
        for e in seg
            .edges
            .iter()
            .filter(|e| e.from == Origin::Start && e.to == *h)
        {
            let Some(at_entry) = atoms
                .iter()
                .map(|a| {
                    let vs = a.poly.vars();
                    vs.iter()
                        .all(|i| e.mu.get(*i).is_some_and(|m| m.is_some()))
                        .then(|| Atom {
                            poly: a.poly.substitute(&|i| e.mu[i].clone().unwrap_or_default()),
                            rel: a.rel,
                        })
                })
                .collect::<Option<Vec<Atom>>>()
            else {
                continue;
            };
            let vars: Vec<usize> = e
                .inputs
                .iter()
                .filter_map(|(_, _, v)| match v {
                    Val::Var(v) => Some(*v),
                    Val::Const(_) => None,
                })
                .collect();
            let query: Vec<Atom> = [e.kb.clone(), at_entry].concat();
            let n = query
                .iter()
                .flat_map(|a| a.poly.vars())
                .chain(vars.iter().copied())
                .max()
                .map_or(0, |m| m + 1);
            let bounded: Vec<Atom> = vars
                .iter()
                .flat_map(|v| [ge_c(&Poly::var(*v), -1000), le_c(&Poly::var(*v), 1000)])
                .collect();
            let mut q = query.clone();
            q.extend(bounded);
            let model = kb.model(&q, &[], n).or_else(|| kb.model(&query, &[], n));
            let Some(m) = model else { continue };
            let mut inputs: Vec<i128> = e
                .inputs
                .iter()
                .map(|(_, _, v)| match v {
                    Val::Var(v) => m[*v],
                    Val::Const(c) => *c,
                })
                .collect();
            inputs.resize(64, 0);
            if !out.contains(&inputs) {
                out.push(inputs);
            }
        }
    }
    out
}
