//! Reads of standard input: `getchar`, `fgetc`/`getc`, `fread`, `read(0, ...)`, `fgets`, `feof` and
//! `scanf`/`fscanf` with `%d` conversions, over the state's [`crate::stdin::Stdin`]. Counts and sizes are
//! fixed to numbers; the bytes read keep their (possibly symbolic) values, and where the library itself
//! looks at them (`fgets` stops after a newline, `scanf` parses digits) the model decides on each byte
//! as the program would.

use super::decimal::{is_space, read_decimal, ByteSource, Numeral};
use super::{callee_name, ret_width, Model};
use crate::bug::End;
use crate::domain::{BinOp, CastOp, CmpOp, Decision, Domain};
use crate::exec::unsupported;
use crate::program::Program;
use crate::provenance::Provenance;
use crate::state::State;
use std::rc::Rc;
use symex_ir::Call;

/// `EOF` of `<stdio.h>`.
const EOF: i64 = -1;

pub(super) fn call<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    model: Model,
    call: &Call,
    args: &[D::Val],
) -> Result<Option<D::Val>, End> {
    let w = ret_width(prog, call);
    let r = match model {
        Model::Getchar => next_char(st, w),
        Model::Fgetc => {
            expect_stdin(st, prog, call, &args[0])?;
            next_char(st, w)
        }
        Model::Feof => {
            expect_stdin(st, prog, call, &args[0])?;
            let eof = st.stdin.at_eof();
            st.dom.constant(w, eof as u128)
        }
        Model::Fread => {
            expect_stdin(st, prog, call, &args[3])?;
            let size = st.dom.choose(Decision::Length, &args[1], 64) as usize;
            let items = st.dom.choose(Decision::Length, &args[2], 64) as usize;
            let got = read_into(st, prog, &args[0], size.saturating_mul(items))?;
            st.dom
                .constant(w, got.checked_div(size).unwrap_or(0) as u128)
        }
        Model::Read => {
            let fd = st.dom.choose(Decision::Length, &args[0], 32);
            if fd != 0 {
                let what = format!("`read` from file descriptor {fd} (only 0, stdin, is modelled)");
                return Err(unsupported(st, prog, what));
            }
            let count = st.dom.choose(Decision::Length, &args[2], 64) as usize;
            // `read` works below the stream: it leaves the stream's end-of-file flag alone.
            let eof = st.stdin.at_eof();
            let got = read_into(st, prog, &args[1], count)?;
            Rc::make_mut(&mut st.stdin).set_eof(eof);
            st.dom.constant(w, got as u128)
        }
        Model::Fgets => {
            expect_stdin(st, prog, call, &args[2])?;
            return fgets(st, prog, &args[0], &args[1]).map(Some);
        }
        Model::Ungetc => {
            expect_stdin(st, prog, call, &args[1])?;
            ungetc(st, w, &args[0])
        }
        Model::Getline => {
            expect_stdin(st, prog, call, &args[2])?;
            let newline = st.dom.constant(32, b'\n' as u128);
            getdelim(st, prog, &args[0], &args[1], &newline, w)?
        }
        Model::Getdelim => {
            expect_stdin(st, prog, call, &args[3])?;
            getdelim(st, prog, &args[0], &args[1], &args[2], w)?
        }
        Model::Scanf => scanf(st, prog, call, &args[0], &args[1..])?,
        Model::Fscanf => {
            expect_stdin(st, prog, call, &args[0])?;
            scanf(st, prog, call, &args[1], &args[2..])?
        }
        _ => unreachable!("not a stdin model"),
    };
    Ok(Some(r))
}

/// The `w`-bit constant `v` (negative values in two's complement).
fn int<D: Domain>(st: &mut State<D>, w: u32, v: i64) -> D::Val {
    st.dom.constant(w, v as u128 & crate::concrete::mask(w))
}

/// Checks that a stream argument is stdin: the address the program's `stdin` global holds.
fn expect_stdin<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    call: &Call,
    stream: &D::Val,
) -> Result<(), End> {
    let addr = match st.dom.as_const(stream) {
        Some(a) => a,
        None => st.dom.choose(Decision::Length, stream, 64),
    } as u64;
    let (id, off) = prog.addr.split(addr);
    if off == 0 && st.stdin.file == Some(id) {
        return Ok(());
    }
    let what = format!(
        "`{}` on a stream other than stdin (only stdin is modelled)",
        callee_name(prog, call)
    );
    Err(unsupported(st, prog, what))
}

