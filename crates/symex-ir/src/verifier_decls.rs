//! SV-COMP's `__VERIFIER_*` functions have the meaning the competition's rules give them, whatever
//! a task declares. A few tasks declare them `noreturn` (termination-bwb's `and-01` declares
//! `__VERIFIER_assume`, `counting-bits-set` `__VERIFIER_nondet_int`); clang then ends the caller
//! with `unreachable` right after the call, and every analysis sees undefined behaviour where the
//! rules say the call returns. Such a declaration's attribute is blanked out in a scratch copy of
//! the source (same columns, and a `#line` directive keeps the original lines and file name).

use std::path::Path;

/// The attribute spellings that are blanked on a `__VERIFIER_` declaration line.
const NORETURN: [&str; 4] = [
    "__attribute__ ((__noreturn__))",
    "__attribute__((__noreturn__))",
    "__attribute__ ((noreturn))",
    "__attribute__((noreturn))",
];

/// The source with the `noreturn` attributes of `__VERIFIER_*` declarations blanked, or `None`
/// when it has none (the common case: the file is compiled as it is).
pub(crate) fn without_noreturn_verifier_decls(source: &str, path: &Path) -> Option<String> {
    let mut changed = false;
    let lines: Vec<String> = source
        .split('\n')
        .map(|line| {
            if !line.contains("__VERIFIER_") || line.trim_end().ends_with('{') {
                return line.to_owned();
            }
            let mut out = line.to_owned();
            for attr in NORETURN {
                while let Some(at) = out.find(attr) {
                    out.replace_range(at..at + attr.len(), &" ".repeat(attr.len()));
                    changed = true;
                }
            }
            out
        })
        .collect();
    changed.then(|| {
        let name = path
            .display()
            .to_string()
            .replace('\\', "\\\\")
            .replace('"', "\\\"");
        format!("#line 1 \"{name}\"\n{}", lines.join("\n"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_only_verifier_declarations() {
        let src = "extern void __VERIFIER_assume() __attribute__ ((__noreturn__));\n\
                   extern void reach_error() __attribute__ ((__noreturn__));\nint x;";
        let out = without_noreturn_verifier_decls(src, Path::new("a.c")).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "#line 1 \"a.c\"");
        assert_eq!(
            lines[1].split_whitespace().collect::<Vec<_>>(),
            ["extern", "void", "__VERIFIER_assume()", ";"]
        );
        assert_eq!(lines[1].len(), src.lines().next().unwrap().len());
        assert!(lines[2].contains("__noreturn__"));
        assert_eq!(
            without_noreturn_verifier_decls("int __VERIFIER_nondet_int();", Path::new("a.c")),
            None
        );
    }
}
