//! Library models: what a call of a declared (bodiless) function does. They live outside the instruction
//! loop, like haybale's hooks, and use only the state's checked memory access and the domain, so they
//! run unchanged on symbolic states.

mod alloc;
mod decimal;
mod dup;
mod files;
mod inputs;
mod klee;
mod misc;
mod process;
mod reads;
mod stdio;
mod string;
mod ubsan;

use crate::bug::End;
use crate::domain::Domain;
use crate::program::Program;
use crate::state::State;
use symex_ir::Call;

pub use misc::GlibcRandom;

/// The report of a shift check, read by `ubsan::shift_overflow`.
const SHIFT_REPORT: &str = "shift out of bounds";

/// A modelled library function or intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Model {
    Malloc,
    Calloc,
    Realloc,
    Free,
    Memcpy,
    Memmove,
    Memset,
    Memcmp,
    Strlen,
    Strnlen,
    Strcmp,
    Strncmp,
    Strcpy,
    Strncpy,
    Strcat,
    Strchr,
    Strrchr,
    Strstr,
    Memchr,
    Abs,
    Labs,
    Atoi,
    Exit,
    /// `atexit(f)`, `__cxa_atexit(f, arg, dso)`, `__cxa_thread_atexit_impl(f, arg, dso)` (`atexit.rs`).
    Atexit,
    CxaAtexit,
    CxaThreadAtexit,
    Abort,
    AssertFail,
    ReachError,
    Printf,
    Puts,
    Putchar,
    /// `fprintf`, `fputs`, `fputc`/`putc`, `fwrite`, `fflush` on `stdout` and `stderr`.
    Fprintf,
    Fputs,
    Fputc,
    Fwrite,
    Fflush,
    Strdup,
    Strndup,
    /// `memalign(align, n)`, `aligned_alloc(align, n)`.
    Memalign,
    PosixMemalign,
    /// `htonl`, `ntohl`.
    ByteSwap32,
    /// `htons`, `ntohs`.
    ByteSwap16,
    Getenv,
    Time,
    Rand,
    Srand,
    /// `sleep`, `usleep`, `nanosleep`: no time passes in a model.
    Sleep,
    /// `getchar`: the next byte of stdin.
    Getchar,
    /// `fgetc`, `getc` (and glibc's `__uflow`, which its inlined `getc_unlocked` calls) on stdin.
    Fgetc,
    Fread,
    /// `read` on file descriptor 0.
    Read,
    Fgets,
    Feof,
    Ungetc,
    /// `getline`, `getdelim` on stdin (the line's heap block grows with `realloc`).
    Getline,
    Getdelim,
    /// `fopen`, `fclose`, `fseek`, `ftell`, `rewind`, `open`, `close` of the fuzzed file (`--file NAME`);
    /// the reads above also read its streams and descriptors.
    Fopen,
    Fclose,
    Fseek,
    Ftell,
    Rewind,
    Open,
    Close,
    /// `scanf` with `%d` conversions.
    Scanf,
    Fscanf,
    /// `__VERIFIER_nondet_*` (and the suffix-less `__VERIFIER_nondet` of older tasks).
    Nondet,
    /// `__VERIFIER_assume`.
    Assume,
    /// `klee_assume`: a provably false condition is a `user` error unless `--silent-klee-assume`.
    KleeAssume,
    KleeMakeSymbolic,
    KleeChoose,
    /// `klee_silent_exit`: the path ends without a test.
    KleeSilentExit,
    KleeAbort,
    /// `klee_assert_fail` (what `klee_assert` calls).
    KleeAssertFail,
    KleeReportError,
    KleeIsSymbolic,
    KleeIsReplay,
    KleePreferCex,
    KleeMarkGlobal,
    KleeStackTrace,
    /// `klee_get_value_i32` and its siblings of integer types.
    KleeGetValue,
    KleeGetObjSize,
    KleeDefineFixedObject,
    KleeCheckMemoryAccess,
    KleeSetForking,
    KleeWarning,
    KleeWarningOnce,
    KleePrintExpr,
    /// `klee_open_merge`, `klee_close_merge`: ignored with KLEE's warning, as KLEE does without
    /// `-use-merge`.
    KleeMergeIgnored,
    KleeRange,
    KleeInt,
    /// A report of clang's `-fsanitize=signed-integer-overflow,shift-base` checks: signed arithmetic
    /// whose result is not representable, including what clang folds at compile time (`INT_MAX + 1`,
    /// `-INT_MIN`), and signed `<<` (C11 6.5.7p4), which LLVM's `shl` cannot tell from unsigned.
    /// `check --property no-overflow` and `--check-overflow` compile with these checks. The text says
    /// which operation overflowed.
    SignedOverflowReport(&'static str),
    /// A report of one of clang's other `-fsanitize=` checks (null, alignment, bounds, implicit
    /// conversions, pointer overflow, ...), and, with KLEE's `--ubsan-runtime`, of every check: an error
    /// of kind `reported` named as KLEE's UBSan runtime names it, with its error file's extension
    /// (`ubsan::runtime_report`).
    UbsanReport,
}

