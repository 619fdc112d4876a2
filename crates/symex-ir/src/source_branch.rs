//! Which way a conditional branch goes in the source as written. Verifiers' witnesses name branches by
//! the condition's line and whether it held (`condition-true`, `branching` waypoints); clang (at `-O0`)
//! tells which target is which only through its block labels (`if.then`, `for.end`, ...), so both the
//! witness writer and the validator read them here.

use crate::ir::{Block, BlockId, Operand, Terminator};

/// A conditional branch of the source: the line of its condition and whether clang's labels show its
/// true target as the condition's true side and its false target as the false side (`labelled`).
/// Unlabelled are branches whose targets clang swapped (its code for `!c`, and for the last operand of
/// a negated `&&`/`||`: tools differ on what `condition-true` means there), operands of `&&`/`||` in
/// value context, and clang's own checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceCondition {
    pub line: u32,
    pub labelled: bool,
    /// The branch's targets when the condition holds and when it does not.
    pub if_true: BlockId,
    pub if_false: BlockId,
}

/// The source condition `b`'s terminator decides, when it is a conditional branch with a source line;
/// `blocks` are those of `b`'s function.
pub fn source_condition(blocks: &[Block], b: &Block) -> Option<SourceCondition> {
    let Terminator::CondBr {
        cond,
        if_true,
        if_false,
    } = &b.term
    else {
        return None;
    };
    if b.term_loc.line == 0 {
        return None;
    }
    let side = |to: BlockId| label_side(&blocks[to.0 as usize].name);
    Some(SourceCondition {
        line: condition_line(b, *cond),
        labelled: side(if_true.to) == Some(true) && side(if_false.to) == Some(false),
        if_true: if_true.to,
        if_false: if_false.to,
    })
}

/// The line of the condition `cond` of `b`'s branch: that of the instruction computing it, when `b`
/// does. clang places a `do`-`while`'s branch, and the conversion of its condition to a truth value, at
/// the end of its body (the line before `while (c);` when the body is one statement), while a
/// validator's automaton and the coverage of the native build place it at the condition: the block
/// clang labels `do.cond` starts with the condition's first instruction.
fn condition_line(b: &Block, cond: Operand) -> u32 {
    if b.name.trim_end_matches(|c: char| c.is_ascii_digit()) == "do.cond" {
        if let Some(l) = b.locs.iter().map(|l| l.line).find(|&l| l != 0) {
            return l;
        }
    }
    let Operand::Slot(slot) = cond else {
        return b.term_loc.line;
    };
    b.insts
        .iter()
        .zip(&b.locs)
        .rev()
        .find(|(inst, _)| inst.dst() == Some(slot))
        .map(|(_, loc)| loc.line)
        .filter(|&l| l != 0)
        .unwrap_or(b.term_loc.line)
}

/// Whether clang (at -O0) labels the block `label` as the side of a condition that holds (`if.then`,
/// `for.body`, ...) or the side that does not (`if.else`, `for.end`, ...). Other labels (operands of
/// `&&`/`||` in value context, clang's own checks such as overflow handlers) have no side: a source-level
/// automaton has no edge for them.
pub fn label_side(label: &str) -> Option<bool> {
    let base = label.trim_end_matches(|c: char| c.is_ascii_digit());
    match base {
        "if.then" | "while.body" | "for.body" | "do.body" | "land.lhs.true" | "cond.true" => {
            Some(true)
        }
        "if.else" | "if.end" | "while.end" | "for.end" | "for.cond.cleanup" | "do.end"
        | "lor.lhs.false" | "cond.false" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::label_side;

    #[test]
    fn clang_labels_name_the_sides_of_a_condition() {
        assert_eq!(label_side("if.then"), Some(true));
        assert_eq!(label_side("for.body12"), Some(true));
        assert_eq!(label_side("if.end7"), Some(false));
        assert_eq!(label_side("land.rhs"), None);
        assert_eq!(label_side("cont"), None);
    }
}
