//! The symbolic execution graph ([B] §3): a worklist of abstract states, evaluation and
//! refinement steps by [`crate::rules`], and generalization at loop heads.
//!
//! At a loop head, a state that arrives is first run ahead deterministically: if it leaves
//! the program without any refinement (e.g. `g`'s wrapped `j = 0`), it is an ordinary
//! path. Otherwise it is closed by a *generalization edge* to the head's general state
//! `ā` with the instantiation `μ(x̄_i) = LV(x_i)`: fresh variables for the head's registers
//! and the candidate facts (`x ≥ c`, `x ≤ c` for the program's literals, `x ≤ y`, `x < y`)
//! that every arrival entails — the paper's merge keeps what both states entail. When an
//! arrival does not entail a fact of `ā` (it is no instance), the fact is dropped and the
//! graph is rebuilt: the facts only shrink, so the construction is finite (the widening).

use crate::rules::{Exec, Outcome};
use crate::state::{const_truth, ge_c, le_c, Frame, Reading, State, Val};
use std::collections::BTreeMap;
use std::time::Instant;
use symex_ir::{BlockId, Const, FuncId, Operand, Slot};
use symex_its::{Atom, Poly};

/// The position stack of a loop head.
pub type Key = Vec<(u32, u32, usize)>;

/// Where a chain of evaluation/refinement edges starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Start,
    Head(usize),
}

/// The general state of a loop head: its registers and the facts over them (atoms over
/// the indices of `slots`).
#[derive(Clone, Debug)]
pub struct HeadSpec {
    pub key: Key,
    pub template: Vec<Frame>,
    /// (frame index, slot, width, reading).
    pub slots: Vec<(usize, Slot, u32, Reading)>,
    pub live: Vec<bool>,
    pub facts: Vec<Atom>,
    pub name: String,
    /// `AL`/`PT` of the general state; its variables are numbered after `slots` (in
    /// `live`, `head_vars`, `μ` and the facts).
    pub mem: crate::mem_head::MemHead,
    /// Flag registers pinned to literals in this general state ([`crate::heads::flag_values`]).
    pub flags: Vec<(Slot, i128)>,
    /// Which pointer registers are null or share a list ([`crate::list::shape_key`]).
    pub shape: Vec<u8>,
    /// The guard case of its arrivals ([`crate::guard_split`]; empty: not split).
    pub split: Vec<Atom>,
}

/// A chain of evaluation and refinement edges from `from` ending in a generalization edge
/// to head `to`: the KB at its end and `μ` (per slot of `to`).
#[derive(Clone, Debug)]
pub struct SegEdge {
    pub from: Origin,
    pub to: usize,
    pub kb: Vec<Atom>,
    pub mu: Vec<Option<Poly>>,
    /// IR instructions the chain executes (terminators included, as `symex replay` counts).
    pub steps: u64,
    /// The `__VERIFIER_nondet_*` values the chain reads, in call order.
    pub inputs: Vec<(String, u32, Val)>,
    /// `made`: this chain is the call of that number, arriving at the callee's call head;
    /// `returned`: the calls the chain made whose callers went on.
    pub calls: crate::state::Calls,
}

/// A path that ended (program exit) from `from`, with its KB.
#[derive(Clone, Debug)]
pub struct Leaf {
    pub from: Origin,
    pub kb: Vec<Atom>,
    /// As [`SegEdge::steps`], up to the end of the program.
    pub steps: u64,
    pub inputs: Vec<(String, u32, Val)>,
    /// The calls the path made that returned ([`crate::state::Calls::returned`]).
    pub returned: Vec<u32>,
}

#[derive(Clone, Debug, Default)]
pub struct Seg {
    pub heads: Vec<HeadSpec>,
    /// The variables of each head's general state (per slot; `None` for dead slots).
    pub head_vars: Vec<Vec<Option<usize>>>,
    pub head_kb: Vec<Vec<Atom>>,
    pub edges: Vec<SegEdge>,
    pub leaves: Vec<Leaf>,
    pub states: usize,
    pub rounds: usize,
}

/// Why the SEG is not complete.
#[derive(Clone, Debug)]
pub enum Stop {
    /// An `ERR` state: undefined behaviour not excluded.
    Err(String),
    Unsupported(String),
    Limit(String),
}

pub struct Limits {
    pub max_states: usize,
    pub max_rounds: usize,
    pub deadline: Instant,
}

