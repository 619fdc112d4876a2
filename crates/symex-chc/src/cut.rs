//! The cut point: the entry function's loop head, where the Horn encoding places its one predicate, and
//! the state that stands for every arrival there.
//!
//! The head state is the first arrival (the merging executor of `symex-bmc` runs the prefix and joins
//! the runs that reach the head) with what the loop writes replaced by fresh variables: each register
//! the loop defines and each scalar local (or global) its stores name directly. Those variables, and the
//! inputs the first arrival depends on, are the predicate's parameters — its *cells*. That nothing else
//! changes is not assumed: [`CutPoint::check_frame`] compares every state that comes back to the head
//! with the head state, object by object.

use std::cell::RefCell;
use std::rc::Rc;
use symex_bmc::guarded::{Guarded, Shared};
use symex_bmc::loops::Loops;
use symex_bmc::merge::join;
use symex_bmc::unwind::{Capture, Formulas, Options, Unwinder};
use symex_engine::memory::Lookup;
use symex_engine::{Program, State};
use symex_explore::symbolic::{SymByte, SymVal};
use symex_expr::{Sort, Term};
use symex_ir::{AddrBase, Body, Const, Inst, Operand, Terminator};

/// What a parameter of the loop head's predicate stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// A scalar object the loop stores to (`size` bytes, little-endian), named as the program names it
    /// (empty when it has no name: a temporary).
    Object { obj: u32, size: u32, name: String },
    /// A register the loop defines.
    Register { slot: u32 },
    /// An input the state at the loop head depends on but the loop never changes (a `nondet` value read
    /// before the loop, an address).
    Input,
}

/// A parameter of the predicate: what it stands for and the variable that holds it in the head state.
#[derive(Clone, Debug)]
pub struct Cell {
    pub kind: CellKind,
    pub var: Term,
}

/// The loop the encoding is about, with its head state.
pub struct CutPoint {
    pub func: u32,
    pub index: usize,
    /// The function and source line of the loop head.
    pub function: String,
    pub line: u32,
    pub col: u32,
    /// The first arrival: every run that reaches the head from outside, joined.
    pub first: State<Guarded>,
    /// The runs before the head that end in a bug (their guards and bugs).
    pub prefix: Formulas,
    /// The head state: `first` with the cells' variables in place of what the loop writes.
    pub head: State<Guarded>,
    pub cells: Vec<Cell>,
    /// The cells' values at the first arrival (the initiation clause's arguments).
    pub initial: Vec<Term>,
    /// Program variables the loop does not write, with their value at the first arrival: an input cell
    /// equal to one of them is written under its name.
    pub constants: Vec<(String, Term)>,
}

type Why = String;

