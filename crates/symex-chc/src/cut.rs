//! The cut points: every loop header of the entry function (nested loops included), where the Horn
//! encoding places one predicate each, and the state that stands for every arrival there.
//!
//! A head state is the first arrival at the header (the merging executor of `symex-bmc` runs the
//! program, or another cut point's segment, and joins the runs that reach the header together) with
//! what can differ between arrivals replaced by fresh variables: the header's phi registers, every
//! register live into the header whose value is not a constant, and every scalar object that a store
//! reachable from the header names directly or that the program names. Those variables, and the
//! inputs the state still depends on, are the predicate's parameters — its *cells*. That nothing else
//! differs is not assumed: [`CutPoint::values`] compares every state that arrives at the header with the
//! head state, object by object and register by register.

use std::cell::RefCell;
use std::rc::Rc;
use symex_bmc::guarded::{Guarded, Shared};
use symex_bmc::loops::Loops;
use symex_bmc::unwind::{Formulas, Options, Unwinder};
use symex_engine::memory::Lookup;
use symex_engine::{Program, State};
use symex_explore::symbolic::{SymByte, SymVal};
use symex_expr::{Sort, Term};
use symex_ir::{AddrBase, Body, Const, Inst, Operand};

/// What a parameter of a loop head's predicate stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// A scalar object (`size` bytes, little-endian), named as the program names it (empty when it has
    /// no name: a temporary).
    Object { obj: u32, size: u32, name: String },
    /// A register whose value crosses the header.
    Register { slot: u32 },
    /// An input the head state depends on that no arrival changes (a `nondet` value read before, an
    /// address, a value of another loop head's predicate held where no cell is).
    Input,
}

/// A parameter of the predicate: what it stands for and the variable that holds it in the head state.
#[derive(Clone, Debug)]
pub struct Cell {
    pub kind: CellKind,
    pub var: Term,
}

/// The entry function's graph as the encoding needs it: its loops and the registers live into each
/// block.
pub struct EntryFunction<'p> {
    pub func: u32,
    pub body: &'p Body,
    pub loops: Loops,
    /// Per block, the registers read on some path from its start before they are written (sorted).
    live_in: Vec<Vec<u32>>,
}

impl<'p> EntryFunction<'p> {
    pub fn of(prog: &'p Program, opts: &Options) -> Result<EntryFunction<'p>, Why> {
        let func = prog
            .module()
            .functions
            .iter()
            .position(|f| *f.name == *opts.entry)
            .ok_or_else(|| format!("no function {}", opts.entry))? as u32;
        let body = body(prog, func)?;
        let loops = Loops::of(body);
        if loops.loops.is_empty() {
            return Err(format!("{} has no loop", opts.entry));
        }
        Ok(EntryFunction {
            func,
            body,
            loops,
            live_in: live_in(body),
        })
    }
}

/// One loop head with its head state.
pub struct CutPoint {
    pub func: u32,
    /// The loop's index in the entry function's [`Loops`], and its header block.
    pub index: usize,
    pub header: u32,
    /// The function and source position of the loop head.
    pub function: String,
    pub line: u32,
    pub col: u32,
    /// The head state: the first arrival with the cells' variables in place of what can differ.
    pub head: State<Guarded>,
    pub cells: Vec<Cell>,
    /// Registers live into the header that are no cell (constants at the first arrival): every
    /// arrival must hold the same value.
    fixed: Vec<u32>,
}

type Why = String;

impl CutPoint {
    /// The cut point at the header `arrival` stands at, its head state made from `arrival`.
    pub fn at(
        prog: &Program,
        f: &EntryFunction,
        arrival: &State<Guarded>,
        shared: &Rc<RefCell<Shared>>,
    ) -> Result<CutPoint, Why> {
        let header = arrival.frames()[0].block.0;
        let index = f.loops.header_of[header as usize].ok_or("an arrival away from a loop head")?;
        let blk = &f.body.blocks[header as usize];
        let col = blk
            .locs
            .iter()
            .chain([&blk.term_loc])
            .find(|l| l.line != 0)
            .map_or(0, |l| l.col);
        let mut cp = CutPoint {
            func: f.func,
            index,
            header,
            function: prog.module().functions[f.func as usize].name.to_string(),
            line: f.loops.loops[index].line,
            col,
            head: arrival.clone(),
            cells: Vec::new(),
            fixed: Vec::new(),
        };
        cp.havoc(prog, f, arrival, shared)?;
        Ok(cp)
    }

