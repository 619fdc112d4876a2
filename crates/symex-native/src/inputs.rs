//! Which inputs of a test the native run can honour, and how they reach the runtime.

use symex_engine::{TestFile, ARGC_INPUT};

/// The name prefix symex gives reads of uninitialised memory (`symex-engine`'s `InputRequest`).
const UNINIT: &str = "uninit:";
/// The name of the stdin bytes of a test.
const STDIN: &str = "stdin";
/// Most arguments a native run is given (`argc` of a `symex check` test): well within Linux's limits.
const MAX_NATIVE_ARGC: u32 = 1 << 16;

/// The `argc` the test starts `main` with, when it gives one (`symex check` on a `main` reading `argc`).
pub fn argc(test: &TestFile) -> Option<u32> {
    let input = test.inputs.first().filter(|i| i.name == ARGC_INPUT)?;
    let mut le = [0u8; 4];
    let n = input.bytes.len().min(4);
    le[..n].copy_from_slice(&input.bytes[..n]);
    Some(u32::from_le_bytes(le))
}

/// Why the native build cannot reproduce `test`, if it cannot.
pub fn reproducible(test: &TestFile) -> Result<(), String> {
    if let Some(entry) = test.entry.as_deref().filter(|e| *e != "main") {
        return Err(format!(
            "the test starts at `{entry}`; the native build runs `main`"
        ));
    }
    if let Some(n) = argc(test).filter(|n| !(1..=MAX_NATIVE_ARGC).contains(n)) {
        return Err(format!(
            "the test starts `main` with argc = {}; a native run has 1 to {MAX_NATIVE_ARGC} arguments \
             (Linux gives a program at least its name)",
            n as i32
        ));
    }
    for input in &test.inputs {
        if input.name.starts_with(UNINIT) && input.bytes.iter().any(|&b| b != 0) {
            return Err(format!(
                "the test gives uninitialised memory (`{}`) a nonzero value; the native build reads zero \
                 there (locals zero-initialised, heap blocks zero-filled)",
                input.name
            ));
        }
    }
    let args = symex_engine::symargs::sym_args(&test.inputs).len();
    for input in &test.inputs[..args] {
        let len = input.bytes.iter().position(|&b| b == 0);
        if len.is_some_and(|n| input.bytes[n..].iter().any(|&b| b != 0)) {
            return Err(format!(
                "argument `{}` has bytes after its NUL; the native program's argv ends the string there",
                input.name
            ));
        }
    }
    if let Some((path, _)) = symex_engine::symfile::sym_file(&test.inputs) {
        symex_engine::symfile::check_path(path).map_err(|e| {
            format!("the test's file `{path}` cannot be created for the native run: {e}")
        })?;
    }
    Ok(())
}

/// The fuzzed file of the test: its path (relative to the directory the program runs in) and bytes.
pub fn sym_file(test: &TestFile) -> Option<(&str, &[u8])> {
    let (path, _) = symex_engine::symfile::sym_file(&test.inputs)?;
    let k = symex_engine::symargs::sym_args(&test.inputs).len();
    Some((path, test.inputs[k].bytes.as_slice()))
}

/// The stdin bytes of the test (empty when it has none).
pub fn stdin_bytes(test: &TestFile) -> Vec<u8> {
    test.inputs
        .iter()
        .filter(|i| i.name == STDIN)
        .flat_map(|i| i.bytes.iter().copied())
        .collect()
}

/// The inputs file the runtime reads: the inputs the program asks for through a function, in order
/// (uninitialised reads and stdin are honoured by the build and the run themselves).
pub fn encode(test: &TestFile) -> Vec<u8> {
    let mut out = Vec::new();
    // The fuzzed arguments reach the program as its argv; argc, stdin and the fuzzed file reach it
    // through the run itself.
    let args = symex_engine::symargs::sym_args(&test.inputs).len();
    for input in &test.inputs[args..] {
        if input.name.starts_with(UNINIT)
            || input.name == STDIN
            || input.name == ARGC_INPUT
            || input
                .name
                .starts_with(symex_engine::symfile::FILE_INPUT_PREFIX)
        {
            continue;
        }
        out.extend_from_slice(&(input.name.len() as u32).to_le_bytes());
        out.extend_from_slice(input.name.as_bytes());
        out.extend_from_slice(&(input.bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(&input.bytes);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_engine::TestInput;

    fn test(inputs: &[(&str, &[u8])]) -> TestFile {
        TestFile {
            inputs: inputs
                .iter()
                .map(|(n, b)| TestInput {
                    name: (*n).into(),
                    bytes: b.to_vec(),
                })
                .collect(),
            ..TestFile::default()
        }
    }

    #[test]
    fn zero_uninitialised_values_are_reproducible_others_not() {
        assert!(reproducible(&test(&[("uninit:x", &[0, 0, 0, 0]), ("a", &[7])])).is_ok());
        let e = reproducible(&test(&[("uninit:x", &[0, 1, 0, 0])])).unwrap_err();
        assert!(e.contains("uninit:x"), "{e}");
        let mut t = test(&[]);
        t.entry = Some("f".into());
        assert!(reproducible(&t).is_err());
    }

    #[test]
    fn the_inputs_file_skips_uninitialised_and_stdin_inputs() {
        let t = test(&[
            ("a", &[1, 2]),
            ("uninit:x", &[0]),
            ("stdin", &[9]),
            ("bc", &[]),
        ]);
        assert_eq!(
            encode(&t),
            vec![1, 0, 0, 0, b'a', 2, 0, 0, 0, 1, 2, 2, 0, 0, 0, b'b', b'c', 0, 0, 0, 0]
        );
        assert_eq!(stdin_bytes(&t), vec![9]);
    }
}
