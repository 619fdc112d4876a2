//! Standard input as the program sees it: a file of `size` bytes (`--stdin N` symbolically, the length of
//! the test's `stdin` input on replay) and a read cursor. The bytes are one input, named `stdin`, asked
//! for the first time the program reads, as KLEE's `-sym-stdin N` does. The cursor is always a number:
//! a read takes a known count of bytes, only their values are symbolic, so reading never forks; what the
//! program does with the bytes does. Past the last byte a read sees end-of-file.
//!
//! Without `--stdin` the size is 0: stdin is empty (a KLEE run with stdin redirected from `/dev/null`),
//! which a test without a `stdin` input reproduces on replay.

use crate::domain::{Domain, InputRequest};
use crate::memory::{ObjId, ObjKind};
use crate::program::Program;
use crate::testfile::TestInput;
use std::rc::Rc;

/// The name of the standard-input input in test files.
pub const STDIN_INPUT: &str = "stdin";

/// Bytes of glibc's `FILE` on x86-64: the object the `stdin` global points to has that size, so that
/// code inlined from glibc's headers reads its (zero) buffer pointers within bounds and calls `__uflow`.
const FILE_SIZE: u64 = 216;

/// The standard-input stream of a state.
#[derive(Clone, Debug)]
pub struct Stdin<D: Domain> {
    size: usize,
    /// The `size` bytes, once the program first read.
    bytes: Option<Rc<[D::Byte]>>,
    pos: usize,
    /// Bytes put back (`ungetc`, and a `scanf` conversion's first byte it did not take), read
    /// again before the file's next ones, last put back first.
    pushed_back: Vec<D::Byte>,
    /// A read reached the end (what `feof` reports).
    eof: bool,
    /// How far past the end `fseek` put the cursor (reads there see end-of-file).
    beyond: usize,
    /// The `FILE` object the program's `stdin` global points to (when the program mentions `stdin`).
    pub(crate) file: Option<ObjId>,
}

impl<D: Domain> Default for Stdin<D> {
    fn default() -> Self {
        Stdin::new(0)
    }
}

impl<D: Domain> Stdin<D> {
    /// A stdin of `size` bytes, none read yet.
    pub fn new(size: usize) -> Self {
        Stdin {
            size,
            bytes: None,
            pos: 0,
            pushed_back: Vec::new(),
            eof: false,
            beyond: 0,
            file: None,
        }
    }

    /// A stream over `bytes` already asked for (a stream of the fuzzed file, [`crate::symfile`]).
    pub(crate) fn over(bytes: Rc<[D::Byte]>) -> Self {
        Stdin {
            size: bytes.len(),
            bytes: Some(bytes),
            ..Stdin::new(0)
        }
    }

    /// Moves the cursor to byte `pos` (`fseek`): bytes put back are dropped and the end-of-file flag is
    /// cleared, as glibc's `fseek` does; a position past the end reads end-of-file.
    pub(crate) fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.size);
        self.beyond = pos.saturating_sub(self.size);
        self.pushed_back.clear();
        self.eof = false;
    }

    /// The position `ftell` reports: the cursor, less the bytes put back and not read again.
    pub(crate) fn tell(&self) -> usize {
        (self.pos + self.beyond).saturating_sub(self.pushed_back.len())
    }

    /// Bytes stdin holds.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Bytes read so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Whether a read reached the end.
    pub fn at_eof(&self) -> bool {
        self.eof
    }

    /// Sets the end-of-file flag (`read` below the stream leaves it as it was).
    pub(crate) fn set_eof(&mut self, eof: bool) {
        self.eof = eof;
    }

    /// Reads up to `n` bytes: those put back, then the file's from the cursor on (fewer at the end,
    /// which sets the end-of-file flag).
    pub(crate) fn read(&mut self, dom: &mut D, n: usize) -> Vec<D::Byte> {
        let again = n.min(self.pushed_back.len());
        let from = self.pushed_back.len() - again;
        let mut out: Vec<D::Byte> = self.pushed_back.drain(from..).rev().collect();
        if out.len() < n {
            let bytes = self.contents(dom);
            let k = (n - again).min(self.size - self.pos);
            out.extend_from_slice(&bytes[self.pos..self.pos + k]);
            self.pos += k;
        }
        if out.len() < n {
            self.eof = true;
        }
        out
    }

    /// Puts byte `b` back: the next read takes it first. Clears the end-of-file flag, as `ungetc` does.
    pub(crate) fn unread(&mut self, b: D::Byte) {
        self.pushed_back.push(b);
        self.eof = false;
    }

    /// The bytes of stdin, asked from the domain on the first read.
    fn contents(&mut self, dom: &mut D) -> Rc<[D::Byte]> {
        if let Some(b) = &self.bytes {
            return b.clone();
        }
        let b: Rc<[D::Byte]> = if self.size == 0 {
            Rc::from(Vec::new())
        } else {
            dom.input(InputRequest::Named(STDIN_INPUT), self.size)
                .into()
        };
        self.bytes = Some(b.clone());
        b
    }
}

