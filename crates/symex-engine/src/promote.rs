//! Promoted locals: a scalar local whose address is used only to load and store it (and to mark its
//! lifetime) gets a register, its *home*, that holds its value between accesses. A load then reads one
//! register instead of looking its object up, checking its bounds, reading its bytes and their
//! initialisation and provenance; a store writes one register. This is `mem2reg` done by the
//! interpreter, for programs compiled at `-O0`, where such locals carry most of the data flow.
//!
//! The semantics stay those of memory, because the object is still allocated and memory decides every
//! case a register cannot: the first read of a local no store reached (an uninitialised read: in replay
//! an input, or a bug) goes to memory, and so does any access after the local's lifetime ended (a
//! use-after-scope). Per activation, two masks say which homes hold their local's value (`ready`: the
//! object's bytes in memory are then stale) and which locals are dead without memory being told yet
//! (`dead`); a third says which objects must be made fresh before memory is read again (`stale`: a new
//! lifetime began while memory held an old value). Object ids and addresses are those of an
//! interpretation without homes, so runs with and without them agree instruction by instruction.
//!
//! Only concrete replay promotes locals (`Program::with_promoted_locals`); exploration, model checking
//! and the termination analyses look at memory directly and run the module as lowered.

use crate::bug::End;
use crate::domain::Domain;
use crate::exec::Flow;
use crate::program::Program;
use crate::provenance::Provenance;
use crate::state::State;
use symex_ir::uses::{inst_operands, terminator_operands};
use symex_ir::{Inst, Intrinsic, Module, Operand, Promoted, Slot, TypeId};

/// At most this many homes per function: their states are bits of a `u64`.
pub const MAX_HOMES: usize = 64;

/// A promoted local of one function: the slot of its `alloca` (the address), its home (the slot added
/// to hold its value, and its bit), and its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HomeSite {
    pub alloca: Slot,
    pub home: Promoted,
    pub ty: TypeId,
}

/// The home of the local whose address is `slot`, among a function's `homes`.
pub(crate) fn home_of(homes: &[HomeSite], slot: Slot) -> Option<Promoted> {
    homes.iter().find(|h| h.alloca == slot).map(|h| h.home)
}

/// A promoted local's home: the slot that holds its value, and its bit in the activation's masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Home {
    pub value: Slot,
    pub mask: u64,
}

impl From<Promoted> for Home {
    #[inline(always)]
    fn from(p: Promoted) -> Home {
        Home {
            value: p.value(),
            mask: 1u64 << p.index(),
        }
    }
}

/// The homes' states of one activation (see the module's comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HomeState {
    pub ready: u64,
    pub dead: u64,
    pub stale: u64,
}

/// Gives each promotable local of each function of `module` a value slot; returns each function's
/// homes, by function, in slot order (the `bit` of a home is its index there).
pub fn promote_locals(module: &mut Module) -> Vec<Vec<HomeSite>> {
    let store_sizes: Vec<u64> = module.types.iter().map(|t| t.store_size).collect();
    let scalar: Vec<bool> = module
        .types
        .iter()
        .map(|t| matches!(t.kind, symex_ir::TypeKind::Int(_) | symex_ir::TypeKind::Ptr))
        .collect();
    module
        .functions
        .iter_mut()
        .map(|f| {
            let Some(body) = f.body.as_mut() else {
                return Vec::new();
            };
            let mut homes = Vec::new();
            for (alloca, ty) in promotable(body, &store_sizes, &scalar) {
                if homes.len() == MAX_HOMES {
                    break;
                }
                let Some(home) = Promoted::new(Slot(body.num_slots), homes.len() as u8) else {
                    break;
                };
                body.num_slots += 1;
                body.slot_types.push(ty);
                homes.push(HomeSite { alloca, home, ty });
            }
            mark_accesses(body, &homes);
            homes
        })
        .collect()
}