    /// Replaces the state at the head by the cells' variables: the header's phi registers and the live
    /// registers whose value is not a constant, every scalar object a store reachable from the header
    /// names directly, and every other named scalar variable (so that the predicate relates the
    /// program's variables, not the bytes of the inputs they came from); then the inputs the state still
    /// holds (in registers and objects that are not cells).
    fn havoc(
        &mut self,
        prog: &Program,
        f: &EntryFunction,
        first: &State<Guarded>,
        shared: &Rc<RefCell<Shared>>,
    ) -> Result<(), Why> {
        let body = f.body;
        let header = self.header;
        let reach = reachable(body, header);
        let (mut regs, stores) = written(body, &reach, header);
        for &r in &f.live_in[header as usize] {
            if first.regs(0).expect("a frame")[r as usize]
                .as_const()
                .is_none()
            {
                regs.push(r);
            } else {
                self.fixed.push(r);
            }
        }
        regs.sort_unstable();
        regs.dedup();
        self.fixed.retain(|r| regs.binary_search(r).is_err());
        let names = local_names(prog, body, first);
        for r in regs {
            let w = prog.width(body.slot_types[r as usize]).ok_or_else(|| {
                "unsupported: the loop carries an aggregate (struct or array) register".to_string()
            })?;
            let var = fresh(shared, "chc_reg", w);
            self.head.regs_mut(0).expect("a frame")[r as usize] = SymVal::from_term(var.clone());
            self.cells.push(Cell {
                kind: CellKind::Register { slot: r },
                var,
            });
        }
        // Stores to arrays or structs are no cells: the comparison of each arrival with the head
        // state finds them when they change.
        let scalar = |obj: u32| {
            first
                .mem
                .object(obj)
                .is_some_and(|o| matches!(o.size(), 1 | 2 | 4 | 8) && o.contents.flat().is_some())
        };
        let mut objs: Vec<u32> = stores
            .into_iter()
            .filter_map(|p| object_of(prog, first, p))
            .filter(|&o| scalar(o))
            .collect();
        // The named scalars no store reachable from the head writes, with an initialised value: cells
        // too.
        for (obj, _) in &names {
            let init = first
                .mem
                .object(*obj)
                .is_some_and(|o| o.contents.is_init(0, o.size() as usize));
            if scalar(*obj) && init {
                objs.push(*obj);
            }
        }
        objs.sort_unstable();
        objs.dedup();
        for obj in objs {
            let size = first.mem.object(obj).map_or(0, |o| o.size() as u32);
            let var = fresh(shared, "chc_var", size * 8);
            let bytes: Vec<SymByte> = (0..size)
                .map(|i| SymByte::Sym(var.extract(8 * i + 7, 8 * i)))
                .collect();
            let o = self.head.mem.object_mut(obj).ok_or("an object not live")?;
            o.contents
                .write(0, size as usize, |b| b.clone_from_slice(&bytes));
            let name = names
                .iter()
                .find(|(o, _)| *o == obj)
                .map_or_else(String::new, |(_, n)| n.clone());
            self.cells.push(Cell {
                kind: CellKind::Object { obj, size, name },
                var,
            });
        }
        // The arrival's guard is its clause's; at the head the cells carry it.
        self.head.dom.guard = Term::tt();
        let own: Vec<Term> = self.cells.iter().map(|c| c.var.clone()).collect();
        for v in inputs(&self.head, &f.live_in[header as usize]) {
            if !own.contains(&v) {
                self.cells.push(Cell {
                    kind: CellKind::Input,
                    var: v,
                });
            }
        }
        Ok(())
    }

