//! `<string.h>` and `atoi`: byte loops over checked memory, deciding each byte comparison through the
//! domain (so a symbolic state forks where the string's contents are unknown). A constant range (a
//! `memset` region, a zero-filled global) is stepped over at once: one comparison decides all its
//! bytes alike, so the work does not grow with the range's length.

use super::decimal::{read_decimal, ByteSource, Numeral};
use super::{ret_width, Model};
use crate::bug::{End, Halt};
use crate::domain::{BinOp, CastOp, CmpOp, Decision, Domain};
use crate::program::Program;
use crate::state::State;
use symex_ir::Call;

pub(super) fn call<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    model: Model,
    call: &Call,
    args: &[D::Val],
) -> Result<Option<D::Val>, End> {
    let w = ret_width(prog, call);
    let r = match model {
        Model::Memcpy | Model::Memmove => {
            let n = st.dom.choose(Decision::Length, &args[2], 64);
            st.copy_memory(prog, &args[0], &args[1], n as u64)?;
            args[0].clone()
        }
        Model::Memset => {
            let n = st.dom.choose(Decision::Length, &args[2], 64);
            let b = st.dom.cast(CastOp::Trunc, 32, 8, &args[1]);
            st.fill_memory(prog, &args[0], &b, n as u64)?;
            args[0].clone()
        }
        Model::Memcmp => {
            let n = st.dom.choose(Decision::Length, &args[2], 64) as u64;
            compare(st, prog, &args[0], &args[1], Some(n), false, w)?
        }
        Model::Strcmp => compare(st, prog, &args[0], &args[1], None, true, w)?,
        Model::Strncmp => {
            let n = st.dom.choose(Decision::Length, &args[2], 64) as u64;
            compare(st, prog, &args[0], &args[1], Some(n), true, w)?
        }
        Model::Strlen => {
            let n = length(st, prog, &args[0], None)?;
            st.dom.constant(w, n as u128)
        }
        Model::Strnlen => {
            let max = st.dom.choose(Decision::Length, &args[1], 64) as u64;
            let n = length(st, prog, &args[0], Some(max))?;
            st.dom.constant(w, n as u128)
        }
        Model::Strcpy => {
            copy_string(st, prog, &args[0], &args[1], None)?;
            args[0].clone()
        }
        Model::Strncpy => {
            let n = st.dom.choose(Decision::Length, &args[2], 64) as u64;
            copy_string(st, prog, &args[0], &args[1], Some(n))?;
            args[0].clone()
        }
        Model::Strcat => {
            let n = length(st, prog, &args[0], None)?;
            let end = st.ptr_add(&args[0], n);
            copy_string(st, prog, &end, &args[1], None)?;
            args[0].clone()
        }
        Model::Strchr | Model::Strrchr => {
            let c = st.dom.cast(CastOp::Trunc, 32, 8, &args[1]);
            find_char(st, prog, &args[0], &c, model == Model::Strrchr)?
        }
        Model::Strstr => find_string(st, prog, &args[0], &args[1])?,
        Model::Memchr => {
            let c = st.dom.cast(CastOp::Trunc, 32, 8, &args[1]);
            let n = st.dom.choose(Decision::Length, &args[2], 64) as u64;
            find_byte(st, prog, &args[0], &c, n)?
        }
        Model::Atoi => {
            let mut src = MemoryBytes {
                prog,
                at: args[0].clone(),
            };
            match read_decimal(st, &mut src, w)? {
                Numeral::Value(v) => v,
                Numeral::Mismatch | Numeral::End => st.dom.constant(w, 0),
            }
        }
        _ => unreachable!("not a string model"),
    };
    Ok(Some(r))
}

/// The bytes of a string in memory, as the source of `atoi`'s numeral.
struct MemoryBytes<'p, D: Domain> {
    prog: &'p Program,
    at: D::Val,
}

impl<D: Domain> ByteSource<D> for MemoryBytes<'_, D> {
    fn next(&mut self, st: &mut State<D>) -> Result<Option<D::Val>, End> {
        let b = st.load_byte_at(self.prog, &self.at, 0)?;
        self.at = st.ptr_add(&self.at, 1);
        Ok(Some(b))
    }
    fn put_back(&mut self, _st: &mut State<D>, _b: &D::Val) {
        // `atoi` reads nothing after its numeral: no cursor to move back.
    }
}

