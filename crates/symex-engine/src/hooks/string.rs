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
        within_budget()?;
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
        let (b, run) = byte_or_range(st, prog, s, i, left)?;
        if byte_is(st, &b, &zero) {
            break;
        }
        i += run;
    }
    Ok(i)
}

/// The byte at `s + i` and how many bytes from there (at least 1, at most `max`) hold the same value:
/// the uniform range there, or that one byte read (which reports an access outside the object).
fn byte_or_range<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    s: &D::Val,
    i: u64,
    max: u64,
) -> Result<(D::Val, u64), End> {
    match st.uniform_run_at(s, i, max) {
        Some(r) => Ok(r),
        None => Ok((st.load_byte_at(prog, s, i)?, 1)),
    }
}

/// `memcmp` (`strings` false) or `strcmp`/`strncmp`: the difference of the first differing bytes as
/// unsigned chars, 0 if none differ within `n` bytes (or before a common NUL). Where both sides are
/// uniform ranges at the same offset, their common length is compared in one step: its bytes are
/// all alike on each side.
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
        let (ca, la) = byte_or_range(st, prog, a, i, left)?;
        let (cb, lb) = byte_or_range(st, prog, b, i, left)?;
        if !byte_is(st, &ca, &cb) {
            let xa = st.dom.cast(CastOp::ZExt, 8, w, &ca);
            let xb = st.dom.cast(CastOp::ZExt, 8, w, &cb);
            return Ok(st.dom.binop(BinOp::Sub, w, &xa, &xb));
        }
        if strings && byte_is(st, &ca, &zero) {
            break;
        }
        i += la.min(lb);
    }
    Ok(st.dom.constant(w, 0))
}

/// `strcpy` (`n` None) or `strncpy` (copies at most `n` bytes, then pads with NULs up to `n`). A
/// uniform range of the source is stored as a fill, and so is the padding.
fn copy_string<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    dst: &D::Val,
    src: &D::Val,
    n: Option<u64>,
) -> Result<(), End> {
    let zero = nul(st);
    let mut i = 0;
    while n.is_none_or(|n| i < n) {
        within_budget()?;
        let left = n.map_or(u64::MAX, |n| n - i);
        let (c, run) = byte_or_range(st, prog, src, i, left)?;
        if byte_is(st, &c, &zero) {
            let pad = n.map_or(1, |n| n - i);
            return store_range(st, prog, dst, i, &zero, pad);
        }
        store_range(st, prog, dst, i, &c, run)?;
        i += run;
    }
    Ok(())
}

/// Stores byte `c` at `dst + i .. dst + i + len`: fills as far as the destination's object reaches,
/// then a single byte, whose store reports the bound as a byte-by-byte copy would.
fn store_range<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    dst: &D::Val,
    mut i: u64,
    c: &D::Val,
    len: u64,
) -> Result<(), End> {
    let end = i + len;
    while i < end {
        within_budget()?;
        let k = st.room_at(dst, i).map_or(1, |room| room.min(end - i));
        let p = st.ptr_add(dst, i);
        if k == 1 {
            st.store_scalar(prog, &p, c, 1, 8)?;
        } else {
            st.fill_memory(prog, &p, c, k)?;
        }
        i += k;
    }
    Ok(())
}

/// `strchr` (first) or `strrchr` (last) occurrence of `c` in the string at `s`, or null. The NUL itself
/// can be found. A uniform range is decided once: all its bytes are `c` or none is.
fn find_char<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    s: &D::Val,
    c: &D::Val,
    last: bool,
) -> Result<D::Val, End> {
    let zero = nul(st);
    let mut found = None;
    let mut i = 0;
    loop {
        within_budget()?;
        let (b, run) = byte_or_range(st, prog, s, i, u64::MAX)?;
        let is_c = byte_is(st, &b, c);
        if is_c && !last {
            found = Some(i);
            break;
        }
        let is_nul = byte_is(st, &b, &zero);
        if is_c {
            // The last of the range, or the NUL that ends it (strrchr(s, 0)).
            found = Some(if is_nul { i } else { i + run - 1 });
        }
        if is_nul {
            break;
        }
        i += run;
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
        // One decision for a whole range: its bytes are all alike.
        let (b, run) = byte_or_range(st, prog, s, i, n - i)?;
        if byte_is(st, &b, c) {
            return Ok(st.ptr_add(s, i));
        }
        i += run;
    }
    Ok(st.dom.constant(64, 0))
}

