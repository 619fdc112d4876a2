//! SEG → ITS ([B] Def. 7): one location per loop head (plus `start`), one transition per
//! chain of evaluation/refinement edges ending in a generalization edge. Its guard is the KB
//! at the chain's end, which contains `⟨a⟩` of the head it starts from; its update maps the
//! target head's variables to `μ`. The head's variables are the program variables; every
//! other symbolic variable of the chain is a temporary (chosen by the guard). Variables range
//! over ℤ: the bit-vector semantics lives in the guards.

use crate::seg::{Origin, Seg};
use rustc_hash::FxHashMap;
use symex_its::{Atom, Goal, Its, Poly, Transition};

/// Position of each live slot of each head among the head's program variables (the ITS's
/// argument order; `symex cost`'s whole-SEG ITS uses the same order).
pub fn head_positions(seg: &Seg) -> Vec<FxHashMap<usize, usize>> {
    seg.heads
        .iter()
        .map(|h| {
            h.live
                .iter()
                .enumerate()
                .filter(|(_, l)| **l)
                .enumerate()
                .map(|(p, (i, _))| (i, p))
                .collect()
        })
        .collect()
}

pub fn to_its(seg: &Seg) -> Its {
    let pos = head_positions(seg);
    let arity = pos.iter().map(|m| m.len()).max().unwrap_or(0);
    let mut its = Its {
        goal: Goal::Termination,
        locations: vec!["start".into()],
        start: 0,
        vars: (0..arity).map(|i| format!("X{i}")).collect(),
        transitions: Vec::new(),
    };
    for h in &seg.heads {
        its.locations.push(h.name.clone());
    }
    for e in &seg.edges {
        let mut map: FxHashMap<usize, usize> = FxHashMap::default();
        let source = match e.from {
            Origin::Start => 0,
            Origin::Head(h) => {
                for (i, v) in seg.head_vars[h].iter().enumerate() {
                    if let (Some(v), Some(p)) = (v, pos[h].get(&i)) {
                        map.insert(*v, *p);
                    }
                }
                h + 1
            }
        };
        let mut temps = Vec::new();
        let mut rename = |v: usize, map: &mut FxHashMap<usize, usize>| -> Poly {
            let n = *map.entry(v).or_insert_with(|| {
                temps.push(format!("T{v}"));
                arity + temps.len() - 1
            });
            Poly::var(n)
        };
        // Number the chain's variables first (`substitute` takes a `Fn`).
        let mut all_vars: Vec<usize> = e.kb.iter().flat_map(|a| a.poly.vars()).collect();
        for p in e.mu.iter().flatten() {
            all_vars.extend(p.vars());
        }
        for v in all_vars {
            rename(v, &mut map);
        }
        let sub = |p: &Poly| p.substitute(&|v| Poly::var(map[&v]));
        let guard =
            e.kb.iter()
                .map(|a| Atom {
                    poly: sub(&a.poly),
                    rel: a.rel,
                })
                .collect();
        let mut update = vec![Poly::constant(0); arity];
        for (i, m) in e.mu.iter().enumerate() {
            if let (Some(p), Some(j)) = (m, pos[e.to].get(&i)) {
                update[*j] = sub(p);
            }
        }
        its.transitions.push(Transition {
            source,
            targets: vec![(e.to + 1, update)],
            guard,
            cost: Poly::constant(1),
            temps,
            com: false,
        });
    }
    its
}