thread_local! {
    /// Iterations of the models' loops on this thread (a byte or a constant range each).
    static LOOP_STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many iterations the loops of the string and memory models ran on this thread: a count that
/// shows whether a model walked a region byte by byte or stepped over it.
#[cfg(test)]
fn loop_steps() -> u64 {
    LOOP_STEPS.with(|c| c.get())
}

/// One iteration of a model's loop. Ends the call when this thread's budget (deadline, memory) is
/// spent: the byte loops below may run over objects of hundreds of MiB, and one call is one step of
/// the exploration, which checks its limits only between steps.
fn within_budget() -> Result<(), End> {
    LOOP_STEPS.with(|c| c.set(c.get() + 1));
    match crate::budget::poll() {
        Some(why) => Err(End::Halt(Halt::Limit(format!(
            "{why} (inside a string or memory library function)"
        )))),
        None => Ok(()),
    }
}

/// Decides whether byte value `b` (8 bits) equals `c`.
fn byte_is<D: Domain>(st: &mut State<D>, b: &D::Val, c: &D::Val) -> bool {
    let eq = st.dom.cmp(CmpOp::Eq, 8, b, c);
    st.dom.decide(Decision::LibraryBranch, &eq)
}

fn nul<D: Domain>(st: &mut State<D>) -> D::Val {
    st.dom.constant(8, 0)
}

/// Number of bytes before the first NUL at `s` (at most `max`).
pub(super) fn length<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    s: &D::Val,
    max: Option<u64>,
) -> Result<u64, End> {
    let zero = nul(st);
    let mut i = 0;
    while max.is_none_or(|m| i < m) {
        within_budget()?;
        let left = max.map_or(u64::MAX, |m| m - i);
        if let Some((c, run)) = st.constant_run_at(s, i, left) {
            if c == 0 {
                break;
            }
            i += run;
            continue;
        }
        let b = st.load_byte_at(prog, s, i)?;
        if byte_is(st, &b, &zero) {
            break;
        }
        i += 1;
    }
    Ok(i)
}

/// `memcmp` (`strings` false) or `strcmp`/`strncmp`: the difference of the first differing bytes as
/// unsigned chars, 0 if none differ within `n` bytes (or before a common NUL).
fn compare<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    a: &D::Val,
    b: &D::Val,
    n: Option<u64>,
    strings: bool,
    w: u32,
) -> Result<D::Val, End> {
    let zero = nul(st);
    let mut i = 0;
    while n.is_none_or(|n| i < n) {
        within_budget()?;
        let left = n.map_or(u64::MAX, |n| n - i);
        if let Some(step) = equal_constant_ranges(st, a, b, i, left, strings) {
            match step {
                RangeStep::Equal(k) => i += k,
                RangeStep::Stop => break,
                RangeStep::Differ(ca, cb) => {
                    let d = (ca as i64 - cb as i64) as u128;
                    return Ok(st.dom.constant(w, d & mask(w)));
                }
            }
            continue;
        }
        let ca = st.load_byte_at(prog, a, i)?;
        let cb = st.load_byte_at(prog, b, i)?;
        if !byte_is(st, &ca, &cb) {
            let xa = st.dom.cast(CastOp::ZExt, 8, w, &ca);
            let xb = st.dom.cast(CastOp::ZExt, 8, w, &cb);
            return Ok(st.dom.binop(BinOp::Sub, w, &xa, &xb));
        }
        if strings && byte_is(st, &ca, &zero) {
            break;
        }
        i += 1;
    }
    Ok(st.dom.constant(w, 0))
}

/// What two constant ranges at the same offset of the compared blocks settle.
enum RangeStep {
    /// The next `k` bytes are equal (and none is a string's NUL).
    Equal(u64),
    /// Both strings end here.
    Stop,
    /// The bytes here differ.
    Differ(u8, u8),
}

/// Compares the constant ranges at offset `i` of `a` and `b` (at most `left` bytes) in one step;
/// `None` when either byte there is not in a constant range (the caller compares byte by byte).
fn equal_constant_ranges<D: Domain>(
    st: &mut State<D>,
    a: &D::Val,
    b: &D::Val,
    i: u64,
    left: u64,
    strings: bool,
) -> Option<RangeStep> {
    let (ca, la) = st.constant_run_at(a, i, left)?;
    let (cb, lb) = st.constant_run_at(b, i, left)?;
    Some(if ca != cb {
        RangeStep::Differ(ca, cb)
    } else if strings && ca == 0 {
        RangeStep::Stop
    } else {
        RangeStep::Equal(la.min(lb))
    })
}

/// The mask of a `w`-bit value.
fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// `strcpy` (`n` None) or `strncpy` (copies at most `n` bytes, then pads with NULs up to `n`).
fn copy_string<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    dst: &D::Val,
    src: &D::Val,
    n: Option<u64>,
) -> Result<(), End> {
    let zero = nul(st);
    let mut i = 0;
    let mut ended = false;
    while n.is_none_or(|n| i < n) {
        within_budget()?;
        let c = if ended {
            zero.clone()
        } else {
            st.load_byte_at(prog, src, i)?
        };
        let p = st.ptr_add(dst, i);
        st.store_scalar(prog, &p, &c, 1, 8)?;
        if !ended && byte_is(st, &c, &zero) {
            ended = true;
            if n.is_none() {
                break;
            }
        }
        i += 1;
    }
    Ok(())
}

