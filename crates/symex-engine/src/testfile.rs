//! The test-file format of `spec/cli.md`: the inputs a program asked for, in order, and the outcome.

use serde::{Deserialize, Serialize};
use std::path::Path;

/// One input: its name (the intrinsic, the `klee_make_symbolic` name, or `uninit:OBJECT`) and its bytes
/// (little-endian for integers).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestInput {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// How a run ended, as written in test files and in `replay --json`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// `exit`, a bug kind of `spec/cli.md`, or `assumption-violated` / `timeout` for runs that say
    /// nothing about the program.
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub function: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub message: Option<String>,
}

/// A test file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestFile {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub program: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub entry: Option<String>,
    #[serde(default)]
    pub inputs: Vec<TestInput>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub outcome: Option<Outcome>,
}

impl TestFile {
    /// Reads and parses a test file; the error names the file and what is wrong with it.
    pub fn load(path: &Path) -> Result<TestFile, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read test file: {e}", path.display()))?;
        Self::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses the JSON text of a test file.
    pub fn parse(text: &str) -> Result<TestFile, String> {
        serde_json::from_str(text).map_err(|e| {
            format!(
                "invalid test file: {e} (line {}, column {})",
                e.line(),
                e.column()
            )
        })
    }

    /// The JSON text of this test.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_spec_example() {
        let t = TestFile::parse(
            r#"{"program":"x.c","entry":"main","inputs":[{"name":"a","bytes":[0,0,0,128]}],"outcome":{"kind":"exit","code":0}}"#,
        )
        .unwrap();
        assert_eq!(t.inputs[0].bytes, vec![0, 0, 0, 128]);
        assert_eq!(t.outcome.as_ref().unwrap().code, Some(0));
        assert_eq!(TestFile::parse(&t.to_json()).unwrap(), t);
        assert_eq!(TestFile::parse(r#"{"inputs":[]}"#).unwrap().inputs.len(), 0);
    }

    #[test]
    fn rejects_malformed_bytes() {
        let e = TestFile::parse(r#"{"inputs":[{"name":"a","bytes":[300]}]}"#).unwrap_err();
        assert!(e.contains("line 1"), "{e}");
    }
}