enum Arrival {
    Continue,
    Rebuild,
}

pub fn build(ex: &mut Exec, entry: FuncId, limits: &Limits) -> Result<Seg, Stop> {
    let mut specs: Vec<HeadSpec> = Vec::new();
    for round in 1.. {
        if round > limits.max_rounds {
            return Err(Stop::Limit(format!(
                "the loop-head generalization did not stabilise in {} rounds",
                limits.max_rounds
            )));
        }
        let mut seg = Seg {
            heads: std::mem::take(&mut specs),
            rounds: round,
            ..Seg::default()
        };
        seg.head_vars = vec![Vec::new(); seg.heads.len()];
        seg.head_kb = vec![Vec::new(); seg.heads.len()];
        let mut instantiated = vec![false; seg.heads.len()];
        ex.nvars = 0;
        ex.ncalls = 0;
        ex.rebuild = false;
        let mut init = initial(ex, entry)?;
        let mut work: Vec<(Origin, State, u64)> = Vec::new();
        let mut rebuild = false;
        if init.arrived {
            init.arrived = false;
            if let Arrival::Rebuild = arrival(
                ex,
                &mut seg,
                &mut instantiated,
                &mut work,
                (Origin::Start, init, 0),
            ) {
                rebuild = true;
            }
        } else {
            work.push((Origin::Start, init, 0));
        }
        while !rebuild {
            let Some((origin, st, steps)) = work.pop() else {
                break;
            };
            seg.states += 1;
            if seg.states > limits.max_states {
                return Err(Stop::Limit(format!(
                    "more than {} abstract states",
                    limits.max_states
                )));
            }
            if Instant::now() > limits.deadline {
                return Err(Stop::Limit("time limit reached".into()));
            }
            if symex_its::smt::out_of_budget() {
                return Err(Stop::Limit("query budget spent".into()));
            }
            match ex.step(st) {
                Outcome::Next(succs) => {
                    for s in succs {
                        if s.halted {
                            seg.leaves.push(Leaf {
                                from: origin,
                                kb: s.kb,
                                steps: steps + 1,
                                inputs: s.inputs,
                                returned: s.calls.returned,
                            });
                        } else if s.arrived {
                            let arrived = (origin, s, steps + 1);
                            if let Arrival::Rebuild =
                                arrival(ex, &mut seg, &mut instantiated, &mut work, arrived)
                            {
                                rebuild = true;
                                break;
                            }
                        } else {
                            work.push((origin, s, steps + 1));
                        }
                    }
                }
                Outcome::Done(s) => seg.leaves.push(Leaf {
                    from: origin,
                    kb: s.kb,
                    steps: steps + 1,
                    inputs: s.inputs,
                    returned: s.calls.returned,
                }),
                Outcome::Err(r) => return Err(Stop::Err(r)),
                Outcome::Unsupported(r) => return Err(Stop::Unsupported(r)),
            }
        }
        // A recursive function's summary lost a fact: the round used a too strong one.
        rebuild |= std::mem::take(&mut ex.rebuild);
        if !rebuild {
            return Ok(seg);
        }
        specs = seg.heads;
    }
    unreachable!("the loop returns")
}

fn initial(ex: &mut Exec, entry: FuncId) -> Result<State, Stop> {
    let mut st = State {
        frames: vec![Frame {
            func: entry,
            block: BlockId(0),
            idx: 0,
            regs: BTreeMap::new(),
            ret_to: None,
            ptrs: BTreeMap::new(),
        }],
        kb: Vec::new(),
        arrived: ex.heads.contains(&(entry, BlockId(0))),
        halted: false,
        unrolled: 0,
        inputs: Vec::new(),
        mem: crate::rules::alloc::initial_mem(ex.module),
        calls: Default::default(),
    };
    // Parameters of the entry function (`main(argc, argv)`) are unconstrained inputs.
    for i in 0..ex.module.func(entry).params.len() {
        let s = Slot(i as u32);
        if let Some(w) = ex.slot_width(entry, s) {
            let r = ex.class.reading(entry, s);
            let v = ex.fresh(&mut st, w, r);
            st.top_mut().regs.insert(s, Val::Var(v));
        } else {
            // A pointer parameter (`argv`): nothing is known of what it points to.
            st.top_mut().ptrs.insert(s, crate::state::Ptr::unknown());
        }
    }
    Ok(st)
}

