//! Files by path: `fopen`/`fclose`/`fseek`/`ftell`/`rewind` and `open`/`close` of the fuzzed file
//! ([`crate::symfile`]), and the reads of `reads.rs` on its streams and descriptors. A read on a stream
//! of the file runs the stdin model with that stream's cursor in stdin's place, so both read alike.
//! With a fuzzed file, opens of other paths for reading fail (NULL, -1) as in the empty directory the
//! native replay runs in; without one (`run`, `check`) any open is unmodelled (UNKNOWN), never assumed
//! to fail; opening any path for writing is not modelled.

use super::{callee_name, ret_width, Model};
use crate::bug::End;
use crate::domain::{Decision, Domain};
use crate::exec::unsupported;
use crate::memory::ObjKind;
use crate::program::Program;
use crate::state::State;
use crate::stdin::Stdin;
use std::rc::Rc;
use symex_ir::Call;

/// Bytes of glibc's `FILE` on x86-64 (as stdin's): code inlined from glibc's headers reads its zero
/// buffer pointers within bounds and then calls the modelled `__uflow`.
const FILE_SIZE: u64 = 216;

/// `SEEK_SET`, `SEEK_CUR`, `SEEK_END`.
const SEEK_SET: u128 = 0;
const SEEK_CUR: u128 = 1;
const SEEK_END: u128 = 2;

/// `O_ACCMODE` and `O_RDONLY` of Linux.
const O_ACCMODE: u128 = 3;
const O_RDONLY: u128 = 0;

pub(super) fn call<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    model: Model,
    call: &Call,
    args: &[D::Val],
) -> Result<Option<D::Val>, End> {
    let w = ret_width(prog, call);
    let r = match model {
        Model::Fopen => return fopen(st, prog, call, &args[0], &args[1]).map(Some),
        Model::Open => {
            let fd = open(st, prog, call, &args[0], &args[1])?;
            int(st, w, fd)
        }
        Model::Close => {
            let fd = fd_arg(st, &args[0]);
            match st.symfile.fd(fd) {
                Some(k) => {
                    Rc::make_mut(&mut st.symfile).fds[k] = None;
                    int(st, w, 0)
                }
                None => return Err(not_ours(st, prog, call)),
            }
        }
        Model::Fclose | Model::Fseek | Model::Ftell | Model::Rewind => {
            let Some(k) = stream_of(st, prog, &args[0]) else {
                return Err(not_ours(st, prog, call));
            };
            match model {
                Model::Fclose => {
                    Rc::make_mut(&mut st.symfile).streams.remove(k);
                    int(st, w, 0)
                }
                Model::Fseek => {
                    let ow = call
                        .arg_types
                        .get(1)
                        .and_then(|&t| prog.width(t))
                        .unwrap_or(64);
                    let off = st.dom.choose(Decision::Length, &args[1], ow);
                    let off = crate::concrete::sext(off, ow) as i64;
                    let whence = st.dom.choose(Decision::Length, &args[2], 32);
                    let cursor = &mut Rc::make_mut(&mut st.symfile).streams[k].1;
                    let base = match whence {
                        SEEK_SET => 0,
                        SEEK_CUR => cursor.tell() as i64,
                        SEEK_END => cursor.size() as i64,
                        _ => return Ok(Some(int(st, w, -1))),
                    };
                    match base.checked_add(off).filter(|p| *p >= 0) {
                        Some(p) => {
                            cursor.seek(p as usize);
                            int(st, w, 0)
                        }
                        None => int(st, w, -1),
                    }
                }
                Model::Ftell => {
                    let pos = st.symfile.streams[k].1.tell() as i64;
                    int(st, w, pos)
                }
                _ => {
                    Rc::make_mut(&mut st.symfile).streams[k].1.seek(0);
                    return Ok(None);
                }
            }
        }
        _ => unreachable!("not a file model"),
    };
    Ok(Some(r))
}

/// The `w`-bit constant `v` (negative values in two's complement).
fn int<D: Domain>(st: &mut State<D>, w: u32, v: i64) -> D::Val {
    st.dom.constant(w, v as u128 & crate::concrete::mask(w))
}

/// A call on a stream or descriptor that is not one of the fuzzed file's.
fn not_ours<D: Domain>(st: &mut State<D>, prog: &Program, call: &Call) -> End {
    let what = format!(
        "`{}` on a stream or descriptor other than the fuzzed file's (only it is modelled)",
        callee_name(prog, call)
    );
    unsupported(st, prog, what)
}

/// Whether the path `path` names the fuzzed file, and the open mode reads only. Writing to a file is
/// not modelled.
fn opens_fuzzed_file<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    call: &Call,
    path: &D::Val,
    read_only: bool,
) -> Result<bool, End> {
    let path = st.read_c_string(prog, path)?;
    if !read_only {
        let what = format!(
            "`{}` of \"{}\" for writing (only reading files is modelled)",
            callee_name(prog, call),
            String::from_utf8_lossy(&path).escape_default()
        );
        return Err(unsupported(st, prog, what));
    }
    match st.symfile.path() {
        Some(p) => Ok(p.as_bytes() == path),
        None => {
            let what = format!(
                "`{}` of \"{}\" (files are modelled only for `symex fuzz --file NAME`)",
                callee_name(prog, call),
                String::from_utf8_lossy(&path).escape_default()
            );
            Err(unsupported(st, prog, what))
        }
    }
}

