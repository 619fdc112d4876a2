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

/// A linear fact at a loop head over the program's variables, `Σ coefficient·variable + constant ≥ 0`
/// (or `= 0`), that one analysis believes (the abstract states of `symex term`) and another must check
/// before anything rests on it: a *candidate* invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearCandidate {
    /// The function the loop is in and the loop's line (as [`LoopInvariant`]).
    pub function: String,
    pub line: u32,
    pub terms: Vec<LinearTerm>,
    pub constant: i128,
    /// `= 0` rather than `≥ 0`.
    pub equality: bool,
}

/// `coefficient · variable`, the variable's `width` bits read as signed or unsigned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearTerm {
    pub variable: String,
    pub coefficient: i128,
    pub width: u32,
    pub signed: bool,
}

/// C's standard integer type of `bits` bits (8, 16, 32, 64), signed or not: what the invariants written
/// for witnesses cast a value to so that it means what the proof read.
pub fn c_integer_type(bits: u32, signed: bool) -> Option<&'static str> {
    Some(match (bits, signed) {
        (8, true) => "signed char",
        (8, false) => "unsigned char",
        (16, true) => "short",
        (16, false) => "unsigned short",
        (32, true) => "int",
        (32, false) => "unsigned int",
        (64, true) => "long long",
        (64, false) => "unsigned long long",
        _ => return None,
    })
}

/// Largest coefficient and term count for which `long long` arithmetic over variables of at most 32 bits
/// cannot overflow: 16 · 2^20 · 2^32 < 2^63.
const MAX_C_COEFFICIENT: i128 = 1 << 20;
const MAX_C_TERMS: usize = 16;

impl LinearCandidate {
    /// The fact as a C expression meaning exactly it: every variable cast to its reading's standard type
    /// and then to `long long`, in which the sum cannot overflow; `None` when that cannot be promised
    /// (a variable wider than 32 bits, a coefficient or constant too large, too many terms).
    pub fn c_expression(&self) -> Option<String> {
        if self.terms.is_empty()
            || self.terms.len() > MAX_C_TERMS
            || self.constant.abs() > MAX_C_COEFFICIENT << 20
        {
            return None;
        }
        let mut sum = String::new();
        for (i, t) in self.terms.iter().enumerate() {
            if t.coefficient == 0 || t.coefficient.abs() > MAX_C_COEFFICIENT {
                return None;
            }
            let ty = c_integer_type(t.width, t.signed).filter(|_| t.width <= 32)?;
            let value = format!("(long long)({ty}){}", t.variable);
            let sign = if t.coefficient < 0 { "-" } else { "+" };
            let factor = match t.coefficient.abs() {
                1 => value,
                c => format!("{c}LL * {value}"),
            };
            sum.push_str(&match (i, sign) {
                (0, "+") => factor,
                (0, _) => format!("-{factor}"),
                _ => format!(" {sign} {factor}"),
            });
        }
        let rel = if self.equality { "==" } else { ">=" };
        Some(format!("{sum} {rel} {}LL", -self.constant))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(variable: &str, coefficient: i128, width: u32, signed: bool) -> LinearTerm {
        LinearTerm {
            variable: variable.into(),
            coefficient,
            width,
            signed,
        }
    }

    #[test]
    fn candidates_print_as_exact_c() {
        let c = LinearCandidate {
            function: "main".into(),
            line: 3,
            terms: vec![term("y", 2, 32, false), term("x", -1, 32, true)],
            constant: -5,
            equality: false,
        };
        assert_eq!(
            c.c_expression().as_deref(),
            Some("2LL * (long long)(unsigned int)y - (long long)(int)x >= 5LL")
        );
        let wide = LinearCandidate {
            terms: vec![term("n", 1, 64, false)],
            ..c.clone()
        };
        assert_eq!(wide.c_expression(), None);
    }
}
