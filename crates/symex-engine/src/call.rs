//! Calls and returns: activations of functions with bodies, library models for declarations, the
//! x86-64 variadic argument area, and the end of the program when the entry function returns.

use crate::bug::{BugKind, End, Halt, STACK_LIMIT_MESSAGE};
use crate::domain::{CastOp, Decision, Domain};
use crate::exec::{unsupported, Flow};
use crate::memory::ObjKind;
use crate::program::Program;
use crate::provenance::ProvenanceMap;
use crate::provenance::{scalar_leaves, Provenance};
use crate::regs::RegisterFile;
use crate::state::{Frame, State};
use smallvec::SmallVec;
use std::rc::Rc;
use symex_ir::{Call, Callee, FuncId, Operand, Slot};

/// An aggregate argument: its bytes and where they came from.
type AggArg<D> = (Rc<[<D as Domain>::Byte]>, ProvenanceMap);

impl<D: Domain> State<D> {
    #[inline(never)]
    pub(crate) fn exec_call(&mut self, prog: &Program, call: &Call) -> Result<Flow, End> {
        let target = match &call.callee {
            Callee::Direct(f) => *f,
            Callee::Indirect(op) => self.call_target(prog, *op)?,
        };
        if plain_call(prog, target, call) {
            return self.enter_plainly(prog, target, call);
        }
        self.call_generally(prog, target, call)
    }

    /// [`Self::exec_call`] of a call [`plain_call`] accepts: what the general path does with such a call
    /// (the stack limit, then the activation with the arguments in its first slots), each argument
    /// written straight into the callee's register file rather than gathered in a list first.
    fn enter_plainly(&mut self, prog: &Program, target: FuncId, call: &Call) -> Result<Flow, End> {
        self.within_stack_limit(prog)?;
        let mut regs = self.fresh_registers(prog, target);
        for (i, &a) in call.args.iter().enumerate().take(regs.len()) {
            regs[i] = self.val(a);
        }
        self.frame_mut().expect("a frame").inst += 1;
        self.push_registers(target, regs, call.dst);
        Ok(Flow::Moved)
    }

    /// A call of a library model, of a variadic function, with aggregates or with a signature that
    /// differs from the callee's: the arguments are gathered, adapted and checked first. Out of line:
    /// a plain call then saves no registers for this path's large frame.
    #[inline(never)]
    fn call_generally(&mut self, prog: &Program, target: FuncId, call: &Call) -> Result<Flow, End> {
        // Inline: a call allocates nothing for its arguments.
        let mut args: SmallVec<[D::Val; 8]> = SmallVec::with_capacity(call.args.len());
        // Aggregates passed by value (a vector, a struct the ABI passes in registers): their bytes,
        // by argument position; the scalar list holds a placeholder there. A Vec, and every use of it
        // behind `is_empty`: nearly no call passes one, and an empty Vec costs nothing to make or drop
        // (a SmallVec's construction, iteration and drop were 2.5 % of a csmith replay).
        let mut aggs: Vec<(usize, AggArg<D>)> = Vec::new();
        for (i, (&a, &ty)) in call.args.iter().zip(&call.arg_types).enumerate() {
            if prog.width(ty).is_none() {
                aggs.push((i, (self.agg_val(prog, a, ty), self.agg_provenance(a))));
                args.push(self.dom.constant(1, 0));
                continue;
            }
            args.push(self.val(a));
        }
        if let Some(model) = prog.models[target.0 as usize] {
            if !aggs.is_empty() {
                self.aggregates_as_integers(prog, call, &aggs, &mut args)?;
            }
            // `exit` (not `_exit`) calls the functions registered with `atexit` first (`atexit.rs`).
            if model == crate::hooks::Model::Exit
                && self.exit_handlers.pending()
                && prog.module().func(target).name == "exit"
            {
                let c = self.dom.choose(Decision::Output, &args[0], 32);
                self.exit_through_handlers(prog, crate::concrete::sext(c, 32) as i64)?;
                return Ok(Flow::Moved);
            }
            let r = crate::hooks::call(self, prog, model, call, &args)?;
            if let (Some(d), Some(v)) = (call.dst, r) {
                self.set(d, v);
            }
            return Ok(Flow::Next);
        }
        let func = prog.module().func(target);
        if func.is_extern_weak && func.body.is_none() {
            return Err(self.bug(
                prog,
                BugKind::NullDeref,
                format!(
                    "call of the undefined weak function `{}`, whose address is null",
                    func.name
                ),
            ));
        }
        if func.body.is_none() {
            return Err(unsupported(
                self,
                prog,
                format!(
                    "call of `{}`, which is neither defined in the program nor modelled by symex",
                    func.name
                ),
            ));
        }
        self.within_stack_limit(prog)?;
        let varargs = if func.is_vararg {
            Some(self.varargs_area(prog, target, call, func.params.len(), &args)?)
        } else {
            None
        };
        self.check_signature(prog, target, call, &mut args)?;
        if func.is_vararg && !aggs.is_empty() && aggs.iter().any(|&(i, _)| i >= func.params.len()) {
            return Err(unsupported(
                self,
                prog,
                "aggregate passed by value as a variadic argument of a defined function"
                    .to_string(),
            ));
        }
        // Missing arguments (K&R-style calls) are zero; extra ones of a non-variadic callee are dropped.
        let n = func.params.len();
        while args.len() < n {
            let w = prog.width(func.params[args.len()]).unwrap_or(64);
            args.push(self.dom.constant(w, 0));
        }
        self.frame_mut().expect("a frame").inst += 1;
        self.push_frame(prog, target, &args[..n], call.dst);
        let frame = self.frame_mut().expect("a frame");
        frame.varargs = varargs;
        if !aggs.is_empty() {
            pass_aggregates(frame, aggs, n);
        }
        Ok(Flow::Moved)
    }