impl CutPoint {
    /// The loop head of the entry function, when it has exactly one loop that is not nested in another.
    pub fn find(
        prog: &Program,
        opts: &Options,
        shared: &Rc<RefCell<Shared>>,
    ) -> Result<CutPoint, Why> {
        let func = prog
            .module
            .functions
            .iter()
            .position(|f| *f.name == *opts.entry)
            .ok_or_else(|| format!("no function {}", opts.entry))? as u32;
        let body = body(prog, func)?;
        let ls = Loops::of(body);
        let outer: Vec<usize> = (0..ls.loops.len())
            .filter(|&i| ls.nest[ls.loops[i].header as usize].len() == 1)
            .collect();
        let index = match outer.as_slice() {
            [] => return Err(format!("{} has no loop", opts.entry)),
            [i] => *i,
            _ => {
                let lines: Vec<String> = outer
                    .iter()
                    .map(|&i| format!("{}:{}", opts.entry, ls.loops[i].line))
                    .collect();
                return Err(format!(
                    "unsupported: several loops in sequence ({}); the encoding has one loop head",
                    lines.join(", ")
                ));
            }
        };
        let lp = &ls.loops[index];
        let blk = &body.blocks[lp.header as usize];
        let col = blk
            .locs
            .iter()
            .chain([&blk.term_loc])
            .find(|l| l.line != 0)
            .map_or(0, |l| l.col);
        let mut prefix = Unwinder::new(prog, opts.clone(), shared.clone())
            .capturing(Capture {
                index,
                back_edge: false,
            })
            .run()
            .map_err(|e| format!("the program cannot start: {e:?}"))?;
        if let Some((why, _)) = prefix.incomplete.first() {
            return Err(format!("before the loop: {why}"));
        }
        if let Some(b) = prefix.bounds.first() {
            return Err(format!(
                "unsupported: the loop {}:{} before the loop head is not unwound completely",
                b.function, b.line
            ));
        }
        let mut arrivals = std::mem::take(&mut prefix.captured).into_iter();
        let mut first = arrivals.next().ok_or("no run reaches the loop")?;
        for s in arrivals {
            if !join(prog, &mut first, &s) {
                return Err(
                    "the runs that reach the loop differ in shape (objects, frames)".into(),
                );
            }
        }
        let mut cp = CutPoint {
            func,
            index,
            function: opts.entry.clone(),
            line: lp.line,
            col,
            head: first.clone(),
            first,
            prefix,
            cells: Vec::new(),
            initial: Vec::new(),
            constants: Vec::new(),
        };
        cp.havoc(prog, body, &lp.body, shared)?;
        Ok(cp)
    }

    /// Replaces the state at the head by the cells' variables: the header's phi registers (in SSA form
    /// the only registers whose value crosses the back edge), every scalar object the loop's stores
    /// name directly, and every other named scalar variable (so that the predicate relates the program's
    /// variables, not the bytes of the inputs they came from); then the inputs the loop can still read
    /// (through registers defined before it, or objects that are not cells).
    fn havoc(
        &mut self,
        prog: &Program,
        body: &Body,
        member: &[bool],
        shared: &Rc<RefCell<Shared>>,
    ) -> Result<(), Why> {
        let header = self.head.frames[0].block.0;
        let (regs, stores) = written(body, member, header);
        let names = local_names(prog, body, &self.first);
        for r in regs {
            let w = prog.width(body.slot_types[r as usize]).ok_or_else(|| {
                "unsupported: the loop carries an aggregate (struct or array) register".to_string()
            })?;
            let var = fresh(shared, "chc_reg", w);
            self.initial
                .push(self.first.frames[0].regs[r as usize].term(w));
            self.head.frames[0].regs[r as usize] = SymVal::from_term(var.clone());
            self.cells.push(Cell {
                kind: CellKind::Register { slot: r },
                var,
            });
        }
        let mut objs: Vec<u32> = stores
            .into_iter()
            .filter_map(|p| object_of(prog, &self.first, p))
            .collect();
        objs.sort_unstable();
        objs.dedup();
        for &obj in &objs {
            let o = self
                .first
                .mem
                .object(obj)
                .ok_or("the loop writes an object that is not live at its head")?;
            let size = o.size() as u32;
            if !matches!(size, 1 | 2 | 4 | 8) || o.contents.flat().is_none() {
                return Err(format!(
                    "unsupported: the loop writes a {size}-byte object (an array or struct) directly"
                ));
            }
        }
        // The named scalars the loop does not write, with an initialised value: cells too.
        for (obj, _) in &names {
            let Some(o) = self.first.mem.object(*obj) else {
                continue;
            };
            let size = o.size() as usize;
            let scalar = matches!(size, 1 | 2 | 4 | 8)
                && o.contents.flat().is_some()
                && o.contents.is_init(0, size);
            if scalar && !objs.contains(obj) {
                objs.push(*obj);
            }
        }
        for obj in objs {
            let size = self.first.mem.object(obj).map_or(0, |o| o.size() as u32);
            let var = fresh(shared, "chc_var", size * 8);
            let bytes: Vec<SymByte> = (0..size)
                .map(|i| SymByte::Sym(var.extract(8 * i + 7, 8 * i)))
                .collect();
            let o = self.head.mem.object_mut(obj).ok_or("an object not live")?;
            o.contents
                .write(0, size as usize, |b| b.clone_from_slice(&bytes));
            let before = read_scalar(&self.first, obj, size)
                .unwrap_or_else(|| fresh(shared, "chc_uninit", size * 8));
            self.initial.push(before);
            let name = names
                .iter()
                .find(|(o, _)| *o == obj)
                .map_or_else(String::new, |(_, n)| n.clone());
            self.cells.push(Cell {
                kind: CellKind::Object { obj, size, name },
                var,
            });
        }
        // The first arrival's guard is the initiation clause's; at the head the cells carry it.
        self.head.dom.guard = Term::tt();
        for v in inputs(&self.head, body, member) {
            self.initial.push(v.clone());
            self.cells.push(Cell {
                kind: CellKind::Input,
                var: v,
            });
        }
        Ok(())
    }