impl Model {
    /// The model of the function called `name`. Functions the program defines keep their body, except the
    /// SV-COMP error functions, whose call is the error whatever their body does.
    pub fn for_function(name: &str, has_body: bool) -> Option<Model> {
        if matches!(name, "reach_error" | "__VERIFIER_error") {
            return Some(Model::ReachError);
        }
        if has_body {
            return None;
        }
        Some(match name {
            "malloc" => Model::Malloc,
            "calloc" => Model::Calloc,
            "realloc" => Model::Realloc,
            "free" => Model::Free,
            // glibc's fortified forms (`-D_FORTIFY_SOURCE`) are the plain functions, their destination
            // size unchecked, as KLEE's klee-libc has them: a write past the object is the memory
            // model's error either way.
            "memcpy" | "__memcpy_chk" => Model::Memcpy,
            "memmove" | "__memmove_chk" => Model::Memmove,
            "memset" | "__memset_chk" => Model::Memset,
            "memcmp" | "bcmp" => Model::Memcmp,
            "strlen" => Model::Strlen,
            "strnlen" => Model::Strnlen,
            "strcmp" => Model::Strcmp,
            "strncmp" => Model::Strncmp,
            "strcpy" | "__strcpy_chk" => Model::Strcpy,
            "strncpy" | "__strncpy_chk" => Model::Strncpy,
            "strcat" | "__strcat_chk" => Model::Strcat,
            "strchr" => Model::Strchr,
            "strrchr" => Model::Strrchr,
            "strstr" => Model::Strstr,
            "memchr" => Model::Memchr,
            "abs" => Model::Abs,
            "labs" | "llabs" => Model::Labs,
            "atoi" => Model::Atoi,
            "exit" | "_exit" | "_Exit" => Model::Exit,
            "atexit" => Model::Atexit,
            "__cxa_atexit" => Model::CxaAtexit,
            "__cxa_thread_atexit_impl" | "__cxa_thread_atexit" => Model::CxaThreadAtexit,
            "abort" => Model::Abort,
            "__assert_fail" | "__assert_rtn" | "__assert" => Model::AssertFail,
            "printf" => Model::Printf,
            "puts" => Model::Puts,
            "putchar" => Model::Putchar,
            "fprintf" => Model::Fprintf,
            "fputs" | "fputs_unlocked" => Model::Fputs,
            "fputc" | "putc" | "_IO_putc" | "fputc_unlocked" | "putc_unlocked" => Model::Fputc,
            "fwrite" | "fwrite_unlocked" => Model::Fwrite,
            "fflush" | "fflush_unlocked" => Model::Fflush,
            "strdup" | "__strdup" => Model::Strdup,
            "strndup" | "__strndup" => Model::Strndup,
            "memalign" | "aligned_alloc" => Model::Memalign,
            "posix_memalign" => Model::PosixMemalign,
            "htonl" | "ntohl" => Model::ByteSwap32,
            "htons" | "ntohs" => Model::ByteSwap16,
            "getenv" | "secure_getenv" => Model::Getenv,
            "time" => Model::Time,
            "rand" => Model::Rand,
            "srand" => Model::Srand,
            "sleep" | "usleep" | "nanosleep" => Model::Sleep,
            "getchar" | "getchar_unlocked" => Model::Getchar,
            "fgetc" | "getc" | "_IO_getc" | "fgetc_unlocked" | "getc_unlocked" | "__uflow" => {
                Model::Fgetc
            }
            "fread" | "fread_unlocked" => Model::Fread,
            "read" => Model::Read,
            "fgets" | "fgets_unlocked" => Model::Fgets,
            "feof" | "feof_unlocked" => Model::Feof,
            "ungetc" => Model::Ungetc,
            "getline" => Model::Getline,
            "getdelim" | "__getdelim" => Model::Getdelim,
            "fopen" | "fopen64" => Model::Fopen,
            "fclose" => Model::Fclose,
            "fseek" | "fseeko" | "fseeko64" => Model::Fseek,
            "ftell" | "ftello" | "ftello64" => Model::Ftell,
            "rewind" => Model::Rewind,
            "open" | "open64" => Model::Open,
            "close" => Model::Close,
            "scanf" | "__isoc99_scanf" => Model::Scanf,
            "fscanf" | "__isoc99_fscanf" => Model::Fscanf,
            "__VERIFIER_assume" => Model::Assume,
            "klee_assume" => Model::KleeAssume,
            "klee_make_symbolic" => Model::KleeMakeSymbolic,
            "klee_choose" => Model::KleeChoose,
            "klee_silent_exit" => Model::KleeSilentExit,
            "klee_abort" => Model::KleeAbort,
            "klee_assert_fail" => Model::KleeAssertFail,
            "klee_report_error" => Model::KleeReportError,
            "klee_is_symbolic" => Model::KleeIsSymbolic,
            "klee_is_replay" => Model::KleeIsReplay,
            "klee_prefer_cex" | "klee_posix_prefer_cex" => Model::KleePreferCex,
            "klee_mark_global" => Model::KleeMarkGlobal,
            "klee_stack_trace" => Model::KleeStackTrace,
            "klee_get_value_i32" | "klee_get_value_i64" | "klee_get_valuel"
            | "klee_get_valuell" => Model::KleeGetValue,
            "klee_get_obj_size" => Model::KleeGetObjSize,
            "klee_define_fixed_object" => Model::KleeDefineFixedObject,
            "klee_check_memory_access" => Model::KleeCheckMemoryAccess,
            "klee_set_forking" => Model::KleeSetForking,
            "klee_warning" => Model::KleeWarning,
            "klee_warning_once" => Model::KleeWarningOnce,
            "klee_print_expr" => Model::KleePrintExpr,
            "klee_open_merge" | "klee_close_merge" => Model::KleeMergeIgnored,
            "klee_range" => Model::KleeRange,
            "klee_int" => Model::KleeInt,
            n if n.starts_with("__ubsan_handle_") => {
                Model::SignedOverflowReport(match n.trim_end_matches("_abort") {
                    "__ubsan_handle_add_overflow" => "signed addition overflows",
                    "__ubsan_handle_sub_overflow" => "signed subtraction overflows",
                    "__ubsan_handle_mul_overflow" => "signed multiplication overflows",
                    "__ubsan_handle_negate_overflow" => "signed negation overflows",
                    "__ubsan_handle_divrem_overflow" => "signed division overflows (MIN / -1)",
                    "__ubsan_handle_shift_out_of_bounds" => SHIFT_REPORT,
                    h if ubsan::is_runtime_handler(h) => return Some(Model::UbsanReport),
                    _ => return None,
                })
            }
            n if n.starts_with("__VERIFIER_nondet") => Model::Nondet,
            _ => return None,
        })
    }
}