/// `getchar`: the next byte as an `unsigned char` widened to `int`, or `EOF` at the end.
fn next_char<D: Domain>(st: &mut State<D>, w: u32) -> D::Val {
    match Rc::make_mut(&mut st.stdin).read(&mut st.dom, 1).pop() {
        Some(b) => {
            let v = st.dom.bytes_to_val(&[b], 8);
            st.dom.cast(CastOp::ZExt, 8, w, &v)
        }
        None => int(st, w, EOF),
    }
}

/// Reads up to `n` bytes into `buf`; returns how many there were.
fn read_into<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    buf: &D::Val,
    n: usize,
) -> Result<usize, End> {
    let bytes = Rc::make_mut(&mut st.stdin).read(&mut st.dom, n);
    if !bytes.is_empty() {
        st.store_bytes(prog, buf, &bytes)?;
    }
    Ok(bytes.len())
}

/// `ungetc(c, stdin)`: puts `(unsigned char)c` back and returns it; `EOF` puts nothing back.
fn ungetc<D: Domain>(st: &mut State<D>, w: u32, c: &D::Val) -> D::Val {
    let eof = int(st, 32, EOF);
    let is_eof = st.dom.cmp(CmpOp::Eq, 32, c, &eof);
    if st.dom.decide(Decision::LibraryBranch, &is_eof) {
        return eof;
    }
    let byte = st.dom.cast(CastOp::Trunc, 32, 8, c);
    put_back(st, &byte);
    st.dom.cast(CastOp::ZExt, 8, w, &byte)
}

/// The buffer size glibc's `getdelim` starts with.
const GETDELIM_FIRST_SIZE: u128 = 120;

/// `getdelim(&line, &cap, delim, stdin)` (and `getline`, whose `delim` is a newline) as glibc does it:
/// a null `line` or a zero `cap` first gets a 120-byte heap block; the bytes through the first `delim`
/// are read, the block grows (`realloc`, at least doubling) when they and a NUL do not fit, and `line`
/// and `cap` are updated. Returns the count of bytes read (an `ssize_t` of `w` bits), or -1 when the end
/// came before any. `line` and `cap` are as wide as the target's pointers (4 bytes each on i386).
fn getdelim<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    line_ptr: &D::Val,
    cap_ptr: &D::Val,
    delim: &D::Val,
    w: u32,
) -> Result<D::Val, End> {
    let pb = u64::from(prog.module().target.pointer_bytes);
    let mut line = st.load_scalar(prog, line_ptr, pb, 64)?;
    let mut cap = st.load_scalar(prog, cap_ptr, pb, 64)?;
    let null = st.dom.constant(64, 0);
    let no_line = st.dom.cmp(CmpOp::Eq, 64, &line, &null);
    let no_cap = st.dom.cmp(CmpOp::Eq, 64, &cap, &null);
    let fresh = st.dom.binop(BinOp::Or, 1, &no_line, &no_cap);
    if st.dom.decide(Decision::LibraryBranch, &fresh) {
        cap = st.dom.constant(64, GETDELIM_FIRST_SIZE);
        line = super::alloc::realloc(st, prog, &line, &cap)?;
        store_line(st, prog, line_ptr, &line, cap_ptr, &cap)?;
    }
    let delim = st.dom.cast(CastOp::Trunc, 32, 8, delim);
    let mut bytes = read_through(st, &delim, usize::MAX);
    if bytes.is_empty() {
        return Ok(int(st, w, EOF));
    }
    let len = bytes.len() as u128;
    let have = st.dom.choose(Decision::Length, &cap, 64);
    if len + 1 > have {
        let size = (len + 1).max(have.saturating_mul(2));
        let size = st.dom.constant(64, size);
        line = super::alloc::realloc(st, prog, &line, &size)?;
        store_line(st, prog, line_ptr, &line, cap_ptr, &size)?;
    }
    bytes.push(st.dom.const_byte(0));
    st.store_bytes(prog, &line, &bytes)?;
    Ok(st.dom.constant(w, len))
}

/// `*line_ptr = line; *cap_ptr = cap` for `getdelim`: the buffer's address is stored as a pointer (read
/// back as an integer it is an observed address, see `provenance.rs`), its size as an integer.
fn store_line<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    line_ptr: &D::Val,
    line: &D::Val,
    cap_ptr: &D::Val,
    cap: &D::Val,
) -> Result<(), End> {
    let pb = u64::from(prog.module().target.pointer_bytes);
    st.store_scalar_as(prog, line_ptr, line, pb, 64, Some(Provenance::Pointer))?;
    st.store_scalar_as(prog, cap_ptr, cap, pb, 64, Some(Provenance::Integer))
}

