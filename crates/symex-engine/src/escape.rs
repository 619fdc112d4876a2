//! Which stack objects no pointer can outlive: an `alloca` whose address is used only as the address of
//! loads and stores (never stored, passed, returned, compared, converted or offset) is known to the rest
//! of the program through its slot alone, so once its function returns no pointer to it exists anywhere.
//! The ids of such objects are given to later stack objects: on a 32-bit target object ids are scarce
//! (4095, see `AddressLayout`), and on a 64-bit one the dead objects' ids would otherwise wait for a
//! reclaiming scan of the whole state. A use-after-return still finds its dead object, since an object
//! whose address escaped keeps its id for good.

use symex_ir::{Body, Callee, Edge, Inst, Intrinsic, Operand, Slot, Terminator};

/// The `alloca`s of `body` (fixed size) whose address never escapes, sorted.
pub(crate) fn private_allocas(body: &Body) -> Vec<Slot> {
    let mut escaped: Vec<Slot> = Vec::new();
    let mut allocas: Vec<Slot> = Vec::new();
    let mut aliases: Vec<(Slot, Slot)> = Vec::new();
    for b in &body.blocks {
        for inst in &b.insts {
            let mut note = |op: &Operand| note_slot(&mut escaped, op);
            match inst {
                Inst::Alloca {
                    dst, count: None, ..
                } => allocas.push(*dst),
                Inst::Alloca { count: Some(c), .. } => note(c),
                // The address operand of a load or store is a use that does not escape.
                Inst::Load { .. } => {}
                Inst::Store { val, .. } => note(val),
                Inst::Bin { lhs, rhs, .. } | Inst::ICmp { lhs, rhs, .. } => {
                    note(lhs);
                    note(rhs);
                }
                // An alias: the source escapes when the alias does (decided after the pass), so that
                // the bitcast clang makes for a lifetime marker does not count as an escape.
                Inst::Cast { src, dst, .. }
                | Inst::Copy { src, dst }
                | Inst::Freeze { src, dst } => {
                    if let Operand::Slot(s) = src {
                        aliases.push((*s, *dst));
                    }
                }
                Inst::Select {
                    cond,
                    on_true,
                    on_false,
                    ..
                } => {
                    note(cond);
                    note(on_true);
                    note(on_false);
                }
                Inst::Gep { base, indices, .. } => {
                    note(base);
                    indices.iter().for_each(|ix| note(&ix.index));
                }
                Inst::Call(c) => {
                    if let Callee::Indirect(op) = &c.callee {
                        note(op);
                    }
                    c.args.iter().for_each(&mut note);
                }
                // A lifetime marker names the local without handing its address to anyone.
                Inst::Intrinsic {
                    op: Intrinsic::LifetimeStart | Intrinsic::LifetimeEnd,
                    ..
                } => {}
                Inst::Intrinsic { args, .. } => args.iter().for_each(&mut note),
                Inst::ExtractValue { agg, .. } => note(agg),
                Inst::InsertValue { agg, val, .. } => {
                    note(agg);
                    note(val);
                }
                // Not looked into: nothing of this function counts as private.
                Inst::Vector(_) => return Vec::new(),
            }
        }
        match &b.term {
            Terminator::Ret(Some(op)) => note_slot(&mut escaped, op),
            Terminator::Ret(None) | Terminator::Unreachable => {}
            Terminator::Br(e) => edge(&mut escaped, e),
            Terminator::CondBr {
                cond,
                if_true,
                if_false,
            } => {
                note_slot(&mut escaped, cond);
                edge(&mut escaped, if_true);
                edge(&mut escaped, if_false);
            }
            Terminator::Switch(sw) => {
                note_slot(&mut escaped, &sw.value);
                sw.cases.iter().for_each(|(_, e)| edge(&mut escaped, e));
                edge(&mut escaped, &sw.default);
            }
        }
    }
    escaped.sort();
    loop {
        let before = escaped.len();
        for &(src, dst) in &aliases {
            if escaped.binary_search(&dst).is_ok() {
                if let Err(i) = escaped.binary_search(&src) {
                    escaped.insert(i, src);
                }
            }
        }
        if escaped.len() == before {
            break;
        }
    }
    allocas.retain(|a| escaped.binary_search(a).is_err());
    allocas.sort();
    allocas
}

fn note_slot(escaped: &mut Vec<Slot>, op: &Operand) {
    if let Operand::Slot(s) = op {
        escaped.push(*s);
    }
}

/// The phi moves of an edge read their sources.
fn edge(escaped: &mut Vec<Slot>, e: &Edge) {
    e.moves.iter().for_each(|m| note_slot(escaped, &m.src));
}

#[cfg(test)]
mod tests {
    use crate::program::Program;

    /// Lowers `src` with `cflags`.
    fn program(src: &str, cflags: &[&str]) -> Program {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.c");
        std::fs::write(&path, src).unwrap();
        let opts = symex_ir::FrontendOptions {
            cflags: cflags.iter().map(|f| f.to_string()).collect(),
            ..Default::default()
        };
        Program::new(symex_ir::load(&path, &opts).unwrap())
    }

    /// Lowers `src` with `cflags` and says, for each `alloca` of `f` in order, whether it is private.
    fn private_allocas(src: &str, f: &str, cflags: &[&str]) -> Vec<bool> {
        let prog = program(src, cflags);
        let fid = prog.module().function_by_name(f).unwrap();
        let body = prog.module().func(fid).body.as_ref().unwrap();
        let mut out = Vec::new();
        for b in &body.blocks {
            for inst in &b.insts {
                if let symex_ir::Inst::Alloca { dst, .. } = inst {
                    out.push(prog.alloca_is_private(fid, *dst));
                }
            }
        }
        out
    }

    #[test]
    fn only_locals_whose_address_is_never_taken_are_private() {
        let src = "int g(int *q);\n\
                   int *keep;\n\
                   int f(int a) {\n\
                   int x = a;\n\
                   int y = 0;\n\
                   int z = 0;\n\
                   int w[2] = {0, 0};\n\
                   keep = &z;\n\
                   g(&y);\n\
                   w[1] = x;\n\
                   return x + y + w[1];\n\
                   }\n";
        // clang -O0 allocates a, x, y, z, w in that order: a and x are only loaded and stored; y is passed,
        // z's address stored, w indexed (GEP). The same on 32-bit and 64-bit targets.
        for cflags in [&["-m32"][..], &[]] {
            assert_eq!(
                private_allocas(src, "f", cflags),
                vec![true, true, false, false, false],
                "{cflags:?}"
            );
        }
    }

    /// A loop of calls whose locals never escape keeps the object table at the objects alive at once: the
    /// locals' ids go to the next call's, on a 64-bit target too (without that, each call would take two
    /// fresh ids until a reclaiming scan, every 65,536 allocations).
    #[test]
    fn calls_reuse_the_ids_of_private_locals() {
        let src = "int f(int a) { int x = a; return x + 1; }\n\
                   int main(void) { int s = 0; for (int i = 0; i < 3000; i++) s += f(i); return s & 1; }\n";
        let prog = program(src, &[]);
        let opts = crate::RunOptions::default();
        let mut st = crate::State::new(&prog, crate::concrete::Concrete::new(vec![]), opts.checks);
        st.start(&prog, &opts.entry).unwrap();
        let mut most = 0;
        let end = loop {
            match st.step(&prog) {
                Ok(_) => most = most.max(st.mem.object_count()),
                Err(end) => break end,
            }
        };
        assert!(matches!(end, crate::End::Exit(_)), "{end:?}");
        assert!(most < 100, "{most} objects for 3000 calls");
    }
}