/// Executes `model` for `call` with argument values `args`; the result is the call's value, if any.
pub(crate) fn call<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    model: Model,
    call: &Call,
    args: &[D::Val],
) -> Result<Option<D::Val>, End> {
    use Model as M;
    let need = match model {
        M::Malloc
        | M::Free
        | M::Strlen
        | M::Abs
        | M::Labs
        | M::Atoi
        | M::Exit
        | M::Atexit
        | M::Puts
        | M::Putchar
        | M::Assume
        | M::KleeAssume
        | M::Fflush
        | M::Strdup
        | M::ByteSwap32
        | M::ByteSwap16
        | M::Getenv
        | M::Time
        | M::Srand
        | M::Sleep
        | M::KleeChoose
        | M::KleeIsSymbolic
        | M::KleeGetValue
        | M::KleeGetObjSize
        | M::KleeSetForking
        | M::KleeWarning
        | M::KleeWarningOnce
        | M::KleePrintExpr
        | M::KleeInt
        | M::Fgetc
        | M::Feof
        | M::Fclose
        | M::Ftell
        | M::Rewind
        | M::Close
        | M::Scanf => 1,
        M::Calloc
        | M::Realloc
        | M::Strnlen
        | M::Strcmp
        | M::Strcpy
        | M::Strcat
        | M::Strchr
        | M::Strrchr
        | M::Strstr
        | M::KleeRange
        | M::KleeCheckMemoryAccess
        | M::KleeDefineFixedObject
        | M::Fprintf
        | M::Fputs
        | M::Fputc
        | M::Strndup
        | M::Memalign
        | M::Fscanf
        | M::Fopen
        | M::Open
        | M::Ungetc
        | M::CxaAtexit
        | M::CxaThreadAtexit => 2,
        M::Memcpy
        | M::Memmove
        | M::Memset
        | M::Memcmp
        | M::Memchr
        | M::Strncmp
        | M::Strncpy
        | M::KleeMakeSymbolic
        | M::Read
        | M::Fgets
        | M::Fseek
        | M::Getline => 3,
        M::Fread | M::Getdelim | M::KleeReportError | M::Fwrite => 4,
        M::PosixMemalign => 3,
        M::Rand => 0,
        M::KleeAssertFail => 1,
        M::Printf => 1,
        M::Abort | M::AssertFail | M::ReachError | M::Nondet | M::Getchar => 0,
        M::KleeSilentExit
        | M::KleeAbort
        | M::KleeIsReplay
        | M::KleePreferCex
        | M::KleeMarkGlobal
        | M::KleeStackTrace
        | M::KleeMergeIgnored => 0,
        M::SignedOverflowReport(_) | M::UbsanReport => 0,
    };
    if args.len() < need {
        let name = callee_name(prog, call);
        return Err(crate::exec::unsupported(
            st,
            prog,
            format!(
                "call of `{name}` with {} arguments (it takes {need})",
                args.len()
            ),
        ));
    }
    let widened;
    let args = if prog.addr.pointer_bits < 64 {
        widened = widen_sizes(st, prog, model, call, args);
        &widened[..]
    } else {
        args
    };
    match model {
        M::Malloc | M::Calloc | M::Realloc | M::Free => alloc::call(st, prog, model, args),
        M::Memcpy
        | M::Memmove
        | M::Memset
        | M::Memcmp
        | M::Strlen
        | M::Strnlen
        | M::Strcmp
        | M::Strncmp
        | M::Strcpy
        | M::Strncpy
        | M::Strcat
        | M::Strchr
        | M::Strrchr
        | M::Strstr
        | M::Memchr
        | M::Atoi => string::call(st, prog, model, call, args),
        M::Abs
        | M::Labs
        | M::Exit
        | M::Atexit
        | M::CxaAtexit
        | M::CxaThreadAtexit
        | M::Abort
        | M::AssertFail
        | M::ReachError => process::call(st, prog, model, call, args),
        M::UbsanReport => Err(ubsan::runtime_report(st, prog, call, args)),
        M::SignedOverflowReport(_) if st.checks.ubsan_runtime => {
            Err(ubsan::runtime_report(st, prog, call, args))
        }
        M::SignedOverflowReport(SHIFT_REPORT) => {
            let frame = st.frame().expect("a frame");
            let what = call.args.first().and_then(|data| {
                ubsan::shift_overflow(prog.module(), frame.func, frame.block, data)
            });
            match what {
                Some(what) => Err(st.bug(prog, crate::bug::BugKind::SignedOverflow, what)),
                None => Ok(None),
            }
        }
        M::SignedOverflowReport(what) => {
            Err(st.bug(prog, crate::bug::BugKind::SignedOverflow, what))
        }
        M::Printf
        | M::Puts
        | M::Putchar
        | M::Fprintf
        | M::Fputs
        | M::Fputc
        | M::Fwrite
        | M::Fflush => stdio::call(st, prog, model, call, args),
        M::Strdup | M::Strndup | M::Memalign | M::PosixMemalign => dup::call(st, prog, model, args),
        M::ByteSwap32 | M::ByteSwap16 | M::Getenv | M::Time | M::Rand | M::Srand | M::Sleep => {
            misc::call(st, prog, model, call, args)
        }
        M::Getchar
        | M::Fgetc
        | M::Fread
        | M::Read
        | M::Fgets
        | M::Feof
        | M::Ungetc
        | M::Getline
        | M::Getdelim
        | M::Scanf
        | M::Fscanf => files::read(st, prog, model, call, args),
        M::Fopen | M::Fclose | M::Fseek | M::Ftell | M::Rewind | M::Open | M::Close => {
            files::call(st, prog, model, call, args)
        }
        M::Nondet | M::Assume | M::KleeAssume | M::KleeMakeSymbolic | M::KleeRange | M::KleeInt => {
            inputs::call(st, prog, model, call, args)
        }
        M::KleeChoose => klee::choose(st, prog, call, args),
        M::KleeSilentExit
        | M::KleeAbort
        | M::KleeAssertFail
        | M::KleeReportError
        | M::KleeIsSymbolic
        | M::KleeIsReplay
        | M::KleePreferCex
        | M::KleeMarkGlobal
        | M::KleeStackTrace
        | M::KleeGetValue
        | M::KleeGetObjSize
        | M::KleeCheckMemoryAccess
        | M::KleeDefineFixedObject
        | M::KleeSetForking
        | M::KleeWarning
        | M::KleeWarningOnce
        | M::KleePrintExpr
        | M::KleeMergeIgnored => klee::call(st, prog, model, call, args),
    }
}