    /// One iteration from the head state: the states back at the head, and every run that leaves the
    /// loop, to the program's end (its bugs are the safety clauses').
    pub fn iteration(
        &self,
        prog: &Program,
        opts: &Options,
        shared: &Rc<RefCell<Shared>>,
    ) -> Result<Formulas, Why> {
        let f = Unwinder::new(prog, opts.clone(), shared.clone())
            .bound_entry_loop(self.func, self.index, 1)
            .capturing(Capture {
                index: self.index,
                back_edge: true,
            })
            .run_from(self.head.clone());
        if let Some((why, _)) = f.incomplete.first() {
            return Err(format!("in an iteration: {why}"));
        }
        if let Some(b) = f.bounds.first() {
            return Err(format!(
                "unsupported: the loop {}:{} inside or after the loop head is not unwound completely",
                b.function, b.line
            ));
        }
        for s in &f.captured {
            self.check_frame(s)?;
        }
        Ok(f)
    }

    /// The cells' values in a state back at the head.
    pub fn values(
        &self,
        prog: &Program,
        s: &State<Guarded>,
        shared: &Rc<RefCell<Shared>>,
    ) -> Result<Vec<Term>, Why> {
        let body = body(prog, self.func)?;
        self.cells
            .iter()
            .map(|c| match &c.kind {
                CellKind::Register { slot } => {
                    let w = prog
                        .width(body.slot_types[*slot as usize])
                        .ok_or("an aggregate register")?;
                    Ok(s.frames[0].regs[*slot as usize].term(w))
                }
                CellKind::Object { obj, size, .. } => read_scalar(s, *obj, *size)
                    .map(|t| reassembled(t, shared))
                    .ok_or_else(|| "an iteration leaves a variable uninitialised".to_string()),
                CellKind::Input => Ok(c.var.clone()),
            })
            .collect()
    }

    /// That `s`, back at the head after an iteration from the head state, differs from it only in the
    /// cells: the same frame, standard input, and every other object's status and bytes.
    fn check_frame(&self, s: &State<Guarded>) -> Result<(), Why> {
        let h = &self.head;
        let (fa, fb) = (&h.frames[0], &s.frames[0]);
        let shape = s.frames.len() == 1
            && fa.func == fb.func
            && fa.block == fb.block
            && fa.inst == fb.inst
            && fa.allocas == fb.allocas
            && fa.aggs.is_empty()
            && fb.aggs.is_empty()
            && format!("{:?}", h.stdin) == format!("{:?}", s.stdin);
        if !shape {
            return Err("unsupported: an iteration changes the frame or standard input".into());
        }
        let cell_obj = |id: u32| {
            self.cells
                .iter()
                .any(|c| matches!(c.kind, CellKind::Object { obj, .. } if obj == id))
        };
        for id in 0..s.mem.object_count() as u32 {
            let same = match (h.mem.lookup(id), s.mem.lookup(id)) {
                (Lookup::Live(x), Lookup::Live(y)) => {
                    std::ptr::eq(x, y)
                        || (x.size() == y.size()
                            && x.kind == y.kind
                            && ((cell_obj(id) && y.contents.is_init(0, y.size() as usize))
                                || (x.contents.flat().is_some()
                                    && x.contents.flat() == y.contents.flat()
                                    && (0..x.size() as usize).all(|i| {
                                        x.contents.is_init(i, 1) == y.contents.is_init(i, 1)
                                    }))))
                }
                (Lookup::Dead(a), Lookup::Dead(b)) => a == b,
                (Lookup::Live(_), _) | (_, Lookup::Live(_)) => false,
                // Objects of calls that returned within the iteration.
                (Lookup::Nothing, _) => true,
                (x, y) => std::mem::discriminant(&x) == std::mem::discriminant(&y),
            };
            if !same {
                return Err(format!(
                    "unsupported: an iteration writes memory the encoding does not track (object {id}: an array, or a store through a pointer)"
                ));
            }
        }
        Ok(())
    }
}

