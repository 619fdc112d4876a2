//! Errors: unsupported constructs name themselves and their position; compile errors carry
//! clang's diagnostics; bad inputs are reported, never a panic.

use super::common::*;
use symex_ir::*;

#[test]
fn floating_point_is_refused_with_its_position() {
    let err = try_c(
        "int f(int x) {\n  double d = x;\n  return d > 1.5;\n}\n",
        &FrontendOptions::default(),
    )
    .unwrap_err();
    let FrontendError::Unsupported {
        construct,
        location,
        function,
    } = &err
    else {
        panic!("{err:?}")
    };
    assert!(
        construct.contains("floating-point instruction `sitofp`"),
        "{construct}"
    );
    assert_eq!(function.as_deref(), Some("f"));
    let location = location.as_deref().unwrap();
    assert!(location.ends_with("prog.c:2:14"), "{location}");
    assert!(err.to_string().starts_with(location), "{err}");
}

#[test]
fn float_globals_are_refused_by_name() {
    let err = try_c(
        "float pi = 3.14f;\nint main(void) { return 0; }",
        &FrontendOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("floating-point"), "{err}");
    assert!(err.to_string().contains("pi"), "{err}");
}

#[test]
fn inline_assembly_is_refused() {
    let err = try_c(
        "int f(void) { int x; __asm__(\"movl $1, %0\" : \"=r\"(x)); return x; }",
        &FrontendOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("inline assembly"), "{err}");
    assert!(err.location().is_some_and(|l| l.contains(":1:")), "{err}");
}

/// Computed goto is lowered, but `llvm-sys` tells the label of a `blockaddress` per instruction only:
/// a table of labels in a global initializer is refused, naming the construct.
#[test]
fn a_label_table_in_a_global_initializer_is_refused() {
    let err = try_c(
        "int f(int i) { static void *t[] = { &&a, &&b }; goto *t[i]; a: return 1; b: return 2; }",
        &FrontendOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("blockaddress"), "{err}");
}

#[test]
fn compile_errors_carry_clang_diagnostics() {
    let err = try_c(
        "int f(void) { return undeclared_thing; }",
        &FrontendOptions::default(),
    )
    .unwrap_err();
    let FrontendError::Compile { diagnostics, .. } = &err else {
        panic!("{err:?}")
    };
    assert!(diagnostics.contains("undeclared_thing"), "{diagnostics}");
    assert!(diagnostics.contains("error"), "{diagnostics}");
}

#[test]
fn defines_and_include_dirs_pass_through() {
    let inc = scratch("defs.h", "#define FROM_HEADER 40\n");
    let opts = FrontendOptions {
        include_dirs: vec![inc.parent().unwrap().to_path_buf()],
        defines: vec!["EXTRA=2".into()],
        cflags: vec!["-DTHIRD".into()],
        ..FrontendOptions::default()
    };
    let m = c_with("#include \"defs.h\"\n#ifndef THIRD\n#error no\n#endif\nint f(void) { return FROM_HEADER + EXTRA; }", &opts);
    let Terminator::Ret(Some(v)) = body(&m, "f").blocks[0].term else {
        panic!()
    };
    assert_eq!(int_const(&m, v), 42);
}

#[test]
fn bad_inputs_are_errors() {
    let missing = load("/nonexistent/x.c".as_ref(), &FrontendOptions::default()).unwrap_err();
    assert!(
        matches!(missing, FrontendError::Input { .. }),
        "{missing:?}"
    );
    let kind = load(&scratch("x.txt", "hi"), &FrontendOptions::default()).unwrap_err();
    assert!(kind.to_string().contains("unknown input kind"), "{kind}");
    let bad_ll = load(
        &scratch("x.ll", "this is not llvm"),
        &FrontendOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(bad_ll, FrontendError::Parse { .. }), "{bad_ll:?}");
    let bad_pass = try_c(
        "int main(void){return 0;}",
        &FrontendOptions {
            passes: Some("no-such-pass".into()),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(bad_pass.to_string().contains("no-such-pass"), "{bad_pass}");
}

#[test]
fn preprocessed_and_bitcode_inputs_load() {
    let i = scratch("p.i", "int main(void) { return 3; }\n");
    assert!(load(&i, &FrontendOptions::default()).is_ok());
    let bc = scratch("p.c", "int main(void) { return 3; }\n").with_extension("bc");
    let status = std::process::Command::new("clang-14")
        .args(["-c", "-emit-llvm", "-o"])
        .arg(&bc)
        .arg(bc.with_extension("c"))
        .status()
        .unwrap();
    assert!(status.success());
    let m = load(&bc, &FrontendOptions::default()).unwrap();
    assert!(m.function_by_name("main").is_some());
}

#[test]
fn a_missing_compiler_is_an_error_that_says_how_to_install_it() {
    let opts = FrontendOptions {
        clang: Some("clang-does-not-exist-14".into()),
        ..FrontendOptions::default()
    };
    let err = try_c("int main(void) { return 0; }", &opts).unwrap_err();
    assert!(matches!(err, FrontendError::Tool { .. }), "{err:?}");
    assert!(
        err.to_string().contains("apt-get install -y clang-14"),
        "{err}"
    );
}
