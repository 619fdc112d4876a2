//! The symbolic-execution rules of [B] §3 on abstract states, one rule family per file:
//! [`arith`] (add/sub case analysis, mul/shl/trunc by modulo relations, div/rem/shift
//! brackets, bitwise range facts), [`cmp`] (icmp and select refinement), [`control`]
//! (br/switch/phi/ret), [`call`] (inlined calls, `__VERIFIER_*`), [`cast`] (zext/sext/trunc),
//! [`alloc`] (globals, alloca, malloc/calloc/free), [`memory`] (gep, load/store, pointers).
//!
//! A step returns the successors: one for an *evaluation*, several for a *refinement* (the
//! KB split on a condition neither entailed nor refuted). A state where undefined behaviour
//! cannot be excluded is `ERR`; a construct outside the fragment is `Unsupported`. Both
//! name the instruction and its source position.

pub mod alloc;
pub mod arith;
pub mod call;
pub mod cast;
pub mod cell_split;
pub mod cmp;
pub mod control;
pub mod list;
pub mod memory;
pub mod nonlinear;
pub mod ptrdiff;
pub mod rec_memory;
pub mod recursion;

use crate::classify::Classification;
use crate::kb::Kb;
use crate::state::{convert_const, eq, ge_c, le_c, smax, smin, umax, Reading, State, Val};
use rustc_hash::FxHashSet;
use symex_ir::{BlockId, Const, FuncId, Inst, Loc, Module, Operand, Slot, TypeKind};
use symex_its::{Atom, Poly};

/// The semantics switches of `symex term`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Semantics {
    /// Mathematical integers instead of bit-vectors (no ranges, no wrap-around): the
    /// unsound model the paper's §1 argues against, for comparison.
    pub math_int: bool,
    /// Signed overflow wraps (two's complement) instead of being undefined behaviour, as
    /// in the paper's evaluation.
    pub signed_wrap: bool,
}

/// The result of one step.
pub enum Outcome {
    /// The successors (more than one: a refinement).
    Next(Vec<State>),
    /// The path ended: the program exited (or an assumption cut it off); the last state.
    Done(Box<State>),
    /// `ERR`: undefined behaviour is not excluded.
    Err(String),
    /// Outside the supported fragment.
    Unsupported(String),
}

/// The executor: the program, its classification, the variable counter and the solver.
pub struct Exec<'m> {
    pub module: &'m Module,
    pub class: Classification,
    pub sem: Semantics,
    pub kb: Kb,
    pub nvars: usize,
    /// Recursive calls numbered so far in this SEG round ([`crate::state::Calls`]).
    pub ncalls: u32,
    /// Loop heads: targets of DFS back edges, per function.
    pub heads: FxHashSet<(FuncId, BlockId)>,
    /// Concrete mode: the values `__VERIFIER_nondet_*` return, in order.
    pub concrete_inputs: Option<Vec<i128>>,
    /// For `symex cost`: an overflow case of an `nsw`/`nuw` add, sub or multiplication by a
    /// literal ends its path (a run stops at undefined behaviour, as the interpreter's
    /// overflow check stops it) instead of being `ERR`; `ub_cut` says where.
    pub ub_ends_run: bool,
    pub ub_cut: Vec<String>,
    /// Pointer registers whose cells are read signed ([`memory::signed_cells`]).
    pub signed_cells: FxHashSet<(FuncId, Slot)>,
    /// Functions on a cycle of the call graph ([`recursion`]).
    pub recursive: FxHashSet<FuncId>,
    /// The return summaries of the recursive functions (they persist across SEG rounds).
    pub summaries: rustc_hash::FxHashMap<FuncId, recursion::Summary>,
    /// A summary lost a fact in this round: the SEG must be rebuilt.
    pub rebuild: bool,
    /// Loop-head arrivals are split on their guard's cases ([`crate::guard_split`]).
    pub split_guards: bool,
}

type R<T> = Result<T, Outcome>;