fn body(prog: &Program, func: u32) -> Result<&Body, Why> {
    prog.module.functions[func as usize]
        .body
        .as_ref()
        .ok_or_else(|| "the entry function has no body".to_string())
}

fn fresh(shared: &Rc<RefCell<Shared>>, prefix: &str, w: u32) -> Term {
    let k = shared.borrow_mut().fresh();
    Term::var(&format!("{prefix}{k}"), Sort::bv(w))
}

/// The header's phi registers (the moves on the edges into it) and the pointer operands of the loop's
/// stores that were computed before it (the others have no value at the head).
fn written(body: &Body, member: &[bool], header: u32) -> (Vec<u32>, Vec<Operand>) {
    let mut defined = Vec::new();
    let mut regs = Vec::new();
    let mut stores = Vec::new();
    for (b, blk) in body.blocks.iter().enumerate() {
        let edges: Vec<&symex_ir::Edge> = match &blk.term {
            Terminator::Br(e) => vec![e],
            Terminator::CondBr {
                if_true, if_false, ..
            } => vec![if_true, if_false],
            Terminator::Switch(sw) => sw
                .cases
                .iter()
                .map(|(_, e)| e)
                .chain([&sw.default])
                .collect(),
            _ => Vec::new(),
        };
        for e in edges.into_iter().filter(|e| member[e.to.0 as usize]) {
            let into_header = e.to.0 == header;
            for m in e.moves.iter() {
                if into_header {
                    regs.push(m.dst.0);
                }
                defined.push(m.dst.0);
            }
        }
        if !member[b] {
            continue;
        }
        for inst in &blk.insts {
            defined.extend(inst.dst().map(|d| d.0));
            if let Inst::Store { ptr, .. } = inst {
                stores.push(*ptr);
            }
        }
    }
    regs.sort_unstable();
    regs.dedup();
    defined.sort_unstable();
    let stores = stores
        .into_iter()
        .filter(|p| !matches!(p, Operand::Slot(s) if defined.binary_search(&s.0).is_ok()))
        .collect();
    (regs, stores)
}

/// The object a pointer operand names at `st`, when its value is a constant address at offset 0.
fn object_of(prog: &Program, st: &State<Guarded>, op: Operand) -> Option<u32> {
    match op {
        Operand::Slot(s) => {
            let v = st.frames.first()?.regs[s.0 as usize].as_const()?;
            let (id, off) = prog.addr.split(v as u64);
            (off == 0).then_some(id)
        }
        Operand::Const(c) => match prog.module.konst(c) {
            Const::Addr {
                base: base @ AddrBase::Global(_),
                offset: 0,
            } => Some(prog.base_object(*base)),
            _ => None,
        },
    }
}

