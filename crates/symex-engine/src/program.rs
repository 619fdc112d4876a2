//! A loaded program ready to execute: the IR module plus what the semantics precompute once
//! (object ids of functions and globals, scalar widths of types, library models of declarations).

use crate::hooks::Model;
use crate::memory::{AddressLayout, ObjId};
use crate::promote::{Home, HomeSite};
use std::rc::Rc;
use symex_ir::{AddrBase, FuncId, Inst, Module, Operand, Promoted, Slot, TypeId, TypeKind};

/// Checks that every slot a body reads or writes (operands, destinations, phi moves, promoted
/// locals' homes) is below the body's slot count, and every constant operand is in the module's pool.
fn operands_in_range(module: &Module) -> Result<(), String> {
    for f in &module.functions {
        let Some(body) = &f.body else { continue };
        // Destinations and homes as slot operands: one list of everything the body names.
        let mut named: Vec<Operand> = Vec::new();
        for b in &body.blocks {
            for inst in &b.insts {
                symex_ir::uses::inst_operands(inst, &mut |o| named.push(*o));
                named.extend(inst.dst().map(Operand::Slot));
                if let Inst::Load {
                    promoted: Some(h), ..
                }
                | Inst::Store {
                    promoted: Some(h), ..
                } = inst
                {
                    named.push(Operand::Slot(h.value()));
                }
            }
            symex_ir::uses::terminator_operands(&b.term, &mut |o| named.push(*o));
            for e in b.term.edges() {
                named.extend(e.moves.iter().map(|m| Operand::Slot(m.dst)));
            }
        }
        for o in named {
            match o {
                Operand::Slot(s) if s.0 >= body.num_slots => {
                    return Err(format!(
                        "{} names slot %{} of {}",
                        f.name, s.0, body.num_slots
                    ))
                }
                Operand::Const(c) if c.0 as usize >= module.consts.len() => {
                    return Err(format!(
                        "{} names constant {} of {}",
                        f.name,
                        c.0,
                        module.consts.len()
                    ))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// What a slot holds: a scalar integer, a pointer (a 64-bit scalar), or an aggregate's memory image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    Integer,
    Pointer,
    Aggregate,
}

/// What an `alloca` into a slot makes.
#[derive(Clone, Debug, Default)]
struct AllocaSite {
    /// The object's name: `function:variable` or `function:line` of the declaration, so that reports
    /// and uninitialised inputs say where the variable is (`None`: the slot is no `alloca`'s).
    name: Option<Rc<str>>,
    /// Whether the object's address never escapes: its id is reused once its function returns (see
    /// `escape.rs`).
    private: bool,
    /// The local's home when it is promoted (`promote.rs`).
    home: Option<Promoted>,
}

/// A module prepared for execution. Shared (read-only) by every state that runs it.
#[derive(Debug)]
pub struct Program {
    module: Module,
    /// The library model of each function, by [`FuncId`]; `None` for functions executed from their body.
    pub models: Vec<Option<Model>>,
    /// The scalar width of each type (64 for pointers), `None` for aggregates and `void`.
    pub widths: Vec<Option<u32>>,
    /// How addresses are made, from the target's pointer size: pointer values are 64-bit scalars whose
    /// arithmetic wraps at [`AddressLayout::pointer_bits`].
    pub addr: AddressLayout,
    /// The stack object each `alloca` makes, by function and then by slot (dense: an `alloca` runs as
    /// often as a call, and an index costs less than a search).
    alloca_sites: Vec<Box<[AllocaSite]>>,
    /// What each slot of each function holds, the functions' slots one after another: the
    /// per-instruction question "scalar or aggregate?" answered by one index instead of a walk through
    /// the body and its types. One table rather than one per function, so that a state that knows where
    /// its current function's slots begin ([`Self::slot_kinds_start`]) finds a kind with a single index.
    slot_kinds: Vec<SlotKind>,
    /// Where each function's slots begin in `slot_kinds`, by [`FuncId`].
    slot_kinds_start: Rc<[u32]>,
    /// The home each slot names (`promote.rs`), in the order of `slot_kinds`: the address slot of a
    /// promoted local and its casts name its home.
    homes: Vec<Option<Promoted>>,
    /// The promoted locals of each function, by [`FuncId`] (empty without promotion).
    home_sites: Vec<Box<[HomeSite]>>,
    /// Whether each slot, in the order of `slot_kinds`, holds the address of an `alloca` of its own
    /// function (the `alloca`'s slot or a copy of it): a lifetime marker on such a slot names a local of
    /// the running activation without a search through its locals.
    local_addresses: Vec<bool>,
    /// The steps of the path a violation witness describes (nondet values, branch directions), in order
    /// (`guide.rs`); `None` outside witness validation.
    pub guide: Option<Rc<[crate::guide::GuideStep]>>,
}

impl Program {
    /// The IR module. Read-only once prepared: the interpreter's fast paths rely on every slot and
    /// constant its bodies name being in range ([`operands_in_range`]), checked here once.
    #[inline(always)]
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// Prepares `module` for execution.
    pub fn new(module: Module) -> Program {
        Self::prepare(module, Vec::new())
    }

    /// Prepares `module` for concrete execution with its promotable locals promoted to registers
    /// (`promote.rs`): the same runs, faster.
    pub fn with_promoted_locals(mut module: Module) -> Program {
        let sites = crate::promote::promote_locals(&mut module);
        Self::prepare(module, sites)
    }

    fn prepare(module: Module, home_sites: Vec<Vec<HomeSite>>) -> Program {
        // The lowering numbers every slot and constant it names; one out of range is a bug there, and
        // the interpreter's unchecked register reads (`State::val_fast`) rely on there being none.
        if let Err(e) = operands_in_range(&module) {
            panic!("malformed IR: {e}");
        }
        let models = module
            .functions
            .iter()
            .map(|f| Model::for_function(&f.name, f.body.is_some()))
            .collect();
        let widths: Vec<Option<u32>> = module
            .types
            .iter()
            .map(|t| match t.kind {
                TypeKind::Int(w) => Some(w),
                TypeKind::Ptr => Some(64),
                _ => None,
            })
            .collect();
        let alloca_names: Vec<Vec<(Slot, Rc<str>)>> = module
            .functions
            .iter()
            .map(|f| {
                let mut names = Vec::new();
                let vars = f.body.as_ref().map_or(&[][..], |b| &b.local_names[..]);
                for b in f.body.iter().flat_map(|b| &b.blocks) {
                    for (inst, loc) in b.insts.iter().zip(&b.locs) {
                        if let Inst::Alloca { dst, .. } = inst {
                            // The variable's name where the debug information gives it (KLEE's
                            // users read `main:buf`), else the line, else the IR slot.
                            let var = vars
                                .binary_search_by_key(dst, |(s, _)| *s)
                                .ok()
                                .map(|i| &vars[i].1);
                            let name = if let Some(var) = var {
                                format!("{}:{var}", f.name)
                            } else if loc.is_known() {
                                format!("{}:{}", f.name, loc.line)
                            } else {
                                format!("{}:%{}", f.name, dst.0)
                            };
                            names.push((*dst, Rc::from(name)));
                        }
                    }
                }
                names.sort_by_key(|(s, _)| *s);
                names
            })
            .collect();
        let largest = module.globals.iter().map(|g| g.size).max().unwrap_or(0);
        let addr = AddressLayout::for_target(module.target.pointer_bytes, largest);
        let alloca_sites = module
            .functions
            .iter()
            .zip(alloca_names)
            .enumerate()
            .map(|(k, (f, names))| {
                let n = f.body.as_ref().map_or(0, |b| b.num_slots as usize);
                let mut sites = vec![AllocaSite::default(); n];
                for h in home_sites.get(k).map_or(&[][..], |h| &h[..]) {
                    if let Some(site) = sites.get_mut(h.alloca.0 as usize) {
                        site.home = Some(h.home);
                    }
                }
                for (s, name) in names {
                    if let Some(site) = sites.get_mut(s.0 as usize) {
                        site.name = Some(name);
                    }
                }
                if let Some(b) = f.body.as_ref() {
                    for s in crate::escape::private_allocas(b) {
                        if let Some(site) = sites.get_mut(s.0 as usize) {
                            site.private = true;
                        }
                    }
                }
                sites.into_boxed_slice()
            })
            .collect();
        let mut slot_kinds = Vec::new();
        let mut starts = Vec::with_capacity(module.functions.len());
        for f in &module.functions {
            starts.push(u32::try_from(slot_kinds.len()).expect("fewer than 2^32 slots"));
            let types = f.body.as_ref().map_or(&[][..], |b| &b.slot_types[..]);
            slot_kinds.extend(types.iter().map(|&ty| {
                match widths.get(ty.0 as usize).copied().flatten() {
                    _ if ty == TypeId::PTR => SlotKind::Pointer,
                    Some(_) => SlotKind::Integer,
                    None => SlotKind::Aggregate,
                }
            }));
        }
        let homes = home_table(&module, &home_sites, &starts, slot_kinds.len());
        let local_addresses = local_address_table(&module, &starts, slot_kinds.len());
        Program {
            local_addresses,
            addr,
            alloca_sites,
            homes,
            home_sites: home_sites.into_iter().map(Vec::into_boxed_slice).collect(),
            slot_kinds,
            slot_kinds_start: starts.into(),
            guide: None,
            module,
            models,
            widths,
        }
    }

    /// Executes the SV-COMP error functions (`reach_error`, `__VERIFIER_error`) from their bodies when the
    /// program defines them. Their call is the error only for `unreach-call`; under the other properties
    /// a `reach_error` that returns is an ordinary call, and the path goes on after it.
    pub fn run_error_functions_from_bodies(&mut self) {
        for (f, model) in self.module.functions.iter().zip(self.models.iter_mut()) {
            if f.body.is_some() && *model == Some(Model::ReachError) {
                *model = None;
            }
        }
    }

    /// The name of the stack object that `alloca` into `dst` of function `f` creates, whether its id
    /// may be reused when `f` returns ([`Self::alloca_is_private`]) and its home if the local is
    /// promoted: one lookup for all three, which every `alloca` needs.
    #[inline]
    pub fn alloca_site_of(&self, f: FuncId, dst: Slot) -> (Rc<str>, bool, Option<Promoted>) {
        match self.alloca_site(f, dst) {
            Some(AllocaSite {
                name: Some(name),
                private,
                home,
            }) => (name.clone(), *private, *home),
            site => (
                Rc::from("alloca"),
                site.is_some_and(|s| s.private),
                site.and_then(|s| s.home),
            ),
        }
    }

    /// Whether the stack object of `alloca` into `dst` of `f` may give its id to a later one when `f` returns.
    pub fn alloca_is_private(&self, f: FuncId, dst: Slot) -> bool {
        self.alloca_site(f, dst).is_some_and(|s| s.private)
    }

    #[inline(always)]
    fn alloca_site(&self, f: FuncId, dst: Slot) -> Option<&AllocaSite> {
        self.alloca_sites.get(f.0 as usize)?.get(dst.0 as usize)
    }

    /// The object id of function `f`: functions come first, right after the null object.
    #[inline(always)]
    pub fn function_object(&self, f: FuncId) -> ObjId {
        1 + f.0
    }

    /// The object id of global `g`: globals follow the functions.
    #[inline(always)]
    pub fn global_object(&self, g: u32) -> ObjId {
        1 + self.module.functions.len() as u32 + g
    }

    /// The function whose object is `id`, if any.
    pub fn function_of_object(&self, id: ObjId) -> Option<FuncId> {
        let n = self.module.functions.len() as u32;
        (id >= 1 && id <= n).then(|| FuncId(id - 1))
    }

    /// The object id an address constant refers to.
    pub fn base_object(&self, base: AddrBase) -> ObjId {
        match base {
            AddrBase::Global(g) => self.global_object(g.0),
            AddrBase::Function(f) => self.function_object(f),
        }
    }

    /// Scalar width of a type, `None` for aggregates.
    #[inline(always)]
    pub fn width(&self, ty: TypeId) -> Option<u32> {
        self.widths.get(ty.0 as usize).copied().flatten()
    }

    /// What slot `s` of function `f` holds.
    #[inline(always)]
    pub fn slot_kind(&self, f: FuncId, s: Slot) -> SlotKind {
        self.slot_kind_from(self.slot_kinds_start[f.0 as usize], s)
    }

    /// What slot `s` holds, of the function whose slots begin at `start` in the table of slot kinds.
    #[inline(always)]
    pub(crate) fn slot_kind_from(&self, start: u32, s: Slot) -> SlotKind {
        self.slot_kinds[start as usize + s.0 as usize]
    }

    /// Where each function's slots begin in the table of slot kinds, by [`FuncId`] (shared: each
    /// state keeps it, to follow its current function through calls and returns without the program).
    pub(crate) fn slot_kinds_start(&self) -> Rc<[u32]> {
        self.slot_kinds_start.clone()
    }

    /// The home slot `s` names, of the function whose slots begin at `start` (see
    /// [`Self::slot_kind_from`]).
    #[inline(always)]
    pub(crate) fn home_from(&self, start: u32, s: Slot) -> Option<Home> {
        self.homes[start as usize + s.0 as usize].map(Home::from)
    }

    /// Whether slot `s` of the function whose slots begin at `start` holds the address of one of that
    /// function's `alloca`s (see [`Self::slot_kind_from`]).
    #[inline(always)]
    pub(crate) fn is_local_address(&self, start: u32, s: Slot) -> bool {
        self.local_addresses[start as usize + s.0 as usize]
    }

    /// The promoted locals of `f`, in the order of their bits.
    pub fn home_sites(&self, f: FuncId) -> &[HomeSite] {
        self.home_sites.get(f.0 as usize).map_or(&[], |h| h)
    }

    /// Bytes a value of type `ty` occupies in memory.
    pub fn store_size(&self, ty: TypeId) -> u64 {
        self.module.ty(ty).store_size
    }
}

/// The table of [`Program::homes`]: for each promoted local, its address slot and every cast or copy of
/// it (which only lifetime markers use) name its home. `starts` says where each function's slots begin.
fn home_table(
    module: &Module,
    sites: &[Vec<HomeSite>],
    starts: &[u32],
    slots: usize,
) -> Vec<Option<Promoted>> {
    let mut table = vec![None; slots];
    for ((f, homes), &start) in module.functions.iter().zip(sites).zip(starts) {
        let (Some(body), false) = (f.body.as_ref(), homes.is_empty()) else {
            continue;
        };
        let start = start as usize;
        for h in homes {
            table[start + h.alloca.0 as usize] = Some(h.home);
        }
        for inst in body.blocks.iter().flat_map(|b| &b.insts) {
            if let Inst::Cast {
                dst,
                src: Operand::Slot(s),
                ..
            }
            | Inst::Copy {
                dst,
                src: Operand::Slot(s),
            }
            | Inst::Freeze {
                dst,
                src: Operand::Slot(s),
            } = inst
            {
                if let Some(home) = crate::promote::home_of(homes, *s) {
                    table[start + dst.0 as usize] = Some(home);
                }
            }
        }
    }
    table
}

/// [`Program::local_addresses`]: the slots `alloca`s define, and the copies (`Copy`, `Freeze`; a
/// bitcast is a copy) of those, to a fixed point since a copy may come before its source in block order.
fn local_address_table(module: &Module, starts: &[u32], slots: usize) -> Vec<bool> {
    let mut table = vec![false; slots];
    for (f, &start) in module.functions.iter().zip(starts) {
        let Some(body) = f.body.as_ref() else {
            continue;
        };
        let start = start as usize;
        let insts = || body.blocks.iter().flat_map(|b| &b.insts);
        for inst in insts() {
            if let Inst::Alloca { dst, .. } = inst {
                table[start + dst.0 as usize] = true;
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for inst in insts() {
                if let Inst::Copy {
                    dst,
                    src: Operand::Slot(s),
                }
                | Inst::Freeze {
                    dst,
                    src: Operand::Slot(s),
                } = inst
                {
                    if table[start + s.0 as usize] && !table[start + dst.0 as usize] {
                        table[start + dst.0 as usize] = true;
                        changed = true;
                    }
                }
            }
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::Program;
    use crate::concrete::Concrete;
    use crate::state::{Checks, State};
    use symex_ir::Inst;

    fn module(src: &str) -> symex_ir::Module {
        module_in("p.c", src)
    }

    fn module_in(name: &str, src: &str) -> symex_ir::Module {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, src).unwrap();
        symex_ir::load(&path, &Default::default()).unwrap()
    }

    #[test]
    #[should_panic(expected = "malformed IR: main names slot")]
    fn a_body_naming_a_slot_beyond_its_frame_is_refused() {
        let mut m = module("int main(void) { int x = 3; return x; }");
        let main = m.function_by_name("main").unwrap();
        m.functions[main.0 as usize]
            .body
            .as_mut()
            .unwrap()
            .num_slots = 0;
        Program::new(m);
    }

    #[test]
    #[should_panic(expected = "do not fit the program it runs")]
    fn a_state_run_with_a_larger_program_stops_before_its_registers_are_read() {
        let small = Program::new(module("int main(void) { return 0; }"));
        let src = "int main(void) { int a = 1, b = 2, c = 3, d = 4; return a + b * c - d + 77; }";
        let large = Program::new(module(src));
        let mut st = State::new(&small, Concrete::new(Vec::new()), Checks::default());
        st.start(&small, "main").unwrap();
        st.run(&large, 100);
    }

    #[test]
    fn allocas_and_their_copies_are_local_addresses() {
        let src = "define i32 @main() {\n\
                   entry:\n  %x = alloca [4 x i32], align 4\n  %c = bitcast [4 x i32]* %x to i8*\n\
                   %g = getelementptr inbounds [4 x i32], [4 x i32]* %x, i64 0, i64 1\n  ret i32 0\n}\n";
        let prog = Program::new(module_in("p.ll", src));
        let main = prog.module().function_by_name("main").unwrap();
        let start = prog.slot_kinds_start[main.0 as usize];
        let body = prog.module().func(main).body.as_ref().unwrap();
        let mut seen = Vec::new();
        for inst in body.blocks.iter().flat_map(|b| &b.insts) {
            let expected = match inst {
                Inst::Alloca { .. } | Inst::Copy { .. } => true,
                Inst::Gep { .. } => false,
                _ => continue,
            };
            let dst = inst.dst().unwrap();
            assert_eq!(prog.is_local_address(start, dst), expected, "{inst:?}");
            seen.push(expected);
        }
        assert_eq!(seen, [true, true, false]);
    }
}
