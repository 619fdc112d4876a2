//! Fuzzed command-line arguments: `symex fuzz --arg N` (KLEE's `--sym-arg N`). Each gives `main` one more
//! `argv` string of N input bytes and a terminating NUL (a NUL among the bytes ends the string sooner, so
//! its length is at most N), named `argv[1]`, `argv[2]`, ... in test files. They are asked from the domain
//! before the program starts, so they are the first inputs of a test; replay takes them from there.

use crate::domain::{Domain, InputRequest};
use crate::memory::{ObjId, ObjKind};
use crate::program::Program;
use crate::state::State;
use crate::testfile::TestInput;
use std::rc::Rc;

/// The input name of argument `i` (1 for `argv[1]`).
pub fn arg_input_name(i: usize) -> String {
    format!("argv[{i}]")
}

/// The lengths of the fuzzed arguments a test's inputs describe: its leading `argv[1]`, `argv[2]`, ...
/// inputs.
pub fn sym_args(inputs: &[TestInput]) -> Vec<usize> {
    inputs
        .iter()
        .enumerate()
        .take_while(|(k, i)| i.name == arg_input_name(k + 1))
        .map(|(_, i)| i.bytes.len())
        .collect()
}

/// The argument strings of a test (for the native run): each fuzzed argument up to its first NUL.
pub fn arg_strings(inputs: &[TestInput]) -> Vec<Vec<u8>> {
    inputs[..sym_args(inputs).len()]
        .iter()
        .map(|i| i.bytes.split(|&b| b == 0).next().unwrap_or(&[]).to_vec())
        .collect()
}

impl<D: Domain> State<D> {
    /// Gives `main` fuzzed arguments of the given lengths, asking the domain for their bytes now. Call it
    /// before the program runs (and before [`State::set_sym_file`]).
    pub fn set_sym_args(&mut self, lens: &[usize]) {
        self.sym_args = lens
            .iter()
            .enumerate()
            .map(|(k, &n)| {
                let name = arg_input_name(k + 1);
                let mut s = self.dom.input(InputRequest::Named(&name), n);
                s.push(self.dom.const_byte(0));
                Rc::from(s)
            })
            .collect::<Vec<_>>()
            .into();
    }

    /// Makes argument `k` (1 for `argv[1]`, counted from 0 here) the given bytes, as constants: a
    /// program argument given on the command line, whose input the domain has fixed to the same bytes.
    pub fn concretise_arg(&mut self, k: usize, bytes: &[u8]) {
        let s: Vec<D::Byte> = bytes
            .iter()
            .chain([&0])
            .map(|&b| self.dom.const_byte(b))
            .collect();
        Rc::make_mut(&mut self.sym_args)[k] = Rc::from(s);
    }

    /// `argv = {"<program>", arg1, ..., NULL}` when there are fuzzed arguments (`None` otherwise: the
    /// state's plain `argv` is used).
    pub(crate) fn make_sym_argv(&mut self, prog: &Program) -> Option<ObjId> {
        if self.sym_args.is_empty() {
            return None;
        }
        let program: Vec<D::Byte> = prog
            .module()
            .source_path
            .bytes()
            .chain([0])
            .map(|b| self.dom.const_byte(b))
            .collect();
        let mut strings =
            vec![self
                .mem
                .allocate_with(ObjKind::Runtime, "argv[0]".into(), program, false)];
        for (k, s) in self.sym_args.clone().iter().enumerate() {
            let name = format!("argv[{}]", k + 1);
            strings.push(
                self.mem
                    .allocate_with(ObjKind::Runtime, name.into(), s.to_vec(), false),
            );
        }
        let pb = prog.module().target.pointer_bytes as usize;
        let mut argv = Vec::with_capacity(pb * (strings.len() + 1));
        for s in strings {
            let addr = prog.addr.address(s, 0).to_le_bytes();
            argv.extend(addr[..pb].iter().map(|&b| self.dom.const_byte(b)));
        }
        argv.extend((0..pb).map(|_| self.dom.const_byte(0)));
        Some(
            self.mem
                .allocate_with(ObjKind::Runtime, "argv".into(), argv, false),
        )
    }
}

/// Gives `st` the fuzzed arguments and file the test's inputs describe (replay).
pub fn attach_from_inputs<D: Domain>(st: &mut State<D>, inputs: &[TestInput]) {
    let args = sym_args(inputs);
    if !args.is_empty() {
        st.set_sym_args(&args);
    }
    crate::symfile::attach_from_inputs(st, &inputs[args.len()..]);
}