    /// A library model takes scalars: an aggregate argument of at most 128 bits (a vector such as
    /// `<4 x i32>` given to `klee_print_expr`) is the integer of its bytes, as KLEE's expression of it
    /// is their concatenation. A larger one is unsupported, named.
    fn aggregates_as_integers(
        &mut self,
        prog: &Program,
        call: &Call,
        aggs: &[(usize, AggArg<D>)],
        args: &mut [D::Val],
    ) -> Result<(), End> {
        for (i, (bytes, _)) in aggs {
            let bits = bytes.len() * 8;
            if bits == 0 || bits > 128 {
                return Err(unsupported(
                    self,
                    prog,
                    format!(
                        "aggregate of {} bytes passed by value as argument {} of a call to `{}`",
                        bytes.len(),
                        i + 1,
                        crate::hooks::callee_name(prog, call)
                    ),
                ));
            }
            args[*i] = self.dom.bytes_to_val(bytes, bits as u32);
        }
        Ok(())
    }

    /// KLEE's stack-frame limit, checked before a call to a function with a body: with more frames than
    /// the limit on the stack, the path ends early at the call and says so as KLEE does.
    fn within_stack_limit(&mut self, prog: &Program) -> Result<(), End> {
        let max = self.checks.max_stack_frames as usize;
        if max == 0 || self.frames().len() <= max {
            return Ok(());
        }
        self.message(format!("KLEE: WARNING: {STACK_LIMIT_MESSAGE}"), false);
        Err(End::Halt(Halt::StackLimit(self.location(prog))))
    }

    /// A call through a function pointer of another type (undefined in C11 6.3.2.3p8) passes its values as
    /// the x86-64 registers would: an argument wider than the parameter is cut to its low bits, which is
    /// what the callee reads. A parameter (or a result the call site uses) wider than the value passed has
    /// unspecified upper bits, which symex does not model: the path ends as unsupported.
    fn check_signature(
        &mut self,
        prog: &Program,
        target: FuncId,
        call: &Call,
        args: &mut [D::Val],
    ) -> Result<(), End> {
        let func = prog.module().func(target);
        for (i, (a, &ty)) in args.iter_mut().zip(&func.params).enumerate() {
            let (passed, taken) = (prog.width(call.arg_types[i]), prog.width(ty));
            let (Some(from), Some(to)) = (passed, taken) else {
                if passed.is_none() && call.arg_types[i] == ty {
                    continue; // an aggregate by value, of the parameter's own type
                }
                return Err(self.signature_mismatch(prog, target, format!("argument {}", i + 1)));
            };
            if from > to {
                *a = self.dom.cast(CastOp::Trunc, from, to, a);
            } else if from < to {
                return Err(self.signature_mismatch(
                    prog,
                    target,
                    format!("argument {} ({from} bits passed, {to} taken)", i + 1),
                ));
            }
        }
        if call.dst.is_some() {
            let (site, callee) = (prog.width(call.ret), prog.width(func.ret));
            let narrower = matches!((site, callee), (Some(s), Some(c)) if s <= c);
            if site != callee && !narrower {
                return Err(self.signature_mismatch(prog, target, "result".into()));
            }
        }
        Ok(())
    }

    fn signature_mismatch(&self, prog: &Program, target: FuncId, what: String) -> End {
        let name = &prog.module().func(target).name;
        unsupported(
            self,
            prog,
            format!("call of `{name}` through a function type that does not match it: {what}"),
        )
    }

    /// The function a function pointer refers to.
    fn call_target(&mut self, prog: &Program, op: Operand) -> Result<FuncId, End> {
        let p = self.val(op);
        self.function_at(prog, &p)
    }

