//! The weighted ITS of the *whole* SEG ([B] §5 steps 1–5), not only its cycles:
//!
//! 1. every chain of the SEG becomes a transition — chains into a loop head as in
//!    `symex-term`'s Def. 7 translation, and chains that end the program into the sink
//!    location `exit`;
//! 2. the start state is the start location: its variables are the program's inputs — the
//!    entry function's parameters and the values input functions return before the first
//!    loop head — so bounds are expressed in their start values;
//! 3. a transition weighs the IR instructions its chain executes (the count of `symex
//!    replay`); refinement and generalization edges execute none, so they weigh 0 — the
//!    SEG's chains already fold them into the evaluation steps around them;
//! 5. type-range constants become size variables ([`crate::size_vars`]), either as fresh
//!    temporaries on every transition (bounds can only use the inputs) or as further start
//!    variables that every transition keeps (`b' = b`).
//!
//! Step 4 (several back ends in parallel) is `symex-its`'s one back end here.

use crate::size_vars::{self, SizeVar};
use rustc_hash::FxHashMap;
use std::collections::BTreeSet;
use symex_its::{Atom, Goal, Its, Poly, Transition};
use symex_term::seg::{Origin, Seg};
use symex_term::state::{Reading, Val};

/// A start variable of the ITS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Parameter `index` of the entry function, held in `reading` by the SEG.
    Param {
        index: usize,
        name: String,
        width: u32,
        reading: Reading,
    },
    /// The `k`-th value an input function returns (in call order) before the first loop head.
    Nondet {
        k: usize,
        function: String,
        width: u32,
        reading: Reading,
    },
    /// A type-range constant as a variable (`b_umax32`).
    Size(SizeVar),
}

impl Input {
    pub fn name(&self) -> String {
        match self {
            Input::Param { name, .. } => name.clone(),
            Input::Nondet { k, .. } => format!("in{}", k + 1),
            Input::Size(s) => s.name(),
        }
    }

    /// What the variable is, for the report.
    pub fn describe(&self) -> String {
        let sign = |r: &Reading| match r {
            Reading::Unsigned => "unsigned",
            Reading::Signed => "signed",
        };
        match self {
            Input::Param {
                index,
                width,
                reading,
                ..
            } => format!("parameter {} (i{width}, {})", index + 1, sign(reading)),
            Input::Nondet {
                k,
                function,
                width,
                reading,
            } => format!(
                "value {} of the input functions, here `{function}` (i{width}, {})",
                k + 1,
                sign(reading)
            ),
            Input::Size(s) => format!("size variable = {}", s.value()),
        }
    }
}

/// How type-range constants enter the ITS (step 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeMode {
    /// A fresh temporary per transition: a bound cannot depend on them.
    Free,
    /// Start variables kept by every transition.
    Inputs,
}

/// The entry's integer parameters as the SEG's start state numbers them (one fresh
/// variable per integer parameter, in order): (parameter index, width, reading, variable).
pub type Params = Vec<(usize, u32, Reading, usize)>;

/// The ITS and what its start variables are (variable `i < inputs.len()` is `inputs[i]`).
#[derive(Clone, Debug)]
pub struct WholeIts {
    pub its: Its,
    pub inputs: Vec<Input>,
    /// A chain went on after a recursive call whose own chain is not in the SEG: the ITS
    /// would leave out that call's computation, so it bounds nothing.
    pub lost_calls: bool,
}