/// `fopen(path, mode)`: a new stream on the fuzzed file, or NULL for another path.
fn fopen<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    call: &Call,
    path: &D::Val,
    mode: &D::Val,
) -> Result<D::Val, End> {
    let mode = st.read_c_string(prog, mode)?;
    let read_only = mode.first() == Some(&b'r') && !mode.contains(&b'+');
    if !opens_fuzzed_file(st, prog, call, path, read_only)? {
        return Ok(st.dom.constant(64, 0));
    }
    let fill = st.dom.const_byte(0);
    let name = format!("{} (FILE)", st.symfile.path().unwrap_or(""));
    let Some(obj) = st
        .mem
        .allocate(ObjKind::Runtime, name.into(), FILE_SIZE, fill, true)
    else {
        return Err(unsupported(st, prog, "no room for a FILE object"));
    };
    let cursor = st.symfile.open();
    Rc::make_mut(&mut st.symfile).streams.push((obj, cursor));
    Ok(st.dom.constant(64, u128::from(prog.addr.address(obj, 0))))
}

/// `open(path, flags, ...)`: a new descriptor on the fuzzed file, or -1 for another path.
fn open<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    call: &Call,
    path: &D::Val,
    flags: &D::Val,
) -> Result<i64, End> {
    let flags = st.dom.choose(Decision::Length, flags, 32);
    if !opens_fuzzed_file(st, prog, call, path, flags & O_ACCMODE == O_RDONLY)? {
        return Ok(-1);
    }
    Ok(Rc::make_mut(&mut st.symfile).open_fd())
}

/// A descriptor argument as a number.
fn fd_arg<D: Domain>(st: &mut State<D>, fd: &D::Val) -> i64 {
    crate::concrete::sext(st.dom.choose(Decision::Length, fd, 32), 32) as i64
}

/// The fuzzed file's stream a `FILE *` argument points to, if it is one.
fn stream_of<D: Domain>(st: &mut State<D>, prog: &Program, stream: &D::Val) -> Option<usize> {
    let addr = st.dom.as_const(stream)? as u64;
    let (id, off) = prog.addr.split(addr);
    if off != 0 {
        return None;
    }
    st.symfile.stream(id)
}

/// The argument of a read model that names its stream (or, for `read`, its descriptor).
fn stream_arg(model: Model) -> Option<usize> {
    match model {
        Model::Fgetc | Model::Feof | Model::Fscanf | Model::Read => Some(0),
        Model::Ungetc => Some(1),
        Model::Fgets | Model::Getline => Some(2),
        Model::Fread | Model::Getdelim => Some(3),
        _ => None,
    }
}

/// Where a read goes: a stream or a descriptor of the fuzzed file.
pub(super) enum Target {
    Stream(usize),
    Fd(usize),
}

/// The fuzzed file's stream or descriptor a read model's call reads, if it reads one.
pub(super) fn read_target<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    model: Model,
    args: &[D::Val],
) -> Option<Target> {
    let a = args.get(stream_arg(model)?)?;
    if model == Model::Read {
        let fd = crate::concrete::sext(st.dom.as_const(a)?, 32) as i64;
        return st.symfile.fd(fd).map(Target::Fd);
    }
    stream_of(st, prog, a).map(Target::Stream)
}

/// Runs `read` (a stdin model) with the target's cursor in stdin's place; the stdin models then accept
/// the stream's `FILE` object (and, for `read`, descriptor 0 is passed for the file's).
pub(super) fn with_cursor<D: Domain, R>(
    st: &mut State<D>,
    target: &Target,
    read: impl FnOnce(&mut State<D>) -> R,
) -> R {
    let cursor = match target {
        Target::Stream(k) => {
            let (obj, c) = &mut Rc::make_mut(&mut st.symfile).streams[*k];
            let mut c = std::mem::replace(c, Stdin::new(0));
            c.file = Some(*obj);
            c
        }
        Target::Fd(k) => Rc::make_mut(&mut st.symfile).fds[*k]
            .take()
            .expect("an open descriptor"),
    };
    let stdin = std::mem::replace(&mut st.stdin, Rc::new(cursor));
    let r = read(st);
    let cursor = Rc::unwrap_or_clone(std::mem::replace(&mut st.stdin, stdin));
    match target {
        Target::Stream(k) => Rc::make_mut(&mut st.symfile).streams[*k].1 = cursor,
        Target::Fd(k) => Rc::make_mut(&mut st.symfile).fds[*k] = Some(cursor),
    }
    r
}

/// A read model's call: on a stream or descriptor of the fuzzed file it reads that file, otherwise stdin.
pub(super) fn read<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    model: Model,
    call: &Call,
    args: &[D::Val],
) -> Result<Option<D::Val>, End> {
    let Some(target) = read_target(st, prog, model, args) else {
        return super::reads::call(st, prog, model, call, args);
    };
    let mut args = args.to_vec();
    if model == Model::Read {
        args[0] = st.dom.constant(32, 0);
    }
    with_cursor(st, &target, |st| {
        super::reads::call(st, prog, model, call, &args)
    })
}