    /// The runs from the head state to the next loop heads (stopped on arrival there, in
    /// `captured`), or to the program's end (their bugs are safety clauses').
    pub fn segment(
        &self,
        prog: &Program,
        opts: &Options,
        shared: &Rc<RefCell<Shared>>,
    ) -> Result<Formulas, Why> {
        let f = Unwinder::new(prog, opts.clone(), shared.clone())
            .capturing_headers()
            .run_from(self.head.clone());
        complete(
            &f,
            &format!("after the loop head {}:{}", self.function, self.line),
        )?;
        Ok(f)
    }

    /// The cells' values in a state `s` that arrives at the head (a variable never written there reads
    /// as a fresh, unconstrained value); `Err` when `s` differs from the head state elsewhere.
    pub fn values(
        &self,
        prog: &Program,
        s: &State<Guarded>,
        shared: &Rc<RefCell<Shared>>,
    ) -> Result<Vec<Term>, Why> {
        self.check_frame(s)?;
        let body = body(prog, self.func)?;
        self.cells
            .iter()
            .map(|c| match &c.kind {
                CellKind::Register { slot } => {
                    let w = prog
                        .width(body.slot_types[*slot as usize])
                        .ok_or("an aggregate register")?;
                    Ok(s.regs(0).expect("a frame")[*slot as usize].term(w))
                }
                CellKind::Object { obj, size, .. } => Ok(read_scalar(s, *obj, *size)
                    .map(|t| reassembled(t, shared))
                    .unwrap_or_else(|| fresh(shared, "chc_uninit", size * 8))),
                CellKind::Input => Ok(c.var.clone()),
            })
            .collect()
    }

    /// That `s`, arriving at the head, differs from the head state only in the cells: the same frame,
    /// standard input, registers live into the header, and every other object's status and bytes.
    fn check_frame(&self, s: &State<Guarded>) -> Result<(), Why> {
        let h = &self.head;
        let (fa, fb) = (&h.frames()[0], &s.frames()[0]);
        let shape = s.frames().len() == 1
            && fa.func == fb.func
            && fa.block == fb.block
            && fa.inst == fb.inst
            && fa.allocas == fb.allocas
            && fa.aggs().is_empty()
            && fb.aggs().is_empty()
            && format!("{:?}", h.stdin) == format!("{:?}", s.stdin);
        if !shape {
            return Err("unsupported: a run changes the frame or standard input".into());
        }
        let (ra, rb) = (h.regs(0).expect("a frame"), s.regs(0).expect("a frame"));
        if let Some(r) = self
            .fixed
            .iter()
            .find(|&&r| ra[r as usize] != rb[r as usize])
        {
            return Err(format!(
                "unsupported: register {r}, live at the loop head {}:{}, differs between arrivals",
                self.function, self.line
            ));
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
                            && (cell_obj(id)
                                || (x.contents.flat().is_some()
                                    && x.contents.flat() == y.contents.flat()
                                    && (0..x.size() as usize).all(|i| {
                                        x.contents.is_init(i, 1) == y.contents.is_init(i, 1)
                                    }))))
                }
                // A block-scoped local (`llvm.lifetime.*`) is out of scope at some arrivals and live
                // without a value at others (its lifetime starts again, uninitialised, before any use):
                // as a cell it reads as a fresh value either way.
                (Lookup::Live(x), Lookup::OutOfScope) | (Lookup::OutOfScope, Lookup::Live(x)) => {
                    cell_obj(id) || !(0..x.size() as usize).any(|i| x.contents.is_init(i, 1))
                }
                (Lookup::Dead(a), Lookup::Dead(b)) => a == b,
                (Lookup::Live(_), _) | (_, Lookup::Live(_)) => false,
                // Objects of calls that returned within the run.
                (Lookup::Nothing, _) => true,
                (x, y) => std::mem::discriminant(&x) == std::mem::discriminant(&y),
            };
            if !same {
                return Err(format!(
                    "unsupported: a run writes memory the encoding does not track (object {id}: an array, or a store through a pointer)"
                ));
            }
        }
        Ok(())
    }
}