/// Loop-head arrivals a concrete path may pass before it is generalized.
const UNROLL: u32 = 300;

fn is_concrete(s: &State) -> bool {
    // A list invariant stands for lists of many lengths: not a concrete state.
    s.mem.lists.iter().all(|l| !l.live)
        && s.frames
            .iter()
            .all(|f| f.regs.values().all(|v| matches!(v, Val::Const(_))))
}

/// Deterministic run-ahead: the instructions after which `s` ends the program without a
/// refinement or a loop head.
fn leaves_without_loop(ex: &mut Exec, s: &State) -> Option<u64> {
    let mut cur = s.clone();
    for steps in 1..=10_000 {
        match ex.step(cur) {
            Outcome::Next(mut v) if v.len() == 1 => {
                let n = v.pop().expect("one");
                if n.halted {
                    return Some(steps);
                }
                if n.arrived {
                    return None;
                }
                cur = n;
            }
            Outcome::Done(_) => return Some(steps),
            _ => return None,
        }
    }
    None
}

fn arrival(
    ex: &mut Exec,
    seg: &mut Seg,
    instantiated: &mut Vec<bool>,
    work: &mut Vec<(Origin, State, u64)>,
    (origin, mut s, steps): (Origin, State, u64),
) -> Arrival {
    // A concrete state (every register a literal, e.g. `for (i = 0; i < 8; i++)` with
    // literal data) is executed on instead of generalized, up to a bound: precise, and
    // finite because of the bound.
    let call_head = crate::rules::recursion::is_call_head(ex, &s);
    if !call_head && s.unrolled < UNROLL && is_concrete(&s) {
        s.unrolled += 1;
        work.push((origin, s, steps));
        return Arrival::Continue;
    }
    // Lists (seed 000): chains of elements become list invariants, and the first iterations
    // of a loop building one run on until the list shows two elements.
    crate::list::fold(ex, &mut s);
    if !call_head && s.unrolled < crate::list::LIST_UNROLL && crate::list::wants_unroll(ex, &s) {
        s.unrolled += 1;
        work.push((origin, s, steps));
        return Arrival::Continue;
    }
    if !call_head && crate::heads::peel(ex.module, origin == Origin::Start, &s) {
        s.unrolled += 1;
        work.push((origin, s, steps));
        return Arrival::Continue;
    }
    let leaves = if call_head {
        None
    } else {
        leaves_without_loop(ex, &s)
    };
    if let Some(rest) = leaves {
        seg.leaves.push(Leaf {
            from: origin,
            kb: s.kb.clone(),
            steps: steps + rest,
            inputs: s.inputs.clone(),
            returned: s.calls.returned.clone(),
        });
        return Arrival::Continue;
    }
    let cases = if call_head || !ex.split_guards {
        None
    } else {
        crate::guard_split::split(ex, &s)
    };
    let Some(cases) = cases else {
        return close(ex, seg, instantiated, work, (origin, s, steps), Vec::new());
    };
    for c in cases {
        if let Some(rest) = leaves_without_loop(ex, &c.state) {
            seg.leaves.push(Leaf {
                from: origin,
                kb: c.state.kb,
                steps: steps + rest,
                inputs: c.state.inputs,
                returned: c.state.calls.returned,
            });
            continue;
        }
        let arrived = (origin, c.state, steps);
        if let Arrival::Rebuild = close(ex, seg, instantiated, work, arrived, c.key) {
            return Arrival::Rebuild;
        }
    }
    Arrival::Continue
}

