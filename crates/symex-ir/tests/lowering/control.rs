//! Blocks, branches, switch, phis as edge moves, unreachable, debug locations.

use super::common::*;
use symex_ir::*;

#[test]
fn branches_switch_and_return() {
    let m = c(r#"
int f(int x) {
  switch (x) { case 1: return 10; case -2: return 20; case 300: x++; break; default: break; }
  if (x > 5) return 1;
  return 0;
}"#);
    let b = body(&m, "f");
    let sw = b
        .blocks
        .iter()
        .find_map(|blk| match &blk.term {
            Terminator::Switch(s) => Some(s),
            _ => None,
        })
        .expect("a switch");
    assert_eq!(sw.width, 32);
    let cases: Vec<u128> = sw.cases.iter().map(|(v, _)| *v).collect();
    assert_eq!(
        cases,
        vec![1, 0xffff_fffe, 300],
        "case values are masked to the width"
    );
    assert!(b
        .blocks
        .iter()
        .any(|blk| matches!(blk.term, Terminator::CondBr { .. })));
    assert!(b
        .blocks
        .iter()
        .any(|blk| matches!(blk.term, Terminator::Ret(Some(_)))));
    for blk in &b.blocks {
        assert_eq!(blk.insts.len(), blk.locs.len());
    }
}

#[test]
fn phis_become_parallel_moves_on_edges() {
    // A swap loop: the moves on the back edge must be read before they are written.
    let m = ll(r#"
define i32 @f(i32 %n) {
entry:
  br label %loop
loop:
  %a = phi i32 [ 1, %entry ], [ %b, %loop ]
  %b = phi i32 [ 2, %entry ], [ %a, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %a
}"#);
    let b = body(&m, "f");
    let (a, bb) = (Slot(1), Slot(2));
    let Terminator::Br(entry) = &b.blocks[0].term else {
        panic!()
    };
    assert_eq!(entry.to, BlockId(1));
    assert_eq!(entry.moves.len(), 3);
    assert_eq!(int_const(&m, entry.moves[0].src), 1);
    let Terminator::CondBr {
        if_true, if_false, ..
    } = &b.blocks[1].term
    else {
        panic!()
    };
    assert_eq!(if_true.to, BlockId(1));
    assert_eq!(
        &if_true.moves[..2],
        &[
            PhiMove {
                dst: a,
                src: Operand::Slot(bb)
            },
            PhiMove {
                dst: bb,
                src: Operand::Slot(a)
            }
        ]
    );
    assert!(if_false.moves.is_empty());
    assert_eq!(b.blocks[1].phis.len(), 3);
    assert_eq!(
        b.blocks[1].phis[0].incoming[1],
        (Operand::Slot(bb), BlockId(1))
    );
}

#[test]
fn mem2reg_option_removes_allocas_and_introduces_phis() {
    let src = "int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }";
    let plain = c(src);
    let simplified = c_with(src, &FrontendOptions::default().with_simplify());
    let count = |m: &Module| insts(m, "f").len();
    assert!(insts(&plain, "f")
        .iter()
        .any(|i| matches!(i, Inst::Alloca { .. })));
    assert!(!insts(&simplified, "f")
        .iter()
        .any(|i| matches!(i, Inst::Alloca { .. })));
    assert!(body(&simplified, "f")
        .blocks
        .iter()
        .any(|b| !b.phis.is_empty()));
    assert!(
        count(&simplified) < count(&plain) / 2,
        "{} vs {}",
        count(&simplified),
        count(&plain)
    );
}

#[test]
fn unreachable_after_builtin_unreachable() {
    let m = c("int f(int x) { if (x) __builtin_unreachable(); return 1; }");
    assert!(body(&m, "f")
        .blocks
        .iter()
        .any(|b| b.term == Terminator::Unreachable));
}

#[test]
fn instructions_carry_source_lines() {
    let m = c("int f(int x) {\n  int y = x * 3;\n  return y + 1;\n}\n");
    let b = body(&m, "f");
    let mul_line = b
        .blocks
        .iter()
        .flat_map(|blk| blk.insts.iter().zip(&blk.locs))
        .find_map(|(i, l)| matches!(i, Inst::Bin { op: BinOp::Mul, .. }).then_some(*l))
        .unwrap();
    assert_eq!(mul_line.line, 2);
    assert!(
        m.describe_loc(mul_line).ends_with("prog.c:2:13"),
        "{}",
        m.describe_loc(mul_line)
    );
    let ret_loc = b.blocks.last().unwrap().term_loc;
    assert_eq!(ret_loc.line, 3);
    assert_eq!(m.func(m.function_by_name("f").unwrap()).loc.line, 1);
}

#[test]
fn the_module_prints_readably() {
    let m = c_with(
        "int g[2];\nint f(int n) { int s = 0; for (int i = 0; i < n; i++) s += g[i & 1]; return s; }",
        &FrontendOptions::default().with_simplify(),
    );
    let text = m.to_string();
    assert!(
        text.contains("@g = global [2 x i32] size 8 align 4"),
        "{text}"
    );
    assert!(text.contains("define i32 @f(i32 %0)"), "{text}");
    assert!(text.contains("Add nsw i32"), "{text}");
    assert!(text.contains(" = phi i32 [0, bb0]"), "{text}");
    assert!(text.contains("gep inbounds @g + 0 + i64 "), "{text}");
}