/// That a run of the merging executor covered every path: `Err` names what it did not model (`at`
/// says where the run started).
pub fn complete(f: &Formulas, at: &str) -> Result<(), Why> {
    if let Some((why, _)) = f.incomplete.first() {
        return Err(format!("{at}: {why}"));
    }
    if let Some(b) = f.bounds.first() {
        return Err(format!(
            "unsupported: the loop {}:{} (in a called function, or a recursion) is not unwound completely",
            b.function, b.line
        ));
    }
    Ok(())
}

fn body(prog: &Program, func: u32) -> Result<&Body, Why> {
    prog.module().functions[func as usize]
        .body
        .as_ref()
        .ok_or_else(|| "the entry function has no body".to_string())
}

fn fresh(shared: &Rc<RefCell<Shared>>, prefix: &str, w: u32) -> Term {
    let k = shared.borrow_mut().fresh();
    Term::var(&format!("{prefix}{k}"), Sort::bv(w))
}

/// The header's phi registers (the moves on the edges into it) and the pointer operands of the stores
/// in `member` blocks (those reachable from the header) that were computed before (the others have no
/// value at the head).
fn written(body: &Body, member: &[bool], header: u32) -> (Vec<u32>, Vec<Operand>) {
    let mut defined = Vec::new();
    let mut regs = Vec::new();
    let mut stores = Vec::new();
    for (b, blk) in body.blocks.iter().enumerate() {
        for e in blk
            .term
            .edges()
            .into_iter()
            .filter(|e| member[e.to.0 as usize])
        {
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
            let v = st.regs(0)?[s.0 as usize].as_const()?;
            let (id, off) = prog.addr.split(v as u64);
            (off == 0).then_some(id)
        }
        Operand::Const(c) => match prog.module().konst(c) {
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
    for (g, global) in prog.module().globals.iter().enumerate() {
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

/// The free variables the head state still holds where no cell is (bit-vector and Boolean ones): those
/// of the registers `live` and of the objects' bytes.
fn inputs(st: &State<Guarded>, live: &[u32]) -> Vec<Term> {
    let regs = st.regs(0).expect("a frame");
    let mut terms: Vec<Term> = live
        .iter()
        .filter_map(|&s| regs[s as usize].split().err().cloned())
        .collect();
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
        .collect()
}

/// The blocks reachable from `from` (itself included), by index.
fn reachable(body: &Body, from: u32) -> Vec<bool> {
    let mut seen = vec![false; body.blocks.len()];
    let mut work = vec![from];
    while let Some(b) = work.pop() {
        if std::mem::replace(&mut seen[b as usize], true) {
            continue;
        }
        work.extend(
            body.blocks[b as usize]
                .term
                .successors()
                .iter()
                .map(|s| s.0),
        );
    }
    seen
}

/// Per block, the registers live at its start (read before written on some path from there): the
/// classic backward fixpoint, a phi move read at the end of its edge's source and written there too.
fn live_in(body: &Body) -> Vec<Vec<u32>> {
    let n = body.blocks.len();
    let mut uses: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut defs: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (b, blk) in body.blocks.iter().enumerate() {
        let (u, d) = (&mut uses[b], &mut defs[b]);
        for inst in &blk.insts {
            symex_ir::uses::inst_operands(inst, &mut |op: &Operand| {
                if let Operand::Slot(s) = op {
                    if !d.contains(&s.0) {
                        u.push(s.0);
                    }
                }
            });
            d.extend(inst.dst().map(|x| x.0));
        }
        symex_ir::uses::terminator_operands(&blk.term, &mut |op: &Operand| {
            if let Operand::Slot(s) = op {
                if !d.contains(&s.0) {
                    u.push(s.0);
                }
            }
        });
        for e in blk.term.edges() {
            d.extend(e.moves.iter().map(|m| m.dst.0));
        }
    }
    let mut live: Vec<Vec<u32>> = uses.clone();
    for l in &mut live {
        l.sort_unstable();
        l.dedup();
    }
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            let mut l = live[b].clone();
            for s in body.blocks[b].term.successors() {
                l.extend(
                    live[s.0 as usize]
                        .iter()
                        .filter(|r| !defs[b].contains(r))
                        .copied(),
                );
            }
            l.sort_unstable();
            l.dedup();
            if l != live[b] {
                live[b] = l;
                changed = true;
            }
        }
    }
    live
}