/// Closes arrival `s` by a generalization edge into the general state of its head (of its
/// flag values, pointer shape and guard case `split`), creating or weakening that state.
fn close(
    ex: &mut Exec,
    seg: &mut Seg,
    instantiated: &mut Vec<bool>,
    work: &mut Vec<(Origin, State, u64)>,
    (origin, mut s, steps): (Origin, State, u64),
    mut split: Vec<Atom>,
) -> Arrival {
    let key = s.key();
    let mut flags = crate::heads::flag_values(ex.module, &s);
    let variants = seg.heads.iter().filter(|h| h.key == key).count();
    let shape = crate::list::shape_key(ex, &s);
    let known = |flags: &[(Slot, i128)], split: &[Atom]| {
        seg.heads
            .iter()
            .position(|h| h.key == key && h.flags == flags && h.shape == shape && h.split == split)
    };
    if known(&flags, &split).is_none() && variants >= crate::heads::MAX_FLAG_VARIANTS {
        flags.clear();
        split.clear();
    }
    let h = match known(&flags, &split) {
        Some(h) => {
            seg.heads[h].mem.normalize(ex, &mut s);
            let call_head = crate::rules::recursion::is_call_head(ex, &s);
            // No ladder widening at a call head: a recursion's base case `n == 0` bounds
            // no threshold (`n ≥ 0` holds only by the head's own `n ≥ 0` and `n ≠ 0`), so
            // the widening would drop the bound that excludes the overflow of `n − 1`.
            let from = match origin {
                Origin::Head(o) if !call_head => Some(crate::heads::ChainOrigin {
                    facts: seg.heads[o].facts.clone(),
                    vars: seg.head_vars[o].clone(),
                    regs: seg.heads[o].slots.iter().map(|r| (r.0, r.1)).collect(),
                }),
                _ => None,
            };
            if !is_instance(ex, &mut seg.heads[h], &s, from.as_ref()) {
                return Arrival::Rebuild;
            }
            h
        }
        None => {
            let mut spec = new_head(
                ex,
                &crate::heads::without_flags(&s, &flags),
                seg.heads.len(),
            );
            crate::heads::pin_flags(&mut spec, &flags);
            spec.shape = shape.clone();
            let regs: Vec<(usize, Slot)> = spec.slots.iter().map(|r| (r.0, r.1)).collect();
            for f in crate::guard_split::key_facts(&split, &regs, s.frames.len() - 1) {
                if !spec.facts.contains(&f) {
                    spec.facts.push(f);
                }
            }
            spec.split = split;
            seg.heads.push(spec);
            seg.head_vars.push(Vec::new());
            seg.head_kb.push(Vec::new());
            instantiated.push(false);
            seg.heads.len() - 1
        }
    };
    let spec = &seg.heads[h];
    let mut mu: Vec<Option<Poly>> = spec
        .slots
        .iter()
        .zip(&spec.live)
        .map(|((fi, slot, _, _), live)| {
            live.then(|| s.frames[*fi].regs.get(slot).map(|v| v.poly()))
                .flatten()
        })
        .collect();
    mu.extend(spec.mem.mu(&s, &spec.live[spec.slots.len()..]));
    seg.edges.push(SegEdge {
        from: origin,
        to: h,
        kb: s.kb,
        mu,
        steps,
        inputs: s.inputs,
        calls: s.calls,
    });
    if !instantiated[h] {
        instantiated[h] = true;
        let (st, vars) = instantiate(ex, &seg.heads[h]);
        seg.head_kb[h] = st.kb.clone();
        seg.head_vars[h] = vars;
        work.push((Origin::Head(h), st, 0));
    }
    Arrival::Continue
}

/// The general state of a head: fresh variables for its live registers, its facts.
fn instantiate(ex: &mut Exec, spec: &HeadSpec) -> (State, Vec<Option<usize>>) {
    let mut st = State {
        frames: spec.template.clone(),
        kb: Vec::new(),
        arrived: false,
        halted: false,
        unrolled: 0,
        inputs: Vec::new(),
        mem: Default::default(),
        calls: Default::default(),
    };
    let mut vars = Vec::new();
    for ((fi, slot, width, reading), live) in spec.slots.iter().zip(&spec.live) {
        if !live {
            vars.push(None);
            continue;
        }
        let v = ex.fresh(&mut st, *width, *reading);
        st.frames[*fi].regs.insert(*slot, Val::Var(v));
        vars.push(Some(v));
    }
    let n = spec.slots.len();
    vars.extend(
        spec.mem
            .instantiate(ex, &mut st, &spec.live[n..], &spec.facts, n),
    );
    let sub = |i: usize| vars[i].map_or(Poly::constant(0), Poly::var);
    for f in &spec.facts {
        st.kb.push(Atom {
            poly: f.poly.substitute(&sub),
            rel: f.rel,
        });
    }
    (st, vars)
}