/// Marks each load and store of a promoted local with its home.
fn mark_accesses(body: &mut symex_ir::Body, homes: &[HomeSite]) {
    if homes.is_empty() {
        return;
    }
    for inst in body.blocks.iter_mut().flat_map(|b| &mut b.insts) {
        if let Inst::Load { ptr, promoted, .. } | Inst::Store { ptr, promoted, .. } = inst {
            *promoted = match ptr {
                Operand::Slot(s) => home_of(homes, *s),
                Operand::Const(_) => None,
            };
        }
    }
}

/// The `alloca`s of `body` (with their types) that can have a home: one scalar of a fixed type, whose
/// address is only the address of non-volatile loads and stores of that whole scalar, or (directly or
/// through a cast or copy used for nothing else) the local named by a lifetime marker.
fn promotable(body: &symex_ir::Body, store_sizes: &[u64], scalar: &[bool]) -> Vec<(Slot, TypeId)> {
    let n = body.num_slots as usize;
    let mut uses = vec![0u32; n];
    let mut marker_uses = vec![0u32; n];
    let mut count = |op: &Operand| {
        if let Operand::Slot(s) = op {
            uses[s.0 as usize] += 1;
        }
    };
    for b in &body.blocks {
        for inst in &b.insts {
            inst_operands(inst, &mut count);
            if let Inst::Intrinsic {
                op: Intrinsic::LifetimeStart | Intrinsic::LifetimeEnd,
                args,
                ..
            } = inst
            {
                if let Some(Operand::Slot(s)) = args.get(1) {
                    marker_uses[s.0 as usize] += 1;
                }
            }
        }
        terminator_operands(&b.term, &mut count);
    }
    // The type of each candidate's local, by its address slot.
    let mut local_type: Vec<Option<TypeId>> = vec![None; n];
    for inst in body.blocks.iter().flat_map(|b| &b.insts) {
        if let Inst::Alloca {
            dst,
            ty,
            count: None,
            elem_size,
            ..
        } = inst
        {
            if scalar[ty.0 as usize] && *elem_size == store_sizes[ty.0 as usize] {
                local_type[dst.0 as usize] = Some(*ty);
            }
        }
    }
    let mut fitting = vec![0u32; n];
    let mut fits = |p: Slot, ty: TypeId, size: u32| {
        let i = p.0 as usize;
        if local_type[i] == Some(ty) && u64::from(size) == store_sizes[ty.0 as usize] {
            fitting[i] += 1;
        }
    };
    let mut aliased: Vec<Slot> = Vec::new();
    for b in &body.blocks {
        for inst in &b.insts {
            match inst {
                Inst::Load {
                    ptr: Operand::Slot(p),
                    ty,
                    size,
                    volatile: false,
                    ..
                } => fits(*p, *ty, *size),
                Inst::Store {
                    ptr: Operand::Slot(p),
                    val,
                    ty,
                    size,
                    volatile: false,
                    ..
                } if *val != Operand::Slot(*p) => fits(*p, *ty, *size),
                Inst::Cast { dst, src, .. }
                | Inst::Copy { dst, src }
                | Inst::Freeze { dst, src } => {
                    if let Operand::Slot(s) = src {
                        let d = dst.0 as usize;
                        if uses[d] == marker_uses[d] {
                            aliased.push(*s);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    for s in aliased {
        fitting[s.0 as usize] += 1;
    }
    (0..n)
        .filter_map(|i| {
            let ty = local_type[i]?;
            (uses[i] == fitting[i] + marker_uses[i]).then_some((Slot(i as u32), ty))
        })
        .collect()
}

impl<D: Domain> State<D> {
    /// The home the address operand `ptr` names in the current function, if any.
    #[inline(always)]
    pub(crate) fn home_at(&self, prog: &Program, ptr: Operand) -> Option<Home> {
        match ptr {
            Operand::Slot(s) => prog.home_from(self.slot_kinds_at(), s),
            Operand::Const(_) => None,
        }
    }

    /// A load of a promoted local whose home does not hold its value: memory answers (an uninitialised
    /// read, a use after the lifetime), and the home keeps the answer. `at`: the load's position.
    #[inline(never)]
    pub(crate) fn load_home(
        &mut self,
        prog: &Program,
        inst: &Inst,
        h: Home,
        at: u32,
    ) -> Result<Flow, End> {
        let Inst::Load {
            dst, ptr, ty, size, ..
        } = inst
        else {
            unreachable!("load_home is called on loads")
        };
        self.settle_home(*ptr, h);
        let w = prog.width(*ty).expect("a promoted local is a scalar");
        let p = self.val(*ptr);
        let v = self.load_scalar_from(prog, &p, *ty, *size, w, at)?;
        self.current_regs_mut()[h.value.0 as usize] = v.clone();
        self.homes.ready |= h.mask;
        self.set(*dst, v);
        Ok(Flow::Next)
    }

    /// Tells memory what the home's masks hold back before memory is accessed: that the local's lifetime
    /// ended, or that a new one began (its object then becomes fresh, as the marker would have made it).
    pub(crate) fn settle_home(&mut self, ptr: Operand, h: Home) {
        let homes = &mut self.homes;
        let start = if homes.dead & h.mask != 0 {
            false
        } else if homes.stale & h.mask != 0 {
            true
        } else {
            return;
        };
        homes.dead &= !h.mask;
        homes.stale &= !h.mask;
        let p = self.val(ptr);
        self.lifetime_marker(&p, start, false);
    }

    /// The `alloca` of a promoted local runs again (a loop around it): the home's object is a new one,
    /// uninitialised, and the old one is told what the masks held back (still in the `alloca`'s slot).
    #[inline(never)]
    pub(crate) fn renew_home(&mut self, alloca: Slot, h: Home) {
        self.settle_home(Operand::Slot(alloca), h);
        self.homes.ready &= !h.mask;
        self.homes.stale &= !h.mask;
    }

    /// A lifetime marker of a promoted local: the home no longer holds a value, and memory learns of the
    /// marker when the local is next read from it ([`Self::settle_home`]).
    #[inline(always)]
    pub(crate) fn mark_home(&mut self, h: Home, start: bool) {
        let homes = &mut self.homes;
        homes.ready &= !h.mask;
        if start {
            homes.dead &= !h.mask;
            homes.stale |= h.mask;
        } else {
            homes.dead |= h.mask;
        }
    }

    /// Writes what every activation's homes hold back into memory, and ends there the lifetimes their
    /// masks hold back, so that an analysis of the whole memory (the leak check) sees what an
    /// interpretation without homes would.
    pub(crate) fn flush_homes(&mut self, prog: &Program) {
        let current = self.homes;
        let depth = self.frames().len();
        for k in 0..depth {
            let func = self.frames()[k].func;
            let sites = prog.home_sites(func);
            if sites.is_empty() {
                continue;
            }
            let homes = if k + 1 == depth {
                current
            } else {
                self.frames()[k].homes
            };
            for site in sites {
                let mask = Home::from(site.home).mask;
                let Some(regs) = self.regs(k) else { continue };
                let addr = regs[site.alloca.0 as usize].clone();
                let value = regs[site.home.value().0 as usize].clone();
                if homes.dead & mask != 0 {
                    if let Some(a) = self.dom.as_const(&addr) {
                        let id = self.mem.layout().split(a as u64).0;
                        self.mem.end_lifetime(id);
                    }
                } else if homes.ready & mask != 0 {
                    let w = prog.width(site.ty).expect("a promoted local is a scalar");
                    let kind = if site.ty == TypeId::PTR {
                        Provenance::Pointer
                    } else {
                        Provenance::Integer
                    };
                    let size = prog.store_size(site.ty);
                    // The local is live (its home is ready), so the store cannot fail.
                    let _ = self.store_scalar_as(prog, &addr, &value, size, w, Some(kind));
                }
            }
            let settled = HomeState { dead: 0, ..homes };
            if k + 1 == depth {
                self.homes = settled;
            } else {
                self.frames_mut()[k].homes = settled;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! Each program runs twice, on the module as lowered and with its locals promoted: the runs must agree
    //! on how they end, what they print, the inputs they ask for and the instructions they execute. Where
    //! C fixes the result, the test states it too, so that a semantics both runs share cannot hide a bug.

    use crate::interp::{run, RunOptions, RunResult};
    use crate::program::Program;
    use crate::testfile::{TestFile, TestInput};
    use crate::{BugKind, End};

    fn module(name: &str, src: &str) -> symex_ir::Module {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, src).unwrap();
        symex_ir::load(&path, &Default::default()).unwrap()
    }

    /// Runs `src` (a file named `name`, C or LLVM text) both ways on `inputs`; returns the promoted run
    /// and how many locals `main` promoted.
    fn both(name: &str, src: &str, inputs: &[(&str, &[u8])], leaks: bool) -> (RunResult, usize) {
        let m = module(name, src);
        let test = TestFile {
            inputs: inputs
                .iter()
                .map(|(n, b)| TestInput {
                    name: n.to_string(),
                    bytes: b.to_vec(),
                })
                .collect(),
            ..Default::default()
        };
        let mut opts = RunOptions::default();
        opts.checks.leaks = leaks;
        let plain = run(&Program::new(m.clone()), &test, &opts);
        let prog = Program::with_promoted_locals(m);
        let promoted = run(&prog, &test, &opts);
        assert_eq!(format!("{:?}", plain.end), format!("{:?}", promoted.end));
        assert_eq!(plain.stdout, promoted.stdout);
        assert_eq!(plain.instructions, promoted.instructions);
        assert_eq!(plain.inputs, promoted.inputs);
        assert_eq!(plain.unused_inputs, promoted.unused_inputs);
        let main = prog.module().function_by_name("main").unwrap();
        let n = prog.home_sites(main).len();
        (promoted, n)
    }

    fn exit_code(r: &RunResult) -> i64 {
        match r.end {
            End::Exit(c) => c,
            ref e => panic!("expected an exit, got {e:?}"),
        }
    }

    fn bug_kind(r: &RunResult) -> BugKind {
        match &r.end {
            End::Bug(b) => b.kind,
            e => panic!("expected a bug, got {e:?}"),
        }
    }

    #[test]
    fn written_locals_live_in_their_homes() {
        let src = "int main(void) { int s = 0; for (int i = 0; i < 10; i++) s += i; return s; }";
        let (r, n) = both("p.c", src, &[], false);
        assert_eq!(exit_code(&r), 45);
        assert!(n >= 2, "s and i promoted, got {n}");
    }

    #[test]
    fn an_uninitialised_local_is_read_from_memory_once() {
        // Both reads see the one value the test gives the indeterminate `x`.
        let src = "int main(void) { int x; int a = x; int b = x; return a - b + (a == 5); }";
        let (r, n) = both("p.c", src, &[("uninit:main:x", &[5, 0, 0, 0])], false);
        assert_eq!(exit_code(&r), 1);
        assert_eq!(r.inputs.len(), 1, "{:?}", r.inputs);
        assert!(n >= 3);
    }

    #[test]
    fn each_activation_has_its_own_homes() {
        let src = "int f(int n) { int x; if (n > 0) { x = n; f(n - 1); return x; } return 0; }\n\
                   int main(void) { return f(3) + f(2); }";
        let (r, _) = both("p.c", src, &[], false);
        assert_eq!(exit_code(&r), 5);
    }

    const MARKERS: &str = "declare void @llvm.lifetime.start.p0i8(i64, i8* nocapture)\n\
                           declare void @llvm.lifetime.end.p0i8(i64, i8* nocapture)\n";

    #[test]
    fn a_new_lifetime_is_uninitialised_again() {
        let src = format!(
            "{MARKERS}define i32 @main() {{\n\
             entry:\n  %x = alloca i32, align 4\n  %c = bitcast i32* %x to i8*\n\
             call void @llvm.lifetime.start.p0i8(i64 4, i8* %c)\n\
             store i32 5, i32* %x, align 4\n  %a = load i32, i32* %x, align 4\n\
             call void @llvm.lifetime.end.p0i8(i64 4, i8* %c)\n\
             call void @llvm.lifetime.start.p0i8(i64 4, i8* %c)\n\
             %b = load i32, i32* %x, align 4\n  %s = add i32 %a, %b\n  ret i32 %s\n}}\n"
        );
        let (r, n) = both("p.ll", &src, &[("uninit:main:%0", &[2, 0, 0, 0])], false);
        assert_eq!(n, 1);
        assert_eq!(r.inputs.len(), 1, "{:?}", r.inputs);
        assert_eq!(exit_code(&r), 5 + i64::from(r.inputs[0].bytes[0]));
    }

    #[test]
    fn accesses_after_the_lifetime_are_reported_by_memory() {
        for access in [
            "%v = load i32, i32* %x, align 4\n  ret i32 %v",
            "store i32 6, i32* %x, align 4\n  ret i32 0",
        ] {
            let src = format!(
                "{MARKERS}define i32 @main() {{\n\
                 entry:\n  %x = alloca i32, align 4\n  %c = bitcast i32* %x to i8*\n\
                 call void @llvm.lifetime.start.p0i8(i64 4, i8* %c)\n\
                 store i32 5, i32* %x, align 4\n\
                 call void @llvm.lifetime.end.p0i8(i64 4, i8* %c)\n  {access}\n}}\n"
            );
            let (r, n) = both("p.ll", &src, &[], false);
            assert_eq!(n, 1);
            assert_eq!(bug_kind(&r), BugKind::UseAfterFree, "{access}");
        }
    }

    #[test]
    fn an_alloca_run_again_makes_a_new_uninitialised_local() {
        // The second pass's `alloca` makes a new object: its load is an uninitialised read, not the 7
        // stored into the first one.
        let src = "define i32 @main() {\n\
                   entry:\n  br label %loop\n\
                   loop:\n  %i = phi i32 [ 0, %entry ], [ 1, %set ]\n  %x = alloca i32, align 4\n\
                   %c = icmp eq i32 %i, 0\n  br i1 %c, label %set, label %done\n\
                   set:\n  store i32 7, i32* %x, align 4\n  %a = load i32, i32* %x, align 4\n\
                   br label %loop\n\
                   done:\n  %v = load i32, i32* %x, align 4\n  ret i32 %v\n}\n";
        let (r, n) = both("p.ll", src, &[("uninit:main:%x", &[3, 0, 0, 0])], false);
        assert_eq!(n, 1);
        assert_eq!(r.inputs.len(), 1, "{:?}", r.inputs);
        assert_eq!(exit_code(&r), i64::from(r.inputs[0].bytes[0]));
    }

    #[test]
    fn a_local_read_as_another_type_stays_in_memory() {
        let src = "define i32 @main() {\n\
                   entry:\n  %x = alloca i32, align 4\n  store i32 258, i32* %x, align 4\n\
                   %c = bitcast i32* %x to i8*\n  %b = load i8, i8* %c, align 1\n\
                   %r = zext i8 %b to i32\n  ret i32 %r\n}\n";
        let (r, n) = both("p.ll", src, &[], false);
        assert_eq!(n, 0);
        assert_eq!(exit_code(&r), 2);
    }

    #[test]
    fn the_leak_check_sees_pointers_held_in_homes() {
        // `exit` while `main` is active: its local still points to the block (SV-COMP's valid-memtrack).
        let kept = "#include <stdlib.h>\nint main(void) { int *p = malloc(4); *p = 1; exit(0); }";
        let (r, n) = both("p.c", kept, &[], true);
        assert!(n >= 1);
        assert_eq!(exit_code(&r), 0);
        let lost =
            "#include <stdlib.h>\nint main(void) { int *p = malloc(4); *p = 1; p = 0; exit(0); }";
        let (r, _) = both("p.c", lost, &[], true);
        assert_eq!(bug_kind(&r), BugKind::MemoryLeak);
    }
}
