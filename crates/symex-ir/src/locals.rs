//! Source variables from LLVM value names. clang (`-fno-discard-value-names`) names the alloca of a local
//! `x` as `%x` and that of a parameter `x` as `%x.addr`; a second variable of the same name becomes `%x1`,
//! `%x2`, … (LLVM makes names unique by appending a number), and clang's own temporaries have fixed
//! names (`retval`, `tmp`, `saved_stack`, `agg.tmp`, …). The debug-info variable records are not
//! readable through `llvm-ir`, so a name is only trusted when it cannot be one of those renamings: a
//! name that is another's plus digits, or that two allocas share, is left out. What is left out is only
//! missing (a caller that names variables falls back to something else), never wrong.

use crate::ir::{Block, Inst, Intrinsic, Loc, LocalVar, Operand, Slot};
use rustc_hash::FxHashMap;

/// clang's names for its own stack slots (not source variables).
const CLANG_TEMPORARIES: &[&str] = &["retval", "tmp", "saved_stack", "compoundliteral"];

/// The allocas of `allocas` (slot and LLVM name) that are source variables, with the start of their
/// lifetime found in `blocks`.
pub(crate) fn source_variables(blocks: &[Block], allocas: &[(Slot, String)]) -> Vec<LocalVar> {
    let base = |raw: &str| raw.strip_suffix(".addr").unwrap_or(raw).to_string();
    let bases: Vec<String> = allocas.iter().map(|(_, raw)| base(raw)).collect();
    let starts = lifetime_starts(blocks, allocas);
    allocas
        .iter()
        .zip(&bases)
        .filter(|(_, b)| is_identifier(b) && !is_temporary(b))
        .filter(|(_, b)| !bases.iter().filter(|o| o != b).any(|o| renames(o, b)))
        .filter(|(_, b)| bases.iter().filter(|o| o == b).count() == 1)
        .map(|((slot, raw), b)| LocalVar {
            slot: *slot,
            name: b.clone(),
            param: raw.ends_with(".addr"),
            decl: starts.get(slot).copied(),
        })
        .collect()
}

/// Whether one of `a` and `b` is the other followed by digits (a renaming LLVM may have made).
fn renames(a: &str, b: &str) -> bool {
    let plus_digits = |long: &str, short: &str| {
        long.strip_prefix(short)
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|c| c.is_ascii_digit()))
    };
    plus_digits(a, b) || plus_digits(b, a)
}

fn is_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn is_temporary(s: &str) -> bool {
    CLANG_TEMPORARIES.contains(&s) || s.starts_with("__vla_expr")
}

/// The source position of the first `llvm.lifetime.start` of each alloca (through the pointer copies
/// that typed-pointer bitcasts lower to).
fn lifetime_starts(blocks: &[Block], allocas: &[(Slot, String)]) -> FxHashMap<Slot, Loc> {
    let mut origin: FxHashMap<Slot, Slot> = allocas.iter().map(|(s, _)| (*s, *s)).collect();
    for inst in blocks.iter().flat_map(|b| &b.insts) {
        if let Inst::Copy {
            dst,
            src: Operand::Slot(s),
        } = inst
        {
            if let Some(a) = origin.get(s).copied() {
                origin.insert(*dst, a);
            }
        }
    }
    let mut starts = FxHashMap::default();
    for b in blocks {
        for (inst, loc) in b.insts.iter().zip(&b.locs) {
            if let Inst::Intrinsic {
                op: Intrinsic::LifetimeStart,
                args,
                ..
            } = inst
            {
                if let Some(Operand::Slot(p)) = args.get(1) {
                    if let Some(a) = origin.get(p) {
                        starts.entry(*a).or_insert(*loc);
                    }
                }
            }
        }
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(raw: &[&str]) -> Vec<String> {
        let allocas: Vec<(Slot, String)> = raw
            .iter()
            .enumerate()
            .map(|(i, n)| (Slot(i as u32), n.to_string()))
            .collect();
        source_variables(&[], &allocas)
            .into_iter()
            .map(|v| v.name)
            .collect()
    }

    #[test]
    fn renamed_and_clang_names_are_left_out() {
        assert_eq!(
            names(&["retval", "n.addr", "i", "x", "x1", "sum"]),
            ["n", "i", "sum"]
        );
        // A parameter and a local of the same name (an inner block's): neither is trusted.
        assert_eq!(names(&["k.addr", "k", "j"]), ["j"]);
        assert_eq!(names(&["tmp", "agg.tmp", "__vla_expr0", "a2b"]), ["a2b"]);
    }
}