/// `strstr(h, n)`: the first position of `n` in `h`, or null.
///
/// Each position compares the needle range by range. A mismatch at needle offset `j` inside the
/// haystack's uniform range of length `r` starting at the position settles the next `r - j - 1`
/// positions alike (their bytes up to the mismatch are the same byte, already compared), so they
/// are skipped.
fn find_string<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    h: &D::Val,
    n: &D::Val,
) -> Result<D::Val, End> {
    let zero = nul(st);
    let mut i = 0;
    loop {
        let mut j = 0;
        let mismatch = loop {
            within_budget()?;
            let (nb, ln) = byte_or_range(st, prog, n, j, u64::MAX)?;
            if byte_is(st, &nb, &zero) {
                return Ok(st.ptr_add(h, i));
            }
            let (hb, lh) = byte_or_range(st, prog, h, i + j, u64::MAX)?;
            if !byte_is(st, &hb, &nb) {
                break j;
            }
            j += ln.min(lh);
        };
        let (hb, run) = byte_or_range(st, prog, h, i, u64::MAX)?;
        if byte_is(st, &hb, &zero) {
            break;
        }
        i += if mismatch < run { run - mismatch } else { 1 };
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

    /// A small heap block holding `bytes`: its address.
    fn literal(st: &mut State<crate::concrete::Concrete>, bytes: &[u8]) -> u128 {
        let n = bytes.len() as u64;
        let a = block(st, n, 0, 0);
        for (i, &b) in bytes.iter().enumerate() {
            let o = st.mem.object_mut((a >> 40) as u32).expect("live");
            o.contents.set_byte(i, b);
        }
        a
    }

    #[test]
    fn every_model_steps_over_uniform_ranges_whatever_their_length() {
        let (prog, mut st) = state(vec![]);
        let mut counts = Vec::new();
        for n in [1 << 20, MIB_200] {
            let nu = n as u128;
            // "aa...a": n - 1 bytes of 'a' and a NUL; "aa...ac": the last 'a' a 'c'.
            let a = block(&mut st, n, b'a', 0);
            let ac = block(&mut st, n, b'a', 0);
            st.mem
                .object_mut((ac >> 40) as u32)
                .expect("live")
                .contents
                .set_byte((n - 2) as usize, b'c');
            let [d1, d2, d3, d4] = [0; 4].map(|_| block(&mut st, n, 0, 0));
            let [ca, cb, cz] = [b'a', b'b', 0].map(|c| st.dom.constant(8, c as u128));
            let [aa, ab, acn] = [&b"aa\0"[..], b"ab\0", b"ac\0"].map(|l| literal(&mut st, l));
            let before = loop_steps();
            // strchr, strrchr
            assert_eq!(find_char(&mut st, &prog, &a, &ca, false).unwrap(), a);
            assert_eq!(
                find_char(&mut st, &prog, &a, &ca, true).unwrap(),
                a + nu - 2
            );
            assert_eq!(
                find_char(&mut st, &prog, &a, &cz, true).unwrap(),
                a + nu - 1
            );
            assert_eq!(find_char(&mut st, &prog, &a, &cb, false).unwrap(), 0);
            assert_eq!(find_char(&mut st, &prog, &a, &cb, true).unwrap(), 0);
            // strstr
            assert_eq!(find_string(&mut st, &prog, &a, &aa).unwrap(), a);
            assert_eq!(find_string(&mut st, &prog, &a, &ab).unwrap(), 0);
            assert_eq!(find_string(&mut st, &prog, &ac, &acn).unwrap(), ac + nu - 3);
            // strcpy, strcat, strncpy
            copy_string(&mut st, &prog, &d1, &a, None).unwrap();
            assert_eq!(
                compare(&mut st, &prog, &d1, &a, Some(n), false, 32).unwrap(),
                0
            );
            assert_eq!(length(&mut st, &prog, &d2, None).unwrap(), 0);
            copy_string(&mut st, &prog, &d2, &ac, None).unwrap();
            assert_eq!(length(&mut st, &prog, &d2, None).unwrap(), n - 1);
            assert_eq!(find_byte(&mut st, &prog, &d2, &ca, n).unwrap(), d2);
            copy_string(&mut st, &prog, &d2, &ab, Some(n)).unwrap();
            assert_eq!(length(&mut st, &prog, &d2, None).unwrap(), 2);
            let z = find_byte(&mut st, &prog, &(d2 + 2), &ca, n - 2).unwrap();
            assert_eq!(z, 0, "strncpy pads with NULs to n");
            // memcpy at page offsets that differ: a fill of the destination.
            st.copy_memory(&prog, &(d3 + 1), &a, n - 2).unwrap();
            assert_eq!(find_byte(&mut st, &prog, &d3, &ca, n).unwrap(), d3 + 1);
            assert_eq!(length(&mut st, &prog, &(d3 + 1), None).unwrap(), n - 2);
            // memmove within one object, overlapping.
            st.copy_memory(&prog, &d3, &(d3 + 1), n - 2).unwrap();
            assert_eq!(length(&mut st, &prog, &d3, None).unwrap(), n - 1);
            st.copy_memory(&prog, &(d4 + 7), &a, n - 8).unwrap();
            assert_eq!(length(&mut st, &prog, &d4, None).unwrap(), 0);
            assert_eq!(length(&mut st, &prog, &(d4 + 7), None).unwrap(), n - 8);
            counts.push(loop_steps() - before);
        }
        // The same few steps for 1 MiB and for 200 MiB: none per byte.
        assert_eq!(counts[0], counts[1], "{counts:?}");
        assert!(counts[1] <= 100, "{counts:?}");
    }
}
