//! The program whose cost is asked for: its entry function (the complexity benchmarks have
//! no `main`), the C names of the entry's parameters, and external input functions.

use symex_ir::{Callee, FuncId, Inst, Module, TypeKind};

/// The function to analyse: `wanted` if given; else `main`; else the only defined function
/// no other defined function calls. The error is the message to print.
pub fn entry(module: &Module, wanted: Option<&str>) -> Result<String, String> {
    if let Some(w) = wanted {
        return match module.function_by_name(w) {
            Some(f) if module.func(f).body.is_some() => Ok(w.to_string()),
            Some(_) => Err(format!("`{w}` has no body")),
            None => Err(format!("no function `{w}`")),
        };
    }
    if module
        .function_by_name("main")
        .is_some_and(|f| module.func(f).body.is_some())
    {
        return Ok("main".into());
    }
    let mut called = vec![false; module.functions.len()];
    for f in &module.functions {
        for b in f.body.iter().flat_map(|b| b.blocks.iter()) {
            for i in &b.insts {
                if let Inst::Call(c) = i {
                    if let Callee::Direct(g) = c.callee {
                        called[g.0 as usize] = true;
                    }
                }
            }
        }
    }
    let roots: Vec<&str> = module
        .functions
        .iter()
        .zip(&called)
        .filter(|(f, c)| f.body.is_some() && !**c)
        .map(|(f, _)| f.name.as_str())
        .collect();
    match roots[..] {
        [one] => Ok(one.to_string()),
        [] => Err("no function to analyse (no `main`, and every function is called)".into()),
        _ => Err(format!(
            "no `main` and several functions nothing calls ({}): choose one with --entry",
            roots.join(", ")
        )),
    }
}

/// Names of external functions that return an arbitrary value in the complexity benchmarks
/// (`int nondet();`, `int random();`): treated as inputs, like `__VERIFIER_nondet_int`.
const INPUT_FUNCTIONS: &[&str] = &["nondet", "random", "rand", "nondet_int", "nondet_uint"];

/// `module` with every body-less input function of [`INPUT_FUNCTIONS`] that returns an
/// integer renamed to `__VERIFIER_nondet_<name>`: the SEG rules then make its result a
/// fresh value of the call's type, and the reference interpreter reads it from the test's
/// inputs — the same renamed module serves both, so the bound and the measured runs agree.
pub fn inputs_as_nondet(module: &Module) -> (Module, Vec<String>) {
    let mut m = module.clone();
    let mut renamed = Vec::new();
    for (i, f) in m.functions.iter_mut().enumerate() {
        let int = matches!(module.ty(f.ret).kind, TypeKind::Int(w) if w > 1);
        if f.body.is_none() && int && INPUT_FUNCTIONS.contains(&f.name.as_str()) {
            let new = format!("__VERIFIER_nondet_{}", f.name);
            m.function_names.remove(&f.name);
            m.function_names.insert(new.clone(), FuncId(i as u32));
            renamed.push(std::mem::replace(&mut f.name, new));
        }
    }
    (m, renamed)
}

/// The C names of `function`'s parameters, read from its definition in `source` (a C file);
/// `None` when the definition is not found or does not parse as a plain parameter list.
pub fn parameter_names(source: &str, function: &str, count: usize) -> Option<Vec<String>> {
    let code = strip_comments(source);
    let mut from = 0;
    while let Some(at) = code[from..].find(function) {
        let start = from + at;
        from = start + function.len();
        let before = code[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = code[from..].trim_start();
        let Some(list) = rest.strip_prefix('(') else {
            continue;
        };
        let Some(close) = list.find(')') else {
            continue;
        };
        // A definition: the parameter list is followed by the body.
        if !list[close + 1..].trim_start().starts_with('{') {
            continue;
        }
        let names: Vec<String> = list[..close]
            .split(',')
            .map(|p| last_identifier(p.trim()))
            .filter(|n| !n.is_empty() && n != "void")
            .collect();
        return (names.len() == count).then_some(names);
    }
    None
}

fn last_identifier(decl: &str) -> String {
    let decl = decl.split('[').next().unwrap_or("");
    let rev: String = decl
        .chars()
        .rev()
        .skip_while(|c| c.is_whitespace())
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    rev.chars().rev().collect()
}

fn strip_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    loop {
        let line = rest.find("//");
        let block = rest.find("/*");
        match (line, block) {
            (Some(l), b) if b.is_none_or(|b| l < b) => {
                out.push_str(&rest[..l]);
                rest = rest[l..].find('\n').map_or("", |e| &rest[l + e..]);
            }
            (_, Some(b)) => {
                out.push_str(&rest[..b]);
                out.push(' ');
                rest = rest[b + 2..]
                    .find("*/")
                    .map_or("", |e| &rest[b + 2 + e + 2..]);
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_names_come_from_the_definition() {
        let src = "int foo(int a, unsigned b);\n// foo(x) {\nint foo(int a,\n unsigned int *bb, char c[]) { return 0; }";
        assert_eq!(
            parameter_names(src, "foo", 3),
            Some(vec!["a".into(), "bb".into(), "c".into()])
        );
        assert_eq!(parameter_names("void h(void) {}", "h", 0), Some(vec![]));
        assert_eq!(parameter_names("void hh(int j) {}", "h", 1), None);
    }
}