    /// Lays the variadic arguments out as the x86-64 overflow area (8-byte slots, 16-byte aligned for
    /// 16-byte-aligned types), or on i386 as the stack does (4-byte slots).
    fn varargs_area(
        &mut self,
        prog: &Program,
        target: FuncId,
        call: &Call,
        fixed: usize,
        args: &[D::Val],
    ) -> Result<u32, End> {
        let slot = u64::from(prog.module().target.pointer_bytes);
        let mut layout = Vec::new();
        let mut copies = Vec::new();
        let mut size = 0u64;
        for (i, &ty) in call.arg_types.iter().enumerate().skip(fixed) {
            // A struct passed in memory (`byval`: x86-64's MEMORY class, i386's larger aggregates) is
            // its bytes in the area, where `va_arg` reads them.
            let byval = call.byval.iter().find(|&&(k, _)| k == i).map(|&(_, t)| t);
            let info = prog.module().ty(byval.unwrap_or(ty));
            if info.align >= 16 && slot == 8 {
                size = size.next_multiple_of(16);
            }
            match byval {
                Some(_) => copies.push((i, size, info.store_size)),
                None => layout.push((i, size, prog.width(ty).unwrap_or(64), info.store_size)),
            }
            size += info.store_size.next_multiple_of(slot);
        }
        if !self.mem.addressable(size) {
            return Err(unsupported(
                self,
                prog,
                format!(
                    "more objects than {}-bit addresses can tell apart",
                    prog.addr.pointer_bits
                ),
            ));
        }
        let mut bytes: Vec<D::Byte> = (0..size).map(|_| self.dom.const_byte(0)).collect();
        let stored: Vec<_> = layout.clone();
        for (i, off, w, n) in layout {
            let off = off as usize;
            self.dom
                .val_to_bytes(&args[i], w, &mut bytes[off..off + n as usize]);
        }
        let name = format!(
            "variadic arguments of `{}`",
            prog.module().func(target).name
        );
        let id = self
            .mem
            .allocate_with(ObjKind::Runtime, name.into(), bytes, false);
        // Each argument's bytes are stored as its type says (`va_arg` may read a pointer as an integer:
        // an observed address, see `provenance.rs`).
        if let Some(o) = self.mem.object_mut(id) {
            for (i, off, _, n) in stored {
                o.provenance
                    .overlay(off, &scalar_leaves(prog, call.arg_types[i]).slice(0, n));
            }
        }
        for (i, off, n) in copies {
            let dst = self
                .dom
                .constant(64, u128::from(prog.addr.address(id, off)));
            self.copy_memory(prog, &dst, &args[i], n)?;
        }
        Ok(id)
    }

    /// `va_start(ap)`: registers exhausted (`gp_offset = 48`, `fp_offset = 176`), so that clang's inline
    /// `va_arg` reads every argument from the overflow area.
    pub(crate) fn va_start(&mut self, prog: &Program, ap: &D::Val) -> Result<(), End> {
        let area = match self.frame().and_then(|f| f.varargs) {
            Some(a) => a,
            None => {
                let fill = self.dom.const_byte(0);
                let a = self
                    .mem
                    .allocate(ObjKind::Runtime, "variadic arguments".into(), 0, fill, true)
                    .ok_or_else(|| {
                        unsupported(
                            self,
                            prog,
                            format!(
                                "more objects than {}-bit addresses can tell apart",
                                prog.addr.pointer_bits
                            ),
                        )
                    })?;
                self.frame_mut().expect("a frame").varargs = Some(a);
                a
            }
        };
        let area = prog.addr.address(area, 0) as u128;
        // i386: `va_list` is a pointer to the next argument.
        // (offset, value, width, bytes, stored as): the area's address is a pointer.
        use Provenance::{Integer, Pointer};
        let i386 = [(0u64, area, 64u32, 4u64, Pointer)];
        let x86_64 = [
            (0u64, 48u128, 32u32, 4u64, Integer),
            (4, 176, 32, 4, Integer),
            (8, area, 64, 8, Pointer),
            (16, 0, 64, 8, Pointer),
        ];
        let fields: &[(u64, u128, u32, u64, Provenance)] = if prog.addr.pointer_bits == 32 {
            &i386
        } else {
            &x86_64
        };
        for &(off, v, w, n, kind) in fields {
            let p = self.ptr_add(ap, off);
            let v = self.dom.constant(w, v);
            self.store_scalar_as(prog, &p, &v, n, w, Some(kind))?;
        }
        Ok(())
    }

