//! Functions registered to run at exit (`atexit`, `__cxa_atexit`, `__cxa_thread_atexit_impl`): `exit`
//! and the entry function's return call them in the reverse order of their registration (C11 7.22.4.4),
//! the one thread's destructors (`__cxa_thread_atexit_impl`) first, as glibc's `exit` does; `_exit` and
//! `_Exit` call none. Each runs as an ordinary activation, so its bugs and forks are the program's.

use crate::bug::End;
use crate::domain::{Decision, Domain};
use crate::exec::unsupported;
use crate::program::Program;
use crate::state::State;
use std::rc::Rc;
use symex_ir::FuncId;

/// A registered function and the argument it is called with (none for `atexit`'s).
#[derive(Clone, Debug)]
struct ExitHandler<V> {
    func: FuncId,
    arg: Option<V>,
    /// A thread-local object's destructor: run before the `atexit` functions.
    thread: bool,
}

/// The handlers not run yet, and the exit under way.
#[derive(Clone, Debug)]
pub(crate) struct ExitHandlers<V> {
    registered: Vec<ExitHandler<V>>,
    /// The exit status and the number of frames below the handlers while they run.
    running: Option<(i64, usize)>,
}

impl<V> Default for ExitHandlers<V> {
    fn default() -> Self {
        ExitHandlers {
            registered: Vec::new(),
            running: None,
        }
    }
}

impl<V> ExitHandlers<V> {
    /// Whether `exit` has handlers to call.
    pub(crate) fn pending(&self) -> bool {
        !self.registered.is_empty()
    }

    /// The next handler to call: the last thread destructor registered, else the last `atexit` function.
    fn take_next(&mut self) -> Option<ExitHandler<V>> {
        let i = self
            .registered
            .iter()
            .rposition(|h| h.thread)
            .or_else(|| self.registered.len().checked_sub(1))?;
        Some(self.registered.remove(i))
    }
}

impl<D: Domain> State<D> {
    /// Registers the function `f` points to (`arg`: its argument, `thread`: a thread destructor).
    pub(crate) fn register_exit_handler(
        &mut self,
        prog: &Program,
        f: &D::Val,
        arg: Option<D::Val>,
        thread: bool,
    ) -> Result<(), End> {
        let func = self.function_at(prog, f)?;
        let decl = prog.module().func(func);
        if decl.body.is_none() {
            return Err(unsupported(
                self,
                prog,
                format!(
                    "`{}` registered to run at exit without a body in the program",
                    decl.name
                ),
            ));
        }
        Rc::make_mut(&mut self.exit_handlers)
            .registered
            .push(ExitHandler { func, arg, thread });
        Ok(())
    }

    /// `exit(code)` with handlers registered: calls the first of them. Called again from a handler (which
    /// C leaves undefined), the handler's activations end and the remaining handlers run, as in glibc.
    pub(crate) fn exit_through_handlers(&mut self, prog: &Program, code: i64) -> Result<(), End> {
        let depth = match self.exit_handlers.running {
            Some((_, depth)) => {
                while self.frames().len() > depth {
                    self.pop_frame();
                }
                depth
            }
            None => self.frames().len(),
        };
        Rc::make_mut(&mut self.exit_handlers).running = Some((code, depth));
        self.next_exit_handler(prog)
    }

    /// At the return of a handler: the next one, or the end of the program (`None`: not a handler).
    pub(crate) fn return_from_exit_handler(&mut self, prog: &Program) -> Option<Result<(), End>> {
        let (_, depth) = self.exit_handlers.running?;
        if self.frames().len() != depth + 1 {
            return None;
        }
        self.pop_frame();
        Some(self.next_exit_handler(prog))
    }

    fn next_exit_handler(&mut self, prog: &Program) -> Result<(), End> {
        let code = self.exit_handlers.running.map_or(0, |(c, _)| c);
        let Some(h) = Rc::make_mut(&mut self.exit_handlers).take_next() else {
            return Err(self.exit(prog, code));
        };
        // Parameters without an argument (`void f()` registered with `atexit`) are zero.
        let params = &prog.module().func(h.func).params;
        let mut args: Vec<D::Val> = h.arg.into_iter().take(params.len()).collect();
        while args.len() < params.len() {
            let w = prog.width(params[args.len()]).unwrap_or(64);
            args.push(self.dom.constant(w, 0));
        }
        self.push_frame(prog, h.func, &args, None);
        Ok(())
    }

    /// The function a function pointer refers to.
    pub(crate) fn function_at(&mut self, prog: &Program, p: &D::Val) -> Result<FuncId, End> {
        let addr = self.dom.choose(Decision::CallTarget, p, 64) as u64;
        let (id, off) = prog.addr.split(addr);
        match self.mem.lookup(id) {
            crate::memory::Lookup::Function(f) if off == 0 => Ok(FuncId(f)),
            crate::memory::Lookup::Nothing if id == 0 => Err(self.bug(
                prog,
                crate::bug::BugKind::NullDeref,
                "call through a null function pointer",
            )),
            _ => Err(self.bug(
                prog,
                crate::bug::BugKind::OutOfBounds,
                format!("call through {addr:#x}, which is not a function"),
            )),
        }
    }
}
