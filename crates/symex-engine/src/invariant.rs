//! Loop invariants as a proof states them for others to check: a C expression over the program's own
//! variables that holds whenever control reaches the loop head (SV-COMP's correctness witnesses, the
//! `loop_invariant` of YAML format 2.0). The engines that prove a loop safe (k-induction, Horn clauses)
//! produce them; the witness writer places them in the source.

/// A loop invariant in the source's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInvariant {
    /// The function the loop is in.
    pub function: String,
    /// The loop's line (its header's source line, as `bmc --list-loops` names loops).
    pub line: u32,
    /// A C expression (`assert(expression)` at the loop head cannot fail); only the program's variables,
    /// literals and casts to standard integer types.
    pub expression: String,
}