/// Whether `s` is an instance of the head's general state (conditions (g2), (g3)); when it
/// is not, the head is weakened (dead slots, facts `s` does not entail) and `false` returned.
/// `from`: the head the chain to `s` starts at, if any (then broken literal ladders are
/// widened at once, [`crate::heads::ladder_drops`]).
fn is_instance(
    ex: &mut Exec,
    spec: &mut HeadSpec,
    s: &State,
    from: Option<&crate::heads::ChainOrigin>,
) -> bool {
    let n = spec.slots.len();
    let mut ok = spec.mem.matches(s, &mut spec.live[n..]);
    let mem_mu = spec.mem.mu(s, &spec.live[n..]);
    for (i, (fi, slot, _, _)) in spec.slots.iter().enumerate() {
        if spec.live[i] && !s.frames[*fi].regs.contains_key(slot) {
            spec.live[i] = false;
            ok = false;
        }
    }
    let live = spec.live.clone();
    let slots = spec.slots.clone();
    let mu = |i: usize| -> Poly {
        if i >= n {
            return mem_mu[i - n].clone().unwrap_or_default();
        }
        let (fi, slot, _, _) = slots[i];
        s.frames[fi]
            .regs
            .get(&slot)
            .map_or(Poly::constant(0), |v| v.poly())
    };
    let before = spec.facts.len();
    let old = spec.facts.clone();
    spec.facts.retain(|f| {
        f.poly.vars().iter().all(|v| live[*v])
            && ex.kb.entails(
                &s.kb,
                &Atom {
                    poly: f.poly.substitute(&mu),
                    rel: f.rel,
                },
            )
    });
    if let (Some(from), true) = (from, spec.facts.len() != before) {
        let dropped: Vec<Atom> = old
            .iter()
            .filter(|f| !spec.facts.contains(f))
            .cloned()
            .collect();
        let regs: Vec<(usize, Slot)> = slots.iter().map(|r| (r.0, r.1)).collect();
        let facts = (&spec.facts[..], &dropped[..]);
        let more = crate::heads::ladder_drops(&mut ex.kb, facts, &s.kb, &regs, from, &mu);
        spec.facts.retain(|f| !more.contains(f));
    }
    ok && spec.facts.len() == before
}