/// `fgets(buf, n, stdin)`: up to `n - 1` bytes, through the first newline, then a NUL. Returns `buf`, or
/// null when the end came before any byte (the buffer is then left alone).
fn fgets<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    buf: &D::Val,
    n: &D::Val,
) -> Result<D::Val, End> {
    let n = crate::concrete::sext(st.dom.choose(Decision::Length, n, 32), 32);
    if n <= 0 {
        return Ok(st.dom.constant(64, 0));
    }
    let newline = st.dom.constant(8, b'\n' as u128);
    let mut line = read_through(st, &newline, (n - 1) as usize);
    if line.is_empty() && n > 1 {
        return Ok(st.dom.constant(64, 0));
    }
    line.push(st.dom.const_byte(0));
    st.store_bytes(prog, buf, &line)?;
    Ok(buf.clone())
}

/// Reads stdin through the first byte equal to the 8-bit `delim` (deciding at each byte, as the
/// library looks at it), at most `limit` bytes, fewer at the end.
fn read_through<D: Domain>(st: &mut State<D>, delim: &D::Val, limit: usize) -> Vec<D::Byte> {
    let mut bytes = Vec::new();
    while bytes.len() < limit {
        let Some(b) = Rc::make_mut(&mut st.stdin).read(&mut st.dom, 1).pop() else {
            break;
        };
        bytes.push(b.clone());
        let v = st.dom.bytes_to_val(std::slice::from_ref(&b), 8);
        let at_delim = st.dom.cmp(CmpOp::Eq, 8, &v, delim);
        if st.dom.decide(Decision::LibraryBranch, &at_delim) {
            break;
        }
    }
    bytes
}

/// The next byte of stdin as an 8-bit value, `None` at the end.
fn next_byte<D: Domain>(st: &mut State<D>) -> Option<D::Val> {
    let b = Rc::make_mut(&mut st.stdin).read(&mut st.dom, 1).pop()?;
    Some(st.dom.bytes_to_val(&[b], 8))
}

/// Puts the 8-bit value `b` back on stdin.
fn put_back<D: Domain>(st: &mut State<D>, b: &D::Val) {
    let mut byte = [st.dom.const_byte(0)];
    st.dom.val_to_bytes(b, 8, &mut byte);
    let [byte] = byte;
    Rc::make_mut(&mut st.stdin).unread(byte);
}

/// Skips white space (`isspace` of the C locale); returns the first other byte, `None` at the end.
fn skip_space<D: Domain>(st: &mut State<D>) -> Option<D::Val> {
    loop {
        let b = next_byte(st)?;
        let space = is_space(st, &b);
        if !st.dom.decide(Decision::LibraryBranch, &space) {
            return Some(b);
        }
    }
}

/// Stdin as the source of a `%d` numeral.
struct StdinBytes;

impl<D: Domain> ByteSource<D> for StdinBytes {
    fn next(&mut self, st: &mut State<D>) -> Result<Option<D::Val>, End> {
        Ok(next_byte(st))
    }
    fn put_back(&mut self, st: &mut State<D>, b: &D::Val) {
        put_back(st, b);
    }
}

/// `scanf(format, ...)` for formats made of `%d` conversions and white space: returns the number of
/// values stored, or `EOF` when the input ended before the first conversion.
fn scanf<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    call: &Call,
    format: &D::Val,
    outs: &[D::Val],
) -> Result<D::Val, End> {
    let w = ret_width(prog, call);
    let fmt = st.read_c_string(prog, format)?;
    let text = String::from_utf8_lossy(&fmt).into_owned();
    let mut rest = fmt.as_slice();
    let mut done = 0usize;
    while let Some(&c) = rest.first() {
        if c.is_ascii_whitespace() {
            // White space in the format takes any white space of the input, none included.
            rest = &rest[1..];
            if let Some(b) = skip_space(st) {
                put_back(st, &b);
            }
            continue;
        }
        if !rest.starts_with(b"%d") {
            let what = format!(
                "`{}` with format \"{}\" (only %d conversions and white space are modelled)",
                callee_name(prog, call),
                text.escape_default()
            );
            return Err(unsupported(st, prog, what));
        }
        rest = &rest[2..];
        let Some(out) = outs.get(done) else {
            let what = format!(
                "`{}` with fewer pointer arguments than conversions",
                callee_name(prog, call)
            );
            return Err(unsupported(st, prog, what));
        };
        match read_decimal(st, &mut StdinBytes, 32)? {
            Numeral::Value(v) => st.store_scalar(prog, out, &v, 4, 32)?,
            Numeral::Mismatch => break,
            Numeral::End if done == 0 => return Ok(int(st, w, EOF)),
            Numeral::End => break,
        }
        done += 1;
    }
    Ok(int(st, w, done as i64))
}