/// A value read byte by byte, as the term its top byte was cut from when the solver proves them equal
/// (`x + 1` rather than its four bytes, which the simplifier may have rewritten one by one).
fn reassembled(t: Term, shared: &Rc<RefCell<Shared>>) -> Term {
    let mut top = &t;
    while matches!(top.op(), symex_expr::Op::Concat) {
        top = &top.args()[0];
    }
    let Some(candidate) = cut_from(top, t.width()) else {
        return t;
    };
    if candidate == t {
        return t;
    }
    match shared.borrow_mut().check(&[candidate.eq(&t).not()]) {
        symex_solver::SatResult::Unsat => candidate,
        _ => t,
    }
}

/// The `width`-bit term a byte was cut from: `extract(.., x)` of `x`, and through an `ite` of two such.
fn cut_from(byte: &Term, width: u32) -> Option<Term> {
    match byte.op() {
        symex_expr::Op::Extract { .. } if byte.args()[0].width() == width => {
            Some(byte.args()[0].clone())
        }
        symex_expr::Op::Ite => {
            let a = byte.args();
            Some(a[0].ite(&cut_from(&a[1], width)?, &cut_from(&a[2], width)?))
        }
        _ => None,
    }
}

/// The source variables of the entry frame (the front-end's `locals`) and the globals, with their names.
fn local_names(prog: &Program, body: &Body, st: &State<Guarded>) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for v in &body.locals {
        if !is_c_identifier(&v.name) {
            continue;
        }
        if let Some(id) = object_of(prog, st, Operand::Slot(v.slot)) {
            out.push((id, v.name.clone()));
        }
    }
    for (g, global) in prog.module.globals.iter().enumerate() {
        if is_c_identifier(&global.name) {
            let id = prog.base_object(AddrBase::Global(symex_ir::GlobalId(g as u32)));
            out.push((id, global.name.clone()));
        }
    }
    out
}

fn is_c_identifier(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The value of a scalar object (its initialised bytes, little-endian).
fn read_scalar(st: &State<Guarded>, obj: u32, size: u32) -> Option<Term> {
    let o = st.mem.object(obj)?;
    if !o.contents.is_init(0, size as usize) {
        return None;
    }
    let bytes = o.contents.flat()?.get(..size as usize)?;
    let mut t: Option<Term> = None;
    for b in bytes {
        let bt = match b {
            SymByte::Const(c) => Term::bv(*c as u128, 8),
            SymByte::Sym(t) => t.clone(),
        };
        t = Some(match t {
            None => bt,
            Some(low) => bt.concat(&low),
        });
    }
    t
}

/// The free variables the loop can read at the head (bit-vector and Boolean ones): those of the
/// registers its blocks use and of the objects' bytes (the cells' own variables aside).
fn inputs(st: &State<Guarded>, body: &Body, member: &[bool]) -> Vec<Term> {
    let mut terms = Vec::new();
    let mut used = Vec::new();
    for (b, blk) in body.blocks.iter().enumerate().filter(|(b, _)| member[*b]) {
        let _ = b;
        let mut note = |op: &Operand| {
            if let Operand::Slot(s) = op {
                used.push(s.0);
            }
        };
        for inst in &blk.insts {
            symex_ir::uses::inst_operands(inst, &mut note);
        }
        symex_ir::uses::terminator_operands(&blk.term, &mut note);
    }
    let regs = &st.frames[0].regs;
    terms.extend(
        used.iter()
            .filter_map(|&s| regs[s as usize].split().err().cloned()),
    );
    for id in 0..st.mem.object_count() as u32 {
        if let Some(bytes) = st.mem.object(id).and_then(|o| o.contents.flat()) {
            terms.extend(bytes.iter().filter_map(|b| match b {
                SymByte::Sym(t) => Some(t.clone()),
                SymByte::Const(_) => None,
            }));
        }
    }
    symex_expr::free_vars(&terms)
        .into_iter()
        .filter(|v| matches!(v.sort(), Sort::Bool | Sort::BitVec(_)))
        .filter(|v| !v.as_var().is_some_and(|n| n.starts_with("chc_")))
        .collect()
}