/// Builds the weighted whole-SEG ITS. `names` are the parameters' C names (or `None`).
pub fn build(seg: &Seg, params: &Params, names: Option<&[String]>, mode: SizeMode) -> WholeIts {
    let mut inputs: Vec<Input> = params
        .iter()
        .map(|&(index, width, reading, _)| Input::Param {
            index,
            name: names
                .and_then(|n| n.get(index).cloned())
                .unwrap_or_else(|| format!("p{}", index + 1)),
            width,
            reading,
        })
        .collect();
    inputs.extend(start_inputs(seg));
    let sizes = size_vars_used(seg);
    if mode == SizeMode::Inputs {
        inputs.extend(sizes.iter().map(|s| Input::Size(*s)));
    }
    let pos = symex_term::its_build::head_positions(seg);
    let n_in = inputs.len();
    let arity = n_in + pos.iter().map(|m| m.len()).max().unwrap_or(0);
    let mut its = Its {
        goal: Goal::Complexity,
        locations: vec!["start".into()],
        start: 0,
        vars: inputs.iter().map(Input::name).collect(),
        transitions: Vec::new(),
    };
    its.vars
        .extend((n_in..arity).map(|i| format!("X{}", i - n_in)));
    its.locations
        .extend(seg.heads.iter().map(|h| h.name.clone()));
    its.locations.push("exit".into());
    let exit = its.locations.len() - 1;
    let b = Builder {
        seg,
        params,
        inputs: &inputs,
        pos: &pos,
        arity,
    };
    let calls = call_edges(seg);
    let mut lost_calls = false;
    let mut spawned = |returned: &[u32]| -> Vec<(usize, &[Option<Poly>])> {
        let found: Vec<_> = returned
            .iter()
            .filter_map(|n| calls.get(n).copied())
            .collect();
        lost_calls |= found.len() < returned.len();
        found
    };
    for e in &seg.edges {
        let target = Target::Head(e.to, &e.mu);
        let chain = Chain {
            from: e.from,
            kb: &e.kb,
            ins: &e.inputs,
            steps: e.steps,
        };
        let calls = spawned(&e.calls.returned);
        its.transitions.push(b.transition(&chain, target, &calls));
    }
    for l in &seg.leaves {
        let chain = Chain {
            from: l.from,
            kb: &l.kb,
            ins: &l.inputs,
            steps: l.steps,
        };
        let calls = spawned(&l.returned);
        let mut t = b.transition(&chain, Target::Exit, &calls);
        t.targets[0].0 = exit;
        its.transitions.push(t);
    }
    WholeIts {
        its,
        inputs,
        lost_calls,
    }
}

/// The chains that are recursive calls arriving at their callee's call head, by call number:
/// (head, `μ`).
fn call_edges(seg: &Seg) -> FxHashMap<u32, (usize, &[Option<Poly>])> {
    seg.edges
        .iter()
        .filter_map(|e| Some((e.calls.made?, (e.to, &e.mu[..]))))
        .collect()
}

/// The input-function values read on the chains from the start, by call order; a position
/// whose type differs between chains keeps the first chain's type (the others leave it
/// unconstrained: [`Builder::start_map`] maps only matching ones).
fn start_inputs(seg: &Seg) -> Vec<Input> {
    let mut out: Vec<Input> = Vec::new();
    let chains = seg
        .edges
        .iter()
        .map(|e| (e.from, &e.kb, &e.inputs))
        .chain(seg.leaves.iter().map(|l| (l.from, &l.kb, &l.inputs)));
    for (from, kb, ins) in chains {
        if from != Origin::Start {
            continue;
        }
        for (k, (function, width, val)) in ins.iter().enumerate().skip(out.len()) {
            out.push(Input::Nondet {
                k,
                function: function.trim_start_matches("__VERIFIER_nondet_").into(),
                width: *width,
                reading: reading_of(kb, *val),
            });
        }
    }
    out
}

/// The reading of an input's variable: `fresh` gives an unsigned value the atom `v ≥ 0`.
fn reading_of(kb: &[Atom], val: Val) -> Reading {
    match val {
        Val::Var(v) if kb.contains(&Atom::ge0(Poly::var(v))) => Reading::Unsigned,
        Val::Var(_) => Reading::Signed,
        Val::Const(c) if c < 0 => Reading::Signed,
        Val::Const(_) => Reading::Unsigned,
    }
}

/// The size variables the SEG's constants stand for, sorted.
fn size_vars_used(seg: &Seg) -> Vec<SizeVar> {
    let mut found = BTreeSet::new();
    let polys = seg
        .edges
        .iter()
        .flat_map(|e| e.kb.iter().map(|a| &a.poly).chain(e.mu.iter().flatten()))
        .chain(seg.leaves.iter().flat_map(|l| l.kb.iter().map(|a| &a.poly)));
    for p in polys {
        if let Some((s, _)) = size_vars::classify(p.constant_term()) {
            found.insert(s);
        }
    }
    found.into_iter().collect()
}

/// A chain of the SEG: where it starts, its KB at the end, the inputs it reads, its
/// instructions.
struct Chain<'a> {
    from: Origin,
    kb: &'a [Atom],
    ins: &'a [(String, u32, Val)],
    steps: u64,
}

enum Target<'a> {
    Head(usize, &'a [Option<Poly>]),
    Exit,
}