/// A head's general state from its first arrival: the registers still used from the head
/// on, and the candidate facts the arrival entails.
fn new_head(ex: &mut Exec, s: &State, index: usize) -> HeadSpec {
    let mut slots = Vec::new();
    for (fi, frame) in s.frames.iter().enumerate() {
        let used = crate::heads::live_slots(ex.module, frame, fi + 1 < s.frames.len());
        for slot in frame.regs.keys() {
            if !used.contains(slot) {
                continue;
            }
            if let Some(w) = ex.slot_width(frame.func, *slot) {
                slots.push((fi, *slot, w, ex.class.reading(frame.func, *slot)));
            }
        }
    }
    let mut template = s.frames.clone();
    for f in &mut template {
        f.regs.clear();
        f.ptrs.clear();
    }
    let mut candidates = Vec::new();
    let top = s.top().func;
    let lits = literals(ex, top);
    for (i, (_, _, w, r)) in slots.iter().enumerate() {
        let x = Poly::var(i);
        let (lo, hi) = crate::rules::range(*w, *r);
        for &c in &lits {
            let c = if ex.sem.math_int {
                c
            } else {
                crate::state::convert_const(c, *w, *r)
            };
            if ex.sem.math_int || c > lo {
                candidates.push(ge_c(&x, c));
            }
            if ex.sem.math_int || c < hi {
                candidates.push(le_c(&x, c));
            }
        }
    }
    // A literal the first arrival holds that is no literal of the program: a value computed
    // once before the loop (a pointer difference `&h->next - &h->value` is the offset 8).
    for (i, (fi, slot, _, _)) in slots.iter().enumerate() {
        if let Some(Val::Const(c)) = s.frames[*fi].regs.get(slot) {
            if !lits.contains(c) {
                candidates.push(ge_c(&Poly::var(i), *c));
                candidates.push(le_c(&Poly::var(i), *c));
            }
        }
    }
    let widths: Vec<u32> = slots.iter().map(|s| s.2).collect();
    candidates.extend(crate::heads::relational_candidates(&widths));
    if !ex.sem.math_int {
        let readings: Vec<(u32, Reading)> = slots.iter().map(|s| (s.2, s.3)).collect();
        candidates.extend(crate::heads::shared_range_candidates(&readings));
    }
    let lives: Vec<_> = (0..s.frames.len())
        .map(|fi| crate::heads::live_slots(ex.module, &s.frames[fi], fi + 1 < s.frames.len()))
        .collect();
    let used = |fi: usize, slot: Slot| lives[fi].contains(&slot);
    let reg_slots: Vec<(usize, Slot)> = slots.iter().map(|(fi, slot, _, _)| (*fi, *slot)).collect();
    let mem = crate::mem_head::MemHead::of(s, &used, &reg_slots);
    let mut live = vec![true; slots.len()];
    live.extend(mem.initial_live());
    let mem_mu = mem.mu(s, &live[slots.len()..]);
    let reg_mu = |i: usize| {
        let (fi, slot, _, _) = slots[i];
        s.frames[fi]
            .regs
            .get(&slot)
            .map_or(Poly::constant(0), |v| v.poly())
    };
    let regs: Vec<_> = (0..slots.len())
        .map(|i| (reg_mu(i), slots[i].2, slots[i].3))
        .collect();
    // One model rules out most candidates without an entailment query each.
    let model = ex.kb.model(&s.kb, &[], ex.nvars);
    let value = |p: &Poly| model.as_ref().and_then(|m| p.eval(m));
    candidates.extend(mem.candidates(slots.len(), &regs, &mem_mu, &lits, &value));
    if !ex.sem.math_int {
        let n = slots.len();
        candidates.extend(crate::heads::shared_range_mem_candidates(
            n, &mem.vars, &mem_mu,
        ));
    }
    if !ex.sem.math_int {
        let values: Vec<Option<i128>> = (0..slots.len()).map(|i| value(&reg_mu(i))).collect();
        candidates.extend(crate::heads::affine_candidates(&values, &widths));
        let ranges: Vec<_> = slots
            .iter()
            .map(|(_, _, w, r)| (*w > 1).then(|| crate::rules::range(*w, *r)))
            .collect();
        candidates.extend(crate::heads::in_range_candidates(&ranges));
    }
    candidates.sort();
    candidates.dedup();
    let mu = |i: usize| {
        if i >= slots.len() {
            return mem_mu[i - slots.len()].clone().unwrap_or_default();
        }
        reg_mu(i)
    };
    let mut facts = Vec::new();
    for c in candidates {
        let inst = Atom {
            poly: c.poly.substitute(&mu),
            rel: c.rel,
        };
        if let (Some(m), None) = (&model, const_truth(&inst)) {
            let holds = symex_its::its::Atom::holds(&inst, m);
            if holds == Some(false) {
                continue;
            }
        }
        if ex.kb.entails(&s.kb, &inst) {
            facts.push(c);
        }
    }
    // Octagon facts from the kept bounds: implied by them, so no query is needed.
    if !ex.sem.math_int {
        let ranges: Vec<_> = slots
            .iter()
            .map(|(_, _, w, r)| (*w > 1).then(|| crate::rules::range(*w, *r)))
            .collect();
        let corners = crate::heads::corner_facts(&ranges, &facts);
        for c in corners {
            if !facts.contains(&c) {
                facts.push(c);
            }
        }
    }
    let f = s.top();
    let func = ex.module.func(f.func);
    let block = &func.body.as_ref().expect("body").blocks[f.block.0 as usize];
    HeadSpec {
        key: s.key(),
        template,
        live,
        slots,
        facts,
        name: format!("h{index}_{}_{}", func.name, block.name.replace('.', "_")),
        mem,
        flags: Vec::new(),
        shape: Vec::new(),
        split: Vec::new(),
    }
}

/// The integer literals of a function (and −1, 0, 1), at most 16, smallest first.
fn literals(ex: &Exec, f: FuncId) -> Vec<i128> {
    let body = ex.module.func(f).body.as_ref().expect("body");
    let mut lits: Vec<i128> = vec![-1, 0, 1];
    for blk in &body.blocks {
        let text = format!("{:?} {:?}", blk.insts, blk.term);
        for part in text.split("Const(ConstId(").skip(1) {
            if let Some(n) = part.split(')').next().and_then(|n| n.parse::<u32>().ok()) {
                if let Some(Const::Int { width, value }) = ex.module.consts.get(n as usize) {
                    if *width > 1 && *width <= 64 {
                        let v =
                            crate::state::convert_const(*value as i128, *width, Reading::Signed);
                        lits.extend([v, v - 1, v + 1]);
                    }
                }
            }
        }
    }
    lits.sort_by_key(|v| (v.abs(), *v));
    lits.dedup();
    lits.truncate(16);
    let _ = Operand::Const;
    lits
}