/// `strchr` (first) or `strrchr` (last) occurrence of `c` in the string at `s`, or null. The NUL itself
/// can be found.
fn find_char<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    s: &D::Val,
    c: &D::Val,
    last: bool,
) -> Result<D::Val, End> {
    let zero = nul(st);
    let mut found = None;
    for i in 0.. {
        within_budget()?;
        let b = st.load_byte_at(prog, s, i)?;
        if byte_is(st, &b, c) {
            found = Some(i);
            if !last {
                break;
            }
        }
        if byte_is(st, &b, &zero) {
            break;
        }
    }
    Ok(match found {
        Some(i) => st.ptr_add(s, i),
        None => st.dom.constant(64, 0),
    })
}

/// `memchr(s, c, n)`: the first of the `n` bytes at `s` equal to `c`, or null.
fn find_byte<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    s: &D::Val,
    c: &D::Val,
    n: u64,
) -> Result<D::Val, End> {
    let mut i = 0;
    while i < n {
        within_budget()?;
        if let Some((k, run)) = st.constant_run_at(s, i, n - i) {
            // One decision for the whole range: its bytes are all `k`.
            let kv = st.dom.constant(8, k as u128);
            if byte_is(st, &kv, c) {
                return Ok(st.ptr_add(s, i));
            }
            i += run;
            continue;
        }
        let b = st.load_byte_at(prog, s, i)?;
        if byte_is(st, &b, c) {
            return Ok(st.ptr_add(s, i));
        }
        i += 1;
    }
    Ok(st.dom.constant(64, 0))
}

/// `strstr(h, n)`: the first position of `n` in `h`, or null.
fn find_string<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    h: &D::Val,
    n: &D::Val,
) -> Result<D::Val, End> {
    let zero = nul(st);
    for i in 0.. {
        let mut j = 0;
        loop {
            within_budget()?;
            let nb = st.load_byte_at(prog, n, j)?;
            if byte_is(st, &nb, &zero) {
                return Ok(st.ptr_add(h, i));
            }
            let hb = st.load_byte_at(prog, h, i + j)?;
            if !byte_is(st, &hb, &nb) {
                break;
            }
            j += 1;
        }
        let hb = st.load_byte_at(prog, h, i)?;
        if byte_is(st, &hb, &zero) {
            break;
        }
    }
    Ok(st.dom.constant(64, 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::tests::state;
    use crate::memory::{AddressLayout, ObjKind};

    const MIB_200: u64 = 200 << 20;

    /// A heap block of `n` bytes holding `fill` but for `last` in its last byte: its address.
    fn block(st: &mut State<crate::concrete::Concrete>, n: u64, fill: u8, last: u8) -> u128 {
        let id = st
            .mem
            .allocate(ObjKind::Heap, "b".into(), n, 0, false)
            .expect("a lazily stored block");
        let o = st.mem.object_mut(id).expect("live");
        o.contents.fill(0, (n - 1) as usize, fill);
        o.contents.set_byte((n - 1) as usize, last);
        AddressLayout::LP64.address(id, 0) as u128
    }

    #[test]
    fn constant_fills_are_stepped_over_whatever_their_length() {
        let (prog, mut st) = state(vec![]);
        for n in [1 << 20, MIB_200] {
            let a = block(&mut st, n, b'a', 0);
            let b = block(&mut st, n, b'a', 0);
            let c = block(&mut st, n, b'a', b'c');
            let before = loop_steps();
            assert_eq!(length(&mut st, &prog, &a, None).unwrap(), n - 1);
            let cmp = |st: &mut State<_>, x, y, strings| {
                compare(st, &prog, &x, &y, Some(n), strings, 32).unwrap()
            };
            assert_eq!(cmp(&mut st, a, b, false), 0);
            assert_eq!(cmp(&mut st, a, b, true), 0);
            // The first difference is found at the end, with its sign.
            assert_eq!(cmp(&mut st, a, c, false), (-(b'c' as i32)) as u32 as u128);
            let z = st.dom.constant(8, 0);
            let ch = st.dom.constant(8, b'c' as u128);
            let found = find_byte(&mut st, &prog, &c, &ch, n);
            assert_eq!(found.unwrap(), c + (n - 1) as u128);
            assert_eq!(find_byte(&mut st, &prog, &a, &z, n - 1).unwrap(), 0);
            // A few steps per call, not one per byte: the same for 1 MiB and for 200 MiB.
            let steps = loop_steps() - before;
            assert!(steps <= 20, "{steps} loop steps over {n} bytes");
        }
    }
}