/// The size of the stdin a test's inputs describe: as many bytes as its `stdin` input holds, none
/// without one (the path never read stdin, or read an empty one).
pub fn stdin_size(inputs: &[TestInput]) -> usize {
    inputs
        .iter()
        .find(|i| i.name == STDIN_INPUT)
        .map_or(0, |i| i.bytes.len())
}

/// Points the program's `extern FILE *stdin` (a global without initializer, zero otherwise) at a runtime
/// `FILE` object, whose address is how the stream models recognise stdin. Called once the globals are
/// allocated.
pub(crate) fn attach_file<D: Domain>(
    prog: &Program,
    dom: &mut D,
    mem: &mut crate::memory::Memory<D::Byte>,
) -> Option<ObjId> {
    attach_stream(prog, dom, mem, "stdin")
}

/// The `FILE` object the global `name` (`stdin`, `stdout`, `stderr`) points to, when the program
/// mentions it.
pub(crate) fn attach_stream<D: Domain>(
    prog: &Program,
    dom: &mut D,
    mem: &mut crate::memory::Memory<D::Byte>,
    name: &str,
) -> Option<ObjId> {
    let (g, global) = prog.module().globals.iter().enumerate().find(|(_, g)| {
        g.name == name
            && g.init.is_none()
            && g.size == u64::from(prog.module().target.pointer_bytes)
    })?;
    let fill = dom.const_byte(0);
    let file = mem.allocate(
        ObjKind::Runtime,
        format!("{name} (FILE)").into(),
        FILE_SIZE,
        fill,
        true,
    )?;
    let ptr = prog.addr.address(file, 0).to_le_bytes();
    let obj = mem.object_mut(prog.global_object(g as u32))?;
    let n = (global.size as usize).min(ptr.len());
    let bytes: Vec<_> = ptr[..n].iter().map(|&v| dom.const_byte(v)).collect();
    obj.contents.write(0, n, |out| out.clone_from_slice(&bytes));
    Some(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concrete::Concrete;

    fn input(name: &str, bytes: &[u8]) -> TestInput {
        TestInput {
            name: name.into(),
            bytes: bytes.to_vec(),
        }
    }

    #[test]
    fn reads_advance_to_end_of_file_and_ask_for_the_input_once() {
        let mut dom = Concrete::new(vec![input("stdin", b"abc")]);
        let mut s: Stdin<Concrete> = Stdin::new(3);
        assert_eq!(s.read(&mut dom, 2), b"ab");
        assert!(!s.at_eof());
        s.unread(b'b');
        assert_eq!(s.read(&mut dom, 5), b"bc");
        assert!(s.at_eof());
        assert_eq!(s.read(&mut dom, 1), b"");
        assert_eq!(s.position(), 3);
        assert_eq!(dom.consumed, vec![input("stdin", b"abc")]);
    }

    #[test]
    fn bytes_put_back_come_first_last_in_first_out_and_clear_eof() {
        let mut dom = Concrete::new(vec![input("stdin", b"ab")]);
        let mut s: Stdin<Concrete> = Stdin::new(2);
        assert_eq!(s.read(&mut dom, 3), b"ab");
        assert!(s.at_eof());
        s.unread(b'x');
        s.unread(b'y');
        assert!(!s.at_eof());
        assert_eq!(s.read(&mut dom, 1), b"y");
        assert_eq!(s.read(&mut dom, 2), b"x");
        assert!(s.at_eof());
        assert_eq!(
            s.position(),
            2,
            "bytes put back do not move the file's cursor"
        );
    }

    #[test]
    fn an_empty_stdin_asks_for_no_input() {
        let mut dom = Concrete::new(Vec::new());
        let mut s: Stdin<Concrete> = Stdin::new(0);
        assert_eq!(s.read(&mut dom, 1), b"");
        assert!(s.at_eof());
        assert!(dom.consumed.is_empty());
    }

    #[test]
    fn the_size_comes_from_the_tests_stdin_input() {
        let inputs = [input("x", &[1, 2]), input("stdin", b"hello")];
        assert_eq!(stdin_size(&inputs), 5);
        assert_eq!(stdin_size(&inputs[..1]), 0);
    }
}