    /// `ret`: pops the activation and hands the value to the caller, or ends the program when the entry
    /// function returns (its value, as an `int`, is the exit code).
    pub(crate) fn ret(&mut self, prog: &Program, op: Option<Operand>) -> Result<(), End> {
        if let Some(next) = self.return_from_exit_handler(prog) {
            return next;
        }
        let ret_ty = prog.module().func(self.frame().expect("a frame").func).ret;
        let value = match op {
            Some(o) if prog.width(ret_ty).is_some() => Some(Ok(self.val(o))),
            Some(o) => Some(Err((self.agg_val(prog, o, ret_ty), self.agg_provenance(o)))),
            None => None,
        };
        if self.frames().len() == 1 {
            let code = match &value {
                Some(Ok(v)) => {
                    let w = prog.width(ret_ty).unwrap_or(32);
                    let c = self.dom.choose(Decision::Output, v, w);
                    crate::concrete::sext(c, w.min(32)) as i32 as i64
                }
                _ => 0,
            };
            // The entry function's locals die with it: they are no roots for the leak check.
            let loc = self.location(prog);
            self.pop_frame();
            if self.exit_handlers.pending() {
                return self.exit_through_handlers(prog, code);
            }
            return Err(match self.exit(prog, code) {
                End::Bug(mut b) => {
                    b.loc = loc;
                    End::Bug(b)
                }
                e => e,
            });
        }
        let ret_dst = self.pop_frame().expect("a frame");
        if let (Some(dst), Some(v)) = (ret_dst, value) {
            match v {
                Ok(v) => {
                    // A call site through a narrower function type reads the low bits (see
                    // `check_signature`, which let only that mismatch through).
                    let from = prog.width(ret_ty).unwrap_or(64);
                    let to = prog.width(self.slot_type(prog, dst)).unwrap_or(from);
                    let v = if to < from {
                        self.dom.cast(CastOp::Trunc, from, to, &v)
                    } else {
                        v
                    };
                    self.set(dst, v)
                }
                Err((a, p)) => self.set_agg_carrying(dst, a, p),
            }
        }
        Ok(())
    }

    /// The end of the program by `abort`, a failed `assert` or the error function: a leak comes first when
    /// the check is on (valid-memtrack is violated however the run ends after the last pointer is lost).
    pub(crate) fn abnormal_end(
        &mut self,
        prog: &Program,
        kind: BugKind,
        message: impl Into<String>,
    ) -> End {
        if let Some(end) = self.heap_at_end(prog) {
            return end;
        }
        self.bug(prog, kind, message)
    }

    /// What the heap checks that are on find when the program ends: a lost block (memtrack), then a
    /// block not freed (memcleanup).
    fn heap_at_end(&mut self, prog: &Program) -> Option<End> {
        if self.checks.leaks {
            self.flush_homes(prog);
            if let Some(msg) = self.leak() {
                return Some(self.bug(prog, BugKind::MemoryLeak, msg));
            }
        }
        if self.checks.cleanup {
            if let Some(msg) = self.not_freed() {
                return Some(self.bug(prog, BugKind::NotFreed, msg));
            }
        }
        None
    }

    /// The end of the program with `code`, after the heap checks that are on.
    pub(crate) fn exit(&mut self, prog: &Program, code: i64) -> End {
        if let Some(end) = self.heap_at_end(prog) {
            return end;
        }
        End::Exit(code)
    }
}

/// Whether `call` of `target` needs none of the general path's adaptations: `target` is defined, not
/// variadic and not modelled, and is given exactly its parameters, each a scalar of the parameter's own
/// type (so `check_signature` has nothing to cut or refuse, and there is no aggregate to pass nor
/// variadic area to lay out), and a result the call site uses has the site's type. Most calls are.
#[inline]
fn plain_call(prog: &Program, target: FuncId, call: &Call) -> bool {
    if prog.models[target.0 as usize].is_some() {
        return false;
    }
    let func = prog.module().func(target);
    func.body.is_some()
        && !func.is_vararg
        && func.params.len() == call.args.len()
        && func.params.len() == call.arg_types.len()
        && (call.dst.is_none() || call.ret == func.ret)
        && call
            .arg_types
            .iter()
            .zip(&func.params)
            .all(|(&a, &p)| a == p && prog.width(a).is_some())
}

/// Parameter `i` lives in slot `i`: an aggregate parameter holds its bytes there (aggregates past the
/// callee's `n` parameters are dropped, as extra scalars are).
#[cold]
fn pass_aggregates<D: Domain>(frame: &mut Frame<D>, aggs: Vec<(usize, AggArg<D>)>, n: usize) {
    for (i, (bytes, provenance)) in aggs.into_iter().filter(|&(i, _)| i < n) {
        frame.set_agg(Slot(i as u32), bytes);
        frame.set_agg_provenance(Slot(i as u32), provenance);
    }
}