/// The `size_t` parameters of a model (the models read them as 64-bit values).
fn size_params(model: Model) -> &'static [usize] {
    use Model as M;
    match model {
        M::Malloc => &[0],
        M::Calloc => &[0, 1],
        M::Realloc | M::Strnlen | M::KleeMakeSymbolic | M::KleeCheckMemoryAccess => &[1],
        M::Memcpy
        | M::Memmove
        | M::Memset
        | M::Memcmp
        | M::Memchr
        | M::Strncmp
        | M::Strncpy
        | M::Read => &[2],
        M::Fread | M::Fwrite => &[1, 2],
        M::Strndup | M::Memalign => &[1],
        M::PosixMemalign => &[2],
        _ => &[],
    }
}

/// On a 32-bit target `size_t` is 32 bits: its arguments are zero-extended to the 64 bits the models
/// compute with (pointers already are 64-bit values; results take the call's own width).
fn widen_sizes<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    model: Model,
    call: &Call,
    args: &[D::Val],
) -> Vec<D::Val> {
    let mut out = args.to_vec();
    for &i in size_params(model) {
        let w = call.arg_types.get(i).and_then(|&t| prog.width(t));
        if let (Some(w), Some(a)) = (w, out.get_mut(i)) {
            if w < 64 {
                *a = st.dom.cast(crate::domain::CastOp::ZExt, w, 64, a);
            }
        }
    }
    out
}

/// The name of the function a call goes to (for messages).
pub(crate) fn callee_name<'p>(prog: &'p Program, call: &Call) -> &'p str {
    match call.callee {
        symex_ir::Callee::Direct(f) => &prog.module().func(f).name,
        symex_ir::Callee::Indirect(_) => "a function pointer",
    }
}

/// The width of a call's result (32 when the call site says `void` but the model returns `int`).
pub(crate) fn ret_width(prog: &Program, call: &Call) -> u32 {
    prog.width(call.ret).unwrap_or(32)
}