fn atom_text(a: &Atom, name: &dyn Fn(usize) -> String) -> String {
    let rel = match a.rel {
        symex_its::Rel::Ge => ">=",
        symex_its::Rel::Eq => "=",
        symex_its::Rel::Ne => "!=",
    };
    format!("{} {rel} 0", a.poly.display(name))
}

/// The SEG in text: each loop head's general state (its registers and facts), then the
/// chains between heads (evaluation and refinement edges collapsed, generalization at the end).
pub fn describe(seg: &Seg) -> String {
    let mut out = format!(
        "SEG: {} loop heads, {} chains ending in generalization edges, {} exits, {} states, {} rounds\n",
        seg.heads.len(),
        seg.edges.len(),
        seg.leaves.len(),
        seg.states,
        seg.rounds
    );
    for (h, spec) in seg.heads.iter().enumerate() {
        let vars = &seg.head_vars[h];
        let name = |i: usize| format!("x{i}");
        let regs: Vec<String> = spec
            .slots
            .iter()
            .enumerate()
            .filter(|(i, _)| spec.live[*i])
            .map(|(i, (fi, s, w, r))| {
                let v = vars
                    .get(i)
                    .copied()
                    .flatten()
                    .map_or("-".into(), |v| format!("v{v}"));
                format!("x{i} = %{} (frame {fi}, i{w} {:?}) = {v}", s.0, r)
            })
            .collect();
        out.push_str(&format!("  {}: {}\n", spec.name, regs.join("; ")));
        if !spec.flags.is_empty() {
            let flags: Vec<String> = spec
                .flags
                .iter()
                .map(|(s, c)| format!("%{} = {c}", s.0))
                .collect();
            out.push_str(&format!("    flags: {}\n", flags.join(", ")));
        }
        let facts: Vec<String> = spec.facts.iter().map(|a| atom_text(a, &name)).collect();
        out.push_str(&format!("    facts: {}\n", facts.join(", ")));
        if !spec.mem.allocs.is_empty() || !spec.mem.ptrs.is_empty() {
            out.push_str(&format!(
                "    memory: {}\n",
                spec.mem.describe(spec.slots.len())
            ));
        }
    }
    for (i, e) in seg.edges.iter().enumerate() {
        let from = match e.from {
            Origin::Start => "start".to_string(),
            Origin::Head(h) => seg.heads[h].name.clone(),
        };
        let name = |v: usize| format!("v{v}");
        let mu: Vec<String> =
            e.mu.iter()
                .enumerate()
                .filter_map(|(i, p)| p.as_ref().map(|p| format!("x{i} := {}", p.display(&name))))
                .collect();
        out.push_str(&format!(
            "  chain {i}: {from} -> {} with mu [{}]\n",
            seg.heads[e.to].name,
            mu.join(", ")
        ));
    }
    out
}

/// The SEG in DOT: loop heads, start and exits, chains as edges labelled with `μ`.
pub fn to_dot(seg: &Seg) -> String {
    let mut out = String::from("digraph seg {\n  start [shape=box];\n  exit [shape=box];\n");
    for spec in &seg.heads {
        let name = |i: usize| format!("x{i}");
        let facts: Vec<String> = spec.facts.iter().map(|a| atom_text(a, &name)).collect();
        out.push_str(&format!(
            "  {} [label=\"{}\\n{}\"];\n",
            spec.name,
            spec.name,
            facts.join("\\n")
        ));
    }
    let node = |o: Origin| match o {
        Origin::Start => "start".to_string(),
        Origin::Head(h) => seg.heads[h].name.clone(),
    };
    for e in &seg.edges {
        let name = |v: usize| format!("v{v}");
        let mu: Vec<String> =
            e.mu.iter()
                .enumerate()
                .filter_map(|(i, p)| p.as_ref().map(|p| format!("x{i}:={}", p.display(&name))))
                .collect();
        out.push_str(&format!(
            "  {} -> {} [label=\"{}\"];\n",
            node(e.from),
            seg.heads[e.to].name,
            mu.join(", ")
        ));
    }
    for l in &seg.leaves {
        out.push_str(&format!("  {} -> exit [style=dashed];\n", node(l.from)));
    }
    out.push_str("}\n");
    out
}