struct Builder<'a> {
    seg: &'a Seg,
    params: &'a Params,
    inputs: &'a [Input],
    pos: &'a [FxHashMap<usize, usize>],
    arity: usize,
}

impl Builder<'_> {
    /// SEG variable → ITS variable for a chain from the start: parameters and input values.
    fn start_map(&self, ins: &[(String, u32, Val)], map: &mut FxHashMap<usize, usize>) {
        for (i, &(_, _, _, v)) in self.params.iter().enumerate() {
            map.insert(v, i);
        }
        for (k, (_, width, val)) in ins.iter().enumerate() {
            let at = self.inputs.iter().position(
                |x| matches!(x, Input::Nondet { k: j, width: w, .. } if *j == k && w == width),
            );
            if let (Val::Var(v), Some(at)) = (val, at) {
                map.insert(*v, at);
            }
        }
    }

    /// One chain as a transition: guard = the KB at its end, update = `μ` for a head,
    /// inputs and size variables kept, cost = its instructions. Each returned recursive call
    /// of the chain (`spawned`: the callee's call head and `μ`) is a further target: a run
    /// of a recursive program is a tree, KoAT's `Com_k` ([B] counts every node's cost).
    fn transition(
        &self,
        chain: &Chain,
        target: Target,
        spawned: &[(usize, &[Option<Poly>])],
    ) -> Transition {
        let Chain {
            from,
            kb,
            ins,
            steps,
        } = *chain;
        let n_in = self.inputs.len();
        let mut map: FxHashMap<usize, usize> = FxHashMap::default();
        let source = match from {
            Origin::Start => {
                self.start_map(ins, &mut map);
                0
            }
            Origin::Head(h) => {
                for (i, v) in self.seg.head_vars[h].iter().enumerate() {
                    if let (Some(v), Some(p)) = (v, self.pos[h].get(&i)) {
                        map.insert(*v, n_in + *p);
                    }
                }
                h + 1
            }
        };
        let mut temps: Vec<String> = Vec::new();
        let mu: &[Option<Poly>] = match &target {
            Target::Head(_, mu) => mu,
            Target::Exit => &[],
        };
        let mut all: Vec<usize> = kb.iter().flat_map(|a| a.poly.vars()).collect();
        all.extend(mu.iter().flatten().flat_map(|p| p.vars()));
        let spawned_mu = spawned.iter().flat_map(|(_, mu)| mu.iter().flatten());
        all.extend(spawned_mu.flat_map(|p| p.vars()));
        for v in all {
            map.entry(v).or_insert_with(|| {
                temps.push(format!("T{v}"));
                self.arity + temps.len() - 1
            });
        }
        let mut sizes: FxHashMap<SizeVar, usize> = FxHashMap::default();
        let mut size_var = |s: SizeVar| -> usize {
            if let Some(i) = self.inputs.iter().position(|x| *x == Input::Size(s)) {
                return i;
            }
            *sizes.entry(s).or_insert_with(|| {
                temps.push(s.name());
                self.arity + temps.len() - 1
            })
        };
        let mut conv = |p: &Poly| {
            let renamed = p.substitute(&|v| Poly::var(map[&v]));
            size_vars::generalize(&renamed, &mut size_var)
        };
        let guard: Vec<Atom> = kb
            .iter()
            .map(|a| Atom {
                poly: conv(&a.poly),
                rel: a.rel,
            })
            .collect();
        // Inputs keep their values; a head's slots get `μ`, every other position 0.
        let kept: Vec<Poly> = (0..self.arity)
            .map(|i| {
                if i < n_in {
                    Poly::var(i)
                } else {
                    Poly::constant(0)
                }
            })
            .collect();
        let mut head_target = |h: usize, mu: &[Option<Poly>]| {
            let mut update = kept.clone();
            for (i, m) in mu.iter().enumerate() {
                if let (Some(p), Some(j)) = (m, self.pos[h].get(&i)) {
                    update[n_in + *j] = conv(p);
                }
            }
            (h + 1, update)
        };
        let mut targets = vec![match target {
            Target::Head(h, mu) => head_target(h, mu),
            Target::Exit => (usize::MAX, kept.clone()),
        }];
        targets.extend(spawned.iter().map(|&(h, mu)| head_target(h, mu)));
        Transition {
            source,
            com: targets.len() > 1,
            targets,
            guard,
            cost: Poly::constant(steps as i128),
            temps,
        }
    }
}