impl<'m> Exec<'m> {
    pub fn new(module: &'m Module, sem: Semantics, kb: Kb) -> Exec<'m> {
        let mut ex = Exec {
            module,
            class: Classification::of(module),
            sem,
            kb,
            nvars: 0,
            ncalls: 0,
            heads: crate::heads::loop_heads(module),
            concrete_inputs: None,
            ub_ends_run: false,
            ub_cut: Vec::new(),
            signed_cells: FxHashSet::default(),
            recursive: recursion::recursive_functions(module),
            summaries: Default::default(),
            rebuild: false,
            split_guards: false,
        };
        ex.signed_cells = memory::signed_cells(module, &ex.class);
        ex
    }

    /// The source position of the next instruction of `st`.
    pub fn here(&self, st: &State) -> String {
        let f = st.top();
        let body = self.module.func(f.func).body.as_ref().expect("a body");
        let b = &body.blocks[f.block.0 as usize];
        let loc = b.locs.get(f.idx).copied().unwrap_or(b.term_loc);
        self.describe(loc, f.func)
    }

    /// The source line of the state's position. At a block's start (a loop head) it is the line of the
    /// loop statement: clang puts it on the branches into the header (the entry and the back edge), while
    /// the header's own first line may be inside the body (`while (1)` has no condition block). Otherwise
    /// its instruction's line, or the next located one's in the block, or the terminator's.
    pub fn line(&self, st: &State) -> u32 {
        let f = st.top();
        let body = self.module.func(f.func).body.as_ref().expect("a body");
        let b = &body.blocks[f.block.0 as usize];
        // The unconditional branches first: a conditional one into the header may be an `if` before
        // the loop whose false side falls into it.
        let into = |plain: bool| {
            body.blocks
                .iter()
                .filter(|p| p.term.successors().contains(&f.block))
                .filter(|p| !plain || matches!(p.term, symex_ir::Terminator::Br(_)))
                .map(|p| p.term_loc)
                .filter(|l| l.is_known())
                .map(|l| l.line)
                .min()
        };
        let into_head = into(true).or_else(|| into(false));
        if let (0, Some(line)) = (f.idx, into_head) {
            return line;
        }
        b.locs
            .iter()
            .skip(f.idx)
            .chain(std::iter::once(&b.term_loc))
            .find(|l| l.is_known())
            .map_or(0, |l| l.line)
    }

    fn describe(&self, loc: Loc, f: FuncId) -> String {
        format!(
            "{} (in {})",
            self.module.describe_loc(loc),
            self.module.func(f).name
        )
    }

    pub fn unsupported(&self, st: &State, what: &str) -> Outcome {
        Outcome::Unsupported(format!("{}: unsupported: {what}", self.here(st)))
    }

    pub fn err(&self, st: &State, what: &str) -> Outcome {
        Outcome::Err(format!("{}: {what}", self.here(st)))
    }

    /// A fresh symbolic variable of `width` bits in `reading`, its range added to the KB.
    pub fn fresh(&mut self, st: &mut State, width: u32, reading: Reading) -> usize {
        let v = self.nvars;
        self.nvars += 1;
        let p = Poly::var(v);
        if width == 1 {
            let (lo, hi) = match reading {
                Reading::Unsigned => (0, 1),
                Reading::Signed => (-1, 0),
            };
            st.kb.push(ge_c(&p, lo));
            st.kb.push(le_c(&p, hi));
        } else if !self.sem.math_int {
            let (lo, hi) = range(width, reading);
            st.kb.push(ge_c(&p, lo));
            st.kb.push(le_c(&p, hi));
        }
        v
    }

    /// A fresh unbounded integer (the `k` of a modulo relation).
    pub fn fresh_int(&mut self) -> usize {
        self.nvars += 1;
        self.nvars - 1
    }

    /// The bit width of a slot of the top frame's function (`None` for non-integers).
    pub fn slot_width(&self, f: FuncId, s: Slot) -> Option<u32> {
        let body = self.module.func(f).body.as_ref()?;
        let ty = body.slot_types.get(s.0 as usize)?;
        match self.module.ty(*ty).kind {
            TypeKind::Int(w) => Some(w),
            _ => None,
        }
    }

    /// The reading literals get: in the mathematical-integer model every literal is read
    /// signed (`j + (-1)` is `j - 1`, as a C programmer reads it).
    fn literal_reading(&self, want: Reading) -> Reading {
        if self.sem.math_int {
            Reading::Signed
        } else {
            want
        }
    }

    /// `LV_{want,n}(op)` (§3): the operand's value in the wanted reading; a register held in
    /// the other reading is converted by a modulo relation `w = v ± k·2ⁿ`, `k ∈ {0, 1}`.
    pub fn operand(&mut self, st: &mut State, op: Operand, width: u32, want: Reading) -> R<Poly> {
        if width > 64 {
            return Err(self.unsupported(st, &format!("{width}-bit integers")));
        }
        match op {
            Operand::Const(c) => match self.module.konst(c) {
                Const::Int { width: w, value } => {
                    // An `i1` keeps its reading: `true` read signed would be −1, a value an
                    // unsigned `i1` register (a branch condition) cannot hold — the path was lost.
                    let want = if *w == 1 {
                        want
                    } else {
                        self.literal_reading(want)
                    };
                    Ok(Poly::constant(convert_const(*value as i128, *w, want)))
                }
                Const::Undef(_) => {
                    let v = self.fresh(st, width, want);
                    Ok(Poly::var(v))
                }
                _ => Err(self.unsupported(st, "pointer or aggregate constant")),
            },
            Operand::Slot(s) => {
                let f = st.top().func;
                let Some(val) = st.top().regs.get(&s).copied() else {
                    return Err(self.unsupported(st, "register without a value"));
                };
                let have = self.class.reading(f, s);
                Ok(self.convert(st, val, width, have, want))
            }
        }
    }

    /// The value `val` held in reading `have`, seen in reading `want`.
    pub fn convert(
        &mut self,
        st: &mut State,
        val: Val,
        width: u32,
        have: Reading,
        want: Reading,
    ) -> Poly {
        if have == want || self.sem.math_int && width > 1 {
            return val.poly();
        }
        match val {
            Val::Const(c) => Poly::constant(convert_const(c, width, want)),
            Val::Var(v) => {
                // Both readings agree on `[0, smax]`: no conversion when that is entailed.
                let p = Poly::var(v);
                let shared = [ge_c(&p, 0), le_c(&p, smax(width))];
                if shared.iter().all(|a| self.kb.entails(&st.kb, a)) {
                    return p;
                }
                // Entirely outside the shared range: the conversion is an exact shift by
                // 2ⁿ (`sig(~y) = ~y − 2ⁿ` for `y > 0`), which the ITS's rational relaxation
                // of `k ∈ {0, 1}` would lose.
                let (outside, shift) = match want {
                    Reading::Signed => (ge_c(&p, smax(width) + 1), -(1i128 << width)),
                    Reading::Unsigned => (le_c(&p, -1), 1i128 << width),
                };
                if self.kb.entails(&st.kb, &outside) {
                    return p.add(&Poly::constant(shift));
                }
                let w = self.fresh(st, width, want);
                let k = self.fresh_int();
                let kp = Poly::var(k);
                st.kb.push(ge_c(&kp, 0));
                st.kb.push(le_c(&kp, 1));
                let shift = kp.scale(1i128 << width);
                let rhs = match want {
                    Reading::Unsigned => Poly::var(v).add(&shift),
                    Reading::Signed => Poly::var(v).sub(&shift),
                };
                st.kb.push(eq(&Poly::var(w), &rhs));
                Poly::var(w)
            }
        }
    }

    /// `LV(dst) := value`, where `value` is in reading `have`.
    pub fn bind(&mut self, st: &mut State, dst: Slot, value: Poly, width: u32, have: Reading) {
        let f = st.top().func;
        let want = self.class.reading(f, dst);
        let val = self.value_of(st, value, width, have);
        let p = self.convert(st, val, width, have, want);
        let val = self.value_of(st, p, width, want);
        st.top_mut().regs.insert(dst, val);
    }

    /// A literal, a variable, or a fresh variable equal to a linear expression.
    pub fn value_of(&mut self, st: &mut State, p: Poly, width: u32, reading: Reading) -> Val {
        if let Some(c) = p.as_constant() {
            return Val::Const(c);
        }
        if let [v] = p.vars().into_iter().collect::<Vec<_>>()[..] {
            if p == Poly::var(v) {
                return Val::Var(v);
            }
        }
        let v = self.fresh(st, width, reading);
        st.kb.push(eq(&Poly::var(v), &p));
        Val::Var(v)
    }

    /// The refinement rule: the cases whose condition may hold under the KB. With one
    /// feasible case (the cases are exhaustive, so its condition is entailed) the state is
    /// evaluated without a split; with several, each successor's KB gains its condition.
    pub fn split<T>(&mut self, st: State, cases: Vec<(Vec<Atom>, T)>) -> Vec<(State, T)> {
        let mut feasible = Vec::new();
        for (cond, payload) in cases {
            if self.kb.feasible(&st.kb, &cond) {
                feasible.push((cond, payload));
            }
        }
        if feasible.len() == 1 {
            let (_, payload) = feasible.pop().expect("one case");
            return vec![(st, payload)];
        }
        feasible
            .into_iter()
            .map(|(cond, payload)| {
                let mut s = st.clone();
                s.kb.extend(
                    cond.into_iter()
                        .filter(|a| crate::state::const_truth(a).is_none()),
                );
                (s, payload)
            })
            .collect()
    }

    /// One step of `st`.
    pub fn step(&mut self, mut st: State) -> Outcome {
        st.arrived = false;
        let f = st.top().func;
        let body = self
            .module
            .func(f)
            .body
            .as_ref()
            .expect("a defined function");
        let block = &body.blocks[st.top().block.0 as usize];
        let Some(inst) = block.insts.get(st.top().idx) else {
            return control::terminator(self, st, &block.term);
        };
        let res = match inst {
            Inst::Bin {
                op: symex_ir::BinOp::Sub,
                flags,
                width,
                dst,
                lhs,
                rhs,
            } if ptrdiff::is_difference(&st, *width, *lhs, *rhs) => {
                ptrdiff::difference(self, st, *flags, *dst, *lhs, *rhs)
            }
            Inst::Cast {
                op: symex_ir::CastOp::PtrToInt,
                to,
                dst,
                src,
                ..
            } => ptrdiff::ptr_to_int(self, st, *to, *dst, *src),
            Inst::Bin {
                op,
                flags,
                width,
                dst,
                lhs,
                rhs,
            } => arith::binary(self, st, *op, *flags, *width, *dst, *lhs, *rhs),
            Inst::ICmp {
                pred,
                width,
                dst,
                lhs,
                rhs,
            } => cmp::icmp(self, st, *pred, *width, *dst, *lhs, *rhs),
            Inst::Cast {
                op,
                from,
                to,
                dst,
                src,
            } => cast::cast(self, st, *op, *from, *to, *dst, *src),
            Inst::Copy { dst, src } | Inst::Freeze { dst, src } => cast::copy(self, st, *dst, *src),
            Inst::Select {
                dst,
                cond,
                on_true,
                on_false,
            } => cmp::select(self, st, *dst, *cond, *on_true, *on_false),
            Inst::Call(c) => return call::call(self, st, c),
            Inst::Intrinsic { op, args, dst } => call::intrinsic(self, st, op, args, *dst),
            Inst::Load {
                dst, ptr, ty, size, ..
            } => memory::load(self, st, *dst, *ptr, *ty, *size),
            Inst::Store {
                ptr, val, ty, size, ..
            } => memory::store(self, st, *ptr, *val, *ty, *size),
            Inst::Alloca {
                dst,
                elem_size,
                count,
                count_width,
                ..
            } => alloc::alloca(self, st, *dst, *elem_size, *count, *count_width),
            Inst::Gep {
                dst,
                base,
                offset,
                indices,
                ..
            } => memory::gep(self, st, *dst, *base, *offset, indices),
            Inst::ExtractValue { .. } | Inst::InsertValue { .. } => {
                Err(self.unsupported(&st, "aggregate values"))
            }
            Inst::Vector(_) => Err(self.unsupported(&st, "vector instructions")),
        };
        match res {
            Ok(states) if self.sem.math_int && states.iter().any(beyond_math_int_bound) => {
                self.unsupported(&states[0], MATH_INT_BOUND_REASON)
            }
            Ok(states) => Outcome::Next(
                states
                    .into_iter()
                    .map(|mut s| {
                        s.top_mut().idx += 1;
                        s
                    })
                    .collect(),
            ),
            Err(o) => o,
        }
    }
}

/// Under `--math-int` literals are `i128`s: a register beyond ±2⁶² stops the analysis,
/// so that one more `add`, `mul` or `shl` of two such values (≤ 2¹²⁵) cannot overflow the
/// representation (a wrapped 2¹²⁸ would turn `x = 2·x` from 1 into a negative `x`, an exit).
const MATH_INT_BOUND: i128 = 1 << 62;
const MATH_INT_BOUND_REASON: &str = "a literal beyond ±2^62 under --math-int";

fn beyond_math_int_bound(st: &State) -> bool {
    let big =
        |v: &Val| matches!(v, Val::Const(c) if !(-MATH_INT_BOUND..=MATH_INT_BOUND).contains(c));
    st.top().regs.values().any(big)
        || st
            .mem
            .cells
            .iter()
            .any(|c| matches!(&c.val, crate::state::Content::Int(v, _) if big(v)))
}

/// `[min, max]` of a reading.
pub fn range(width: u32, reading: Reading) -> (i128, i128) {
    match reading {
        Reading::Unsigned => (0, umax(width)),
        Reading::Signed => (smin(width), smax(width)),
    }
}

/// `lo ≤ p ≤ hi`.
pub fn within(p: &Poly, lo: i128, hi: i128) -> Vec<Atom> {
    vec![ge_c(p, lo), le_c(p, hi)]
}
