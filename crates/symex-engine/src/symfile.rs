//! The fuzzed (symbolic) file: `symex fuzz --file NAME` (KLEE's `--sym-files`). The program's opens of the
//! path NAME read one input of `size` bytes, named `file:NAME` in test files, asked from the domain before
//! the program starts; every stream or descriptor opened on it has its own cursor over those same bytes (a
//! [`Stdin`] over them, so that the stdin models read it unchanged). Opens of other paths fail as they
//! do in the empty directory the native replay runs in. Without a fuzzed file (`run`, `check`) nothing is
//! known about the file system: every open is unmodelled, never assumed to fail.

use crate::domain::{Domain, InputRequest};
use crate::memory::ObjId;
use crate::state::State;
use crate::stdin::Stdin;
use crate::testfile::TestInput;
use std::rc::Rc;

/// The prefix of the fuzzed file's input name in test files (`file:NAME`).
pub const FILE_INPUT_PREFIX: &str = "file:";

/// The first descriptor `open` gives out (0, 1 and 2 are the standard streams).
const FIRST_FD: i64 = 3;

/// The fuzzed file and the streams and descriptors open on it.
#[derive(Clone, Debug)]
pub struct SymFile<D: Domain> {
    path: Option<Rc<str>>,
    /// The file's bytes.
    bytes: Option<Rc<[D::Byte]>>,
    /// `FILE` objects returned by `fopen` and their cursors.
    pub(crate) streams: Vec<(ObjId, Stdin<D>)>,
    /// Descriptors returned by `open` (`FIRST_FD + index`), `None` once closed.
    pub(crate) fds: Vec<Option<Stdin<D>>>,
}

impl<D: Domain> Default for SymFile<D> {
    fn default() -> Self {
        SymFile {
            path: None,
            bytes: None,
            streams: Vec::new(),
            fds: Vec::new(),
        }
    }
}

impl<D: Domain> SymFile<D> {
    /// The fuzzed file's path, if there is one.
    pub fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// A fresh cursor over the file's bytes.
    pub(crate) fn open(&self) -> Stdin<D> {
        Stdin::over(self.bytes.clone().unwrap_or_else(|| Rc::from(Vec::new())))
    }

    /// The stream whose `FILE` object is `obj`.
    pub(crate) fn stream(&self, obj: ObjId) -> Option<usize> {
        self.streams.iter().position(|(o, _)| *o == obj)
    }

    /// The index of open descriptor `fd`.
    pub(crate) fn fd(&self, fd: i64) -> Option<usize> {
        let k = usize::try_from(fd - FIRST_FD).ok()?;
        self.fds.get(k)?.as_ref().map(|_| k)
    }

    /// Opens a descriptor on the file; returns it.
    pub(crate) fn open_fd(&mut self) -> i64 {
        let cursor = self.open();
        self.fds.push(Some(cursor));
        FIRST_FD + self.fds.len() as i64 - 1
    }
}

impl<D: Domain> State<D> {
    /// Makes `path` the fuzzed file, of `size` bytes, and asks the domain for them now: the file's input
    /// is the first of every test (also when the program never opens it, so that its replay knows the
    /// file exists and that other paths do not). Call it before the program runs.
    pub fn set_sym_file(&mut self, path: &str, size: usize) {
        let name = format!("{FILE_INPUT_PREFIX}{path}");
        let bytes: Rc<[D::Byte]> = self.dom.input(InputRequest::Named(&name), size).into();
        self.symfile = Rc::new(SymFile {
            path: Some(path.into()),
            bytes: Some(bytes),
            ..SymFile::default()
        });
    }
}

/// The fuzzed file a test's inputs describe: its path and as many bytes as its `file:` input holds. It
/// is the first input after the fuzzed arguments (the run asked for it before the program started); a `file:` input elsewhere
/// names no fuzzed file (a run without one treats every open as unmodelled).
pub fn sym_file(inputs: &[TestInput]) -> Option<(&str, usize)> {
    let first = inputs.get(crate::symargs::sym_args(inputs).len())?;
    let path = first.name.strip_prefix(FILE_INPUT_PREFIX)?;
    Some((path, first.bytes.len()))
}

/// Why `path` cannot be the fuzzed file: it must be a relative path inside the directory the program
/// runs in (no `..`, not empty), so that the native replay can create it there.
pub fn check_path(path: &str) -> Result<(), String> {
    let p = std::path::Path::new(path);
    if path.is_empty() || path.ends_with('/') {
        return Err("the path names no file".into());
    }
    if !p
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)))
    {
        return Err("the path must be relative and stay inside the working directory (no `/`, `.` or `..` components)".into());
    }
    Ok(())
}

/// Gives `st` the fuzzed file the test's inputs describe, if any (replay; the inputs after the fuzzed
/// arguments).
pub fn attach_from_inputs<D: Domain>(st: &mut State<D>, inputs: &[TestInput]) {
    if let Some((path, size)) = sym_file(inputs) {
        st.set_sym_file(path, size);
    }
}
